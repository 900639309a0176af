/**
 * Structures of standards, guides, frameworks and Korean company rules that lost text or
 * structure, each printed as a small generated PDF and run through the real extract, sectionize
 * and chunk stages: numbered requirements quoted again in an appendix table, checklists and
 * question lists, numbered list items (some closing pages alike), article numbers the text
 * layer puts after their words, and framework tables whose function cells come after their
 * first rows. Every case checks the structure and both invariants: coverage (every printed body
 * line in a chunk) and page truth (a chunk's pages are those of its first and last lines).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { buildLines, type RawTextItem } from '../../shared/pdf/line-builder.ts';
import { matchHeading } from '../../shared/sectionize/heading-patterns.ts';
import { flattenLines, lineInventory } from '../../shared/sectionize/flat-lines.ts';
import { chunkStageWithCoverage } from '../../workers/chunk/chunk.stage.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { buildPdf, type TextRun } from '../fixtures/pdf-builders.ts';
import { mixedFontPdf, type MixedLine } from '../fixtures/mixed-font-pdf.ts';

const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };
const counter = createCl100kCounter();

/** A line of text, or a table row whose cells are drawn cell by cell or line by line across them. */
type Block = string | { text: string; size?: number; x?: number; gap?: number } | { cells: Array<{ x: number; lines: string[] }>; size?: number; gap?: number; across?: boolean };
const PAGE_BREAK = '\f';

/** Lays blocks out top to bottom on A4 pages (landscape with `wide`), a new page when full or at PAGE_BREAK. */
async function layoutPdf(blocks: readonly Block[], options: { footer?: string; wide?: boolean } = {}): Promise<Uint8Array> {
  const [width, height] = options.wide ? [842, 595] : [595, 842];
  const top = height - 60;
  const pages: TextRun[][] = [[]];
  let y = top;
  for (const b of blocks) {
    if (b === PAGE_BREAK) {
      pages.push([]);
      y = top;
      continue;
    }
    const o = typeof b === 'string' ? { text: b } : b;
    const size = o.size ?? 10;
    const pitch = size * 1.35;
    const rows = 'cells' in o ? Math.max(...o.cells.map((c) => c.lines.length)) : 1;
    y -= o.gap ?? 0;
    if (y - rows * pitch < 60) {
      pages.push([]);
      y = top;
    }
    const page = pages[pages.length - 1] as TextRun[];
    if ('cells' in o) {
      const at = (c: { x: number; lines: string[] }, k: number): void => {
        const text = c.lines[k];
        if (text) page.push({ text, x: c.x, y: y - k * pitch, size });
      };
      if (o.across) for (let k = 0; k < rows; k++) for (const c of o.cells) at(c, k);
      else for (const c of o.cells) c.lines.forEach((_, k) => at(c, k));
    } else {
      page.push({ text: o.text, x: o.x ?? 72, y, size });
    }
    y -= rows * pitch;
  }
  const footer = options.footer;
  return buildPdf({
    pages: pages.map((runs, p) => ({ runs: footer ? [...runs, { text: footer.replace('#', String(p + 1)), x: 72, y: 30, size: 8 }] : runs, width, height })),
  });
}

interface Ingested {
  doc: ExtractedDocument;
  sections: Section[];
  bodies: string[];
}

/**
 * Extract, sectionize and chunk; then the invariants: every span of a section is on its line's
 * page and, outside heading lines (whose span holds what the heading leaves of them), is exactly
 * that line; coverage is complete; each chunk's pages are its first and last lines' pages.
 */
async function ingest(bytes: Uint8Array): Promise<Ingested> {
  const doc = await extractStage({ bytes }, LIMITS);
  const sections = sectionizeStage(doc);
  const flat = flattenLines(doc);
  for (const s of sections) {
    expect(Section.parse(s)).toEqual(s);
    expect(s.path[s.level - 1]).toBe(s.title);
    for (const [start, end, page, line] of s.spans ?? []) {
      if (!s.headingLines?.includes(line)) expect(s.text.slice(start, end)).toBe(flat[line]?.text.trim());
      expect(page).toBe(flat[line]?.page);
    }
  }
  const { chunks, spans, coverage } = chunkStageWithCoverage({ docId: 'd', version: 'v', docType: 'unknown', sections, inventory: lineInventory(doc) }, DEFAULT_CHUNK_POLICIES, counter);
  expect(coverage?.unindexed).toEqual([]);
  expect(coverage?.ratio).toBe(1);
  chunks.forEach((c, k) => {
    const pages = (spans[k] ?? []).map((sp) => flat[sp[3]]?.page ?? 0);
    if (pages.length === 0) return;
    expect(c.page_start, `chunk ${k}`).toBe(Math.min(...pages));
    expect(c.page_end, `chunk ${k}`).toBe(Math.max(...pages));
  });
  return { doc, sections, bodies: chunks.map((c) => c.body) };
}

