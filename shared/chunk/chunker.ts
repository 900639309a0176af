/**
 * Sections → chunks: plan (single / merged / split), pack split sections, then number the
 * chunks and give them content-addressed ids.
 */
import {
  chunkIdFor,
  normaliseBody,
  PATH_SEPARATOR,
  sectionPathString,
  type LineSpan,
  type Section,
  type Chunk,
  type DocTable,
  type PlacedTable,
} from '../domain/index.ts';
import { mergedBody, normaliseHeadingFallback, planGroups, type PreparedSection, type SectionGroup } from './merge.ts';
import { packUnits } from './pack.ts';
import type { ChunkPolicy } from './policy.ts';
import { countWithin, type TokenCounter } from './tokenizer.ts';
import { pageAt, separatorBetween, unitsOf, type Unit } from './units.ts';
import { linePages, pagesOf, spansIn } from './line-pages.ts';
import { inReadingOrder, tablesDrafts } from './table-drafts.ts';

/** A chunk before numbering and ids. */
export interface ChunkDraft {
  section: string;
  sectionPath: string;
  body: string;
  pageStart: number;
  pageEnd: number;
  /** Units of this draft that repeat the previous draft's tail (0 unless split). */
  overlapUnits: number;
  /** Tokens of `body`. */
  tokenCount: number;
  /** Where each printed line of `body` sits in it (LineSpan in body offsets), in body order. */
  spans: LineSpan[];
  /** Heading lines this chunk holds only in its breadcrumb (a split section's first chunk holds its heading's). */
  headingLines: number[];
  /** The table this draft holds as data (a table chunk; see table-drafts.ts). */
  table?: DocTable;
  /** Row facts of that table: indexed with the body (embedding and keyword text), not shown as it. */
  facts?: string[];
}

/** Identity of the document the chunks belong to. */
export interface ChunkDocument {
  docId: string;
  version: string;
}

/**
 * Sections with their text cleaned for chunking. A section's spans index its text as written;
 * text that cleaning changed (an artifact from before spans, or hand-made) keeps none, and its
 * chunks' pages are estimated from their position instead.
 */
function prepare(sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): PreparedSection[] {
  return [...sections]
    .sort((a, b) => a.order - b.order)
    .map((section) => {
      const text = section.text.normalize('NFC').replace(/\r\n?/g, '\n').trim();
      return { section: text === section.text ? section : { ...section, spans: undefined }, text };
    })
    .filter((s) => s.text !== '')
    .map(({ section, text }) => ({ section, text, tokens: countWithin(counter, text, policy.maxTokens), titleTokens: counter.count(section.title.trim()) }));
}

/** The section's pages: those of its spans (its body's first and last printed lines), else its recorded range. */
function sectionPages(section: Section): { pageStart: number; pageEnd: number } {
  return pagesOf(section.spans ?? []) ?? { pageStart: section.pageStart, pageEnd: Math.max(section.pageStart, section.pageEnd) };
}

function singleDraft(p: PreparedSection): ChunkDraft {
  return {
    section: p.section.heading,
    sectionPath: sectionPathString(p.section.path),
    body: p.text,
    ...sectionPages(p.section),
    overlapUnits: 0,
    tokenCount: p.tokens,
    // The body is the section's text: its spans as they are.
    spans: [...(p.section.spans ?? [])],
    headingLines: p.section.headingLines ?? [],
  };
}

/**
 * A merged group is filed under the path it was merged under (the siblings' parent, or the
 * section whose lead text leads the group), with that section's heading; top-level siblings
 * have no parent, so they are filed under the first one.
 */
function mergedDraft(members: readonly PreparedSection[], filedUnder: readonly string[], headingByPath: ReadonlyMap<string, string>, counter: TokenCounter): ChunkDraft {
  // Top-level siblings are filed under the first one that is a section of the text: a title
  // block (Preamble) or a table of contents merged before it says nothing about the chunk.
  const first = (members.find((m) => m.section.source !== 'preamble' && m.section.source !== 'toc') ?? (members[0] as PreparedSection)).section;
  const useParent = filedUnder.length > 0;
  const path = useParent ? sectionPathString(filedUnder) : sectionPathString(first.path);
  const heading = useParent ? (headingByPath.get(path) ?? normaliseHeadingFallback(filedUnder[filedUnder.length - 1] ?? '')) : first.heading;
  const body = mergedBody(members);
  const spans = mergedSpans(members);
  // Without spans (an old artifact), each member's recorded range, its title's page included.
  const pages = pagesOf(spans) ?? {
    pageStart: Math.min(...members.map((m) => m.section.pageStart)),
    pageEnd: Math.max(...members.map((m) => Math.max(m.section.pageStart, m.section.pageEnd))),
  };
  return {
    section: heading,
    sectionPath: path,
    body,
    ...pages,
    overlapUnits: 0,
    tokenCount: counter.count(body),
    spans,
    headingLines: [],
  };
}

