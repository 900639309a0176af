/**
 * What a table's caption says of its figures: the scale ("(In millions, except per-share
 * amounts)" → millions), the currency or unit, and the rows the scale does not apply to (the
 * "except …" clause). Read from the caption's words, in English and Korean ("(단위: 백만원)").
 */

/** Scale and unit a caption states, and the exceptions it makes. */
export interface CaptionFacts {
  scale: string | null;
  unit: string | null;
  exceptions: ScaleException[];
}

/** One "except …" item: the words that name the rows it covers, and the scale it gives them (null: none). */
export interface ScaleException {
  words: string[];
  scale: string | null;
}

const SCALE_WORD = /\b(thousands|millions|billions|trillions)\b/iu;
// "(in $000s)", "(000's omitted)", "(in 000s)": thousands without the word.
const THOUSANDS_ZEROS = /(?:^|[\s($])0{3}'?s\b|\b0{3}\s+omitted\b/iu;
// "(단위: 백만원)", "(단위 : 천 원)", "(단위:억원, %)".
const KO_UNIT = /단위\s*[:：]?\s*(천|백만|십억|억|조)?\s*(원|달러|주|%)/u;
const CURRENCY_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/\$|\bdollars?\b|\bUSD\b/iu, '$'],
  [/€|\beuros?\b|\bEUR\b/iu, '€'],
  [/£|\bpounds?\s+sterling\b|\bGBP\b/iu, '£'],
  [/¥|\byen\b|\bJPY\b/iu, '¥'],
  [/₩|\bwon\b|\bKRW\b/iu, '₩'],
];
/** Words that say what kind of figure an exception is about, not which rows: left out of its match words. */
const GENERIC = new Set([
  'amount', 'amounts', 'data', 'number', 'numbers', 'of', 'which', 'are', 'is', 'reflected', 'in', 'the', 'and', 'where',
  'noted', 'otherwise', 'stated', 'information', 'figures', 'values', 'unaudited', 'a', 'an', 'as', 'for', 'all',
  'thousands', 'millions', 'billions', 'trillions', 'dollars', 'expressed', 'presented', 'shown',
]);

/**
 * A line that only says how a table's figures are given: "(In millions, except per share data)",
 * "(unaudited)", "(단위: 백만원)", "Dollars in thousands". Short, and either wholly in parentheses
 * or naming a scale.
 */
export function isCaption(text: string): boolean {
  const t = text.trim();
  if (t.length === 0 || t.length > 200) return false;
  if (/^\((?:[^()]|\([^()]*\))*\)(?:\s*\((?:[^()]|\([^()]*\))*\))*$/u.test(t)) return true;
  if (KO_UNIT.test(t) && t.length <= 40) return true;
  // A line ending like a sentence or a lead-in ("… as of July 1, 2023 (in millions):") is prose
  // that names the scale, not a caption: it stays in the text (see leadIn in detect.ts).
  return (SCALE_WORD.test(t) || THOUSANDS_ZEROS.test(t)) && t.split(/\s+/u).length <= 16 && !/[.;:]$/u.test(t);
}

/** Whether a text names a scale ("in millions", "(in $000s)", "단위: 백만원"). */
export function namesScale(text: string): boolean {
  return SCALE_WORD.test(text) || THOUSANDS_ZEROS.test(text) || KO_UNIT.test(text);
}

/** Match words of an exception item ("number of shares which are reflected in thousands" → share). */
function exceptionOf(item: string): ScaleException | null {
  const scale = SCALE_WORD.exec(item)?.[1]?.toLowerCase() ?? null;
  const words = (item.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => !GENERIC.has(w)).map((w) => w.replace(/s$/u, ''));
  return words.length > 0 ? { words, scale } : null;
}

/** Reads scale, unit and exceptions from a table's caption texts (and its title, which may carry them). */
export function captionFacts(texts: readonly string[]): CaptionFacts {
  let scale: string | null = null;
  let unit: string | null = null;
  const exceptions: ScaleException[] = [];
  for (const text of texts) {
    const ko = KO_UNIT.exec(text);
    if (ko) {
      scale ??= ko[1] ?? null;
      unit ??= ko[2] === '%' ? '%' : (ko[2] ?? null);
      continue;
    }
    const except = /\bexcept(?:\s+for)?\b(.*?)(?:\)|;|$)/iu.exec(text);
    const head = except ? text.slice(0, except.index) : text;
    scale ??= SCALE_WORD.exec(head)?.[1]?.toLowerCase() ?? (THOUSANDS_ZEROS.test(head) ? 'thousands' : null);
    if (SCALE_WORD.test(head) || THOUSANDS_ZEROS.test(head)) unit ??= CURRENCY_WORDS.find(([re]) => re.test(head))?.[1] ?? null;
    if (except?.[1]) {
      for (const item of except[1].split(/,|;|\band\b/iu)) {
        const e = exceptionOf(item);
        if (e) exceptions.push(e);
      }
    }
  }
  return { scale, unit, exceptions };
}

/**
 * The scale that applies to a row, given its label path: the caption's, unless an exception
 * names the row ("Earnings per share > Basic" under "except per share amounts"), when it is that
 * exception's own scale (usually none). Of several exceptions naming the row, the one naming it
 * with more words wins ("per share" over "shares").
 */
export function rowScale(facts: CaptionFacts, path: string): { scale: string | null; excepted: boolean } {
  const words = (path.toLowerCase().match(/\p{L}+/gu) ?? []).map((w) => w.replace(/s$/u, ''));
  let best: ScaleException | null = null;
  for (const e of facts.exceptions) {
    if (e.words.every((w) => words.includes(w)) && (!best || e.words.length > best.words.length)) best = e;
  }
  return best ? { scale: best.scale, excepted: true } : { scale: facts.scale, excepted: false };
}