const find = (sections: readonly Section[], prefix: string): Section | undefined => sections.find((s) => s.title.startsWith(prefix));
const PARA = 'Organizations determine the content and the frequency of these activities and record the results in the security plan.';

// A standard's requirements: sentences numbered under their family, some stacked, some discussed.
const FAMILIES: Array<[string, string[]]> = [
  ['ACCESS CONTROL', ['Limit system access to authorized users, processes acting on behalf of authorized users, and devices (including other systems).', 'Limit system access to the types of transactions and functions that authorized users are permitted to execute.', 'Control the flow of controlled information in accordance with approved authorizations.']],
  ['AWARENESS AND TRAINING', ['Ensure that managers, systems administrators, and users are made aware of the security risks associated with their activities.', 'Ensure that personnel are trained to carry out their assigned security-related duties and responsibilities.', 'Provide awareness training on recognizing and reporting potential indicators of insider threat.']],
  ['SECURITY ASSESSMENT', ['Periodically assess the security controls in organizational systems to determine if the controls are effective in their application.', 'Develop and implement plans of action designed to correct deficiencies and reduce or eliminate vulnerabilities.', 'Monitor security controls on an ongoing basis to ensure the continued effectiveness of the controls.']],
  ['SYSTEM AND INFORMATION INTEGRITY', ['Identify, report, and correct system flaws in a timely manner.', 'Provide protection from malicious code at designated locations within organizational systems.', 'Monitor system security alerts and advisories and take action in response.']],
];

/** Words of `text` wrapped at `width` characters. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && `${line} ${word}`.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...out, line] : out;
}

/** The chapter of requirements: family headings, stacked basic requirements, derived ones with a discussion. */
function requirementChapter(): Block[] {
  const blocks: Block[] = [{ text: '3 The Requirements', size: 14, gap: 10 }, PARA];
  FAMILIES.forEach(([name, reqs], f) => {
    blocks.push({ text: `3.${f + 1} ${name}`, size: 12, gap: 8 }, 'Basic Security Requirements');
    reqs.forEach((req, r) => {
      if (r === 2) blocks.push('Derived Security Requirements');
      wrap(`3.${f + 1}.${r + 1} ${req}`, 95).forEach((text, i) => blocks.push(i === 0 ? { text, gap: 4 } : text));
      if (r >= 1) blocks.push({ text: 'DISCUSSION', size: 9, gap: 2 }, ...wrap(PARA, 105).map((text) => ({ text, size: 9 })));
    });
  });
  return blocks;
}

/** A mapping table quoting every requirement in a narrow cell beside its controls, in a smaller font. */
function mappingTable(across: boolean): Block[] {
  return FAMILIES.flatMap(([name, reqs], f): Block[] => [
    { text: `Table D-${f + 1}: Mapping ${name.toLowerCase()} requirements to controls`, size: 9, gap: 8 },
    ...reqs.map((req, r): Block => ({ size: 8, gap: 3, across, cells: [{ x: 72, lines: wrap(`3.${f + 1}.${r + 1} ${req}`, 55) }, { x: 340, lines: [`AC-${r + 2} Account Management`, `AC-${r + 6} Least Privilege`] }] })),
  ]);
}

