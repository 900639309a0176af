/**
 * The data every layer shares, as zod schemas with their types: ids (doc_id, chunk_id, run id,
 * version), Document, the extracted pages, sections, Chunk, tables, coverage, and the artifacts'
 * schemas with the ARTIFACTS table.
 * Imports only packages (zod, uuid, node:crypto): the floor of shared/.
 * Entry points: the schemas and id functions re-exported below.
 */

export { chunkIdFor, DocId, docIdForSource, normaliseBody, RunId, sha256Hex, uuid5Of, Version } from './ids.ts';
export {
  DocumentMeta,
  DocumentProfile,
  DocumentRecord,
  IsoDate,
  parseProfile,
  profileField,
  SourceRecord,
  type DocumentOrganisation,
  type DocumentPeriod,
  type Provenance,
} from './document.ts';
export { ExtractedDocument, type OutlineEntry, type Page, type TextLine } from './extracted.ts';
export { PATH_SEPARATOR, sectionPathString, type LineSpan, type Section } from './section.ts';
export { Chunk, decodeLinePages, encodeLinePages, EnrichedChunk, optionalLinePages, type LinePages } from './chunk.ts';
export {
  ARTIFACT_NAMES,
  ARTIFACTS,
  artifactSchema,
  ChunksArtifact,
  EmbeddingsMeta,
  EnrichedArtifact,
  isArtifactName,
  SectionsArtifact,
  type ArtifactJson,
  type ArtifactName,
  type BytesArtifactName,
  type JsonArtifactName,
} from './artifacts.ts';
export { Coverage, MIN_COVERAGE, type LineInventory } from './coverage.ts';
export { Box, encodeTable, optionalTable, type DocTable, type PlacedTable, type TableCell, type TableRow } from './table.ts';
