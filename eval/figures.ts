/**
 * Key figures of a reference answer and whether a passage holds one — the approximate
 * answer-evidence test of the filings eval. Pure functions.
 */

/** What a figure counts: money (`$`, or a million/billion scale) or a percentage. */
export type FigureKind = 'money' | 'percent';

/** A figure of an answer, normalised. */
export interface Figure {
  kind: FigureKind;
  /** Magnitude in base units (dollars, percent points); sign dropped, see {@link extractFigures}. */
  value: number;
  /** Half the unit of the last digit written, in base units: how far a rounded mention may stray. */
  tolerance: number;
  /** The text it was read from, for reports. */
  text: string;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  k: 1e3,
  million: 1e6,
  millions: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  billions: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  t: 1e12,
};

// `$(1,234.5) million`, `-$3.2 billion`, `17%`, `17.5 percent`, `4,109 million`. The unit word must
// end at a word boundary so `5 Microsoft` is not `5 M`.
const FIGURE_RE =
  /(\$\s*)?\(?\s*(\$\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*\)?\s*(%|percent\b|per cent\b|(?:thousands?|millions?|billions?|trillion|mn|bn|[kmbt])\b)?/gi;

/** `(SOURCE: 2023 Q1 AAPL.pdf)` markers and file names carry years and quarters, not figures. */
function stripSourceMarkers(text: string): string {
  return text
    .replace(/\(?\s*SOURCE(?:\(S\))?:[^)\n]*\)?/gi, ' ')
    .replace(/"?\d{4} Q\d [A-Z]{1,5}\.pdf"?/g, ' ');
}

function decimalsOf(digits: string): number {
  const dot = digits.indexOf('.');
  return dot < 0 ? 0 : digits.length - dot - 1;
}

/**
 * The key figures of an answer: numbers with a unit — money (`$82,959 million`, `$4.255 billion`,
 * `$7,709`, or a bare `4,109 million`) and percentages (`17%`, `24 percent`). Thousands separators
 * are dropped and million/billion applied; a negative in parentheses or with a minus keeps its
 * magnitude only, because prose says "a loss of $1.2 billion" where a table prints `(1,200)`.
 * Bare numbers (years, quarters, counts) are not figures. Duplicates are dropped.
 */
export function extractFigures(answer: string): Figure[] {
  const text = stripSourceMarkers(answer);
  const out: Figure[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(FIGURE_RE)) {
    const dollar = m[1] !== undefined || m[2] !== undefined;
    const digits = (m[3] as string).replace(/,/g, '');
    const unit = (m[4] ?? '').toLowerCase();
    const percent = unit === '%' || unit.startsWith('per');
    const scaleWord = !percent && unit !== '' ? unit : '';
    // A lone k/m/b/t after a number without `$` is too often something else (`5 M` in a name).
    if (scaleWord.length === 1 && !dollar) continue;
    const scale = scaleWord ? (SCALES[scaleWord] ?? 1) : 1;
    if (!percent && !dollar && !scaleWord) continue;
    const n = Number(digits);
    if (!Number.isFinite(n) || n === 0) continue;
    const kind: FigureKind = percent ? 'percent' : 'money';
    const value = n * scale;
    const tolerance = 0.5 * 10 ** -decimalsOf(digits) * scale;
    const key = `${kind}:${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind, value, tolerance, text: m[0].trim() });
  }
  return out;
}

/** A number as a passage prints it, with what follows it. */
interface PassageNumber {
  value: number;
  /** Significant digits as printed (`82,959` → 5, `5` → 1). */
  digits: number;
  percent: boolean;
  /** The scale word printed right after it, if any. */
  scale: number | null;
}

const PASSAGE_NUMBER_RE = /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(%|percent\b|(?:thousands?|millions?|billions?|trillion|mn|bn)\b)?/gi;

/** Every number in a passage (tables print `82,959`, `(1,234)`, `43.3 %`). */
export function passageNumbers(body: string): PassageNumber[] {
  const out: PassageNumber[] = [];
  for (const m of body.matchAll(PASSAGE_NUMBER_RE)) {
    const raw = (m[1] as string).replace(/,/g, '');
    const unit = (m[2] ?? '').toLowerCase();
    const percent = unit === '%' || unit === 'percent';
    out.push({
      value: Number(raw),
      digits: raw.replace('.', '').replace(/^0+/, '').length,
      percent,
      scale: !percent && unit ? (SCALES[unit] ?? null) : null,
    });
  }
  return out;
}

/**
 * True when the passage prints the figure, in any of the scales filings use: a table "in
 * millions" prints `$82,959 million` as `82,959`, and `$4.255 billion` as `4,255`, so a money
 * figure matches a passage number × 1, 10³, 10⁶ or 10⁹ within the answer's rounding (or the
 * passage's own). To keep small numbers from matching by accident, an unscaled passage number
 * must have at least 3 significant digits; a percentage must be printed with `%` or "percent".
 */
export function passageHasFigure(body: string, figure: Figure, numbers: readonly PassageNumber[] = passageNumbers(body)): boolean {
  for (const n of numbers) {
    if (figure.kind === 'percent') {
      if (n.percent && Math.abs(n.value - figure.value) <= figure.tolerance + 1e-9) return true;
      continue;
    }
    if (n.percent) continue;
    const scales = n.scale !== null ? [n.scale] : n.digits >= 3 ? [1, 1e3, 1e6, 1e9] : [];
    for (const s of scales) {
      const printed = n.value * s;
      if (Math.abs(printed - figure.value) <= figure.tolerance * (1 + 1e-9) + 1e-6) return true;
      // The answer may be more precise than the table: `$82,959 million` vs `$83.0 billion`.
      const ownTolerance = 0.5 * 10 ** -decimalsOfNumber(n.value) * s;
      if (n.scale !== null && Math.abs(printed - figure.value) <= ownTolerance * (1 + 1e-9)) return true;
    }
  }
  return false;
}

function decimalsOfNumber(v: number): number {
  const s = String(v);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** True when any passage holds any of the figures. */
export function anyPassageHasFigure(bodies: readonly string[], figures: readonly Figure[]): boolean {
  if (figures.length === 0) return false;
  return bodies.some((b) => {
    const numbers = passageNumbers(b);
    return figures.some((f) => passageHasFigure(b, f, numbers));
  });
}
