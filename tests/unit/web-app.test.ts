import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfjsAllowed } from '../../apps/gateway/routes/web.ts';
import { BUILD_INFO_FILE, webSourceHash } from '../../apps/web/source-hash.ts';
import { healthOfAnswer, healthOfReadiness } from '../../apps/web/src/health.ts';
import { lineBoxes, linesPath, type PrintedLine, type ViewportLike } from '../../apps/web/src/line-boxes.ts';
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

describe('citation highlights from printed lines', () => {
  /** A pdf.js-like viewport at `scale` (y flipped: PDF points go up, pixels down), rotated 0 or 90°. */
  const viewport = (scale: number, viewBox = [0, 0, 595, 842], rotated = false): ViewportLike => ({
    viewBox,
    convertToViewportRectangle: ([x1 = 0, y1 = 0, x2 = 0, y2 = 0]) => {
      const top = viewBox[3]!;
      const left = viewBox[0]!;
      // Turned a quarter: PDF x runs down the screen, PDF y across it (corners come back swapped).
      return rotated ? [(top - y1) * scale, (x1 - left) * scale, (top - y2) * scale, (x2 - left) * scale] : [(x1 - left) * scale, (top - y1) * scale, (x2 - left) * scale, (top - y2) * scale];
    },
  });
  const lines: PrintedLine[] = [
    { page: 1, x: 72, y: 100, width: 200, height: 10 },
    { page: 2, x: 72, y: 700, width: 150, height: 10 },
    { page: 2, x: 72, y: 686, width: 120, height: 10 },
  ];

  it('draws one box per line of the page shown, from a quarter of the size below the baseline to the size above it', () => {
    expect(lineBoxes(lines, 1, viewport(1))).toEqual([{ left: 72, top: 842 - 110, width: 200, height: 12.5 }]);
    expect(lineBoxes(lines, 2, viewport(1)).map((b) => b.top)).toEqual([842 - 710, 842 - 696]);
    expect(lineBoxes(lines, 3, viewport(1))).toEqual([]);
  });

  it('follows the zoom, the view box\'s origin and the page\'s rotation', () => {
    expect(lineBoxes(lines, 1, viewport(2))).toEqual([{ left: 144, top: 2 * (842 - 110), width: 400, height: 25 }]);
    // Extraction measured from the view box's corner (a crop box at 10, 20): the box lands as on an uncropped page.
    expect(lineBoxes(lines, 1, viewport(1, [10, 20, 605, 862]))).toEqual(lineBoxes(lines, 1, viewport(1)));
    // Turned a quarter, the line stands upright: as tall as it was wide, corners in order.
    expect(lineBoxes(lines, 1, viewport(1, [0, 0, 595, 842], true))).toEqual([{ left: 842 - 110, top: 72, width: 12.5, height: 200 }]);
  });

  it('asks for the whole chunk, or the lines of a quote', () => {
    expect(linesPath('c1')).toBe('/v1/chunks/c1/lines');
    expect(linesPath('c/1', { from: 3, to: 40 })).toBe('/v1/chunks/c%2F1/lines?from=3&to=40');
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
