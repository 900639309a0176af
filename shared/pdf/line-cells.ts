/**
 * A line's runs kept apart at wide gaps. The line builder joins every run of a line with single
 * spaces, which is right for prose but loses a table's columns: "Products $ 60,584 $ 63,355" no
 * longer says which figure sits under which header. Where the runs of a line are separated by
 * more than about an em (wider than any word space, narrower than any column gutter), their
 * positions are kept as cells, so shared/tables can align figures into columns.
 */
import { normaliseText } from './text-normalise.ts';

/** The part of a placed text item this module reads (see line-builder.ts). */
export interface CellRun {
  text: string;
  along: number;
  end: number;
  fontSize: number;
  angle: number;
  x: number;
  rtl: boolean;
  blank: boolean;
}

/** One cell: `[x, width, text]` in points (see TextLine.cells). */
export type LineCell = [number, number, string];

/** Tuning of {@link lineCells}, in em (the larger font size of the two runs). */
export interface LineCellOptions {
  /** Runs further apart than this are separate cells. @defaultValue 1 */
  cellGapEm: number;
  /** Runs closer than this are joined with a space inside a cell (as the line builder does). @defaultValue 0.2 */
  spaceGapEm: number;
}

const DEFAULTS: LineCellOptions = { cellGapEm: 1, spaceGapEm: 0.2 };

// A currency sign printed alone, its figure right-aligned further along ("$      81,797"): one cell.
const CURRENCY_ALONE = /^(?:[$€£¥₩₹]|US\$|[A-Z]{1,3}\$|R\$)$/u;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/**
 * The cells of one line's items (sorted along the line), or undefined when the line has fewer than
 * two: only horizontal left-to-right lines are split (a rotated or right-to-left line has no
 * columns to read). Blank runs are ignored: pdf.js fills a column gap with a wide space item,
 * which would otherwise bridge the gap it stands for.
 */
export function lineCells(items: readonly CellRun[], options: Partial<LineCellOptions> = {}): LineCell[] | undefined {
  const opts = { ...DEFAULTS, ...options };
  const inked = items.filter((i) => !i.blank);
  if (inked.length < 2 || inked.some((i) => i.angle !== 0 || i.rtl)) return undefined;
  const groups: CellRun[][] = [];
  let reach = -Infinity;
  let prevSize = 0;
  for (const it of inked) {
    const gap = it.along - reach;
    const current = groups[groups.length - 1];
    if (current && gap <= opts.cellGapEm * Math.max(prevSize, it.fontSize)) current.push(it);
    else groups.push([it]);
    // Extremes, not the last run's end: an overprint or a kerned pair may end before an earlier run.
    reach = Math.max(reach, it.end);
    prevSize = it.fontSize;
  }
  if (justified(groups, opts.cellGapEm)) return undefined;
  const cells: LineCell[] = [];
  let pendingSign: CellRun[] | null = null;
  const split = detachTrailingSigns(groups);
  split.forEach((group, k) => {
    const runs = pendingSign ? [...pendingSign, ...group] : group;
    const text = joinRuns(runs, opts.spaceGapEm);
    if (text === '') return;
    if (!pendingSign && CURRENCY_ALONE.test(text) && k < split.length - 1) {
      pendingSign = group;
      return;
    }
    pendingSign = null;
    const first = runs[0] as CellRun;
    const end = runs.reduce((m, r) => Math.max(m, r.end), -Infinity);
    cells.push([round(first.x), round(Math.max(0, end - first.along)), text]);
  });
  return cells.length >= 2 ? cells : undefined;
}

/**
 * A justified line of prose stretched wide: three or more gaps, all of about the same width and
 * none much wider than the threshold. Table columns are set apart by gaps of very different
 * widths (a label's end to the first figure, then the gutters).
 */
function justified(groups: readonly CellRun[][], cellGapEm: number): boolean {
  if (groups.length < 4) return false;
  const gaps: number[] = [];
  for (let k = 1; k < groups.length; k++) {
    const prev = groups[k - 1] as CellRun[];
    const first = (groups[k] as CellRun[])[0] as CellRun;
    const size = Math.max(first.fontSize, ...prev.map((r) => r.fontSize));
    gaps.push((first.along - Math.max(...prev.map((r) => r.end))) / size);
  }
  return Math.max(...gaps) < 2 * cellGapEm && Math.max(...gaps) - Math.min(...gaps) < 0.6;
}

/**
 * A currency sign printed just after a figure belongs to the next column ("$ 15,535 $      15,741":
 * the second "$" sits a word space after 15,535 and a gutter before 15,741). Such a sign, ending a
 * group that another group follows, becomes a group of its own, which then joins its figure.
 */
function detachTrailingSigns(groups: readonly CellRun[][]): CellRun[][] {
  return groups.flatMap((group, k) => {
    const last = group[group.length - 1];
    if (group.length < 2 || k === groups.length - 1 || !last || !CURRENCY_ALONE.test(last.text.trim())) return [group];
    return [group.slice(0, -1), [last]];
  });
}

/** The runs' text joined as the line builder joins them: a space at a real gap, none inside a word. */
function joinRuns(runs: readonly CellRun[], spaceGapEm: number): string {
  let text = '';
  let prev: CellRun | undefined;
  for (const it of runs) {
    if (prev) {
      const spaced = /\s$/u.test(text) || /^\s/u.test(it.text);
      if (!spaced && it.along - prev.end > spaceGapEm * Math.max(prev.fontSize, it.fontSize)) text += ' ';
    }
    text += it.text;
    prev = it;
  }
  return normaliseText(text);
}
