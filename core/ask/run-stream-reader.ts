import type { Redis } from 'ioredis';
import { isFinalEvent, parseRunEntry, type RunEvent } from '../../shared/runs/index.ts';
import { runStreamKey } from '../../shared/redis/index.ts';
import { HttpError } from '../failures.ts';

/** Tunables of {@link createRunStreamReader}. */
export interface RunStreamReaderOptions {
  /**
   * How long one XREAD blocks. A new subscriber wakes the read at once (CLIENT UNBLOCK); this
   * bounds the wait when that races with the read being sent.
   * @defaultValue 1000
   */
  blockMs?: number;
  /**
   * Events held per subscriber before its stream is left unread: a slow client is not buffered
   * for in the gateway, its events wait in Redis.
   * @defaultValue 256
   */
  maxBuffered?: number;
  /**
   * Streams read at once; one more subscriber is refused (503) rather than queued.
   * @defaultValue 2000
   */
  maxSubscribers?: number;
}

/** Reads runs' event streams for many HTTP requests over one blocking Redis connection. */
export interface RunStreamReader {
  /**
   * The events of `runId` from the first, until its final event (done or error) or until `signal`
   * aborts (client gone, deadline): then the iteration just ends.
   * @throws HttpError 503 REDIS_UNAVAILABLE when `maxSubscribers` streams are being read already,
   * 409 CONFLICT when this run's stream is being read already.
   */
  subscribe(runId: string, signal: AbortSignal): AsyncIterable<RunEvent>;
  /** Runs being streamed now (a subscription ends when its run ends, its client goes or its deadline passes). */
  active(): number;
  /** Stops reading; every subscription ends. */
  close(): Promise<void>;
}

type StreamEntries = Array<[string, string[]]>;

/**
 * XREAD's streams as [key, entries] pairs: RESP2 answers a list of pairs, RESP3 a map, which the
 * client hands over flat (key, entries, key, entries…).
 */
export function xreadStreams(reply: unknown): Array<[string, StreamEntries]> {
  if (!Array.isArray(reply) || reply.length === 0) return [];
  if (Array.isArray(reply[0])) return reply as Array<[string, StreamEntries]>;
  const out: Array<[string, StreamEntries]> = [];
  for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), reply[i + 1] as StreamEntries]);
  return out;
}

interface Sub {
  key: string;
  lastId: string;
  buffer: RunEvent[];
  wake: (() => void) | null;
  ended: boolean;
}

/**
 * One shared blocking reader multiplexing every streaming request: a single loop runs
 * `XREAD BLOCK … STREAMS k1 k2 … id1 id2 …` over the streams of the runs being streamed and
 * hands each its events. So the gateway holds one blocking connection however many clients
 * stream, and its request connection (fast-failing, no blocking commands) stays untouched.
 *
 * `connect` makes the blocking connection, on the first subscription (a gateway nobody streams
 * from holds none): a connection of its own (`maxRetriesPerRequest: null`, no command timeout).
 * `unblocker` is any other connection, used to wake the read for a new subscriber.
 */
export function createRunStreamReader(connect: () => Redis, unblocker: Redis, prefix: string, opts: RunStreamReaderOptions = {}): RunStreamReader {
  const blockMs = opts.blockMs ?? 1000;
  const maxBuffered = opts.maxBuffered ?? 256;
  const maxSubscribers = opts.maxSubscribers ?? 2000;
  const subs = new Map<string, Sub>();
  let closed = false;
  let blockedClientId: number | null = null;
  let idle: (() => void) | null = null;
  let loop: Promise<void> | null = null;

  const notify = (s: Sub) => {
    const w = s.wake;
    s.wake = null;
    w?.();
  };
  /** Something changed (a subscriber came or caught up): read again now, not after the block. */
  const poke = () => {
    if (idle) {
      const i = idle;
      idle = null;
      i();
    } else if (blockedClientId !== null) {
      void unblocker.call('CLIENT', 'UNBLOCK', String(blockedClientId)).catch(() => undefined);
    }
  };

  // The blocking connection's id, for CLIENT UNBLOCK; a reconnect gives it a new one.
  let clientId: number | null = null;
  let blocking: Redis | null = null;

  async function run(conn: Redis): Promise<void> {
    const blocking = conn;
    blocking.on('ready', () => (clientId = null));
    while (!closed) {
      // A subscriber whose buffer is full is not read: its events wait in Redis (backpressure).
      const ready = [...subs.values()].filter((s) => !s.ended && s.buffer.length < maxBuffered);
      if (ready.length === 0) {
        await new Promise<void>((r) => (idle = r));
        continue;
      }
      let reply: unknown;
      try {
        clientId ??= Number(await blocking.call('CLIENT', 'ID'));
        blockedClientId = clientId;
        reply = await blocking.call(
          'XREAD',
          'COUNT',
          String(maxBuffered),
          'BLOCK',
          String(blockMs),
          'STREAMS',
          ...ready.map((s) => s.key),
          ...ready.map((s) => s.lastId),
        );
      } catch {
        // Redis down or restarting: the connection reconnects by itself; read again shortly.
        clientId = null;
        if (!closed) await new Promise((r) => setTimeout(r, 500));
        continue;
      } finally {
        blockedClientId = null;
      }
      for (const [key, entries] of xreadStreams(reply)) {
        const s = subs.get(key);
        if (!s) continue;
        for (const [id, fields] of entries) {
          s.lastId = id;
          const e = parseRunEntry(fields);
          if (!e || s.ended) continue;
          s.buffer.push(e);
          if (isFinalEvent(e)) s.ended = true;
        }
        notify(s);
      }
    }
  }

  return {
    async *subscribe(runId, signal) {
      if (closed) return;
      if (subs.size >= maxSubscribers) throw new HttpError(503, 'REDIS_UNAVAILABLE', 'too many answers are being streamed: try again shortly');
      const key = runStreamKey(prefix, runId);
      // One reader per run: each request streams the run it enqueued.
      if (subs.has(key)) throw new HttpError(409, 'CONFLICT', `run ${runId} is being streamed already`);
      const s: Sub = { key, lastId: '0', buffer: [], wake: null, ended: false };
      subs.set(key, s);
      const onAbort = () => notify(s);
      signal.addEventListener('abort', onAbort, { once: true });
      if (!loop) {
        blocking = connect();
        loop = run(blocking).catch(() => undefined);
      }
      poke();
      try {
        for (;;) {
          if (signal.aborted || closed) return;
          const e = s.buffer.shift();
          if (e) {
            // The buffer had been full: this stream is read again.
            if (s.buffer.length === maxBuffered - 1) poke();
            yield e;
            if (isFinalEvent(e)) return;
            continue;
          }
          await new Promise<void>((r) => (s.wake = r));
        }
      } finally {
        signal.removeEventListener('abort', onAbort);
        subs.delete(key);
      }
    },
    active: () => subs.size,
    async close() {
      closed = true;
      for (const s of subs.values()) notify(s);
      poke();
      blocking?.disconnect();
      await loop;
    },
  };
}
