class Counter {
  private n = 0;

  inc(): void {
    this.add(1);
  }

  add(k: number): void {
    this.n += k;
  }
}

const c = new Counter();
c.inc();
