class Logger {
  info(): void {}
}

function use(logger?: Logger): void {
  logger?.info();
}

use(new Logger());
