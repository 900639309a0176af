/**
 * Section structures of standards, frameworks, RFCs and Korean rules that a plain numbering
 * chain gets wrong: requirement lists (3.1.1 under family 3.1), identifier tables (NIST CSF
 * function → category → subcategory), appendix FAQs, deep RFC subsections under a flat
 * outline, and Korean rules with titled articles and chapters printed in varied ways.
 * Most cases run on lines; each structure is also checked once through a generated PDF.
 */
import { describe, expect, it } from 'vitest';
import type { ExtractedDocument, OutlineEntry } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { buildPdf, textPdf, type TextRun } from '../fixtures/pdf-builders.ts';
import { cjkCMapPdf } from '../fixtures/raw-pdf.ts';

type L = string | { text: string; size?: number };

function docOf(pages: L[][], outline: OutlineEntry[] = []): ExtractedDocument {
  return {
    pageCount: pages.length,
    pages: pages.map((lines, p) => {
      let y = 780;
      const out = [];
      for (const l of lines) {
        if (l !== '') {
          const o = typeof l === 'string' ? { text: l } : l;
          out.push({ text: o.text, x: 72, y, fontSize: o.size ?? 10 });
        }
        y -= 14;
      }
      return { number: p + 1, width: 595, height: 842, lines: out };
    }),
    outline,
    info: { title: null, creationDate: null },
    strippedLines: [],
  };
}

/** Structural invariants, then the sections. */
function wellFormed(sections: Section[]): Section[] {
  sections.forEach((s, i) => {
    expect(Section.parse(s)).toEqual(s);
    expect(s.path).toHaveLength(s.level);
    expect(s.path[s.level - 1]).toBe(s.title);
    const next = sections[i + 1];
    if (next) expect(next.level).toBeLessThanOrEqual(s.level + 1);
  });
  return sections;
}

const pathOf = (sections: Section[], prefix: string): string[] | undefined => sections.find((s) => s.title.startsWith(prefix))?.path;
const LIMITS = { maxBytes: 5_000_000, maxPages: 100 };
const BODY = 'The organization shall document the control and review it at least once a year.';

// NIST SP 800-171 style: requirements are sentences, numbered under their family.
const REQUIREMENTS: string[] = [
  '3 Requirements',
  'This chapter describes the security requirements for protecting the confidentiality of data.',
  '3.1 Access Control',
  'The requirements of this family limit access to systems and the data they hold.',
  '3.1.1 Limit system access to authorized users, processes acting on behalf of authorized users, and',
  'devices (including other systems).',
  'Discussion: access control policies control access between active entities and objects.',
  '3.1.2 Limit system access to the types of transactions that authorized users are permitted to execute.',
  'Discussion: organizations may choose to define access privileges by account or by type.',
  '3.1.3 Control the flow of controlled information in accordance with approved authorizations.',
  'Discussion: information flow control regulates where information can travel within a system.',
  '3.2 Awareness and Training',
  'The requirements of this family make staff aware of the risks of their activities.',
  '3.2.1 Ensure that managers, systems administrators, and users are made aware of security risks.',
  'Discussion: organizations determine the content of awareness training.',
  '3.2.2 Ensure that personnel are trained to carry out their assigned duties.',
  'Discussion: organizations determine the content and frequency of role-based training.',
];

