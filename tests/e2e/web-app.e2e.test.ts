import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { dropFiles, HAVE_CHROMIUM, launchChromium, screenshotDir } from '../helpers/browser.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

if (!REDIS_AVAILABLE) console.warn('web app browser tests skipped: redis-server is not installed');

const root = path.resolve(import.meta.dirname, '../..');
const SHOTS = screenshotDir();
const UPLOADS = ['parental-leave-policy-2025.pdf', 'ko-birth-incentive-guideline.pdf'];
const ADMIN = 'admin-key';

describe.skipIf(!HAVE_CHROMIUM || !REDIS_AVAILABLE)('web app in Chromium: upload, ask, cite, feedback, trace, keys', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'query-key', QUARRY_ADMIN_KEYS: ADMIN, FACET_REBUILD_DEBOUNCE_MS: '200' });
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('a wrong key shows a clear message; the right one opens the app', async () => {
    await page.goto(`${base}/`);
    // The app and pdf.js are static and keyless; the API behind them is not.
    expect((await fetch(`${base}/vendor/pdfjs/cmaps/UniKS-UCS2-H.bcmap`)).status).toBe(200);
    expect((await fetch(`${base}/vendor/pdfjs/package.json`)).status).toBe(404);
    expect((await fetch(`${base}/v1/documents`)).status).toBe(401);
    await page.fill('input[name=key]', 'not-a-key');
    await page.click('.key-form button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=key-error]')).toMatch(/refused.*unknown API key/i);
    await page.screenshot({ path: path.join(SHOTS, 'key.png') });
    await page.fill('input[name=key]', ADMIN);
    await page.click('.key-form button[type=submit]');
    await page.waitForSelector('textarea[name=query]');
  });

  it('uploads PDFs by drag-and-drop: two become indexed, a broken one fails with its code and is deleted; queue counts', async () => {
    await page.goto(`${base}/#/documents`);
    await page.waitForSelector('[data-testid=dropzone]');
    const broken = { name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\nthis is not a PDF body\n') };
    await dropFiles(page, '[data-testid=dropzone]', [...UPLOADS.map((name) => ({ name, bytes: readFileSync(path.join(root, 'examples/docs', name)) })), broken]);
    for (const name of UPLOADS) await page.waitForSelector(`tr[data-doc="${name}"][data-state=indexed]`, { timeout: 60_000 });
    // A failure shows its code and message, with retry and delete.
    const failed = page.locator('tr[data-doc="broken.pdf"][data-state=failed]');
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.textContent()).toMatch(/CORRUPT_PDF: \S/);
    expect(await failed.locator('button', { hasText: 'Retry' }).count()).toBe(1);
    await expect.poll(() => page.locator('[data-testid=queues] tbody tr').count()).toBeGreaterThan(5);
    await page.screenshot({ path: path.join(SHOTS, 'documents.png') });
    page.once('dialog', (d) => void d.accept());
    await failed.locator('button', { hasText: 'Delete' }).click();
    await page.locator('tr[data-doc="broken.pdf"]').waitFor({ state: 'detached', timeout: 20_000 });
    // The PDF the viewer shows is served under the caller's key, and only with one.
    const docId = await page.getAttribute(`tr[data-doc="${UPLOADS[0]}"]`, 'data-doc-id');
    expect((await fetch(`${base}/v1/documents/${docId}/pdf`)).status).toBe(401);
    const pdf = await fetch(`${base}/v1/documents/${docId}/pdf`, { headers: { authorization: 'Bearer query-key' } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 70_000);

  it('asks, streams the answer with citations, opens the cited page highlighted, sends feedback', async () => {
    await page.goto(`${base}/#/ask`);
    await page.fill('textarea[name=query]', 'How many weeks of paid parental leave do employees get?');
    // Records what the page shows, in order, as the stream arrives.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const note = (what: string) => seen[seen.length - 1] !== what && seen.push(what);
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=steps] li')) note(`steps:${document.querySelectorAll('[data-testid=steps] li').length}`);
        if (document.querySelector('.answer-text')?.textContent) note('text');
        if (document.querySelector('[data-testid=answer][data-done=true]')) note('done');
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await page.click('.ask-form button[type=submit]');
    await page.waitForSelector('[data-testid=answer][data-done=true]', { timeout: 90_000 });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    // Node progress shows first, then the text, then the final record. (Events that arrive in
    // one network read render together, so how many nodes show at a time is not asserted.)
    expect(seen[0]).toMatch(/^steps:\d+$/);
    expect(await page.locator('[data-testid=steps] li').count()).toBeGreaterThanOrEqual(5);
    expect(seen.indexOf('text')).toBeGreaterThan(0);
    expect(seen.indexOf('done')).toBeGreaterThan(seen.indexOf('text'));
    expect(await page.textContent('[data-testid=steps]')).toMatch(/listener.*planner.*candidate_search/);
    expect(await page.textContent('.answer-text')).toMatch(/sixteen \(16\) weeks/);
    const chip = page.locator('[data-testid=citations] .chip').first();
    expect(await chip.textContent()).toMatch(/Leave Entitlement/);
    await page.screenshot({ path: path.join(SHOTS, 'ask.png') });

    await chip.click();
    const viewer = page.locator('[data-testid=pdf-page]');
    await expect.poll(() => viewer.getAttribute('data-highlights'), { timeout: 60_000 }).toMatch(/^[1-9]\d*$/);
    // The canvas holds the rendered page, not a blank box.
    const inked = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('[data-testid=pdf-page] canvas')!;
      const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! < 128) dark++;
      return dark;
    });
    expect(inked).toBeGreaterThan(100);
    await page.screenshot({ path: path.join(SHOTS, 'citation.png') });
    await page.click('.viewer button.link');

    await page.getByRole('button', { name: 'Helpful', exact: true }).click();
    await expect.poll(() => page.textContent('[data-testid=feedback]')).toMatch(/Thanks/);
  }, 180_000);

  it('opens the trace of the run: nodes with timings and the verdict', async () => {
    await page.click('text=Trace of this run');
    await page.waitForSelector('[data-testid=trace]');
    const text = (await page.textContent('[data-testid=trace]')) ?? '';
    for (const node of ['listener', 'planner', 'candidate_search', 'validator', 'answerer']) expect(text).toContain(node);
    expect(text).toMatch(/Verdict/);
    await page.screenshot({ path: path.join(SHOTS, 'trace.png'), fullPage: false });
  });

  it('searches with alpha and a language facet; hits show their score terms', async () => {
    await page.goto(`${base}/#/search`);
    const results = () => page.locator('.page.search').textContent();
    await page.fill('input[name=query]', 'paid parental leave weeks');
    await page.click('.search button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=hits] li')).toMatch(/Parental Leave Policy/);
    expect(await page.textContent('[data-testid=hits] li')).toMatch(/keyword \d\.\d{3}.*vector \d\.\d{3}/);
    // The language facet filters: under lang=ko the English policy is gone.
    await page.fill('input[name=lang]', 'ko');
    await page.click('.search button[type=submit]');
    await expect.poll(results).not.toMatch(/Parental Leave Policy/);
    await page.fill('input[name=query]', '출산 장려금');
    await page.click('.search button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=hits] li')).toMatch(/출산/);
    await page.screenshot({ path: path.join(SHOTS, 'search.png') });
    // Phone-sized screens are web-phone.e2e.test.ts's (phone*.png).
  });
});
