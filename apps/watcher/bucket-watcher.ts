import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import type { BucketEvent, BucketSource } from '../../core/sources/index.ts';

export type { BucketEvent, BucketSource } from '../../core/sources/index.ts';

export interface BucketWatcher {
  /** Resolves after the first scan. */
  ready: Promise<void>;
  /** Scans now (and waits for a scan already running). */
  scanNow(): Promise<BucketEvent[]>;
  close(): Promise<void>;
}

/**
 * Watches an S3-compatible bucket: scans it (core/sources/bucket-sync.ts, through the bucket's
 * SourceBucket) every `pollMs`; scans never overlap.
 */
export function startBucketWatcher(opts: { source: BucketSource; pollMs: number; log: Logger; onEvent?: (e: BucketEvent) => void }): BucketWatcher {
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<BucketEvent[]> = Promise.resolve([]);

  const scanNow = () => {
    running = running.then(async () => {
      try {
        const events = await opts.source.scan();
        for (const e of events) opts.onEvent?.(e);
        if (events.length) opts.log.info('bucket scanned', { changes: events.length });
        return events;
      } catch (err) {
        opts.log.error('bucket scan failed', describeError(err));
        return [];
      }
    });
    return running;
  };
  const loop = () => {
    if (closed) return;
    timer = setTimeout(() => void scanNow().finally(loop), opts.pollMs);
  };
  const ready = scanNow().then(() => loop());

  return {
    ready,
    scanNow,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
