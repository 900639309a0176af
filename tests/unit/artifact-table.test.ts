/**
 * The artifact table (shared/domain/artifacts.ts `ARTIFACTS`) is the one place an artifact's name
 * meets what it holds: every name the store accepts is in it, each JSON one with its schema, and
 * the port's JSON reads and writes are typed by the name, so a wrong pair does not compile.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ARTIFACT_NAMES, ARTIFACTS, checkArtifactRef, type ArtifactName, type ArtifactStore } from '../../shared/artifacts/artifact-store.ts';
import {
  ChunksArtifact,
  EmbeddingsMeta,
  EnrichedArtifact,
  ExtractedDocument,
  SectionsArtifact,
  SourceRecord,
  isArtifactName,
  type BytesArtifactName,
  type JsonArtifactName,
} from '../../shared/domain/index.ts';

const V = 'a'.repeat(64);

describe('the artifact table', () => {
  it('lists every artifact a version can have, in the order the stages write them (names already stored must stay found)', () => {
    expect(ARTIFACT_NAMES).toEqual(['source.pdf', 'source.json', 'extracted.json', 'sections.json', 'chunks.json', 'enriched.json', 'embeddings.json', 'embeddings.bin']);
    expect(Object.keys(ARTIFACTS)).toEqual(ARTIFACT_NAMES);
  });

  it('pairs each JSON artifact with its schema and lists the others as bytes', () => {
    expect(ARTIFACTS).toEqual({
      'source.pdf': 'bytes',
      'source.json': SourceRecord,
      'extracted.json': ExtractedDocument,
      'sections.json': SectionsArtifact,
      'chunks.json': ChunksArtifact,
      'enriched.json': EnrichedArtifact,
      'embeddings.json': EmbeddingsMeta,
      'embeddings.bin': 'bytes',
    });
    for (const name of ARTIFACT_NAMES) {
      const entry = ARTIFACTS[name];
      if (name.endsWith('.json')) expect(entry, name).toBeInstanceOf(z.ZodType);
      else expect(entry, name).toBe('bytes');
    }
  });

  it('the store accepts exactly the names in the table', () => {
    for (const name of ARTIFACT_NAMES) expect(() => checkArtifactRef('doc-1', V, name)).not.toThrow();
    for (const name of ['notes.json', 'source.PDF', '', '__proto__', 'constructor', 'toString']) {
      expect(isArtifactName(name), name).toBe(false);
      expect(() => checkArtifactRef('doc-1', V, name as ArtifactName), name).toThrow(TypeError);
    }
  });

  it('docs/architecture.md names every artifact', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/architecture.md'), 'utf8');
    const dataModel = doc.slice(doc.indexOf('- **Artifacts**'));
    for (const name of ARTIFACT_NAMES) expect(dataModel, name).toContain(`\`${name}\``);
  });

  it('types JSON reads and writes by the name: a wrong name/type pair does not compile', () => {
    // Never called: the compiler (npx tsc -p .) is what checks this body.
    const typeChecks = async (store: ArtifactStore, sections: SectionsArtifact, chunks: ChunksArtifact) => {
      expectTypeOf(store.getJson('doc-1', V, 'chunks.json')).resolves.toEqualTypeOf<ChunksArtifact>();
      expectTypeOf(store.getJson('doc-1', V, 'source.json')).resolves.toEqualTypeOf<SourceRecord>();
      expectTypeOf<JsonArtifactName>().toEqualTypeOf<'source.json' | 'extracted.json' | 'sections.json' | 'chunks.json' | 'enriched.json' | 'embeddings.json'>();
      expectTypeOf<BytesArtifactName>().toEqualTypeOf<'source.pdf' | 'embeddings.bin'>();
      await store.putJson('doc-1', V, 'chunks.json', chunks);
      // @ts-expect-error chunks.json holds a ChunksArtifact, not a SectionsArtifact
      await store.putJson('doc-1', V, 'chunks.json', sections);
      // @ts-expect-error what chunks.json reads back is a ChunksArtifact
      const wrong: EnrichedArtifact = await store.getJson('doc-1', V, 'chunks.json');
      // @ts-expect-error getJson takes no schema: the name says it
      await store.getJson('doc-1', V, 'chunks.json', ChunksArtifact);
      // @ts-expect-error source.pdf is bytes, not JSON
      await store.getJson('doc-1', V, 'source.pdf');
      // @ts-expect-error JSON artifacts are written with putJson, so they are typed
      await store.putBytes('doc-1', V, 'chunks.json', new Uint8Array());
      // @ts-expect-error not an artifact
      await store.exists('doc-1', V, 'notes.json');
      return wrong;
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});
