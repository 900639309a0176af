/**
 * The web app on a 390 px phone screen: no page scrolls sideways, failures are red, a query key is
 * offered only what it may do, and a citation whose quote runs over two pages can be paged and
 * zoomed, with exactly the quoted lines highlighted on each page.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { colourOf, dropFiles, HAVE_CHROMIUM, horizontalOverflow, launchChromium, screenshotDir } from '../helpers/browser.ts';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

if (!REDIS_AVAILABLE) console.warn('web app phone tests skipped: redis-server is not installed');

const SHOTS = screenshotDir();
const ADMIN = 'admin-key';
const QUERY = 'query-key';
const PHONE = { width: 390, height: 844 };
/** style.css: --danger and --ok. */
const RED = 'rgb(196, 50, 47)';
const GREEN = 'rgb(23, 108, 58)';

/** textPdf's layout (its defaults): the first baseline, the distance between baselines, the page height, in points. */
const TOP = 770;
const PITCH = 14;
const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
/** A line of the cited section printed again, word for word, in a note above the section. */
const REPEATED = 'Record every cleaning in the lens log with the date, the time and the weather.';
/** Uncited lines above the section whose words all occur in the cited passage: a text match highlights them. */
const ECHOES = ['Chamois cloth.', 'Distilled water.'];
/** A sentence of the section printed over the page break: its first line ends page 1, its second starts page 2. */
const STRADDLING = ['During the winter storms the lens is also wiped down after every gale warning,', 'even when this falls outside the usual Tuesday and Friday polishing rounds.'] as const;
/** What that sentence answers: its quote runs over pages 1–2. */
const STRADDLING_QUESTION = 'What is done to the beacon lens after every gale warning during the winter storms?';

/**
 * A manual whose one section starts low on page 1 and runs on over page 2, so its chunk spans
 * pages 1–2, one of its sentences ({@link STRADDLING}) printed over the page break. Above the
 * section, a note repeats one of its lines and lists supplies it names, so only positions tell the
 * cited lines from the others. WinAnsi text only (standard fonts).
 */
const MANUAL_PAGES: string[][] = (() => {
  const care = [
    'The keeper polishes the beacon lens at Harrow Point every Tuesday and Friday',
    'morning, before the light is lit, with a soft chamois cloth and distilled water.',
    'Salt spray leaves a film on the outer prisms within two days of onshore wind,',
    'and a film that thin already halves the range of the light on a clear night.',
    'Never use spirit, vinegar or any abrasive polish on the crown glass prisms,',
    'because the brass frames corrode and the old glass scratches very easily.',
    'Work from the top tier of prisms down, so that drips never reach clean glass.',
    'Record every cleaning in the lens log with the date, the time and the weather.',
    'When the lens has been cleaned, close the curtains on the lantern room windows',
    'so that the morning sun cannot focus through the lens and scorch the burner.',
    'Inspect the lamp mantle at the same visit and replace it if it shows any tear.',
    'A spare mantle, a spare chimney and a spare wick are kept in the oil store.',
    'The oil store key hangs on the hook beside the logbook in the watch room.',
    'If a prism is chipped, report it to the district engineer within one week.',
  ];
  const more = [
    STRADDLING[1],
    'Gloves of clean cotton must be worn whenever the prisms are touched by hand.',
    'The rotation clockwork is wound at dusk and checked again at midnight each night.',
    'Its weights fall the whole height of the tower in roughly four and a half hours.',
    'Oil the clockwork bearings once a month with the light machine oil provided.',
    'A stopped clockwork turns a flashing light into a fixed one, which is a hazard.',
    'Should the clockwork stop, turn the lens by hand until the fault is repaired.',
  ];
  const filler = Array.from({ length: 24 }, (_, i) => `General note ${i + 1}: the station routine is posted in the watch room.`);
  const note = ['From the station orders, repeated for new keepers:', REPEATED, 'Stores kept in the oil store:', ...ECHOES, 'Lamp oil.'];
  return [
    ['Harrow Point Lighthouse Keeping Manual', '', ...filler, '', ...note, '', '1. Beacon Lens Care', '', ...care, STRADDLING[0]],
    [...more, '', '2. Visitors', '', 'Visitors may climb the tower on Sunday afternoons with the keeper.'],
  ];
})();

function spanningManual(): Promise<Uint8Array> {
  return textPdf(MANUAL_PAGES, { title: 'Harrow Point Lighthouse Keeping Manual' });
}

/** The baseline (PDF points) textPdf drew row `row` of a page at. */
const baseline = (row: number) => TOP - row * PITCH;
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

/** Where `text` (one printed line) sits in `body` from `from` on, spacing aside: `[start, end)`, or null. */
function findLine(body: string, text: string, from: number): [number, number] | null {
  const words = text.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const re = new RegExp(words.join('\\s+'), 'g');
  re.lastIndex = from;
  const m = re.exec(body);
  return m ? [m.index, m.index + m[0].length] : null;
}