describe('numbered requirements quoted again in an appendix table', () => {
  const front: Block[] = [{ text: 'Protecting Controlled Information in Systems', size: 16 }, { text: '1 Introduction', size: 14, gap: 10 }, PARA, PARA, { text: '2 The Fundamentals', size: 14, gap: 10 }, PARA];

  for (const across of [false, true]) {
    it(`keeps the requirements under their families, not the table's copies (cells drawn ${across ? 'line by line' : 'cell by cell'})`, async () => {
      // The appendix's title is no heading any pattern knows: nothing separates the copies from the
      // text. A stray higher number early on ("5.1 …" announcing a later chapter) must not matter.
      const stray: Block[] = [{ text: '5.1 Planned Revisions of This Publication', gap: 4 }, PARA];
      const { sections, bodies } = await ingest(await layoutPdf([...front, ...stray, ...requirementChapter(), PAGE_BREAK, { text: 'MAPPING TABLES', size: 14 }, 'The tables map each requirement to the relevant controls.', ...mappingTable(across)]));
      const tablePage = Math.max(...sections.map((s) => s.pageEnd));
      FAMILIES.forEach(([name, reqs], f) => {
        expect(find(sections, `3.${f + 1} `)?.path).toEqual(['3 The Requirements', `3.${f + 1} ${name}`]);
        reqs.forEach((req, r) => {
          const section = find(sections, `3.${f + 1}.${r + 1} `);
          expect(section?.title).toBe(`3.${f + 1}.${r + 1} ${req}`);
          expect(section?.path.slice(0, 2)).toEqual(['3 The Requirements', `3.${f + 1} ${name}`]);
          expect(section?.pageStart).toBeLessThan(tablePage);
        });
      });
      // The copies are text: of the last requirement, since the appendix has no heading of its own.
      expect(bodies.join('\n')).toContain('AC-2 Account Management');
    });
  }

  it('takes the requirements, not a summary table that quotes them before the text', async () => {
    const summary: Block[] = ['Table 1 summarises the requirements of chapter 3.', ...mappingTable(false)];
    const { sections } = await ingest(await layoutPdf([...front.slice(0, 4), ...summary, PAGE_BREAK, ...front.slice(4), ...requirementChapter()]));
    for (const [f, [name, reqs]] of FAMILIES.entries()) {
      for (const r of reqs.keys()) expect(find(sections, `3.${f + 1}.${r + 1} `)?.path.slice(0, 2)).toEqual(['3 The Requirements', `3.${f + 1} ${name}`]);
    }
    expect(find(sections, '1 Introduction')?.text).toContain('Table 1 summarises');
  });

  it('never reads stacked one-line requirements as a table of contents, though the appendix repeats them', async () => {
    const reqs = ['Limit system access to authorized users.', 'Limit access to permitted transactions.', 'Control the flow of controlled information.', 'Separate the duties of individuals.', 'Employ the principle of least privilege.', 'Use non-privileged accounts for other functions.', 'Prevent non-privileged users from executing privileged functions.'];
    const blocks: Block[] = ['1 Introduction', PARA, PARA, '2 Scope', PARA, PARA, '3 Requirements', PARA, '3.1 Access Control', PARA, ...reqs.map((r, k) => `3.1.${k + 1} ${r}`), '3.2 Awareness and Training', PARA, '3.2.1 Ensure that users are made aware of risks.', PARA];
    const appendix: Block[] = [PAGE_BREAK, 'Appendix A Requirement Summary', 'This table repeats the requirements for quick reference.', ...reqs.map((r, k) => ({ text: `3.1.${k + 1} ${r}`, size: 8 }))];
    const { sections } = await ingest(await layoutPdf([...blocks, ...appendix]));
    expect(sections.some((s) => s.source === 'toc')).toBe(false);
    expect(sections.filter((s) => /^3\.1\.\d /u.test(s.title)).map((s) => s.path.slice(0, 2))).toEqual(reqs.map(() => ['3 Requirements', '3.1 Access Control']));
    expect(find(sections, '3.2.1 ')?.path).toEqual(['3 Requirements', '3.2 Awareness and Training', '3.2.1 Ensure that users are made aware of risks.']);
    expect(find(sections, 'Appendix A')?.text).toContain('3.1.4 Separate the duties of individuals.');
  });
});

