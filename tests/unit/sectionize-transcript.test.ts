import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import type { Section } from '../../shared/domain/index.ts';
import { composeExtractiveAnswer, type AnswerChunk } from '../../shared/llm/extractive-answer.ts';
import { flattenLines, isSpeakerLine, sectionize } from '../../shared/sectionize/index.ts';
import { speakerHeadings } from '../../shared/sectionize/speaker-headings.ts';
import { chunkStage } from '../../workers/chunk/chunk.stage.ts';
import { filingDoc, RELEASE, TEN_Q, prose } from '../fixtures/filing-documents.ts';
import { transcriptPages, TRANSCRIPT_LAYOUTS, wrap } from '../fixtures/transcript-documents.ts';

/** Each turn's speaker, as its section's last path element, in reading order. */
function turns(sections: readonly Section[]): string[] {
  return sections.filter((s) => s.level === 2).map((s) => s.title);
}

/** The roles each layout prints (or its list of participants, or the call's introductions give). */
const ROLES = {
  web: { elena: 'Chief Executive Officer', marcus: 'Chief Financial Officer', priya: 'Halden Securities -- Analyst' },
  vendor: { elena: 'Orchard Systems, Inc. - CEO', marcus: 'Orchard Systems, Inc. - CFO', priya: 'Halden Securities - Analyst' },
  'two-line': { elena: 'CEO & Director', marcus: 'Executive VP & CFO', priya: 'Halden Securities, Research Division' },
  names: { elena: 'Chief Executive Officer', marcus: 'Chief Financial Officer', priya: 'Halden Securities' },
  inline: { elena: 'Chief Executive Officer', marcus: 'Chief Financial Officer', priya: 'Halden Securities' },
  capitals: { elena: 'Chief Executive Officer', marcus: 'Chief Financial Officer', priya: 'Halden Securities' },
} as const;

describe('a call transcript is sectioned by who speaks', () => {
  it.each(TRANSCRIPT_LAYOUTS)('%s layout: a section per turn, named with the speaker and role, under its session', (layout) => {
    const sections = sectionize(filingDoc(transcriptPages(layout)));
    const r = ROLES[layout];
    expect(turns(sections)).toEqual([
      'Operator',
      expect.stringMatching(/^Dana Whitfield -- /u),
      `Elena Park -- ${r.elena}`,
      `Marcus Lee -- ${r.marcus}`,
      'Operator',
      `Priya Raman -- ${r.priya}`,
      `Marcus Lee -- ${r.marcus}`,
      'Operator',
      expect.stringMatching(/^Tom Becker -- Alder Capital/u),
      `Elena Park -- ${r.elena}`,
      'Operator',
    ]);
    const reply = sections.find((s) => s.title === `Marcus Lee -- ${r.marcus}` && s.text.startsWith('Sure, Priya.'));
    expect(reply?.path[0]).toMatch(/^Question/iu);
    expect(reply?.text).toContain('we think most of the improvement holds for the rest of the year.');
    // What each speaker said is the text of their turn alone: the next speaker's line is not in it.
    expect(sections.find((s) => s.title.startsWith('Priya Raman'))?.text).toBe(
      'Thanks for taking my question. Marcus, could you help us understand what drove the gross margin expansion and whether it is sustainable through the rest of the year?',
    );
  });

  it('a list of participants stays the text of its session, not turns', () => {
    const sections = sectionize(filingDoc(transcriptPages('names')));
    expect(sections.find((s) => s.title === 'Company Participants')?.text).toContain('Marcus Lee - Chief Financial Officer');
    const web = sectionize(filingDoc(transcriptPages('web')));
    expect(web[web.length - 1]?.title).toBe('Call participants');
    expect(web[web.length - 1]?.text).toContain('Tom Becker -- Alder Capital -- Analyst');
  });

  it('a Korean call: 사회자 and the speakers named with their titles', () => {
    const call = [
      ['2024년 1분기 실적발표 컨퍼런스콜', '', '발표'],
      ['사회자: 지금부터 오차드시스템즈 2024년 1분기 실적발표를 시작하겠습니다.'],
      ['김민준 부사장(CFO): 1분기 매출은 4,120억원으로 전년 동기 대비 18% 증가했습니다.', '영업이익률은 12.4%를 기록했습니다.'],
      ['질의응답'],
      ['사회자: 첫 번째 질문은 한결증권 이서연 애널리스트입니다.'],
      ['이서연 애널리스트: 2분기 매출총이익률 전망을 말씀해 주시겠습니까?'],
      ['김민준 부사장(CFO): 2분기 매출총이익률은 46%에서 47% 사이로 예상합니다.'],
    ].flat();
    const sections = sectionize(filingDoc([call]));
    expect(turns(sections)).toEqual(['사회자', '김민준 부사장(CFO)', '사회자', '이서연 애널리스트', '김민준 부사장(CFO)']);
    expect(sections.find((s) => s.title === '이서연 애널리스트')?.text).toBe('2분기 매출총이익률 전망을 말씀해 주시겠습니까?');
  });

  it('a report or filing is no transcript: signatures, a company "…, Inc." and repeated captions name no speakers', () => {
    for (const pages of [TEN_Q, RELEASE]) expect(speakerHeadings(flattenLines(filingDoc(pages)), new Set())).toEqual([]);
    const report = [
      [
        'Annual Report 2024',
        'Three Months Ended',
        ...prose('revenue', 4),
        'Three Months Ended',
        ...prose('margin', 4),
        'Nuance Communications, Inc.',
        'On March 4, 2022, we completed our acquisition of Nuance Communications, Inc. for $18.8 billion.',
      ],
      ['Signatures', 'Satya Nadella', 'Chief Executive Officer', 'Amy E. Hood', 'Executive Vice President and Chief Financial Officer', 'Date: October 25, 2022', ...prose('certification', 3)],
    ];
    expect(speakerHeadings(flattenLines(filingDoc(report)), new Set())).toEqual([]);
  });

  it('a speaker line names a person and an office or a firm; prose naming them is none', () => {
    const yes = ['Operator', 'Operator [1]', 'Alex Chen, Morgan Stanley, Analyst', 'Dana Whitfield, Orchard Systems, Inc. - VP of IR [2]', 'Priya Raman -- Halden Securities -- Analyst', '김민준 부사장', '[김민준 부사장]'];
    const no = [
      'PART I — FINANCIAL INFORMATION',
      'RISK FACTORS',
      'MARCUS LEE',
      'Gross Margin',
      'Apple Inc. — Form 10-Q',
      'Nuance Communications, Inc.',
      'Halden Securities, Research Division',
      'Chief Executive Officer, and Marcus Lee, our Chief Financial Officer. Some of the statements',
      'Elena Park, our Chief Executive Officer, said revenue grew.',
      'Cash Flows - Capital Expenditures',
    ];
    expect(yes.filter((t) => !isSpeakerLine(t))).toEqual([]);
    expect(no.filter(isSpeakerLine)).toEqual([]);
  });
});

