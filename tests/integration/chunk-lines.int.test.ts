/**
 * Issue 28: `GET /v1/chunks/:id/lines` tells the viewer where each printed line of a chunk (or of
 * a quote from it) sits on its pages, read from the chunk's spans and the extraction, through the
 * real pipeline and gateway. The document prints one sentence twice (in a note before the section
 * and in the section), so a position is the only way to tell the cited copy from the other.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import type { ChunkLines } from '../../apps/gateway/routes/chunk-lines.ts';
import { ExtractedDocument } from '../../shared/domain/extracted.ts';
import type { Chunk } from '../../shared/domain/chunk.ts';
import { INGEST_WORKERS } from '../../workers/index.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

if (!REDIS_AVAILABLE) console.warn('chunk lines tests skipped: redis-server is not installed');

/** textPdf's layout: the first baseline and the distance between baselines, in points. */
const TOP = 770;
const PITCH = 14;
const SIZE = 11;
const TWICE = 'Wipe the float well cover with fresh water after every spring tide.';

const intro = Array.from({ length: 30 }, (_, i) => `Station note ${i + 1}: the tide tables are kept in the chart room drawer.`);
intro[5] = TWICE;
const care = Array.from({ length: 8 }, (_, i) => `Care line ${i + 1}: the float well is flushed and the stilling pipe inspected.`);
care[3] = TWICE;
const more = Array.from({ length: 4 }, (_, i) => `More care ${i + 1}: record the gauge reading against the staff in the log.`);
const PAGES = [
  ['Tide Station Handbook', '', ...intro, '', '1. Tide Gauge Care', '', ...care],
  [...more, '', '2. Visitors', '', 'Visitors may see the gauge on Sundays.'],
];

/** Where textPdf printed `text` on `page` (its baseline): the nth occurrence, counted from the top. */
function baselineOf(page: number, text: string, nth = 0): number {
  const rows = PAGES[page - 1]!.flatMap((t, i) => (t === text ? [i] : []));
  const row = rows[nth];
  if (row === undefined) throw new Error(`"${text}" is not printed ${nth + 1} time(s) on page ${page}`);
  return TOP - row * PITCH;
}

const squashSpaces = (s: string) => s.replace(/\s+/g, ' ').trim();

