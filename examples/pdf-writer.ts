/**
 * A small deterministic PDF writer for the example corpus and the test corpora.
 *
 * English is set in Helvetica (a standard font, nothing embedded); Korean in Noto Sans KR,
 * embedded as a subset so a document carries only the glyphs it uses. The same input always
 * gives the same bytes: dates are pinned, pdf-lib writes no /ID, and every name pdf-lib would
 * otherwise draw from its counter-seeded generator is chosen here.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import type { Font, GlyphRun } from '@pdf-lib/fontkit';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  StandardFonts,
  degrees,
  drawText,
  grayscale,
  type PDFFont,
} from 'pdf-lib';
import { A4, LETTER, layoutDocument, type Block, type Face, type MeasureText } from './pdf-layout.ts';

export type { Block } from './pdf-layout.ts';

/** What to write. */
export interface PdfSpec {
  title: string;
  lang: 'en' | 'ko';
  author?: string;
  /** Written as both CreationDate and ModDate. @defaultValue 2024-01-01T00:00:00Z */
  creationDate?: Date;
  /** Info-dictionary Subject. */
  subject?: string;
  /** Info-dictionary Keywords. */
  keywords?: string[];
  /** @defaultValue 'a4' */
  pageSize?: 'a4' | 'letter';
  blocks: Block[];
}

/** A written PDF and its page count. */
export interface RenderedPdf {
  bytes: Uint8Array;
  pageCount: number;
}

/** Pinned so that regenerating an unchanged document never changes its bytes. */
export const DEFAULT_CREATION_DATE = new Date(Date.UTC(2024, 0, 1));

const PRODUCER = 'pdf-lib (https://github.com/Hopding/pdf-lib)';
const CREATOR = 'Quarry example writer';
const NOTO_FILES: Record<Face, string> = {
  regular: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf',
};
const FONT_KEYS: Record<Face, PDFName> = { regular: PDFName.of('F1'), bold: PDFName.of('F2') };

/** A font ready to draw with: measured and encoded per character, both cached. */
interface FontHandle {
  font: PDFFont;
  /** Advance width of one character at size 1. @throws Error when the font has no glyph for it. */
  charWidth(ch: string): number;
  /** The hex string pdf-lib would show for `text`, built from per-character codes. */
  encode(text: string): PDFHexString;
}

const fontBytes = new Map<Face, Promise<Uint8Array>>();

/** Reads a Noto Sans KR face once per process; the bytes are shared, never the parsed font. */
function notoBytes(face: Face): Promise<Uint8Array> {
  let bytes = fontBytes.get(face);
  if (!bytes) {
    const path = createRequire(import.meta.url).resolve(NOTO_FILES[face]);
    // A private ArrayBuffer holding exactly the font, so fontkit can parse it without a copy.
    bytes = readFile(path).then((b) => new Uint8Array(b));
    fontBytes.set(face, bytes);
  }
  return bytes;
}

/**
 * Six capital letters derived from the document, used as the subset tag ("ABCDEF+Name") the
 * PDF spec asks for; pdf-lib would otherwise append a generated suffix.
 */
function subsetTag(title: string, face: Face): string {
  const digest = createHash('sha256').update(`${face}\u0000${title}`).digest();
  return Array.from(digest.subarray(0, 6), (b) => String.fromCharCode(65 + (b % 26))).join('');
}

function cachedHandle(font: PDFFont, width: (ch: string) => number): FontHandle {
  const widths = new Map<string, number>();
  const codes = new Map<string, string>();
  const charWidth = (ch: string): number => {
    let w = widths.get(ch);
    if (w === undefined) {
      w = width(ch);
      widths.set(ch, w);
    }
    return w;
  };
  return {
    font,
    charWidth,
    encode(text: string): PDFHexString {
      let hex = '';
      for (const ch of text) {
        let code = codes.get(ch);
        if (code === undefined) {
          charWidth(ch);
          // One glyph per code point (no shaping, see unshapedRun), so a line's code is the
          // concatenation of its characters' codes and each character is encoded once.
          code = font.encodeText(ch).asString();
          codes.set(ch, code);
        }
        hex += code;
      }
      return PDFHexString.of(hex);
    },
  };
}

