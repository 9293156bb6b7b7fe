'use strict';

const fs = require('fs');
const path = require('path');

const DEFAULTS = {
  port: 3000,
  host: '127.0.0.1',
  logLevel: 'info',
  db: { pool: 5, timeoutMs: 2000 },
};

const ENV_PREFIX = 'TSAPP_';

/**
 * Recursively merge `override` into `base` and return a new object.
 * Arrays and primitives from `override` replace the base value outright.
 */
function deepMerge(base, override) {
  const out = { ...base };
  for (const [key, value] of Object.entries(override || {})) {
    const current = out[key];
    if (isPlainObject(current) && isPlainObject(value)) {
      out[key] = deepMerge(current, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Read a JSON file, returning an empty object when it does not exist.
function readJson(file) {
  if (!fs.existsSync(file)) {
    return {};
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * Apply `TSAPP_*` environment variables on top of a config object.
 * `TSAPP_DB__POOL=10` sets `db.pool`; values are parsed as JSON when possible.
 */
function applyEnv(config, env) {
  let result = config;
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX)) continue;
    const keys = name.slice(ENV_PREFIX.length).toLowerCase().split('__');
    let value;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      value = raw;
    }
    const patch = keys.reduceRight((acc, key) => ({ [key]: acc }), value);
    result = deepMerge(result, patch);
  }
  return result;
}

/** Load configuration from `<dir>/config.json`, layered over defaults and env. */
function loadConfig(dir) {
  const fromFile = readJson(path.join(dir, 'config.json'));
  return applyEnv(deepMerge(DEFAULTS, fromFile), process.env);
}

/** Read-only access to a loaded configuration using dotted keys. */
class ConfigStore {
  constructor(values) {
    this.values = Object.freeze(values);
  }

  get(key, fallback) {
    const found = key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), this.values);
    return found === undefined ? fallback : found;
  }

  // Convenience constructor used by the legacy server.
  static fromDir(dir) {
    return new ConfigStore(loadConfig(dir));
  }
}

module.exports = { loadConfig, deepMerge, ConfigStore };
