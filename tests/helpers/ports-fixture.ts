import { afterAll, beforeAll } from 'vitest';
import { createPorts } from '../../workers/compose.ts';
import { testWorkspace } from './pipeline.ts';
import { startTestRedis } from './redis.ts';

type Ports = Awaited<ReturnType<typeof createPorts>>;

/** What {@link usePortsFixture} gives a suite once its `beforeAll` has run. */
export interface PortsFixture {
  readonly redis: Awaited<ReturnType<typeof startTestRedis>>;
  readonly ws: ReturnType<typeof testWorkspace>;
  readonly ports: Ports;
}

/**
 * A private redis-server, a temp workspace (`env` laid over its defaults) and the ports on them,
 * for the suite this is called in: set up before its tests, closed and removed after. Hooks the
 * suite registers later run after the set-up and, at the end, before the tear-down.
 */
export function usePortsFixture(env: Record<string, string> = {}): PortsFixture {
  let redis: PortsFixture['redis'] | undefined;
  let ws: PortsFixture['ws'] | undefined;
  let ports: Ports | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, env);
    ports = await createPorts(ws.config);
  });
  afterAll(async () => {
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('usePortsFixture: used before its beforeAll ran');
    return value;
  };
  return {
    get redis() {
      return ready(redis);
    },
    get ws() {
      return ready(ws);
    },
    get ports() {
      return ready(ports);
    },
  };
}