describe('requirement lists', () => {
  it('makes each numbered requirement its own section under its family', () => {
    const sections = wellFormed(sectionizeStage(docOf([REQUIREMENTS])));
    expect(pathOf(sections, '3.1.1 ')).toEqual(['3 Requirements', '3.1 Access Control', expect.stringMatching(/^3\.1\.1 Limit system access .* \(including other systems\)\.$/u)]);
    expect(pathOf(sections, '3.1.3 ')?.slice(0, 2)).toEqual(['3 Requirements', '3.1 Access Control']);
    expect(pathOf(sections, '3.2.2 ')?.slice(0, 2)).toEqual(['3 Requirements', '3.2 Awareness and Training']);
    const family = sections.find((s) => s.title === '3.1 Access Control');
    expect(family?.text).toBe('The requirements of this family limit access to systems and the data they hold.');
    expect(sections.find((s) => s.title.startsWith('3.1.2 '))?.text).toMatch(/^Discussion: organizations may choose/u);
  });

  it('keeps a requirement without discussion as a section of its own (NIST SP 800-171 style)', () => {
    const lines = ['3 Requirements', BODY, '3.1 ACCESS CONTROL', 'Basic Security Requirements', '3.1.1 Limit system access to authorized users and devices.', '3.1.2 Limit system access to the types of transactions that users may execute.', 'DISCUSSION', 'Access control policies control access between active entities and objects.', 'Derived Security Requirements', '3.1.3 Control the flow of information in accordance with approved authorizations.', 'DISCUSSION', 'Flow control regulates where information can travel.'];
    const sections = wellFormed(sectionizeStage(docOf([lines])));
    expect(sections.filter((s) => s.level === 3).map((s) => s.title.slice(0, 5))).toEqual(['3.1.1', '3.1.2', '3.1.3']);
    expect(sections.find((s) => s.title.startsWith('3.1.1'))?.text).toBe('Limit system access to authorized users and devices.');
    expect(sections.find((s) => s.title.startsWith('3.1.2'))?.text).toMatch(/^DISCUSSION\s+Access control policies/u);
  });

  it('does so through a generated PDF as well', async () => {
    const doc = await extractStage({ bytes: await textPdf([REQUIREMENTS]) }, LIMITS);
    const sections = wellFormed(sectionizeStage(doc));
    expect(sections.filter((s) => /^3\.\d\.\d /u.test(s.title)).map((s) => s.level)).toEqual([3, 3, 3, 3, 3]);
  });

  it('makes requirements sections, but keeps a numbered line inside a paragraph as body text', () => {
    expect(sectionizeStage(docOf([REQUIREMENTS])).filter((s) => s.level === 3)).toHaveLength(5);
    const sections = sectionizeStage(
      docOf([['1 Scope', BODY, '2 Terms', BODY, '2.1 Roles', BODY, 'As noted in the previous edition, the review in', '2.1.5 is performed every year by the owner of the system.', BODY]]),
    );
    expect(sections.some((s) => s.title.startsWith('2.1.5'))).toBe(false);
  });
});

// NIST CSF 1.1 Framework Core: a table of functions, categories and subcategory identifiers.
const CSF: string[] = [
  'Appendix A: Framework Core',
  'This appendix presents the Framework Core: a set of activities, outcomes and references.',
  'IDENTIFY (ID)',
  'Asset Management (ID.AM): The data, personnel, devices, systems, and facilities are identified.',
  'ID.AM-1: Physical devices and systems within the organization are inventoried',
  'CIS CSC 1; COBIT 5 BAI09.01',
  'ID.AM-2: Software platforms and applications within the organization are inventoried',
  'CIS CSC 2; ISO/IEC 27001:2013 A.8.1.1',
  'Business Environment (ID.BE): The organization’s mission and objectives are understood.',
  'ID.BE-1: The organization’s role in the supply chain is identified and communicated',
  'COBIT 5 APO08.01',
  'PROTECT (PR)',
  'Identity Management, Authentication and Access Control (PR.AC): Access is limited to authorized users.',
  'PR.AC-1: Identities and credentials are issued, managed, verified, revoked, and audited',
  'CIS CSC 1, 5, 15, 16',
  'PR.AC-2: Physical access to assets is managed and protected',
  'NIST SP 800-53 Rev. 4 PE-2, PE-3',
];