describe('an answer from a transcript says who said it', () => {
  const sections = sectionize(filingDoc(transcriptPages('names')));
  const chunks = chunkStage({ docId: 'orch-q1-call', version: 'a'.repeat(64), docType: 'unknown', sections }, DEFAULT_CHUNK_POLICIES);
  const passages: AnswerChunk[] = chunks.map((c) => ({
    chunkId: c.chunk_id,
    docId: c.doc_id,
    title: 'Orchard Systems (ORCH) Q1 2024 Earnings Call Transcript',
    sectionPath: c.section_path,
    pageStart: c.page_start,
    pageEnd: c.page_end,
    body: c.body,
    validFrom: null,
    validTo: null,
    ...(c.line_pages ? { linePages: c.line_pages } : {}),
  }));

  it('the guidance is quoted from the CFO and cited under his name and role', () => {
    const a = composeExtractiveAnswer({ query: 'What gross margin does Orchard expect for the second quarter?', chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    expect(a.text).toContain('gross margin between 46% and 47%');
    expect(a.citations[0]?.sectionPath).toMatch(/Marcus Lee -- Chief Financial Officer$/u);
  });

  it("an analyst's question leads to the executive's reply", () => {
    const a = composeExtractiveAnswer({ query: 'How many employees does Orchard plan to hire this year?', chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    expect(a.text).toContain('We plan to add about 300 employees this year');
    expect(a.citations[0]?.sectionPath).toMatch(/Elena Park -- Chief Executive Officer$/u);
  });

  it('an abbreviation asked finds its words spelled out ("CFO": "Chief Financial Officer")', () => {
    const a = composeExtractiveAnswer({ query: "Who is Orchard's CFO?", chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    expect(a.text).toContain('Marcus Lee, our Chief Financial Officer');
  });

  it('asked what an analyst asked, the answer quotes their question, cited under their name', () => {
    const a = composeExtractiveAnswer({ query: 'What did the analyst from Halden Securities ask about?', chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    expect(a.text).toContain('could you help us understand what drove the gross margin expansion');
    expect(a.citations[0]?.sectionPath).toMatch(/Priya Raman -- Halden Securities$/u);
    // Otherwise a question printed in a passage is never the answer: the reply is.
    const b = composeExtractiveAnswer({ query: 'What drove the gross margin expansion?', chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    expect(b.text).not.toContain('could you help us understand');
  });

  it('asked what an executive said, a sentence is read with who said it: the topic and the speaker both count', () => {
    const ask = (query: string) => composeExtractiveAnswer({ query, chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
    // Not the introduction naming the CEO and the CFO, but what each of them said of it.
    const ceo = ask('What did the CEO say about Brazil?');
    expect(ceo.text).toContain('We opened two distribution centres in Brazil');
    expect(ceo.citations[0]?.sectionPath).toMatch(/Elena Park -- Chief Executive Officer$/u);
    const cfo = ask('What did the CFO say about the rest of the year?');
    expect(cfo.text).toContain('we think most of the improvement holds for the rest of the year');
    expect(cfo.citations[0]?.sectionPath).toMatch(/Marcus Lee -- Chief Financial Officer$/u);
  });

  it('asked why a figure moved, the sentence giving its cause answers, over the one stating the figure', () => {
    for (const query of ['Why did gross margin expand?', 'What did the CFO say drove the gross margin expansion?']) {
      const a = composeExtractiveAnswer({ query, chunks: passages, asOf: null, today: '2024-05-01', maxSentences: 1 });
      expect(a.text).toContain('About two-thirds of the expansion came from lower component costs');
    }
  });

  it('wrapping the fixture keeps every word', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    expect(wrap(text, 20).join(' ')).toBe(text);
    expect(wrap(text, 20).every((l) => l.length <= 20)).toBe(true);
  });
});
