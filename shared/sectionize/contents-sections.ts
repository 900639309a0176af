/**
 * A table of contents is printed text, and a reader may search it ("what does this report
 * cover"): its lines become sections of their own, titled by the TOC's printed title or
 * "Contents", in reading order among the others — never dropped, never headings.
 */
import type { LineSpan, Section } from '../domain/index.ts';
import { joinBody } from './body-text.ts';
import type { FlatLine, LineStats } from './flat-lines.ts';
import { TOC_TITLE } from './toc.ts';

/** Runs of consecutive line indexes, ascending. */
function runsOf(indexes: ReadonlySet<number>): number[][] {
  const runs: number[][] = [];
  for (const i of [...indexes].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === i - 1) last.push(i);
    else runs.push([i]);
  }
  return runs;
}

/** The first printed line a section holds (its heading's, else its text's), for reading order. */
function firstLine(section: Pick<Section, 'spans' | 'headingLines'>): number {
  const lines = [...(section.headingLines ?? []), ...(section.spans ?? []).map((s: LineSpan) => s[3])];
  return lines.length ? Math.min(...lines) : Number.POSITIVE_INFINITY;
}

/** `sections` with a Contents section for each run of `toc` lines, in reading order, renumbered. */
export function withContents(sections: readonly Section[], lines: readonly FlatLine[], toc: ReadonlySet<number>, stats: LineStats): Section[] {
  const contents: Section[] = [];
  for (const run of runsOf(toc)) {
    const printed = run.map((i) => lines[i]).filter((l): l is FlatLine => l !== undefined);
    const head = printed[0] && TOC_TITLE.test(printed[0].text.trim()) ? printed[0] : undefined;
    const body = head ? printed.slice(1) : printed;
    const { text, spans } = joinBody('', body, stats);
    if (!text && !head) continue;
    const title = head?.text.trim() ?? 'Contents';
    const pages = printed.map((l) => l.page);
    contents.push({
      id: '',
      order: 0,
      title,
      heading: title.toLowerCase(),
      path: [title],
      level: 1,
      text,
      pageStart: Math.min(...pages),
      pageEnd: Math.max(...pages),
      source: 'toc',
      spans,
      headingLines: head ? [head.index] : [],
    });
  }
  if (contents.length === 0) return [...sections];
  return [...sections, ...contents]
    .map((s, k) => ({ s, k, at: firstLine(s) }))
    .sort((a, b) => a.at - b.at || a.k - b.k)
    .map(({ s }, order) => ({ ...s, id: `s${order}`, order }));
}
