export class Cache {
  get(key: string): string {
    return key;
  }
}
