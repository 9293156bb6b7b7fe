import express from 'express';
import { fileURLToPath } from 'url';
import { dirname } from 'path';
import { ConfigStore } from './config.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Build a middleware that logs each request line through `log`. */
const requestLogger = (log) => (req, res, next) => {
  const started = Date.now();
  res.on('finish', () => log(`${req.method} ${req.originalUrl} ${res.statusCode} ${Date.now() - started}ms`));
  next();
};

/**
 * The pre-TypeScript HTTP server, kept alive for old API clients.
 * Routes are registered in the constructor; call `start()` to listen.
 */
export class LegacyServer {
  constructor(config) {
    this.config = config;
    this.app = express();
    this.server = null;
    this.registerRoutes();
  }

  registerRoutes() {
    this.app.use(requestLogger((line) => this.log(line)));
    this.app.get('/health', (req, res) => res.json({ ok: true }));
    this.app.get('/config/:key', (req, res) => {
      const value = this.config.get(req.params.key);
      if (value === undefined) {
        res.status(404).json({ error: 'unknown key' });
        return;
      }
      res.json({ key: req.params.key, value });
    });
  }

  log(line) {
    if (this.config.get('logLevel') !== 'silent') {
      console.log(`[legacy] ${line}`);
    }
  }

  /** Start listening on the configured host and port. */
  start() {
    const port = this.config.get('port', 3000);
    const host = this.config.get('host', '127.0.0.1');
    return new Promise((resolve) => {
      this.server = this.app.listen(port, host, () => resolve(this.server));
    });
  }

  async stop() {
    if (!this.server) return;
    await new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
    this.server = null;
  }
}

// Create a server configured from `dir` (defaults to this folder).
export const createServer = (dir = HERE) => new LegacyServer(ConfigStore.fromDir(dir));

export default async function run() {
  const server = createServer();
  await server.start();
  process.on('SIGTERM', () => server.stop());
}

// Start the server when executed directly (`npm run legacy`).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  run().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