describe('identifier tables (NIST CSF)', () => {
  it('builds function → category → subcategory sections', () => {
    const sections = wellFormed(sectionizeStage(docOf([['1 Introduction', BODY, '2 Framework Basics', BODY], CSF])));
    expect(pathOf(sections, 'ID.AM-2')).toEqual([
      'Appendix A: Framework Core',
      'IDENTIFY (ID)',
      'Asset Management (ID.AM)',
      'ID.AM-2: Software platforms and applications within the organization are inventoried',
    ]);
    expect(pathOf(sections, 'ID.BE-1')?.slice(1, 3)).toEqual(['IDENTIFY (ID)', 'Business Environment (ID.BE)']);
    expect(pathOf(sections, 'PR.AC-2')?.slice(1, 3)).toEqual(['PROTECT (PR)', 'Identity Management, Authentication and Access Control (PR.AC)']);
    expect(sections.find((s) => s.title === 'Asset Management (ID.AM)')?.text).toMatch(/^The data, personnel, devices/u);
    expect(sections.find((s) => s.title.startsWith('ID.AM-1'))?.text).toBe('CIS CSC 1; COBIT 5 BAI09.01');
  });

  it('does so through a generated PDF as well', async () => {
    const doc = await extractStage({ bytes: await textPdf([CSF]) }, LIMITS);
    const sections = wellFormed(sectionizeStage(doc));
    expect(sections.filter((s) => /^(?:ID|PR)\.[A-Z]{2}-\d/u.test(s.title))).toHaveLength(5);
    expect(pathOf(sections, 'PR.AC-1')?.slice(-3, -1)).toEqual(['PROTECT (PR)', 'Identity Management, Authentication and Access Control (PR.AC)']);
  });

  it('reads the table as printed: cells in columns, wrapped, function and category on one line', async () => {
    // Function | Category | Subcategory | References, each cell wrapped within its column.
    const columns = [40, 130, 330, 560];
    const rows: string[][][] = [
      [['IDENTIFY (ID)'], ['Asset Management (ID.AM): The', 'data, personnel, devices, systems,', 'and facilities are identified.'], ['ID.AM-1: Physical devices and', 'systems within the organization', 'are inventoried'], ['CIS CSC 1', 'COBIT 5 BAI09.01']],
      [[], [], ['ID.AM-2: Software platforms and', 'applications are inventoried'], ['CIS CSC 2']],
      [[], ['Business Environment (ID.BE):', 'The mission is understood.'], ['ID.BE-1: The role in the supply', 'chain is identified'], ['COBIT 5 APO08.01']],
    ];
    const runs: TextRun[] = [];
    let y = 540;
    for (const row of rows) {
      row.forEach((cell, k) => cell.forEach((text, i) => runs.push({ text, x: columns[k] ?? 40, y: y - i * 12, size: 9 })));
      y -= Math.max(...row.map((c) => c.length)) * 12 + 8;
    }
    const doc = await extractStage({ bytes: await buildPdf({ pages: [{ runs, width: 842, height: 595 }] }) }, LIMITS);
    const sections = wellFormed(sectionizeStage(doc));
    expect(pathOf(sections, 'ID.AM-1')).toEqual(['IDENTIFY (ID)', 'Asset Management (ID.AM)', 'ID.AM-1: Physical devices and systems within the organization are inventoried']);
    expect(sections.find((s) => s.title.startsWith('ID.AM-1'))?.text).toMatch(/^CIS CSC 1\s+COBIT 5 BAI09\.01$/u);
    expect(pathOf(sections, 'ID.BE-1')).toEqual(['IDENTIFY (ID)', 'Business Environment (ID.BE)', 'ID.BE-1: The role in the supply chain is identified']);
  });

  it('reads CSF 2.0: functions with their outcome, two-digit subcategories', () => {
    const csf2 = [
      'GOVERN (GV): The organization’s cybersecurity risk management strategy is established.',
      'Organizational Context (GV.OC): The circumstances surrounding decisions are understood.',
      'GV.OC-01: The organizational mission is understood and informs risk management',
      'GV.OC-02: Internal and external stakeholders are understood',
      'IDENTIFY (ID): The organization’s current cybersecurity risks are understood.',
      'Asset Management (ID.AM): Assets are identified and managed.',
      'ID.AM-01: Inventories of hardware managed by the organization are maintained',
    ];
    const sections = wellFormed(sectionizeStage(docOf([csf2])));
    expect(pathOf(sections, 'GV.OC-02')).toEqual(['GOVERN (GV)', 'Organizational Context (GV.OC)', 'GV.OC-02: Internal and external stakeholders are understood']);
    expect(sections.find((s) => s.title === 'GOVERN (GV)')?.text).toMatch(/^The organization’s cybersecurity risk management strategy/u);
    expect(pathOf(sections, 'ID.AM-01')?.slice(0, 2)).toEqual(['IDENTIFY (ID)', 'Asset Management (ID.AM)']);
    // Rows without a references column keep their outcome as their text.
    expect(sections.find((s) => s.title.startsWith('GV.OC-01'))?.text).toBe('The organizational mission is understood and informs risk management');
  });

  it('builds the table, but leaves identifiers mentioned in prose alone', () => {
    expect(sectionizeStage(docOf([CSF])).filter((s) => s.level === 4)).toHaveLength(5);
    const sections = sectionizeStage(docOf([['1. Scope', BODY, 'ID.AM-1 and PR.AC-1 are referenced by this profile.', '2. Terms', BODY]]));
    expect(sections.map((s) => s.title)).toEqual(['1. Scope', '2. Terms']);
  });
});

