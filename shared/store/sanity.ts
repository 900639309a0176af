/**
 * `quarry verify sanity --doc-id <id>` (seed 000 §8.8): probe queries proving that filters and
 * the time clamp work for one document. Pure: {@link planSanity} turns what is known about the
 * document (status record, Document row, the enriched artifact its chunks were written from)
 * into store queries with expectations, {@link evaluateProbe} compares what a query returned
 * with its expectation. The command runs the queries in between.
 */
import { and, containsAny, eq, temporalClamp, type Filter } from './filter.ts';
import type { AggregateBucket, AggregateField } from './vector-store.ts';

export type SanityVerdict = 'PASS' | 'FAIL' | 'SKIP';

/** The fields of a Document a probe needs. */
export interface SanityDocument {
  version: string;
  title: string;
  doc_type: string;
  valid_from: string | null;
  valid_to: string | null;
}

/** What is known about a document before any probe runs. */
export interface SanityFacts {
  docId: string;
  /** The status record, or null when the document was never registered. */
  status: { state: string; version: string; chunkCount: number | null; errorCode: string | null } | null;
  /** The Document row in the store, or null when there is none. */
  stored: SanityDocument | null;
  /** The current version's enriched artifact: what the upsert wrote. Null when it is gone. */
  artifact: { document: SanityDocument; chunks: { entities: string[] }[] } | null;
}

/** A store query a probe runs. */
export type SanityQuery =
  | { kind: 'count'; filter: Filter }
  | { kind: 'search'; text: string; alpha: number; limit: number; filter: Filter }
  | { kind: 'aggregate'; groupBy: AggregateField; filter: Filter };

/** What a probe's query must return. */
export type SanityExpectation =
  | { kind: 'count'; op: 'eq' | 'gte'; value: number }
  /** A search: at least `min` hits, every one of them a chunk of `docId`. */
  | { kind: 'onlyDoc'; docId: string; min: number }
  /** An aggregate: exactly one bucket, `value`, counting `count` chunks. */
  | { kind: 'bucket'; value: string; count: number };

/** What a query returned, or why it failed. */
export type SanityObservation =
  | { kind: 'count'; count: number }
  | { kind: 'search'; docIds: string[] }
  | { kind: 'aggregate'; buckets: AggregateBucket[] }
  | { kind: 'error'; message: string };

export interface SanityProbe {
  id: string;
  /** What the probe checks, in words; the outcome's reason starts with it. */
  description: string;
  query: SanityQuery;
  expect: SanityExpectation;
}

export interface SanityOutcome {
  id: string;
  verdict: SanityVerdict;
  reason: string;
}

/** In report order: probes to run, and outcomes already decided from the facts alone (missing rows, skips). */
export type SanityStep = SanityProbe | SanityOutcome;

export function isProbe(step: SanityStep): step is SanityProbe {
  return 'query' in step;
}

/** `date` moved by `days` (YYYY-MM-DD in, YYYY-MM-DD out, UTC calendar). */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/**
 * The entity carried by most of the document's chunks (ties: the alphabetically first), with
 * how many chunks carry it; null when no chunk has one.
 */
