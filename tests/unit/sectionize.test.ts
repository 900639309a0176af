import { describe, expect, it } from 'vitest';
import type { ExtractedDocument, OutlineEntry } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { separator, wrapJoiner } from '../../shared/sectionize/body-text.ts';
import { roomLeft, wrapsAtWords } from '../../shared/sectionize/flat-lines.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { normaliseHeading } from '../../shared/sectionize/heading-normalise.ts';
import { matchHeading } from '../../shared/sectionize/heading-patterns.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';

/** A PDF of examples/docs, extracted and sectioned. */
async function sectionizedExample(file: string): Promise<{ sections: Section[] }> {
  const bytes = new Uint8Array(readFileSync(path.join(import.meta.dirname, '../../examples/docs', file)));
  return { sections: sectionizeStage(await extractStage({ bytes }, { maxBytes: 5_000_000, maxPages: 100 })) };
}

/** A line: its text, or text with a font size / indentation. "" leaves a blank line (paragraph gap). */
type L = string | { text: string; size?: number; x?: number };

function docOf(pages: L[][], extra: { outline?: OutlineEntry[] } = {}): ExtractedDocument {
  return {
    pageCount: pages.length,
    pages: pages.map((lines, p) => {
      let y = 780;
      const out = [];
      for (const l of lines) {
        if (l !== '') {
          const o = typeof l === 'string' ? { text: l } : l;
          out.push({ text: o.text, x: o.x ?? 72, y, fontSize: o.size ?? 10 });
        }
        y -= 14;
      }
      return { number: p + 1, width: 595, height: 842, lines: out };
    }),
    outline: extra.outline ?? [],
    info: { title: null, creationDate: null },
    strippedLines: [],
  };
}

function check(sections: Section[]): Section[] {
  sections.forEach((s, i) => {
    expect(Section.parse(s)).toEqual(s);
    expect(s.id).toBe(`s${i}`);
    expect(s.order).toBe(i);
    expect(s.path[s.path.length - 1]).toBe(s.title);
    expect(s.path).toHaveLength(s.level);
    const hasChild = (sections[i + 1]?.level ?? 0) > s.level;
    expect(s.text.trim() !== '' || hasChild, `empty leaf ${s.title}`).toBe(true);
  });
  return sections;
}

const titles = (sections: Section[]): string[] => sections.map((s) => s.title);
/** The sections headings made (a table of contents is kept as text, in sections of its own). */
const structure = (sections: Section[]): Section[] => sections.filter((s) => s.source !== 'toc');
const byTitle = (sections: Section[], title: string): Section | undefined => sections.find((s) => s.title === title);

