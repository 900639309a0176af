/**
 * Query-term matching without an index or a model, shared by the lexical reranker and the
 * extractive answerer. Korean is matched spacing-insensitively: both sides drop the spaces inside
 * Hangul runs and Hangul is compared by syllable bigrams, so "출산 장려금" and "출산장려금" are the
 * same query and match the same passages (seed 000 §9.6). Latin words are matched as whole words
 * with a light plural fold ("leaves" = "leave").
 */
import { isNounLike, stripParticle } from '../enrich/index.ts';
import { createLru } from '../lru.ts';
import { spellOutLoneGreek, americanSpellingOfText } from '../store/index.ts';
import { spaceNonWords } from './word-gaps.ts';

/** One thing a passage may contain: a Latin word stem, a Hangul bigram, or an exact reference. */
export interface MatchUnit {
  /** The stem, bigram or reference, in {@link matchForm}. */
  key: string;
  kind: 'word' | 'gram' | 'exact';
}

/** A query prepared for matching. */
export interface QueryAnalysis {
  /** Distinct units, in query order. */
  units: MatchUnit[];
  /** Content words in query order: Latin words as written (lower case) and Korean stems. */
  words: string[];
  /** Content of the query in {@link matchForm} (stopwords dropped); '' when nothing is left. */
  core: string;
  /** Quoted segments in {@link matchForm}: each must appear verbatim for the phrase credit. */
  quoted: string[];
  /** Adjacent Latin content-word pairs ("parental leave"), for partial phrase credit. */
  pairs: string[];
}

/** Per-text outcome of {@link lexicalScores}; every field in [0, 1]. */
export interface LexicalScore {
  score: number;
  /** idf-weighted share of query units the text contains. */
  coverage: number;
  /** How tightly the matched units sit together (1 = as close as in the query). */
  proximity: number;
  /** Quoted segments found, or the whole query core found verbatim. */
  phrase: number;
}

/** Weights of the three parts of a lexical score; they sum to 1 so the score stays in [0, 1]. */
export const LEXICAL_WEIGHTS = { coverage: 0.6, proximity: 0.25, phrase: 0.15 } as const;

/**
 * How much of the distance to 1 a passage's lexical score makes up when its title or section
 * heading covers the query ({@link headedLexicalScores}): a query word in the heading counts
 * again, as a title field does in BM25F. SciFact train (one chunk per abstract, heading = title),
 * reranked nDCG@10 over the same candidates: 0.1 ±0.000, 0.3 +0.001, 0.5 −0.001 (before the
 * keyword side weighed headings a heading bonus was worth +0.004). It never lowers a score, so
 * the validator's grounding threshold (which reads it) means what it did; a version that rescaled
 * every score to make room for the heading cost the filings set most of its validated answers.
 */
export const LEXICAL_HEADING_WEIGHT = 0.3;

const HANGUL = /[\uAC00-\uD7A3]/;

/** English function words and question words: they say nothing about which passage answers. */
const EN_STOPWORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'but', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'from', 'with', 'about', 'as', 'into', 'than', 'then',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did', 'done', 'have', 'has', 'had', 'can', 'could', 'will', 'would',
  'shall', 'should', 'may', 'might', 'must', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'he', 'she', 'it', 'its', 'they', 'them', 'their',
  'this', 'that', 'these', 'those', 'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'much', 'many', 'any', 'some',
  'there', 'here', 'if', 'so', 'not', 'no', 'get', 'gets', 'got', 'please', 'tell', 'know', 'want', 'need', 'way', 'also', 'just', 'all',
]);

/** Korean question and filler words that {@link isNounLike} still accepts as nouns. */
const KO_QUERY_STOPWORDS = new Set(['누가', '누구', '무엇', '뭐', '무슨', '어떤', '어느', '몇', '얼마', '얼마나', '어디', '언제', '어떻게', '알려', '궁금']);

/** Korean article references ("제50조", "제2조의2"), matched as one exact unit. */
const KO_ARTICLE = /제\s?\d+\s?조(?:\s?의\s?\d+)?/g;

/**
 * The form both sides are compared in: NFKC, lower case, every non-letter/digit a space, spaces
 * folded, and no spaces inside Hangul runs or Korean article references ("제 2 조" → "제2조").
 */
export function matchForm(text: string): string {
  return latinWords(text.normalize('NFKC').toLowerCase())
    .replace(/([\uAC00-\uD7A3]) (?=[\uAC00-\uD7A3])/g, '$1')
    .replace(/제 (?=\d)/g, '제')
    .replace(/(\d) (?=[조항호])/g, '$1')
    .trim();
}

/**
 * Lower-case text with lone Greek letters spelled out ("TNF-α" → "tnf alpha", as the keyword
 * index reads it) and every non-letter/digit a space. Letters and digits are not parted: "gata3"
 * as one unit singles out its passages better than "gata" and "3" (SciFact train: parting them
 * lowered the reranked nDCG@10 by 0.001).
 */
