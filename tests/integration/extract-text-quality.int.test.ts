/**
 * The text-quality check through the extract worker and the status record (real Redis): a PDF
 * whose text layer is nearly all mojibake fails as GARBLED_TEXT; one with a single garbled page
 * is extracted, and its status record carries a GARBLED_TEXT warning naming that page, which a
 * new version of the document clears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractQueue } from '../../queues/ingest.queues.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { extractWorker } from '../../workers/extract/extract.worker.ts';
import { createPorts } from '../../workers/compose.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';
import { remappedFontPdf } from '../fixtures/raw-pdf.ts';
import { putSource, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const WRONG_GLYPHS = ['Atilde', 'copyright', 'registered', 'plusminus', 'currency', 'Ograve', 'brokenbar', 'dieresis', 'section', 'Eth', 'thorn'];
const scramble = (code: number): string => WRONG_GLYPHS[code % WRONG_GLYPHS.length] ?? 'Atilde';
const PAGE = ['The employer shall keep records of hours worked for three years.', 'Records are kept in the payroll system and shown on request.'];

describe.skipIf(!REDIS_AVAILABLE)('extract worker: garbled text layers', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let ports: Awaited<ReturnType<typeof createPorts>>;
  let group: ReturnType<typeof startWorkers> | undefined;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { WORKER_CONCURRENCY: '1' });
    ports = await createPorts(ws.config);
    group = startWorkers([extractWorker], ports, createLogger('silent'));
  });
  afterAll(async () => {
    await group?.close(1000);
    await ports?.close();
    await redis?.cleanup();
    ws?.cleanup();
  });

  async function ingest(docId: string, bytes: Uint8Array): Promise<string> {
    const version = await putSource(ports.artifacts, docId, bytes);
    const { gen } = await ports.status.register({ docId, sourceKey: `dir:${docId}.pdf`, version });
    await ports.queues.enqueue(extractQueue, { docId, version, gen });
    return version;
  }

  const stageOf = async (docId: string): Promise<string | undefined> => {
    const s = await ports.status.get(docId);
    return s?.state === 'failed' ? `failed ${s.errorCode}` : s?.stage;
  };

  it('fails a document whose text layer is nearly all garbage as GARBLED_TEXT', async () => {
    await ingest('garbled', remappedFontPdf([PAGE, PAGE, PAGE], scramble));
    await expect.poll(() => stageOf('garbled'), { timeout: 30_000, interval: 100 }).toBe('failed GARBLED_TEXT');
    expect((await ports.status.get('garbled'))?.errorMessage).toMatch(/garbled pages: 1-3/u);
  }, 40_000);

  it('extracts a document with one garbled page of four, warning about that page; a new version clears it', async () => {
    const version = await ingest('one-bad-page', remappedFontPdf([PAGE, PAGE, PAGE, PAGE], scramble, (p) => p === 1));
    await expect.poll(() => stageOf('one-bad-page'), { timeout: 30_000, interval: 100 }).toBe('sectionize');
    const status = await ports.status.get('one-bad-page');
    expect(status).toMatchObject({ version, errorCode: null, pageCount: 4, warnings: [{ code: 'GARBLED_TEXT', pages: [2] }] });
    expect(status?.warnings?.[0]?.message).toMatch(/page 2 decodes to garbage/u);

    await ingest('one-bad-page', remappedFontPdf([PAGE, [...PAGE, 'Second edition.']], scramble, () => false));
    await expect.poll(() => stageOf('one-bad-page'), { timeout: 30_000, interval: 100 }).toBe('sectionize');
    expect((await ports.status.get('one-bad-page'))?.warnings).toBeUndefined();
  }, 70_000);
});
