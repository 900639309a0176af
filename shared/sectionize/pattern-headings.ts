import type { FlatLine, LineStats } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { bestChain, type Candidate } from './heading-chains.ts';
import type { HeadingKind, HeadingMatch } from './heading-patterns.ts';

const KO_RANK: Partial<Record<HeadingKind, number>> = {
  'ko-part': 1,
  'ko-chapter': 2,
  'ko-section': 3,
  'ko-subsection': 4,
  'ko-article': 5,
};
const KO_DIVISIONS: readonly HeadingKind[] = ['ko-part', 'ko-chapter', 'ko-section', 'ko-subsection'];

/** Weight from context: body right after it, space above it, a font of its own. */
function contextWeight(i: number, m: HeadingMatch, lines: readonly FlatLine[], matches: ReadonlyMap<number, HeadingMatch>, stats: LineStats): number {
  const line = lines[i];
  if (!line) return 0;
  let w = 0;
  if (m.rest !== '' || (i + 1 < lines.length && !matches.has(i + 1))) w += 1;
  if (line.gapBefore > 1.3) w += 1;
  if (stats.bodyFontSize > 0 && Math.abs(line.fontSize - stats.bodyFontSize) / stats.bodyFontSize >= 0.08) w += 1;
  return w;
}

// A line ending in a function word stops mid-sentence.
const DANGLING = /\s(?:the|a|an|of|in|on|at|to|by|for|with|from|and|or|but|as|that|which|is|are|was|were|be|their|its|his|her)$/iu;

/**
 * A numbered line that is really the start of a wrapped sentence ("4. They always build their
 * huts on the banks of rivers or" / "lakes, ..."): as long as a body line and continued in
 * lower case right below.
 */
function wrappedSentence(i: number, lines: readonly FlatLine[], stats: LineStats): boolean {
  const line = lines[i];
  const next = lines[i + 1];
  if (!line || !next || next.page !== line.page || next.gapBefore > 1.3) return false;
  if (!/^\p{Ll}/u.test(next.text)) return false;
  return line.text.length >= 0.75 * stats.medianLength || DANGLING.test(line.text);
}

/** Splits candidates of one kind at 부칙 lines: each supplement restarts article numbering. */
function segments(cands: readonly Candidate[], breaks: readonly number[]): Candidate[][] {
  const out: Candidate[][] = [[]];
  let b = 0;
  for (const c of cands) {
    while (b < breaks.length && (breaks[b] ?? Infinity) < c.line) {
      out.push([]);
      b++;
    }
    out[out.length - 1]?.push(c);
  }
  return out;
}

/**
 * Headings found by numbering: for each numbering system, the heaviest plausible chain of
 * candidates (see heading-chains.ts). A Korean statute's 제N조 chain switches the decimal
 * systems off, since there "1." is an item (호) of an article.
 */
export function patternHeadings(
  lines: readonly FlatLine[],
  matches: ReadonlyMap<number, HeadingMatch>,
  stats: LineStats,
): Heading[] {
  const byKind = new Map<HeadingKind, Candidate[]>();
  for (const [i, m] of [...matches].sort((a, b) => a[0] - b[0])) {
    if (!m.kind.startsWith('ko-') && wrappedSentence(i, lines, stats)) continue;
    const list = byKind.get(m.kind) ?? [];
    list.push({ ...m, line: i, weight: m.weight + contextWeight(i, m, lines, matches, stats) });
    byKind.set(m.kind, list);
  }
  const supplements = (byKind.get('ko-supplement') ?? []).map((c) => c.line);
  const accepted: Array<{ c: Candidate; rank: number }> = [];

  const koChains = new Map<HeadingKind, Candidate[]>();
  for (const kind of [...KO_DIVISIONS, 'ko-article'] as const) {
    const chain = segments(byKind.get(kind) ?? [], supplements).flatMap((seg) => bestChain(seg, true));
    koChains.set(kind, chain);
  }
  const articles = koChains.get('ko-article')?.length ?? 0;
  const divisions = KO_DIVISIONS.reduce((n, k) => n + (koChains.get(k)?.length ?? 0), 0);
  const korean = articles >= 3 || divisions >= 2;

  if (korean) {
    const presentRanks = KO_DIVISIONS.filter((k) => (koChains.get(k)?.length ?? 0) > 0).map((k) => KO_RANK[k] ?? 1);
    const supplementRank = presentRanks.length > 0 ? Math.min(...presentRanks) : 1;
    for (const [kind, chain] of koChains) for (const c of chain) accepted.push({ c, rank: KO_RANK[kind] ?? 5 });
    for (const c of byKind.get('ko-supplement') ?? []) accepted.push({ c, rank: supplementRank });
  } else {
    const roman = bestChain(byKind.get('roman') ?? []);
    // Under roman parts, decimal numbering may restart in each part ("I. … 1. … II. … 1.").
    const numbered = segments(byKind.get('numbered') ?? [], roman.length >= 2 ? roman.map((c) => c.line) : []).flatMap((seg) => bestChain(seg));
    const letter = bestChain(byKind.get('letter') ?? []);
    const romanOk = roman.length >= 2;
    const offset = romanOk ? 1 : 0;
    const claimed = new Map<number, number>();
    const take = (chain: Candidate[], rank: (c: Candidate) => number): void => {
      for (const c of chain) {
        // A line two systems claim ("C." roman or letter) goes to the longer chain.
        if ((claimed.get(c.line) ?? 0) >= chain.length) continue;
        claimed.set(c.line, chain.length);
        accepted.push({ c, rank: rank(c) });
      }
    };
    // Bare "15 AC" field numbers of a form are not an outline: a chain needs a dotted or
    // multi-level number, or some length.
    const strongNumbers = numbered.length >= 3 || numbered.some((c) => c.seq.length > 1 || /^\d+\.\s/u.test(c.title));
    if (numbered.length >= 2 && strongNumbers) take(numbered, (c) => c.seq.length + offset);
    if (romanOk) take(roman, () => 1);
    if (letter.length >= 2 || letter.some((c) => /^(?:appendix|annex)\b/iu.test(c.title))) take(letter, (c) => c.seq.length + offset);
  }

  const byLine = new Map<number, Heading>();
  for (const { c, rank } of accepted) {
    const prev = byLine.get(c.line);
    if (prev && prev.rank <= rank) continue;
    byLine.set(c.line, { line: c.line, span: 1, title: c.title, rest: c.rest, rank, source: 'pattern' });
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}
