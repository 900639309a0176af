import type { Ports } from '../workers/runtime/ports.ts';
import type { OpSample } from './ingest-stats.ts';

/** The ports whose calls the per-document profile times. */
export const TIMED_PORTS = ['status', 'artifacts', 'store', 'queues', 'extractor', 'embedder', 'embeddingCache'] as const;

/**
 * Wraps an object so every method call records `<name>.<method>` and its duration (a promise is
 * timed until it settles). Properties that are not functions pass through.
 */
export function timeCalls<T extends object>(name: string, target: T, record: (s: OpSample) => void): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        const t0 = performance.now();
        const done = () => record({ op: `${name}.${key}`, ms: performance.now() - t0 });
        const out: unknown = Reflect.apply(value as (...a: unknown[]) => unknown, obj, args);
        if (out instanceof Promise) return out.finally(done);
        done();
        return out;
      };
    },
  });
}

/** The same ports with the {@link TIMED_PORTS} timed; config and Redis clients are left as they are. */
export function timePorts<P extends Ports>(ports: P, record: (s: OpSample) => void): P {
  const timed: Record<string, unknown> = { ...(ports as Ports) };
  for (const name of TIMED_PORTS) timed[name] = timeCalls(name, ports[name], record);
  return timed as unknown as P;
}
