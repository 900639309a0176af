/**
 * Validity dates read from a document's text (seed 000 §4.6: 시행일 / effective dates). Only
 * explicit, real calendar dates next to a validity phrase count: a bare date in the text says
 * nothing about validity, and neither does the PDF's creation date.
 */

/** Validity found in a text; null where nothing trustworthy was found. */
export interface ValidityDates {
  /** YYYY-MM-DD from which the text applies (시행일, effective date). */
  validFrom: string | null;
  /** YYYY-MM-DD until which it applies (valid until, expires, 까지 유효). */
  validTo: string | null;
}

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

/** Any supported date spelling, without capture groups (so rules can wrap it in one). */
const DATE = [
  '\\d{4}\\s*\\.\\s*\\d{1,2}\\s*\\.\\s*\\d{1,2}\\.?',
  '\\d{4}\\s*년\\s*\\d{1,2}\\s*월\\s*\\d{1,2}\\s*일',
  '\\d{4}[-/]\\d{1,2}[-/]\\d{1,2}',
  `${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}`,
  `\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+\\d{4}`,
].join('|');

/** A real date in 1900–2199 as YYYY-MM-DD, or null (2025-02-30 is null). */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1900 || year > 2199 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Parses one date written as "2025. 2. 23.", "2025년 2월 23일", "2025-02-23", "2025/02/23",
 * "February 23, 2025", "Feb. 23 2025" or "23 February 2025". Slash dates with the year last
 * (02/03/2025) are refused: month-first and day-first readings disagree.
 */
