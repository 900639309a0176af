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
import { quotedPages, splitSentences } from '../chunk/index.ts';
import type { LinePages, DocTable } from '../domain/index.ts';
import { detectLang } from '../enrich/index.ts';
import { looksLikeTitle } from '../sectionize/index.ts';
import { detectInstructionLike, analyseQuery, lexicalScores, matchForm, findDateMentions, normaliseQuery, namedReferences, holdsReference } from '../retrieval/index.ts';

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
  /** The body's pages by offset (Chunk.line_pages): a quote's pages are its own. */
  linePages?: LinePages;
  /** The table the passage holds, as data: it is not quoted as sentences. */
  table?: DocTable;
}

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
 * The kinds of statement a question can ask for: `asks` reads the question, `states` a sentence.
 * Korean has no word boundaries a regex knows (`\b` is ASCII), so its words stand alone.
 */
const ANSWER_KINDS: readonly {
  asks: RegExp;
  states: RegExp;
  /** A short line stating it is a table's row, not a heading. */
  row: boolean;
  /** Only a sentence stating it answers at all (see {@link UNSTATED_WEIGHT}). */
  required?: boolean;
}[] = [
  {
    // Amounts, rates, limits, changes or results over periods.
    asks: /\b(?:how\s+much|how\s+many|how\s+(?:large|big)|maximum|minimum|limits?|size|capacity|threshold|amount|revenue|revenues|sales|income|expenses?|costs?|margin|cash|debt|profit|loss|earnings|spending|expenditures?|investments?|inventor(?:y|ies)|repurchases?|buybacks?|dividends?|tax|rates?|impacts?|effects?|affect(?:s|ed)?|fluctuat\w*|liquidity|movements?|shift(?:s|ed)?|scale|magnitude|extent|change[ds]?|increase[ds]?|decrease[ds]?|grow(?:th|n)?|decline[ds]?|trend|compare[ds]?)\b|얼마|금액|비율|몇\s*(?:명|개|건|회|퍼센트|%)/iu,
    states: /[$€£¥₩]\s?\d|\d[\d,.]*\s?(?:%|percent|million|billion|thousand|원|억|만|[KMGT]i?B\b|bytes?\b|characters\b)/iu,
    row: true,
  },
  {
    // A deadline, a period or a date.
    asks: /\b(?:when|how\s+(?:long|soon|often)|by\s+what\s+date|deadline|time\s+limit|within\s+how|how\s+many\s+(?:hours|days|weeks|months|years))\b|언제|기한|기간|며칠|몇\s*(?:시간|일|주|개월|달|년)|얼마\s*(?:동안|만에|나\s*걸)/iu,
    states:
      /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred)\s*(?:\(\d+\)\s*)?(?:[a-z-]+\s+)?(?:hours?|days?|weeks?|months?|years?)\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b|\d+\s*(?:시간|일|주일?|개월|달|년)(?:\s*(?:이내|안에|까지|전|후|동안|마다|이상|이하))?/iu,
    row: true,
  },
  {
    // Who approves, decides or answers for something: a rule names a role or a body, not a person.
    asks: /\bwho(?:m|se)?\b.*\b(?:approv\w*|decid\w*|decision|authori[sz]\w*|sign\w*|review\w*|responsib\w*|accountable|in\s+charge|confirm\w*|grant\w*|permi\w*)|\b(?:approv\w*|decid\w*|authori[sz]\w*|sign\w*|review\w*|grant\w*)\b.*\bwho(?:m|se)?\b|(?:누가|누구|어느\s*(?:부서|기관|팀)).*(?:승인|결정|결재|허가|허락|책임|담당|검토|확인|서명)|(?:승인|결정|결재|허가|허락|책임|담당|검토|확인|서명).*(?:누가|누구|권자)/iu,
    states:
      /\b(?:manager|supervisor|director|head\s+of|committee|board|department|team\s+lead(?:er)?|people\s+operations|human\s+resources|officer|chief|ceo|cfo|president|administrator|owner)s?\b|팀장|부서장|본부장|실장|센터장|인사팀|인사부|총무팀|대표이사|대표자|위원회|책임자|관리자|담당자|승인권자|결재권자|사업주|장관|청장|시장|군수|구청장/iu,
    // "Manager approval" over its section is a heading.
    row: false,
    required: true,
  },
];
/**
 * Sections that are a filing's formalities — certifications, signatures, exhibit indexes — state
 * what every filing states and answer nothing about the company: their sentences weigh half.
 */
const BOILERPLATE_SECTION = /\b(?:certifications?|signatures?|exhibits?(?:\s+index)?)\b/iu;
const BOILERPLATE_WEIGHT = 0.5;