describe('Korean statutes', () => {
  const statute = docOf([
    [
      '근로기준법',
      '[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]',
      '제1장 총칙',
      '제1조(목적)',
      '제2조(정의)',
      '제2조의2(적용)',
      '제2장 근로계약',
      '제3조(계약기간)',
      '제4조(근로조건)',
    ],
    [
      '근로기준법',
      '[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]',
      '',
      '제1장 총칙',
      '제1조(목적) 이 법은 헌법에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을',
      '보장한다.',
      '제2조(정의) ① 이 법에서 사용하는 용어의 뜻은 다음과 같다.',
      '1. “근로자”란 직업의 종류와 관계없이 임금을 목적으로 근로를 제공하는 사람을 말한다.',
      '2. 소정근로시간',
      '3. 제55조에 따른 휴일',
      '② 제1항제6호에 따라 산출된 금액이 통상임금보다 적으면 통상임금액을 평균임금으로 한다.',
      '제2조의2(적용) 이 조는 제50조에 따른 근로시간과 같은 법 제3조의 기준에 적용한다. 제2조제1항',
      '제50조에 따른 근로시간의 범위에서 정한다.',
      '제51조 및 제52조의 경우에도 같다.',
      '',
      '제2장 근로계약',
      '제3조(계약기간) 근로계약은 1년을 초과하지 못한다.',
      '제4조(근로조건) 사용자는 근로조건을 명시하여야 한다.',
      '제4조(근로조건) 사용자는 근로조건을 서면으로 명시하여야 한다. [시행일: 2025. 10. 23.]',
      '',
      '부칙 <제20520호, 2024. 10. 22.>',
      '제1조(시행일) 이 법은 공포 후 1년이 경과한 날부터 시행한다.',
      '제2조(적용례) 제37조의 개정규정은 이 법 시행 이후부터 적용한다.',
    ],
  ]);
  const sections = check(sectionizeStage(statute));

  it('nests articles under chapters, supplementary provisions on top', () => {
    expect(titles(structure(sections))).toEqual([
      'Preamble',
      '제1장 총칙',
      '제1조(목적)',
      '제2조(정의)',
      '제2조의2(적용)',
      '제2장 근로계약',
      '제3조(계약기간)',
      '제4조(근로조건)',
      '부칙 <제20520호, 2024. 10. 22.>',
      '제1조(시행일)',
      '제2조(적용례)',
    ]);
    expect(byTitle(sections, '제1조(목적)')).toMatchObject({ path: ['제1장 총칙', '제1조(목적)'], level: 2, heading: '목적', source: 'pattern' });
    expect(byTitle(sections, '제1장 총칙')).toMatchObject({ level: 1, heading: '총칙', text: '' });
    expect(byTitle(sections, '제2조의2(적용)')?.heading).toBe('적용');
    expect(byTitle(sections, '제1조(시행일)')?.path).toEqual(['부칙 <제20520호, 2024. 10. 22.>', '제1조(시행일)']);
    expect(byTitle(sections, '부칙 <제20520호, 2024. 10. 22.>')?.heading).toBe('부칙');
  });

  it('keeps the table of contents as a Contents section of its own, the title block as preamble', () => {
    const preamble = sections[0];
    expect(preamble).toMatchObject({ source: 'preamble', level: 1, pageStart: 1 });
    expect(preamble?.text).toContain('[시행 2025. 2. 23.]');
    expect(preamble?.text).not.toContain('제1조');
    expect(sections.filter((s) => s.title === '제1조(목적)')).toHaveLength(1);
    const contents = sections.filter((s) => s.source === 'toc');
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ title: 'Contents', path: ['Contents'], level: 1, headingLines: [] });
    expect(contents[0]?.text).toContain('제1조(목적)');
    expect(contents[0]?.text).toContain('제2장 근로계약');
  });

  it('keeps the article body, with its items and inline references, under the article', () => {
    expect(byTitle(sections, '제1조(목적)')?.text).toBe('이 법은 헌법에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을 보장한다.');
    const definitions = byTitle(sections, '제2조(정의)')?.text ?? '';
    expect(definitions.split('\n')).toEqual([
      '① 이 법에서 사용하는 용어의 뜻은 다음과 같다.',
      '1. “근로자”란 직업의 종류와 관계없이 임금을 목적으로 근로를 제공하는 사람을 말한다.',
      '2. 소정근로시간',
      '3. 제55조에 따른 휴일',
      '② 제1항제6호에 따라 산출된 금액이 통상임금보다 적으면 통상임금액을 평균임금으로 한다.',
    ]);
    const applied = byTitle(sections, '제2조의2(적용)')?.text ?? '';
    expect(applied).toContain('제50조에 따른 근로시간의 범위');
    expect(applied).toContain('제51조 및 제52조의 경우에도 같다.');
    expect(sections.some((s) => /^제5[012]조/.test(s.title))).toBe(false);
  });

  it('folds a second printed version of an article (another effective date) into the first', () => {
    expect(sections.filter((s) => s.title === '제4조(근로조건)')).toHaveLength(1);
    expect(byTitle(sections, '제4조(근로조건)')?.text).toMatch(/명시하여야 한다\.\n\n제4조\(근로조건\) 사용자는 근로조건을 서면으로/);
  });

  it('recognises statute markers and rejects references', () => {
    expect(matchHeading('제43조의2(체불사업주 명단 공개) ① 고용노동부장관은')).toMatchObject({ kind: 'ko-article', seq: [43, 2], title: '제43조의2(체불사업주 명단 공개)' });
    expect(matchHeading('제35조 삭제 <2019. 1. 15.>')).toMatchObject({ kind: 'ko-article', title: '제35조', rest: '삭제 <2019. 1. 15.>' });
    expect(matchHeading('제6장의2 직장 내 괴롭힘의 금지 <신설 2019. 1. 15.>')).toMatchObject({ kind: 'ko-chapter', seq: [6, 2] });
    expect(matchHeading('제1편 총칙')).toMatchObject({ kind: 'ko-part' });
    expect(matchHeading('제2절 통칙')).toMatchObject({ kind: 'ko-section' });
    expect(matchHeading('제3관 보칙')).toMatchObject({ kind: 'ko-subsection' });
    for (const ref of ['제50조에 따른 근로시간', '제2조제1항에 따라', '제51조 및 제52조의 경우', '제2장에 따른 계약', '제1장 총칙은 이 법의 일반 원칙을 정한다.']) {
      expect(matchHeading(ref), ref).toBeNull();
    }
  });
});