/**
 * Spans of a merged body (see mergedBody: each member's title on a line above its text): each
 * member's spans moved to where its text starts, and its title's span on its heading lines,
 * which are body lines here.
 */
function mergedSpans(members: readonly PreparedSection[]): LineSpan[] {
  const out: LineSpan[] = [];
  let at = 0;
  for (const m of members) {
    const title = m.section.title.trim();
    if (title) {
      for (const line of m.section.headingLines ?? []) out.push([at, at + title.length, m.section.pageStart, line]);
      at += title.length + 1;
    }
    for (const [s, e, page, line] of m.section.spans ?? []) out.push([at + s, at + e, page, line]);
    at += m.text.length + 2;
  }
  return out;
}

/**
 * Joins units into a body, and moves the section's spans into it: each unit's own text is
 * `text.slice(start, end)`, at the end of `unit.text` (a table's later row group has the header
 * row repeated before it, a copy that maps to no line of its own).
 */
function joinUnits(text: string, units: readonly Unit[], sectionSpans: readonly LineSpan[] = []): { body: string; spans: LineSpan[] } {
  let body = '';
  const spans: LineSpan[] = [];
  units.forEach((u, i) => {
    if (i > 0) body += separatorBetween(text, units[i - 1] as Unit, u);
    const own = u.end - u.start;
    const shift = body.length + (u.text.length - own) - u.start;
    for (const [s, e, page, line] of spansIn(sectionSpans, u.start, u.end)) {
      // A span cut by the unit's bounds (a sentence ending mid-line) keeps the part in this unit.
      const from = Math.max(s, u.start);
      const to = Math.min(e, u.end);
      const last = spans[spans.length - 1];
      // The same line going on in the next unit (a sentence ending mid-line): one span, over the separator.
      if (last && last[3] === line && from + shift <= last[1] + 2) {
        last[1] = Math.max(last[1], to + shift);
        continue;
      }
      spans.push([from + shift, to + shift, page, line]);
    }
    body += u.text;
  });
  return { body, spans };
}

function splitDrafts(p: PreparedSection, policy: ChunkPolicy, counter: TokenCounter): ChunkDraft[] {
  const { section, text } = p;
  const units = unitsOf(text, policy.maxTokens, policy.targetTokens, counter);
  const pageEnd = Math.max(section.pageStart, section.pageEnd);
  const spans: readonly LineSpan[] = section.spans ?? [];
  return packUnits(units, policy).map((r, k) => {
    let from = r.overlapFrom;
    let joined = joinUnits(text, units.slice(from, r.end), spans);
    let tokenCount = counter.count(joined.body);
    // The packer estimates; if the real count overshoots, the optional overlap goes first.
    if (from < r.start && tokenCount > policy.maxTokens) {
      from = r.start;
      joined = joinUnits(text, units.slice(from, r.end), spans);
      tokenCount = counter.count(joined.body);
    }
    const { body } = joined;
    const firstUnit = units[from] as Unit;
    const lastUnit = units[r.end - 1] as Unit;
    // Without spans (an old artifact), pages are estimated from the position in the section.
    const pages = pagesOf(joined.spans) ?? {
      pageStart: pageAt(firstUnit.start, text.length, section.pageStart, pageEnd),
      pageEnd: pageAt(Math.max(firstUnit.start, lastUnit.end - 1), text.length, section.pageStart, pageEnd),
    };
    return {
      section: section.heading,
      sectionPath: sectionPathString(section.path),
      body,
      ...pages,
      overlapUnits: r.start - from,
      tokenCount,
      spans: joined.spans,
      // Every chunk carries the heading in its path; coverage counts it with the first.
      headingLines: k === 0 ? (section.headingLines ?? []) : [],
    };
  });
}

