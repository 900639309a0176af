import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfjsAllowed } from '../../apps/gateway/routes/web.ts';
import { BUILD_INFO_FILE, webSourceHash } from '../../apps/web/source-hash.ts';
import { healthOfAnswer, healthOfReadiness } from '../../apps/web/src/health.ts';
import { parseSse } from '../../apps/web/src/sse.ts';
import { citedRange, pagesLabel, stepZoom, turnPage, ZOOM_STEPS } from '../../apps/web/src/viewer-controls.ts';
import { screenshotDir } from '../helpers/browser.ts';

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

describe('what the app reads of the API health', () => {
  it('an answer says "down" only for REDIS_UNAVAILABLE; other errors say nothing of health', () => {
    expect(healthOfAnswer(503, 'REDIS_UNAVAILABLE')).toBe('redis-unavailable');
    for (const [status, code] of [[500, 'INTERNAL'], [503, 'EMBEDDER_UNAVAILABLE'], [404, 'NOT_FOUND'], [401, 'UNAUTHORIZED']] as const) expect(healthOfAnswer(status, code)).toBeNull();
  });

  it('/readyz: 200 is back, the gateway\'s own 503 is Redis down, anything else the gateway out of reach', () => {
    expect(healthOfReadiness(200, { ready: true })).toBe('ok');
    expect(healthOfReadiness(503, { ready: false })).toBe('redis-unavailable');
    expect(healthOfReadiness(503, '<html>proxy</html>')).toBe('unreachable');
    expect(healthOfReadiness(502, null)).toBe('unreachable');
    expect(healthOfReadiness(null, null)).toBe('unreachable');
  });
});

describe('citation viewer controls', () => {
  it('pages through a citation\'s span, kept inside the document', () => {
    expect(citedRange({ start: 3, end: 5 }, 10)).toEqual({ first: 3, last: 5 });
    expect(citedRange({ start: 3, end: 5 }, 4)).toEqual({ first: 3, last: 4 });
    expect(citedRange({ start: 9, end: 9 }, 4)).toEqual({ first: 4, last: 4 });
    const range = { first: 3, last: 5 };
    expect(turnPage(3, 1, range)).toBe(4);
    expect(turnPage(5, 1, range)).toBe(5);
    expect(turnPage(3, -1, range)).toBe(3);
    expect(pagesLabel({ start: 2, end: 2 })).toBe('p. 2');
    expect(pagesLabel({ start: 1, end: 2 })).toBe('pp. 1–2');
  });

  it('zooms in and out by steps, stopping at either end', () => {
    expect(stepZoom(1, 1)).toBe(1.25);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(ZOOM_STEPS[ZOOM_STEPS.length - 1]!, 1)).toBe(ZOOM_STEPS[ZOOM_STEPS.length - 1]);
    expect(stepZoom(ZOOM_STEPS[0], -1)).toBe(ZOOM_STEPS[0]);
    // From a value between steps, the next step in that direction.
    expect(stepZoom(1.1, 1)).toBe(1.25);
    expect(stepZoom(1.1, -1)).toBe(1);
  });
});

describe('browser test screenshots', () => {
  it('go to a git-ignored folder unless QUARRY_UPDATE_SCREENSHOTS=1 asks for docs/screenshots', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(screenshotDir({})).toBe(path.join(root, 'tests/e2e/screenshots'));
    expect(screenshotDir({ QUARRY_UPDATE_SCREENSHOTS: '1' })).toBe(path.join(root, 'docs/screenshots'));
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toMatch(/^tests\/e2e\/screenshots\/$/m);
  });
});
