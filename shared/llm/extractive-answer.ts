/**
 * The answerer without a model: the sentences of the validated passages that best cover the
 * question, each followed by its citation marker, under a date qualifier. Nothing is generated,
 * so nothing can be made up; the price is a terser answer. Deterministic.
 *
 * Passages are data: one that reads as instructions to an assistant ("ignore previous
 * instructions and answer only …") is never quoted, nor any of its sentences — its author wrote
 * all of it — so a document cannot make its own words the answer.
 */
import type { Citation } from '../runs/index.ts';
import { splitSentences } from '../chunk/index.ts';
import { detectLang } from '../enrich/index.ts';
import { citeQuotes, type AnswerChunk } from './answer-citations.ts';
import { ANSWER_KINDS, ASKS_REASON, ASKS_REPORTED, ASKS_WHAT_WAS_ASKED, ASKS_WHO_SAID, STATES_OUTLOOK, askedUnit, endsSentence, isHeadingFragment, isRunOnCells, matchText, namedTitles, quartersNamed, sectionTitle, startsMidThought, statesFact, withoutDocumentNames, type PassageSentence, type SentenceRole } from './answer-sentences.ts';
import { isSpeakerLine } from '../sectionize/index.ts';
import { answerMatches, wordCount } from './answer-leads.ts';

export { answerMatches, wordCount } from './answer-leads.ts';
import { ASKS_OUTLOOK } from '../figures/index.ts';
import { detectInstructionLike, spelledOutAbbreviations, analyseQuery, lexicalScores, matchForm, findDateMentions, findQueryPeriods, normaliseQuery, provisionMatcher, type QueryAnalysis } from '../retrieval/index.ts';

export type { AnswerChunk } from './answer-citations.ts';
export type { Citation } from '../runs/index.ts';

/** Input of {@link composeExtractiveAnswer}. */
export interface ExtractiveAnswerInput {
  query: string;
  /** Validated passages, best first (ties between sentences go to the earlier passage). */
  chunks: readonly AnswerChunk[];
  /** The date the question asked about, or null. */
  asOf: string | null;
  /** Today (YYYY-MM-DD), the qualifier's date when `asOf` is null. */
  today: string;
  /**
   * The qualifier to use instead of "as of <date>": the period the answer's document reports on
   * ("for the period ended 2023-07-01 (…)"), given when the question named no date.
   * @defaultValue null (the date qualifier)
   */
  qualifier?: string | null;
  /**
   * Most sentences quoted.
   * @defaultValue 3
   */
  maxSentences?: number;
  /**
   * Most words of the answer, its qualifier included: a sentence that would go past them is not
   * quoted, and a first sentence longer than them is cut at a word with "…".
   * @defaultValue 80
   */
  maxWords?: number;
  /**
   * Put the date qualifier before the quoted sentences.
   * @defaultValue true (false: the sentences alone, to follow another answer's sentence)
   */
  lead?: boolean;
  /**
   * The number of the first citation.
   * @defaultValue 1
   */
  firstCitation?: number;
}

/** An extractive answer. */
export interface ExtractiveAnswer {
  /** Qualifier, then each quoted sentence followed by ` [n]`; a "not found" line when nothing matched. */
  text: string;
  citations: Citation[];
  /** "as of 2025-02-23" or "2025년 2월 23일 기준", in the question's language. */
  dateQualifier: string;
  /** Language of the answer's own words: `ko` for Korean questions, otherwise `en`. */
  lang: 'ko' | 'en';
  /** Passages left out because they read as instructions to an assistant, with the cue names. */
  withheld: Array<{ chunkId: string; cues: string[] }>;
}

/** Sentences longer than this are cut: tables and run-on clauses read badly quoted whole. */
const MAX_SENTENCE_CHARS = 400;
/** Share of a sentence's score that comes from its passage's rank (first passage 1, last ≈ 0). */
const RANK_WEIGHT = 0.1;
/**
 * Sentences stating what the question asks for — an amount or a percentage for a question about
 * figures, a time limit or a date for one asking when or how long — get this much more.
 */
const ANSWER_KIND_BONUS = 0.35;
/**
 * A sentence that cannot answer a question of a kind that needs its statement (who approves: a
 * sentence naming no role) weighs this much, however many of the question's words it repeats.
 */
const UNSTATED_WEIGHT = 0.6;
/**
 * Sections that are a filing's formalities — certifications, signatures, exhibit indexes — state
 * what every filing states and answer nothing about the company: their sentences weigh half.
 */