/**
 * Drafts for all sections in reading order (see {@link planGroups} for merging and
 * {@link packUnits} for splitting). Sections with blank text produce nothing: their titles live
 * on in their children's breadcrumbs.
 */
export function draftChunks(sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter, tables: readonly PlacedTable[] = []): ChunkDraft[] {
  const prepared = prepare(sections, policy, counter);
  const headingByPath = new Map<string, string>();
  for (const s of sections) {
    const key = sectionPathString(s.path);
    if (!headingByPath.has(key)) headingByPath.set(key, s.heading);
  }
  const drafts = planGroups(prepared, policy).flatMap((g: SectionGroup) => {
    if (g.kind === 'split') return splitDrafts(g.members[0], policy, counter);
    if (g.kind === 'merged') return [mergedDraft(g.members, g.filedUnder, headingByPath, counter)];
    return [singleDraft(g.members[0])];
  });
  // Table chunks join before blank headings are filed: a statement's heading whose only body is
  // its table is held by the table's chunk.
  const all: ChunkDraft[] = inReadingOrder(drafts, tablesDrafts(tables, sections, policy, counter));
  fileBlankHeadings(sections, all);
  return all;
}

/**
 * A heading with no text of its own (a chapter whose articles follow) makes no chunk, but every
 * chunk under it prints it in its breadcrumb: its lines are held by the first of those chunks.
 */
function fileBlankHeadings(sections: readonly Section[], drafts: ChunkDraft[]): void {
  for (const s of sections) {
    if (s.text.trim() !== '' || !s.headingLines?.length) continue;
    const path = sectionPathString(s.path);
    const under = drafts.find((d) => d.sectionPath === path || d.sectionPath.startsWith(`${path}${PATH_SEPARATOR}`));
    if (under) under.headingLines = [...under.headingLines, ...s.headingLines];
  }
}

/** Breadcrumb line + blank line + body; just the body when there is no breadcrumb. */
export function embeddingTextOf(sectionPath: string, body: string): string {
  return sectionPath.trim() === '' ? body : `${sectionPath}\n\n${body}`;
}

/**
 * Numbers drafts and assigns ids: `chunkIdFor(docId, section_path, body, occurrence)`, where
 * occurrence counts earlier chunks of this document with the same path and normalised body
 * (a boilerplate paragraph repeated under one heading), so ids are unique within the document
 * and identical for identical input.
 */
export function finaliseChunks(doc: ChunkDocument, drafts: readonly ChunkDraft[]): Chunk[] {
  const seen = new Map<string, number>();
  return drafts.map((d, index) => {
    const key = `${d.sectionPath}\u0000${normaliseBody(d.body)}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return {
      chunk_id: chunkIdFor(doc.docId, d.sectionPath, d.body, occurrence),
      doc_id: doc.docId,
      version: doc.version,
      section: d.section,
      section_path: d.sectionPath,
      body: d.body,
      // A table's row facts are searched with it (the keyword text is made from this too).
      embedding_text: embeddingTextOf(d.sectionPath, d.facts?.length ? `${d.body}\n\n${d.facts.join('\n')}` : d.body),
      page_start: d.pageStart,
      page_end: Math.max(d.pageStart, d.pageEnd),
      ...(d.spans.length > 0 ? { line_pages: linePages(d.spans) } : {}),
      ...(d.table ? { table: d.table } : {}),
      chunk_index: index,
      total_chunks: drafts.length,
      token_count: d.tokenCount,
    };
  });
}

/** Sections → numbered, id'd chunks under one policy, with the printed lines each holds in its body and in its breadcrumb. */
export function chunkDocument(
  doc: ChunkDocument,
  sections: readonly Section[],
  policy: ChunkPolicy,
  counter: TokenCounter,
  tables: readonly PlacedTable[] = [],
): { chunks: Chunk[]; spans: LineSpan[][]; headingLines: number[][] } {
  const drafts = draftChunks(sections, policy, counter, tables);
  return { chunks: finaliseChunks(doc, drafts), spans: drafts.map((d) => d.spans), headingLines: drafts.map((d) => d.headingLines) };
}

/** Sections → numbered, id'd chunks under one policy. */
export function chunkSections(doc: ChunkDocument, sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): Chunk[] {
  return chunkDocument(doc, sections, policy, counter).chunks;
}