describe.skipIf(!REDIS_AVAILABLE)('GET /v1/chunks/:id/lines over an ingested PDF', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let base: string;
  let docId: string;
  let version: string;
  let chunk: Chunk;
  let extracted: ExtractedDocument;
  const Q = { authorization: 'Bearer q-key' };

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'q-key', QUARRY_ADMIN_KEYS: 'a-key' });
    await writeFile(path.join(ws.config.watchDir, 'tide-station.pdf'), await textPdf(PAGES, { title: 'Tide Station Handbook', size: SIZE, pitch: PITCH, top: TOP }));
    service = await startService(ws.config, { workers: Object.values(INGEST_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    const [status] = await settle(service, { count: 1, timeoutMs: 60_000 });
    expect(status?.state).toBe('indexed');
    ({ docId, version } = status!);
    const { chunks } = await service.ports.artifacts.getJson(docId, version, 'chunks.json');
    // The section that starts low on page 1 and runs on over page 2.
    const spanning = chunks.find((c) => c.page_start === 1 && c.page_end === 2 && c.body.includes(TWICE));
    if (!spanning) throw new Error(`no chunk runs from page 1 onto page 2: ${chunks.map((c) => `${c.section_path} ${c.page_start}-${c.page_end}`).join('; ')}`);
    chunk = spanning;
    extracted = await service.ports.artifacts.getJson(docId, version, 'extracted.json');
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  const lines = async (query = ''): Promise<ChunkLines> => {
    const res = await fetch(`${base}/v1/chunks/${chunk.chunk_id}/lines${query}`, { headers: Q });
    expect(res.status).toBe(200);
    return (await res.json()) as ChunkLines;
  };
  /** The extracted line printed at a returned position: matched by page and baseline, which no two lines share. */
  const textAt = (l: { page: number; y: number }): string => {
    const found = extracted.pages[l.page - 1]!.lines.filter((e) => Math.abs(e.y - l.y) < 0.01);
    expect(found, `one extracted line at page ${l.page}, y ${l.y}`).toHaveLength(1);
    return found[0]!.text;
  };

  it('answers the chunk\'s printed lines on both pages, each where the PDF printed it: together they are its body', async () => {
    const answer = await lines();
    expect(answer.exact).toBe(true);
    expect(new Set(answer.lines.map((l) => l.page))).toEqual(new Set([1, 2]));
    // Every body line, in body order, and nothing else: their text joined is the body.
    expect(squashSpaces(answer.lines.map(textAt).join(' '))).toBe(squashSpaces(chunk.body));
    // Positions from the layout the PDF was drawn with, not from the artifacts under test.
    for (const l of answer.lines) {
      const text = textAt(l);
      expect(l.x).toBeCloseTo(72, 1);
      expect(l.height).toBeCloseTo(SIZE, 1);
      // Helvetica at 11 pt: a line of n characters is a few points per character wide.
      expect(l.width).toBeGreaterThan(text.length * 3);
      expect(l.width).toBeLessThan(text.length * 8);
      expect(PAGES[l.page - 1]!.map((_, row) => TOP - row * PITCH)).toContain(l.y);
    }
    // The sentence printed twice on page 1 is cited where the section prints it, not in the note above.
    const twice = answer.lines.filter((l) => textAt(l) === TWICE);
    expect(twice).toEqual([expect.objectContaining({ page: 1, y: baselineOf(1, TWICE, 1) })]);
    expect(answer.lines.some((l) => l.page === 1 && l.y === baselineOf(1, TWICE, 0))).toBe(false);
  });

  it('from/to keeps only the lines a quote covers: one line, or the two either side of the page break', async () => {
    const at = chunk.body.indexOf(TWICE);
    const one = await lines(`?from=${at}&to=${at + TWICE.length}`);
    expect(one).toEqual({ exact: true, lines: [expect.objectContaining({ page: 1, y: baselineOf(1, TWICE, 1) })] });

    // From the middle of the last line on page 1 to the middle of the first on page 2.
    const last = care[care.length - 1]!;
    const first = more[0]!;
    const from = chunk.body.indexOf(last) + 10;
    const to = chunk.body.indexOf(first) + 10;
    const across = await lines(`?from=${from}&to=${to}`);
    expect(across.lines.map((l) => [l.page, l.y])).toEqual([
      [1, baselineOf(1, last)],
      [2, baselineOf(2, first)],
    ]);
    // Open-ended: from an offset to the end of the body.
    const tail = await lines(`?from=${from}`);
    expect(tail.lines[0]).toMatchObject({ page: 1, y: baselineOf(1, last) });
    expect(tail.lines.slice(1).every((l) => l.page === 2)).toBe(true);
  });

  it('404 for an unknown chunk; 400 naming the field for a bad range', async () => {
    const unknown = await fetch(`${base}/v1/chunks/0b7e4f5a-1c2d-5e3f-8a9b-0c1d2e3f4a5b/lines`, { headers: Q });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    for (const query of ['?from=abc', '?from=9&to=3', '?from=', '?start=1']) {
      const bad = await fetch(`${base}/v1/chunks/${chunk.chunk_id}/lines${query}`, { headers: Q });
      expect(bad.status, query).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_PAYLOAD', message: expect.stringMatching(/^query/) } });
    }
    expect((await fetch(`${base}/v1/chunks/${chunk.chunk_id}/lines`)).status).toBe(401);
    // The OpenAPI document names the query's two parameters.
    const openapi = (await (await fetch(`${base}/docs/json`)).json()) as { paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }> };
    const params = openapi.paths['/v1/chunks/{id}/lines']?.get?.parameters ?? [];
    expect(params.filter((p) => p.in === 'query').map((p) => p.name).sort()).toEqual(['from', 'to']);
  });

  it('a chunk whose artifacts carry no spans (written before them) answers exact: false, so the viewer matches text', async () => {
    const written = await service.ports.artifacts.getJson(docId, version, 'chunks.json');
    const { spans: _spans, ...older } = written;
    await service.ports.artifacts.putJson(docId, version, 'chunks.json', older);
    try {
      expect(await lines()).toEqual({ lines: [], exact: false });
    } finally {
      await service.ports.artifacts.putJson(docId, version, 'chunks.json', written);
    }
    expect((await lines()).exact).toBe(true);
  });
});
