import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalArtifactStore } from '../../shared/artifacts/local-artifact-store.ts';
import { embeddingsMeta, extractedDocument, sectionsArtifact } from '../helpers/artifact-fixtures.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { runArtifactStoreContract } from './artifact-store.contract.ts';

const tempDir = tempDirs('quarry-artifacts-');

runArtifactStoreContract('local directory', async () => createLocalArtifactStore({ dir: tempDir() }));

describe('local artifact writes', () => {
  it('artifacts land whole in new and existing folders (the folder made on the first write), leaving no temp file', async () => {
    const dir = tempDir();
    const store = createLocalArtifactStore({ dir });
    const version = 'e'.repeat(64);
    const big = extractedDocument('x'.repeat(300_000));
    const sections = sectionsArtifact('One');
    const meta = embeddingsMeta('m', ['c1']);
    await store.putJson('doc-big', version, 'extracted.json', big); // new folder
    await store.putJson('doc-small', version, 'sections.json', sections); // new folder
    await store.putJson('doc-small', version, 'embeddings.json', meta); // existing folder
    await store.putBytes('doc-small', version, 'embeddings.bin', new Uint8Array([1, 2]));
    expect(await store.getJson('doc-big', version, 'extracted.json')).toEqual(big);
    expect(await store.getJson('doc-small', version, 'sections.json')).toEqual(sections);
    expect(await store.getJson('doc-small', version, 'embeddings.json')).toEqual(meta);
    expect(Array.from(await store.getBytes('doc-small', version, 'embeddings.bin'))).toEqual([1, 2]);
    for (const doc of ['doc-big', 'doc-small']) {
      expect(readdirSync(path.join(dir, doc, version)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    }
  });
});
