import type { FlatLine, LineStats } from './flat-lines.ts';
import type { Heading } from './heading.ts';
import { bestChain, type Candidate } from './heading-chains.ts';
import type { HeadingKind, HeadingMatch } from './heading-patterns.ts';
import { dropNumberCopies } from './numbering-copies.ts';
import { numberedListLines } from './numbered-lists.ts';

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

/**
 * Whether a numbered chain after an appendix heading is the appendix's own list (FAQ items "1.",
 * "2.", …): it starts at 1, has two items or more, and the appendix is not already divided by
 * lettered numbers ("A.1"), whose own body may hold ordinary numbered lists.
 */
function appendixList(chain: readonly Candidate[], letter: readonly Candidate[]): boolean {
  const first = chain[0];
  if (!first || chain.length < 2 || first.seq.length !== 1 || first.seq[0] !== 1) return false;
  const from = letter.filter((c) => isAppendix(c) && c.line < first.line).pop()?.line ?? -1;
  // Lettered subsections of that appendix mean its own numbered lines are lists in them.
  const to = chain[chain.length - 1]?.line ?? 0;
  return !letter.some((c) => c.seq.length > 1 && c.line > from && c.line < to);
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

/** Rank of FAQ items ("Q1."): below any numbered heading, so they nest under the one before them. */
const QUESTION_RANK = 30;
const SENTENCE_STOP = /[.;:?!。]$/u;
/** At most this many lines below a requirement still belong to its sentence. */
const MAX_SENTENCE_LINES = 3;

/**
 * Lines a requirement's sentence occupies: it goes on while it has not ended and the line
 * below, close under it, continues in lower case ("… and" / "devices (including …).").
 */
function sentenceSpan(i: number, lines: readonly FlatLine[], matches: ReadonlyMap<number, HeadingMatch>): number {
  let span = 1;
  let text = lines[i]?.text ?? '';
  while (span < MAX_SENTENCE_LINES && !SENTENCE_STOP.test(text)) {
    const next = lines[i + span];
    if (!next || next.page !== lines[i]?.page || next.gapBefore > 1.3 || matches.has(i + span) || !/^[\p{Ll}(]/u.test(next.text)) break;
    text = next.text;
    span++;
  }
  return span;
}

/** Share of the document's lines an appendix that restarts numbering comes after. */
const APPENDIX_FROM = 0.25;
const isAppendix = (c: Candidate): boolean => c.seq.length === 1 && /^(?:appendix|annex)\b/iu.test(c.title);

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
  const add = (i: number, m: HeadingMatch): void => {
    const list = byKind.get(m.kind) ?? [];
    list.push({ ...m, line: i, weight: m.weight + contextWeight(i, m, lines, matches, stats) });
    byKind.set(m.kind, list);
  };
  // Items of a numbered checklist or question list are body text of their section.
  const listLines = numberedListLines(lines, stats);
  for (const [i, m] of [...matches].sort((a, b) => a[0] - b[0])) {
    if ((m.kind === 'numbered' || m.kind === 'question') && listLines.has(i)) continue;
    if (!m.kind.startsWith('ko-') && !m.sentence && wrappedSentence(i, lines, stats)) {
      // A requirement ("3.1.1 Limit system access to …, and") is a sentence by design: its
      // wrapping is no sign of body text. A single number ("4. They always build …") is.
      if (m.kind === 'numbered' && m.seq.length >= 2) add(i, { ...m, sentence: true });
      continue;
    }
    add(i, m);
    if (m.inner) add(i, m.inner);
  }
  // A requirement stands under a titled family ("3.1 Access Control"); numbered sentences
  // without one are entries of a list (a filing's exhibit index: "31.1 Certification of …").
  const numberedCands = byKind.get('numbered') ?? [];
  const titled = new Set(numberedCands.filter((c) => !c.sentence).map((c) => c.seq.join('.')));
  byKind.set('numbered', numberedCands.filter((c) => !c.sentence || titled.has(c.seq.slice(0, -1).join('.'))));
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
    const letter = bestChain(byKind.get('letter') ?? []);
    // Appendices close a document: an "Annex A" line near its start (a front annex, a mention)
    // must not cut the chapters after it off their chain.
    const appendices = letter.filter((c) => isAppendix(c) && c.line >= APPENDIX_FROM * lines.length);
    // Under roman parts, decimal numbering may restart in each part ("I. … 1. … II. … 1."), and
    // under an appendix it restarts for its own items (a numbered FAQ): each part has its chain.
    const breaks = [...(roman.length >= 2 ? roman.map((c) => c.line) : []), ...appendices.map((c) => c.line)].sort((a, b) => a - b);
    // A number printed again in the same part (a mapping table quoting the requirements) leaves its copy out.
    const numberedSegments = segments(byKind.get('numbered') ?? [], breaks).map((seg) => bestChain(dropNumberCopies(seg)));
    const firstAppendix = appendices[0]?.line ?? Infinity;
    const numbered = numberedSegments.filter((chain) => (chain[0]?.line ?? 0) < firstAppendix).flat();
    const appendixItems = numberedSegments.filter((chain) => (chain[0]?.line ?? 0) > firstAppendix && appendixList(chain, letter)).flat();
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
    const letterOk = letter.length >= 2 || letter.some(isAppendix);
    if (letterOk) take(letter, (c) => c.seq.length + offset);
    if (letterOk) take(appendixItems, (c) => 1 + offset + c.seq.length);
    // FAQ items nest under an appendix; a document of questions alone keeps its typography.
    const questions = bestChain((byKind.get('question') ?? []).filter((c) => c.line > firstAppendix));
    if (questions.length >= 2) take(questions, () => QUESTION_RANK);
  }

  // Keyed by line and span: a division printed on its first article's line precedes it (span 0).
  const byLine = new Map<string, Heading>();
  const sentences = new Set<number>();
  for (const { c, rank } of accepted) {
    const span = c.inner ? 0 : c.sentence ? sentenceSpan(c.line, lines, matches) : 1;
    const title = span > 1 ? lines.slice(c.line, c.line + span).map((l) => l.text).join(' ') : c.title;
    const key = `${c.line}/${span === 0 ? 0 : 1}`;
    const prev = byLine.get(key);
    if (prev && prev.rank <= rank) continue;
    byLine.set(key, { line: c.line, span, title, rest: c.rest, rank, source: 'pattern' });
    if (c.sentence) sentences.add(c.line);
  }
  const sorted = [...byLine.values()].sort((a, b) => a.line - b.line || a.span - b.span);
  // A requirement followed at once by the next one ("3.1.1 …" then "3.1.2 …", no discussion)
  // keeps its sentence as its text rather than folding into the section before as an empty heading.
  return sorted.map((h, k) => {
    if (!sentences.has(h.line) || (sorted[k + 1]?.line ?? lines.length) > h.line + h.span) return h;
    return { ...h, rest: h.title.replace(/^[\d.]+\s+/u, '') };
  });
}
