import { chunkIdFor, DocId, sha256Hex, type DocumentRecord } from '../shared/domain/index.ts';
import type { StoredChunk } from '../shared/store/index.ts';
import type { BeirDoc } from './beir.ts';

/** Facets every evaluation row carries; nothing filters on them, they only satisfy the schema. */
const FACETS = { doc_type: 'beir', jurisdiction: '', lang: 'und' } as const;

/**
 * Two-way map between a dataset's ids and store doc ids. BEIR ids are free-form ("MED-10",
 * "PMID:123", mixed case) while a store doc id must match {@link DocId}.
 */
export interface DocIdMap {
  /** Store doc id of a dataset id (made on first use, stable for the map's lifetime). */
  toStore(beirId: string): string;
  /** Dataset id of a store doc id, or undefined for an id this map never made. */
  toBeir(storeId: string): string | undefined;
}

/**
 * Creates a {@link DocIdMap}. An id that already is a valid DocId is kept as it is (SciFact's
 * numeric ids stay readable in the store); any other becomes a slug plus a hash of the original,
 * so "MED-10" and "med-10" cannot collide.
 *
 * @throws Error if two dataset ids would still map to one store id (a hash collision).
 */
export function createDocIdMap(): DocIdMap {
  const toStore = new Map<string, string>();
  const toBeir = new Map<string, string>();
  return {
    toStore(beirId) {
      const known = toStore.get(beirId);
      if (known !== undefined) return known;
      let storeId = beirId;
      if (!DocId.safeParse(beirId).success) {
        const slug = beirId
          .normalize('NFKD')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 100);
        const hash = sha256Hex(beirId).slice(0, 12);
        storeId = slug ? `${slug}-${hash}` : `doc-${hash}`;
      }
      const owner = toBeir.get(storeId);
      if (owner !== undefined && owner !== beirId) throw new Error(`doc ids "${owner}" and "${beirId}" both map to ${storeId}`);
      toStore.set(beirId, storeId);
      toBeir.set(storeId, beirId);
      return storeId;
    },
    toBeir(storeId) {
      return toBeir.get(storeId);
    },
  };
}

/** What gets embedded and keyword-indexed for a document: title, blank line, text. */
export function embeddingTextOf(doc: BeirDoc): string {
  return [doc.title.trim(), doc.text.trim()].filter((s) => s !== '').join('\n\n');
}

/**
 * Whether a document has anything to search. A document with no letter or digit gives the hash
 * embedder a zero vector, which the store rightly refuses; it could not be found anyway.
 */
export function isSearchable(doc: BeirDoc): boolean {
  return /[\p{L}\p{N}]/u.test(embeddingTextOf(doc));
}

/** A document and its single chunk, ready for the store. */
export interface CorpusRows {
  document: DocumentRecord;
  chunk: StoredChunk;
}

/**
 * Builds the rows for one BEIR document: one chunk per document (section = title, body = text),
 * a synthetic Version (sha256 of the document's content) and a Document row with a `beir://`
 * provenance. `token_count` is a cheap estimate (≈4 characters per token): nothing in retrieval
 * reads it, and exact BPE counts of a whole corpus would cost seconds for nothing.
 */
export function corpusRows(doc: BeirDoc, ids: DocIdMap, opts: { dataset: string; vector: Float32Array; now: string }): CorpusRows {
  const docId = ids.toStore(doc.id);
  const embeddingText = embeddingTextOf(doc);
  const version = sha256Hex(embeddingText);
  const section = doc.title.trim();
  const chunk: StoredChunk = {
    chunk_id: chunkIdFor(docId, section, doc.text),
    doc_id: docId,
    version,
    section,
    section_path: section,
    body: doc.text,
    embedding_text: embeddingText,
    page_start: 1,
    page_end: 1,
    chunk_index: 0,
    total_chunks: 1,
    token_count: Math.ceil(embeddingText.length / 4),
    entities: [],
    valid_from: null,
    valid_to: null,
    ...FACETS,
    created_at: opts.now,
    updated_at: opts.now,
    vector: opts.vector,
  };
  const document: DocumentRecord = {
    doc_id: docId,
    version,
    title: section,
    ...FACETS,
    valid_from: null,
    valid_to: null,
    entities: [],
    page_count: 1,
    provenance: {
      source_uri: `beir://${encodeURIComponent(opts.dataset)}/${encodeURIComponent(doc.id)}`,
      sha256: version,
      fetched_at: opts.now,
      collector: 'quarry-eval',
      bytes: Buffer.byteLength(embeddingText, 'utf8'),
    },
  };
  return { document, chunk };
}