export function parseDate(text: string): string | null {
  const t = text.trim();
  let m = /^(\d{4})\s*(?:\.|년|-|\/)\s*(\d{1,2})\s*(?:\.|월|-|\/)\s*(\d{1,2})\s*(?:\.|일)?$/.exec(t);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = new RegExp(`^(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})$`, 'i').exec(t);
  if (m) return isoDate(Number(m[3]), MONTHS[(m[1] ?? '').slice(0, 3).toLowerCase()] ?? 0, Number(m[2]));
  m = new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH})\\.?,?\\s+(\\d{4})$`, 'i').exec(t);
  if (m) return isoDate(Number(m[3]), MONTHS[(m[2] ?? '').slice(0, 3).toLowerCase()] ?? 0, Number(m[1]));
  return null;
}

/**
 * A validity rule: a phrase around one or two dates. Higher rank wins; among equal ranks the
 * first in the text wins, except `latest` rules, where the latest date wins.
 */
interface Rule {
  re: RegExp;
  from?: number;
  to?: number;
  rank: number;
  latest?: boolean;
}

/** Builds a rule regex: every `DATE` in the template becomes a capture group of a date. */
function rx(template: string): RegExp {
  return new RegExp(template.replace(/DATE/g, `(${DATE})`), 'gi');
}

const RULES: readonly Rule[] = [
  // The header of a Korean statute: "[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]".
  { re: rx('\\[\\s*시행\\s*DATE\\s*\\]'), from: 1, rank: 100 },
  { re: rx('시행\\s*일(?:자)?\\s*[:：]?\\s*DATE'), from: 1, rank: 90 },
  { re: rx('\\beffective(?:\\s+date)?(?:\\s+(?:as\\s+of|from|on))?\\s*[:：]?\\s*DATE'), from: 1, rank: 90 },
  { re: rx('유효\\s*기간\\s*[:：]?\\s*DATE\\s*(?:부터)?\\s*[~∼～\\-–]\\s*DATE'), from: 1, to: 2, rank: 85 },
  { re: rx('\\bvalid\\s+from\\s+DATE\\s+(?:to|until|through)\\s+DATE'), from: 1, to: 2, rank: 85 },
  { re: rx('(?:^|[\\s(])시행\\s+DATE'), from: 1, rank: 80 },
  // "applies to leave that begins on or after January 1, 2023 and before January 1, 2025":
  // a version window (the end is exclusive, as valid_to is). A lone "on or after" is not taken:
  // it as often describes another version ("… on or after 2025-01-01 is governed by …").
  { re: rx('\\bon\\s+or\\s+after\\s+DATE,?\\s+(?:and|but)\\s+(?:before|prior\\s+to)\\s+DATE'), from: 1, to: 2, rank: 75 },
  {
    re: rx('\\b(?:appl(?:y|ies)|applicable|in\\s+effect)\\s+(?:from|as\\s+of|since|starting)\\s+DATE|\\b(?:takes?|took|shall\\s+take)\\s+effect\\s+(?:on|from|as\\s+of)\\s+DATE|\\b(?:comes?|came|enters?|entered|shall\\s+(?:come|enter))\\s+into\\s+force\\s+(?:on|from|as\\s+of)\\s+DATE|\\bin\\s+force\\s+(?:from|as\\s+of|since)\\s+DATE'),
    from: 0,
    rank: 70,
  },
  // 부칙 of an amended statute: one "…부터 시행한다" per amendment; the latest is the one in force.
  { re: rx('DATE\\s*부터\\s*시행'), from: 1, rank: 60, latest: true },
  {
    re: rx('\\b(?:valid|effective|in\\s+force)\\s+(?:until|through|till|to)\\s+DATE|\\bexpires?\\s+(?:on\\s+)?DATE|\\bexpir(?:y|ation)\\s+date\\s*[:：]?\\s*DATE|\\bvalid\\s+to\\s*[:：]?\\s*DATE'),
    to: 0,
    rank: 50,
  },
  { re: rx('DATE\\s*까지\\s*(?:유효|효력|적용)'), to: 1, rank: 50 },
  { re: rx('DATE\\s*(?:에|부로|자로)?\\s*(?:효력을\\s*)?(?:상실|실효|폐지)'), to: 1, rank: 40 },
];

interface Hit {
  date: string;
  rank: number;
  index: number;
  latest: boolean;
}

/** The date of a match: group `g`, or for `0` the first date group that matched. */
function dateOf(m: RegExpExecArray, g: number): string | null {
  const raw = g > 0 ? m[g] : m.slice(1).find((x) => x !== undefined);
  return raw === undefined ? null : parseDate(raw);
}

function better(a: Hit, b: Hit | null): boolean {
  if (!b) return true;
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (a.latest) return a.date > b.date;
  return a.index < b.index;
}

/**
 * Finds the most authoritative validity dates in `text`:
 * valid_from — a statute header "[시행 2025. 2. 23.]" over "시행일: …" / "effective date: …" /
 * "Effective: 1 March 2024" / "유효기간 … ~ …" over a bare "시행 …" over "on or after … and
 * before …" over "applies from …" / "takes effect on …" / "enters into force on …" over 부칙
 * "…부터 시행한다" (latest such date); valid_to — the end of those windows, "valid
 * until …", "expires on …", "…까지 유효", "유효기간 … ~ …", "…에 효력을 상실". A promulgation date
 * (공포, "[법률 제20520호, 2024. 10. 22., 일부개정]") is never taken. Impossible dates are
 * ignored, and a valid_to not after valid_from is dropped as contradictory.
 */
export function findValidityDates(text: string): ValidityDates {
  let from: Hit | null = null;
  let to: Hit | null = null;
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(text); m !== null; m = rule.re.exec(text)) {
      if (m[0] === '') {
        rule.re.lastIndex += 1;
        continue;
      }
      if (rule.from !== undefined) {
        const date = dateOf(m, rule.from);
        const hit = date ? { date, rank: rule.rank, index: m.index, latest: rule.latest === true } : null;
        if (hit && better(hit, from)) from = hit;
      }
      if (rule.to !== undefined) {
        const date = dateOf(m, rule.to);
        const hit = date ? { date, rank: rule.rank, index: m.index, latest: false } : null;
        if (hit && better(hit, to)) to = hit;
      }
    }
  }
  const validFrom = from?.date ?? null;
  let validTo = to?.date ?? null;
  if (validFrom && validTo && validTo <= validFrom) validTo = null;
  return { validFrom, validTo };
}
