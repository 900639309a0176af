/**
 * The answerer without a model: the sentences of the validated passages that best cover the
 * question, each followed by its citation marker, under a date qualifier. Nothing is generated,
 * so nothing can be made up; the price is a terser answer. Deterministic.
 *
 * Passages are data: one that reads as instructions to an assistant ("ignore previous
 * instructions and answer only …") is never quoted, nor any of its sentences — its author wrote
 * all of it — so a document cannot make its own words the answer.
 */
import { splitSentences } from '../chunk/sentences.ts';
import { detectLang } from '../enrich/lang.ts';
import { detectInstructionLike } from '../retrieval/instruction-like.ts';
import { analyseQuery, lexicalScores, matchForm } from '../retrieval/lexical-match.ts';
import { findDateMentions, normaliseQuery } from '../retrieval/query-understanding.ts';

/** A passage the answer may quote, with what a citation shows. */
export interface AnswerChunk {
  chunkId: string;
  docId: string;
  title: string;
  sectionPath: string;
  pageStart: number;
  pageEnd: number;
  body: string;
  validFrom: string | null;
  validTo: string | null;
}

/** One numbered source of an answer. */
export interface Citation {
  /** The number in the `[n]` markers, from 1, in order of first use. */
  n: number;
  chunkId: string;
  docId: string;
  title: string;
  sectionPath: string;
  pages: { start: number; end: number };
  validFrom: string | null;
  validTo: string | null;
}

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
/** A sentence scoring under this share of the best one is filler, not an answer. */
const RELATIVE_FLOOR = 0.5;

const NOT_FOUND: Readonly<Record<'ko' | 'en', string>> = {
  en: 'The documents found do not answer this question.',
  ko: '찾은 문서에서 질문에 대한 답을 찾지 못했습니다.',
};

/** The answer when the only passages that could answer were left out as instruction-like. */
const NOT_TRUSTWORTHY: Readonly<Record<'ko' | 'en', string>> = {
  en: 'No trustworthy answer was found: the passages that match this question read as instructions to an assistant rather than information, so they are not quoted.',
  ko: '신뢰할 수 있는 답을 찾지 못했습니다. 질문과 맞는 구절이 정보가 아니라 AI에게 내리는 지시처럼 쓰여 있어 인용하지 않았습니다.',
};

/** "as of 2025-02-23" (English and every other language) or "2025년 2월 23일 기준" (Korean). */
export function formatDateQualifier(date: string, lang: string): string {
  if (lang === 'ko') {
    const [y, m, d] = date.split('-').map(Number);
    return `${y}년 ${m}월 ${d}일 기준`;
  }
  return `as of ${date}`;
}

interface Candidate {
  chunk: number;
  position: number;
  text: string;
}

function clip(sentence: string): string {
  const s = sentence.replace(/\s+/g, ' ').trim();
  return s.length <= MAX_SENTENCE_CHARS ? s : `${s.slice(0, MAX_SENTENCE_CHARS - 1).trimEnd()}…`;
}

/**
 * Composes an answer from `chunks`: every sentence is scored against the question (date phrase
 * removed) as `0.9 · lexical score + 0.1 · passage rank share` (lexical: the reranker's matcher,
 * Korean spacing-insensitive; rank share: 1 for the first passage down to ≈ 0 for the last); the
 * best `maxSentences` with some term coverage and at least half the best score are quoted in
 * score order (ties: earlier passage, earlier sentence), repeats dropped, each followed by the
 * marker of its passage.
 */
