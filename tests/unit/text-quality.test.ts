/**
 * The mojibake check: a text layer that decodes to garbage fails as GARBLED_TEXT, while ordinary
 * English, Korean, Japanese, accented European text and tables of figures pass untouched.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../shared/domain/extracted.ts';
import { PermanentError } from '../../shared/errors.ts';
import { assertReadableText, assessTextQuality, garbageShare, isGarbageToken, textWarnings } from '../../shared/pdf/text-quality.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { remappedFontPdf } from '../fixtures/raw-pdf.ts';

const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };

function page(number: number, lines: string[]): Page {
  return { number, width: 595, height: 842, lines: lines.map((text, i) => ({ text, x: 72, y: 780 - 14 * i, fontSize: 10 })) };
}

const CLEAN: Record<string, string[]> = {
  english: [
    'The employer shall keep records of hours worked for at least three years (see § 4.2, "Retention").',
    'Capital expenditures were $1,234.5 million in Q3 2023, up 12% year-over-year; see Note 7 — Leases.',
    'ID.AM-1: Physical devices and systems within the organization are inventoried. R&D, e-mail, and/or U.S.',
  ],
  korean: ['제1조(목적) 이 법은 헌법에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을 보장한다.', '② 제1항제6호에 따라 산출된 금액이 통상임금보다 적으면 「근로기준법」을 따른다.'],
  japanese: ['第1条（目的）この法律は、労働条件の基準を定めることを目的とする。', '「労働者」とは、事業又は事務所に使用される者で、賃金を支払われる者をいう。'],
  accented: [
    'Der Arbeitgeber muss die Überprüfung der Arbeitszeit sicherstellen. Übergröße, Fußgängerzone.',
    'Les données personnelles sont conservées pendant la durée prévue à l’article 5. Déjà réélu.',
    'Þjóðfáni Íslands; São Paulo, ação, coração; Ærø, Ålesund, Øresund; año, niño, pingüino.',
  ],
  figures: ['Total net sales  $ 81,797  $ 82,959  (1.4)%', '(in millions)  2023  2022  ±0.5  3,100.2  —  (245)  12.5%  1.00x'],
};

describe('text-quality: tokens', () => {
  it('flags replacement, private-use and control characters, UTF-8 read as Latin-1, and symbol soup', () => {
    // The last three: 근로기준법, 제1조(목적) and 기준을 in EUC-KR read as Latin-1.
    for (const t of ['Pr\uFFFDfung', '\uF041\uF042\uF043', 'abc\u0007def', 'Ã¼berprÃ¼fung', 'â€œHelloâ€', 'Ã©tÃ©', '¤©®±§Ð', 'Ãþ§¨¬°±', '±Ù·Î±âÁØ¹ý', 'Á¦1Á¶(¸ñÀû)', '±âÁØÀ»']) {
      expect(isGarbageToken(t), t).toBe(true);
    }
  });

  it('leaves words, numbers and identifiers of any script alone', () => {
    const tokens = Object.values(CLEAN).flatMap((lines) => lines.flatMap((l) => l.split(/\s+/u))).filter(Boolean);
    expect(tokens.filter(isGarbageToken)).toEqual([]);
    for (const t of ['3.1.2', 'PR.AC-3', 'RFC-8446', '[별표 1]', '<2019.', '1.15.>', 'x86_64', 'C++', '#include', 'A/B', '•', '—', '→', '≥10']) {
      expect(isGarbageToken(t), t).toBe(false);
    }
  });
});

describe('text-quality: documents', () => {
  it('scores ordinary text in every script and tables of figures at zero', () => {
    const pages = Object.values(CLEAN).map((lines, i) => page(i + 1, lines));
    expect(assessTextQuality(pages)).toMatchObject({ garbageChars: 0, garbledPages: [] });
    expect(() => assertReadableText(pages)).not.toThrow();
  });

  it('fails a text layer that is nearly all mojibake, naming the pages', () => {
    const junk = 'Ã¼ber Ã©tÃ© â€œÃ¤Ã¶â€ ¤©®±§Ð Ã¡Ã­Ã³ Â§Â¶ Ã±Ã§';
    const pages = [page(1, [junk, junk]), page(2, [junk]), page(3, [junk]), page(4, CLEAN.english?.slice(0, 1) ?? [])];
    const quality = assessTextQuality(pages);
    expect(quality.garbledPages).toEqual([1, 2, 3]);
    expect(() => assertReadableText(pages)).toThrow(expect.objectContaining({ code: 'GARBLED_TEXT', message: expect.stringContaining('garbled pages: 1-3') }));
    // A Korean statute in EUC-KR read as Latin-1 ("제1조(목적) 이 법은 근로조건의 기준을 정한다.").
    const euckr = [page(1, ['Á¦1Á¶(¸ñÀû) ÀÌ ¹ýÀº ±Ù·ÎÁ¶°ÇÀÇ ±âÁØÀ» Á¤ÇÑ´Ù.', 'Á¦2Á¶(Á¤ÀÇ) ÀÌ ¹ý¿¡¼­ »ç¿ëÇÏ´Â ¿ë¾îÀÇ ¶æÀº ´ÙÀ½°ú °°´Ù.'])];
    expect(() => assertReadableText(euckr)).toThrow(expect.objectContaining({ code: 'GARBLED_TEXT' }));
  });

  it('finds no garbled page in the example corpus (English and Korean PDFs)', async () => {
    const dir = path.resolve(import.meta.dirname, '../../examples/docs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.pdf'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      const doc = await extractStage({ bytes: new Uint8Array(readFileSync(path.join(dir, file))) }, LIMITS);
      expect(assessTextQuality(doc.pages), file).toMatchObject({ garbageChars: 0, garbledPages: [] });
    }
  });

  it('does not fail a document with only a few garbled lines', () => {
    const pages = [page(1, [...(CLEAN.english ?? []), '\uF06C\uF06C\uF06C ¤©®±§Ð']), page(2, CLEAN.korean ?? [])];
    expect(garbageShare('\uF06C\uF06C\uF06C ¤©®±§Ð').garbage).toBe(9);
    expect(() => assertReadableText(pages)).not.toThrow();
  });
});

// A font whose /Differences send every code to the wrong glyph: letters come out as Latin-1
// symbols and accented capitals, as in a PDF whose font encoding was written wrongly.
const WRONG_GLYPHS = ['Atilde', 'copyright', 'registered', 'plusminus', 'currency', 'Ograve', 'brokenbar', 'dieresis', 'section', 'Eth', 'thorn', 'onequarter', 'logicalnot', 'degree', 'paragraph'];
const scramble = (code: number): string => WRONG_GLYPHS[code % WRONG_GLYPHS.length] ?? 'Atilde';

describe('text-quality: in the extract stage', () => {
  const body = ['The employer shall keep records of hours worked for three years.', 'Records are kept in the payroll system and shown on request.'];

  it('fails a PDF whose font maps its text to the wrong characters as GARBLED_TEXT', async () => {
    const pdf = remappedFontPdf([body, body], scramble);
    const err = await extractStage({ bytes: pdf }, LIMITS).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PermanentError);
    expect(err).toMatchObject({ code: 'GARBLED_TEXT', message: expect.stringContaining('garbled pages: 1-2') });
  });

  it('extracts a PDF with one garbled page of four, and warns about that page', async () => {
    const doc = await extractStage({ bytes: remappedFontPdf([body, body, body, body], scramble, (p) => p === 2) }, LIMITS);
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual(body);
    expect(textWarnings(doc.pages)).toEqual([{ code: 'GARBLED_TEXT', pages: [3], message: expect.stringContaining('page 3 decodes to garbage') }]);
    expect(textWarnings(doc.pages.filter((p) => p.number !== 3))).toEqual([]);
  });

  it('still extracts the same text in a correctly encoded font', async () => {
    const doc = await extractStage({ bytes: remappedFontPdf([body], (code) => (code === 32 ? 'space' : String.fromCharCode(code).replace(/[^A-Za-z]/u, 'period'))) }, LIMITS);
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual(body);
    const plain = await extractStage({ bytes: await textPdf([body]) }, LIMITS);
    expect(plain.pages[0]?.lines.map((l) => l.text)).toEqual(body);
  });
});
