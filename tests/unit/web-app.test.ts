import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfjsAllowed } from '../../apps/gateway/routes/web.ts';
import { BUILD_INFO_FILE, webSourceHash } from '../../apps/web/source-hash.ts';
import { parseSse } from '../../apps/web/src/sse.ts';

const webDir = path.resolve(import.meta.dirname, '../../apps/web');

describe('web app build (committed under apps/web/dist)', () => {
  it('was built from the current sources: run `npm run build:web` after editing apps/web', () => {
    const info = JSON.parse(readFileSync(path.join(webDir, 'dist', BUILD_INFO_FILE), 'utf8')) as { sourceHash: string };
    expect(info.sourceHash).toBe(webSourceHash(webDir));
  });

  it('index.html names only assets that are in the build', () => {
    const html = readFileSync(path.join(webDir, 'dist/index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const r of refs) expect(readFileSync(path.join(webDir, 'dist', r)).length).toBeGreaterThan(0);
  });
});

describe('parseSse', () => {
  it('splits events, joins multi-line data, and keeps an unfinished event for the next chunk', () => {
    const first = parseSse('event: run\ndata: {"runId":"r1"}\n\nevent: delta\r\ndata: {"text":"a"}\r\n\r\nevent: node\ndata: {"no');
    expect(first.events).toEqual([
      { event: 'run', data: '{"runId":"r1"}' },
      { event: 'delta', data: '{"text":"a"}' },
    ]);
    const second = parseSse(`${first.rest}de":"x","ms":1}\n\n: keep-alive\n\ndata: a\ndata: b\n\n`);
    expect(second.events).toEqual([
      { event: 'node', data: '{"node":"x","ms":1}' },
      { event: 'message', data: 'a\nb' },
    ]);
    expect(second.rest).toBe('');
  });
});

describe('pdf.js files the gateway serves', () => {
  it('are the library, its worker, CMaps and standard fonts, nothing else of the package', () => {
    for (const p of ['/build/pdf.min.mjs', '/build/pdf.worker.min.mjs', '/cmaps/UniKS-UCS2-H.bcmap', '/standard_fonts/FoxitSans.pfb']) expect(pdfjsAllowed(p)).toBe(true);
    for (const p of ['/package.json', '/build/pdf.mjs.map', '/legacy/build/pdf.mjs', '/cmaps/../package.json', '/cmaps/a/b.bcmap']) expect(pdfjsAllowed(p)).toBe(false);
  });
});