describe('checklists and question lists', () => {
  const B = 'Incident response teams record what they observe and what they decide, so that later reviews can rely on those records.';
  const h1 = (text: string): Block => ({ text, size: 14, gap: 8 });
  const h2 = (text: string): Block => ({ text, size: 12, gap: 4 });
  const cell = (text: string, x = 90): Block => ({ text, size: 9, x });
  const CHECKLIST = [
    '1. Determine whether an incident has occurred',
    '1.1 Analyze the precursors and indicators',
    '1.2 Look for correlating information',
    '2. Prioritize handling the incident based on the relevant factors',
    '3. Report the incident to the appropriate internal personnel',
    'Containment, Eradication, and Recovery',
    '4. Acquire, preserve, secure, and document evidence',
    '5. Contain the incident',
    '6. Eradicate the incident',
    '6.1 Identify and mitigate all vulnerabilities that were exploited',
    '7. Recover from the incident',
    '8. Create a follow-up report',
    '9. Hold a lessons learned meeting',
  ];
  const QUESTIONS = [
    'Preparation:',
    '1. Would the organization consider this activity to be an incident?',
    '2. What measures are in place to prevent this type of incident?',
    'Detection and Analysis:',
    '1. What precursors of the incident might the organization detect?',
    '2. What indicators of the incident might the organization detect?',
    '3. What additional tools might be needed to detect this incident?',
    'General Questions:',
    '1. How many team members would participate?',
    '2. Which groups would be notified?',
    '3. What communications with outside parties would occur?',
    '4. What tools and resources would the team use?',
    '5. Which aspects of the handling would have been different?',
    '6. Who would lead the handling?',
  ];
  const FOLLOW_UP = ['Q1. Was the incident contained in time?', 'Q2. Which controls failed?', 'Q3. Who reviews the report?', 'Q4. When is the next exercise?'];
  const GUIDE: Block[] = [
    { text: 'Computer Security Incident Handling Guide', size: 16 },
    h1('1. Introduction'), B, B, h2('1.1 Authority'), B, h2('1.2 Purpose and Scope'), B,
    h1('2. Organizing a Response Capability'), B, h2('2.1 Events and Incidents'), B, B,
    h1('3. Handling an Incident'), B, h2('3.1 Preparation'), B, B, h2('3.2 Detection and Analysis'), B, B,
    h2('3.3 Incident Handling Checklist'), 'The checklist in Table 3-5 gives the major steps to be performed in the handling of an incident.',
    cell('Table 3-5. Incident Handling Checklist', 72), cell('Detection and Analysis', 72),
    ...CHECKLIST.map((t) => cell(t, /^\d\.\d/u.test(t) ? 100 : /^\d/u.test(t) ? 90 : 72)),
    h2('3.4 Recommendations'), B, B,
    h1('4. Coordination and Information Sharing'), B, h2('4.1 Coordination'), B, 'Before sharing, the team answers these questions:', 'Q1. Who owns the information to be shared?', 'Q2. Which parties may receive it?', 'Q3. Is the information sensitive?', B,
    h2('4.2 Information Sharing Techniques'), B, B,
    PAGE_BREAK,
    h1('Appendix A. Incident Handling Scenarios'), B, h2('A.1 Scenario Questions'), ...QUESTIONS, h2('A.2 Scenarios'), 'Scenario 1: Domain Name System (DNS) Server Denial of Service', B, B,
    h2('A.3 Follow-up Questions'), ...FOLLOW_UP, B,
  ];

  it('keeps a checklist, the questions of a scenario and a Q-list as text of their sections, and the outline whole', async () => {
    const { sections, bodies } = await ingest(await layoutPdf(GUIDE, { footer: 'Page #' }));
    expect(sections.filter((s) => s.level === 1 && s.source === 'pattern').map((s) => s.title)).toEqual([
      '1. Introduction',
      '2. Organizing a Response Capability',
      '3. Handling an Incident',
      '4. Coordination and Information Sharing',
      'Appendix A. Incident Handling Scenarios',
    ]);
    expect(find(sections, '3.4 ')?.path).toEqual(['3. Handling an Incident', '3.4 Recommendations']);
    expect(find(sections, '4.2 ')?.path).toEqual(['4. Coordination and Information Sharing', '4.2 Information Sharing Techniques']);
    // No item became a heading, and each list is text of the section that prints it.
    const items = [...CHECKLIST, ...QUESTIONS].filter((t) => /^\d/u.test(t));
    for (const item of items) expect(sections.some((s) => s.title === item)).toBe(false);
    expect(sections.some((s) => s.source === 'toc')).toBe(false);
    const checklist = find(sections, '3.3 ')?.text ?? '';
    for (const item of CHECKLIST) expect(checklist).toContain(item);
    const questions = find(sections, 'A.1 ')?.text ?? '';
    for (const q of QUESTIONS) expect(questions).toContain(q);
    expect(find(sections, '4.1 ')?.text).toMatch(/Q1\. Who owns the information to be shared\?\nQ2\. Which parties may receive it\?\nQ3\. Is the information sensitive\?/u);
    // Questions without answers after an appendix are a questionnaire, not an FAQ's sections.
    expect(sections.some((s) => s.title.startsWith('Q'))).toBe(false);
    expect(find(sections, 'A.3 ')?.text).toContain(FOLLOW_UP.join('\n'));
    expect(bodies.some((b) => b.includes('9. Hold a lessons learned meeting'))).toBe(true);
  });

  it('still makes numbered questions with answers (an FAQ) sections of their own', async () => {
    const faq: Block[] = ['1 Purpose', B, B, '2 Eligibility', B, B, PAGE_BREAK, 'Appendix A. Frequently Asked Questions', '1. Who is eligible for parental leave?', 'Every employee with six months of service.', '2. Can leave be split into several periods?', 'Yes, into at most three periods.', '3. Is leave paid?', 'The first twelve weeks are paid in full.'];
    const { sections } = await ingest(await layoutPdf(faq));
    expect(find(sections, '2. Can leave')?.path).toEqual(['Appendix A. Frequently Asked Questions', '2. Can leave be split into several periods?']);
  });
});

