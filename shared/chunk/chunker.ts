/**
 * Sections → chunks: plan (single / merged / split), pack split sections, then number the
 * chunks and give them content-addressed ids.
 */
import { chunkIdFor, normaliseBody } from '../domain/ids.ts';
import { sectionPathString, type Section } from '../domain/section.ts';
import type { Chunk } from '../domain/chunk.ts';
import { mergedBody, normaliseHeadingFallback, planGroups, type PreparedSection, type SectionGroup } from './merge.ts';
import { packUnits } from './pack.ts';
import type { ChunkPolicy } from './policy.ts';
import { countWithin, type TokenCounter } from './tokenizer.ts';
import { pageAt, separatorBetween, unitsOf, type Unit } from './units.ts';

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
}

/** Identity of the document the chunks belong to. */
export interface ChunkDocument {
  docId: string;
  version: string;
}

function prepare(sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): PreparedSection[] {
  return [...sections]
    .sort((a, b) => a.order - b.order)
    .map((section) => ({ section, text: section.text.normalize('NFC').replace(/\r\n?/g, '\n').trim() }))
    .filter((s) => s.text !== '')
    .map(({ section, text }) => ({ section, text, tokens: countWithin(counter, text, policy.maxTokens), titleTokens: counter.count(section.title.trim()) }));
}

function singleDraft(p: PreparedSection): ChunkDraft {
  return {
    section: p.section.heading,
    sectionPath: sectionPathString(p.section.path),
    body: p.text,
    pageStart: p.section.pageStart,
    pageEnd: Math.max(p.section.pageStart, p.section.pageEnd),
    overlapUnits: 0,
    tokenCount: p.tokens,
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
  return {
    section: heading,
    sectionPath: path,
    body,
    pageStart: Math.min(...members.map((m) => m.section.pageStart)),
    pageEnd: Math.max(...members.map((m) => Math.max(m.section.pageStart, m.section.pageEnd))),
    overlapUnits: 0,
    tokenCount: counter.count(body),
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
  return packUnits(units, policy).map((r) => {
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
    return {
      section: section.heading,
      sectionPath: sectionPathString(section.path),
      body,
      pageStart: pageAt(firstUnit.start, text.length, section.pageStart, pageEnd),
      pageEnd: pageAt(Math.max(firstUnit.start, lastUnit.end - 1), text.length, section.pageStart, pageEnd),
      overlapUnits: r.start - from,
      tokenCount,
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
  return planGroups(prepared, policy).flatMap((g: SectionGroup) => {
    if (g.kind === 'split') return splitDrafts(g.members[0], policy, counter);
    if (g.kind === 'merged') return [mergedDraft(g.members, g.filedUnder, headingByPath, counter)];
    return [singleDraft(g.members[0])];
  });
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

/** Sections → numbered, id'd chunks under one policy. */
export function chunkSections(doc: ChunkDocument, sections: readonly Section[], policy: ChunkPolicy, counter: TokenCounter): Chunk[] {
  return finaliseChunks(doc, draftChunks(sections, policy, counter));
}
