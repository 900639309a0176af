/**
 * Organisation names as documents print them (issue 29): the registrant of an SEC cover, the
 * issuer of an earnings release ("NVIDIA (NASDAQ: NVDA) today reported …", "Johnson & Johnson
 * Reports Second-Quarter Results"), the names a document defines for itself ("(“J&J”)") or prints
 * as a brand above its cover, and the short names a question may use for them. Text layers that
 * letter-space small capitals ("R ESORTS I NTERNATIONAL") are read back as words first.
 *
 * Pure functions over extracted text; nothing here knows a company, brand or ticker in advance:
 * every name comes from the document itself.
 */
import type { DocumentOrganisation } from '../domain/index.ts';

/** Legal-form suffixes that end an organisation's name ("Apple Inc.", "INTEL CORPORATION", "3M Company"). */
export const ORG_SUFFIX = /(?:,?\s+(?:inc|incorporated|corp|corporation|company|co|ltd|limited|llc|l\.l\.c|plc|n\.v|s\.a|ag|se|gmbh|holdings|group|bancorp)\.?)+$/i;

/** First words that name no organisation on their own ("General Motors" is not "General"). */
const GENERIC_FIRST_WORDS = new Set([
  'american', 'advanced', 'applied', 'bank', 'banco', 'central', 'china', 'first', 'general', 'global', 'great', 'international',
  'national', 'north', 'northern', 'south', 'southern', 'east', 'eastern', 'west', 'western', 'united', 'royal', 'new', 'the',
  'public', 'federal', 'state', 'city', 'county', 'university', 'institute', 'ministry', 'department', 'office', 'association',
  'society', 'trust', 'capital', 'digital', 'energy', 'health', 'life', 'power', 'data', 'home', 'standard', 'korea', 'japan',
  'deutsche', 'world', 'pacific', 'atlantic', 'mid', 'best', 'super', 'total', 'union', 'universal', 'intercontinental',
]);

/** Words that end no short name ("Bank of", "Johnson &"). */
const FUNCTION_WORDS = new Set(['of', 'and', '&', 'the', 'for', 'de', 'du', 'la', 'le', 'in', 'on', 'at', 'a', 'an']);

/** Terms a document defines for itself that name no organisation ("the “Company”", "“we”"). */
const GENERIC_TERMS = new Set([
  'company', 'corporation', 'registrant', 'we', 'us', 'our', 'issuer', 'parent', 'group', 'firm', 'bank', 'partnership', 'trust', 'fund',
  'subsidiaries', 'management', 'board', 'notes', 'agreement', 'plan', 'act', 'exchange act', 'securities act', 'sec', 'nyse', 'nasdaq',
]);

/** Lines printed at the top of covers and releases that are no brand. */
const GENERIC_HEADINGS = /^(?:united states|securities and exchange commission|washington.*|form\b.*|table of contents|contents|exhibit\b.*|press release|news release|news|for immediate release|investor relations|investor contact.*|media contact.*|contacts?|page\b.*|annual report|quarterly report|earnings release|financial results|conference call|transcript|prepared remarks|index)$/i;