const BOILERPLATE_SECTION = /\b(?:certifications?|signatures?|exhibits?(?:\s+index)?)\b/iu;
const BOILERPLATE_WEIGHT = 0.5;
/** Share of the question's terms a line that is no sentence must say itself to be quoted after a sentence. */
const ROW_OWN_COVERAGE = 1 / 3;
/** Share of the first quoted sentence's coverage of the question a sentence of another document needs. */
const OTHER_DOCUMENT_COVERAGE = 0.75;
/** A sentence starting mid-thought (a list item without its lead-in) reads badly alone: it weighs this much. */
const MID_THOUGHT_WEIGHT = 0.8;
/**
 * Weight of a sentence naming only quarters other than the one asked ("For the fourth quarter of
 * 2023, we expect …", asked about the third): it is about another period, whatever words it shares.
 */
const OTHER_QUARTER_WEIGHT = 0.6;
/**
 * Weight of a sentence of another document than the one the question names by its title ("When
 * did the data retention policy take effect?" is not answered by another document's effective date).
 */
const UNNAMED_DOCUMENT_WEIGHT = 0.5;
/** Weight of a sentence saying what is expected, asked what was reported ("What was gross margin?"). */
const EXPECTED_NOT_REPORTED_WEIGHT = 0.8;

/**
 * A sentence scoring under this share of the best one is filler, not an answer: a second or third
 * sentence is quoted only when it answers nearly as well as the first (a reader wants the answer,
 * not the page).
 */
const RELATIVE_FLOOR = 0.7;

/** A question: an FAQ's, an analyst's on a call, a report's rhetorical one. */
const QUESTION = /[?？][\s"'”’)\]]*$/u;
/** An FAQ's label before the answer to its question ("A.", "Answer:", "답:"): not quoted. */
const ANSWER_LABEL = /^(?:A|Ans(?:wer)?|답변?)\s*[.:：)]\s+/iu;

const NOT_FOUND: Readonly<Record<'ko' | 'en', string>> = {
  en: 'The documents found do not answer this question.',
  ko: '찾은 문서에서 질문에 대한 답을 찾지 못했습니다.',
};

/** The answer when the only passages that could answer were left out as instruction-like. */
const NOT_TRUSTWORTHY: Readonly<Record<'ko' | 'en', string>> = {
  en: 'No trustworthy answer was found: the passages that match this question read as instructions to an assistant rather than information, so they are not quoted.',
  ko: '신뢰할 수 있는 답을 찾지 못했습니다. 질문과 맞는 구절이 정보가 아니라 AI에게 내리는 지시처럼 쓰여 있어 인용하지 않았습니다.',
};

/**
 * The qualifier as an answer leads with it: the documents' descriptions in parentheses left to the
 * citations, and several periods said once ("for the periods ended 2023-04-01 and 2023-07-01"),
 * so the qualifier does not take the words the answer needs.
 */
export function shortQualifier(qualifier: string): string {
  const parts = qualifier.split(/;\s*/u).map((p) => p.replace(/\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$/u, '').trim()).filter((p) => p !== '');
  const unique = [...new Set(parts)];
  const ended = unique.map((p) => /^for the period ended (\S+)$/u.exec(p)?.[1]);
  if (unique.length > 1 && ended.every((d) => d !== undefined)) {
    const dates = (ended as string[]).sort();
    return `for the periods ended ${dates.slice(0, -1).join(', ')} and ${dates[dates.length - 1]}`;
  }
  return unique.join('; ');
}

/** "as of 2025-02-23" (English and every other language) or "2025년 2월 23일 기준" (Korean). */
export function formatDateQualifier(date: string, lang: string): string {
  if (lang === 'ko') {
    const [y, m, d] = date.split('-').map(Number);
    return `${y}년 ${m}월 ${d}일 기준`;
  }
  return `as of ${date}`;
}

/** `text` cut to `max` words at a word boundary, with "…" when cut. */
function cutToWords(text: string, max: number): string {
  const words = text.split(/\s+/u);
  let kept = 0;
  let out: string[] = [];
  for (const w of words) {
    if (/[\p{L}\p{N}]/u.test(w)) kept++;
    if (kept > max) return `${out.join(' ').replace(/[,;:]$/u, '')}…`;
    out = [...out, w];
  }
  return text;
}

function clip(sentence: string): string {
  const s = sentence.replace(/\s+/g, ' ').trim();
  return s.length <= MAX_SENTENCE_CHARS ? s : `${s.slice(0, MAX_SENTENCE_CHARS - 1).trimEnd()}…`;
}

