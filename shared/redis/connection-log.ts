import type { Logger } from '../telemetry/index.ts';

/** Whether a named connection was last seen working. */
export type ConnectionState = 'up' | 'down';

/** Where a connection stands for the log. */
export interface ConnectionStatus {
  state: ConnectionState;
  /** Errors swallowed since the last line (reported with the next one). */
  suppressed: number;
  /** When the last error arrived (ms). */
  lastErrorAt: number;
}

/** What one connection event means for the log: a new status, and the line to write, if any. */
export interface ConnectionStep extends ConnectionStatus {
  line: { level: 'warn' | 'info'; msg: string } | null;
}

/**
 * After this long without an error a 'down' source counts as up again: BullMQ objects forward
 * errors but not their connection's 'ready', so without it a later outage would go unlogged.
 * @defaultValue 30000
 */
export const QUIET_MS = 30_000;

/**
 * The next status of a connection after an error or a ready event at `at` (ms). Pure: one line
 * per change of state, never one per error (in an outage every client fails every reconnect).
 */
export function nextConnectionStep(prev: ConnectionStatus, event: 'error' | 'ready', at: number): ConnectionStep {
  if (event === 'error') {
    if (prev.state === 'up' || at - prev.lastErrorAt > QUIET_MS) return { state: 'down', suppressed: 0, lastErrorAt: at, line: { level: 'warn', msg: 'redis connection lost' } };
    return { state: 'down', suppressed: prev.suppressed + 1, lastErrorAt: at, line: null };
  }
  if (prev.state === 'down') return { state: 'up', suppressed: 0, lastErrorAt: prev.lastErrorAt, line: { level: 'info', msg: 'redis connection restored' } };
  return { ...prev, line: null };
}

/** Reports connection errors of Redis clients and BullMQ objects through the JSON logger, rate-limited. */
export interface ConnectionLog {
  /** An error on `source` (a client, a Queue, a QueueEvents sharing it). */
  error(source: string, err: unknown): void;
  /** `source` answered again. */
  ready(source: string): void;
}

function errorFields(err: unknown): Record<string, unknown> {
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    // Message only: an ioredis/BullMQ stack says nothing an operator can act on.
    return { error: err.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { error: String(err) };
}

/** A connection log writing to `log`: one warn line when a source goes down, one info line when it is back. */
export function createConnectionLog(log: Logger, now: () => number = Date.now): ConnectionLog {
  const states = new Map<string, ConnectionStatus>();
  const apply = (source: string, event: 'error' | 'ready', err?: unknown) => {
    const prev = states.get(source) ?? { state: 'up' as const, suppressed: 0, lastErrorAt: 0 };
    const { line, ...status } = nextConnectionStep(prev, event, now());
    states.set(source, status);
    if (!line) return;
    const fields = line.level === 'warn' ? { source, ...errorFields(err) } : { source, suppressedErrors: prev.suppressed };
    log[line.level](line.msg, fields);
  };
  return {
    error: (source, err) => apply(source, 'error', err),
    ready: (source) => apply(source, 'ready'),
  };
}

/** Anything that emits 'error' (and maybe 'ready'): an ioredis client, a BullMQ Queue, QueueEvents or Worker. */
export interface ErrorEmitter {
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Sends `emitter`'s 'error' events (and an ioredis client's 'ready') to `clog` under `source`.
 * Without an 'error' listener, ioredis prints "[ioredis] Unhandled error event" and BullMQ prints
 * the error with console.error: raw multi-line dumps, one per reconnect attempt.
 */
export function watchConnection(emitter: ErrorEmitter, source: string, clog: ConnectionLog, opts: { readyEvents?: boolean } = {}): void {
  emitter.on('error', (err) => clog.error(source, err));
  if (opts.readyEvents) (emitter as unknown as { on(event: 'ready', listener: () => void): unknown }).on('ready', () => clog.ready(source));
}

/**
 * An 'error' listener that logs the first error and then at most one line per `QUIET_MS` with the
 * number swallowed meanwhile: for BullMQ Workers, whose blocking connection reports every failed
 * reconnect attempt (several a second per worker during an outage).
 */
export function throttledErrorLog(log: Logger, msg: string, now: () => number = Date.now): (err: Error) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (err) => {
    const at = now();
    if (at - lastAt < QUIET_MS) {
      suppressed += 1;
      return;
    }
    log.error(msg, { ...errorFields(err), suppressedErrors: suppressed });
    lastAt = at;
    suppressed = 0;
  };
}
