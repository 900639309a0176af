import type { Trace, TraceStore } from '../shared/runs/index.ts';
import { HttpError } from './failures.ts';

/**
 * A run's trace (per-node latency, weights, scores, the validator's verdict), as the observer
 * node stored it (`GET /debug/trace/:id`).
 * @throws HttpError `NOT_FOUND` when there is none (an unknown run, or its trace expired).
 */
export async function readTrace(deps: { traces: Pick<TraceStore, 'get'> }, runId: string): Promise<Trace> {
  const trace = await deps.traces.get(runId);
  if (!trace) throw new HttpError(404, 'NOT_FOUND', `no trace for run ${runId} (or it expired)`);
  return trace;
}