/**
 * A sentence scoring under this share of the best one is filler, not an answer: a second or third
 * sentence is quoted only when it answers nearly as well as the first (a reader wants the answer,
 * not the page).
 */
const RELATIVE_FLOOR = 0.7;

/** A question: an FAQ's, an analyst's on a call, a report's rhetorical one. */
const QUESTION = /[?？][\s"'”’)\]]*$/u;
/**
 * What a question or a heading printed in a passage says the sentence after it is about: that
 * sentence is scored at this share of their match (a statement matching as well by its own words
 * comes first). A question asks what the next sentence answers; a heading names its section's
 * subject, which its first sentence may take for granted ("5.3 Unpaid extension" / "An employee
 * may request up to eight additional weeks").
 */
const LEAD_SHARE: Readonly<Record<Exclude<Role, 'statement'>, number>> = { question: 0.9, heading: 0.8 };
/**
 * The share of a lead's match the statements after its first one get, up to the next lead: a
 * section's later sentences are about its heading too, and an answer may run on ("Requests are
 * approved unless the manager …" after "5.3 Unpaid extension" / "An employee may request …").
 * Below the first's, so they come second unless they state what is asked.
 */
const FOLLOW_SHARE = 0.5;
/** Fewer words than this after a question are an acknowledgement ("Sure.", "Yes."), not its answer. */
const MIN_ANSWER_WORDS = 4;
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

/** A statement can be quoted; a question ({@link QUESTION}) or a heading only leads to one. */
type Role = 'statement' | 'question' | 'heading';

interface Candidate {
  chunk: number;
  position: number;
  text: string;
  /** Where the sentence sits in its passage's body (for the quote's pages and the viewer). */
  start: number;
  end: number;
  role: Role;
}

/** A sentence's lexical match: its score and the share of the question's terms it covers. */
interface Match {
  score: number;
  coverage: number;
}

/**
 * Each candidate's match, a question's or a heading's passed on ({@link LEAD_SHARE}) to the
 * statement it leads to: the first after it in the same passage with {@link MIN_ANSWER_WORDS} words
 * or more, before any further question or heading. An FAQ's answer, an executive's reply or a
 * section's first sentence shares few words with what was asked; the line before it says what it
 * is about. Pure.
 */
export function answerMatches(candidates: readonly Pick<Candidate, 'chunk' | 'text' | 'role'>[], matches: readonly Match[]): Match[] {
  const out = candidates.map((_, i) => ({ score: matches[i]?.score ?? 0, coverage: matches[i]?.coverage ?? 0 }));
  candidates.forEach((cand, i) => {
    if (cand.role === 'statement') return;
    const lead = matches[i];
    if (!lead || lead.coverage <= 0) return;
    let share = LEAD_SHARE[cand.role];
    for (let j = i + 1; j < candidates.length; j++) {
      const next = candidates[j] as Pick<Candidate, 'chunk' | 'text' | 'role'>;
      if (next.chunk !== cand.chunk || next.role !== 'statement') return;
      if (wordCount(next.text) < MIN_ANSWER_WORDS) continue;
      const own = out[j] as Match;
      out[j] = { score: Math.max(own.score, share * lead.score), coverage: Math.max(own.coverage, lead.coverage) };
      share = FOLLOW_SHARE;
    }
  });
  return out;
}

/** Ends as a sentence does: a full stop, a question or exclamation mark, a colon, a Korean ending. */
const SENTENCE_END = /[.!?。:;)…]\s*$|[다요]\.?$/u;

/** A heading or title line rather than a sentence: a few words, no sentence-ending mark. */
function isHeadingFragment(text: string): boolean {
  return !SENTENCE_END.test(text) && (text.split(/\s+/u).length <= 8 || isContentsEntry(text));
}

/**
 * An entry of a table of contents: a title followed by its page number ("Management's Discussion
 * and Analysis of Financial Condition and Results of Operations 15"), however long the title.
 */
function isContentsEntry(text: string): boolean {
  const entry = /^(.*\p{L}.*?)(?:\s*\.{2,})?\s+\d{1,3}$/u.exec(text);
  return entry !== null && looksLikeTitle(entry[1] as string, 24, 200) && !/[$€£¥₩%]/u.test(text);
}

/** States an amount or a time limit: a short line that does ("Unpaid extension up to 8 weeks") is a table's row, not a heading. */
function statesFact(text: string): boolean {
  return ANSWER_KINDS.some((kind) => kind.row && kind.states.test(text));
}

/**
 * A table whose rows were printed as one line of text (one the extraction did not read as a
 * table): many words, several numbers, and no sentence ending. Quoted, it reads as run-on cells
 * ("Component Duration Pay Paid parental leave 16 weeks 100% …") that state no figure as an answer;
 * so are fields set apart by printed bars.
 */
