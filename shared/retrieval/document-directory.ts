/**
 * The agent's gazetteer: the indexed documents with their profiles, held in memory and refreshed
 * at most every `ttlMs`. A refresh asks the store for its documents' chunk counts (one aggregate)
 * and reads only the Document rows it has not seen or whose chunk count changed (with, for a
 * profiled report, its section headings: its document layer), so a question never scans
 * document text, and a re-ingested document is read again at the next refresh.
 */
import type { DocumentRecord } from '../domain/index.ts';
import type { DirectoryEntry } from './document-routing.ts';
import { eq, type VectorStore } from '../store/index.ts';

/** Options of {@link createDocumentDirectory}. */
export interface DocumentDirectoryOptions {
  /**
   * Longest time a listing is reused.
   * @defaultValue 30000
   */
  ttlMs?: number;
  /**
   * Every this many refreshes, every Document row is read again (a new version with the same
   * chunk count changes nothing the aggregate shows).
   * @defaultValue 20
   */
  fullEvery?: number;
  /** Milliseconds since the epoch. @defaultValue Date.now */
  now?: () => number;
}

/** Documents whose headings are read at once during a refresh. */
const READ_CONCURRENCY = 8;

/** Headings kept per document for its document layer. */
const MAX_HEADINGS = 300;

function entryOf(doc: DocumentRecord, headings?: string[]): DirectoryEntry {
  return { doc_id: doc.doc_id, version: doc.version, title: doc.title, doc_type: doc.doc_type, profile: doc.profile ?? null, source: doc.provenance.source_uri, ...(headings ? { headings } : {}) };
}

/**
 * Whether a document's headings are worth reading for its document layer: one with a profile
 * naming an organisation or a period (a report among look-alike reports). A plain corpus (a BEIR
 * set of one-passage documents) costs no extra read.
 */
function wantsHeadings(doc: DocumentRecord, chunks: number): boolean {
  const p = doc.profile;
  return chunks > 1 && Boolean(p && (p.organisations.length > 0 || p.period.end !== null || p.period.fiscalYear !== null));
}

/**
 * A cached listing of the indexed documents for query routing. The first call waits for the first
 * listing (a failure is not kept: the next call tries again, and rejects). After that a question
 * never waits for a refresh: a call past the ttl starts one in the background and gets the listing
 * it replaces, at most one ttl older (a full refresh of thousands of documents takes seconds, and
 * under ingest the questions that happened to come due were the slowest of a run). A failed
 * background refresh keeps the old listing; the next call tries again.
 *
 * @throws whatever the store's `aggregate` or `getDocuments` throws, on the first listing.
 */
export function createDocumentDirectory(store: Pick<VectorStore, 'aggregate' | 'getDocuments'>, options: DocumentDirectoryOptions = {}): () => Promise<DirectoryEntry[]> {
  const ttl = options.ttlMs ?? 30_000;
  const fullEvery = Math.max(1, options.fullEvery ?? 20);
  const now = options.now ?? Date.now;
  const known = new Map<string, { count: number; entry: DirectoryEntry | null }>();
  let refreshes = 0;
  let current: { at: number; list: Promise<DirectoryEntry[]> } | null = null;
  let background: Promise<void> | null = null;

  const refresh = async (): Promise<DirectoryEntry[]> => {
    const counts = await store.aggregate({ groupBy: 'doc_id' });
    const full = refreshes % fullEvery === 0;
    refreshes += 1;
    const seen = new Set(counts.map((c) => c.value));
    const stale = counts.filter(({ value, count }) => full || known.get(value)?.count !== count);
    // One list read for the rows: a read per document scanned, each time, every file of the
    // documents table no compaction had merged yet (3,182 documents: 6–7 s of CPU).
    const rows = new Map((await store.getDocuments(stale.map((s) => s.value))).map((doc) => [doc.doc_id, doc]));
    // A few heading reads at a time: a corpus of thousands of documents read all at once ran the
    // process out of file descriptors.
    let next = 0;
    const reader = async (): Promise<void> => {
      for (let i = next++; i < stale.length; i = next++) {
        const { value: docId, count } = stale[i] as (typeof stale)[number];
        const doc = rows.get(docId) ?? null;
        // The document layer (seed 004): its section headings, statement captions among them.
        const headings = doc && wantsHeadings(doc, count) ? (await store.aggregate({ groupBy: 'section', filter: eq('doc_id', docId) })).map((b) => b.value).filter((v) => v !== '').slice(0, MAX_HEADINGS) : undefined;
        known.set(docId, { count, entry: doc ? entryOf(doc, headings) : null });
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, stale.length) }, reader));
    for (const id of [...known.keys()]) if (!seen.has(id)) known.delete(id);
    return [...known.values()].flatMap((k) => (k.entry ? [k.entry] : [])).sort((a, b) => (a.doc_id < b.doc_id ? -1 : a.doc_id > b.doc_id ? 1 : 0));
  };

  return () => {
    const t = now();
    if (!current) {
      const first = { at: t, list: refresh() };
      first.list.catch(() => {
        if (current === first) current = null;
      });
      current = first;
    } else if (t - current.at > ttl && !background) {
      const served = current;
      background = served.list
        .then(() => refresh())
        .then(
          (list) => {
            current = { at: t, list: Promise.resolve(list) };
          },
          () => undefined,
        )
        .finally(() => {
          background = null;
        });
    }
    return current.list;
  };
}