describe('numbered documents', () => {
  const doc = docOf([
    [
      'Protocol Specification',
      'Draft for discussion, not for implementation.',
      '',
      '1. Introduction',
      'This document describes the protocol in detail for implementers.',
      '',
      '1.1. Scope',
      'The scope covers clients and servers.',
      '',
      '1.1.1. Out of Scope',
      'Proxies are out of scope.',
      '',
      '2. Protocol',
      'The protocol has the following steps, which repeat until done:',
      '1. The client sends a hello message to the server and waits for its reply.',
      '2. The server answers.',
      'Dates such as',
      '2. 23.',
      'are not headings, and neither are page numbers:',
      '12',
    ],
    [
      '4.1.2.  Cookie Handling',
      'Cookies are opaque to the client.',
      '',
      '2.1 Messages',
      'Messages are framed.',
      '',
      'Appendix A. State Machine',
      'The client state machine follows.',
      '',
      'A.1. Client',
      'The client starts in START.',
    ],
  ]);
  const sections = check(sectionizeStage(doc));

  it('nests by the depth of the number and keeps the printed title', () => {
    expect(titles(sections)).toEqual([
      'Preamble',
      '1. Introduction',
      '1.1. Scope',
      '1.1.1. Out of Scope',
      '2. Protocol',
      '2.1 Messages',
      'Appendix A. State Machine',
      'A.1. Client',
    ]);
    expect(byTitle(sections, '1.1.1. Out of Scope')).toMatchObject({
      path: ['1. Introduction', '1.1. Scope', '1.1.1. Out of Scope'],
      level: 3,
      heading: 'out of scope',
    });
    expect(byTitle(sections, 'A.1. Client')).toMatchObject({ path: ['Appendix A. State Machine', 'A.1. Client'], level: 2, heading: 'client' });
    expect(byTitle(sections, 'Appendix A. State Machine')?.heading).toBe('state machine');
  });

  it('treats list items, dates, page numbers and an out-of-sequence number as body', () => {
    const protocol = byTitle(sections, '2. Protocol');
    expect(protocol?.text).toContain('1. The client sends a hello message');
    expect(protocol?.text).toContain('2. 23.');
    // "4.1.2." cannot follow "2." (it would skip 3 and 4): body of section 2, on page 2.
    expect(protocol?.text).toContain('Cookie Handling');
    expect(protocol).toMatchObject({ pageStart: 1, pageEnd: 2 });
  });

  it('recognises numbering shapes', () => {
    expect(matchHeading('4.1.2.  Client Hello')).toMatchObject({ kind: 'numbered', seq: [4, 1, 2] });
    expect(matchHeading('1 Purpose')).toMatchObject({ kind: 'numbered', seq: [1] });
    expect(matchHeading('IV. Results')).toMatchObject({ kind: 'roman', seq: [4] });
    expect(matchHeading('Appendix B — Data Structures')).toMatchObject({ kind: 'letter', seq: [2] });
    expect(matchHeading('B.3.1.1. Version Extension')).toMatchObject({ kind: 'letter', seq: [2, 3, 1, 1] });
    for (const no of ['2. 23.', '1.5 times faster than before', '12', '3. The server must reply with an error.', '1. Introduction ........ 5', '15 AC oui non']) {
      expect(matchHeading(no), no).toBeNull();
    }
  });

  it('uses roman numerals above decimal ones', () => {
    const roman = check(
      sectionizeStage(docOf([['I. Background', 'Some background text here.', '', '1. Details', 'Detail text.', '', 'II. Method', 'Method text.', '', '1. Setup', 'Setup text.']])),
    );
    expect(roman.map((s) => [s.title, s.level])).toEqual([
      ['I. Background', 1],
      ['1. Details', 2],
      ['II. Method', 1],
      ['1. Setup', 2],
    ]);
  });
});

