import { describe, expect, it } from 'vitest';
import type { ArtifactStore } from '../../shared/artifacts/artifact-store.ts';
import { putOutdatedJson, sectionsArtifact, sourceRecord } from '../helpers/artifact-fixtures.ts';

const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);

/** The one ArtifactStore contract every adapter runs. */
export function runArtifactStoreContract(name: string, make: () => Promise<ArtifactStore>): void {
  describe(`ArtifactStore contract: ${name}`, () => {
    it('round-trips bytes and validated JSON', async () => {
      const s = await make();
      const bytes = new Uint8Array([37, 80, 68, 70, 0, 255]);
      await s.putBytes('doc-1', V1, 'source.pdf', bytes);
      expect(Array.from(await s.getBytes('doc-1', V1, 'source.pdf'))).toEqual(Array.from(bytes));
      const sections = sectionsArtifact('Scope', 'Definitions');
      await s.putJson('doc-1', V1, 'sections.json', sections);
      expect(await s.getJson('doc-1', V1, 'sections.json')).toEqual(sections);
      expect(await s.exists('doc-1', V1, 'sections.json')).toBe(true);
      expect(await s.exists('doc-1', V1, 'chunks.json')).toBe(false);
    });

    it('stores a JSON artifact as the JSON text of the value written, nothing added or reordered', async () => {
      const s = await make();
      const record = sourceRecord('doc-5', V1);
      await s.putJson('doc-5', V1, 'source.json', record);
      expect(new TextDecoder().decode(await s.getBytes('doc-5', V1, 'source.json'))).toBe(JSON.stringify(record));
    });

    it('names what is missing and what does not match', async () => {
      const s = await make();
      await expect(s.getBytes('doc-2', V1, 'source.pdf')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
      await expect(s.getJson('doc-2', V1, 'enriched.json')).rejects.toMatchObject({ code: 'ARTIFACT_MISSING' });
      await putOutdatedJson(s, 'doc-2', V1, 'chunks.json', { nope: true });
      await expect(s.getJson('doc-2', V1, 'chunks.json')).rejects.toMatchObject({ code: 'INVALID_PAYLOAD' });
    });

    it('refuses ids that could escape their place', async () => {
      const s = await make();
      await expect(s.putBytes('../etc', V1, 'source.pdf', new Uint8Array())).rejects.toThrow();
      await expect(s.putBytes('doc-3', '../../x', 'source.pdf', new Uint8Array())).rejects.toThrow();
    });

    it('lists and deletes versions', async () => {
      const s = await make();
      await s.putJson('doc-4', V1, 'source.json', sourceRecord('doc-4', V1));
      await s.putJson('doc-4', V2, 'source.json', sourceRecord('doc-4', V2));
      expect(await s.listVersions('doc-4')).toEqual([V1, V2]);
      await s.deleteDoc('doc-4', { exceptVersion: V2 });
      expect(await s.listVersions('doc-4')).toEqual([V2]);
      await s.deleteDoc('doc-4');
      expect(await s.listVersions('doc-4')).toEqual([]);
      expect(await s.listVersions('never')).toEqual([]);
    });
  });
}
