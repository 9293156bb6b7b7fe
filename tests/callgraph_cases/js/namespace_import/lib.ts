export function start(): void {
  stop();
}

export function stop(): void {}
