import type { Page } from '../domain/index.ts';

/** When a repeated line counts as a running header, footer or margin note. */
export interface RunningLineOptions {
  /** Documents with fewer text pages are left alone. @defaultValue 3 */
  minPages: number;
  /** Share of text pages on which a line repeats to count as running anywhere. @defaultValue 0.5 */
  minShare: number;
  /** Occurrences needed in one run of nearby pages, for lines with a changing page number. @defaultValue 3 */
  minRun: number;
  /** Share of text pages a run without a changing number must span (alternate-page stamps). @defaultValue 0.25 */
  minRunShare: number;
  /** Largest page step inside a run: left/right-page heads alternate, chapter openings skip a pair. @defaultValue 4 */
  maxStep: number;
  /** Lines examined at the top and at the bottom of each page. @defaultValue 4 */
  bandLines: number;
  /** Share of the page width at either side that counts as margin (rotated margin notes). @defaultValue 0.06 */
  sideBand: number;
  /** Most texts reported in `strippedLines`. @defaultValue 50 */
  maxReported: number;
}

const DEFAULTS: RunningLineOptions = { minPages: 3, minShare: 0.5, minRun: 3, minRunShare: 0.25, maxStep: 4, bandLines: 4, sideBand: 0.06, maxReported: 50 };

// A number standing on its own ("[Page 12]", "- 3 -", "xvi") or with the word for page after it
// ("12쪽", "12페이지", "12頁", "12ページ"), not one inside a word ("제12조", "12개월").
const LONE_NUMBER = /(?<![\p{L}\p{N}])(?:\d+|[ivxlc]+)(?=쪽|페이지|頁|ページ|[^\p{L}\p{N}]|$)/giu;

/**
 * The comparison key of a candidate line: lone page numbers (arabic or roman) become `#`, and
 * one at either end is dropped so "18 FREE CULTURE" and "FREE CULTURE 19" share a key.
 */