describe('numbered list items', () => {
  // The last item of several lists, numbered differently, ends several pages at the same height.
  const CATCH_ALL = (n: number): MixedLine => ({ text: `${n}. 그 밖에 대표이사가 필요하다고 인정하는 사항` });
  const S = (text: string): MixedLine => ({ text, split: true });
  const P = (text: string): MixedLine => ({ text });
  const RULES: MixedLine[][] = [
    [P('주식회사 한빛 취업규칙'), S('제1장 총칙'), S('제1조(목적)'), P('이 규칙은 회사 직원의 근로조건과 복무에 관한 사항을 정함을 목적으로 한다.'), S('제2조(정의)'), P('이 규칙에서 사용하는 용어의 뜻은 다음과 같다.'), P('1. “직원”이란 회사와 근로계약을 체결한 사람을 말한다.'), P('2. “부서장”이란 부서의 업무를 총괄하는 사람을 말한다.'), S('제3조(적용범위)'), P('이 규칙은 회사의 모든 직원에게 적용한다.'), S('제4조(준수의무)'), P('직원은 다음 각 호의 사항을 준수하여야 한다.'), P('1. 법령과 회사의 규칙'), P('2. 부서장의 정당한 업무상 지시'), P('3. 회사의 보안 지침'), CATCH_ALL(4)],
    [S('제2장 인사'), S('제5조(채용)'), P('① 직원의 채용은 공개경쟁을 원칙으로 한다.'), P('② 채용에 필요한 서류는 다음 각 호와 같다.'), P('1. 이력서'), P('2. 자기소개서'), CATCH_ALL(3), S('제6조(수습기간)'), P('신규 채용된 직원에게는 3개월의 수습기간을 둔다.'), S('제7조(인사위원회)'), P('인사에 관한 사항을 심의하기 위하여 인사위원회를 둔다.'), S('제8조(위원회의 기능)'), P('위원회는 다음 각 호의 사항을 심의한다.'), P('1. 직원의 승진에 관한 사항'), P('2. 직원의 징계에 관한 사항'), CATCH_ALL(5)],
    [S('제9조(휴직)'), P('직원은 다음 각 호의 어느 하나에 해당하는 경우 휴직할 수 있다.'), P('가. 질병으로 장기 요양이 필요한 경우'), P('나. 병역 의무를 이행하는 경우'), S('제3장 복무'), S('제10조(근무시간)'), P('근무시간은 1일 8시간, 1주 40시간으로 한다.'), S('제11조(출장)'), P('출장은 부서장의 승인을 받아야 한다.'), S('제12조(보고)'), P('직원은 다음 각 호의 사항을 부서장에게 보고하여야 한다.'), P('1. 업무 진행 상황'), P('2. 업무상 사고'), P('3. 고객의 민원'), P('4. 보안 사고'), CATCH_ALL(2)],
    [S('제13조(시행)'), P('이 규칙은 2024년 1월 1일부터 시행한다.'), P('(1) 이 규칙 시행 전의 처분은 이 규칙에 따른 것으로 본다.'), P('(2) 종전의 규정은 폐지한다.'), P('1) 공고는 사내 게시판에 한다.'), P('2) 공고 기간은 7일 이상으로 한다.'), P('가. 전자 게시판'), P('나. 서면 게시'), P('다. 전자우편'), P('이상의 사항 외에는 관계 법령에 따른다.'), P('부칙은 별도로 정한다.'), P('다음 각 호의 사항은 대표이사가 정한다.'), P('1. 세부 운영 기준'), P('2. 서식의 제정과 개정'), P('3. 위원회의 운영 방법'), CATCH_ALL(4)],
  ];

  it('keeps every item of a Korean rule as text of its article, even the one that ends several pages alike', async () => {
    const { doc, sections } = await ingest(mixedFontPdf(RULES));
    // Numbers that change without following the pages are no page numbers: nothing is running text.
    expect(doc.runningChars).toBe(0);
    expect(doc.strippedLines).toEqual([]);
    expect(sections.some((s) => s.source === 'toc')).toBe(false);
    const article = (title: string): string => sections.find((s) => s.title === title)?.text ?? '';
    expect(article('제4조(준수의무)')).toMatch(/1\. 법령과 회사의 규칙\n2\. 부서장의 정당한 업무상 지시\n3\. 회사의 보안 지침\n4\. 그 밖에 대표이사가 필요하다고 인정하는 사항$/u);
    expect(article('제5조(채용)')).toContain('3. 그 밖에 대표이사가 필요하다고 인정하는 사항');
    expect(article('제8조(위원회의 기능)')).toMatch(/5\. 그 밖에 대표이사가 필요하다고 인정하는 사항$/u);
    expect(article('제9조(휴직)')).toContain('나. 병역 의무를 이행하는 경우');
    expect(article('제13조(시행)')).toMatch(/^이 규칙은 2024년 1월 1일부터 시행한다\.\n\(1\) .*\n\(2\) .*\n1\) .*\n2\) .*\n가\. 전자 게시판\n나\. 서면 게시\n다\. 전자우편/u);
  });

  it('keeps stacked title-like items of a policy in their section, not as a table of contents or headings', async () => {
    const BODY = 'Employees request leave through the portal and their manager approves it within five working days.';
    const types = ['1. Annual Leave', '2. Sick Leave', '3. Parental Leave', '4. Bereavement Leave', '5. Study Leave', '6. Unpaid Leave', '7. Public Holidays'];
    const steps = ['1. Submit the request form', '2. Obtain the approval', '3. Record the leave', '4. Notify the team', '5. Update the calendar', '6. Confirm the return'];
    const blocks: Block[] = [{ text: '1 Purpose', size: 13 }, BODY, BODY, { text: '2 Leave Types', size: 13 }, 'The policy recognises these types of leave:', ...types, BODY, { text: '3 Procedure', size: 13 }, 'Every request goes through these steps:', ...steps, BODY, { text: '4 Records', size: 13 }, BODY, BODY];
    const { sections } = await ingest(await layoutPdf(blocks, { footer: 'Leave Policy - page #' }));
    expect(sections.map((s) => s.title)).toEqual(['1 Purpose', '2 Leave Types', '3 Procedure', '4 Records']);
    expect(find(sections, '2 ')?.text).toContain(types.join('\n'));
    expect(find(sections, '3 ')?.text).toContain(steps.join('\n'));
  });
});

