import type { ArtifactJson, ArtifactStore, JsonArtifactName } from '../../shared/artifacts/artifact-store.ts';
import type { EmbeddingsMeta, ExtractedDocument, SectionsArtifact, SourceRecord } from '../../shared/domain/index.ts';

/**
 * Small artifacts that match their schemas (shared/domain/artifacts.ts `ARTIFACTS`), for the
 * artifact store's contract and adapter tests: the store validates what it reads by the name.
 */

/** A `source.json` for `docId` at `version`. */
export function sourceRecord(docId: string, version: string): SourceRecord {
  return {
    doc_id: docId,
    version,
    source_key: `dir:${docId}.pdf`,
    meta: {},
    provenance: { source_uri: `file://${docId}.pdf`, sha256: version, fetched_at: new Date(0).toISOString(), collector: 'test', bytes: 0 },
  };
}

/** A `sections.json` with one top-level section per title. */
export function sectionsArtifact(...titles: string[]): SectionsArtifact {
  return {
    sections: titles.map((title, order) => ({
      id: `s${order}`,
      title,
      heading: title.toLowerCase(),
      path: [title],
      level: 1,
      order,
      text: '',
      pageStart: 1,
      pageEnd: 1,
      source: 'pattern',
    })),
  };
}

/** A one-page `extracted.json` whose one line is `text`. */
export function extractedDocument(text: string): ExtractedDocument {
  return {
    pageCount: 1,
    pages: [{ number: 1, width: 612, height: 792, lines: [{ text, x: 72, y: 720, fontSize: 10 }] }],
    outline: [],
    info: { title: null, creationDate: null },
    strippedLines: [],
  };
}

/** An `embeddings.json` of `chunkIds` (about 50 bytes of JSON with none). */
export function embeddingsMeta(model: string, chunkIds: string[] = []): EmbeddingsMeta {
  return { model, dimension: 1, count: chunkIds.length, chunkIds };
}

/**
 * Writes `value` as the JSON artifact `name` whatever its shape, as code of an older schema
 * might have: what a reader must refuse as INVALID_PAYLOAD. The cast is the point.
 */
export async function putOutdatedJson(store: ArtifactStore, docId: string, version: string, name: JsonArtifactName, value: unknown): Promise<void> {
  await store.putJson(docId, version, name, value as ArtifactJson<typeof name>);
}
