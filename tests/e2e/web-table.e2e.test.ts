/**
 * A figure answered from a table, in Chromium: the answer's sentence first, then the cited table
 * drawn as an HTML table (not its Markdown) with the cited cell marked, the cell's box highlighted
 * on the PDF page, and at 390 px a wide table scrolling inside its own box, never the page.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { buildPdf, type PageSpec, type TextRun } from '../fixtures/pdf-builders.ts';
import { COLUMN_EDGES, helvetica, pageOf, proseRuns, tableRuns, type FixtureTable } from '../fixtures/table-pdf.ts';
import { dropFiles, HAVE_CHROMIUM, horizontalOverflow, launchChromium, screenshotDir } from '../helpers/browser.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

if (!REDIS_AVAILABLE) console.warn('web app table tests skipped: redis-server is not installed');

const SHOTS = screenshotDir();
const ADMIN = 'admin-key';
const PHONE = { width: 390, height: 844 };
const QUESTION = 'What was total net sales for the three months ended July 1, 2023?';
/** The column the question's period names, as the table's header reads once its lines are joined. */
const ASKED_COLUMN = 'Three Months Ended July 1, 2023';

/** A quarterly statement of operations (tests/unit/tables.test.ts's), four period columns wide. */
const OPERATIONS: FixtureTable = {
  title: 'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
  caption: '(In millions, except per-share amounts)',
  header: [
    [['Three Months Ended', 0, 1], ['Nine Months Ended', 2, 3]],
    [['July 1,', 0, 0], ['June 25,', 1, 1], ['July 1,', 2, 2], ['June 25,', 3, 3]],
    [['2023', 0, 0], ['2022', 1, 1], ['2023', 2, 2], ['2022', 3, 3]],
  ],
  rows: [
    { label: 'Net sales:' },
    { label: 'Products', indent: 8, figures: ['60,584', '63,355', '230,901', '245,241'], dollar: true },
    { label: 'Services', indent: 8, figures: ['21,213', '19,604', '62,886', '58,941'] },
    { label: 'Total net sales', indent: 16, figures: ['81,797', '82,959', '293,787', '304,182'] },
    { label: 'Operating expenses:' },
    { label: 'Research and development', indent: 8, figures: ['7,442', '6,797', '22,608', '19,490'] },
    { label: 'Total operating expenses', indent: 16, figures: ['13,415', '12,809', '41,389', '38,144'] },
    { label: 'Operating income', figures: ['22,998', '23,076', '87,332', '94,543'] },
    { label: 'Net income', figures: ['19,881', '19,442', '74,039', '79,082'], dollar: true },
  ],
};

/** The report's one page: a cover, the statement, a discussion (prose the question's words also occur in). */
async function reportPage(): Promise<PageSpec> {
  const font = await helvetica();
  return pageOf([
    (t) => proseRuns(['Apple Inc.', 'Form 10-Q for the quarterly period ended July 1, 2023'], t, { bold: true }),
    (t) => proseRuns(['1. Financial Statements'], t, { bold: true }),
    (t) => proseRuns(['The statements below are unaudited and were prepared on the usual basis.'], t),
    (t) => tableRuns(font, OPERATIONS, t),
    (t) => proseRuns(['2. Discussion', 'Total net sales decreased slightly compared with the same quarter a year ago.'], t),
  ]);
}

/** The run of the cited figure as the fixture drew it: where its cell's box must be. */
function drawnRun(page: PageSpec, text: string): TextRun {
  const runs = page.runs.filter((r) => r.text === text);
  expect(runs, `"${text}" drawn once`).toHaveLength(1);
  return runs[0]!;
}

