export function compute(x: number): number {
  return x * 2;
}
