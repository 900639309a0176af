import { describe, expect, it } from 'vitest';
import { TextLine as TextLineSchema, type Page, type TextLine } from '../../shared/domain/extracted.ts';
import { cleanPdfTitle, parsePdfDate } from '../../shared/pdf/document-info.ts';
import { buildLines, type RawTextItem } from '../../shared/pdf/line-builder.ts';
import { classifyOpenError } from '../../shared/pdf/pdf-errors.ts';
import { runningLineKey, stripRunningLines } from '../../shared/pdf/running-lines.ts';
import { saslprep } from '../../shared/pdf/saslprep.ts';
import { joinHyphenatedLines, normaliseText } from '../../shared/pdf/text-normalise.ts';

function item(str: string, x: number, y: number, opts: Partial<RawTextItem> & { size?: number; angle?: number } = {}): RawTextItem {
  const size = opts.size ?? 10;
  const rad = ((opts.angle ?? 0) * Math.PI) / 180;
  const transform = [size * Math.cos(rad), size * Math.sin(rad), -size * Math.sin(rad), size * Math.cos(rad), x, y];
  return { str, transform, width: opts.width ?? str.length * size * 0.5, height: size, hasEOL: opts.hasEOL ?? false, dir: opts.dir ?? 'ltr' };
}

const line = (text: string, y = 700, x = 72): TextLine => ({ text, x, y, fontSize: 10 });

describe('normaliseText', () => {
  it('folds ligatures and other compatibility letters', () => {
    expect(normaliseText('\uFB00 \uFB01 \uFB02 \uFB03 \uFB04 \uFB05 \uFB06')).toBe('ff fi fl ffi ffl st st');
    expect(normaliseText('e\uFB03cient o\uFB00er \u017Fome \uFF21\uFF22\uFF23')).toBe('efficient offer some ABC');
  });

  it('keeps Korean intact: syllables, circled numbers, the middle dot ㆍ and compatibility jamo', () => {
    expect(normaliseText('제1조(목적) ① 사업ㆍ사업장 ㄱ. 항목')).toBe('제1조(목적) ① 사업ㆍ사업장 ㄱ. 항목');
    // Conjoining jamo (as some PDFs emit them) compose into syllables.
    expect(normaliseText('\u1112\u1161\u11AB\u1100\u1173\u11AF')).toBe('한글');
  });

  it('removes invisible characters and folds whitespace', () => {
    expect(normaliseText('  soft\u00ADhyphen zero\u200Bwidth\uFEFF  \t tab\u00A0nbsp  ')).toBe('softhyphen zerowidth tab nbsp');
  });

  it('rebuilds TeX accents', () => {
    expect(normaliseText('a na\u00A8\u0131ve caf\u00B4e')).toBe('a naïve café');
  });
});

describe('joinHyphenatedLines', () => {
  it('joins a word broken at the line end when the next line starts in lower case', () => {
    const out = joinHyphenatedLines([line('this is an exam-', 700), line('ple, and more', 688), line('text', 676)]);
    expect(out.map((l) => l.text)).toEqual(['this is an example,', 'and more', 'text']);
  });

  it('keeps real hyphens and hyphens before capitals, numbers or nothing', () => {
    const lines = [line('an e-mail address'), line('the Franco-'), line('German border'), line('pages 3-'), line('5 and'), line('last-')];
    expect(joinHyphenatedLines(lines).map((l) => l.text)).toEqual(lines.map((l) => l.text));
  });

  it('keeps each line\'s printed width: the moved fragment was printed at the start of the next line', () => {
    const out = joinHyphenatedLines([{ ...line('this is an exam-', 700), width: 80 }, { ...line('ple, and more', 688), width: 62 }]);
    expect(out.map((l) => [l.text, l.width])).toEqual([
      ['this is an example,', 80],
      ['and more', 62],
    ]);
  });

  it('reads lines of artifacts extracted before widths were kept', () => {
    expect(TextLineSchema.parse({ text: 'old', x: 72, y: 700, fontSize: 10 })).toEqual({ text: 'old', x: 72, y: 700, fontSize: 10 });
  });

  it('drops a line left empty by the join', () => {
    expect(joinHyphenatedLines([line('inter-'), line('national')]).map((l) => l.text)).toEqual(['international']);
  });
});

