import { describe, expect, it } from 'vitest';
import { LEXICAL_HEADING_WEIGHT, analyseQuery, createPreparedTextCache, headedLexicalScores, koreanQueryStem, lexicalScores, matchForm, prepareText, stemWord } from '../../shared/retrieval/lexical-match.ts';
import { createLexicalReranker } from '../../shared/retrieval/lexical-reranker.ts';

const score = (q: string, texts: string[]) => lexicalScores(analyseQuery(q), texts);

describe('matchForm and query analysis', () => {
  it('folds width, case, punctuation and the spaces inside Hangul runs and article references', () => {
    expect(matchForm('출산 장려금은, ＴＬＳ 1.3!')).toBe('출산장려금은 tls 1 3');
    expect(matchForm('제 2 조(정의)')).toBe('제2조정의');
  });

  it('spells out a lone Greek letter in passages and queries alike', () => {
    expect(matchForm('TNF-α, β-cells')).toBe('tnf alpha beta cells');
    expect(score('TNF alpha', ['levels of TNF-α rose'])[0]?.coverage).toBe(1);
  });

  it('British and American spellings match each other', () => {
    expect(matchForm('Tumour-suppressing haemoglobin')).toBe('tumor suppressing hemoglobin');
    expect(score('randomised tumour trials', ['a randomized trial of tumor growth'])[0]?.coverage).toBe(1);
  });

  it('plural fold', () => {
    expect(stemWord('leaves')).toBe('leave');
    expect(stemWord('policies')).toBe('policy');
    expect(stemWord('process')).toBe('process');
    expect(stemWord('bus')).toBe('bus');
  });

  it('Latin query words match whole words of a passage, plurals folded, wherever the word stands', () => {
    const coverage = (texts: string[]) => lexicalScores(analyseQuery('policy leave'), texts).map((s) => s.coverage);
    // "policies" and "leaves" fold to the query's stems; "apolicy" and "leavers" are other words.
    expect(coverage(['Policies on leaves', 'apolicy leavers', '지원policies', 'leave'])).toEqual([1, 0, expect.any(Number), expect.any(Number)]);
    const [, , korean, single] = coverage(['Policies on leaves', 'apolicy leavers', '지원policies', 'leave']);
    expect(korean).toBeGreaterThan(0);
    expect(korean! + single!).toBeCloseTo(1);
  });

  it('Korean query stems: particles, verbs built on nouns, question words', () => {
    expect(koreanQueryStem('출산장려금은')?.stem).toBe('출산장려금');
    expect(koreanQueryStem('신청하려면')?.stem).toBe('신청');
    expect(koreanQueryStem('지급되나요')?.stem).toBe('지급');
    expect(koreanQueryStem('얼마인가요')).toBeNull();
    expect(koreanQueryStem('누가')).toBeNull();
  });

  it('a spaced and an unspaced compound give the same units', () => {
    const spaced = analyseQuery('출산 장려금');
    const joined = analyseQuery('출산장려금');
    expect(spaced.units).toEqual(joined.units);
    expect(spaced.core).toBe(joined.core);
    expect(analyseQuery('출산 장려금은 얼마인가요?').units).toEqual(joined.units);
  });

  it("a question's copula ending is no part of its last noun", () => {
    expect(analyseQuery('법정 근로시간은 몇 시간인가?').words).toEqual(['법정', '근로시간', '시간']);
    expect(analyseQuery('연차휴가는 며칠인지요').words).toEqual(['연차휴가', '며칠']);
    // "4시간인 경우" shares no unit with the question's last word any more.
    const [lead, rest] = score('근로시간은 몇 시간인가요?', ['근로시간이 4시간인 경우에는 30분의 휴게시간을 준다.', '근로시간은 40시간을 초과할 수 없다.']);
    expect(rest?.score).toBeGreaterThanOrEqual(lead?.score ?? 1);
  });

  it('a number and its Korean counter are one unit: "1주" matches "1주 간", not "1일" or "1시간"', () => {
    expect(analyseQuery('근로시간은 1주 몇 시간인가?').units).toContainEqual({ key: '1주', kind: 'word' });
    expect(analyseQuery('3개월마다 점검하나요').units).toContainEqual({ key: '3개월', kind: 'word' });
    const [day, week] = score('근로시간은 1주 몇 시간인가?', ['1일의 근로시간은 8시간을 초과할 수 없다. 1시간의 휴게시간을 준다.', '1주 간의 근로시간은 40시간을 초과할 수 없다.']);
    expect(week?.coverage).toBeGreaterThan(day?.coverage ?? 1);
    // Digits alone stay a word: "2024" is no counter.
    expect(analyseQuery('2024 실적').units).toContainEqual({ key: '2024', kind: 'word' });
  });

  it('drops English stopwords, keeps pairs and quoted segments, keeps article references whole', () => {
    const a = analyseQuery('How much "paid parental leave" do I get?');
    expect(a.words).toEqual(['paid', 'parental', 'leave']);
    expect(a.quoted).toEqual(['paid parental leave']);
    expect(a.pairs).toEqual(['paid parental', 'parental leave']);
    expect(analyseQuery('근로기준법 제 50 조').units).toContainEqual({ key: '제50조', kind: 'exact' });
  });
});