/** The page does not scroll sideways (the failure names what sticks out). */
async function expectNoSideScroll(page: Page, where: string): Promise<void> {
  const { overflow, culprits } = await horizontalOverflow(page);
  expect(overflow, `${where} scrolls sideways by ${overflow}px: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
}

/** Asks the question and waits for the answer and for its cited table to be drawn. */
async function askFigure(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/#/ask`);
  await page.fill('textarea[name=query]', QUESTION);
  await page.click('.ask-form button[type=submit]');
  await page.waitForSelector('[data-testid=answer][data-done=true]', { timeout: 90_000 });
  const answer = (await page.textContent('[data-testid=answer-text]')) ?? '';
  // Without an LLM the figure is read from the table's cell: one sentence, citing it.
  expect(answer, 'a figure sentence (see shared/agent/figure-answer.ts when not)').toMatch(/total net sales for the three months ended July 1, 2023 were \$81,797 million \[1\]\./i);
  await page.waitForSelector('[data-testid=citations] [data-testid=cited-table] table', { timeout: 10_000 });
}

/** Opens a tab of its own at `viewport`, signed in. */
async function signedIn(browser: Browser, base: string, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.fill('input[name=key]', ADMIN);
  await page.click('.key-form button[type=submit]');
  await page.waitForSelector('textarea[name=query]');
  return { context, page };
}

