/**
 * How a long-running `quarry` process ends: one SIGTERM or SIGINT to the process a user or a
 * supervisor holds stops everything it started, within a bounded time, and nothing is left behind.
 */
import type { Logger } from '../../shared/telemetry/index.ts';

/**
 * Signals that arrive this soon after the first are the same request, not a second one: a
 * terminal's Ctrl-C reaches the whole foreground process group, so `npm run dev` delivers it to
 * Quarry twice (from the terminal, and forwarded by npm). @defaultValue 1000
 */
export const REPEAT_WINDOW_MS = 1000;

/** How often the parent is checked when Quarry runs under a wrapper (see `watchesParent`). @defaultValue 1000 */
export const PARENT_CHECK_MS = 1000;

/** Set by a wrapper that starts Quarry as its child and should take it along when it goes (apps/cli/quarry.mjs re-running on a newer Node). */
export const WRAPPED_ENV = 'QUARRY_WRAPPED';

/** What a signal means to a process already stopping, `sinceFirstMs` after the first. */
export function repeatedSignal(sinceFirstMs: number): 'same-request' | 'exit-now' {
  return sinceFirstMs < REPEAT_WINDOW_MS ? 'same-request' : 'exit-now';
}

/**
 * Whether this process should stop when its parent goes: only under a foreground wrapper whose
 * death means nobody is left to stop it (npm, or Quarry's own re-run on a newer Node). Started
 * directly, or by a supervisor, a process must outlive a shell that started it in the background.
 */
export function watchesParent(env: NodeJS.ProcessEnv, ppid: number): boolean {
  if (ppid <= 1) return false;
  return env[WRAPPED_ENV] === '1' || typeof env.npm_lifecycle_event === 'string';
}

export interface StopOnSignalsOptions {
  /** Runs after the target has stopped (stop a Redis this process started, flush telemetry). */
  after?: () => Promise<void>;
  /** Exit code once stopped. @defaultValue 0 */
  exitCode?: number;
  /**
   * The longest a stop may take before the process exits anyway (what it started is stopped by
   * its guards when it exits: extraction children, a private Redis). @defaultValue 60000
   */
  deadlineMs?: number;
}

/**
 * Stops `target` on SIGTERM or SIGINT, or when the wrapper that started this process dies, then
 * exits. The same Ctrl-C delivered twice is one request; a second request a moment later exits at
 * once (code 130). A stop that outlives `deadlineMs` exits with code 1.
 */
export function stopOnSignals(target: { stop(): Promise<void> }, log: Logger, opts: StopOnSignalsOptions = {}): void {
  let firstAt: number | null = null;
  const stop = (reason: string) => {
    if (firstAt !== null) {
      if (repeatedSignal(Date.now() - firstAt) === 'exit-now') {
        log.warn('second stop request: exiting at once', { reason });
        process.exit(130);
      }
      return;
    }
    firstAt = Date.now();
    log.info('shutting down', { signal: reason });
    const deadline = setTimeout(() => {
      log.error('shutdown did not finish in time: exiting', { deadlineMs: opts.deadlineMs ?? 60_000 });
      process.exit(1);
    }, opts.deadlineMs ?? 60_000);
    deadline.unref();
    void target
      .stop()
      .then(() => opts.after?.())
      .then(() => process.exit(opts.exitCode ?? 0))
      .catch((err: unknown) => {
        log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const parent = process.ppid;
  if (watchesParent(process.env, parent)) {
    setInterval(() => {
      if (process.ppid !== parent) stop('parent exited');
    }, PARENT_CHECK_MS).unref();
  }
}
