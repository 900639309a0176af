/**
 * CJK text in fonts that pdf.js can only read through its predefined CMaps (a Type0 font that is
 * not embedded, encoded with UniKS-UCS2-H / UniJIS-UCS2-H and without ToUnicode): without the
 * CMap data such a file has "no text layer"; with it the text is recovered, sectioned and chunked.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getResolvedPDFJS } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { extractIsolated } from '../../shared/pdf/isolated-extract.ts';
import { pdfjsDataPaths } from '../../shared/pdf/pdfjs-data.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { chunkStage } from '../../workers/chunk/chunk.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { cjkCMapPdf } from '../fixtures/raw-pdf.ts';

const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };

const KOREAN = [
  ['제1장 총칙', '제1조(목적) 이 규정은 연구실 안전관리에 필요한 사항을 정한다.', '제2조(정의) 이 규정에서 사용하는 용어의 뜻은 다음과 같다.'],
  ['제2장 안전관리', '제3조(책임자) 연구실책임자는 안전관리를 총괄한다.', '제4조(점검) 정기점검은 매년 1회 이상 실시한다.'],
];
const JAPANESE = [['第1条(目的)この規程は、研究室の安全管理に関し必要な事項を定める。', '第2条(定義)この規程において用語の意義は次のとおりとする。']];

function lines(doc: ExtractedDocument): string[] {
  return doc.pages.flatMap((p) => p.lines.map((l) => l.text));
}

describe('CJK text that needs pdf.js CMaps', () => {
  it('takes the CMaps from the pdfjs-dist release that unpdf bundles', async () => {
    // Packed CMaps are read by the bundled pdf.js: the data must come from the same release.
    const { cMapUrl, standardFontDataUrl } = pdfjsDataPaths();
    const pkg = JSON.parse(readFileSync(path.join(cMapUrl, '..', 'package.json'), 'utf8')) as { version: string };
    expect(pkg.version).toBe((await getResolvedPDFJS()).version);
    expect(readFileSync(path.join(cMapUrl, 'UniKS-UCS2-H.bcmap')).length).toBeGreaterThan(0);
    expect(readFileSync(path.join(standardFontDataUrl, 'LiberationSans-Regular.ttf')).length).toBeGreaterThan(0);
  });

  it('recovers Korean text of a non-embedded UniKS-UCS2-H font, and sections and chunks it', async () => {
    const doc = await extractStage({ bytes: cjkCMapPdf(KOREAN, 'ko') }, LIMITS);
    expect(lines(doc)).toEqual(KOREAN.flat());
    const sections = sectionizeStage(doc);
    expect(sections.find((s) => s.title === '제3조(책임자)')).toMatchObject({ path: ['제2장 안전관리', '제3조(책임자)'], pageStart: 2 });
    const chunks = chunkStage({ docId: 'doc-ko', version: 'c'.repeat(64), docType: 'manual', sections }, DEFAULT_CHUNK_POLICIES);
    expect(chunks.map((c) => c.body).join('\n')).toContain('정기점검은 매년 1회 이상 실시한다.');
  });

  it('recovers Japanese text of a non-embedded UniJIS-UCS2-H font', async () => {
    const doc = await extractStage({ bytes: cjkCMapPdf(JAPANESE, 'ja') }, LIMITS);
    expect(lines(doc)).toEqual(JAPANESE.flat());
  });

  it('recovers it in an isolated extraction child too (where workers extract)', async () => {
    const doc = await extractIsolated({ bytes: cjkCMapPdf(KOREAN, 'ko') }, LIMITS, { timeoutMs: 20_000, maxHeapMb: 256 });
    expect(lines(doc)).toContain('제4조(점검) 정기점검은 매년 1회 이상 실시한다.');
  });
});