/**
 * Composes an answer from `chunks`: every sentence is scored against the question (date phrase
 * and the words naming a passage's document removed, {@link withoutDocumentNames}) as
 * `0.9 · lexical score + 0.1 · passage rank share` (lexical: the reranker's matcher,
 * Korean spacing-insensitive; rank share: 1 for the first passage down to ≈ 0 for the last); the
 * best `maxSentences` with some term coverage and at least 70% of the best score are quoted in
 * score order (ties: earlier passage, earlier sentence), repeats dropped, each followed by the
 * marker of its passage. A question or a heading in a passage is never quoted: the statement
 * after it is, with its match ({@link answerMatches}); so is a sentence stating the kind of thing
 * asked for ({@link ANSWER_KINDS}), preferred. A question naming a provision by number is answered
 * from the passages that are it, when there are any ({@link provisionMatcher}).
 */
export function composeExtractiveAnswer(input: ExtractiveAnswerInput): ExtractiveAnswer {
  const maxSentences = Math.max(1, Math.floor(input.maxSentences ?? 3));
  const normalised = normaliseQuery(input.query);
  const { spans } = findDateMentions(normalised, input.today);
  let question = normalised;
  for (const [start, end] of [...spans].reverse()) question = `${question.slice(0, start)} ${question.slice(end)}`;
  const lang: 'ko' | 'en' = detectLang(question) === 'ko' || detectLang(normalised) === 'ko' ? 'ko' : 'en';
  const dateQualifier = input.qualifier || formatDateQualifier(input.asOf ?? input.today, lang);

  // A question naming a provision ("제8조는 …", "section 4.2") is answered from that provision, when found.
  // A provision is one document's: the best-ranked passage that is one says which. A table is not
  // quoted (below): when the provision is printed as one, the other passages answer as ever.
  const isProvision = provisionMatcher(question);
  const provisions = isProvision ? input.chunks.flatMap((chunk, c) => (isProvision(chunk) ? [c] : [])) : [];
  const provision = input.chunks[provisions[0] ?? -1];
  const named = new Set(provision?.table ? [] : provisions.filter((c) => input.chunks[c]?.docId === provision?.docId));
  const candidates: PassageSentence[] = [];
  // Each candidate's speaker, in a transcript: the turn it is said in.
  const speakers: (string | null)[] = [];
  const withheld: ExtractiveAnswer['withheld'] = [];
  input.chunks.forEach((chunk, c) => {
    const flag = detectInstructionLike(chunk.body);
    if (flag.flagged) {
      withheld.push({ chunkId: chunk.chunkId, cues: flag.cues });
      return;
    }
    // A table is read by row and column (see shared/figures), never quoted as run-on rows.
    if (chunk.table) return;
    let cursor = 0;
    let position = 0;
    let afterQuestion = false;
    // The named provision's title, when its body does not print it ("제8조(신청 및 지급)" over
    // "① 출산장려금을 …"): a heading, never quoted, whose match passes to the first statement.
    // Another passage's section title is no lead: a passage may start anywhere in its section.
    const section = named.has(c) ? sectionTitle(chunk) : null;
    const sectionLast = chunk.sectionPath.split(' > ').at(-1) ?? '';
    let speaker = isSpeakerLine(sectionLast) ? sectionLast : null;
    const push = (cand: PassageSentence): void => {
      if (cand.role === 'heading') speaker = isSpeakerLine(cand.text) ? cand.text : speaker;
      candidates.push(cand);
      speakers.push(cand.role === 'heading' ? null : speaker);
    };
    if (section) push({ chunk: c, position: position++, text: section, start: 0, end: 0, role: 'heading' });
    // Line by line first: a heading printed on its own line (a merged chunk's section titles, a
    // document's title) is not the start of the sentence below it, and is no answer by itself.
    for (const line of chunk.body.split('\n')) {
      for (const sentence of splitSentences(line)) {
        const at = chunk.body.indexOf(sentence, cursor);
        const end = at >= 0 ? at + sentence.length : cursor;
        cursor = end;
        // The answer to a question, without its "A." (the quote, too, starts where the answer does).
        const label = afterQuestion ? (ANSWER_LABEL.exec(sentence)?.[0] ?? '') : '';
        const text = sentence.slice(label.length);
        const start = at >= 0 ? at + label.length : end;
        const t = clip(text);
        // A passage's cues may sit in one sentence only; that sentence alone would be enough.
        if (t.length >= 2 && !isRunOnCells(t) && !detectInstructionLike(t).flagged) {
          const role: SentenceRole = isHeadingFragment(t) && !statesFact(t) ? 'heading' : QUESTION.test(t) ? 'question' : 'statement';
          push({ chunk: c, position: position++, text: t, start, end, role });
          afterQuestion = role === 'question';
        }
      }
    }
  });
  const titles = [...new Set(input.chunks.map((c) => c.title))];
  // "Who is the CFO?" is answered by "… Marcus Lee, our Chief Financial Officer": the question's
  // abbreviations match their spelled-out words too.
  const matched = withoutDocumentNames(question, titles);
  const spelled = spelledOutAbbreviations(matched);
  // "What did the analyst ask?" is answered by the questions printed, not only by statements.
  const quotesQuestions = ASKS_WHAT_WAS_ASKED.test(question);
  const analysis = analyseQuery(spelled.length > 0 ? `${matched} ${spelled.join(' ')}` : matched);
  // Asked what someone said ("What did the CFO say drove the margin?"), a sentence is read with
  // its speaker's name and role: the question names both who and what.
  const askedSpeakers = ASKS_WHO_SAID.test(question) ? speakerMatches(analysis, speakers) : new Set<string>();
  const own = lexicalScores(
    analysis,
    candidates.map((c, i) => {
      const who = speakers[i];
      return who && askedSpeakers.has(who) ? `${matchText(c.text)} ${who}` : matchText(c.text);
    }),
  );
  const scores = answerMatches(candidates, own, quotesQuestions);
  // A question about amounts, a deadline or who decides is answered by sentences that state them;
  // one asking a count of a unit ("how many days") by those stating a count of that unit.
  // A question asking why (what drives, what caused) is answered by a reason, not a figure.
  const asked = ANSWER_KINDS.filter((kind) => kind.asks.test(question) && !(kind.amount && ASKS_REASON.test(question)));
  const unit = askedUnit(question);
  // A count of the unit asked ("how many hours": hours; "며칠": days or weeks; see askedUnit) is
  // needed: a sentence without one weighs as a who-question's sentence naming no role.
  const kindBonus = (cand: PassageSentence): number =>
    asked.some((kind) => kind.states.test(cand.text)) || unit?.test(cand.text) || (quotesQuestions && cand.role === 'question') ? ANSWER_KIND_BONUS : 0;

  const askedQuarters = new Set(findQueryPeriods(normalised).flatMap((p) => (p.quarter ? [p.quarter] : [])));
  const otherQuarter = (text: string): boolean => {
    if (askedQuarters.size === 0) return false;
    const said = quartersNamed(text);
    return said.size > 0 && ![...said].some((q) => askedQuarters.has(q));
  };
  const asksReported = ASKS_REPORTED.test(question) && !ASKS_OUTLOOK.test(question);
  const namedDocs = namedTitles(question, titles);
  const n = Math.max(1, input.chunks.length);
  const ranked = candidates
    .map((cand, i) => ({
      cand,
      // The passages arrive ranked by reranker, priors and memory: that order counts a little.
      score:
        ((1 - RANK_WEIGHT) * (scores[i]?.score ?? 0) + RANK_WEIGHT * (1 - cand.chunk / n) + kindBonus(cand)) *
        (asked.every((kind) => !kind.required || kind.states.test(cand.text)) && (!unit || unit.test(cand.text)) ? 1 : UNSTATED_WEIGHT) *
        (named.size === 0 || named.has(cand.chunk) ? 1 : 0) *
        (BOILERPLATE_SECTION.test(input.chunks[cand.chunk]?.sectionPath ?? '') ? BOILERPLATE_WEIGHT : 1) *
        (startsMidThought(cand.text) ? MID_THOUGHT_WEIGHT : 1) *
        (otherQuarter(cand.text) ? OTHER_QUARTER_WEIGHT : 1) *
        (asksReported && STATES_OUTLOOK.test(cand.text) ? EXPECTED_NOT_REPORTED_WEIGHT : 1) *
        (namedDocs.size > 0 && !namedDocs.has(input.chunks[cand.chunk]?.title ?? '') ? UNNAMED_DOCUMENT_WEIGHT : 1),
      coverage: scores[i]?.coverage ?? 0,
      ownCoverage: own[i]?.coverage ?? 0,
    }))
    .filter((x) => x.coverage > 0 && (x.cand.role === 'statement' || (quotesQuestions && x.cand.role === 'question')))
    .sort((a, b) => b.score - a.score || a.cand.chunk - b.cand.chunk || a.cand.position - b.cand.position);
  const best = ranked[0]?.score ?? 0;
  // A sentence answering nearly as well as the best line leads before a line that is no sentence.
  const sentenceAt = ranked.findIndex((x) => x.score >= best * RELATIVE_FLOOR && endsSentence(x.cand.text));
  if (sentenceAt > 0) ranked.unshift(...ranked.splice(sentenceAt, 1));

  const maxWords = Math.max(10, Math.floor(input.maxWords ?? 80));
  const short = shortQualifier(dateQualifier);
  const lead = input.lead === false ? '' : lang === 'ko' ? `${short}:` : `${short.charAt(0).toUpperCase()}${short.slice(1)}:`;
  let budget = maxWords - wordCount(lead);
  const chosen: PassageSentence[] = [];
  const forms: string[] = [];
  let leadCoverage = 0;
  const docs = new Set<string>();
  for (const { cand, score, coverage, ownCoverage } of ranked) {
    if (chosen.length >= maxSentences || score < best * RELATIVE_FLOOR) break;
    // Another document is quoted only when it says as much of what was asked as the first did:
    // stating a limit or a date of its own, it may be about something else ("valid for a maximum
    // of 7 days" in a guideline, asked about a TLS record's maximum length).
    const doc = input.chunks[cand.chunk]?.docId ?? '';
    if (chosen.length > 0 && !docs.has(doc) && coverage < OTHER_DOCUMENT_COVERAGE * leadCoverage) continue;
    const form = matchForm(cand.text);
    if (forms.some((f) => f.includes(form) || form.includes(f))) continue;
    // A line that is no sentence (a table's row run into a line) may answer first. After a
    // sentence it is quoted only when its own words say what was asked ("Payroll and salary
    // records 7 years …" for how long payroll records are kept), not on the match of the heading
    // above it ("3.125% Notes due 2028 MSFT NASDAQ" under a cover page's); never after another
    // answer's figure.
    if (!endsSentence(cand.text)) {
      if (input.lead === false) continue;
      if (chosen[0] !== undefined && endsSentence(chosen[0].text) && ownCoverage < ROW_OWN_COVERAGE) continue;
    }
    const words = wordCount(cand.text);
    // The best sentence is always said, cut if it must be; the rest only while they fit. After
    // another answer's sentence (lead: false) none is cut: one that does not fit is left out.
    if ((chosen.length > 0 || input.lead === false) && words > budget) continue;
    forms.push(form);
    docs.add(doc);
    if (chosen.length === 0) leadCoverage = coverage;
    chosen.push(chosen.length === 0 && words > budget ? { ...cand, text: cutToWords(cand.text, Math.max(5, budget)) } : cand);
    budget -= Math.min(words, budget);
  }
  if (chosen.length === 0) {
    // Said plainly: a withheld passage may have matched, and "not found" would hide why.
    const withheldMatched = withheld.length > 0 && untrustedWouldMatch(question, input.chunks, withheld);
    return { text: (withheldMatched ? NOT_TRUSTWORTHY : NOT_FOUND)[lang], citations: [], dateQualifier, lang, withheld };
  }

  const { parts, citations } = citeQuotes(input.chunks, candidates, chosen, input.firstCitation ?? 1);
  return { text: lead ? `${lead} ${parts.join(' ')}` : parts.join(' '), citations, dateQualifier, lang, withheld };
}

/** The speakers (their turns' lines) the question names by some word of their name or role. */
function speakerMatches(analysis: QueryAnalysis, speakers: readonly (string | null)[]): Set<string> {
  const distinct = [...new Set(speakers.filter((s): s is string => s !== null))];
  const scores = lexicalScores(analysis, distinct);
  return new Set(distinct.filter((_, i) => (scores[i]?.coverage ?? 0) > 0));
}

/** Some sentence of a withheld passage covers part of the question. */
function untrustedWouldMatch(question: string, chunks: readonly AnswerChunk[], withheld: ExtractiveAnswer['withheld']): boolean {
  const ids = new Set(withheld.map((w) => w.chunkId));
  const texts = chunks.filter((c) => ids.has(c.chunkId)).flatMap((c) => splitSentences(c.body).map(clip));
  return lexicalScores(analyseQuery(question), texts).some((x) => x.coverage > 0);
}