async function standardHandle(pdf: PDFDocument, face: Face): Promise<FontHandle> {
  const font = await pdf.embedFont(face === 'bold' ? StandardFonts.HelveticaBold : StandardFonts.Helvetica);
  return cachedHandle(font, (ch) => {
    try {
      return font.widthOfTextAtSize(ch, 1);
    } catch {
      throw new Error(`writePdf: Helvetica cannot draw "${ch}" (U+${hex4(ch)}); write lang 'ko' documents for Hangul`);
    }
  });
}

async function notoHandle(pdf: PDFDocument, face: Face, title: string): Promise<FontHandle> {
  let parsed: Font | undefined;
  // Capture the parsed font pdf-lib creates so metrics come straight from its tables.
  pdf.registerFontkit({
    create(buffer: Uint8Array): Font {
      // fontkit copies a Uint8Array byte by byte (6 MB, ~12 ms) but wraps an ArrayBuffer in
      // place; the font bytes are never written to, so parsing from the shared buffer is safe.
      const whole = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength;
      const font = fontkit.create(whole ? (buffer.buffer as unknown as Uint8Array) : buffer);
      font.layout = (text: string): GlyphRun => unshapedRun(font, text);
      parsed = font;
      return font;
    },
  });
  const name = face === 'bold' ? 'NotoSansKR-Bold' : 'NotoSansKR-Regular';
  const font = await pdf.embedFont(await notoBytes(face), { subset: true, customName: `${subsetTag(title, face)}+${name}` });
  const metrics = parsed;
  if (!metrics) throw new Error('writePdf: fontkit did not parse Noto Sans KR');
  return cachedHandle(font, (ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    if (!metrics.hasGlyphForCodePoint(cp)) throw new Error(`writePdf: Noto Sans KR has no glyph for "${ch}" (U+${hex4(ch)})`);
    return metrics.glyphForCodePoint(cp).advanceWidth / metrics.unitsPerEm;
  });
}

/**
 * A glyph run without OpenType shaping: one glyph per code point, from the cmap. fontkit's
 * shaper costs ~0.3 ms per call on Noto Sans KR's large GSUB/GPOS tables, which made a Korean
 * page take a second; precomposed Hangul syllables and Latin text need no shaping, and a PDF
 * ignores GPOS adjustments pdf-lib does not write anyway.
 */
function unshapedRun(font: Font, text: string): GlyphRun {
  const glyphs = Array.from(text, (ch) => font.glyphForCodePoint(ch.codePointAt(0) ?? 0));
  const positions = glyphs.map((g) => ({ xAdvance: g.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 }));
  const advanceWidth = positions.reduce((sum, p) => sum + p.xAdvance, 0);
  return {
    glyphs,
    positions,
    script: 'hang',
    language: null,
    direction: 'ltr',
    features: {},
    advanceWidth,
    advanceHeight: 0,
    bbox: font.bbox,
  };
}