/** A pdf.js text item of `width` points at (x, y), 12 pt. */
function textItem(str: string, x: number, width: number, y = 700): RawTextItem {
  return { str, transform: [12, 0, 0, 12, x, y], width, height: 12, hasEOL: false, dir: 'ltr' };
}

describe('Korean article numbers the text layer puts after their words', () => {
  it('places runs drawn into the gaps of an earlier run, and nothing else', () => {
    // "제 조 목적" drawn with gaps, then "1", "(" and ")" in a Latin font: pdf.js reports them in that order.
    const korean = [textItem('제 조 목적', 72, 58.67), textItem('1', 84, 6.67), textItem('(', 102.7, 4), textItem(')', 130.7, 4)];
    expect(buildLines(korean).map((l) => l.text)).toEqual(['제1조(목적)']);
    // An accent drawn back over the run's last letter, or a stamp over its words, is no character of a gap.
    const accent = [textItem('as the na\u00a8', 72, 60), textItem('\u0131ve version.', 129, 50)];
    expect(buildLines(accent).map((l) => l.text)).toEqual(['as the naïve version.']);
    const stamp = [textItem('Used for positive feedback or approvals.', 72, 200), textItem('A3', 150, 12)];
    expect(buildLines(stamp).map((l) => l.text)).toEqual(['Used for positive feedback or approvals.A3']);
  });

  it('reads "제 조 목적1" and "제 장 총칙1" as the article and chapter they print', () => {
    expect(matchHeading('제 조 목적1')).toMatchObject({ kind: 'ko-article', seq: [1, 0], title: '제1조(목적)', rest: '' });
    expect(matchHeading('제 조(정의)2 이 규칙에서 사용하는 용어의 뜻은 다음과 같다.')).toMatchObject({ title: '제2조(정의)', rest: '이 규칙에서 사용하는 용어의 뜻은 다음과 같다.' });
    expect(matchHeading('제 조 적용 범위12 이 규칙은 모든 직원에게 적용한다.')).toMatchObject({ seq: [12, 0], title: '제12조(적용 범위)' });
    expect(matchHeading('제 조 이 규칙은 공포한 날부터 시행한다.15')).toMatchObject({ seq: [15, 0], title: '제15조', rest: '이 규칙은 공포한 날부터 시행한다.' });
    expect(matchHeading('제 장 총칙1')).toMatchObject({ kind: 'ko-chapter', seq: [1, 0], title: '제1장 총칙' });
    // A title printed without brackets is still the title; a reference or a deleted article is not one.
    expect(matchHeading('제4조 위원회의 구성')).toMatchObject({ title: '제4조(위원회의 구성)', rest: '' });
    expect(matchHeading('제35조 삭제')).toMatchObject({ title: '제35조', rest: '삭제' });
    expect(matchHeading('제 조 및 제 조에 따른 절차를 거친다.34')).toBeNull();
    expect(matchHeading('제 장에서 정한 바에 따른다.2')).toBeNull();
  });

  it('puts the digits back where they are printed, and files every article under its chapter', async () => {
    const S = (text: string): MixedLine => ({ text, split: true });
    const P = (text: string): MixedLine => ({ text });
    const body = (n: number): MixedLine => P(`이 조는 제${n}조의 사항을 정한다.`);
    const chapters: Array<[string, number[]]> = [['총칙', [1, 2, 3, 4]], ['인사', [5, 6, 7, 8, 9, 10, 11]], ['보수', [12, 13, 14]]];
    const names = ['목적', '정의', '적용범위', '준수의무', '채용', '수습', '배치', '승진', '전보', '휴직', '복직', '임금', '수당', '퇴직금'];
    const pages: MixedLine[][] = chapters.map(([name, articles], c) => [S(`제${c + 1}장 ${name}`), ...articles.flatMap((n) => [S(`제${n}조(${names[n - 1]})`), body(n)])]);
    const { doc, sections } = await ingest(mixedFontPdf(pages));
    // The text layer reads each split line as printed, brackets and all.
    expect(doc.pages[0]?.lines.slice(0, 3).map((l) => l.text)).toEqual(['제1장 총칙', '제1조(목적)', '이 조는 제1조의 사항을 정한다.']);
    const articles = sections.filter((s) => /^제\d+조/u.test(s.title));
    expect(articles.map((s) => s.title)).toEqual(names.map((name, k) => `제${k + 1}조(${name})`));
    for (const [c, [name, numbers]] of chapters.entries()) {
      for (const n of numbers) expect(sections.find((s) => s.title.startsWith(`제${n}조(`))?.path).toEqual([`제${c + 1}장 ${name}`, `제${n}조(${names[n - 1]})`]);
    }
    expect(sections.find((s) => s.title === '제10조(휴직)')?.text).toBe('이 조는 제10조의 사항을 정한다.');
  });
});

