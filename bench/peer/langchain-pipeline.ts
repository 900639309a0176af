/*
 * The peer: the pipeline a TypeScript user would write with LangChain.js instead of Quarry —
 * `PDFLoader` → `RecursiveCharacterTextSplitter` → the community LanceDB vector store, embedding
 * with Quarry's own hash embedder so both sides pay the same embedding cost and no network is
 * needed. Measurement only (bench and eval); nothing in the product imports it.
 *
 * The loader runs on the pdfjs-dist Quarry installs, through PDFLoader's documented `pdfjs`
 * option, instead of its default pdf-parse: pdf-parse bundles another pdf.js (5.4), and pdf.js's
 * in-process worker is a process global whose version must match the caller's, so pdf-parse fails
 * on every file once Quarry's pdf.js (5.6) has run in the same process (the bench, the filings
 * eval). Both sides thus read text with the same pdf.js; what differs is the pipeline.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFLoader } from '@langchain/community/document_loaders/fs/pdf';
import { LanceDB } from '@langchain/community/vectorstores/lancedb';
import { Document } from '@langchain/core/documents';
import { Embeddings } from '@langchain/core/embeddings';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import type { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Embedder } from '../../shared/embed/index.ts';

/** PDFLoader's v1 path (page by page `getTextContent`) on the project's pdf.js. */
async function projectPdfjs(): Promise<{ isV2: false; getDocument: typeof getDocument; version: string }> {
  const { getDocument, version } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return { isV2: false, getDocument, version };
}

/** Name the bench and the eval report the peer under. */
export const PEER_NAME = 'langchain.js (PDFLoader + RecursiveCharacterTextSplitter + LanceDB)';

/** A Quarry {@link Embedder} as a LangChain `Embeddings`, so LangChain's stores can call it. */
export class QuarryEmbeddings extends Embeddings {
  readonly #embedder: Embedder;

  constructor(embedder: Embedder) {
    super({});
    this.#embedder = embedder;
  }

  override async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors = await this.#embedder.embed(texts);
    return vectors.map((v) => Array.from(v));
  }

  override async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.#embedder.embed([text]);
    if (!vector) throw new Error('embedder returned no vector for the query');
    return Array.from(vector);
  }
}

/** Options of {@link createLangChainPeer}. */
export interface LangChainPeerOptions {
  embedder: Embedder;
  /**
   * Characters per chunk, LangChain's documented default.
   * @defaultValue 1000
   */
  chunkSize?: number;
  /** @defaultValue 200 */
  chunkOverlap?: number;
  /**
   * Chunks per store write (the store embeds and appends each batch).
   * @defaultValue 1000
   */
  writeBatchSize?: number;
  /** Where the LanceDB directory is made (removed by `close`). @defaultValue the OS temp dir */
  tmpRoot?: string;
}

/** A PDF to index: the id results carry, and its path. */
export interface PeerPdf {
  docId: string;
  path: string;
}

/** A plain-text document to index (BEIR: title and text). */
export interface PeerText {
  docId: string;
  text: string;
}

/** One hit of the peer's similarity search. */
export interface PeerHit {
  docId: string;
  chunkId: string;
  body: string;
  score: number;
}

/** What an indexing call did. */
export interface PeerIndexed {
  documents: number;
  /** Pages of the loaded PDFs (`metadata.pdf.totalPages`; 0 for texts). */
  pages: number;
  chunks: number;
  /** PDFs the loader could not read (left out, as Quarry fails one document and goes on). */
  failed: { docId: string; error: string }[];
}

/** The LangChain.js pipeline over one temporary LanceDB directory. */
export interface LangChainPeer {
  /**
   * Loads each PDF with `PDFLoader` (one LangChain Document per page), splits and stores it; a
   * PDF the loader cannot read is listed in `failed`.
   */
  indexPdfs(files: readonly PeerPdf[]): Promise<PeerIndexed>;
  /** Splits and stores plain-text documents (no loader: BEIR corpora are text). */
  indexTexts(docs: readonly PeerText[]): Promise<PeerIndexed>;
  /**
   * The store's similarity search, best first.
   * @throws Error when nothing was indexed yet (the store has no table).
   */
  search(query: string, k: number): Promise<PeerHit[]>;
  /** Removes the LanceDB directory. */
  close(): Promise<void>;
}