function hex4(ch: string): string {
  return (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

/**
 * Renders a document to PDF bytes.
 *
 * @throws Error when the text uses a character the document's font cannot draw.
 */
export async function renderPdf(spec: PdfSpec): Promise<RenderedPdf> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts = await fontHandles(pdf, spec.lang, spec.title);
  const geometry = spec.pageSize === 'letter' ? LETTER : A4;
  const pages = layoutDocument({ title: spec.title, lang: spec.lang, blocks: spec.blocks }, measureWith(fonts), geometry);

  for (const ops of pages) {
    const page = pdf.addPage([geometry.width, geometry.height]);
    page.node.setFontDictionary(FONT_KEYS.regular, fonts.regular.font.ref);
    page.node.setFontDictionary(FONT_KEYS.bold, fonts.bold.font.ref);
    for (const op of ops) {
      if (op.op === 'text') {
        page.pushOperators(
          ...drawText(fonts[op.face].encode(op.text), {
            color: grayscale(op.gray),
            font: FONT_KEYS[op.face],
            size: op.size,
            rotate: degrees(0),
            xSkew: degrees(0),
            ySkew: degrees(0),
            x: round(op.x),
            y: round(op.y),
          }),
        );
      } else if (op.op === 'line') {
        page.drawLine({ start: { x: op.x1, y: op.y1 }, end: { x: op.x2, y: op.y2 }, thickness: op.thickness, color: grayscale(op.gray) });
      } else {
        page.drawRectangle({ x: op.x, y: op.y, width: op.width, height: op.height, color: grayscale(op.gray) });
      }
    }
  }

  const date = spec.creationDate ?? DEFAULT_CREATION_DATE;
  pdf.setTitle(spec.title);
  if (spec.author) pdf.setAuthor(spec.author);
  if (spec.subject) pdf.setSubject(spec.subject);
  if (spec.keywords && spec.keywords.length > 0) pdf.setKeywords(spec.keywords);
  pdf.setLanguage(spec.lang);
  pdf.setCreator(CREATOR);
  pdf.setProducer(PRODUCER);
  pdf.setCreationDate(date);
  pdf.setModificationDate(date);

  const bytes = await pdf.save({ useObjectStreams: true });
  return { bytes, pageCount: pages.length };
}

async function fontHandles(pdf: PDFDocument, lang: 'en' | 'ko', title: string): Promise<Record<Face, FontHandle>> {
  return lang === 'ko'
    ? { regular: await notoHandle(pdf, 'regular', title), bold: await notoHandle(pdf, 'bold', title) }
    : { regular: await standardHandle(pdf, 'regular'), bold: await standardHandle(pdf, 'bold') };
}

function measureWith(fonts: Record<Face, FontHandle>): MeasureText {
  return (face, text, size) => {
    const handle = fonts[face];
    let w = 0;
    for (const ch of text) w += handle.charWidth(ch);
    return w * size;
  };
}

const metricsByLang = new Map<'en' | 'ko', Promise<MeasureText>>();

function metricsFor(lang: 'en' | 'ko'): Promise<MeasureText> {
  let metrics = metricsByLang.get(lang);
  if (!metrics) {
    metrics = PDFDocument.create({ updateMetadata: false })
      .then((scratch) => fontHandles(scratch, lang, 'metrics'))
      .then(measureWith);
    metricsByLang.set(lang, metrics);
  }
  return metrics;
}

/**
 * Lays a document out without rendering it and reports, for each block, the page it ends on;
 * the last entry is the page count, and entry k - 1 is the page count of the first k blocks
 * alone. Metrics come from fonts parsed once per process into a scratch document that is never
 * saved, so this is cheap enough to size generated documents.
 *
 * @throws Error when the text uses a character the document's font cannot draw.
 */
export async function blockEndPages(spec: Pick<PdfSpec, 'title' | 'lang' | 'pageSize' | 'blocks'>): Promise<number[]> {
  const ends: number[] = [];
  const geometry = spec.pageSize === 'letter' ? LETTER : A4;
  layoutDocument({ title: spec.title, lang: spec.lang, blocks: spec.blocks }, await metricsFor(spec.lang), geometry, ends);
  return ends;
}

/**
 * Writes a document as PDF bytes: title on page 1, running header (the title) and footer
 * ("Page N" / "N쪽") on every page, Title and CreationDate metadata set, deterministic output.
 *
 * @throws Error when the text uses a character the document's font cannot draw.
 */
export async function writePdf(spec: PdfSpec): Promise<Uint8Array> {
  return (await renderPdf(spec)).bytes;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
