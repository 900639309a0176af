/**
 * Decides, per section, whether it becomes one chunk, is split, or is merged with adjacent tiny
 * siblings. Merging never crosses a parent: a chunk spanning two chapters would carry a
 * breadcrumb that is wrong for half of it.
 */
import type { Section } from '../domain/index.ts';
import type { ChunkPolicy } from './policy.ts';

/** A section with its cleaned text and token counts, ready for planning. */
export interface PreparedSection {
  section: Section;
  /** Section text, NFC, `\r\n` folded, trimmed. Never empty (blank sections are dropped). */
  text: string;
  /** Tokens of `text`; over the policy's maxTokens means only that (the count stopped there: the section is split anyway). */
  tokens: number;
  /** Tokens of the section's title line, paid only when it is merged with others. */
  titleTokens: number;
}

/** What becomes of one or more sections. */
export type SectionGroup =
  | { kind: 'single'; members: [PreparedSection] }
  | { kind: 'split'; members: [PreparedSection] }
  | {
      kind: 'merged';
      members: PreparedSection[];
      /**
       * The path the merged chunk is filed under: the siblings' common parent, or — when a
       * section's own lead text is merged with its children — that section. Empty for top-level
       * siblings (the chunker then files them under the first one).
       */
      filedUnder: string[];
    };

/** Key of a section's parent: its path without the last title (JSON so titles may contain anything). */
export function parentKey(section: Section): string {
  return JSON.stringify(section.path.slice(0, -1));
}

/**
 * Estimated tokens of the body a group would have: a lone section is its text; merged sections
 * are each `title\ntext`, joined by blank lines (one token per seam, as in the packer).
 */
export function groupTokens(members: readonly PreparedSection[]): number {
  if (members.length === 1) return (members[0] as PreparedSection).tokens;
  return members.reduce((sum, m) => sum + m.tokens + (m.section.title.trim() ? m.titleTokens + 1 : 0), 0) + (members.length - 1);
}

/**
 * The preamble (a cover page, a title block) and a table of contents stand outside the document's
 * outline: a section merged into a group they open would be filed under "Preamble" or "Contents"
 * (an 8-K's short items after its cover). Once such a group is big enough on its own, nothing
 * joins it; a tiny one still merges with its neighbours, as any tiny section does.
 */
function closedLead(open: readonly PreparedSection[], policy: ChunkPolicy): boolean {
  const first = open[0];
  return first !== undefined && (first.section.source === 'preamble' || first.section.source === 'toc') && groupTokens(open) >= policy.minTokens;
}

/**
 * Groups sections in reading order. A section over `maxTokens` is split (and never merged).
 * Otherwise it joins the open group when it belongs under the same parent, the group or the
 * section is under `minTokens`, and the merged body stays within `maxTokens`. "Under the same
 * parent" means a sibling of the group's sections, or — for a group that is one section's own
 * lead text ("4.1 Envelope" before "4.1.1", "4.1.2") — a child of that section; a tiny lead
 * text waits for its children rather than joining the sibling before it. Nothing is ever merged
 * across two parents, so tiny sections attach to the sibling before them when that fits, else
 * to the one after, and a section with nothing to join stays small.
 */
export function planGroups(prepared: readonly PreparedSection[], policy: ChunkPolicy): SectionGroup[] {
  const groups: SectionGroup[] = [];
  let open: PreparedSection[] = [];
  let key: string | null = null;
  const flush = (): void => {
    const [first] = open;
    if (first && open.length === 1) groups.push({ kind: 'single', members: [first] });
    else if (first) groups.push({ kind: 'merged', members: open, filedUnder: JSON.parse(key ?? parentKey(first.section)) as string[] });
    open = [];
    key = null;
  };
  prepared.forEach((p, i) => {
    if (p.tokens > policy.maxTokens) {
      flush();
      groups.push({ kind: 'split', members: [p] });
      return;
    }
    const first = open[0];
    const next = prepared[i + 1];
    const leadsChildren = next !== undefined && parentKey(next.section) === JSON.stringify(p.section.path);
    if (first && !closedLead(open, policy)) {
      const asSibling = parentKey(p.section) === parentKey(first.section) && (key === null || key === parentKey(first.section));
      const asChild = parentKey(p.section) === JSON.stringify(first.section.path) && (key === null || key === JSON.stringify(first.section.path));
      const joinKey = asSibling && !(leadsChildren && p.tokens < policy.minTokens) ? parentKey(first.section) : asChild ? JSON.stringify(first.section.path) : null;
      const tiny = groupTokens(open) < policy.minTokens || p.tokens < policy.minTokens;
      if (joinKey !== null && tiny && groupTokens([...open, p]) <= policy.maxTokens) {
        open.push(p);
        key = joinKey;
        return;
      }
    }
    flush();
    open = [p];
  });
  flush();
  return groups;
}

/** Body of a merged group: each member's title as its own line above its text, nothing lost. */
export function mergedBody(members: readonly PreparedSection[]): string {
  return members.map((m) => (m.section.title.trim() ? `${m.section.title.trim()}\n${m.text}` : m.text)).join('\n\n');
}

/**
 * Fallback heading normaliser for a parent that is not itself among the sections (a chapter
 * heading the sectioniser folded away): drops Korean and decimal numbering, lower-cases, folds
 * whitespace — the same shape as {@link Section.heading}.
 */
export function normaliseHeadingFallback(title: string): string {
  const stripped = title
    .normalize('NFC')
    .replace(/^\s*제\s*\d+\s*[편장절관조](?:\s*의\s*\d+)?\s*/, '')
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.)\s+/, '')
    .replace(/^\((.*)\)$/, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return stripped || title.trim().toLowerCase();
}