function latinWords(lower: string): string {
  return americanSpellingOfText(spaceNonWords(spellOutLoneGreek(lower)));
}

/** Plural fold: "policies" → "policy", "leaves" → "leave"; short words and "-ss" stay. */
export function stemWord(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/**
 * The content stem of one Korean query word, or null for particles, predicates and question
 * words. A verb built on a noun keeps the noun ("신청하려면" → "신청", "지급되나요" → "지급"),
 * because the noun is what the passage says ("신청 절차", "지급한다").
 */
export function koreanQueryStem(word: string): { stem: string; particle: string } | null {
  const { stem, particle } = stripParticle(word);
  const verbal = /^([\uAC00-\uD7A3]{2,}?)(?:하|되|받|시키|해|돼|했|됐)[\uAC00-\uD7A3]{1,4}$/.exec(stem);
  const base = verbal?.[1] && isNounLike(verbal[1]) ? verbal[1] : stem;
  if (!isNounLike(base) || KO_QUERY_STOPWORDS.has(base)) return null;
  return { stem: base, particle: verbal ? 'verb' : particle };
}

/**
 * A question's copula ending on its last word ("시간인가요?", "며칠인지", "얼마입니까"): the noun
 * before it is what a passage says ("4시간인 경우" must not match "시간인가"). Only on the last
 * word, where a question ends: "설립인가" inside a question is a permit, not a copula.
 */
const KO_COPULA_QUESTION = /(?:인가요|인가|인지요|인지|입니까|일까요|일까|이에요|인가여|이죠|인데요)$/u;

/**
 * A word's runs: a number with the Korean counter it is written with ("1주", "12시간", "3개월",
 * "5명") is one unit, so "1주 몇 시간" matches "1주 간의 근로시간", not any "1시간" or "1일";
 * otherwise Hangul and the rest apart.
 */
const WORD_RUNS = /\d+(?:시간|개월|주일?|일|월|년|회|명|개|분|세|배|차|곳|건)|[\uAC00-\uD7A3]+|[^\uAC00-\uD7A3]+/gu;
const COUNTED = /^\d+[\uAC00-\uD7A3]/u;

function bigrams(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < s.length; i += 1) out.push(s.slice(i, i + 2));
  return out;
}

/** Text inside "…", “…”, ‘…’, 「…」 or 『…』, in match form. */
function quotedSegments(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"\n]{2,80})"|“([^”\n]{2,80})”|‘([^’\n]{2,80})’|「([^」\n]{2,80})」|『([^』\n]{2,80})』/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const q = matchForm(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '');
    if (q !== '' && !out.includes(q)) out.push(q);
  }
  return out;
}

/** A Korean question's last word without its copula ending, when a noun of two syllables or more is left. */
function withoutCopulaQuestion(word: string): string {
  const m = KO_COPULA_QUESTION.exec(word);
  if (!m) return word;
  const noun = word.slice(0, m.index);
  return /[\uAC00-\uD7A3]{2,}$/u.test(noun) ? noun : word;
}

/**
 * Prepares a query: Latin content words (stopwords dropped, plural-folded), Hangul content stems
 * turned into bigrams — including the bigram that bridges two adjacent stems, so that a spaced
 * compound yields exactly the units of the unspaced one — and Korean article references.
 */
export function analyseQuery(query: string): QueryAnalysis {
  const units: MatchUnit[] = [];
  const seen = new Set<string>();
  const push = (key: string, kind: MatchUnit['kind']): void => {
    const id = `${kind}:${key}`;
    if (key === '' || seen.has(id)) return;
    seen.add(id);
    units.push({ key, kind });
  };
  const raw = query.normalize('NFKC').toLowerCase();
  for (const m of raw.matchAll(KO_ARTICLE)) push(m[0].replace(/\s+/g, ''), 'exact');
  const words = latinWords(raw.replace(KO_ARTICLE, ' ')).split(' ').filter((w) => w !== '');
  const last = words.length - 1;
  if (last >= 0) words[last] = withoutCopulaQuestion(words[last] as string);
  const core: string[] = [];
  const contentWords: string[] = [];
  const pairs: string[] = [];
  let prevStem: string | null = null;
  let prevLatin: string | null = null;
  for (const word of words) {
    for (const run of word.match(WORD_RUNS) ?? []) {
      // "1주", "12시간" are read as a Latin word is: one unit, matched whole.
      if (HANGUL.test(run) && !COUNTED.test(run)) {
        prevLatin = null;
        const s = koreanQueryStem(run);
        if (!s) {
          prevStem = null;
          continue;
        }
        // Two stems in a row with nothing but a space between them read as one compound.
        if (prevStem !== null) push(`${prevStem.slice(-1)}${s.stem.charAt(0)}`, 'gram');
        for (const g of bigrams(s.stem)) push(g, 'gram');
        contentWords.push(s.stem);
        const last = core[core.length - 1];
        if (prevStem !== null && last !== undefined) core[core.length - 1] = `${last}${s.stem}`;
        else core.push(s.stem);
        prevStem = s.particle === '' ? s.stem : null;
        continue;
      }
      prevStem = null;
      if (EN_STOPWORDS.has(run) || (run.length < 2 && !/\d/.test(run))) {
        prevLatin = null;
        continue;
      }
      push(stemWord(run), 'word');
      core.push(run);
      contentWords.push(run);
      if (prevLatin !== null) pairs.push(`${prevLatin} ${run}`);
      prevLatin = run;
    }
  }
  // Joined the way matchForm writes text: no space between two Hangul pieces.
  const coreText = core.reduce((acc, piece) => (acc === '' ? piece : HANGUL.test(acc.slice(-1)) && HANGUL.test(piece.charAt(0)) ? `${acc}${piece}` : `${acc} ${piece}`), '');
  return { units, words: contentWords, core: coreText, quoted: quotedSegments(query), pairs: [...new Set(pairs)] };
}