export function commonEntity(chunks: readonly { entities: readonly string[] }[]): { entity: string; chunks: number } | null {
  const counts = new Map<string, number>();
  for (const c of chunks) for (const e of new Set(c.entities)) counts.set(e, (counts.get(e) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return best ? { entity: best[0], chunks: best[1] } : null;
}

const short = (version: string) => version.slice(0, 12);

/**
 * The probes for one document:
 * - registered and indexed (decided from the status record; nothing else runs otherwise);
 * - a Document row of the current version (decided from the facts);
 * - `eq(doc_id)` counts the status record's chunk count, and so does `eq(doc_id) ∧ eq(version)`
 *   (no stale version left behind);
 * - a hybrid search for the title, filtered to the doc_id, returns some chunks, all its own;
 * - time clamp: the day before valid_from → none of its chunks, valid_from (or the day before
 *   valid_to) → some, valid_to (exclusive) → none; skipped, with the reason, for open bounds;
 * - aggregate by doc_type over its chunks is one bucket, its type, counting all of them;
 * - `containsAny(entities, [e])` for its most common entity counts the chunks the artifact
 *   gives that entity (at least one without the artifact).
 * Document fields come from the stored row, or from the artifact when the row is missing, so
 * a broken store still gets every probe (and fails them) rather than fewer.
 */
export function planSanity(facts: SanityFacts): SanityStep[] {
  const { docId, status } = facts;
  if (!status) return [{ id: 'registered', verdict: 'FAIL', reason: `${docId} is not registered` }];
  if (status.state !== 'indexed') {
    const why = status.errorCode ? ` (${status.errorCode})` : '';
    return [{ id: 'registered', verdict: 'FAIL', reason: `${docId} is ${status.state}${why}, not indexed: nothing to verify` }];
  }
  const steps: SanityStep[] = [{ id: 'registered', verdict: 'PASS', reason: `indexed, version ${short(status.version)}, ${status.chunkCount ?? '?'} chunks` }];
  const stored = facts.stored;
  if (!stored) steps.push({ id: 'document-row', verdict: 'FAIL', reason: 'no Document row in the store' });
  else if (stored.version !== status.version) steps.push({ id: 'document-row', verdict: 'FAIL', reason: `Document row is version ${short(stored.version)}, the status record says ${short(status.version)}` });
  else steps.push({ id: 'document-row', verdict: 'PASS', reason: `Document row of version ${short(stored.version)}` });

  const doc = stored ?? facts.artifact?.document ?? null;
  const n = status.chunkCount;
  if (n === null) {
    steps.push({ id: 'chunk-count', verdict: 'FAIL', reason: 'the status record has no chunk count' });
    return steps;
  }
  const mine = eq('doc_id', docId);
  steps.push(
    { id: 'count-by-doc-id', description: `eq(doc_id) counts the status record's ${n} chunks`, query: { kind: 'count', filter: mine }, expect: { kind: 'count', op: 'eq', value: n } },
    {
      id: 'current-version',
      description: `eq(doc_id) ∧ eq(version ${short(status.version)}) counts all ${n}`,
      query: { kind: 'count', filter: and(mine, eq('version', status.version)) },
      expect: { kind: 'count', op: 'eq', value: n },
    },
  );
  if (!doc) {
    steps.push({ id: 'document-facts', verdict: 'FAIL', reason: 'neither a Document row nor the enriched artifact: title, type and dates unknown' });
    return steps;
  }
  if (doc.title.trim()) {
    steps.push({
      id: 'title-search',
      description: `hybrid search for the title "${doc.title}" filtered to eq(doc_id) returns only its chunks`,
      query: { kind: 'search', text: doc.title, alpha: 0.5, limit: Math.max(10, n), filter: mine },
      expect: { kind: 'onlyDoc', docId, min: 1 },
    });
  } else steps.push({ id: 'title-search', verdict: 'SKIP', reason: 'the document has no title to search for' });

  const clamp = (id: string, date: string, expect: SanityExpectation, what: string): SanityProbe => ({
    id,
    description: `time clamp at ${date} (${what})`,
    query: { kind: 'count', filter: and(mine, temporalClamp(date)) },
    expect,
  });
  const { valid_from: from, valid_to: to } = doc;
  if (from === null && to === null) {
    steps.push({ id: 'time-clamp', verdict: 'SKIP', reason: 'the document has neither valid_from nor valid_to: it is valid at every date' });
  } else {
    if (from !== null) steps.push(clamp('clamp-before', addDays(from, -1), { kind: 'count', op: 'eq', value: 0 }, `the day before valid_from ${from}: none of its chunks`));
    else steps.push({ id: 'clamp-before', verdict: 'SKIP', reason: 'valid_from is open (valid since always): there is no date before it' });
    const inside = from ?? addDays(to as string, -1);
    steps.push(clamp('clamp-inside', inside, { kind: 'count', op: 'gte', value: 1 }, `inside ${from ?? '…'}–${to ?? 'open'}: some of its chunks`));
    if (to !== null) steps.push(clamp('clamp-at-valid-to', to, { kind: 'count', op: 'eq', value: 0 }, `valid_to ${to} is exclusive: none of its chunks`));
    else steps.push({ id: 'clamp-at-valid-to', verdict: 'SKIP', reason: 'valid_to is open (still valid): there is no end to clamp at' });
  }

  steps.push({
    id: 'aggregate-doc-type',
    description: `aggregate by doc_type over eq(doc_id) is {${doc.doc_type}: ${n}}`,
    query: { kind: 'aggregate', groupBy: 'doc_type', filter: mine },
    expect: { kind: 'bucket', value: doc.doc_type, count: n },
  });

  const common = facts.artifact ? commonEntity(facts.artifact.chunks) : null;
  if (common) {
    steps.push({
      id: 'contains-entity',
      description: `containsAny(entities, ["${common.entity}"]) ∧ eq(doc_id) counts the ${common.chunks} chunks carrying it`,
      query: { kind: 'count', filter: and(mine, containsAny('entities', [common.entity])) },
      expect: { kind: 'count', op: 'eq', value: common.chunks },
    });
  } else steps.push({ id: 'contains-entity', verdict: 'SKIP', reason: facts.artifact ? 'no chunk of the document has an entity' : 'the enriched artifact is gone: which chunks carry which entity is unknown' });
  return steps;
}

/** PASS or FAIL for one probe, with a reason a person can act on. */
export function evaluateProbe(probe: SanityProbe, obs: SanityObservation): SanityOutcome {
  const done = (ok: boolean, detail: string): SanityOutcome => ({ id: probe.id, verdict: ok ? 'PASS' : 'FAIL', reason: `${probe.description}: ${detail}` });
  if (obs.kind === 'error') return done(false, `the query failed: ${obs.message}`);
  const e = probe.expect;
  if (e.kind === 'count' && obs.kind === 'count') {
    const ok = e.op === 'eq' ? obs.count === e.value : obs.count >= e.value;
    return done(ok, `${obs.count} ${ok ? '' : `(expected ${e.op === 'eq' ? '' : 'at least '}${e.value})`}`.trim());
  }
  if (e.kind === 'onlyDoc' && obs.kind === 'search') {
    const others = obs.docIds.filter((d) => d !== e.docId);
    if (obs.docIds.length < e.min) return done(false, `${obs.docIds.length} hits (expected at least ${e.min})`);
    if (others.length) return done(false, `${others.length} of ${obs.docIds.length} hits belong to other documents (${[...new Set(others)].join(', ')})`);
    return done(true, `${obs.docIds.length} hits, all its own`);
  }
  if (e.kind === 'bucket' && obs.kind === 'aggregate') {
    const got = `{${obs.buckets.map((b) => `${b.value}: ${b.count}`).join(', ')}}`;
    const [only] = obs.buckets;
    const ok = obs.buckets.length === 1 && only?.value === e.value && only.count === e.count;
    return done(ok, ok ? got : `got ${got}`);
  }
  return done(false, `a ${obs.kind} result for a ${e.kind} expectation`);
}

/** One line per outcome (`PASS  id  reason`), then a summary. */
export function formatSanityReport(docId: string, outcomes: readonly SanityOutcome[]): string {
  const width = Math.max(0, ...outcomes.map((o) => o.id.length));
  const lines = outcomes.map((o) => `${o.verdict.padEnd(4)}  ${o.id.padEnd(width)}  ${o.reason}`);
  const count = (v: SanityVerdict) => outcomes.filter((o) => o.verdict === v).length;
  return [`verify sanity ${docId}`, ...lines, `${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped`].join('\n');
}

/** 1 when any probe failed, else 0. */
export function sanityExitCode(outcomes: readonly SanityOutcome[]): 0 | 1 {
  return outcomes.some((o) => o.verdict === 'FAIL') ? 1 : 0;
}
