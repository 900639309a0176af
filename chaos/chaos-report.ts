/**
 * The chaos run's verdict, as pure functions: what the status records and the vector store say
 * after a disturbed run, compared with an undisturbed run of the same corpus. Chunk ids are
 * content-addressed, so both runs must end with exactly the same set of ids, each stored once.
 */

/** One stored chunk row, as the vector store's scan reads it. */
export interface ChunkRow {
  chunk_id: string;
  doc_id: string;
  version: string;
}

/** What the status record of one document says at the end of a run (null: there is none). */
export interface DocOutcome {
  docId: string;
  /** `indexed`, `failed`, `deleted` … or null when the document has no status record at all. */
  state: string | null;
  stage: string | null;
  errorCode: string | null;
}

/** The five numbers the issue asks for, per mode. */
export interface ChaosCounts {
  /** Documents of the corpus whose status is `indexed`. */
  indexed: number;
  /** Documents of the corpus whose status is `failed`. */
  failed: number;
  /** Documents of the corpus that have not settled: no status record, or a state still moving. */
  stuck: number;
  /** Chunk ids stored more than once (in one version or across versions). */
  duplicate: number;
  /** Chunk ids the undisturbed run stored and this run did not. */
  missing: number;
}

/** Everything measured about one run: the counts plus the detail a person needs to chase them. */
export interface RunSummary {
  counts: ChaosCounts;
  /** Chunk ids stored by this run that the undisturbed run did not store. */
  extra: number;
  /** Documents that are not settled, as `docId (state at stage)`. */
  stuckDocs: string[];
  /** Documents whose settled state differs from the undisturbed run's, as `docId: baseline → this`. */
  divergent: string[];
}

const SETTLED = new Set(['indexed', 'failed', 'deleted']);

/** True once a document will not move again: indexed, failed or deleted. */
export function isSettledState(state: string | null): boolean {
  return state !== null && SETTLED.has(state);
}

/**
 * Documents of the undisturbed run that did not end as the corpus intends: a good document not
 * indexed, or a bad one not failed, as `docId: state (code)`. A run is only a baseline when this
 * is empty; otherwise every comparison against it proves nothing (say, all 204 failed alike).
 */
export function baselineProblems(outcomes: readonly DocOutcome[], badDocIds: ReadonlySet<string>): string[] {
  return outcomes
    .filter((o) => o.state !== (badDocIds.has(o.docId) ? 'failed' : 'indexed'))
    .map((o) => `${o.docId}: ${o.state ?? 'no status'}${o.errorCode ? ` (${o.errorCode})` : ''}`);
}

/** Chunk ids that occur in more than one row, sorted. */
export function duplicateIds(rows: readonly ChunkRow[]): string[] {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.chunk_id, (seen.get(r.chunk_id) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id).sort();
}

/** Ids of `expected` that `actual` lacks, sorted. */
export function missingIds(expected: readonly ChunkRow[], actual: readonly ChunkRow[]): string[] {
  const have = new Set(actual.map((r) => r.chunk_id));
  return [...new Set(expected.map((r) => r.chunk_id))].filter((id) => !have.has(id)).sort();
}

/**
 * Counts one run's outcome over the whole corpus: every listed document is exactly one of
 * indexed, failed, stuck (or deleted, which the chaos corpus never asks for and so counts in none).
 * A document without a status record is stuck: after a Redis data loss nothing else would find it.
 */
export function summariseRun(input: {
  docIds: readonly string[];
  outcomes: readonly DocOutcome[];
  rows: readonly ChunkRow[];
  baselineRows: readonly ChunkRow[];
  baselineOutcomes?: readonly DocOutcome[];
}): RunSummary {
  const byDoc = new Map(input.outcomes.map((o) => [o.docId, o]));
  const base = new Map((input.baselineOutcomes ?? []).map((o) => [o.docId, o]));
  let indexed = 0;
  let failed = 0;
  const stuckDocs: string[] = [];
  const divergent: string[] = [];
  for (const docId of input.docIds) {
    const o = byDoc.get(docId);
    const state = o?.state ?? null;
    if (state === 'indexed') indexed++;
    else if (state === 'failed') failed++;
    if (!isSettledState(state)) stuckDocs.push(`${docId} (${state === null ? 'no status' : `${state} at ${o?.stage ?? '?'}`})`);
    const b = base.get(docId);
    if (b && isSettledState(state) && (b.state !== state || b.errorCode !== (o?.errorCode ?? null))) {
      divergent.push(`${docId}: ${describe(b)} → ${describe(o)}`);
    }
  }
  const baselineIds = new Set(input.baselineRows.map((r) => r.chunk_id));
  const extra = new Set(input.rows.map((r) => r.chunk_id).filter((id) => !baselineIds.has(id))).size;
  return {
    counts: {
      indexed,
      failed,
      stuck: stuckDocs.length,
      duplicate: duplicateIds(input.rows).length,
      missing: missingIds(input.baselineRows, input.rows).length,
    },
    extra,
    stuckDocs,
    divergent,
  };
}

function describe(o: DocOutcome | undefined): string {
  if (!o || o.state === null) return 'no status';
  return o.errorCode ? `${o.state} ${o.errorCode}` : o.state;
}

/** The `--json` line: exactly `{"<mode>": {indexed, failed, stuck, duplicate, missing}, …}`. */
export function chaosJson(results: Readonly<Record<string, ChaosCounts>>): string {
  const out: Record<string, ChaosCounts> = {};
  for (const [mode, c] of Object.entries(results)) {
    out[mode] = { indexed: c.indexed, failed: c.failed, stuck: c.stuck, duplicate: c.duplicate, missing: c.missing };
  }
  return JSON.stringify(out);
}

/** Human lines for one run: the counts, then (a few of) the documents and ids behind them. */
export function formatSummary(mode: string, s: RunSummary, limit = 10): string[] {
  const c = s.counts;
  const lines = [
    `${mode}: indexed ${c.indexed}, failed ${c.failed}, stuck ${c.stuck}; chunk ids: duplicate ${c.duplicate}, missing ${c.missing}, extra ${s.extra}`,
  ];
  const list = (title: string, items: readonly string[]) => {
    if (!items.length) return;
    lines.push(`  ${title} (${items.length}): ${items.slice(0, limit).join(', ')}${items.length > limit ? ', …' : ''}`);
  };
  list('stuck', s.stuckDocs);
  list('settled differently than undisturbed', s.divergent);
  return lines;
}
