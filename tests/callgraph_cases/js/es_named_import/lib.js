export function greet(name) {
  return format(name);
}

function format(name) {
  return name;
}