/** Row metadata kept flat and uniform: the store infers its Arrow schema from the first write. */
interface PeerMetadata {
  doc_id: string;
  chunk_id: string;
  page: number;
}

/**
 * Makes the peer pipeline over a fresh temporary LanceDB directory.
 *
 * @throws whatever creating the temporary directory throws.
 */
export async function createLangChainPeer(opts: LangChainPeerOptions): Promise<LangChainPeer> {
  const dir = await mkdtemp(path.join(opts.tmpRoot ?? tmpdir(), 'quarry-peer-'));
  const splitter = new RecursiveCharacterTextSplitter({ chunkSize: opts.chunkSize ?? 1000, chunkOverlap: opts.chunkOverlap ?? 200 });
  const store = new LanceDB(new QuarryEmbeddings(opts.embedder), { uri: dir, tableName: 'peer', mode: 'overwrite' });
  const writeBatchSize = opts.writeBatchSize ?? 1000;
  let pending: Document<PeerMetadata>[] = [];
  let stored = 0;

  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await store.addDocuments(batch);
    stored += batch.length;
  };
  // Chunk ids count per document, so a hit names its passage the way Quarry's chunk ids do.
  const add = async (docId: string, chunks: readonly Document[], page: (d: Document) => number): Promise<number> => {
    chunks.forEach((c, i) => {
      pending.push(new Document<PeerMetadata>({ pageContent: c.pageContent, metadata: { doc_id: docId, chunk_id: `${docId}#${i}`, page: page(c) } }));
    });
    if (pending.length >= writeBatchSize) await flush();
    return chunks.length;
  };

  return {
    async indexPdfs(files) {
      let pages = 0;
      let chunks = 0;
      const failed: PeerIndexed['failed'] = [];
      for (const file of files) {
        let docs: Document[];
        try {
          docs = await new PDFLoader(file.path, { pdfjs: projectPdfjs }).load();
        } catch (err) {
          failed.push({ docId: file.docId, error: err instanceof Error ? err.message : String(err) });
          continue;
        }
        // The PDF's page count, not the pages with text: pages/s must count what Quarry counts.
        pages += totalPagesOf(docs[0]) ?? docs.length;
        const added = await add(file.docId, await splitter.splitDocuments(docs), pageOf);
        chunks += added;
      }
      await flush();
      return { documents: files.length - failed.length, pages, chunks, failed };
    },
    async indexTexts(docs) {
      let chunks = 0;
      for (const doc of docs) {
        const added = await add(doc.docId, await splitter.createDocuments([doc.text]), () => 0);
        chunks += added;
      }
      await flush();
      return { documents: docs.length, pages: 0, chunks, failed: [] };
    },
    async search(query, k) {
      if (stored === 0) throw new Error('the peer store is empty: index something first');
      const hits = await store.similaritySearchWithScore(query, k);
      return hits.map(([doc, score]) => ({
        docId: String(doc.metadata.doc_id),
        chunkId: String(doc.metadata.chunk_id),
        body: doc.pageContent,
        score,
      }));
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The page number PDFLoader records in `metadata.loc.pageNumber`; 0 when absent. */
function pageOf(doc: Document): number {
  const loc: unknown = doc.metadata.loc;
  if (typeof loc === 'object' && loc !== null && 'pageNumber' in loc && typeof loc.pageNumber === 'number') return loc.pageNumber;
  return 0;
}

/** The page count PDFLoader records in `metadata.pdf.totalPages`. */
function totalPagesOf(doc: Document | undefined): number | undefined {
  const pdf: unknown = doc?.metadata.pdf;
  if (typeof pdf === 'object' && pdf !== null && 'totalPages' in pdf && typeof pdf.totalPages === 'number') return pdf.totalPages;
  return undefined;
}