describe('lexicalScores', () => {
  it('scores are in [0, 1]; full coverage, adjacency and the phrase give 1', () => {
    const [s] = score('parental leave', ['Paid parental leave lasts sixteen weeks.']);
    expect(s).toEqual({ score: 1, coverage: 1, proximity: 1, phrase: 1 });
    for (const x of score('remote work approval', ['approval', 'remote', 'nothing here', ''])) {
      expect(x.score).toBeGreaterThanOrEqual(0);
      expect(x.score).toBeLessThanOrEqual(1);
    }
  });

  it('proximity: terms close together beat the same terms far apart', () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(20);
    const [near, far] = score('parental leave', ['the parental leave rules', `parental ${filler} leave`]);
    expect(near?.proximity).toBe(1);
    expect(far?.proximity ?? 1).toBeLessThan(0.2);
    expect(near?.score ?? 0).toBeGreaterThan(far?.score ?? 1);
  });

  it('phrase: quoted segments must appear verbatim', () => {
    const [exact, scrambled] = score('"leave of absence"', ['a leave of absence is unpaid', 'absence of any leave']);
    expect(exact?.phrase).toBe(1);
    expect(scrambled?.phrase).toBe(0);
  });

  it('rarer terms weigh more (idf over the texts scored together)', () => {
    const texts = ['leave policy overview', 'leave for adoption', 'leave and holidays'];
    const [, adoption] = score('adoption leave', texts);
    const [overview] = score('policy leave', texts);
    expect(adoption?.coverage).toBe(1);
    expect(overview?.coverage).toBe(1);
    const [, , holidays] = score('adoption leave', texts);
    // "leave" is in every text, so matching only it is worth little.
    expect(holidays?.coverage ?? 1).toBeLessThan(0.5);
  });

  it('Korean is spacing-insensitive on both sides', () => {
    const texts = ['출산 장려금은 첫째 100만원', '출산장려금을 신청한다', '재택근무 승인'];
    expect(score('출산장려금', texts)).toEqual(score('출산 장려금', texts));
    const s = score('출산장려금', texts);
    expect(s[0]?.coverage).toBe(1);
    expect(s[1]?.coverage).toBe(1);
    expect(s[2]?.score).toBe(0);
  });

  it('an empty or all-stopword query scores 0 everywhere', () => {
    expect(score('', ['anything']).map((s) => s.score)).toEqual([0]);
    expect(score('what is the', ['what is the rule']).map((s) => s.score)).toEqual([0]);
  });
});

