export default function call(): void {}

export function version(): string {
  return '1';
}
