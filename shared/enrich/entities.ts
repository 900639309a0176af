/**
 * Entity extraction for one chunk: references and defined terms, acronyms, English proper-noun
 * phrases and Korean noun phrases — canonicalised, expanded with spacing variants, ranked and
 * capped. Dictionary-free and deterministic; seed 000 §4.5 allows "dictionary + LLM", and an
 * LLM pass can be layered on later without changing the stored shape.
 */
import { canonicalTerm, hasHangul, koreanNounPhrases, spacingVariants } from './korean.ts';
import { findReferences } from './references.ts';

/** Kinds of entity, by how much a match on them says about a passage. */
type EntityKind = 'ref' | 'law' | 'defined' | 'acronym' | 'phrase' | 'word';

const WEIGHT: Readonly<Record<EntityKind, number>> = { ref: 4, law: 4, defined: 4, acronym: 3, phrase: 2, word: 1 };

/** Options of {@link extractEntities}. */
export interface EntityOptions {
  /**
   * Most entities kept per chunk, variants included. A term's variants are kept together or not
   * at all.
   * @defaultValue 40
   */
  maxEntities?: number;
}

/** Default of {@link EntityOptions.maxEntities}. */
export const MAX_CHUNK_ENTITIES = 40;

/** Upper-case words that are emphasis or headings, not acronyms (RFC 2119 keywords among them). */
const NOT_ACRONYMS = new Set([
  'MUST', 'SHALL', 'SHOULD', 'MAY', 'NOT', 'REQUIRED', 'RECOMMENDED', 'OPTIONAL', 'THE', 'AND', 'OR', 'OF', 'TO', 'IN', 'FOR', 'ON', 'AT', 'BY', 'NO', 'IS',
  'IT', 'AN', 'AS', 'BE', 'IF', 'NOTE', 'NOTES', 'WARNING', 'CAUTION', 'TABLE', 'FIGURE', 'SECTION', 'ARTICLE', 'CHAPTER', 'PART', 'PAGE', 'ALL', 'ANY', 'END', 'SEE', 'YES', 'OK',
  // Series names that only mean something with their number, which the references keep.
  'RFC', 'ISO', 'IEC',
]);

/** Words that open sentences or phrases but are not names: dropped from a phrase's start. */
const LEADING_STOP = new Set([
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'each', 'every', 'any', 'all', 'if', 'when', 'where', 'while', 'in', 'on', 'for', 'to', 'under', 'our',
  'your', 'its', 'their', 'such', 'no', 'some', 'as', 'at', 'by', 'from', 'with', 'after', 'before', 'upon', 'however', 'unless', 'there', 'it', 'we', 'you',
  'he', 'she', 'they', 'i', 'see', 'also', 'and', 'or', 'but', 'not', 'note', 'article', 'section', 'chapter', 'table', 'figure', 'page',
  // Questions (FAQ headings) and modals.
  'can', 'do', 'does', 'did', 'how', 'what', 'who', 'whom', 'whose', 'why', 'which', 'will', 'would', 'should', 'could', 'is', 'are', 'was', 'were',
  'may', 'must', 'shall', 'has', 'have', 'had', 'only', 'outside', 'inside', 'because', 'although', 'though', 'since', 'within', 'without', 'during',
  'between', 'once', 'until', 'unless', 'here', 'then', 'thus', 'therefore', 'otherwise', 'both', 'either', 'neither', 'other', 'most', 'many', 'more',
]);

/** Calendar words and company suffixes: capitalised, but never an entity by themselves. */
const NOT_NAMES = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'inc', 'ltd', 'llc', 'corp', 'co', 'gmbh', 'plc', 'i',
]);

/**
 * Lower-case words allowed inside a proper-noun phrase ("Department of Labor", "Research and
 * Development"). "the" only right after "of" ("Department of the Treasury"): after "and" or "in"
 * it usually starts a second name ("People Operations and the Tax team").
 */
const CONNECTORS = new Set(['of', 'and', 'for', 'de', 'du', 'von', 'der', '&']);

interface Candidate {
  kind: EntityKind;
  count: number;
  first: number;
}

function add(map: Map<string, Candidate>, term: string, kind: EntityKind, index: number): void {
  const canonical = canonicalTerm(term);
  if (canonical.length < 2 || /^[\d\s.,-]+$/.test(canonical)) return;
  const prev = map.get(canonical);
  if (!prev) {
    map.set(canonical, { kind, count: 1, first: index });
    return;
  }
  prev.count += 1;
  if (WEIGHT[kind] > WEIGHT[prev.kind]) prev.kind = kind;
  if (index < prev.first) prev.first = index;
}

/** Upper-case acronyms (TLS, HMAC, GDPR, HTTP2), ignoring RFC keywords and shouted heading lines. */
function acronyms(text: string, map: Map<string, Candidate>): void {
  let offset = 0;
  for (const line of text.split('\n')) {
    const latinWords = line.match(/[A-Za-z]{2,}/g) ?? [];
    const upperWords = latinWords.filter((w) => w === w.toUpperCase() && w.length >= 4);
    const shouting = upperWords.length >= 3 && upperWords.length >= latinWords.length * 0.6;
    const re = /\b([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)(s?)\b/g;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      const word = m[1] ?? '';
      if (NOT_ACRONYMS.has(word) || /^[IVXLCDM]+$/.test(word) || word.length > 8) continue;
      if (shouting && word.length >= 4) continue;
      add(map, word, 'acronym', offset + m.index);
    }
    offset += line.length + 1;
  }
}

