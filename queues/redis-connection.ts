import { Redis } from 'ioredis';

/**
 * A Redis client as BullMQ wants it: commands wait through reconnects instead of failing. Every
 * BullMQ connection Quarry opens is one (the ports' shared client, each Worker's blocking
 * connection, QueueEvents).
 */
export function createRedis(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
  // ioredis reconnects by itself and every command waiting on it fails or resumes on its own;
  // the listener only keeps connection errors from being reported as unhandled events.
  client.on('error', () => undefined);
  return client;
}
