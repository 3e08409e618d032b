import type { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { NETWORK_ERROR_CODES } from '../common/network-errors.js';
import type { Redis, RedisOptions } from 'ioredis';

/** ioredis options from a `redis://` or `rediss://` URL (user, password, database number, TLS). */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

/** Resolves once the client is connected (at once if it already is); rejects after `ms`. */
export function redisReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis not ready after ${ms} ms (${redis.status})`));
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}

const logger = new Logger('Redis');

/** Errors of a connection to Redis that is refused, lost or not made in time. */
function isConnectionError(error: Error & { code?: string }): boolean {
  return (
    NETWORK_ERROR_CODES.has(error.code ?? '') ||
    /connect|Connection is closed|Stream isn't writeable/i.test(error.message)
  );
}

/**
 * Logs an outage once, when it starts (the first connection error `errors` emits), and once
 * when `client` is ready again, instead of an error for every reconnection attempt (ioredis
 * retries every 2 s and, without a listener, prints each error). Other errors (a Bull queue
 * reports its jobs' troubles as errors too) are logged each time.
 */
export function logOutages(errors: EventEmitter, client: Redis, name: string): void {
  let down = false;
  errors.on('error', (error: Error & { code?: string }) => {
    if (!isConnectionError(error)) return logger.warn(`${name}: ${error.message}`);
    if (down) return;
    down = true;
    logger.warn(`${name} unreachable: ${error.message}; retrying quietly until it is back`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.log(`${name} reachable again`);
  });
}
