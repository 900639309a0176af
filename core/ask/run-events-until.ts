import { isFinalEvent, type RunEvent } from '../../shared/runs/index.ts';
import { toHttp } from '../failures.ts';
import type { RunStreamReader } from './run-stream-reader.ts';

/**
 * A run's events for one streaming response: the agent's events until the final one, or, when
 * `timeoutMs` passes first, a TIMEOUT error event (the run itself goes on: its answer can still
 * be read at `/v1/runs/:id`). Nothing more when the client has gone (`clientGone`).
 */
export async function* runEventsUntil(reader: RunStreamReader, runId: string, timeoutMs: number, clientGone: AbortSignal): AsyncGenerator<RunEvent> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([clientGone, deadline]);
  let final = false;
  try {
    for await (const e of reader.subscribe(runId, signal)) {
      final = isFinalEvent(e);
      yield e;
    }
  } catch (err) {
    // The response is a stream already: a refusal (too many streams) is its last event, not a status.
    yield { type: 'error', error: toHttp(err).body.error };
    return;
  }
  if (final || clientGone.aborted) return;
  yield deadline.aborted
    ? { type: 'error', error: { code: 'TIMEOUT', message: `no answer within ${timeoutMs} ms; the run goes on: GET /v1/runs/${runId}` } }
    : { type: 'error', error: { code: 'CANCELLED', message: 'the gateway is shutting down; the run goes on: GET /v1/runs/' + runId } };
}