describe('lexical reranker', () => {
  const reranker = createLexicalReranker();

  it('KO spacing robustness: "출산 장려금" and "출산장려금" rank a corpus identically', async () => {
    const docs = [
      '제4조(출산장려금의 지급) 시장은 출산한 가정에 출산장려금을 지급한다.',
      '출산 장려금 신청은 출생신고 후 1년 이내에 한다.',
      '출산 후 육아휴직을 신청할 수 있다.',
      '장려금은 지역화폐로 지급할 수 있다.',
      '재택근무는 주 2일까지 허용된다.',
      '육아휴직 급여는 통상임금의 80%이다.',
      '출산장려금 지급 대상은 한빛시에 6개월 이상 거주한 부모이다.',
      '출산 장려 정책의 기본 방향을 정한다.',
    ].map((text, i) => ({ id: `d${i}`, text }));
    const a = await reranker.rerank('출산 장려금', docs);
    const b = await reranker.rerank('출산장려금', docs);
    expect(a).toEqual(b);
    expect(a.slice(0, 3).map((r) => r.id).sort()).toEqual(['d0', 'd1', 'd6']);
  });

  it('returns best first with ties in input order', async () => {
    const results = await reranker.rerank('zebra', [
      { id: 'x', text: 'nothing' },
      { id: 'y', text: 'zebra crossing' },
      { id: 'z', text: 'nothing either' },
    ]);
    expect(results.map((r) => r.id)).toEqual(['y', 'x', 'z']);
  });
});

describe('createPreparedTextCache', () => {
  const texts = ['Parental leave: 16 weeks of paid leave.', '출산 장려금 신청은 주민센터에서 한다.', 'Leave requests go to the manager.'];

  it('gives the scores an uncached call gives, and prepares each passage once', () => {
    const prepare = createPreparedTextCache(8);
    const query = analyseQuery('How many weeks of parental leave? 출산장려금');
    const first = lexicalScores(query, texts, prepare);
    expect(first).toEqual(lexicalScores(query, texts));
    const prepared = texts.map(prepare);
    expect(texts.map(prepare).every((p, i) => p === prepared[i])).toBe(true);
    expect(lexicalScores(query, texts, prepare)).toEqual(first);
  });

  it('keeps only the most recently used passages', () => {
    const prepare = createPreparedTextCache(2);
    const a = prepare('alpha text');
    const b = prepare('beta text');
    prepare('alpha text'); // alpha is now the most recent
    prepare('gamma text'); // evicts beta
    expect(prepare('alpha text')).toBe(a);
    const again = prepare('beta text');
    expect(again).not.toBe(b);
    expect(again).toEqual(prepareText('beta text'));
  });
});

describe('headedLexicalScores', () => {
  const query = analyseQuery('parental leave policy');
  const passages = [
    // The same text: only the headings tell them apart.
    { text: 'The policy grants weeks of parental leave.', heading: 'Parental leave policy' },
    { text: 'The policy grants weeks of parental leave.', heading: 'Benefits' },
  ];

  it('lifts a passage whose heading covers the query toward 1, BM25F-style; never lowers one', () => {
    const [titled, other] = headedLexicalScores(query, passages);
    const plain = lexicalScores(query, passages.map((p) => p.text)).map((s) => s.score);
    const base = plain[0] as number;
    expect(base).toBeLessThan(1);
    expect(titled).toBeCloseTo(base + LEXICAL_HEADING_WEIGHT * (1 - base), 9);
    // "Benefits" holds no query word: the plain score, as the validator's threshold expects.
    expect(other).toBe(plain[1]);
    expect(titled).toBeLessThanOrEqual(1);
  });

  it('without any heading, is the plain lexical score', () => {
    const bare = passages.map((p) => ({ text: p.text }));
    expect(headedLexicalScores(query, bare)).toEqual(lexicalScores(query, bare.map((p) => p.text)).map((s) => s.score));
  });

  it('the reranker puts the passage whose heading matches first (plain scores tie: input order)', async () => {
    const ranked = await createLexicalReranker().rerank('parental leave policy', [
      { id: 'other', ...passages[1]! },
      { id: 'titled', ...passages[0]! },
    ]);
    expect(ranked.map((r) => r.id)).toEqual(['titled', 'other']);
  });
});
