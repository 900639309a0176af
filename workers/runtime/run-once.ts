import { describeError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { createDocumentLifecycle, type StatusFields } from './document-lifecycle.ts';
import { pickPorts, type Ports } from './ports.ts';
import type { StageWorkerDefinition } from './stage-worker.ts';

/**
 * Runs one stage's handler in this process, without a queue: for `quarry ingest <stage> --doc-id`
 * replays and for benchmarks. Payload and result are validated exactly as the worker does, and
 * the handler gets the ports its definition declared, as it does in a worker.
 */
export async function runStageOnce(def: StageWorkerDefinition, payload: unknown, ports: Ports, log: Logger): Promise<unknown> {
  const data = def.queue.payload.parse(payload);
  // A replay records what the stage found (coverage, page count) on the document's current
  // registration, as the worker's hand-over would; there is no hand-over to ride on.
  const doc = def.queue.tracks?.document(data) ?? null;
  let recorded: StatusFields = {};
  try {
    const result = await def.handler(data, {
      ...pickPorts(ports, def.needs),
      log,
      signal: new AbortController().signal,
      attemptsMade: 0,
      progress: async () => undefined,
      recordStatus: (fields) => void (recorded = { ...recorded, ...fields }),
    });
    const checked = def.queue.result.parse(result);
    if (doc) await createDocumentLifecycle(ports.status).record(doc, recorded);
    return checked;
  } catch (err) {
    log.error('stage failed', { queue: def.queue.name, ...describeError(err) });
    throw err;
  }
}
