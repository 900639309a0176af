import { z } from 'zod';
import { Chunk, EnrichedChunk } from './chunk.ts';
import { Coverage, LineInventory } from './coverage.ts';
import { DocumentRecord, SourceRecord } from './document.ts';
import { ExtractedDocument } from './extracted.ts';
import { LineSpan, Section } from './section.ts';
import { PlacedTable } from './table.ts';

/**
 * `sections.json`: the sections, every printed line they were made from (what coverage counts
 * against), and the tables read from the pages, whose lines are out of the sections' text.
 */
export const SectionsArtifact = z.object({ sections: z.array(Section), inventory: LineInventory.optional(), tables: z.array(PlacedTable).optional() });
export type SectionsArtifact = z.infer<typeof SectionsArtifact>;

/**
 * `chunks.json`: the chunks; per chunk (in chunk order) where each printed line of its body sits
 * in it (LineSpan in body offsets: what the viewer highlights a quote by) and the heading lines it
 * holds only in its breadcrumb; the document's coverage.
 */
export const ChunksArtifact = z.object({
  chunks: z.array(Chunk),
  spans: z.array(z.array(LineSpan)).optional(),
  headingLines: z.array(z.array(z.number().int().nonnegative())).optional(),
  coverage: Coverage.optional(),
});
export type ChunksArtifact = z.infer<typeof ChunksArtifact>;

/** `enriched.json`: the Document row and its chunks, ready to embed. */
export const EnrichedArtifact = z.object({ document: DocumentRecord, chunks: z.array(EnrichedChunk) });
export type EnrichedArtifact = z.infer<typeof EnrichedArtifact>;

/** `embeddings.json`; the vectors themselves are `embeddings.bin`, float32 little-endian, row-major. */
export const EmbeddingsMeta = z.object({
  model: z.string(),
  dimension: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  /** Chunk ids in row order, so vectors can never be paired with the wrong chunk. */
  chunkIds: z.array(z.string()),
});
export type EmbeddingsMeta = z.infer<typeof EmbeddingsMeta>;

/**
 * Every artifact a document version can have, each name paired with what it holds: the zod schema
 * of a JSON artifact (what ArtifactStore.getJson validates it against and putJson accepts), or
 * `'bytes'` for one stored as it is. In the order the stages write them. The one place a name
 * meets its schema, so a caller cannot read `chunks.json` as something else.
 */
export const ARTIFACTS = {
  /** The PDF as registered. */
  'source.pdf': 'bytes',
  'source.json': SourceRecord,
  'extracted.json': ExtractedDocument,
  'sections.json': SectionsArtifact,
  'chunks.json': ChunksArtifact,
  'enriched.json': EnrichedArtifact,
  'embeddings.json': EmbeddingsMeta,
  /** float32 little-endian, row-major, rows in the order of `embeddings.json`'s chunkIds. */
  'embeddings.bin': 'bytes',
} as const satisfies Record<string, z.ZodType | 'bytes'>;

/** The name of an artifact, one of {@link ARTIFACTS}' keys. */
export type ArtifactName = keyof typeof ARTIFACTS;

/** The artifacts stored as JSON and validated on read. */
export type JsonArtifactName = { [N in ArtifactName]: (typeof ARTIFACTS)[N] extends z.ZodType ? N : never }[ArtifactName];

/** The artifacts stored as raw bytes. */
export type BytesArtifactName = Exclude<ArtifactName, JsonArtifactName>;

/** The schema of each JSON artifact. */
export type JsonArtifactSchemas = { [N in JsonArtifactName]: Extract<(typeof ARTIFACTS)[N], z.ZodType> };

/** What a JSON artifact holds: `ArtifactJson<'chunks.json'>` is {@link ChunksArtifact}. */
export type ArtifactJson<N extends JsonArtifactName> = z.infer<JsonArtifactSchemas[N]>;

/** The names of {@link ARTIFACTS}, in its order. */
export const ARTIFACT_NAMES = Object.keys(ARTIFACTS) as readonly ArtifactName[];

/** Whether `name` is an artifact Quarry knows (a string from outside, e.g. a path segment). */
export function isArtifactName(name: string): name is ArtifactName {
  return Object.hasOwn(ARTIFACTS, name);
}

/** The schema `name` is validated against. */
export function artifactSchema<N extends JsonArtifactName>(name: N): JsonArtifactSchemas[N] {
  return ARTIFACTS[name] as JsonArtifactSchemas[N];
}
