/**
 * Reading documents: one document's status and row (MCP `get_document`, `GET /v1/documents/:id`),
 * the list a page at a time (MCP `list_documents`) or whole with retry hints (the web app), and a
 * document's stored PDF (the web app's viewer).
 */
import type { ArtifactStore } from '../../shared/artifacts/index.ts';
import type { DocStatus, StatusStore } from '../../shared/status/index.ts';
import type { VectorStore } from '../../shared/store/index.ts';
import { HttpError } from '../failures.ts';
import type { DocumentResult, ListDocumentsRequest, ListDocumentsResult } from '../schemas.ts';
import { createRetryableCheck } from './retry.ts';

/**
 * A document's status record.
 * @throws HttpError `NOT_FOUND` for an unknown document.
 */
export async function documentStatus(deps: { status: StatusStore }, docId: string): Promise<DocStatus> {
  const status = await deps.status.get(docId);
  if (!status) throw new HttpError(404, 'NOT_FOUND', `no document ${docId}`);
  return status;
}

/**
 * A document's status record and its indexed Document row.
 * @throws HttpError `NOT_FOUND` for an unknown document.
 */
export async function getDocument(deps: { status: StatusStore; store: VectorStore }, docId: string): Promise<DocumentResult> {
  const status = await documentStatus(deps, docId);
  const doc = await deps.store.getDocument(docId);
  return { docId, title: doc?.title ?? null, status, document: doc ? { ...doc } : null };
}

/** One page of status records in registration order, with titles of the indexed ones. */
export async function listDocuments(deps: { status: StatusStore; store: VectorStore }, req: ListDocumentsRequest): Promise<ListDocumentsResult> {
  const all = await deps.status.list();
  const page = all.slice(req.offset, req.offset + req.limit);
  // Read each row, not the cached directory: a document indexed a moment ago shows its title.
  const names = new Map<string, string>();
  await Promise.all(
    page.map(async (st) => {
      const doc = st.state === 'indexed' ? await deps.store.getDocument(st.docId) : null;
      if (doc) names.set(st.docId, doc.title);
    }),
  );
  const end = req.offset + page.length;
  return {
    total: all.length,
    offset: req.offset,
    nextOffset: end < all.length ? end : null,
    documents: page.map((s) => ({
      docId: s.docId,
      title: names.get(s.docId) ?? null,
      state: s.state,
      stage: s.stage,
      progress: s.progress,
      pages: s.pageCount,
      chunks: s.chunkCount,
      error: s.errorCode ? { code: s.errorCode, message: s.errorMessage ?? '' } : null,
    })),
  };
}

/**
 * Every document's status, newest first, each marked `retryable` when a retry would run it again.
 * The check remembers stored sources, so build one per process and call it on every poll.
 */
export function createDocumentLibrary(deps: { status: StatusStore; artifacts: Pick<ArtifactStore, 'exists'> }): () => Promise<(DocStatus & { retryable: boolean })[]> {
  const withRetryable = createRetryableCheck(deps.artifacts);
  return async () => {
    const all = await deps.status.list();
    return withRetryable(all.filter((d) => d.state !== 'deleted').sort((a, b) => b.registeredAt.localeCompare(a.registeredAt)));
  };
}

/**
 * The stored PDF of a document's current version.
 * @throws HttpError `NOT_FOUND` for an unknown or deleted document, or one with no stored PDF.
 */
export async function storedPdf(deps: { status: StatusStore; artifacts: Pick<ArtifactStore, 'exists' | 'getBytes'> }, docId: string): Promise<Uint8Array> {
  const status = await deps.status.get(docId);
  if (!status || status.state === 'deleted') throw new HttpError(404, 'NOT_FOUND', `no document ${docId}`);
  if (!(await deps.artifacts.exists(docId, status.version, 'source.pdf'))) throw new HttpError(404, 'NOT_FOUND', `document ${docId} has no stored PDF`);
  return deps.artifacts.getBytes(docId, status.version, 'source.pdf');
}