describe('tables of contents', () => {
  it('drops a dot-leader TOC so headings are not duplicated as empty sections', () => {
    const doc = docOf([
      ['Table of Contents', '1 Purpose ........................ 1', '2 Introduction ................... 2', '2.1 Background ................. 2', '3 References ..................... 3'],
      ['1 Purpose', 'This section is informative.', '', '2 Introduction', 'Digital identity is hard.', '', '2.1 Background', 'History.', '', '3 References', '[1] A reference.'],
    ]);
    const sections = check(sectionizeStage(doc));
    expect(titles(structure(sections))).toEqual(['1 Purpose', '2 Introduction', '2.1 Background', '3 References']);
    expect(structure(sections).map((s) => s.pageStart)).toEqual([2, 2, 2, 2]);
    // The TOC is text, kept under its printed title: searchable, never headings.
    expect(sections[0]).toMatchObject({ title: 'Table of Contents', source: 'toc', pageStart: 1, pageEnd: 1 });
    expect(sections[0]?.text).toContain('2.1 Background ................. 2');
  });

  it('finds unnumbered top-level TOC entries again in the body', () => {
    const doc = docOf([
      ['1. Introduction ............ 1', '2. Design .................. 2', 'Contributors ............... 3', 'Table 1. Sizes ............. 2'],
      ['1. Introduction', 'Intro text.', '', '2. Design', 'Design text.', 'Table 1. Sizes', 'a b c', '', 'Contributors', 'Alice and Bob helped.'],
    ]);
    const sections = check(sectionizeStage(doc));
    expect(titles(structure(sections))).toEqual(['1. Introduction', '2. Design', 'Contributors']);
    expect(byTitle(sections, '2. Design')?.text).toContain('Table 1. Sizes');
  });
});