export function runningLineKey(text: string): string {
  const folded = text.toLowerCase().replace(LONE_NUMBER, '#').replace(/\s+/g, ' ').trim();
  const trimmed = folded.replace(/^#\s+/, '').replace(/\s+#$/, '');
  return trimmed || folded;
}

/** The lone numbers of a line, joined: a page number changes from page to page. */
function numbersOf(text: string): string {
  return (text.match(LONE_NUMBER) ?? []).join(' ').toLowerCase();
}

interface Occurrence {
  page: number;
  line: number;
  y: number;
  fontSize: number;
  numbers: string;
}

/** Most frequent baseline of a key's occurrences (2 pt bins). */
function modalY(occ: readonly Occurrence[]): number {
  const bins = new Map<number, number>();
  let best = 0;
  let count = -1;
  for (const o of occ) {
    const bin = Math.round(o.y / 2);
    const n = (bins.get(bin) ?? 0) + 1;
    bins.set(bin, n);
    if (n > count) [best, count] = [bin, n];
  }
  return best * 2;
}

/**
 * Occurrences in runs of nearby pages (steps of at most `maxStep`, so left/right-page heads
 * count) that look like running lines: at least `minRun` long with a changing number (a book's
 * per-chapter head "“PIRACY” 19", "“PIRACY” 21"), or, without one, at least `longRun` long.
 * A short run with a fixed text is as likely body (a code line opening a few pages).
 */
function inRuns(occ: readonly Occurrence[], opts: RunningLineOptions, longRun: number): Occurrence[] {
  const sorted = [...occ].sort((a, b) => a.page - b.page);
  const out: Occurrence[] = [];
  let run: Occurrence[] = [];
  const flush = (): void => {
    const ticking = new Set(run.map((o) => o.numbers)).size > 1;
    if (run.length >= (ticking ? opts.minRun : longRun)) out.push(...run);
    run = [];
  };
  for (const o of sorted) {
    const last = run[run.length - 1];
    if (last && o.page - last.page > opts.maxStep) flush();
    run.push(o);
  }
  flush();
  return out;
}

/**
 * Occurrences that are their page's top-most or bottom-most line, when they are so on at least
 * `widespread` pages with a changing number: a page head or foot that follows the text instead of
 * a fixed height ("Apple Inc. | Q3 2023 Form 10-Q | 14" right under the last line of each page of
 * a filing printed from HTML). Otherwise none.
 */
function edgeRun(occ: readonly Occurrence[], outer: readonly Set<number>[], widespread: number): Occurrence[] {
  const edge = occ.filter((o) => outer[o.page]?.has(o.line));
  return edge.length >= widespread && new Set(edge.map((o) => o.numbers)).size > 1 ? edge : [];
}

const ROMAN: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** Value of a lone number as numbersOf keeps it: arabic, or a lower-case roman numeral. */
function numberValue(token: string): number {
  if (/^\d+$/u.test(token)) return Number(token);
  let total = 0;
  for (let i = 0; i < token.length; i++) {
    const v = ROMAN[token[i] ?? ''] ?? 0;
    total += v < (ROMAN[token[i + 1] ?? ''] ?? 0) ? -v : v;
  }
  return total;
}

/** Share of the changes between consecutive occurrences that must step forward with the pages. */
const FOLLOWING_SHARE = 0.8;

/**
 * Whether the changing numbers of a repeated line follow the pages, as page numbers do: from
 * one occurrence to the next (in page order) wherever they change, the first number that
 * differs grows, by no more than two a page ("12" → "13", "2-9" → "3-1", a spread's "24 25" → "26 27",
 * "Page 3 of 40" → "Page 4 of 40"). A line whose numbers never change is left to the other tests.
 */
function followsPages(occ: readonly Occurrence[]): boolean {
  const sorted = [...occ].sort((a, b) => a.page - b.page);
  let changes = 0;
  let forward = 0;
  for (let k = 1; k < sorted.length; k++) {
    const prev = (sorted[k - 1] as Occurrence).numbers.split(' ').filter(Boolean).map(numberValue);
    const cur = (sorted[k] as Occurrence).numbers.split(' ').filter(Boolean).map(numberValue);
    const at = Array.from({ length: Math.max(prev.length, cur.length) }, (_, i) => i).find((i) => prev[i] !== cur[i]);
    if (at === undefined) continue;
    changes++;
    const step = (cur[at] ?? 0) - (prev[at] ?? 0);
    // Two printed pages to a sheet (a scanned spread) step by two.
    if (step >= 1 && step <= 2 * ((sorted[k] as Occurrence).page - (sorted[k - 1] as Occurrence).page)) forward++;
  }
  return forward >= FOLLOWING_SHARE * changes;
}

/** Indexes of the top-most and the bottom-most line of a page (-1 for a page without lines). */
function edgeLines(page: Page): [number, number] {
  const order = page.lines.map((_, i) => i).sort((a, b) => (page.lines[b]?.y ?? 0) - (page.lines[a]?.y ?? 0));
  return [order[0] ?? -1, order[order.length - 1] ?? -1];
}

/** Indexes of the top-most and bottom-most lines of a page. */
function outermost(page: Page): Set<number> {
  return new Set(edgeLines(page));
}

/** Indexes of the lines of a page that sit where running lines live: top, bottom, side margins. */
function bandOf(page: Page, opts: RunningLineOptions): number[] {
  const order = page.lines.map((_, i) => i).sort((a, b) => (page.lines[b]?.y ?? 0) - (page.lines[a]?.y ?? 0));
  const band = new Set([...order.slice(0, opts.bandLines), ...order.slice(-opts.bandLines)]);
  if (page.width > 0) {
    page.lines.forEach((l, i) => {
      if (l.x < opts.sideBand * page.width || l.x > (1 - opts.sideBand) * page.width) band.add(i);
    });
  }
  return [...band];
}

/**
 * Removes running headers, footers and margin notes: lines near the top, bottom or side of a
 * page whose key (page numbers folded) repeats at the same height on a run of nearby pages.
 * Runs rather than a global share catch per-chapter heads in books; matching height keeps a
 * title that reads like the running header (the Korean statute's "근로기준법") in place.
 */
export function stripRunningLines(
  pages: readonly Page[],
  options: Partial<RunningLineOptions> = {},
): { pages: Page[]; stripped: string[]; strippedChars: number } {
  const opts = { ...DEFAULTS, ...options };
  const unchanged = { pages: pages.map((p) => ({ ...p })), stripped: [], strippedChars: 0 };
  const textPages = pages.filter((p) => p.lines.length > 0).length;
  if (textPages === 2 && opts.minPages > 2) return stripTwoPageLines(pages, opts);
  if (textPages < opts.minPages) return unchanged;
  const widespread = Math.max(opts.minPages, Math.ceil(opts.minShare * textPages));
  const longRun = Math.max(opts.minRun, Math.ceil(opts.minRunShare * textPages));

  const byKey = new Map<string, Occurrence[]>();
  const firstText = new Map<string, string>();
  const outer = pages.map(outermost);
  pages.forEach((page, pageIndex) => {
    // A page's only line is its content, whatever it repeats.
    if (page.lines.length < 2) return;
    const seen = new Set<string>();
    for (const i of bandOf(page, opts)) {
      const line = page.lines[i];
      if (!line) continue;
      const key = runningLineKey(line.text);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const list = byKey.get(key) ?? [];
      list.push({ page: pageIndex, line: i, y: line.y, fontSize: line.fontSize, numbers: numbersOf(line.text) });
      byKey.set(key, list);
      if (!firstText.has(key)) firstText.set(key, line.text);
    }
  });

  const drop = new Map<number, Set<number>>();
  const stripped: string[] = [];
  for (const [key, occ] of byKey) {
    if (occ.length < opts.minRun) continue;
    const y = modalY(occ);
    const aligned = occ.filter((o) => Math.abs(o.y - y) <= Math.max(3, o.fontSize));
    const aligning = aligned.length >= widespread ? aligned : inRuns(aligned, opts, longRun);
    const hits = aligning.length > 0 ? aligning : edgeRun(occ, outer, widespread);
    // Numbers that change without following the pages belong to the text: the last item of
    // several lists ("3. Other matters the director deems necessary") ending pages alike.
    if (hits.length === 0 || !followsPages(hits)) continue;
    // A known running line off its usual height still goes when it is a page's outermost line
    // (the first page of an RFC ends earlier, and so does its footer).
    for (const o of occ) {
      if (!hits.includes(o) && outer[o.page]?.has(o.line)) hits.push(o);
    }
    for (const o of hits) {
      const set = drop.get(o.page) ?? new Set<number>();
      set.add(o.line);
      drop.set(o.page, set);
    }
    if (stripped.length < opts.maxReported) stripped.push(firstText.get(key) ?? key);
  }

  const total = pages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.text.length, 0), 0);
  let removed = 0;
  let strippedChars = 0;
  for (const [pageIndex, set] of drop) {
    for (const i of set) {
      const text = pages[pageIndex]?.lines[i]?.text ?? '';
      removed += text.length;
      strippedChars += text.replace(/\s/gu, '').length;
    }
  }
  // Repetition that covers most of the text is the content itself (a label sheet, a form).
  if (removed * 2 > total) return unchanged;

  const out = pages.map((page, pageIndex) => {
    const gone = drop.get(pageIndex);
    return gone ? { ...page, lines: page.lines.filter((_, i) => !gone.has(i)) } : { ...page };
  });
  return { pages: out, stripped, strippedChars };
}

