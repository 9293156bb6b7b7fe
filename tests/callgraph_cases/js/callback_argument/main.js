function apply(fn, value) {
  return fn(value);
}

function inc(x) {
  return x + 1;
}

apply(inc, 1);
