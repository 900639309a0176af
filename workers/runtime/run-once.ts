import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import type { Ports } from './ports.ts';
import type { StageWorkerDefinition } from './stage-worker.ts';

/**
 * Runs one stage's handler in this process, without a queue: for `quarry ingest <stage> --doc-id`
 * replays and for benchmarks. Payload and result are validated exactly as the worker does.
 */
export async function runStageOnce(def: StageWorkerDefinition, payload: unknown, ports: Ports, log: Logger): Promise<unknown> {
  const data = def.queue.payload.parse(payload);
  try {
    const result = await def.handler(data, {
      ...ports,
      log,
      signal: new AbortController().signal,
      attemptsMade: 0,
      progress: async () => undefined,
    });
    return def.queue.result.parse(result);
  } catch (err) {
    log.error('stage failed', { queue: def.queue.name, ...describeError(err) });
    throw err;
  }
}
