/**
 * Turns a section's text into packable units: sentences of prose, whole lists and tables, and
 * — only when one of those is larger than a chunk may be — its items, rows or fragments.
 */
import { findBlocks, type Block } from './blocks.ts';
import { splitSentenceSpans } from './sentences.ts';
import type { TokenCounter } from './tokenizer.ts';

/** What a unit is; only `sentence`, `item` and `fragment` units are ever cut further. */
export type UnitKind = 'sentence' | 'list' | 'table' | 'item' | 'rows' | 'fragment';

/** The smallest piece the packer moves around. Offsets are into the section's text. */
export interface Unit {
  kind: UnitKind;
  /** The unit's text; for table row groups after the first, the header row is prepended. */
  text: string;
  start: number;
  end: number;
  tokens: number;
}

function unitOf(text: string, kind: UnitKind, start: number, end: number, counter: TokenCounter): Unit {
  const body = text.slice(start, end);
  return { kind, text: body, start, end, tokens: counter.count(body) };
}

/** Trims a range of `text` of surrounding whitespace. */
function trimRange(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s += 1;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e -= 1;
  return [s, e];
}

/**
 * Cuts a unit that is over `limit` tokens: first at clause punctuation (", ", "; ", ": "), then
 * at spaces, then — for unspaced runs such as long Hangul or URLs — at characters. Each piece
 * is a `fragment` of at most `limit` tokens (approximately, for the space level: the sum of the
 * words' counts, which for cl100k equals the joined count up to a token per join).
 */
export function cutOversized(text: string, unit: Unit, limit: number, counter: TokenCounter): Unit[] {
  if (unit.tokens <= limit) return [unit];
  const levels: RegExp[] = [/[,;:，；]\s+/g, /\s+/g];
  for (const level of levels) {
    const cuts = [unit.start];
    level.lastIndex = 0;
    const slice = text.slice(unit.start, unit.end);
    for (let m = level.exec(slice); m !== null; m = level.exec(slice)) cuts.push(unit.start + m.index + m[0].length);
    cuts.push(unit.end);
    if (cuts.length <= 2) continue;
    const pieces: Unit[] = [];
    for (let i = 0; i + 1 < cuts.length; i += 1) {
      const [s, e] = trimRange(text, cuts[i] as number, cuts[i + 1] as number);
      if (e > s) pieces.push(unitOf(text, 'fragment', s, e, counter));
    }
    return regroup(text, pieces, limit, counter).flatMap((p) => cutOversized(text, p, limit, counter));
  }
  return cutCharacters(text, unit, limit, counter);
}

/** Packs consecutive pieces back together while they fit in `limit`. */
function regroup(text: string, pieces: Unit[], limit: number, counter: TokenCounter): Unit[] {
  const out: Unit[] = [];
  let cur: Unit | null = null;
  for (const p of pieces) {
    if (cur && cur.tokens + p.tokens + 1 <= limit) {
      cur = { kind: 'fragment', text: '', start: cur.start, end: p.end, tokens: cur.tokens + p.tokens + 1 };
    } else {
      if (cur) out.push(cur);
      cur = p;
    }
  }
  if (cur) out.push(cur);
  return out.map((u) => (u.text === '' ? unitOf(text, 'fragment', u.start, u.end, counter) : u));
}

function cutCharacters(text: string, unit: Unit, limit: number, counter: TokenCounter): Unit[] {
  const out: Unit[] = [];
  let start = unit.start;
  while (start < unit.end) {
    const remaining = text.slice(start, unit.end);
    const total = counter.count(remaining);
    if (total <= limit) {
      out.push(unitOf(text, 'fragment', start, unit.end, counter));
      break;
    }
    // Guess by proportion, then shrink until it fits (at most a few recounts).
    let len = Math.max(1, Math.floor((remaining.length * limit) / total));
    while (len > 1 && counter.count(remaining.slice(0, len)) > limit) len = Math.floor(len * 0.9);
    // Never split a surrogate pair.
    const code = remaining.charCodeAt(len - 1);
    if (code >= 0xd800 && code <= 0xdbff) len += 1;
    out.push(unitOf(text, 'fragment', start, start + len, counter));
    start += len;
  }
  return out;
}

/**
 * Units of a list block too big to keep whole: its items, each whole when it fits in
 * `maxTokens` (a clause is not cut when avoidable), else its sentences.
 */
function listItems(text: string, block: Block, maxTokens: number, limit: number, counter: TokenCounter): Unit[] {
  const starts = block.parts.length > 0 ? block.parts : [block.start];
  const units: Unit[] = [];
  starts.forEach((s, i) => {
    const [a, e] = trimRange(text, Math.max(s, block.start), i + 1 < starts.length ? (starts[i + 1] as number) : block.end);
    if (e <= a) return;
    const item = unitOf(text, 'item', a, e, counter);
    if (item.tokens <= maxTokens) units.push(item);
    else units.push(...sentencesOf(text, a, e, limit, counter));
  });
  return units;
}

