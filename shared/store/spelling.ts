/**
 * British → American spelling, for matching only (the keyword index, the lexical reranker and the
 * extractive answerer; never what is shown). English stemmers do not join the two: Snowball
 * stems "randomized" to "random" but "randomised" to "randomis", and "signalling" keeps its double
 * l. A rule that changes a word it should not ("exercise" → "exercize") changes it the same way
 * in every text, so it only costs a match when the wrong form is another real word.
 */
const RULES: readonly (readonly [RegExp, string])[] = [
  // -our → -or in the words that have an American -or form.
  [/^(behavi|col|disfav|fav|flav|hon|dishon|hum|lab|neighb|od|rum|tum|vap|vig|harb|arm|endeav|clam|rig|splend|cand|ferv|ard|val|sav|parl)our/, '$1or'],
  // ae / oe of Greek and Latin medical words.
  [/aemi/, 'emi'],
  [/haem/, 'hem'],
  [/paed/, 'ped'],
  [/^aetiol/, 'etiol'],
  [/anaesth/, 'anesth'],
  [/gynaec/, 'gynec'],
  [/^caesar/, 'cesar'],
  [/^oesophag/, 'esophag'],
  [/^oestr/, 'estr'],
  [/^oedem/, 'edem'],
  [/^foet/, 'fet'],
  [/^(diarrh|dyspn|apn|hypopn)oe/, '$1e'],
  [/^coeliac/, 'celiac'],
  [/^faec/, 'fec'],
  [/^sulph/, 'sulf'],
  [/^aluminium/, 'aluminum'],
  [/^mould/, 'mold'],
  [/^programme/, 'program'],
  // -tre → -ter, -ogue → -og.
  [/^(cent|fib|lit|met|kilomet|centimet|millimet|micromet|nanomet|theat|calib|spect|lust|somb|meag|sab)re(s)?$/, '$1er$2'],
  [/^(cent|fib|lust)red$/, '$1ered'],
  [/^(catal|dial|anal|monol|prol|epil|homol|ortholog|paral)ogue(s)?$/, '$1og$2'],
  // -ise / -yse verbs and their nouns → -ize / -yze (not "analyses", the plural of "analysis").
  [/^(\p{L}{3,})is(e|es|ed|ing|ation|ations|er|ers)$/u, '$1iz$2'],
  [/^(\p{L}{2,})ys(e|ed|ing|er|ers)$/u, '$1yz$2'],
  // A doubled l before -ed / -ing / -er (travelled, signalling, modelling).
  [/^(label|model|travel|signal|cancel|fuel|channel|tunnel|counsel|level|total|marshal|pedal|jewel|dial|cruel|rival|spiral|shovel|quarrel|equal)l(ed|ing|er|ers)$/, '$1$2'],
];

/**
 * What some rule of {@link RULES} needs in a word: letters anywhere in it, or an ending. One source
 * for both prefilters below, so a new rule is added to one place.
 */
const ANYWHERE = 'our|ae|oe|sulph|alumin|mould|programme';
const ENDINGS = '[tbg]re[sd]?|ogues?|is(?:e|es|ed|ing|ations?|ers?)|ys(?:e|ed|ing|ers?)|ll(?:ed|ing|ers?)';

/** A word without any of {@link ANYWHERE} or {@link ENDINGS} is left as it is. */
const MAY_CHANGE = new RegExp(`${ANYWHERE}|(?:${ENDINGS})$`);

/**
 * Words {@link americanSpelling} keeps worked out. Past this many it starts again from empty: a
 * vocabulary's frequent words come back within a few passages. With words longer than
 * {@link SPELLING_CACHE_MAX_LENGTH} never kept, that bounds the memory (a few MB) whatever text
 * goes through.
 */
export const SPELLING_CACHE_WORDS = 20_000;

/** Longer words (rare in any language, common in a crafted text) are worked out every time, never kept. */
export const SPELLING_CACHE_MAX_LENGTH = 40;

/** Words that passed {@link MAY_CHANGE}, with what the rules made of them. */
const spelled = new Map<string, string>();

/**
 * The American spelling of one lower-case word ("tumours" → "tumors", "haemoglobin" →
 * "hemoglobin", "randomisation" → "randomization", "analysed" → "analyzed", "signalling" →
 * "signaling", "centre" → "center"), or the word itself when no rule applies. Pure.
 */
export function americanSpelling(word: string): string {
  // Nearly every word has none of the rules' letter patterns: one test instead of all the rules
  // (the keyword text of a 350-page book calls this ~200,000 times).
  if (!MAY_CHANGE.test(word)) return word;
  // The rest ("our", "your", "hours", "does", "otherwise" …) would each take every rule: ~2.5 µs
  // a word, 16 words in a typical reranked passage. Words repeat, so each is worked out once.
  const known = spelled.get(word);
  if (known !== undefined) return known;
  let out = word;
  for (const [re, to] of RULES) out = out.replace(re, to);
  if (word.length <= SPELLING_CACHE_MAX_LENGTH) {
    if (spelled.size >= SPELLING_CACHE_WORDS) spelled.clear();
    spelled.set(word, out);
  }
  return out;
}

/**
 * The ASCII words of a lower-case text some rule of {@link americanSpelling} may change (a superset:
 * each is passed to it). One native regex scan instead of a call per word: the lexical reranker
 * prepares hundreds of passages a question, and a call per word tripled its cost.
 */
const CANDIDATE_WORDS = new RegExp(`(?<![a-z])(?:[a-z]*(?:${ANYWHERE})[a-z]*|[a-z]+(?:${ENDINGS}))(?![a-z])`, 'g');

/**
 * {@link americanSpelling} of every ASCII word of a lower-case text ("tumours in the centre" →
 * "tumors in the center"); other characters stay as they are. Pure.
 */
export function americanSpellingOfText(lower: string): string {
  return lower.replace(CANDIDATE_WORDS, americanSpelling);
}