/**
 * The rows of `pageNumber` the quote (`[from, to)` of the chunk's body) covers, from the layout and
 * the chunk's text (not from the lines the viewer is given): the lines from the section's heading
 * on, found in the body in reading order, whose text overlaps the quote. Without a quote, every
 * line of the chunk on that page.
 */
function citedRows(pageNumber: number, body: string, quote?: { from: number; to: number }): number[] {
  const rows: Array<{ page: number; row: number; at: [number, number] }> = [];
  let cursor = 0;
  MANUAL_PAGES.forEach((lines, p) => {
    const start = p === 0 ? lines.indexOf('1. Beacon Lens Care') : 0;
    lines.forEach((text, row) => {
      if (row < start || text === '') return;
      const at = findLine(body, text, cursor);
      if (!at) return;
      cursor = at[1];
      rows.push({ page: p + 1, row, at });
    });
  });
  return rows.filter((r) => r.page === pageNumber && (!quote || (r.at[0] < quote.to && r.at[1] > quote.from))).map((r) => r.row);
}

/** The viewer's highlight boxes as bands of the page, in PDF points from its bottom (whatever the zoom). */
function highlightBands(page: Page): Promise<Array<{ left: number; low: number; high: number }>> {
  return page.locator('[data-testid=pdf-page]').evaluate(
    (el, size) => {
      const frame = el.getBoundingClientRect();
      const scale = frame.width / size.width;
      return [...el.querySelectorAll('.hl')].map((h) => {
        const r = h.getBoundingClientRect();
        return { left: (r.left - frame.left) / scale, low: size.height - (r.bottom - frame.top) / scale, high: size.height - (r.top - frame.top) / scale };
      });
    },
    { width: PAGE_WIDTH, height: PAGE_HEIGHT },
  );
}

/**
 * The page shown is highlighted on exactly the quoted rows: one box over each quoted baseline,
 * none over any other line (the chunk's unquoted lines, and the repeated line and the echoes above
 * the section above all).
 */
async function expectCitedLinesOnly(page: Page, pageNumber: number, body: string, quote: { from: number; to: number }): Promise<void> {
  const cited = citedRows(pageNumber, body, quote);
  expect(cited.length, `cited lines on page ${pageNumber}`).toBeGreaterThan(0);
  const viewer = page.locator('[data-testid=pdf-page]');
  await expect.poll(() => viewer.getAttribute('data-highlights'), { timeout: 20_000 }).toBe(String(cited.length));
  expect(await viewer.getAttribute('data-highlights-by')).toBe('lines');
  const bands = await highlightBands(page);
  const covering = (row: number) => bands.filter((b) => b.low <= baseline(row) && baseline(row) <= b.high);
  for (const row of cited) {
    expect(covering(row), `one box over "${MANUAL_PAGES[pageNumber - 1]![row]}"`).toHaveLength(1);
    // Boxes start where the lines do (textPdf draws at 72 pt); a pixel of rounding either way.
    expect(Math.abs(covering(row)[0]!.left - 72)).toBeLessThan(1.5);
  }
  MANUAL_PAGES[pageNumber - 1]!.forEach((text, row) => {
    if (!cited.includes(row) && text !== '') expect(covering(row), `no box over uncited "${text}"`).toHaveLength(0);
  });
}

