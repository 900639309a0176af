/**
 * The citations of an extractive answer's quotes: one a passage's section — the section or the
 * speaker printed above a quote when the passage holds several — with the pages of the lines it
 * quotes. Pure.
 */
import { quotedPages } from '../chunk/index.ts';
import type { DocTable, LinePages } from '../domain/index.ts';
import { matchForm } from '../retrieval/index.ts';
import type { Citation } from '../runs/index.ts';
import { isSpeakerLine } from '../sectionize/index.ts';
import { isSectionTitle, type PassageSentence } from './answer-sentences.ts';

/** A passage the answer may quote, with what a citation shows. */
export interface AnswerChunk {
  chunkId: string;
  docId: string;
  title: string;
  sectionPath: string;
  pageStart: number;
  pageEnd: number;
  body: string;
  validFrom: string | null;
  validTo: string | null;
  /** The body's pages by offset (Chunk.line_pages): a quote's pages are its own. */
  linePages?: LinePages;
  /** The table the passage holds, as data: it is not quoted as sentences. */
  table?: DocTable;
}

/**
 * Each quoted sentence followed by its citation marker, and the citations, numbered from `first`
 * in order of first use. Sentences of a passage merged from several sections, or of several
 * speakers of a transcript, are cited each under its own ({@link quotedSection}); a citation's
 * pages are those of the lines it quotes.
 */
export function citeQuotes(
  chunks: readonly AnswerChunk[],
  sentences: readonly PassageSentence[],
  quoted: readonly PassageSentence[],
  first: number,
): { parts: string[]; citations: Citation[] } {
  const cited = new Map<string, { citation: Citation; quoted: PassageSentence[] }>();
  const parts = quoted.map((cand) => {
    const ch = chunks[cand.chunk] as AnswerChunk;
    const sectionPath = quotedSection(ch.sectionPath, sentences, cand);
    const key = `${cand.chunk}\u0000${sectionPath}`;
    let entry = cited.get(key);
    if (!entry) {
      const n = cited.size + first;
      entry = { citation: { n, chunkId: ch.chunkId, docId: ch.docId, title: ch.title, sectionPath, pages: { start: ch.pageStart, end: ch.pageEnd }, validFrom: ch.validFrom, validTo: ch.validTo }, quoted: [] };
      cited.set(key, entry);
    }
    entry.quoted.push(cand);
    return `${cand.text} [${entry.citation.n}]`;
  });
  for (const { citation, quoted: own } of cited.values()) {
    const start = Math.min(...own.map((c) => c.start));
    const end = Math.max(...own.map((c) => c.end));
    const ch = chunks[own[0]?.chunk ?? -1] as AnswerChunk;
    const pages = quotedPages(ch.linePages, start, end, { pageStart: ch.pageStart, pageEnd: ch.pageEnd });
    citation.pages = { start: pages.pageStart, end: pages.pageEnd };
    citation.quote = { start, end };
  }
  return { parts, citations: [...cited.values()].map((e) => e.citation) };
}

/**
 * The section a quoted sentence is in: its passage's, and — when the passage was merged from
 * several short sections, each printing its title over its text ("제54조(휴게)" among chapter 4's
 * articles) — the title printed last above the sentence, so the citation names the article; in a
 * call transcript, the speaker line above it ("Marcus Lee -- Chief Financial Officer"), so the
 * citation says who said it.
 */
function quotedSection(path: string, sentences: readonly PassageSentence[], quoted: PassageSentence): string {
  let title: string | null = null;
  for (const c of sentences) {
    if (c.chunk !== quoted.chunk || c.position >= quoted.position) continue;
    if (c.role === 'heading' && (isSectionTitle(c.text) || isSpeakerLine(c.text))) title = c.text.trim().replace(/:$/u, '');
  }
  const last = path.split(' > ').pop() ?? '';
  return title && matchForm(title) !== matchForm(last) ? (path ? `${path} > ${title}` : title) : path;
}
