/**
 * Sections → chunks: plan (single / merged / split), pack split sections, then number the
 * chunks and give them content-addressed ids.
 */
import { chunkIdFor, normaliseBody } from '../domain/ids.ts';
import { PATH_SEPARATOR, sectionPathString, type LineSpan, type Section } from '../domain/section.ts';
import type { Chunk } from '../domain/chunk.ts';
import { mergedBody, normaliseHeadingFallback, planGroups, type PreparedSection, type SectionGroup } from './merge.ts';
import { packUnits } from './pack.ts';
import type { ChunkPolicy } from './policy.ts';
import { countWithin, type TokenCounter } from './tokenizer.ts';
import { pageAt, separatorBetween, unitsOf, type Unit } from './units.ts';
import { linesOf, pagesOf, spansIn } from './line-pages.ts';

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
  /** The printed lines (indices) whose text is in `body`, ascending. */
  lines: number[];
  /** Heading lines this chunk holds only in its breadcrumb (a split section's first chunk holds its heading's). */
  headingLines: number[];
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
    lines: linesOf(p.section.spans ?? []),
    headingLines: p.section.headingLines ?? [],
  };
}

/**
 * A merged group is filed under the path it was merged under (the siblings' parent, or the
 * section whose lead text leads the group), with that section's heading; top-level siblings
 * have no parent, so they are filed under the first one.
 */
function mergedDraft(members: readonly PreparedSection[], filedUnder: readonly string[], headingByPath: ReadonlyMap<string, string>, counter: TokenCounter): ChunkDraft {
  const first = (members[0] as PreparedSection).section;
  const useParent = filedUnder.length > 0;
  const path = useParent ? sectionPathString(filedUnder) : sectionPathString(first.path);
  const heading = useParent ? (headingByPath.get(path) ?? normaliseHeadingFallback(filedUnder[filedUnder.length - 1] ?? '')) : first.heading;
  const body = mergedBody(members);
  // Each member's title is a line of the body: its heading's page counts with its text's.
  const pages = members.flatMap((m) => {
    const own = sectionPages(m.section);
    return m.section.title.trim() ? [m.section.pageStart, own.pageStart, own.pageEnd] : [own.pageStart, own.pageEnd];
  });
  return {
    section: heading,
    sectionPath: path,
    body,
    pageStart: Math.min(...pages),
    pageEnd: Math.max(...pages),
    overlapUnits: 0,
    tokenCount: counter.count(body),
    // Each member's title is printed in the body: its heading lines are body lines here.
    lines: linesOf(members.flatMap((m) => m.section.spans ?? []), members.flatMap((m) => (m.section.title.trim() ? (m.section.headingLines ?? []) : []))),
    headingLines: [],
  };
}

function joinUnits(text: string, units: readonly Unit[]): string {
  let body = '';
  units.forEach((u, i) => {
    body += i === 0 ? u.text : separatorBetween(text, units[i - 1] as Unit, u) + u.text;
  });
  return body;
}

function splitDrafts(p: PreparedSection, policy: ChunkPolicy, counter: TokenCounter): ChunkDraft[] {
  const { section, text } = p;
  const units = unitsOf(text, policy.maxTokens, policy.targetTokens, counter);
  const pageEnd = Math.max(section.pageStart, section.pageEnd);
  const spans: readonly LineSpan[] = section.spans ?? [];
  return packUnits(units, policy).map((r, k) => {
    let from = r.overlapFrom;
    let body = joinUnits(text, units.slice(from, r.end));
    let tokenCount = counter.count(body);
    // The packer estimates; if the real count overshoots, the optional overlap goes first.
    if (from < r.start && tokenCount > policy.maxTokens) {
      from = r.start;
      body = joinUnits(text, units.slice(from, r.end));
      tokenCount = counter.count(body);
    }
    const firstUnit = units[from] as Unit;
    const lastUnit = units[r.end - 1] as Unit;
    const held = spansIn(spans, firstUnit.start, lastUnit.end);
    // Without spans (an old artifact), pages are estimated from the position in the section.
    const pages = pagesOf(held) ?? {
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
      lines: linesOf(held),
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
export function draftChunks(sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): ChunkDraft[] {
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
  fileBlankHeadings(sections, drafts);
  return drafts;
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
      embedding_text: embeddingTextOf(d.sectionPath, d.body),
      page_start: d.pageStart,
      page_end: Math.max(d.pageStart, d.pageEnd),
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
): { chunks: Chunk[]; lines: number[][]; headingLines: number[][] } {
  const drafts = draftChunks(sections, policy, counter);
  return { chunks: finaliseChunks(doc, drafts), lines: drafts.map((d) => d.lines), headingLines: drafts.map((d) => d.headingLines) };
}

/** Sections → numbered, id'd chunks under one policy. */
export function chunkSections(doc: ChunkDocument, sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): Chunk[] {
  return chunkDocument(doc, sections, policy, counter).chunks;
}