describe('outline, typography, density', () => {
  it('follows the outline when it covers the document, with its levels', () => {
    const doc = docOf(
      [
        ['Cover page text for the book, with enough words to count.'],
        ['INTRODUCTION', 'The book starts here.'],
        ['CHAPTER ONE: Creators', 'Creators create.', 'Film', 'Films are made.'],
        ['More about creators on another page.'],
      ],
      {
        outline: [
          { title: 'COVER', level: 1, page: 1 },
          { title: 'INTRODUCTION', level: 1, page: 2 },
          { title: 'Chapter 1: Creators', level: 2, page: 3 },
          { title: 'Film', level: 3, page: 3 },
          { title: '*get it', level: 1, page: null },
        ],
      },
    );
    const sections = check(sectionizeStage(doc));
    expect(sections.map((s) => [s.title, s.level, s.source])).toEqual([
      ['COVER', 1, 'outline'],
      ['INTRODUCTION', 1, 'outline'],
      ['CHAPTER ONE: Creators', 2, 'outline'],
      ['Film', 3, 'outline'],
    ]);
    expect(byTitle(sections, 'COVER')?.text).toContain('Cover page text');
    expect(byTitle(sections, 'Film')).toMatchObject({ path: ['INTRODUCTION', 'CHAPTER ONE: Creators', 'Film'], text: 'Films are made.\n\nMore about creators on another page.', pageEnd: 4 });
    expect(check(sectionizeStage(doc, { useOutline: false })).every((s) => s.source !== 'outline')).toBe(true);
  });

  it('falls back to typography: larger fonts and spaced ALL-CAPS lines', () => {
    const doc = docOf([
      [
        { text: 'Employee Handbook', size: 20 },
        'Welcome to the company handbook, read it all.',
        '',
        { text: 'Working Hours', size: 14 },
        'We work from nine to five on weekdays.',
        '',
        'OVERTIME',
        'Overtime needs approval from a manager.',
        '',
        { text: 'Leave', size: 14 },
        'Everyone gets twenty five days of leave a year.',
      ],
    ]);
    const sections = check(sectionizeStage(doc));
    expect(sections.map((s) => [s.title, s.level, s.source])).toEqual([
      ['Employee Handbook', 1, 'typography'],
      ['Working Hours', 2, 'typography'],
      ['OVERTIME', 3, 'typography'],
      ['Leave', 2, 'typography'],
    ]);
  });

  it('splits text without headings by size at paragraph boundaries', () => {
    const paragraph = (n: number): string[] => [`Paragraph ${n} opens with a sentence of reasonable length to fill the page,`, 'and goes on for a while longer with more words in it.', ''];
    const pages = [Array.from({ length: 40 }, (_, i) => paragraph(i)).flat(), Array.from({ length: 40 }, (_, i) => paragraph(40 + i)).flat()];
    const sections = check(sectionizeStage(docOf(pages)));
    expect(sections.length).toBeGreaterThanOrEqual(3);
    sections.forEach((s, i) => expect(s).toMatchObject({ title: `Part ${i + 1}`, heading: `part ${i + 1}`, source: 'density', level: 1 }));
    for (const s of sections.slice(0, -1)) {
      expect(s.text.length).toBeGreaterThanOrEqual(2000);
      expect(s.text.length).toBeLessThanOrEqual(3200);
      expect(s.text.endsWith('words in it.')).toBe(true);
    }
    const short = check(sectionizeStage(docOf([['Just one short note without any heading at all.']])));
    expect(short).toEqual([expect.objectContaining({ title: 'Part 1', text: 'Just one short note without any heading at all.' })]);
    expect(sectionizeStage(docOf([[]]))).toEqual([]);
  });
});