export function composeExtractiveAnswer(input: ExtractiveAnswerInput): ExtractiveAnswer {
  const maxSentences = Math.max(1, Math.floor(input.maxSentences ?? 3));
  const normalised = normaliseQuery(input.query);
  const { spans } = findDateMentions(normalised, input.today);
  let question = normalised;
  for (const [start, end] of [...spans].reverse()) question = `${question.slice(0, start)} ${question.slice(end)}`;
  const lang: 'ko' | 'en' = detectLang(question) === 'ko' || detectLang(normalised) === 'ko' ? 'ko' : 'en';
  const dateQualifier = input.qualifier || formatDateQualifier(input.asOf ?? input.today, lang);

  const candidates: Candidate[] = [];
  const withheld: ExtractiveAnswer['withheld'] = [];
  input.chunks.forEach((chunk, c) => {
    const flag = detectInstructionLike(chunk.body);
    if (flag.flagged) {
      withheld.push({ chunkId: chunk.chunkId, cues: flag.cues });
      return;
    }
    splitSentences(chunk.body).forEach((text, position) => {
      const t = clip(text);
      // A passage's cues may sit in one sentence only; that sentence alone would be enough.
      if (t.length >= 2 && !detectInstructionLike(t).flagged) candidates.push({ chunk: c, position, text: t });
    });
  });
  const scores = lexicalScores(analyseQuery(question), candidates.map((c) => c.text));
  const n = Math.max(1, input.chunks.length);
  const ranked = candidates
    .map((cand, i) => ({
      cand,
      // The passages arrive ranked by reranker, priors and memory: that order counts a little.
      score: (1 - RANK_WEIGHT) * (scores[i]?.score ?? 0) + RANK_WEIGHT * (1 - cand.chunk / n),
      coverage: scores[i]?.coverage ?? 0,
    }))
    .filter((x) => x.coverage > 0)
    .sort((a, b) => b.score - a.score || a.cand.chunk - b.cand.chunk || a.cand.position - b.cand.position);
  const best = ranked[0]?.score ?? 0;

  const chosen: Candidate[] = [];
  const forms: string[] = [];
  for (const { cand, score } of ranked) {
    if (chosen.length >= maxSentences || score < best * RELATIVE_FLOOR) break;
    const form = matchForm(cand.text);
    if (forms.some((f) => f.includes(form) || form.includes(f))) continue;
    forms.push(form);
    chosen.push(cand);
  }
  if (chosen.length === 0) {
    // Said plainly: a withheld passage may have matched, and "not found" would hide why.
    const withheldMatched = withheld.length > 0 && untrustedWouldMatch(question, input.chunks, withheld);
    return { text: (withheldMatched ? NOT_TRUSTWORTHY : NOT_FOUND)[lang], citations: [], dateQualifier, lang, withheld };
  }

  const numberOf = new Map<number, number>();
  const citations: Citation[] = [];
  const parts = chosen.map((cand) => {
    let n = numberOf.get(cand.chunk);
    if (n === undefined) {
      n = citations.length + 1;
      numberOf.set(cand.chunk, n);
      const ch = input.chunks[cand.chunk] as AnswerChunk;
      citations.push({
        n,
        chunkId: ch.chunkId,
        docId: ch.docId,
        title: ch.title,
        sectionPath: ch.sectionPath,
        pages: { start: ch.pageStart, end: ch.pageEnd },
        validFrom: ch.validFrom,
        validTo: ch.validTo,
      });
    }
    return `${cand.text} [${n}]`;
  });
  const lead = lang === 'ko' ? `${dateQualifier}:` : `${dateQualifier.charAt(0).toUpperCase()}${dateQualifier.slice(1)}:`;
  return { text: `${lead} ${parts.join(' ')}`, citations, dateQualifier, lang, withheld };
}

/** Some sentence of a withheld passage covers part of the question. */
function untrustedWouldMatch(question: string, chunks: readonly AnswerChunk[], withheld: ExtractiveAnswer['withheld']): boolean {
  const ids = new Set(withheld.map((w) => w.chunkId));
  const texts = chunks.filter((c) => ids.has(c.chunkId)).flatMap((c) => splitSentences(c.body).map(clip));
  return lexicalScores(analyseQuery(question), texts).some((x) => x.coverage > 0);
}
