import { HttpError } from '../failures.ts';
import type { AskRequest, AskResult, RunView } from '../schemas.ts';

/**
 * Ask and wait: an agent run through the queue, waited for like `POST /v1/query` (the MCP `ask`
 * tool). A run still going when the wait ends is a TIMEOUT naming its id, so it can be read later.
 * @throws HttpError `TIMEOUT` when the run is still going (its id is in the message), or the
 *   run's own error code when it failed.
 */
export async function askAndWait(deps: { ask(input: AskRequest): Promise<RunView> }, req: AskRequest): Promise<AskResult> {
  const run = await deps.ask(req);
  if (run.state === 'completed' && run.answer) {
    const a = run.answer;
    return { runId: run.runId, text: a.text, citations: a.citations, dateQualifier: a.dateQualifier, asOf: a.asOf, validated: a.validated };
  }
  if (run.state === 'failed') throw new HttpError(500, run.error?.code ?? 'INTERNAL', run.error?.message ?? 'the run failed');
  throw new HttpError(504, 'TIMEOUT', `run ${run.runId} is still ${run.state}: read it later at GET /v1/runs/${run.runId}`);
}