/** Most words of a line taken for a two-page document's running line: a head or a foot, not a paragraph. */
const TWO_PAGE_MAX_WORDS = 12;

/**
 * A two-page document's running lines (a release, a short FAQ: "Page 1" / "Page 2", the title over
 * each page): too few pages for runs, so only a line that is the very top or the very bottom line
 * of both pages, at the same height and size, with the same text but for a page number that
 * steps forward.
 */
function stripTwoPageLines(pages: readonly Page[], opts: RunningLineOptions): { pages: Page[]; stripped: string[]; strippedChars: number } {
  const out = pages.map((p) => ({ ...p }));
  const [a, b] = pages.flatMap((p, i) => (p.lines.length >= 2 ? [i] : []));
  if (a === undefined || b === undefined) return { pages: out, stripped: [], strippedChars: 0 };
  const drop: [Set<number>, Set<number>] = [new Set(), new Set()];
  const stripped: string[] = [];
  let strippedChars = 0;
  const [ea, eb] = [edgeLines(pages[a] as Page), edgeLines(pages[b] as Page)];
  for (const side of [0, 1] as const) {
    const la = (pages[a] as Page).lines[ea[side]];
    const lb = (pages[b] as Page).lines[eb[side]];
    if (!la || !lb || la.text.split(/\s+/u).length > TWO_PAGE_MAX_WORDS) continue;
    // The same size too: a title over the first page reads like the head over the second.
    if (runningLineKey(la.text) !== runningLineKey(lb.text) || Math.abs(la.y - lb.y) > Math.max(3, la.fontSize) || Math.abs(la.fontSize - lb.fontSize) > 0.5) continue;
    const occ = [la, lb].map((l, k) => ({ page: k === 0 ? a : b, line: 0, y: l.y, fontSize: l.fontSize, numbers: numbersOf(l.text) }));
    if (!followsPages(occ)) continue;
    drop[0].add(ea[side]);
    drop[1].add(eb[side]);
    if (stripped.length < opts.maxReported) stripped.push(la.text);
    strippedChars += (la.text + lb.text).replace(/\s/gu, '').length;
  }
  if (stripped.length === 0) return { pages: out, stripped, strippedChars: 0 };
  out[a] = { ...(pages[a] as Page), lines: (pages[a] as Page).lines.filter((_, k) => !drop[0].has(k)) };
  out[b] = { ...(pages[b] as Page), lines: (pages[b] as Page).lines.filter((_, k) => !drop[1].has(k)) };
  return { pages: out, stripped, strippedChars };
}