describe.skipIf(!HAVE_CHROMIUM || !REDIS_AVAILABLE)('web app in Chromium: a figure answered from a cited table', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let browser: Browser;
  let desk: { context: BrowserContext; page: Page };
  let base: string;
  let report: PageSpec;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_ADMIN_KEYS: ADMIN, FACET_REBUILD_DEBOUNCE_MS: '200' });
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    browser = await launchChromium();
    desk = await signedIn(browser, base, { width: 1280, height: 900 });
    report = await reportPage();
    const { page } = desk;
    await page.goto(`${base}/#/documents`);
    await page.waitForSelector('[data-testid=dropzone]');
    await dropFiles(page, '[data-testid=dropzone]', [{ name: 'apple-10q-q3-2023.pdf', bytes: Buffer.from(await buildPdf({ pages: [report], title: 'Apple Inc. Form 10-Q' })) }]);
    await page.waitForSelector('tr[data-doc="apple-10q-q3-2023.pdf"][data-state=indexed]', { timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('shows the answer sentence above the passages, the cited table as a table with the cited cell marked', async () => {
    const { page } = desk;
    await askFigure(page, base);
    // The sentence comes first, above every cited passage.
    const sentence = (await page.locator('[data-testid=answer-text]').boundingBox())!;
    const first = (await page.locator('[data-testid=citations] li.passage').first().boundingBox())!;
    expect(sentence.y + sentence.height).toBeLessThanOrEqual(first.y);
    expect(await page.locator('[data-testid=answer] > *').first().getAttribute('data-testid')).toBe('answer-text');

    const table = page.locator('[data-testid=cited-table]').first();
    // Drawn from the data: header cells per column, one row per table row, no Markdown left.
    expect(await table.locator('thead th').allTextContents()).toEqual(['Row', ASKED_COLUMN, 'Three Months Ended June 25, 2022', 'Nine Months Ended July 1, 2023', 'Nine Months Ended June 25, 2022']);
    expect(await table.locator('tbody th').allTextContents()).toEqual(OPERATIONS.rows.map((r) => r.label));
    const text = (await page.textContent('[data-testid=citations]')) ?? '';
    expect(text).not.toMatch(/\||---:/);
    expect(await table.locator('figcaption').textContent()).toMatch(/STATEMENTS OF OPERATIONS.*In millions/);
    // Labels indented by level: a total sits further in than its group's heading.
    const indent = (label: string) => table.locator('tbody th', { hasText: new RegExp(`^${label}$`) }).evaluate((e) => parseFloat(getComputedStyle(e).paddingLeft));
    expect(await indent('Total net sales')).toBeGreaterThan(await indent('Products'));
    expect(await indent('Products')).toBeGreaterThan(await indent('Net sales:'));

    // Exactly one cell marked: the figure of the asked row and period, right-aligned.
    const cited = table.locator('td[data-cited=true]');
    expect(await cited.count()).toBe(1);
    expect(await cited.textContent()).toBe('81,797');
    const where = await cited.evaluate((td) => {
      const row = td.closest('tr')!;
      const k = [...row.children].indexOf(td);
      const header = td.closest('table')!.querySelectorAll('thead th')[k]!;
      return { label: row.querySelector('th')!.textContent, column: header.textContent, align: getComputedStyle(td).textAlign, background: getComputedStyle(td).backgroundColor };
    });
    expect(where).toMatchObject({ label: 'Total net sales', column: ASKED_COLUMN, align: 'right' });
    const plain = await table.locator('tbody tr', { hasText: 'Services' }).locator('td').first().evaluate((td) => getComputedStyle(td).backgroundColor);
    expect(where.background).not.toBe(plain);
    await expectNoSideScroll(page, 'the ask page with a cited table');
    await page.screenshot({ path: path.join(SHOTS, 'ask-table.png'), fullPage: true });
  }, 150_000);

  it('opens the cited page with the cited cell’s box highlighted, where the figure was printed', async () => {
    const { page } = desk;
    await page.locator('[data-testid=citations] li.passage', { has: page.locator('[data-testid=cited-table]') }).first().locator('.chip').click();
    const viewer = page.locator('[data-testid=pdf-page]');
    await expect.poll(() => viewer.getAttribute('data-highlights'), { timeout: 20_000 }).toBe('1');
    expect(await viewer.getAttribute('data-highlights-by')).toBe('cell');
    // The box, in PDF points from the page's bottom-left, against where the fixture drew "81,797".
    const run = drawnRun(report, '81,797');
    const band = await viewer.evaluate(
      (el, size) => {
        const frame = el.getBoundingClientRect();
        const r = el.querySelector('.hl')!.getBoundingClientRect();
        const scale = frame.width / size.width;
        return { left: (r.left - frame.left) / scale, right: (r.right - frame.left) / scale, low: size.height - (r.bottom - frame.top) / scale, high: size.height - (r.top - frame.top) / scale };
      },
      { width: report.width!, height: report.height! },
    );
    expect(Math.abs(band.left - run.x)).toBeLessThan(1.5);
    // The figure ends on its column's right edge.
    expect(Math.abs(band.right - COLUMN_EDGES[0]!)).toBeLessThan(1.5);
    expect(band.low).toBeLessThan(run.y);
    expect(band.high).toBeGreaterThan(run.y);
    // Only that row: the rows above and below are a line pitch (12 pt) away.
    expect(band.high - band.low).toBeLessThan(12);
    await page.screenshot({ path: path.join(SHOTS, 'citation-table.png') });
    await page.click('.viewer button.link');
  }, 40_000);

  it('at 390 px the wide table scrolls inside its own box; the page does not scroll sideways', async () => {
    const phone = await signedIn(browser, base, PHONE);
    const { page } = phone;
    try {
      await askFigure(page, base);
      await expectNoSideScroll(page, 'the ask page with a cited table at 390 px');
      const scroller = page.locator('[data-testid=cited-table] [data-testid=table-scroll]').first();
      const sizes = await scroller.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, right: e.getBoundingClientRect().right }));
      // Four period columns do not fit a phone: the table is wider than its box, which scrolls.
      expect(sizes.scroll).toBeGreaterThan(sizes.client);
      expect(sizes.right).toBeLessThanOrEqual(PHONE.width);
      expect(await scroller.evaluate((e) => getComputedStyle(e).overflowX)).toBe('auto');
      await scroller.evaluate((e) => e.scrollBy({ left: 10_000 }));
      expect(await scroller.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
      await expectNoSideScroll(page, 'the ask page with its table scrolled');
      await scroller.evaluate((e) => e.scrollTo({ left: 0 }));
      await page.screenshot({ path: path.join(SHOTS, 'phone-ask-table.png'), fullPage: true });
    } finally {
      await phone.context.close();
    }
  }, 150_000);
});
