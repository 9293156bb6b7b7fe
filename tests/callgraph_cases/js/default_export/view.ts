export default function show(): void {
  paint();
}

function paint(): void {}
