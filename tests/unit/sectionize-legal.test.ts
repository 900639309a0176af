/**
 * The sectionizer over real documents (through the extract stage): the Korean Labor Standards
 * Act, RFC 8446 and NIST SP 800-63B from ../shared/pdfs/legal, and every readable file of the
 * robustness corpus. Expected heading sets are read from each document's own table of contents.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { sharedPath } from '../helpers/shared-data.ts';

const LIMITS = { maxBytes: 20_000_000, maxPages: 2000 };

async function load(file: string): Promise<{ doc: ExtractedDocument; sections: Section[] }> {
  const doc = await extractStage({ bytes: new Uint8Array(readFileSync(file)) }, LIMITS);
  return { doc, sections: sectionizeStage(doc) };
}

/** Structural invariants every sectionizer output must hold. */
function expectWellFormed(sections: readonly Section[]): void {
  sections.forEach((s, i) => {
    Section.parse(s);
    expect(s.id).toBe(`s${i}`);
    expect(s.order).toBe(i);
    expect(s.path).toHaveLength(s.level);
    expect(s.path[s.level - 1]).toBe(s.title);
    expect(s.pageEnd).toBeGreaterThanOrEqual(s.pageStart);
    const next = sections[i + 1];
    if (next) expect(next.level).toBeLessThanOrEqual(s.level + 1);
    const hasChild = next !== undefined && next.level > s.level;
    expect(s.text.trim() !== '' || hasChild, `empty leaf section ${s.id} "${s.title}"`).toBe(true);
  });
}

function linesOf(doc: ExtractedDocument, fromPage: number, toPage: number): string[] {
  return doc.pages.filter((p) => p.number >= fromPage && p.number <= toPage).flatMap((p) => p.lines.map((l) => l.text));
}

const legal = sharedPath('pdfs', 'legal');

describe.skipIf(!legal.present)('Korean Labor Standards Act (근로기준법)', () => {
  let doc: ExtractedDocument;
  let sections: Section[];
  beforeAll(async () => {
    ({ doc, sections } = await load(path.join(legal.path, 'kr_labor_standards_act_2025.pdf')));
  });
  const ARTICLE = /^제(\d+)조(?:의(\d+))?/u;

  it('is well formed', () => expectWellFormed(sections));

  it('has one section per article of its table of contents, each under its chapter', () => {
    // The statute's own TOC (pages 1-4) lists every article; some twice (two effective dates).
    const tocArticles = new Set(linesOf(doc, 1, 4).map((t) => ARTICLE.exec(t)?.[0]).filter((a): a is string => a !== undefined));
    const main = sections.filter((s) => s.source === 'pattern' && ARTICLE.test(s.title) && !s.path[0]?.startsWith('부칙'));
    const numbers = main.map((s) => ARTICLE.exec(s.title)?.[0]);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(new Set(numbers)).toEqual(tocArticles);
    expect(main).toHaveLength(132); // 116 numbered articles + 16 "조의N" articles
    for (const s of main) {
      expect(s.level).toBe(2);
      expect(s.path[0]).toMatch(/^제\d+장(?:의\d+)? /u);
      expect(s.text.trim().length).toBeGreaterThan(0);
    }
    expect(sections.find((s) => s.title === '제1조(목적)')).toMatchObject({
      path: ['제1장 총칙', '제1조(목적)'],
      heading: '목적',
      pageStart: 5,
    });
    expect(sections.find((s) => s.title === '제1조(목적)')?.text).toMatch(/^이 법은 헌법에 따라 근로조건의 기준을 정함으로써/u);
  });

  it('glues the words its setter broke inside across lines (it breaks anywhere, filling each line)', () => {
    const text = sections.map((s) => s.text).join('\n');
    for (const word of ['하나에 해당하는', '하수급인이', '감독을 게을리하지']) expect(text).toContain(word);
  });

  it('has its 13 chapters and the supplementary provisions with their own articles', () => {
    const chapters = sections.filter((s) => /^제\d+장/u.test(s.title));
    expect(chapters).toHaveLength(13); // 제1장 … 제12장 and 제6장의2
    expect(chapters.every((c) => c.level === 1)).toBe(true);
    const supplement = sections.filter((s) => s.path[0]?.startsWith('부칙'));
    expect(supplement[0]).toMatchObject({ level: 1, heading: '부칙' });
    expect(supplement.slice(1).map((s) => ARTICLE.exec(s.title)?.[0])).toEqual(['제1조', '제2조', '제3조', '제4조', '제5조', '제6조', '제7조', '제8조']);
  });

  it('carries no running header or footer and never titles a reference', () => {
    for (const s of sections) {
      expect(s.text).not.toMatch(/법제처|국가법령정보센터/u);
      expect(s.title).not.toMatch(/에 따른|제\d+조제\d+항|같은 법/u);
      if (ARTICLE.test(s.title)) expect(s.title).toMatch(/^제\d+조(?:의\d+)?(?:\(.+\))?$/u);
    }
    expect(doc.strippedLines).toEqual(expect.arrayContaining(['근로기준법', '법제처 1 국가법령정보센터']));
  });
});

