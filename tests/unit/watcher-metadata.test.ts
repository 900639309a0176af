import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest, readSidecar, sidecarPathOf } from '../../shared/sources/metadata.ts';
import { versionOf } from '../../core/sources/register-source.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('quarry-meta-');

describe('document metadata', () => {
  it('reads a sidecar next to the PDF', async () => {
    const dir = tempDir();
    const pdf = path.join(dir, 'x.pdf');
    expect(sidecarPathOf(pdf)).toBe(path.join(dir, 'x.meta.json'));
    expect(await readSidecar(pdf)).toBeNull();
    writeFileSync(path.join(dir, 'x.meta.json'), JSON.stringify({ doc_type: 'law', lang: 'ko', valid_from: '2025-02-23' }));
    expect(await readSidecar(pdf)).toEqual({ doc_type: 'law', lang: 'ko', valid_from: '2025-02-23' });
  });

  it('rejects bad sidecars with the field named', async () => {
    const dir = tempDir();
    const pdf = path.join(dir, 'y.pdf');
    writeFileSync(path.join(dir, 'y.meta.json'), JSON.stringify({ valid_from: '2025-02-30', colour: 'red' }));
    await expect(readSidecar(pdf)).rejects.toMatchObject({ code: 'INVALID_METADATA' });
    await expect(readSidecar(pdf)).rejects.toThrow(/valid_from|colour/);
    writeFileSync(path.join(dir, 'y.meta.json'), '{not json');
    await expect(readSidecar(pdf)).rejects.toThrow(/not JSON/);
  });

  it('rejects valid_to before valid_from', async () => {
    expect(() => parseManifest('{"path":"a.pdf","valid_from":"2025-01-01","valid_to":"2024-01-01"}', 'm.jsonl')).toThrow(/valid_to/);
  });

  it('parses JSONL manifests and names every bad line', () => {
    const ok = parseManifest('# comment\n{"path":"a.pdf","doc_type":"policy"}\n\n{"path":"b.pdf","valid_to":null}\n', 'm.jsonl');
    expect(ok).toEqual([
      { path: 'a.pdf', meta: { doc_type: 'policy' } },
      { path: 'b.pdf', meta: { valid_to: null } },
    ]);
    expect(() => parseManifest('{"doc_type":"x"}\n[1]\n{"path":"c.pdf","lang":"Korean"}', 'm.jsonl')).toThrow(/m\.jsonl:1.*\n.*m\.jsonl:2.*\n.*m\.jsonl:3.*lang/);
  });

  it('a version names bytes and metadata', () => {
    const sha = 'b'.repeat(64);
    expect(versionOf(sha, {})).toBe(sha);
    expect(versionOf(sha, { doc_type: 'law', lang: 'ko' })).toBe(versionOf(sha, { lang: 'ko', doc_type: 'law' }));
    expect(versionOf(sha, { valid_to: '2025-01-01' })).not.toBe(versionOf(sha, {}));
  });
});