interface Occurrence {
  pos: number;
  end: number;
  unit: number;
}

/** A space or a Hangul syllable: what ends a Latin (or other non-Hangul) run in a match-form text. */
function endsRun(code: number): boolean {
  return code === 32 || (code >= 0xac00 && code <= 0xd7a3);
}

/**
 * Where whole words whose {@link stemWord} is `stem` occur in a match-form text. Such a word is
 * the stem, the stem plus "s", or the stem less its final "y" plus "ies", so it starts with the
 * stem (less a final "y"): a native substring search finds every candidate, and only those are
 * cut out and stemmed.
 */
function wordOccurrences(form: string, stem: string, unit: number, cap: number): Occurrence[] {
  const probe = stem.length > 2 && stem.endsWith('y') ? stem.slice(0, -1) : stem;
  const out: Occurrence[] = [];
  for (let at = form.indexOf(probe); at >= 0 && out.length < cap; at = form.indexOf(probe, at + 1)) {
    if (at > 0 && !endsRun(form.charCodeAt(at - 1))) continue;
    let end = at + probe.length;
    while (end < form.length && !endsRun(form.charCodeAt(end))) end += 1;
    if (stemWord(form.slice(at, end)) === stem) out.push({ pos: at, end, unit });
  }
  return out;
}

/** Where each unit occurs in a match-form text; at most `cap` occurrences per unit. */
function occurrences(units: readonly MatchUnit[], form: string, cap = 64): Occurrence[][] {
  return units.map((u, unit) => {
    if (u.kind === 'word') return wordOccurrences(form, u.key, unit, cap);
    const out: Occurrence[] = [];
    for (let at = form.indexOf(u.key); at >= 0 && out.length < cap; at = form.indexOf(u.key, at + 1)) {
      out.push({ pos: at, end: at + u.key.length, unit });
    }
    return out;
  });
}

/** A passage as matching needs it, independent of the query. */
export interface PreparedText {
  /** The passage in {@link matchForm}. */
  form: string;
}

/** Prepares one passage for {@link lexicalScores}. */
export function prepareText(text: string): PreparedText {
  return { form: matchForm(text) };
}

/**
 * {@link prepareText} behind a least-recently-used cache of `maxEntries` passages: the same
 * candidates come back in every validator loop and popular chunks in many questions, and
 * normalising a passage costs far more than matching it.
 * @defaultValue maxEntries = 2048
 */
export function createPreparedTextCache(maxEntries = 2048): (text: string) => PreparedText {
  const cache = createLru<string, PreparedText>(maxEntries);
  return (text) => {
    const hit = cache.get(text);
    if (hit) return hit;
    const prepared = prepareText(text);
    cache.set(text, prepared);
    return prepared;
  };
}

/** Smallest character window holding one occurrence of every unit that occurs at all. */
function minWindow(found: readonly Occurrence[][]): number {
  const lists = found.filter((l) => l.length > 0);
  if (lists.length === 0) return Number.POSITIVE_INFINITY;
  const all = lists.flat().sort((a, b) => a.pos - b.pos || a.unit - b.unit);
  const need = lists.length;
  const count = new Map<number, number>();
  let have = 0;
  let best = Number.POSITIVE_INFINITY;
  let left = 0;
  for (let right = 0; right < all.length; right += 1) {
    const r = all[right] as Occurrence;
    const c = count.get(r.unit) ?? 0;
    if (c === 0) have += 1;
    count.set(r.unit, c + 1);
    while (have === need) {
      const l = all[left] as Occurrence;
      // Units of different lengths: the window ends where its longest-reaching member ends.
      let end = r.end;
      for (let k = left; k < right; k += 1) end = Math.max(end, (all[k] as Occurrence).end);
      best = Math.min(best, end - l.pos);
      const lc = (count.get(l.unit) ?? 0) - 1;
      count.set(l.unit, lc);
      if (lc === 0) have -= 1;
      left += 1;
    }
  }
  return best;
}

