import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArtifactStore } from '../../shared/artifacts/artifact-store.ts';
import { withArtifactCache } from '../../shared/artifacts/cached-artifact-store.ts';
import { createLocalArtifactStore } from '../../shared/artifacts/local-artifact-store.ts';
import { embeddingsMeta, putOutdatedJson, sectionsArtifact } from '../helpers/artifact-fixtures.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { runArtifactStoreContract } from './artifact-store.contract.ts';

const tempDir = tempDirs('quarry-artifacts-cached-');
const V1 = 'c'.repeat(64);
const V2 = 'd'.repeat(64);

runArtifactStoreContract('local directory behind the cache', async () => withArtifactCache(createLocalArtifactStore({ dir: tempDir() }), { maxBytes: 1 << 20 }));

/** A local store whose reads are counted, behind a cache. */
function counted(maxBytes = 1 << 20) {
  const dir = tempDir();
  const inner = createLocalArtifactStore({ dir });
  const reads: string[] = [];
  const spy: ArtifactStore = {
    ...inner,
    getBytes: async (d, v, n) => {
      reads.push(n);
      return inner.getBytes(d, v, n);
    },
    getJson: async (d, v, n) => {
      reads.push(n);
      return inner.getJson(d, v, n);
    },
    deleteDoc: (d, o) => inner.deleteDoc(d, o),
  };
  return { dir, reads, store: withArtifactCache(spy, { maxBytes }) };
}

