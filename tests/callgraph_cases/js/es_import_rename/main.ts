import { compute as calc } from './math';

export function run(): number {
  return calc(2);
}

run();