/**
 * Capitalised phrases: runs of Capitalised words, with connectors inside ("Transport Layer
 * Security", "Department of Labor"), minus leading stop words ("The Employer" → "Employer").
 * Two or more words make a phrase; a single capitalised word counts only when it is not the
 * first word of a sentence (where capitals say nothing).
 */
function capitalisedPhrases(text: string, map: Map<string, Candidate>): void {
  const word = /[A-Za-z][A-Za-z0-9'’-]*/g;
  let run: Array<{ w: string; i: number; initial: boolean }> = [];
  const flush = (): void => {
    while (run.length > 0 && (LEADING_STOP.has((run[0]?.w ?? '').toLowerCase()) || CONNECTORS.has(run[0]?.w ?? ''))) run.shift();
    while (run.length > 0 && (CONNECTORS.has(run[run.length - 1]?.w ?? '') || run[run.length - 1]?.w === 'the')) run.pop();
    const first = run[0];
    const names = run.filter((r) => !CONNECTORS.has(r.w) && r.w !== 'the' && !NOT_NAMES.has(r.w.toLowerCase()));
    if (first && names.length >= 1 && run.length >= 2) add(map, run.map((r) => r.w).join(' '), 'phrase', first.i);
    else if (first && names.length === 1 && !first.initial && first.w.length >= 3 && first.w !== first.w.toUpperCase()) add(map, first.w, 'word', first.i);
    run = [];
  };
  let prevEnd = 0;
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    const w = m[0];
    const gap = text.slice(prevEnd, m.index);
    // A new sentence or line (headings, list items) makes a capital meaningless; any other
    // character than spacing (comma, bracket, digit, Hangul) ends the phrase.
    const initial = prevEnd === 0 || /[.!?:;。\n]/.test(gap);
    if (initial || /\S/.test(gap)) flush();
    prevEnd = m.index + w.length;
    const last = run[run.length - 1];
    if (NOT_ACRONYMS.has(w)) flush();
    else if (/^[A-Z]/.test(w)) {
      // "Abstract This document": a determiner or question word inside a run starts a new one
      // (unless it follows a connector: "Status of This Document").
      if (last && LEADING_STOP.has(w.toLowerCase()) && !CONNECTORS.has(last.w) && last.w !== 'the') flush();
      run.push({ w, i: m.index, initial });
    } else if (last && (CONNECTORS.has(w) || (w === 'the' && last.w === 'of'))) {
      run.push({ w, i: m.index, initial: false });
    } else {
      flush();
    }
  }
  flush();
}

/**
 * Entities of a chunk's text (pass the embedding text: breadcrumb + body, so a heading such as
 * "제2조(정의)" contributes its reference).
 *
 * Canonical form: see {@link canonicalTerm} (NFKC, single spaces, lower-case). Each entity is
 * followed by its {@link spacingVariants} ("출산 장려금", "출산장려금"). Ranking: references,
 * law names and defined terms weigh 4, acronyms 3, multi-word phrases 2, single words 1; the
 * score is weight × occurrences, ties broken by first appearance, then alphabetically — so the
 * output is a pure function of the text.
 */
export function extractEntities(text: string, options: EntityOptions = {}): string[] {
  const max = options.maxEntities ?? MAX_CHUNK_ENTITIES;
  const map = new Map<string, Candidate>();
  for (const f of findReferences(text)) {
    // '"MUST", "SHOULD NOT"' quoted in an RFC's conventions section are keywords, not terms.
    if (f.kind === 'defined' && f.term.split(/\s+/).every((w) => NOT_ACRONYMS.has(w))) continue;
    add(map, f.term, f.kind, f.index);
  }
  acronyms(text, map);
  capitalisedPhrases(text, map);
  if (hasHangul(text)) {
    // Phrase positions are not tracked by the noun scanner; their order of appearance is.
    koreanNounPhrases(text).forEach((p, i) => add(map, p, p.includes(' ') ? 'phrase' : 'word', text.length + i));
  }
  const ranked = [...map.entries()].sort(([ta, a], [tb, b]) => {
    const sa = WEIGHT[a.kind] * a.count;
    const sb = WEIGHT[b.kind] * b.count;
    if (sa !== sb) return sb - sa;
    if (a.first !== b.first) return a.first - b.first;
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [term] of ranked) {
    const fresh = spacingVariants(term).filter((v) => !seen.has(v));
    if (fresh.length === 0) continue;
    if (out.length + fresh.length > max) break;
    for (const v of fresh) {
      seen.add(v);
      out.push(v);
    }
  }
  return out;
}

/**
 * Document entities: the union of its chunks' entities, most widespread first (number of chunks
 * that carry it), ties by first appearance; capped.
 *
 * @param maxEntities - cap. @defaultValue 200
 */
export function mergeEntities(perChunk: ReadonlyArray<readonly string[]>, maxEntities = 200): string[] {
  const stats = new Map<string, { count: number; first: number }>();
  let order = 0;
  for (const list of perChunk) {
    for (const e of new Set(list)) {
      const s = stats.get(e);
      if (s) s.count += 1;
      else stats.set(e, { count: 1, first: order });
      order += 1;
    }
  }
  return [...stats.entries()]
    .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
    .slice(0, maxEntities)
    .map(([e]) => e);
}
