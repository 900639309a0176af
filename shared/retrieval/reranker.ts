/**
 * The Reranker port (docs/architecture.md §2): a query and candidate passages in, one relevance score
 * per passage out. Adapters are made by factories next to this file (`createLexicalReranker`,
 * `createHttpReranker`); `createReranker` in `index.ts` picks one from config. Every adapter
 * passes `tests/contract/reranker.contract.ts`.
 */
import { isQuarryError } from '../errors.ts';

/** A passage to score. `id` is opaque to the reranker and comes back unchanged. */
export interface RerankDoc {
  id: string;
  text: string;
  /**
   * The passage's title or section heading, when known (it may also be part of `text`). A
   * reranker may weigh a match there more, as BM25F weighs a title field; one that reads only
   * `text` ignores it.
   */
  heading?: string;
}

/** The score of one passage. */
export interface RerankResult {
  id: string;
  /** Relevance in [0, 1], higher is better; comparable across calls of the same reranker. */
  score: number;
}

/** The reranker port. */
export interface Reranker {
  /** Adapter and model, for traces (e.g. `lexical`, `http:tei:bge-reranker-v2-m3`). */
  readonly name: string;
  /**
   * Scores every doc against `query`. Returns one result per doc, carrying the doc's id, best
   * first; equal scores keep their input order. An empty `docs` gives an empty result without I/O.
   *
   * @throws RetryableError when the backend is down, slow or rate-limited (see the adapter).
   * @throws PermanentError when the backend rejects the request or answers nonsense.
   * @throws the signal's reason when `signal` aborts.
   */
  rerank(query: string, docs: readonly RerankDoc[], signal?: AbortSignal): Promise<RerankResult[]>;
}

/**
 * Orders results best first, ties by input position: the one ordering every adapter returns.
 * `scores[i]` belongs to `docs[i]`.
 */
export function orderResults(docs: readonly RerankDoc[], scores: readonly number[]): RerankResult[] {
  return docs
    .map((d, i) => ({ id: d.id, score: scores[i] ?? 0, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ id, score }) => ({ id, score }));
}

/**
 * A reranker that asks `primary` and, when it fails, `fallback` (typically HTTP → lexical), so
 * a cross-encoder outage degrades ranking quality instead of failing the query. An abort of the
 * caller's signal is never swallowed. `onFallback` sees the primary's error (for traces/metrics).
 */
export function withFallback(primary: Reranker, fallback: Reranker, onFallback?: (err: unknown) => void): Reranker {
  return {
    name: `${primary.name}|${fallback.name}`,
    async rerank(query, docs, signal) {
      try {
        return await primary.rerank(query, docs, signal);
      } catch (err) {
        if (signal?.aborted) throw signal.reason ?? err;
        // Programming errors (TypeError, RangeError …) should surface, not hide behind a fallback.
        if (!isQuarryError(err)) throw err;
        onFallback?.(err);
        return fallback.rerank(query, docs, signal);
      }
    },
  };
}