export function isRunOnCells(text: string): boolean {
  // Fields set apart by printed bars: a masthead ("인사팀 | 제정 2022. 5. 2. | 시행 2024. 3. 1."), a row.
  if ((text.match(/\s[|｜]\s/gu)?.length ?? 0) >= 2) return true;
  if (SENTENCE_END.test(text) || text.split(/\s+/u).length <= 12) return false;
  return (text.match(/\d+(?:[.,]\d+)*/gu)?.length ?? 0) >= 3;
}

/**
 * The question less the words that name a passage's document ("in the records exchange protocol"
 * of a document titled "Records Exchange Protocol (REP), Version 1.1"): runs of two or more words
 * that all stand in one title and hold what it calls the document ("protocol", "policy"). They led
 * to the document; within it they match its title page and preamble, not the answer. The question
 * is kept whole when nothing else would be left.
 */
export function withoutDocumentNames(question: string, titles: readonly string[]): string {
  const key = (w: string): string => w.toLowerCase().replace(/['’]s$/u, '').replace(/[^\p{L}\p{N}]+/gu, '');
  const words = question.split(/\s+/u).filter((w) => w !== '');
  const named = new Array<boolean>(words.length).fill(false);
  for (const title of titles) {
    const inTitle = new Set(title.split(/[\s\-–—·,:()]+/u).map(key).filter((w) => w !== ''));
    // What the title calls the document: the last word of its first part ("Protocol" in "Records
    // Exchange Protocol (REP), Version 1.1"). "my parental leave" names a subject, not the policy.
    const head = key(title.split(/\s*[,(:—–]\s*|\s+-\s+/u)[0]?.trim().split(/\s+/u).at(-1) ?? '');
    for (let i = 0; i < words.length; ) {
      let j = i;
      while (j < words.length && key(words[j] as string) !== '' && inTitle.has(key(words[j] as string))) j++;
      if (j - i >= 2 && words.slice(i, j).some((w) => key(w) === head)) for (let k = i; k < j; k++) named[k] = true;
      i = Math.max(j, i + 1);
    }
  }
  const rest = words.filter((w, i) => !named[i] && /[\p{L}\p{N}]/u.test(w));
  return rest.some((w) => !STOP_WORDS.has(key(w))) ? words.filter((_, i) => !named[i]).join(' ') : question;
}

/** Question words that say nothing of what is asked: a question of only these and names is kept whole. */
const STOP_WORDS = new Set(['what', 'which', 'who', 'how', 'when', 'where', 'why', 'is', 'are', 'was', 'were', 'does', 'do', 'did', 'the', 'a', 'an', 'in', 'of', 'on', 'for', 'to', 'say', 'says', 'about']);

/**
 * The title of a passage's own section when its body does not start with it: the last part of its
 * section path, unless that is the preamble (text before the first heading) or only the document's title.
 */
function sectionTitle(chunk: Pick<AnswerChunk, 'sectionPath' | 'body' | 'title'>): string | null {
  const title = chunk.sectionPath.split(' > ').at(-1)?.trim() ?? '';
  if (title === '' || title === 'Preamble' || title === chunk.title) return null;
  return chunk.body.trimStart().startsWith(title) ? null : title;
}

/** Words of a text: whitespace-separated tokens with a letter or digit, citation markers (`[1]`) not counted. */
export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w) && !/^\[\d+\][.,;:]?$/u.test(w)).length;
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
 * from the passages that are it, when there are any ({@link namedReferences}).
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
  const references = namedReferences(question);
  const provisions = input.chunks.flatMap((chunk, c) => (references.some((r) => holdsReference(chunk, r)) ? [c] : []));
  const provision = input.chunks[provisions[0] ?? -1];
  const named = new Set(provision?.table ? [] : provisions.filter((c) => input.chunks[c]?.docId === provision?.docId));
  const candidates: Candidate[] = [];
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
    if (section) candidates.push({ chunk: c, position: position++, text: section, start: 0, end: 0, role: 'heading' });
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
          const role: Role = isHeadingFragment(t) && !statesFact(t) ? 'heading' : QUESTION.test(t) ? 'question' : 'statement';
          candidates.push({ chunk: c, position: position++, text: t, start, end, role });
          afterQuestion = role === 'question';
        }
      }
    }
  });
  const titles = [...new Set(input.chunks.map((c) => c.title))];
  const scores = answerMatches(candidates, lexicalScores(analyseQuery(withoutDocumentNames(question, titles)), candidates.map((c) => c.text)));
  // A question about amounts, a deadline or who decides is answered by sentences that state them.
  const asked = ANSWER_KINDS.filter((kind) => kind.asks.test(question));

  const n = Math.max(1, input.chunks.length);
  const ranked = candidates
    .map((cand, i) => ({
      cand,
      // The passages arrive ranked by reranker, priors and memory: that order counts a little.
      score:
        ((1 - RANK_WEIGHT) * (scores[i]?.score ?? 0) + RANK_WEIGHT * (1 - cand.chunk / n) + (asked.some((kind) => kind.states.test(cand.text)) ? ANSWER_KIND_BONUS : 0)) *
        (asked.every((kind) => !kind.required || kind.states.test(cand.text)) ? 1 : UNSTATED_WEIGHT) *
        (named.size === 0 || named.has(cand.chunk) ? 1 : 0) *
        (BOILERPLATE_SECTION.test(input.chunks[cand.chunk]?.sectionPath ?? '') ? BOILERPLATE_WEIGHT : 1),
      coverage: scores[i]?.coverage ?? 0,
    }))
    .filter((x) => x.coverage > 0 && x.cand.role === 'statement')
    .sort((a, b) => b.score - a.score || a.cand.chunk - b.cand.chunk || a.cand.position - b.cand.position);
  const best = ranked[0]?.score ?? 0;

  const maxWords = Math.max(10, Math.floor(input.maxWords ?? 80));
  const short = shortQualifier(dateQualifier);
  const lead = input.lead === false ? '' : lang === 'ko' ? `${short}:` : `${short.charAt(0).toUpperCase()}${short.slice(1)}:`;
  let budget = maxWords - wordCount(lead);
  const chosen: Candidate[] = [];
  const forms: string[] = [];
  for (const { cand, score } of ranked) {
    if (chosen.length >= maxSentences || score < best * RELATIVE_FLOOR) break;
    const form = matchForm(cand.text);
    if (forms.some((f) => f.includes(form) || form.includes(f))) continue;
    const words = wordCount(cand.text);
    // The best sentence is always said, cut if it must be; the rest only while they fit.
    if (chosen.length > 0 && words > budget) continue;
    forms.push(form);
    chosen.push(chosen.length === 0 && words > budget ? { ...cand, text: cutToWords(cand.text, Math.max(5, budget)) } : cand);
    budget -= Math.min(words, budget);
  }
  if (chosen.length === 0) {
    // Said plainly: a withheld passage may have matched, and "not found" would hide why.
    const withheldMatched = withheld.length > 0 && untrustedWouldMatch(question, input.chunks, withheld);
    return { text: (withheldMatched ? NOT_TRUSTWORTHY : NOT_FOUND)[lang], citations: [], dateQualifier, lang, withheld };
  }

  const numberOf = new Map<number, number>();
  const citations: Citation[] = [];
  const parts = chosen.map((cand) => {
    const ch = input.chunks[cand.chunk] as AnswerChunk;
    let n = numberOf.get(cand.chunk);
    if (n === undefined) {
      n = citations.length + (input.firstCitation ?? 1);
      numberOf.set(cand.chunk, n);
      citations.push({
        n,
        chunkId: ch.chunkId,
        docId: ch.docId,
        title: ch.title,
        sectionPath: ch.sectionPath,
        pages: { start: ch.pageStart, end: ch.pageEnd },
        validFrom: ch.validFrom,
        validTo: ch.validTo,
        quote: { start: cand.start, end: cand.end },
      });
    }
    return `${cand.text} [${n}]`;
  });
  // A citation's pages are those of the lines it quotes (all its quoted sentences).
  for (const citation of citations) {
    const quoted = chosen.filter((c) => input.chunks[c.chunk]?.chunkId === citation.chunkId);
    const start = Math.min(...quoted.map((c) => c.start));
    const end = Math.max(...quoted.map((c) => c.end));
    const ch = input.chunks.find((c) => c.chunkId === citation.chunkId) as AnswerChunk;
    const pages = quotedPages(ch.linePages, start, end, { pageStart: ch.pageStart, pageEnd: ch.pageEnd });
    citation.pages = { start: pages.pageStart, end: pages.pageEnd };
    citation.quote = { start, end };
  }
  return { text: lead ? `${lead} ${parts.join(' ')}` : parts.join(' '), citations, dateQualifier, lang, withheld };
}

/** Some sentence of a withheld passage covers part of the question. */
function untrustedWouldMatch(question: string, chunks: readonly AnswerChunk[], withheld: ExtractiveAnswer['withheld']): boolean {
  const ids = new Set(withheld.map((w) => w.chunkId));
  const texts = chunks.filter((c) => ids.has(c.chunkId)).flatMap((c) => splitSentences(c.body).map(clip));
  return lexicalScores(analyseQuery(question), texts).some((x) => x.coverage > 0);
}
