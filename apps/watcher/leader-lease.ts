/**
 * A leader lease in Redis: of all processes contending for `key`, one holds it at a time. The
 * watcher runs only while its process holds the lease, so two watchers never enqueue the same
 * files (Kubernetes runs one replica with the Recreate strategy; the lease also covers a rollout
 * or a partition that briefly leaves two pods alive).
 *
 * The holder renews every `renewMs`; a holder that stops renewing (crashed, partitioned) loses
 * the lease after `ttlMs`, and the next contender takes it on its next attempt.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RELEASE_IF_HELD, RENEW_IF_HELD } from '../../shared/redis/index.ts';
import type { Logger } from '../../shared/telemetry/index.ts';

/** What one attempt to take or keep the lease found. */
type AttemptOutcome = 'leading' | 'held-elsewhere' | 'redis-unreachable' | 'start-failed';

export interface LeaderLeaseOptions {
  redis: Redis;
  /** The lease's key (`watcherLeaseKey`, shared/redis/keys.ts, for the watcher). */
  key: string;
  /** Called when this process becomes the leader. */
  onAcquire: () => void | Promise<void>;
  /** Called when it stops being the leader (lost, or released by `stop`). */
  onLose: () => void | Promise<void>;
  log: Logger;
  /** @defaultValue 15000 */
  ttlMs?: number;
  /** @defaultValue ttlMs / 3 */
  renewMs?: number;
}

export interface LeaderLease {
  isLeader(): boolean;
  /** Stops contending; releases the lease if held (another process can take it at once). */
  stop(): Promise<void>;
}

/** Starts contending; resolves after the first attempt, so a lone process leads from the start. */
export async function startLeaderLease(opts: LeaderLeaseOptions): Promise<LeaderLease> {
  const ttlMs = opts.ttlMs ?? 15_000;
  const renewMs = opts.renewMs ?? Math.floor(ttlMs / 3);
  const id = randomUUID();
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();

  const become = async (now: boolean) => {
    if (now === leader) return;
    leader = now;
    if (now) {
      await opts.onAcquire();
      opts.log.info('leader lease acquired', { key: opts.key });
    } else {
      opts.log.info('leader lease lost', { key: opts.key });
      await opts.onLose();
    }
  };

  /** Lets go of a lease this process took but could not act on, so it is not held by nobody. */
  const release = () => RELEASE_IF_HELD.run(opts.redis, [opts.key], [id]).catch(() => undefined);

  /** What the last attempt found, said once per change rather than on every retry. */
  let lastOutcome: AttemptOutcome | null = null;
  const report = (outcome: AttemptOutcome, error?: unknown) => {
    if (outcome === lastOutcome) return;
    lastOutcome = outcome;
    if (outcome === 'held-elsewhere') opts.log.info('leader lease held by another process: standing by', { key: opts.key, retryMs: renewMs });
    if (outcome === 'redis-unreachable') opts.log.warn('leader lease check failed: Redis did not answer; standing by until it does', { key: opts.key, retryMs: renewMs, error: String(error) });
    if (outcome === 'start-failed') opts.log.error('could not start as leader: lease released, trying again', { key: opts.key, retryMs: renewMs, error: String(error) });
  };

  const attempt = async () => {
    let held: boolean;
    try {
      held = leader
        ? await RENEW_IF_HELD.run(opts.redis, [opts.key], [id, ttlMs])
        : (await opts.redis.set(opts.key, id, 'PX', ttlMs, 'NX')) === 'OK';
    } catch (err) {
      // Redis unreachable: we cannot prove we still hold it, so stop acting as the leader.
      report('redis-unreachable', err);
      await become(false);
      return;
    }
    try {
      await become(held);
    } catch (err) {
      // The lease is ours but what the leader runs did not start (say, a missing folder): step
      // down, undo what did start, and let go, so the next attempt (here or elsewhere) starts clean.
      report('start-failed', err);
      leader = false;
      await Promise.resolve(opts.onLose()).catch(() => undefined);
      await release();
      return;
    }
    report(held ? 'leading' : 'held-elsewhere');
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = attempt().finally(schedule);
    }, renewMs);
  };

  running = attempt();
  await running;
  schedule();

  return {
    isLeader: () => leader,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (leader) {
        // Step down before letting go: another process may take the lease the moment it is
        // released, and must not find this one still acting as the leader.
        await become(false);
        await release();
      }
    },
  };
}