// Each part has a body of two lines: heading lines with one line between read as a table of contents.
const FAQ_MAIN = ['1 Purpose', BODY, BODY, '2 Eligibility', BODY, BODY, '3 Leave Entitlement', BODY, BODY];

describe('appendix FAQs', () => {
  it('nests numbered FAQ items under their appendix', () => {
    const sections = wellFormed(
      sectionizeStage(
        docOf([
          FAQ_MAIN,
          [
            'Appendix A. Frequently Asked Questions',
            '1. Who is eligible for parental leave?',
            'Every employee with six months of service.',
            '2. Can leave be split into several periods?',
            'Yes, into at most three periods.',
            '3. Is leave paid?',
            'The first twelve weeks are paid in full.',
            '4. Whom do I tell?',
            'Your manager and the HR office.',
          ],
        ]),
      ),
    );
    expect(sections.filter((s) => s.level === 1).map((s) => s.title)).toEqual(['1 Purpose', '2 Eligibility', '3 Leave Entitlement', 'Appendix A. Frequently Asked Questions']);
    expect(pathOf(sections, '3. Is leave paid?')).toEqual(['Appendix A. Frequently Asked Questions', '3. Is leave paid?']);
  });

  it('does not cut the chapters after an annex mentioned near the start off their chain', () => {
    const lines = ['Annex A', 'The annex lists the forms and is published separately.', ...['1. Scope', '2. Terms', '3. Process', '4. Records'].flatMap((t) => [t, BODY, BODY])];
    const sections = wellFormed(sectionizeStage(docOf([lines])));
    expect(sections.filter((s) => /^\d\. /u.test(s.title)).map((s) => s.level)).toEqual([1, 1, 1, 1]);
  });

  it('keeps the typographic headings of an unnumbered policy before its FAQ appendix', () => {
    const big = (text: string): L => ({ text, size: 14 });
    const sections = wellFormed(
      sectionizeStage(
        docOf([
          [big('Purpose'), BODY, BODY, big('Eligibility'), BODY, BODY, big('Leave Entitlement'), BODY, BODY],
          [big('Appendix A. Frequently Asked Questions'), '1. Who is eligible for parental leave?', BODY, BODY, '2. Is leave paid?', BODY, BODY, '3. Whom do I tell?', BODY, BODY],
        ]),
      ),
    );
    expect(sections.filter((s) => s.level === 1).map((s) => s.title)).toEqual(['Purpose', 'Eligibility', 'Leave Entitlement', 'Appendix A. Frequently Asked Questions']);
    expect(pathOf(sections, '2. Is leave paid?')).toEqual(['Appendix A. Frequently Asked Questions', '2. Is leave paid?']);
  });

  it('nests Q1. items under the appendix, through a generated PDF', async () => {
    const faq = ['Appendix A: Questions and Answers', 'Q1. Who is eligible for parental leave?', 'Every employee with six months of service.', 'Q2. Can leave be split?', 'Yes, into at most three periods.', 'Q3. Is leave paid?', 'The first twelve weeks are paid in full.'];
    const doc = await extractStage({ bytes: await textPdf([FAQ_MAIN, faq]) }, LIMITS);
    const sections = wellFormed(sectionizeStage(doc));
    expect(sections.filter((s) => s.level === 1).map((s) => s.title)).toEqual(['1 Purpose', '2 Eligibility', '3 Leave Entitlement', 'Appendix A: Questions and Answers']);
    expect(pathOf(sections, 'Q2.')).toEqual(['Appendix A: Questions and Answers', 'Q2. Can leave be split?']);
  });
});

