import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import type { Ports } from './ports.ts';
import { IngestPayload } from '../../queues/define-queue.ts';
import type { StageWorkerDefinition, StatusFields } from './stage-worker.ts';

/**
 * Runs one stage's handler in this process, without a queue: for `quarry ingest <stage> --doc-id`
 * replays and for benchmarks. Payload and result are validated exactly as the worker does.
 */
export async function runStageOnce(def: StageWorkerDefinition, payload: unknown, ports: Ports, log: Logger): Promise<unknown> {
  const data = def.queue.payload.parse(payload);
  // A replay records what the stage found (coverage, page count) on the document's current
  // registration, as the worker's hand-over would; there is no hand-over to ride on.
  const track = IngestPayload.safeParse(data);
  let recorded: StatusFields = {};
  try {
    const result = await def.handler(data, {
      ...ports,
      log,
      signal: new AbortController().signal,
      attemptsMade: 0,
      progress: async () => undefined,
      recordStatus: (fields) => void (recorded = { ...recorded, ...fields }),
    });
    const checked = def.queue.result.parse(result);
    if (track.success && Object.keys(recorded).length > 0) await ports.status.update(track.data.docId, track.data.version, track.data.gen, recorded);
    return checked;
  } catch (err) {
    log.error('stage failed', { queue: def.queue.name, ...describeError(err) });
    throw err;
  }
}
