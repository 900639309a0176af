import type { DocumentRecord } from '../domain/index.ts';
import { createLru } from '../lru.ts';
import type { DirectoryEntry } from '../retrieval/index.ts';

/** What an answer needs of a cited document. */
export type DocumentFacts = Pick<DocumentRecord, 'title' | 'profile'> & {
  /** Where it was read from (its file's name may say its quarter). */
  source?: string | undefined;
};

/** What {@link createDocumentLookup} reads from. */
export interface DocumentLookupOptions {
  /** The document directory's current listing (the one the planner routed the question with). */
  listing: () => Promise<DirectoryEntry[]>;
  /** A document's row from the store. */
  read: (docId: string) => Promise<DocumentRecord | null>;
  /** How long a row read from the store is reused, ms. */
  ttlMs: number;
  /** Milliseconds since the epoch. */
  now: () => number;
  /**
   * Rows read from the store kept at once.
   * @defaultValue 4096
   */
  maxEntries?: number;
}

/**
 * A cited document's title and profile: from the directory's listing when it holds the version
 * the passage is of, else from the store, a row remembered for `ttlMs` (a failed read is not).
 * The listing is already in memory (the planner lists it for every question); a store read
 * scans the documents table's files no compaction has merged yet, and while documents were
 * ingested an answer's half a dozen reads doubled the answerer's time.
 */
export function createDocumentLookup(options: DocumentLookupOptions): (docId: string, version?: string) => Promise<DocumentFacts | null> {
  const rows = createLru<string, { at: number; doc: Promise<DocumentRecord | null> }>(options.maxEntries ?? 4096);
  let indexed: { list: DirectoryEntry[]; byId: Map<string, DirectoryEntry> } | null = null;

  const listed = async (docId: string): Promise<DirectoryEntry | undefined> => {
    const list = await options.listing().catch(() => null);
    if (!list) return undefined;
    if (indexed?.list !== list) indexed = { list, byId: new Map(list.map((e) => [e.doc_id, e])) };
    return indexed.byId.get(docId);
  };

  return async (docId, version) => {
    if (version !== undefined) {
      const entry = await listed(docId);
      if (entry?.version === version) return entry;
    }
    const now = options.now();
    let kept = rows.get(docId);
    if (!kept || now - kept.at > options.ttlMs) {
      const fresh = { at: now, doc: options.read(docId) };
      fresh.doc.catch(() => rows.get(docId) === fresh && rows.delete(docId));
      rows.set(docId, fresh);
      kept = fresh;
    }
    const doc = await kept.doc;
    return doc && { title: doc.title, profile: doc.profile, source: doc.provenance.source_uri };
  };
}
