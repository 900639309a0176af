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
import type { Logger } from '../../shared/telemetry/logger.ts';

/** Extends the lease only if we still hold it. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
/** Releases the lease only if we still hold it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export interface LeaderLeaseOptions {
  redis: Redis;
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
    opts.log.info(now ? 'leader lease acquired' : 'leader lease lost', { key: opts.key });
    await (now ? opts.onAcquire() : opts.onLose());
  };

  const attempt = async () => {
    try {
      const held = leader
        ? Number(await opts.redis.eval(RENEW, 1, opts.key, id, String(ttlMs))) === 1
        : (await opts.redis.set(opts.key, id, 'PX', ttlMs, 'NX')) === 'OK';
      await become(held);
    } catch (err) {
      // Redis unreachable: we cannot prove we still hold it, so stop acting as the leader.
      opts.log.warn('leader lease check failed', { key: opts.key, error: String(err) });
      await become(false);
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = attempt().finally(schedule);
    }, renewMs);
  };

  running = attempt();
  await running;
  // Say why nothing is being watched yet (a crashed holder's lease lapses after ttlMs).
  if (!leader) opts.log.info('leader lease held by another process: standing by', { key: opts.key, retryMs: renewMs });
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
        await opts.redis.eval(RELEASE, 1, opts.key, id).catch(() => undefined);
      }
    },
  };
}