/**
 * Row groups of a table too big to keep whole. Every group after the first repeats the header
 * row, because rows without their column names are unreadable (and unsearchable by column).
 */
function tableRowGroups(text: string, block: Block, limit: number, counter: TokenCounter): Unit[] {
  const rows = block.parts.map((s, i) => trimRange(text, s, i + 1 < block.parts.length ? (block.parts[i + 1] as number) : block.end));
  const header = rows[0] ? text.slice(rows[0][0], rows[0][1]) : '';
  const headerTokens = counter.count(header);
  const groups: Unit[] = [];
  let groupStart = -1;
  let groupEnd = -1;
  let tokens = 0;
  const flush = (): void => {
    if (groupStart < 0) return;
    const body = text.slice(groupStart, groupEnd);
    const withHeader = groups.length === 0 ? body : `${header}\n${body}`;
    groups.push({ kind: 'rows', text: withHeader, start: groupStart, end: groupEnd, tokens: counter.count(withHeader) });
    groupStart = -1;
    tokens = 0;
  };
  for (const [s, e] of rows) {
    if (e <= s) continue;
    const rowTokens = counter.count(text.slice(s, e));
    if (groupStart >= 0 && tokens + rowTokens + 1 > limit) flush();
    if (groupStart < 0) {
      groupStart = s;
      tokens = groups.length === 0 ? 0 : headerTokens + 1;
    }
    groupEnd = e;
    tokens += rowTokens + 1;
  }
  flush();
  // A single row wider than the limit is cut like prose.
  return groups.flatMap((g) => (g.tokens <= limit ? [g] : cutOversized(text, { ...g, text: text.slice(g.start, g.end) }, limit, counter)));
}

function sentencesOf(text: string, start: number, end: number, limit: number, counter: TokenCounter): Unit[] {
  const slice = text.slice(start, end);
  return splitSentenceSpans(slice).flatMap((sp) => {
    const unit = unitOf(text, 'sentence', start + sp.start, start + sp.end, counter);
    return unit.tokens <= limit ? [unit] : cutOversized(text, unit, limit, counter);
  });
}

/**
 * Units of a section's text in reading order. Lists and tables are single units when they fit
 * in `maxTokens`; otherwise lists fall apart into items and tables into row groups of at most
 * `pieceLimit` tokens. Prose becomes sentences; a sentence over `pieceLimit` is cut into
 * fragments (see {@link cutOversized}).
 */
export function unitsOf(text: string, maxTokens: number, pieceLimit: number, counter: TokenCounter): Unit[] {
  const units: Unit[] = [];
  for (const block of findBlocks(text)) {
    if (block.kind === 'prose') {
      units.push(...sentencesOf(text, block.start, block.end, pieceLimit, counter));
      continue;
    }
    const whole = unitOf(text, block.kind, block.start, block.end, counter);
    if (whole.tokens <= maxTokens) units.push(whole);
    else if (block.kind === 'list') units.push(...listItems(text, block, maxTokens, pieceLimit, counter));
    else units.push(...tableRowGroups(text, block, pieceLimit, counter));
  }
  return units;
}

/**
 * Separator between two units in a chunk body, read from the original gap: a paragraph break
 * stays a paragraph break, a line break next to a list or table stays a line break, a soft
 * line wrap inside prose becomes a space, and no gap stays no gap.
 */
export function separatorBetween(text: string, a: Unit, b: Unit): string {
  if (b.start < a.end) return '\n';
  const gap = text.slice(a.end, b.start);
  if (gap === '') return '';
  if (/\n[ \t\f\v\r]*\n/.test(gap)) return '\n\n';
  if (gap.includes('\n') && (a.kind !== 'sentence' || b.kind !== 'sentence')) return '\n';
  return ' ';
}

/**
 * Page of a character offset, estimated proportionally: sections only carry their first and
 * last page, so an offset `o` of a text of length `L` on pages `[p0, p1]` is put on page
 * `p0 + floor(o / L * (p1 - p0 + 1))`. Exact for one-page sections, within a page or so for
 * the rest (pages are rarely equally full).
 */
export function pageAt(offset: number, textLength: number, pageStart: number, pageEnd: number): number {
  const span = Math.max(1, pageEnd - pageStart + 1);
  if (textLength <= 0 || span === 1) return pageStart;
  const ratio = Math.min(Math.max(offset / textLength, 0), 1);
  return pageStart + Math.min(span - 1, Math.floor(ratio * span));
}