describe('framework tables whose first rows open the first functions', () => {
  type Row = { fn?: string[]; cat?: string[]; sub: string[]; ref: string };
  const ROWS: Row[] = [
    { fn: ['GOVERN (GV): The', 'organization’s risk strategy', 'is established and monitored'], cat: ['Organizational Context (GV.OC): The', 'circumstances of risk decisions', 'are understood'], sub: ['GV.OC-01: The organizational mission is', 'understood and informs risk management'], ref: 'CRI GV.OC-01' },
    { sub: ['GV.OC-02: Internal and external stakeholders', 'are understood'], ref: 'CRI GV.OC-02' },
    { cat: ['Risk Management Strategy (GV.RM):', 'Priorities and constraints are', 'established'], sub: ['GV.RM-01: Risk management objectives are', 'established and agreed to'], ref: 'CRI GV.RM-01' },
    { fn: ['IDENTIFY (ID): The', 'organization’s current risks', 'are understood'], cat: ['Asset Management (ID.AM): Assets', 'that enable the organization are', 'identified and managed'], sub: ['ID.AM-01: Inventories of hardware managed', 'by the organization are maintained'], ref: 'CRI ID.AM-01' },
    { sub: ['ID.AM-02: Inventories of software managed', 'by the organization are maintained'], ref: 'CRI ID.AM-02' },
    { cat: ['Risk Assessment (ID.RA): The', 'cybersecurity risk to the', 'organization is understood'], sub: ['ID.RA-01: Vulnerabilities in assets are', 'identified and recorded'], ref: 'CRI ID.RA-01' },
  ];
  const INTRO: TextRun[] = [
    { text: '1 Introduction', x: 40, y: 540, size: 14 },
    { text: 'The Core is a taxonomy of outcomes that help organizations manage their risks.', x: 40, y: 520, size: 10 },
    { text: '2 Using the Core', x: 40, y: 490, size: 14 },
    { text: 'Organizations select the outcomes that apply to them and record their priorities.', x: 40, y: 470, size: 10 },
  ];

  /**
   * The table as a producer draws it: `late` draws each function's cell after the page's rows
   * (where a cell spanning rows ends up), `across` draws every row line by line across its cells.
   */
  function corePdf(mode: 'late' | 'across'): Promise<Uint8Array> {
    const pitch = 11;
    const runs: TextRun[] = [
      { text: 'Appendix A. CSF Core', x: 40, y: 560, size: 14 },
      { text: 'This appendix lists the Functions, Categories and Subcategories of the Core.', x: 40, y: 540, size: 10 },
    ];
    const late: TextRun[] = [];
    let y = 515;
    for (const row of ROWS) {
      const cells: Array<[number, string[]]> = [[170, row.cat ?? []], [370, row.sub], [640, [row.ref]]];
      if (row.fn && mode === 'late') row.fn.forEach((text, k) => late.push({ text, x: 40, y: y - k * pitch, size: 9 }));
      else if (row.fn) cells.unshift([40, row.fn]);
      const height = Math.max(...cells.map(([, ls]) => ls.length), row.fn?.length ?? 0);
      const at = (x: number, ls: string[], k: number): void => {
        if (ls[k]) runs.push({ text: ls[k] as string, x, y: y - k * pitch, size: 9 });
      };
      // Line by line across the cells joins each row's first lines into one text line; cell by cell keeps them apart.
      if (mode === 'across') for (let k = 0; k < height; k++) for (const [x, ls] of cells) at(x, ls, k);
      else for (const [x, ls] of cells) ls.forEach((_, k) => at(x, ls, k));
      y -= height * pitch + 6;
    }
    return buildPdf({ pages: [{ runs: INTRO, width: 842, height: 595 }, { runs: [...runs, ...late], width: 842, height: 595 }] });
  }

  for (const mode of ['late', 'across'] as const) {
    it(`gives GOVERN and IDENTIFY their nodes over their categories (${mode === 'late' ? 'function cells drawn after the rows' : 'rows drawn line by line across the cells'})`, async () => {
      const { sections } = await ingest(await corePdf(mode));
      const paths = (code: string): string[] | undefined => find(sections, code)?.path.slice(0, 3);
      expect(paths('GV.OC-01')).toEqual(['Appendix A. CSF Core', 'GOVERN (GV)', 'Organizational Context (GV.OC)']);
      expect(paths('GV.OC-02')).toEqual(['Appendix A. CSF Core', 'GOVERN (GV)', 'Organizational Context (GV.OC)']);
      expect(paths('GV.RM-01')).toEqual(['Appendix A. CSF Core', 'GOVERN (GV)', 'Risk Management Strategy (GV.RM)']);
      expect(paths('ID.AM-01')).toEqual(['Appendix A. CSF Core', 'IDENTIFY (ID)', 'Asset Management (ID.AM)']);
      expect(paths('ID.RA-01')).toEqual(['Appendix A. CSF Core', 'IDENTIFY (ID)', 'Risk Assessment (ID.RA)']);
      expect(sections.filter((s) => s.title === 'GOVERN (GV)' || s.title === 'IDENTIFY (ID)')).toHaveLength(2);
    });
  }
});