describe('section assembly', () => {
  it('never emits an empty leaf: a heading with no body becomes text of the section before', () => {
    const doc = docOf([['1. First', 'First body.', '', '2. Second', '3. Third', 'Third body.', '', '4. Last']]);
    const sections = check(sectionizeStage(doc));
    expect(titles(sections)).toEqual(['1. First', '3. Third']);
    expect(byTitle(sections, '1. First')?.text).toBe('First body.\n\n2. Second');
    expect(byTitle(sections, '3. Third')?.text).toBe('Third body.\n\n4. Last');
  });

  it('keeps text before the first heading as a preamble, however short (printed text is never dropped)', () => {
    const short = sectionizeStage(docOf([['Draft', '1. One', 'Body one.', '2. Two', 'Body two.']]));
    expect(titles(short)).toEqual(['Preamble', '1. One', '2. Two']);
    expect(short[0]?.text).toBe('Draft');
    const kept = sectionizeStage(docOf([['This report was prepared by the committee in 2024.', '1. One', 'Body one.', '2. Two', 'Body two.']]));
    expect(kept[0]).toMatchObject({ title: 'Preamble', heading: 'preamble', path: ['Preamble'], source: 'preamble' });
  });

  it('joins wrapped lines and keeps paragraph breaks', () => {
    const doc = docOf([['1. Text', 'A sentence that wraps', 'onto the next line.', '', 'A new paragraph.', '- a bullet item', '2. End', 'Done.']]);
    expect(sectionizeStage(doc)[0]?.text).toBe('A sentence that wraps onto the next line.\n\nA new paragraph.\n- a bullet item');
    expect(wrapJoiner('근로자에게 교부하는 계약을 체', '결된 계약')).toBe('');
    expect(wrapJoiner('사업주를 위하여 행위하는 자를', '말한다.')).toBe(' ');
    expect(wrapJoiner('知識庫', '簡介')).toBe('');
    // Known to fall between words (the line stopped short, or the document breaks only there).
    expect(wrapJoiner('조례로 정한다. 이 경우', '둘째 이상의 자녀에', true)).toBe(' ');
    expect(wrapJoiner('知識庫', '簡介', true)).toBe('');
  });

  it("measures each line's room before its column's edge, and tells a Korean setter that breaks between words", () => {
    const line = (x: number, width: number) => ({ x, width, fontSize: 10 });
    // Two columns: the left one's edge is its own (290), not the right column's (540).
    const room = roomLeft([line(50, 240), line(50, 225), line(300, 240), line(50, 100), line(50, 239)]);
    expect(room.map((r) => (r === undefined ? r : Math.round(r * 10) / 10))).toEqual([0, 1.5, 0, 14, 0.1]);
    expect(roomLeft([{ x: 50, fontSize: 10 }])).toEqual([undefined]);

    const flat = (text: string, r: number, i: number) => ({ index: i, text, x: 50, y: 700 - 12 * i, fontSize: 10, page: 1, gapBefore: i === 0 ? Infinity : 1, width: 200, room: r });
    const para = (rooms: number[]) => rooms.map((r, i) => flat(`출산장려금을 지급하는 경우${i}`.replace(/\d$/u, ''), r, i));
    // Broken anywhere: every line full to the edge but one.
    expect(wrapsAtWords(para([0.2, 0.5, 0.1, 0.9, 0.3, 0.4, 2, 0.2, 0.6, 0.1, 0.3]))).toBe(false);
    // Broken between words: the lines stop short by a word's width, often more than a syllable.
    expect(wrapsAtWords(para([2.1, 0.5, 3.4, 1.8, 0.3, 2.6, 0.2, 1.6, 0.4, 0.1, 0.3]))).toBe(true);
    // Too few lines to tell.
    expect(wrapsAtWords(para([2.1, 3.4, 1.8]))).toBe(false);
  });

  it("a table's rows the tables reader did not take stay lines of their own (examples/docs)", async () => {
    const { sections } = await sectionizedExample('ko-remote-work-guideline.pdf');
    const text = sections.find((s) => s.title === '9. 비용 지원')?.text ?? '';
    expect(text).toContain('\n재택근무 환경 조성비 50만원 최초 승인 시 1회, 영수증 제출\n통신비 월 3만원 매월 급여와 함께 지급\n');
  });

  it('a line stopping far short of its column’s edge was not wrapped: the next starts a line of its own', () => {
    const stats = { medianLength: 90, koreanWrapsAtWords: false };
    const flat = (text: string, room: number, i: number) => ({ index: i, text, x: 50, y: 700 - 12 * i, fontSize: 10, page: 1, gapBefore: 1, width: 200, room });
    // A cover block's lines, a run-in heading over its paragraph.
    expect(separator(flat('Larkspur Systems Europe B.V. - Legal and Compliance', 19, 0), flat('Effective date: March 1, 2024', 31, 1), stats)).toBe('\n');
    expect(separator(flat('Gross Margin', 60, 0), flat('Products gross margin decreased during the quarter.', 0, 1), stats)).toBe('\n');
    // A wrapped line stops short by less than the next word; a lower-case start continues.
    expect(separator(flat('The policy applies to records kept under the', 3, 0), flat('General Data Protection Regulation.', 0, 1), stats)).toBe(' ');
    expect(separator(flat('Records are sent to', 12, 0), flat('https://records.example/archive/2024/retention-schedule', 0, 1), stats)).toBe(' ');
    // An RFC set again in a proportional font keeps its plain-text breaks: a long line is wrapped however short it stops.
    expect(separator(flat('Section 4). An AEAD algorithm where N_MAX is less than 8 bytes', 14, 0), flat('MUST NOT be used with TLS.', 0, 1), stats)).toBe(' ');
    // A short line is wrapped when the next line's first word would not have fitted in its room.
    const next = { ...flat('TLSCiphertext.encrypted_record, the receiving implementation scans', 0, 1), width: 392 };
    expect(separator(flat('mechanism; upon successful decryption of a', 16, 0), next, stats)).toBe(' ');
  });

  it('runs set apart only after full stops are prose with two spaces after each sentence, not a row', () => {
    const stats = { medianLength: 70, koreanWrapsAtWords: false };
    const flat = (text: string, i: number, cells?: [number, number, string][]) => ({ index: i, text, x: 89, y: 700 - 12 * i, fontSize: 9.9, page: 1, gapBefore: 1, width: 410, room: 0, ...(cells ? { cells } : {}) });
    const prose = flat('octet. This non-zero octet is the content type of the message. This', 0, [[89, 36, 'octet.'], [136, 327, 'This non-zero octet is the content type of the message.'], [475, 24, 'This']]);
    expect(separator(prose, flat('padding scheme was selected because it allows padding of any', 1), stats)).toBe(' ');
    const row = flat('Unpaid extension (optional) 8 weeks', 0, [[89, 150, 'Unpaid extension (optional)'], [300, 40, '8 weeks']]);
    expect(separator(row, flat('Paid leave 16 weeks', 1), stats)).toBe('\n');
    // A list item's marker set apart from its text is no cell: the item wraps under its text, and
    // a capitalised line back at the marker ends the list.
    const item = flat('- "supported_versions" is REQUIRED for all ClientHello, ServerHello,', 0, [[89, 6, '-'], [107, 392, '"supported_versions" is REQUIRED for all ClientHello, ServerHello,']]);
    expect(separator(item, { ...flat('and HelloRetryRequest messages.', 1), x: 107 }, stats)).toBe(' ');
    const last = flat('- Server Name Indication ("server_name"; Section 3 of [RFC6066])', 0, [[89, 6, '-'], [107, 368, 'Server Name Indication ("server_name"; Section 3 of [RFC6066])']]);
    expect(separator(last, flat('All implementations MUST send and use these extensions when offering', 1), stats)).toBe('\n');
  });

  it('Korean set with lines broken between words keeps its word spaces (examples/docs)', async () => {
    const { sections } = await sectionizedExample('ko-childbirth-support-act.pdf');
    const text = sections.map((s) => s.text).join('\n');
    expect(text).toContain('이 경우 둘째 이상의 자녀에 대해서는');
    expect(text).toContain('3년마다 실태조사를');
    expect(text).not.toMatch(/경우둘째|알려야한다|수립하여야한다/u);
  });

  it('normalises headings', () => {
    expect(normaliseHeading('제1조(목적)')).toBe('목적');
    expect(normaliseHeading('제35조')).toBe('제35조');
    expect(normaliseHeading('제6장의2 직장 내 괴롭힘의 금지 <신설 2019. 1. 15.>')).toBe('직장 내 괴롭힘의 금지');
    expect(normaliseHeading('4.1.2.  Cookie')).toBe('cookie');
    expect(normaliseHeading('Appendix A—Strength of  Memorized Secrets')).toBe('strength of memorized secrets');
    expect(normaliseHeading('CHAPTER ONE: Creators')).toBe('creators');
    expect(normaliseHeading('IV. Results')).toBe('results');
    expect(normaliseHeading('4.')).toBe('4');
  });
});