describe('deep RFC subsections', () => {
  it('nests 3.2.2 by its number when the outline lists every bookmark at the top level', () => {
    const titles = ['1. Introduction', '2. Conventions', '3. Protocol Overview', '3.1. handshake', '3.2. record layer', '3.2.1. fragmentation', '3.2.2. padding of records', '3.3. alerts', '4. Security Considerations'];
    const lines = titles.flatMap((t) => [t, BODY, BODY]);
    // Lower-case titles (protocol element names) are no pattern headings: the flat outline is the structure.
    const outline = titles.map((title) => ({ title, level: 1, page: 1 }));
    const sections = wellFormed(sectionizeStage(docOf([lines], outline)));
    expect(pathOf(sections, '3.2.2.')).toEqual(['3. Protocol Overview', '3.2. record layer', '3.2.2. padding of records']);
    expect(pathOf(sections, '3.3.')).toEqual(['3. Protocol Overview', '3.3. alerts']);
    expect(pathOf(sections, '4.')).toEqual(['4. Security Considerations']);
  });
});

// A Korean rule (규정) as such files print it: chapters with or without a space, articles with
// spaced markers and brackets of several kinds, the first chapter on the line of its first article.
const KO_RULE: string[] = [
  '연구실 안전관리 규정',
  '제1장총칙',
  '제 1 조 (목적) 이 규정은 연구실의 안전관리에 필요한 사항을 정함을 목적으로 한다.',
  '제2조【정의】 이 규정에서 사용하는 용어의 뜻은 다음과 같다.',
  '1. “연구실”이란 연구활동이 이루어지는 장소를 말한다.',
  '제3조 ［적용범위］ 이 규정은 모든 연구실에 적용한다.',
  '제3조의2 「연구실 안전환경 조성에 관한 법률」에 따른 사항은 그 법률을 따른다.',
  '제2장 안전관리 체계',
  '제1절 책임과 권한',
  '제4조(책임자) 연구실책임자는 안전관리를 총괄한다.',
  '제5조(관리자) 연구실안전관리담당자는 책임자를 보좌한다.',
  '제2절 점검',
  '제6조(정기점검) 정기점검은 매년 1회 이상 실시한다.',
  '제7조(특별점검) 사고가 우려되는 경우 특별점검을 실시한다.',
  '제 3 장  보칙',
  '제8조(위임) 이 규정의 시행에 필요한 사항은 총장이 정한다.',
  '제9조(준용) 이 규정에 정하지 아니한 사항은 관계 법령을 준용한다.',
  '제10조(시행) 이 규정은 공포한 날부터 시행한다.',
];