describe('buildLines', () => {
  it('groups items on one baseline, sorted by x, and inserts spaces at gaps only', () => {
    const lines = buildLines([item('World', 78, 700), item('Hello', 50, 700), item('Second', 50, 686, { hasEOL: true }), item('line', 83, 686)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello World', 'Second line']);
    expect(lines[0]).toMatchObject({ x: 50, y: 700, fontSize: 10 });
  });

  it('keeps two columns apart even when their baselines agree', () => {
    const left = [item('Left column first line', 50, 700), item('Left column second line', 50, 688)];
    const right = [item('Right column first line', 180, 700), item('Right column second', 180, 688)];
    expect(buildLines([...left, ...right]).map((l) => l.text)).toEqual([
      'Left column first line',
      'Left column second line',
      'Right column first line',
      'Right column second',
    ]);
  });

  it('merges an out-of-order run into its line and drops bold overprints', () => {
    const items = [item('plain text', 100, 700), item('Bold', 72, 700, { width: 24 }), item('Bold', 72.3, 700.2, { width: 24 })];
    expect(buildLines(items).map((l) => l.text)).toEqual(['Bold plain text']);
  });

  it('keeps superscripts on their line and reports the dominant font size', () => {
    const lines = buildLines([item('Footnoted word', 50, 700, { size: 10 }), item('1', 120, 703, { size: 6 })]);
    // The superscript's run (120–123) ends the line: the width reaches it.
    expect(lines).toEqual([{ text: 'Footnoted word1', x: 50, y: 700, fontSize: 10, width: 73 }]);
  });

  it('reads rotated runs in their own direction', () => {
    const up = [item('Vertical', 30, 100, { angle: 90, width: 40 }), item('text', 30, 145, { angle: 90, width: 20 })];
    expect(buildLines(up).map((l) => l.text)).toEqual(['Vertical text']);
  });

  it('orders right-to-left lines from the right', () => {
    const rtl = [item('عالم', 100, 700, { dir: 'rtl', width: 30 }), item('مرحبا', 140, 700, { dir: 'rtl', width: 30 })];
    expect(buildLines(rtl).map((l) => l.text)).toEqual(['مرحبا عالم']);
  });

  it('measures a line from its first run\'s start to its last run\'s end, whatever order the runs came in', () => {
    const [line] = buildLines([item('World', 78, 700, { width: 27 }), item('Hello', 50, 700, { width: 25 })]);
    expect(line).toMatchObject({ text: 'Hello World', x: 50, width: 55 });
  });

  it('leaves blank runs out of the width, as out of x (a trailing space run is no printed text)', () => {
    const [line] = buildLines([item('Text', 50, 700, { width: 20 }), item('   ', 72, 700, { width: 30 })]);
    expect(line).toMatchObject({ text: 'Text', x: 50, width: 20 });
  });

  it('measures right-to-left and rotated lines along their own writing direction', () => {
    const rtl = [item('عالم', 100, 700, { dir: 'rtl', width: 30 }), item('مرحبا', 140, 700, { dir: 'rtl', width: 30 })];
    expect(buildLines(rtl)[0]?.width).toBe(70);
    // Turned 90°: the runs advance up the page, from y 100 to 165.
    const up = [item('Vertical', 30, 100, { angle: 90, width: 40 }), item('text', 30, 145, { angle: 90, width: 20 })];
    expect(buildLines(up)[0]?.width).toBe(65);
  });

  it('ignores marked-content markers, empty items and whitespace-only lines', () => {
    expect(buildLines([{ type: 'beginMarkedContent' }, item('', 0, 0, { hasEOL: true }), item('   ', 50, 600), item('x', 50, 500)])).toEqual([
      { text: 'x', x: 50, y: 500, fontSize: 10, width: 5 },
    ]);
  });
});

describe('stripRunningLines', () => {
  const page = (n: number, lines: TextLine[]): Page => ({ number: n, width: 595, height: 842, lines });
  const bodyOf = (n: number): TextLine[] => [line(`Unique opening sentence number ${'a'.repeat(n)}.`, 740), line(`Body ${'y'.repeat(n)} continues here.`, 726), line(`Another ${'z'.repeat(n)} line.`, 712)];

  it('folds page numbers when comparing lines', () => {
    expect(runningLineKey('Rescorla Standards Track [Page 12]')).toBe('rescorla standards track [page #]');
    expect(runningLineKey('18 FREE CULTURE')).toBe(runningLineKey('FREE CULTURE 19'));
    expect(runningLineKey('xvi PREFACE')).toBe('preface');
    expect(runningLineKey('제12조(벌칙)')).toBe('제12조(벌칙)');
    // The word for "page" after the number still leaves it a page number; a unit does not.
    expect(runningLineKey('- 3쪽 -')).toBe(runningLineKey('- 4쪽 -'));
    expect(runningLineKey('12 페이지')).toBe(runningLineKey('13 페이지'));
    expect(runningLineKey('12ページ')).toBe('#ページ');
    expect(runningLineKey('12개월')).toBe('12개월');
  });

  it('strips a Korean page-number footer ("1쪽", "2쪽", …)', () => {
    const pages = [1, 2, 3].map((n) => page(n, [...bodyOf(n), line(`${n}쪽`, 30)]));
    const { pages: out, stripped } = stripRunningLines(pages);
    expect(out.every((p) => p.lines.length === 3)).toBe(true);
    expect(stripped).toEqual(['1쪽']);
  });

  it('strips a header and a page-numbered footer on every page, reporting each once', () => {
    const pages = [1, 2, 3, 4, 5].map((n) => page(n, [line('법제처 국가법령정보센터', 30), line('근로기준법', 802), ...bodyOf(n)]));
    const { pages: out, stripped } = stripRunningLines(pages.map((p) => ({ ...p, lines: p.lines.map((l, i) => (i === 0 ? { ...l, text: `법제처 ${p.number} 국가법령정보센터` } : l)) })));
    expect(out.every((p) => p.lines.length === 3)).toBe(true);
    expect([...stripped].sort()).toEqual(['근로기준법', '법제처 1 국가법령정보센터']);
  });

  it('keeps a line that repeats at another height', () => {
    const pages = [1, 2, 3].map((n) => page(n, [line('Report', 800), ...bodyOf(n)]));
    pages[0]?.lines.push(line('Report', 600));
    const { pages: out } = stripRunningLines(pages);
    expect(out[0]?.lines.map((l) => l.text)).toContain('Report');
    expect(out[1]?.lines.map((l) => l.text)).not.toContain('Report');
  });

  it('two pages: strips only the top or bottom line both print alike, at one height and size', () => {
    // A two-page release: its title over both pages, "Page 1" / "Page 2" under them.
    const release = [1, 2].map((n) => page(n, [line('Acme Reports Third Quarter Results', 800), ...bodyOf(n), line(`Page ${n}`, 30)]));
    const { pages: out, stripped } = stripRunningLines(release);
    expect(stripped).toEqual(['Acme Reports Third Quarter Results', 'Page 1']);
    expect(out.map((p) => p.lines.length)).toEqual([3, 3]);
    // A title in a larger size over the first page, the same words as the head over the second, stays.
    const titled = release.map((p, i) => ({ ...p, lines: p.lines.map((l, k) => (k === 0 && i === 0 ? { ...l, fontSize: 18 } : l)) }));
    expect(stripRunningLines(titled).stripped).toEqual(['Page 1']);
    // A last line whose number does not follow the pages is text ("3. Other matters" ending both).
    const lists = [1, 2].map((n) => page(n, [...bodyOf(n), line(`${5 - n}. Other matters`, 30)]));
    expect(stripRunningLines(lists).stripped).toEqual([]);
    // A line at another height, or not the page's outermost, stays; so does a single page.
    const moved = [1, 2].map((n) => page(n, [line('Report', 800 - 40 * n), ...bodyOf(n)]));
    expect(stripRunningLines(moved).stripped).toEqual([]);
    expect(stripRunningLines(release.slice(0, 1)).stripped).toEqual([]);
  });

  it('catches per-chapter running heads with ticking page numbers on alternate pages', () => {
    const pages = Array.from({ length: 12 }, (_, i) => {
      const n = i + 1;
      const head = n <= 6 ? (n % 2 ? `"PIRACY" ${n + 10}` : `${n + 10} FREE CULTURE`) : n % 2 ? `"PROPERTY" ${n + 10}` : `${n + 10} FREE CULTURE`;
      return page(n, [...bodyOf(n), line(head, 48)]);
    });
    const { pages: out, stripped } = stripRunningLines(pages);
    expect(out.every((p) => p.lines.length === 3)).toBe(true);
    expect(stripped).toEqual(expect.arrayContaining(['"PIRACY" 11', '12 FREE CULTURE', '"PROPERTY" 17']));
  });

  it('never strips a page\u2019s only line, nor most of the text', () => {
    const same = [1, 2, 3, 4].map((n) => page(n, [line('Hello world', 400)]));
    expect(stripRunningLines(same).stripped).toEqual([]);
    const form = [1, 2, 3, 4].map((n) => page(n, [line('Name:', 700), line('Date:', 100), line(`${n}`, 400)]));
    expect(stripRunningLines(form).pages.every((p) => p.lines.length === 3)).toBe(true);
  });

  it('strips a numbered footer that follows the text down the page (a filing printed from HTML), not an unnumbered closing line', () => {
    const pages = [1, 2, 3, 4, 5].map((n) => page(n, [...bodyOf(n), line(`Orchard Inc. | Q1 2024 Form 10-Q | ${n}`, 690 - 90 * n)]));
    const { pages: out, stripped } = stripRunningLines(pages);
    expect(out.every((p) => p.lines.length === 3)).toBe(true);
    expect(stripped).toEqual(['Orchard Inc. | Q1 2024 Form 10-Q | 1']);
    const closing = [1, 2, 3, 4, 5].map((n) => page(n, [...bodyOf(n), line('See accompanying notes.', 690 - 90 * n)]));
    expect(stripRunningLines(closing).stripped).toEqual([]);
  });
});

describe('document info', () => {
  it('cleans titles', () => {
    expect(cleanPdfTitle('Microsoft Word - Annual Report.doc')).toBe('Annual Report');
    expect(cleanPdfTitle('Microsoft Word - x.doc')).toBeNull();
    // Non-Latin titles are titles, not punctuation.
    expect(cleanPdfTitle('재택근무 운영 지침')).toBe('재택근무 운영 지침');
    expect(cleanPdfTitle('労働基準法')).toBe('労働基準法');
    expect(cleanPdfTitle('— * —')).toBeNull();
    expect(cleanPdfTitle('untitled')).toBeNull();
    expect(cleanPdfTitle('Document1')).toBeNull();
    expect(cleanPdfTitle('report_final_v2.pdf')).toBeNull();
    expect(cleanPdfTitle('C:\\docs\\memo.doc')).toBeNull();
    expect(cleanPdfTitle('  Free   Culture ')).toBe('Free Culture');
    expect(cleanPdfTitle(42)).toBeNull();
  });

  it('parses PDF dates into calendar days', () => {
    expect(parsePdfDate("D:20250509023202+09'00'")).toBe('2025-05-09');
    expect(parsePdfDate('D:20180810')).toBe('2018-08-10');
    expect(parsePdfDate('20041231')).toBe('2004-12-31');
    expect(parsePdfDate('D:20230231')).toBeNull();
    expect(parsePdfDate('D:2013')).toBeNull();
    expect(parsePdfDate('yesterday')).toBeNull();
    expect(parsePdfDate(undefined)).toBeNull();
  });
});

describe('passwords and errors', () => {
  it('prepares passwords with SASLprep', () => {
    expect(saslprep('S\u00AASL\u00ADprep')).toBe('SaSLprep');
    expect(saslprep('pass\u00A0word')).toBe('pass word');
    expect(saslprep('abc')).toBe('abc');
  });

  it('classifies pdf.js failures', () => {
    const need = classifyOpenError({ name: 'PasswordException', message: 'No password given', code: 1 }, false);
    expect(need).toMatchObject({ code: 'PASSWORD_REQUIRED' });
    expect(need.message).toMatch(/none was given.*metadata `password` field/);
    const wrong = classifyOpenError({ name: 'PasswordException', message: 'Incorrect Password', code: 2 }, true);
    expect(wrong.message).toMatch(/incorrect.*metadata `password` field/);
    expect(classifyOpenError({ name: 'InvalidPDFException', message: 'Invalid PDF structure.' }, false)).toMatchObject({
      code: 'CORRUPT_PDF',
      message: 'PDF could not be parsed (InvalidPDFException: Invalid PDF structure.)',
    });
    expect(classifyOpenError(new Error('bad XRef entry'), false)).toMatchObject({ code: 'CORRUPT_PDF' });
  });
});