describe('artifact cache', () => {
  it('serves what this process wrote without reading it back, and each read gets its own objects', async () => {
    const { reads, store } = counted();
    await store.putJson('doc-1', V1, 'sections.json', sectionsArtifact('One'));
    const first = await store.getJson('doc-1', V1, 'sections.json');
    first.sections.push(...sectionsArtifact('Ninety-nine').sections);
    expect(await store.getJson('doc-1', V1, 'sections.json')).toEqual(sectionsArtifact('One'));
    const bytes = new Uint8Array([1, 2, 3]);
    await store.putBytes('doc-1', V1, 'embeddings.bin', bytes);
    bytes[0] = 42; // the writer's buffer changing afterwards changes nothing kept
    const got = await store.getBytes('doc-1', V1, 'embeddings.bin');
    got[1] = 42;
    expect(Array.from(await store.getBytes('doc-1', V1, 'embeddings.bin'))).toEqual([1, 2, 3]);
    expect(reads).toEqual([]);
  });

  it('reads an artifact another process wrote once, then from memory', async () => {
    const { dir, reads, store } = counted();
    const other = createLocalArtifactStore({ dir });
    await other.putJson('doc-2', V1, 'sections.json', sectionsArtifact('Two'));
    for (let i = 0; i < 3; i++) expect(await store.getJson('doc-2', V1, 'sections.json')).toEqual(sectionsArtifact('Two'));
    expect(reads).toEqual(['sections.json']);
  });

  it('validates a kept artifact on every read: a schema it does not match fails as INVALID_PAYLOAD', async () => {
    const { store } = counted();
    await putOutdatedJson(store, 'doc-3', V1, 'chunks.json', { nope: true });
    await expect(store.getJson('doc-3', V1, 'chunks.json')).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
  });

  it('keeps nothing from a read that failed: a corrupt file stays an error, a repaired one is read again', async () => {
    const { dir, store } = counted();
    const file = path.join(dir, 'doc-4', V1, 'sections.json');
    await store.putJson('doc-4', V1, 'sections.json', sectionsArtifact());
    const reader = withArtifactCache(createLocalArtifactStore({ dir }), { maxBytes: 1 << 20 });
    await writeFile(file, '{"sections": [');
    await expect(reader.getJson('doc-4', V1, 'sections.json')).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
    await writeFile(file, JSON.stringify(sectionsArtifact('Four')));
    expect(await reader.getJson('doc-4', V1, 'sections.json')).toEqual(sectionsArtifact('Four'));
  });

  it("drops a document's artifacts on delete (all versions, or all but the kept one)", async () => {
    const { reads, store } = counted();
    await store.putJson('doc-5', V1, 'sections.json', sectionsArtifact());
    await store.putJson('doc-5', V2, 'sections.json', sectionsArtifact());
    await store.deleteDoc('doc-5', { exceptVersion: V2 });
    await expect(store.getJson('doc-5', V1, 'sections.json')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
    expect(await store.exists('doc-5', V1, 'sections.json')).toBe(false);
    await store.getJson('doc-5', V2, 'sections.json');
    expect(reads).toEqual(['sections.json']); // the V1 miss; V2 came from memory
    await store.deleteDoc('doc-5');
    await expect(store.getJson('doc-5', V2, 'sections.json')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
  });

  it("leaves other documents' entries on delete, a document whose id starts with the deleted one's too", async () => {
    const { reads, store } = counted();
    await store.putJson('doc-8', V1, 'sections.json', sectionsArtifact('Eight'));
    await store.putJson('doc-80', V1, 'sections.json', sectionsArtifact('Eighty'));
    await store.deleteDoc('doc-8');
    await store.deleteDoc('doc-8'); // again, with nothing of it kept
    expect(await store.getJson('doc-80', V1, 'sections.json')).toEqual(sectionsArtifact('Eighty'));
    expect(reads).toEqual([]);
    await expect(store.getJson('doc-8', V1, 'sections.json')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
  });

  it('keeps at most maxBytes, the least recently used going first, and never an entry over maxEntryBytes', async () => {
    const { reads, store } = counted(600);
    const big = embeddingsMeta('big', Array.from({ length: 20 }, (_, n) => `c${n}`)); // > 150 bytes: never kept
    await store.putJson('doc-6', V1, 'embeddings.json', big);
    await store.getJson('doc-6', V1, 'embeddings.json');
    expect(reads).toEqual(['embeddings.json']);
    reads.length = 0;
    const small = (n: number) => embeddingsMeta(`m${n}`); // 52 or 53 bytes each: the last 11 fit
    const docs = Array.from({ length: 20 }, (_, i) => `doc-s${i}`);
    for (const [i, d] of docs.entries()) await store.putJson(d, V1, 'embeddings.json', small(i));
    for (const d of docs.slice(-10)) await store.getJson(d, V1, 'embeddings.json');
    expect(reads).toEqual([]);
    await store.getJson(docs[0]!, V1, 'embeddings.json');
    expect(reads).toEqual(['embeddings.json']);
  });

  it("does not keep a read that a delete of its document overlapped; another document's delete does not matter", async () => {
    const dir = tempDir();
    const inner = createLocalArtifactStore({ dir });
    await inner.putJson('doc-7', V1, 'sections.json', sectionsArtifact('Seven'));
    await inner.putJson('doc-8', V1, 'sections.json', sectionsArtifact('Eight'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const reads: string[] = [];
    const slow: ArtifactStore = {
      ...inner,
      getBytes: async (d, v, n) => {
        reads.push(d);
        const bytes = await inner.getBytes(d, v, n);
        await gate; // the read has its bytes; the delete runs before it returns
        return bytes;
      },
      deleteDoc: (d, o) => inner.deleteDoc(d, o),
    };
    const store = withArtifactCache(slow, { maxBytes: 1 << 20 });
    const readings = [store.getJson('doc-7', V1, 'sections.json'), store.getJson('doc-8', V1, 'sections.json')];
    await new Promise((r) => setTimeout(r, 20));
    await store.deleteDoc('doc-7');
    release();
    expect(await Promise.all(readings)).toEqual([sectionsArtifact('Seven'), sectionsArtifact('Eight')]);
    reads.length = 0;
    await expect(store.getJson('doc-7', V1, 'sections.json')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
    expect(await store.getJson('doc-8', V1, 'sections.json')).toEqual(sectionsArtifact('Eight'));
    expect(reads).toEqual(['doc-7']); // doc-8 came from memory
  });
});