describe.skipIf(!legal.present)('RFC 8446 (TLS 1.3)', () => {
  let doc: ExtractedDocument;
  let sections: Section[];
  beforeAll(async () => {
    ({ doc, sections } = await load(path.join(legal.path, 'rfc8446_tls1.3.pdf')));
  });

  it('is well formed', () => expectWellFormed(sections));

  it('finds every numbered and appendix section of its table of contents, nested by number', () => {
    const tocNumbers = linesOf(doc, 2, 6)
      .map((t) => /^((?:\d+|[A-E])(?:\.\d+)*\.|Appendix [A-E]\.)\s.*\.{4,}\s*\d+$/u.exec(t)?.[1])
      .filter((n): n is string => n !== undefined);
    expect(tocNumbers.length).toBeGreaterThan(100);
    const titles = new Set(sections.map((s) => s.title));
    for (const n of tocNumbers) expect([...titles].some((t) => t.startsWith(`${n} `)), n).toBe(true);
    expect(sections.find((s) => s.title === '4.1.2. Client Hello')).toMatchObject({
      path: ['4. Handshake Protocol', '4.1. Key Exchange Messages', '4.1.2. Client Hello'],
      level: 3,
      heading: 'client hello',
    });
    expect(sections.find((s) => s.title === 'B.3.1.1. Version Extension')?.path).toEqual([
      'Appendix B. Protocol Data Structures and Constant Values',
      'B.3. Handshake Protocol',
      'B.3.1. Key Exchange Messages',
      'B.3.1.1. Version Extension',
    ]);
    expect(sections.filter((s) => /^Appendix [A-E]\./u.test(s.title))).toHaveLength(5);
    expect(sections.at(-2)?.title).toBe('Contributors');
  });

  it('strips the per-page running header and footer', () => {
    expect(doc.strippedLines).toEqual(expect.arrayContaining(['Rescorla Standards Track [Page 1]', 'RFC 8446 TLS August 2018']));
    for (const s of sections) {
      expect(s.text).not.toMatch(/Rescorla\s+Standards Track\s+\[Page \d+\]/u);
      expect(s.text).not.toContain('RFC 8446 TLS August 2018');
    }
  });
});

describe.skipIf(!legal.present)('NIST SP 800-63B', () => {
  let sections: Section[];
  beforeAll(async () => {
    ({ sections } = await load(path.join(legal.path, 'NIST.SP.800-63b.pdf')));
  });

  it('is well formed', () => expectWellFormed(sections));

  it('gets numbered sections, and its table of contents creates no duplicates', () => {
    const numbered = sections.filter((s) => /^\d+(?:\.\d+)* /u.test(s.title));
    expect(numbered.length).toBeGreaterThan(70);
    expect(new Set(numbered.map((s) => s.title)).size).toBe(numbered.length);
    expect(numbered[0]).toMatchObject({ title: '1 Purpose', level: 1 });
    expect(numbered[0]?.pageStart).toBeGreaterThan(8); // after the TOC, not in it
    expect(sections.find((s) => s.title === '5.1.1.2 Memorized Secret Verifiers')?.path).toEqual([
      '5 Authenticator and Verifier Requirements',
      '5.1.1 Memorized Secrets',
      '5.1.1.2 Memorized Secret Verifiers',
    ]);
    expect(sections.find((s) => s.title === 'Appendix A—Strength of Memorized Secrets')?.level).toBe(1);
    // The TOC itself: its dot-leader lines are kept as text, in Contents sections only.
    for (const s of sections.filter((x) => x.source !== 'toc')) expect(s.text).not.toMatch(/\.{10,}\s*\d+/u);
    expect(sections.some((s) => s.source === 'toc' && /\.{10,}\s*\d+/u.test(s.text))).toBe(true);
  });
});

const robustness = sharedPath('pdfs', 'robustness');

describe.skipIf(!robustness.present)('sectionize over the robustness corpus', () => {
  const files = robustness.present ? readdirSync(robustness.path).filter((f) => f.endsWith('.pdf')) : [];

  it.each(files)('%s: never throws, never leaves an empty leaf', async (file) => {
    let doc: ExtractedDocument;
    try {
      doc = await extractStage({ bytes: new Uint8Array(readFileSync(path.join(robustness.path, file))) }, LIMITS);
    } catch {
      return; // failing files are covered by extract-robustness.test.ts
    }
    // (Its speed, linear in the lines, is measured by npm run bench, not here.)
    const sections = sectionizeStage(doc);
    expectWellFormed(sections);
    expect(sections.length).toBeGreaterThan(0);
  });

  it('gives the 352-page book its outline structure', async () => {
    const { sections } = await load(path.join(robustness.path, 'freeculture.pdf'));
    expect(sections.find((s) => s.title === 'CHAPTER ONE: Creators')).toMatchObject({ source: 'outline', path: ['“PIRACY”', 'CHAPTER ONE: Creators'] });
    expect(sections.at(-1)?.title).toBe('INDEX');
  });
});
