import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES, resolvePolicy } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import type { Section } from '../../shared/domain/index.ts';
import { chunkStage } from '../../workers/chunk/chunk.stage.ts';

const counter = createCl100kCounter();
const law = resolvePolicy(DEFAULT_CHUNK_POLICIES, 'law');
const CIRCLED = '①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳';

let order = 0;
function article(chapter: string, title: string, text: string, page = 1): Section {
  return { id: `s${order}`, title, heading: title.replace(/^제\d+조(의\d+)?\(?|\)$/g, ''), path: [chapter, title], level: 2, order: order++, text, pageStart: page, pageEnd: page, source: 'pattern' };
}
function chapter(title: string): Section {
  return { id: `s${order}`, title, heading: title.replace(/^제\d+장\s*/, ''), path: [title], level: 1, order: order++, text: '', pageStart: 1, pageEnd: 1, source: 'pattern' };
}

const CH1 = '제1장 총칙';
const CH2 = '제2장 근로계약';

/** A long article: numbered clauses (항), the second with items (호). */
function longArticle(clauses: number): string {
  return Array.from({ length: clauses }, (_, i) => {
    const head = `${CIRCLED[i]} 사용자는 근로자가 출산 장려금 및 육아휴직 급여를 신청하는 경우 ${i + 1}일 이내에 그 신청을 처리하여야 하며, 처리 결과를 서면으로 통지하여야 한다.`;
    return i === 1 ? `${head}\n1. 신청서 접수에 관한 사항\n2. 지급 대상 확인에 관한 사항` : head;
  }).join('\n');
}

function run(sections: Section[]) {
  return chunkStage({ docId: 'labor-act', version: 'c'.repeat(64), docType: 'law', sections }, DEFAULT_CHUNK_POLICIES);
}

describe('Korean statute chunking', () => {
  const sections = [
    chapter(CH1),
    article(CH1, '제1조(목적)', '이 법은 근로조건의 기준을 정함을 목적으로 한다.'),
    article(CH1, '제2조(정의)', '① 이 법에서 사용하는 용어의 뜻은 다음과 같다.\n1. "근로자"란 직업의 종류와 관계없이 임금을 목적으로 사업이나 사업장에 근로를 제공하는 사람을 말한다.\n2. "사용자"란 사업주 또는 사업 경영 담당자를 말한다.\n② 제1항제6호에 따라 산출된 금액이 통상임금보다 적으면 그 통상임금액을 평균임금으로 한다.'),
    article(CH1, '제3조(근로조건의 기준)', '이 법에서 정하는 근로조건은 최저기준이므로 근로 관계 당사자는 이 기준을 이유로 근로조건을 낮출 수 없다.'),
    article(CH1, '제4조 삭제', '삭제 <2020. 5. 26.>'),
    chapter(CH2),
    article(CH2, '제15조(이 법을 위반한 근로계약)', '① 이 법에서 정하는 기준에 미치지 못하는 근로조건을 정한 근로계약은 그 부분에 한정하여 무효로 한다.\n② 제1항에 따라 무효로 된 부분은 이 법에서 정한 기준에 따른다.', 2),
    article(CH2, '제16조(계약기간)', '삭제 <2007. 1. 26.>', 2),
    article(CH2, '제17조(출산 장려금)', longArticle(14), 3),
  ];
  const chunks = run(sections);

  it('merges small articles within their chapter, under the chapter', () => {
    const ch1 = chunks.filter((c) => c.section_path.startsWith(CH1));
    expect(ch1).toHaveLength(1);
    expect(ch1[0]?.section_path).toBe(CH1);
    expect(ch1[0]?.section).toBe('총칙');
    for (const t of ['제1조(목적)', '제2조(정의)', '제3조(근로조건의 기준)', '제4조 삭제']) expect(ch1[0]?.body).toContain(`${t}\n`);
  });

  it('keeps an article that is not tiny on its own, with its precise path', () => {
    const own = run([
      article(CH1, '제1조(목적)', '이 법은 헌법에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을 보장, 향상시키며 균형 있는 국민경제의 발전을 꾀하는 것을 목적으로 한다.'),
      article(CH1, '제3조(근로조건의 기준)', '이 법에서 정하는 근로조건은 최저기준이므로 근로 관계 당사자는 이 기준을 이유로 근로조건을 낮출 수 없다. 사용자와 근로자는 단체협약, 취업규칙과 근로계약을 지키고 성실하게 이행할 의무가 있다.'),
    ]);
    expect(own.map((c) => c.section_path)).toEqual([`${CH1} > 제1조(목적)`, `${CH1} > 제3조(근로조건의 기준)`]);
  });

  it('never merges an article into another chapter', () => {
    for (const c of chunks) {
      const hasCh1 = /제[1-4]조/.test(c.body) && c.section_path.startsWith(CH1);
      const hasCh2 = c.body.includes('제15조') || c.body.includes('제16조');
      expect(hasCh1 && hasCh2).toBe(false);
    }
    const ch2 = chunks.find((c) => c.section_path === CH2);
    expect(ch2?.body).toContain('제15조(이 법을 위반한 근로계약)\n①');
    expect(ch2?.body).toContain('제16조(계약기간)\n삭제');
  });

  it('splits a long article only between clauses, within the law policy', () => {
    const parts = chunks.filter((c) => c.section_path === `${CH2} > 제17조(출산 장려금)`);
    expect(parts.length).toBeGreaterThan(1);
    for (const c of parts) {
      expect(c.token_count).toBe(counter.count(c.body));
      expect(c.token_count).toBeLessThanOrEqual(law.maxTokens);
      expect(c.token_count).toBeGreaterThanOrEqual(law.minTokens);
      // Starts at a clause marker and ends at a clause end: no clause was cut.
      expect(CIRCLED.includes(c.body.charAt(0))).toBe(true);
      expect(c.body.trimEnd().endsWith('다.') || c.body.trimEnd().endsWith('사항')).toBe(true);
      expect(c.page_start).toBe(3);
    }
    // Clause ② keeps its items (호) with it.
    const withSecond = parts.filter((c) => c.body.includes('② 사용자는'));
    expect(withSecond.length).toBeGreaterThan(0);
    for (const c of withSecond) expect(c.body).toContain('2. 지급 대상 확인에 관한 사항');
  });

  it('keeps a fitting article with ①② clauses as one chunk', () => {
    const single = run([article(CH2, '제50조(근로시간)', '① 1주 간의 근로시간은 휴게시간을 제외하고 40시간을 초과할 수 없다.\n② 1일의 근로시간은 휴게시간을 제외하고 8시간을 초과할 수 없다.\n③ 제1항 및 제2항에 따라 근로시간을 산정하는 경우 작업을 위하여 근로자가 사용자의 지휘·감독 아래에 있는 대기시간 등은 근로시간으로 본다.')]);
    expect(single).toHaveLength(1);
    expect(single[0]?.section_path).toBe(`${CH2} > 제50조(근로시간)`);
    expect(single[0]?.body.startsWith('① 1주 간의')).toBe(true);
  });
});
