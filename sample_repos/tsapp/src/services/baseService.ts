/** Minimal logger interface accepted by every service. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/** Logger that writes to the process console. */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

/**
 * Common plumbing for services: a name, logging and a health check.
 * Subclasses must implement `init`, which is awaited once at start-up.
 */
export abstract class BaseService {
  protected readonly startedAt: Date = new Date();

  constructor(
    protected readonly name: string,
    protected logger: Logger = consoleLogger,
  ) {}

  /** Return a one-line status string for the health endpoint. */
  health(): string {
    return `${this.name}: up since ${this.startedAt.toISOString()}`;
  }

  // Prefix messages with the service name so interleaved logs stay readable.
  protected log(message: string): void {
    this.logger.info(`[${this.name}] ${message}`);
  }

  abstract init(): Promise<void>;
}