/** The page does not scroll sideways at phone width (the failure names what sticks out). */
async function expectNoSideScroll(page: Page, where: string): Promise<void> {
  const { overflow, culprits } = await horizontalOverflow(page);
  expect(overflow, `${where} scrolls sideways by ${overflow}px: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
}

/** Opens a fresh tab of its own (its own session key) at phone size, signed in with `key`. */
async function signedIn(browser: Browser, base: string, key: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.fill('input[name=key]', key);
  await page.click('.key-form button[type=submit]');
  await page.waitForSelector('textarea[name=query]');
  return { context, page };
}

describe.skipIf(!HAVE_CHROMIUM || !REDIS_AVAILABLE)('web app on a 390 px phone: layout, colours, roles, multi-page citations', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let base: string;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: QUERY, QUARRY_ADMIN_KEYS: ADMIN, FACET_REBUILD_DEBOUNCE_MS: '200' });
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    browser = await launchChromium();
    admin = await signedIn(browser, base, ADMIN);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('documents: uploads report success in green and failure in red; Retry only where a retry can run; nothing off-screen', async () => {
    const { page } = admin;
    await page.goto(`${base}/#/documents`);
    await page.waitForSelector('[data-testid=dropzone]');
    await expectNoSideScroll(page, 'the empty documents page');
    const manual = Buffer.from(await spanningManual());
    await dropFiles(page, '[data-testid=dropzone]', [
      { name: 'lighthouse-manual.pdf', bytes: manual },
      { name: 'notes.pdf', bytes: Buffer.from('these are notes, not a PDF\n') },
      { name: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\nthis is not a PDF body\n') },
    ]);
    // The upload refuses the non-PDF with the watched folder's own code, in red; a success is green.
    await page.locator('.notice', { hasText: 'Uploaded broken.pdf' }).waitFor();
    const refused = page.locator('.notice', { hasText: 'notes.pdf' });
    expect(await refused.textContent()).toMatch(/NOT_A_PDF: notes\.pdf is not a PDF/);
    expect(await colourOf(page, '.notice:has-text("notes.pdf")')).toBe(RED);
    expect(await colourOf(page, '.notice:has-text("Uploaded lighthouse-manual.pdf")')).toBe(GREEN);
    // The same bytes dropped straight into the watched folder fail with the same code.
    await writeFile(path.join(ws.config.watchDir, 'dropped-notes.pdf'), 'these are notes, not a PDF\n');

    await page.waitForSelector('tr[data-doc="lighthouse-manual.pdf"][data-state=indexed]', { timeout: 60_000 });
    const corrupt = page.locator('tr[data-doc="broken.pdf"][data-state=failed]');
    await corrupt.waitFor({ timeout: 30_000 });
    const dropped = page.locator('tr[data-doc="dropped-notes.pdf"][data-state=failed]');
    await dropped.waitFor({ timeout: 30_000 });
    expect(await dropped.locator('.error').textContent()).toMatch(/^NOT_A_PDF: /);
    expect(await colourOf(page, 'tr[data-state=failed] .error')).toBe(RED);
    // A stored source can run again; a file refused before it was stored cannot (the API would answer 409).
    expect(await corrupt.locator('button', { hasText: 'Retry' }).count()).toBe(1);
    expect(await dropped.locator('button', { hasText: 'Retry' }).count()).toBe(0);
    expect(await dropped.locator('button', { hasText: 'Delete' }).count()).toBe(1);

    await expectNoSideScroll(page, 'the documents page');
    for (const button of await page.locator('tr[data-doc] button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width, `${await button.textContent()} is on screen`).toBeLessThanOrEqual(PHONE.width);
    }
    await page.screenshot({ path: path.join(SHOTS, 'phone-documents.png'), fullPage: true });
  }, 120_000);

  it('ask: a quote over pages 1–2 opens on page 1 with only its lines lit, pages on to page 2 and back, zooms inside the viewer', async () => {
    const { page } = admin;
    await page.goto(`${base}/#/ask`);
    await page.fill('textarea[name=query]', STRADDLING_QUESTION);
    await page.click('.ask-form button[type=submit]');
    await page.waitForSelector('[data-testid=answer][data-done=true]', { timeout: 30_000 });
    await expectNoSideScroll(page, 'the ask page with an answer');
    // The answer quotes the sentence printed over the page break: its citation's pages are 1–2.
    expect(oneLine((await page.textContent('[data-testid=answer-text]')) ?? '')).toContain(`${STRADDLING[0]} ${STRADDLING[1]}`);
    const chip = page.locator('[data-testid=citations] .chip', { hasText: 'pp. 1–2' }).first();
    expect(await chip.textContent()).toMatch(/Beacon Lens Care/);
    const linesAsked = page.waitForRequest((r) => /\/v1\/chunks\/[^/]+\/lines$/.test(new URL(r.url()).pathname));
    await chip.click();
    // The viewer asks for the quoted lines only: the citation's quote, as from/to.
    const asked = new URL((await linesAsked).url());
    const chunkId = asked.pathname.split('/')[3]!;
    const quote = { from: Number(asked.searchParams.get('from')), to: Number(asked.searchParams.get('to')) };
    const runId = decodeURIComponent((await page.getAttribute('text=Trace of this run', 'href'))!.split('/').pop()!);
    const run = (await (await fetch(`${base}/v1/runs/${encodeURIComponent(runId)}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as {
      answer: { citations: Array<{ chunkId: string; quote?: { start: number; end: number } }> };
    };
    expect(run.answer.citations.find((c) => c.chunkId === chunkId)?.quote).toEqual({ start: quote.from, end: quote.to });
    // The cited chunk's text, read apart from the viewer: what says which printed lines it holds.
    const { body } = (await (await fetch(`${base}/v1/chunks/${chunkId}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as { body: string };
    expect(oneLine(body.slice(quote.from, quote.to))).toContain(`${STRADDLING[0]} ${STRADDLING[1]}`);
    expect(oneLine(body)).toContain(REPEATED);
    // The note above the section is another chunk's: its copy of the line and its echoes are not cited.
    expect(body).not.toContain('From the station orders');
    // What made text matching highlight them: letters and digits alone, each echo is in the passage.
    const squash = (t: string) => t.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');
    for (const echo of ECHOES) expect(squash(body)).toContain(squash(echo));
    // The quote is less than the chunk: on page 2 at least, lines of the chunk stay unlit.
    expect(citedRows(2, body, quote).length).toBeLessThan(citedRows(2, body).length);

    const viewer = page.locator('[data-testid=pdf-page]');
    await expectCitedLinesOnly(page, 1, body, quote);
    expect(await viewer.getAttribute('data-page')).toBe('1');
    expect(await page.textContent('[data-testid=page-label]')).toMatch(/page 1 \(pp\. 1–2\)/);
    expect(await page.isDisabled('button[aria-label="Previous page"]')).toBe(true);
    await expectNoSideScroll(page, 'the citation viewer');

    await page.click('button[aria-label="Next page"]');
    await expect.poll(() => viewer.getAttribute('data-page')).toBe('2');
    // The quote goes on at the top of page 2: highlighted there too, line by line.
    await expectCitedLinesOnly(page, 2, body, quote);
    expect(await page.isDisabled('button[aria-label="Next page"]')).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'phone-citation.png') });

    const widthAt = async () => (await page.locator('[data-testid=pdf-page] canvas').boundingBox())!.width;
    const fitted = await widthAt();
    await page.click('button[aria-label="Zoom in"]');
    await page.click('button[aria-label="Zoom in"]');
    await expect.poll(() => viewer.getAttribute('data-zoom')).toBe('1.5');
    // The boxes are placed again for the new scale: still over the same lines.
    await expectCitedLinesOnly(page, 2, body, quote);
    expect(await widthAt()).toBeGreaterThan(fitted * 1.4);
    // Zoomed past the screen's width, the page scrolls inside the viewer, not the screen.
    await expectNoSideScroll(page, 'the zoomed citation viewer');
    await page.click('button[aria-label="Zoom out"]');
    await expect.poll(() => viewer.getAttribute('data-zoom')).toBe('1.25');
    await page.click('button[aria-label="Previous page"]');
    await expect.poll(() => viewer.getAttribute('data-page')).toBe('1');
    await expectCitedLinesOnly(page, 1, body, quote);
    await page.click('.viewer button.link');
  }, 60_000);

  it('trace and search fit the screen', async () => {
    const { page } = admin;
    await page.click('text=Trace of this run');
    await page.waitForSelector('[data-testid=trace]');
    // The rerank step's table stays inside its card (it scrolls there if it must).
    await expectNoSideScroll(page, 'the trace page');
    const tables = await page.locator('.trace-steps li.card').evaluateAll((cards) =>
      cards.flatMap((card) => [...card.querySelectorAll('table')].map((t) => ({ shown: t.parentElement!.getBoundingClientRect().right, card: card.getBoundingClientRect().right }))),
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const t of tables) expect(t.shown).toBeLessThanOrEqual(t.card);
    await page.screenshot({ path: path.join(SHOTS, 'phone-trace.png') });

    await page.goto(`${base}/#/search`);
    await page.fill('input[name=query]', 'beacon lens polishing');
    await page.click('.search button[type=submit]');
    await expect.poll(() => page.textContent('[data-testid=hits] li')).toMatch(/Harrow Point/);
    await expectNoSideScroll(page, 'the search page');
    await page.screenshot({ path: path.join(SHOTS, 'phone-search.png') });
  }, 30_000);

  it('a query key sees no upload, Retry, Delete or traces; the pages still fit', async () => {
    const query = await signedIn(browser, base, QUERY);
    const { page } = query;
    try {
      await expect.poll(() => page.locator('nav a').allTextContents()).toEqual(['Ask', 'Search', 'Documents']);
      await page.goto(`${base}/#/documents`);
      await page.waitForSelector('tr[data-doc="broken.pdf"][data-state=failed]');
      expect(await page.locator('[data-testid=dropzone]').count()).toBe(0);
      expect(await page.locator('tr[data-doc] button').count()).toBe(0);
      await expectNoSideScroll(page, 'the documents page of a query key');

      await page.goto(`${base}/#/ask`);
      await page.fill('textarea[name=query]', 'How often is the beacon lens at Harrow Point polished?');
      await page.click('.ask-form button[type=submit]');
      await page.waitForSelector('[data-testid=answer][data-done=true]', { timeout: 30_000 });
      expect(await page.getByRole('button', { name: 'Helpful', exact: true }).count()).toBe(1);
      expect(await page.locator('text=Trace of this run').count()).toBe(0);
      await expectNoSideScroll(page, 'the ask page of a query key');
      await page.screenshot({ path: path.join(SHOTS, 'phone.png') });
    } finally {
      await query.context.close();
    }
  }, 60_000);
});
