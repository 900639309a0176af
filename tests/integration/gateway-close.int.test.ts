import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../../apps/gateway/start-gateway.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { usePortsFixture } from '../helpers/ports-fixture.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';

/** Resolves with what `p` gave, or 'hung' after `ms`: a close that waits for Node's 60 s headers timeout fails the test. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms)));
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!REDIS_AVAILABLE)('gateway shutdown', () => {
  const fx = usePortsFixture();

  it('does not wait for a connection that never sent a byte (a browser preconnect), and closes it', async () => {
    const gateway = await startGateway(fx.ports, createLogger('silent'), { port: 0 });
    const { port } = new URL(gateway.url);
    const silent: Socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => silent.once('connect', resolve).once('error', reject));
    const ended = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    // A connection that did send a request, and keeps alive, is closed as ever.
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(await within(gateway.close(), 10_000)).toBeUndefined();
    expect(await within(ended, 5_000)).toBeUndefined();
  }, 30_000);
});