/** "AMAZON.COM, INC." → "Amazon.com, Inc.": all-caps names read as names; acronyms of ≤ 4 letters stay. */
export function displayName(name: string): string {
  const t = name.replace(/\s+/g, ' ').trim();
  if (/[a-z]/.test(t)) return t;
  return t.replace(/[A-Z][A-Z.&'-]*/g, (w) => (w.length <= 4 && !/\./.test(w) && !/^(?:INC|CORP|CO|LTD|LLC|PLC|AG|SE)$/.test(w) ? w : w[0] + w.slice(1).toLowerCase()));
}

const WORD = /[\p{L}][\p{L}'’]*/gu;
/** A lone capital and a space right before a word ("R ESORTS"): the word may be a letter-spaced tail. */
const AFTER_LONE_CAPITAL = /(?:^|[^\p{L}\p{N}])\p{Lu} $/u;

/**
 * Lower-case words of a text, for checking a repair or an initialism against the document's own
 * words. A word right after a lone capital ("R ESORTS") is left out: it may be the tail of a
 * letter-spaced word, not a word.
 */
export function wordVocabulary(text: string): Set<string> {
  const out = new Set<string>();
  const t = text.normalize('NFKC');
  for (const m of t.matchAll(WORD)) {
    // Most words follow no space-after-a-capital: the pattern is tried only where it can match.
    if (t.charCodeAt(m.index - 1) === 32 && AFTER_LONE_CAPITAL.test(t.slice(Math.max(0, m.index - 3), m.index))) continue;
    out.add(m[0].toLowerCase());
  }
  return out;
}

/** A capital standing alone before a space and a letter: the only lines {@link repairLetterSpacing} can change. */
const LONE_CAPITAL = /(?<![\p{L}\p{N}])\p{Lu} \p{L}/u;

/** Whether {@link repairLetterSpacing} may change `line` (a cheap test that spares the vocabulary). */
export function mayBeLetterSpaced(line: string): boolean {
  return LONE_CAPITAL.test(line);
}

/** Splits a run of letters into vocabulary words, longest first; null when it cannot. */
function segment(run: string, vocabulary: ReadonlySet<string>): string[] | null {
  if (run === '') return [];
  for (let n = run.length; n >= 2; n -= 1) {
    const head = run.slice(0, n);
    if (!vocabulary.has(head)) continue;
    const rest = segment(run.slice(n), vocabulary);
    if (rest) return [head, ...rest];
  }
  return null;
}

/**
 * Undoes letter-spaced small capitals in a line of a text layer: "MGM R ESORTS I NTERNATIONAL"
 * (a large initial, then the rest of the word in small capitals) → "MGM RESORTS INTERNATIONAL",
 * and "R E S O R T S" → "RESORTS". A capital and the letters after it are joined when the joined
 * word is one of the document's words and the fragment is not, or when the line does it twice or
 * more (a single "A" or "I" word alone is left); a run of single letters is joined when it splits
 * into the document's words.
 */
export function repairLetterSpacing(line: string, vocabulary: ReadonlySet<string>): string {
  if (!mayBeLetterSpaced(line)) return line;
  let out = line.replace(/(?<![\p{L}\p{N}])(?:\p{Lu} ){2,}\p{Lu}(?![\p{L}\p{N}])/gu, (run) => {
    const letters = run.replace(/ /g, '');
    const words = segment(letters.toLowerCase(), vocabulary);
    if (!words) return run;
    let at = 0;
    return words.map((w) => letters.slice(at, (at += w.length))).join(' ');
  });
  const split = /(?<![\p{L}\p{N}])(\p{Lu}) (\p{L}{2,})(?![\p{L}\p{N}])/gu;
  const hits = [...out.matchAll(split)];
  const systematic = hits.length >= 2;
  out = out.replace(split, (whole, initial: string, tail: string) => {
    const joined = `${initial}${tail}`.toLowerCase();
    const fragment = tail.toLowerCase();
    const known = vocabulary.has(joined) && !vocabulary.has(fragment);
    const plausible = systematic && !(vocabulary.has(fragment) && !vocabulary.has(joined));
    if (!known && !plausible) return whole;
    const caps = tail === tail.toUpperCase();
    return `${initial}${caps ? tail : tail.toLowerCase()}`;
  });
  return out;
}

/** The name without a leading "The" and its legal form: "The Coca-Cola Company" → "coca-cola". */
export function bareName(name: string): string {
  const lower = name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
  return lower.replace(/^the\s+/, '').replace(ORG_SUFFIX, '').replace(/[,.\s]+$/, '').trim();
}

/** Initials of a name's words, "&" kept ("Johnson & Johnson" → "J&J", "International Business Machines" → "IBM"). */
function initialism(bare: string): string | null {
  const words = bare.replace(/\.(?:com|net|org|io)$/, '').split(/\s+/).filter((w) => w !== '');
  if (words.length < 2) return null;
  let out = '';
  for (const w of words) {
    if (w === '&') out += '&';
    else if (!FUNCTION_WORDS.has(w) && /^\p{L}/u.test(w)) out += (w[0] as string).toUpperCase();
  }
  const letters = out.replace(/&/g, '');
  return letters.length >= 2 && (letters.length >= 3 || out.includes('&')) ? out : null;
}

/** Options of {@link organisationAliases}. */
export interface AliasOptions {
  /**
   * The document's text: an initialism ("J&J", "IBM") becomes an alias only when the document
   * prints it. @defaultValue '' (no initialism)
   */
  text?: string;
  /** Further names the document gives itself (defined terms, a brand, a release's issuer). */
  extra?: readonly string[];
}

/**
 * Lower-case names a question may use for `name`: the whole name; without "The" and its legal
 * form; without ".com"; its first word when distinctive ("Orchard" of "Orchard Devices", an
 * acronym such as "MGM"); its leading words ("mgm resorts" of "MGM Resorts International"); its
 * initialism when the document prints it; the extra names; the tickers.
 */
export function organisationAliases(name: string, tickers: readonly string[] = [], options: AliasOptions = {}): string[] {
  const shown = name.normalize('NFKC').replace(/\s+/g, ' ').trim();
  const lower = shown.toLowerCase();
  const out = new Set<string>([lower]);
  const bare = bareName(shown);
  if (bare.length >= 2) out.add(bare);
  const web = bare.replace(/\.(?:com|net|org|io)$/, '');
  if (web.length >= 2) out.add(web);
  const words = web.split(/\s+/);
  // "Orchard Devices" is called "Orchard" too — unless its first word is a generic one ("General", "Bank").
  const first = web.split(/[\s,&]+/)[0] ?? '';
  const firstShown = shown.replace(/^the\s+/i, '').split(/[\s,&]+/)[0] ?? '';
  const acronym = /^[\p{Lu}\d][\p{Lu}\d&-]+$/u.test(firstShown) && /\p{L}/u.test(firstShown) && firstShown.length <= 5;
  if (web.includes(' ') && /^[\p{L}\p{N}.-]+$/u.test(first) && !GENERIC_FIRST_WORDS.has(first) && (first.length >= 4 || (acronym && first.length >= 2))) out.add(first);
  for (let n = 2; n < words.length; n += 1) {
    const prefix = words.slice(0, n);
    if (!FUNCTION_WORDS.has(prefix[n - 1] as string)) out.add(prefix.join(' '));
  }
  const initials = initialism(bare);
  if (initials && options.text && new RegExp(`(?<![\\p{L}\\p{N}&])${initials.replace(/&/g, '\\s?&\\s?')}(?![\\p{L}\\p{N}&])`, 'u').test(options.text)) out.add(initials.toLowerCase());
  for (const e of options.extra ?? []) {
    const x = e.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
    if (x.length >= 2 && !GENERIC_TERMS.has(x)) out.add(x);
  }
  const ko = lower.replace(/주식회사|㈜/g, '').trim();
  if (ko.length >= 2) out.add(ko);
  for (const t of tickers) out.add(t.toLowerCase());
  return [...out];
}

const EXCHANGE = '(?:NYSE(?:\\s+(?:American|MKT|Arca))?|NASDAQ(?:\\s*(?:GS|GM|CM))?|Nasdaq(?:\\s*(?:GS|GM|CM))?|TSX(?:-V)?|LSE|ASX|AMEX|Euronext(?:\\s+\\w+)?|SIX|OTC(?:QX|QB)?)';
/** "NVIDIA (NASDAQ: NVDA)", "Johnson & Johnson (NYSE: JNJ)": an issuer and its ticker. */
const ISSUER_TICKER = new RegExp(`([^()\\n]{1,120}?)\\s*\\(\\s*${EXCHANGE}\\s*:\\s*([A-Z][A-Z.-]{0,6})\\s*[),;/]`, 'g');
/**
 * "(NYSE:" anywhere: most documents name no exchange, and ISSUER_TICKER's lazy name prefix makes
 * it try up to 120 characters at every position of the text before it can fail.
 */
const EXCHANGE_MENTION = new RegExp(`\\(\\s*${EXCHANGE}\\s*:`);
/** A name's words: capitalised words, digits, "&", and the small words inside names. */
const NAME_WORD = /^(?:[\p{Lu}\d][\p{L}\d&.'’-]*|&|of|and|de|the)$/u;

/** The trailing run of name words of `text` ("… 2023 (GLOBE NEWSWIRE) -- NVIDIA" → "NVIDIA"), at most six. */
function trailingName(text: string): string | null {
  const tail = text.split(/--|—|–|\)|\/|:|\u2022|;/).pop() ?? '';
  const words = tail.trim().split(/\s+/).filter((w) => w !== '');
  const kept: string[] = [];
  for (let i = words.length - 1; i >= 0 && kept.length < 6; i -= 1) {
    const w = (words[i] as string).replace(/^[“"(]+|[”",]+$/g, '');
    if (!NAME_WORD.test(w)) break;
    kept.unshift(w);
  }
  while (kept.length > 0 && /^(?:of|and|de|the|&)$/i.test(kept[0] as string)) kept.shift();
  const name = kept.join(' ');
  return name.length >= 2 && /\p{L}/u.test(name) ? name : null;
}

/** The issuer of a release or a call: the name before "(NASDAQ: XXXX)", else the subject of a "… Reports/Announces …" headline or of a "… Q3 2023 Earnings Call" title. */
export function findReleaseIssuer(lines: readonly string[]): { name: string; tickers: string[] } | null {
  const text = lines.join('\n');
  const counts = new Map<string, { name: string; tickers: Set<string>; n: number; at: number }>();
  for (const m of EXCHANGE_MENTION.test(text) ? text.matchAll(ISSUER_TICKER) : []) {
    const name = trailingName(m[1] ?? '');
    if (!name || GENERIC_TERMS.has(name.toLowerCase())) continue;
    const key = bareName(name);
    const e = counts.get(key) ?? { name, tickers: new Set<string>(), n: 0, at: m.index };
    e.n += 1;
    e.tickers.add(m[2] as string);
    counts.set(key, e);
  }
  const best = [...counts.values()].sort((a, b) => b.n - a.n || a.at - b.at)[0];
  if (best) return { name: best.name, tickers: [...best.tickers] };
  for (const line of lines.slice(0, 20)) {
    // "X Reports …" headlines, and call titles ("X Q3 2023 Earnings Call").
    const m =
      /^(.{2,80}?)\s+(?:reports|reported|announces|announced|posts|delivers|declares|provides|releases)\b/i.exec(line.trim()) ??
      /^(.{2,60}?)\s+(?:Q[1-4]|(?:first|second|third|fourth)[-\s]quarter|fiscal|FY\s?'?\d{2})\b.*\b(?:earnings|conference)\s+call\b/i.exec(line.trim());
    const name = m?.[1] ? trailingName(m[1]) : null;
    if (name && name.split(/\s+/).length <= 6 && !GENERIC_TERMS.has(name.toLowerCase())) return { name, tickers: [] };
  }
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Names the document defines for an organisation right after naming it: 'Johnson & Johnson (“J&J” or the “Company”)' → ["J&J"]. */
export function findDefinedTerms(text: string, name: string): string[] {
  const out: string[] = [];
  const bare = bareName(name);
  if (bare.length < 2) return out;
  // The parenthesis must follow the name itself (its legal form allowed), not a longer phrase
  // that starts with it ("… Corporation 2006 Equity Incentive Plan (the “2006 Plan”)").
  const legal = '(?:,?\\s+(?:inc|incorporated|corp|corporation|company|co|ltd|limited|llc|plc|n\\.v|s\\.a|ag|se|gmbh|holdings|group)\\.?)*';
  const at = new RegExp(`${escape(bare).replace(/\\ /g, '\\s+')}${legal}[\\s,]*\\(([^()]{2,160})\\)`, 'giu');
  for (const m of text.matchAll(at)) {
    for (const q of (m[1] ?? '').matchAll(/["“]([^"”]{2,40})["”]/g)) {
      const term = (q[1] ?? '').replace(/[,.]+$/, '').trim();
      if (/^(?:\p{Lu}|\d\p{L})/u.test(term) && !GENERIC_TERMS.has(term.toLowerCase()) && !out.includes(term)) out.push(term);
    }
    if (out.length >= 4) break;
  }
  return out;
}

/**
 * A brand printed above a cover or release (the logo's text): one of the first three lines when it
 * is one to three words without digits, no heading every cover carries, and the document's text
 * uses it at least three times.
 */
export function findCoverBrand(lines: readonly string[], text: string): string | null {
  for (const line of lines.slice(0, 3)) {
    const t = line.trim();
    if (t.length < 2 || t.length > 30 || /\d/.test(t) || GENERIC_HEADINGS.test(t) || ORG_SUFFIX.test(t)) continue;
    const words = t.split(/\s+/);
    if (words.length > 3 || !words.every((w) => /^[\p{Lu}][\p{L}&.'’-]*$/u.test(w))) continue;
    const uses = text.match(new RegExp(`(?<![\\p{L}\\p{N}])${escape(t).replace(/\\ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu'))?.length ?? 0;
    if (uses >= 3) return t;
  }
  return null;
}

/** Builds the organisation of a document from its name as printed, with aliases from its own text. */
export function organisationOf(printed: string, tickers: readonly string[], text: string, extra: readonly string[] = []): DocumentOrganisation {
  const name = displayName(printed.replace(/\s*\(.*\)\s*$/, ''));
  const defined = findDefinedTerms(text, name);
  return { name, aliases: organisationAliases(name, tickers, { text, extra: [...extra, ...defined] }) };
}
