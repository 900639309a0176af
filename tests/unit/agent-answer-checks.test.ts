import { describe, expect, it } from 'vitest';
import { answerStatesWhatWasAsked, askedAnswerKind, checkAnswerFit, holdsAnswerKind } from '../../shared/agent/answer-checks.ts';
import type { QueryScope } from '../../shared/retrieval/document-routing.ts';

const scope: QueryScope = {
  organisations: [{ name: 'Orchard Devices Inc.', alias: 'orchard', docIds: ['orch-q2', 'orch-q3'] }],
  period: { phrase: 'Q3 2023', year: 2023, quarter: 3, fiscal: false },
  latest: false,
  form: null,
  docWeights: { 'orch-q2': 0.4, 'orch-q3': 1 },
  docIds: ['orch-q3'],
  unmatched: [],
  ambiguousPeriod: false,
  reason: 'organisation Orchard Devices Inc. (orchard); period Q3 2023: 1',
};

describe('what kind of answer a question asks for', () => {
  it.each([
    ["What was Orchard's net income in Q3 2023?", 'figure'],
    ['How much did Orchard spend on research?', 'figure'],
    ['What percentage of revenue came from services?', 'figure'],
    ['When was the credit facility signed?', 'date'],
    ['출산장려금은 얼마인가요?', 'figure'],
    ['언제부터 시행되나요?', 'date'],
    ["How has Orchard's revenue changed over time?", null],
    ['Describe the risk factors Orchard lists.', null],
    // Only a question about when something happened or takes effect asks for a date.
    ['When does the new leave policy take effect?', 'date'],
    ['When will the notes mature?', 'date'],
    ['What date was the dividend paid?', 'date'],
    ['In which year was the company founded? On which date?', 'date'],
    ['When should a person contact law enforcement?', null],
    ['When must an incident be reported to the security team?', null],
    ['When can an employee request parental leave?', null],
    ['When is a password considered compromised?', null],
    ['시행일은 언제부터인가요?', 'date'],
    ['언제 신고해야 하나요?', null],
  ])('%s → %s', (q, kind) => {
    expect(askedAnswerKind(q)).toBe(kind);
  });

  it('figures and dates in passages', () => {
    expect(holdsAnswerKind('Net income was $19,881 million.', 'figure')).toBe(true);
    expect(holdsAnswerKind('Employees get sixteen weeks of leave.', 'figure')).toBe(true);
    expect(holdsAnswerKind('The company designs devices.', 'figure')).toBe(false);
    expect(holdsAnswerKind('The agreement was signed on March 3, 2023.', 'date')).toBe(true);
    expect(holdsAnswerKind('The agreement was signed by both parties.', 'date')).toBe(false);
  });
});

describe('checkAnswerFit', () => {
  const q = "What was Orchard's net income in Q3 2023?";

  it('passes a passage of the named document that holds a figure', () => {
    expect(checkAnswerFit(q, scope, [{ docId: 'orch-q3', body: 'Net income was $19,881 million.' }])).toMatchObject({ documentOk: true, kindOk: true, problems: [] });
  });

  it("fails another organisation's or another period's passage however well it reads", () => {
    const fit = checkAnswerFit(q, scope, [{ docId: 'orch-q2', body: 'Net income was $24,160 million.' }, { docId: 'orch-q3', body: 'Net income was $19,881 million.' }]);
    expect(fit.documentOk).toBe(false);
    expect(fit.problems[0]).toMatch(/not about/);
  });

  it('fails when no quoted passage of the named documents holds a figure', () => {
    const fit = checkAnswerFit(q, scope, [{ docId: 'orch-q3', body: 'Net income is discussed in Part I, Item 2.' }]);
    expect(fit).toMatchObject({ documentOk: true, kindOk: false, kind: 'figure' });
  });

  it('a period no document of the organisation matches fails even a passage of its documents', () => {
    const fit = checkAnswerFit("What was Orchard's net income in Q2 2019?", { ...scope, unmatched: ['period Q2 2019'] }, [{ docId: 'orch-q3', body: 'Net income was $19,881 million.' }]);
    expect(fit.documentOk).toBe(false);
    expect(fit.problems).toEqual(['no indexed document matches the period Q2 2019 the question names']);
  });

  it('a "when" question about circumstances passes a passage that holds no date', () => {
    const passage = { docId: 'guide', body: 'Contact law enforcement as soon as an incident involves a crime, such as extortion or stolen data.' };
    expect(checkAnswerFit('When should a person contact law enforcement?', null, [passage])).toMatchObject({ kind: null, kindOk: true, problems: [] });
    // …where a question about when something takes effect needs one.
    expect(checkAnswerFit('When does the incident policy take effect?', null, [passage])).toMatchObject({ kind: 'date', kindOk: false });
  });

  it('without routing and for prose questions, only what can be checked is', () => {
    expect(checkAnswerFit('Describe the risk factors.', null, [{ docId: 'x', body: 'Risks include competition.' }]).problems).toEqual([]);
  });
});

describe('what a validated answer must be', () => {
  const q = "What was Orchard's net income in Q3 2023?";
  const wanted = new Set(['orch-q3']);
  const passage = { docId: 'orch-q3', body: '| Net income | $ 19,881 | $ 19,442 |' };

  it('states the figure asked, printed in a cited passage of a document asked about', () => {
    expect(answerStatesWhatWasAsked({ question: q, text: 'Orchard’s net income for the three months ended July 1, 2023 was $19,881 million [1].', cited: [passage], wantedDocIds: wanted })).toEqual({ ok: true, problems: [] });
  });

  it('well-cited sentences that state no figure are no answer to a figure question', () => {
    const r = answerStatesWhatWasAsked({ question: q, text: 'For the period ended 2023-07-01: Net income is discussed in Part I, Item 2. [1]', cited: [{ docId: 'orch-q3', body: 'Net income is discussed in Part I, Item 2.' }], wantedDocIds: wanted });
    expect(r.ok).toBe(false);
    expect(r.problems).toContain('the answer states no figure');
  });

  it('one right citation among another company’s is not validated; nor a figure no cited passage prints', () => {
    const mixed = answerStatesWhatWasAsked({ question: q, text: 'Net income was $19,881 million [1]. Net income was $3,000 million [2].', cited: [passage, { docId: 'other-co', body: 'Net income was $3,000 million.' }], wantedDocIds: wanted });
    expect(mixed.problems).toContain('cites 1 document(s) the question is not about');
    const invented = answerStatesWhatWasAsked({ question: q, text: 'Net income was $20,500 million [1].', cited: [passage], wantedDocIds: wanted });
    expect(invented.problems).toContain('no figure of the answer is printed in a cited passage');
  });
});