/** Characters the matched units take when written next to each other, as in the query. */
function idealSpan(units: readonly MatchUnit[], matched: readonly boolean[]): number {
  let span = 0;
  let grams = 0;
  units.forEach((u, i) => {
    if (!matched[i]) return;
    if (u.kind === 'gram') grams += 1;
    else span += u.key.length + 1;
  });
  // A run of k overlapping bigrams covers k + 1 syllables.
  return span + (grams > 0 ? grams + 1 : 0);
}

/**
 * Scores every text against the query: `0.6·coverage + 0.25·proximity·coverage + 0.15·phrase`,
 * each in [0, 1], so the score is in [0, 1]. Coverage weighs units by their rarity among `texts`
 * (`idf = ln(1 + (N + 1) / (df + 0.5))`, a unit no text has weighs as if every text had it),
 * so a unit every text has counts less than one that singles a text out. Proximity is `ideal span / smallest window holding every matched unit`,
 * capped at 1 (0 unless ≥ 2 units match, 1 for a one-unit query that matches). Phrase is the
 * share of quoted segments found verbatim, or — without quotes — 1 when the whole query core
 * occurs verbatim, otherwise half the share of adjacent Latin word pairs found.
 * Pure and deterministic: the same query and texts always give the same scores. `prepare` may
 * be a {@link createPreparedTextCache} so passages seen again (the next loop, a popular chunk)
 * are not normalised again.
 */
export function lexicalScores(query: QueryAnalysis, texts: readonly string[], prepare: (text: string) => PreparedText = prepareText): LexicalScore[] {
  const prepared = texts.map(prepare);
  const forms = prepared.map((p) => p.form);
  const { units } = query;
  const found = prepared.map((p) => occurrences(units, p.form));
  const n = texts.length;
  const idf = units.map((_, i) => {
    const df = found.filter((f) => (f[i]?.length ?? 0) > 0).length;
    // A unit no text has (a typo, a word of another language) ranks nothing: weigh it like a
    // unit every text has, so it neither dominates nor vanishes from the coverage scale.
    return Math.log(1 + (n + 1) / ((df === 0 ? n : df) + 0.5));
  });
  const totalWeight = idf.reduce((s, w) => s + w, 0);
  return forms.map((form, t) => {
    const occ = found[t] as Occurrence[][];
    const matched = occ.map((o) => o.length > 0);
    const matchedCount = matched.filter(Boolean).length;
    const coverage = totalWeight > 0 ? matched.reduce((s, m, i) => s + (m ? (idf[i] as number) : 0), 0) / totalWeight : 0;
    let proximity = 0;
    if (units.length === 1) proximity = matchedCount;
    else if (matchedCount >= 2) proximity = Math.min(1, idealSpan(units, matched) / Math.max(1, minWindow(occ)));
    let phrase = 0;
    if (query.quoted.length > 0) phrase = query.quoted.filter((q) => form.includes(q)).length / query.quoted.length;
    else if (query.core !== '' && form.includes(query.core)) phrase = 1;
    else if (query.pairs.length > 0) phrase = (0.5 * query.pairs.filter((p) => form.includes(p)).length) / query.pairs.length;
    const score = LEXICAL_WEIGHTS.coverage * coverage + LEXICAL_WEIGHTS.proximity * proximity * coverage + LEXICAL_WEIGHTS.phrase * phrase;
    return { score: Math.min(1, Math.max(0, score)), coverage, proximity, phrase };
  });
}

/**
 * {@link lexicalScores} of passages that have headings: `score + w · headingCoverage · (1 − score)`
 * with `w` = {@link LEXICAL_HEADING_WEIGHT}, still in [0, 1] and never below the plain score,
 * where `headingCoverage` is the idf-weighted share of query units the passage's heading holds
 * (idf over the headings of the call). A passage without a heading ('' or none) keeps its plain
 * score.
 */
export function headedLexicalScores(
  query: QueryAnalysis,
  passages: readonly { text: string; heading?: string }[],
  prepare: (text: string) => PreparedText = prepareText,
): number[] {
  const plain = lexicalScores(query, passages.map((p) => p.text), prepare).map((s) => s.score);
  if (!passages.some((p) => (p.heading ?? '') !== '')) return plain;
  const headings = lexicalScores(query, passages.map((p) => p.heading ?? ''), prepare);
  return plain.map((s, i) => s + LEXICAL_HEADING_WEIGHT * (headings[i] as LexicalScore).coverage * (1 - s));
}