describe('Korean rules', () => {
  it('gives each article its own section titled 제N조(제목), under its 장 and 절', () => {
    const sections = wellFormed(sectionizeStage(docOf([KO_RULE])));
    const articles = sections.filter((s) => /^제\d+조/u.test(s.title));
    expect(articles.map((s) => s.title)).toEqual([
      '제1조(목적)',
      '제2조(정의)',
      '제3조(적용범위)',
      '제3조의2',
      '제4조(책임자)',
      '제5조(관리자)',
      '제6조(정기점검)',
      '제7조(특별점검)',
      '제8조(위임)',
      '제9조(준용)',
      '제10조(시행)',
    ]);
    expect(sections.filter((s) => /^제\d+장/u.test(s.title)).map((s) => s.title)).toEqual(['제1장 총칙', '제2장 안전관리 체계', '제3장 보칙']);
    expect(pathOf(sections, '제1조')).toEqual(['제1장 총칙', '제1조(목적)']);
    expect(pathOf(sections, '제6조')).toEqual(['제2장 안전관리 체계', '제2절 점검', '제6조(정기점검)']);
    expect(sections.find((s) => s.title === '제2조(정의)')?.text).toMatch(/^이 규정에서 사용하는 용어의 뜻은 다음과 같다\.\n/u);
  });

  it('splits out articles whose title stands on its own line above a one-line body', () => {
    // Heading, one line, heading, one line …: shaped like a table of contents with wrapped
    // entries, but each line between ends a sentence, so it is the articles' text.
    const lines = ['학칙 시행세칙', '제1장 총칙'];
    const names = ['목적', '정의', '적용범위', '학년도', '학기', '수업일수', '휴업일', '수업시간', '학점'];
    names.forEach((name, k) => lines.push(`제${k + 1}조(${name})`, `이 세칙은 ${name}에 관하여 필요한 사항을 정한다.`));
    lines.push('제2장 입학', '제10조(입학시기) 입학시기는 매 학기 초로 한다. 다만, 필요한 경우', '총장이 따로 정할 수 있다.', '제11조(입학자격) 입학자격은 고등학교를 졸업한 사람으로 한다.');
    const sections = wellFormed(sectionizeStage(docOf([lines])));
    expect(sections.filter((s) => /^제\d+조/u.test(s.title)).map((s) => s.title.replace(/\(.*$/u, ''))).toEqual(Array.from({ length: 11 }, (_, k) => `제${k + 1}조`));
    expect(pathOf(sections, '제5조')).toEqual(['제1장 총칙', '제5조(학기)']);
    expect(sections.find((s) => s.title === '제5조(학기)')?.text).toBe('이 세칙은 학기에 관하여 필요한 사항을 정한다.');
    expect(sections.filter((s) => /^제\d+장/u.test(s.title)).map((s) => s.title)).toEqual(['제1장 총칙', '제2장 입학']);
  });

  it('splits out the chapter printed on the line of its first article', () => {
    const lines = ['제1장 총칙 제1조(목적) 이 규정은 연구실의 안전관리에 필요한 사항을 정한다.', ...KO_RULE.slice(3)];
    const sections = wellFormed(sectionizeStage(docOf([lines])));
    expect(pathOf(sections, '제1조')).toEqual(['제1장 총칙', '제1조(목적)']);
    expect(sections.find((s) => s.title === '제1조(목적)')?.text).toBe('이 규정은 연구실의 안전관리에 필요한 사항을 정한다.');
  });

  it('does so through a generated PDF in a CJK font read with CMaps', async () => {
    const doc = await extractStage({ bytes: cjkCMapPdf([KO_RULE.slice(0, 9), KO_RULE.slice(9)], 'ko') }, LIMITS);
    const sections = wellFormed(sectionizeStage(doc));
    expect(sections.filter((s) => /^제\d+조/u.test(s.title))).toHaveLength(11);
    expect(pathOf(sections, '제7조')).toEqual(['제2장 안전관리 체계', '제2절 점검', '제7조(특별점검)']);
  });
});
