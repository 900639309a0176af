/**
 * Figures as tables print them: "$ 81,797", "(1,234)", "3 %", "—", "△1,234". What a cell says as a
 * number, and whether a cell is a figure at all (what makes a line a row of a table).
 */

/** A cell read as a figure: its number, or null for a dash or "n/a" (nothing to report). */
export interface Figure {
  value: number | null;
  /** The currency sign printed with it ("$"), if any. */
  currency: string | null;
  /** Printed with a percent sign. */
  percent: boolean;
}

const CURRENCY = String.raw`(?:US\$|[A-Z]{1,3}\$|R\$|[$€£¥₩₹])`;
// Negative as printed: parentheses, a minus (ASCII, U+2212, en dash), or the triangles Korean
// statements use (△ / ▲).
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+`;
const FIGURE = new RegExp(
  String.raw`^(?<sign>[-−–△▲]\s*)?(?<cur1>${CURRENCY}\s*)?(?<open>\(\s*)?(?<sign2>[-−–△▲]\s*)?(?<cur2>${CURRENCY}\s*)?(?<num>${NUMBER})\s*(?<close>\))?\s*(?<pct>%|pts?|bps)?\s*(?<close2>\))?$`,
  'u',
);
// Printed where a value is absent or zero: dashes, "n/a", "NM" (not meaningful), "*".
const EMPTY = /^(?:[-−–—]+|n\/?a|nm|n\/m|\*)$/iu;
const YEAR = /^(?:19|20)\d{2}$/u;
const CURRENCY_ONLY = new RegExp(`^${CURRENCY}$`, 'u');

/**
 * Reads a cell as a figure, or returns null when it is words. "(1,234)" → -1234, "$ 81,797" →
 * 81797 with currency "$", "3 %" → 3 (percent), "—" / "n/a" → value null, "△1,234" → -1234.
 * A parenthesis must close what it opens: "(1,234" alone is no figure.
 */
export function parseFigure(text: string): Figure | null {
  const t = text.trim();
  if (t === '') return null;
  if (EMPTY.test(t)) return { value: null, currency: null, percent: false };
  const m = FIGURE.exec(t);
  if (!m?.groups) return null;
  const g = m.groups;
  const opened = g.open !== undefined;
  const closed = g.close !== undefined || g.close2 !== undefined;
  if (opened !== closed) return null;
  const magnitude = Number((g.num ?? '').replace(/,/gu, ''));
  if (!Number.isFinite(magnitude)) return null;
  const negative = opened || g.sign !== undefined || g.sign2 !== undefined;
  const currency = (g.cur1 ?? g.cur2)?.trim() ?? null;
  return { value: negative && magnitude !== 0 ? -magnitude : magnitude, currency, percent: g.pct === '%' };
}

/** Whether a cell is a figure (a number or a dash as tables print them). */
export function isFigure(text: string): boolean {
  return parseFigure(text) !== null;
}

/** A bare four-digit year ("2023"): in a column header, a period; in a row, a figure like any other. */
export function isYear(text: string): boolean {
  return YEAR.test(text.trim());
}

/**
 * Several figures run together in one cell ("15,535 15,741": two columns closer than a cell gap),
 * split at their spaces; null when the cell is not such a run. A currency sign stays with the
 * figure after it.
 */
export function splitFigures(text: string): string[] | null {
  const tokens = text.trim().split(/\s+/u);
  if (tokens.length < 2) return null;
  const parts: string[] = [];
  let sign = '';
  for (const tok of tokens) {
    if (CURRENCY_ONLY.test(tok)) {
      sign = `${tok} `;
      continue;
    }
    parts.push(sign + tok);
    sign = '';
  }
  // A "%" or ")" printed apart is no figure of its own: such a cell is one figure, not a run.
  if (sign !== '' || parts.length < 2 || !parts.every(isFigure)) return null;
  return parts;
}
