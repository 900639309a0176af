import type { RunEvent } from '../../../shared/runs/index.ts';

/** The SSE `data` of a run event on `POST /v1/query` (the event's name is its type). */
export function queryEventData(e: RunEvent, runId: string): unknown {
  switch (e.type) {
    case 'node':
      return { node: e.node, ms: e.ms, ...(e.data ? { data: e.data } : {}) };
    case 'delta':
      return { text: e.text };
    case 'citations':
      return { citations: e.citations };
    case 'done':
      return { runId, state: 'completed', answer: e.answer };
    case 'error':
      return { error: e.error };
  }
}
