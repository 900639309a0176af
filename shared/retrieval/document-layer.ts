/**
 * Multi-layer retrieval (seed 004, issue 29): before any chunk is searched, the question is scored
 * against two coarser layers of the index — the document layer (title, profile line,
 * organisation names, section headings and statement captions) and the section layer (the
 * headings of the documents to read) — so the agent decides which documents to read first and
 * which of their parts to favour. The layers are short texts, so they are scored lexically
 * (idf-weighted coverage, proximity, phrase: `lexicalScores`). Pure.
 */
import type { DirectoryEntry, QueryScope } from './document-routing.ts';
import { analyseQuery, lexicalScores } from './lexical-match.ts';
import { hasPeriod } from './period-match.ts';

/** A document's score on the document layer, in [0, 1]. */
export interface LayerScore {
  docId: string;
  score: number;
}

/** What the two layers say about a question. */
export interface DocumentLayers {
  /** Documents with a document-layer text, best first. */
  documents: LayerScore[];
  /** Section name → weight in [0, 1]: the headings of the documents to read that the question matches. */
  sections: Record<string, number>;
  /** The documents whose headings were scored (the routed ones, else the best of the document layer). */
  read: string[];
}

/** Options of {@link scoreLayers}. */
export interface LayerOptions {
  /** @defaultValue 8 */
  maxSections?: number;
  /**
   * Section-layer score a heading needs to become a prior.
   * @defaultValue 0.35
   */
  minSectionScore?: number;
  /** Documents read without routing: the document layer's best this many. @defaultValue 3 */
  unroutedRead?: number;
}

/** The document layer's text: title, profile line, organisation names, headings (statement captions among them). */
export function documentLayerText(e: DirectoryEntry): string {
  const names = e.profile?.organisations.flatMap((o) => [o.name, ...o.aliases]) ?? [];
  return [e.title, e.profile?.label ?? '', ...names, ...(e.headings ?? [])].filter((t) => t !== '').join('\n');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The question as the section layer reads it: without what routing already used (the
 * organisation's name as written, the periods, the form), which no heading holds and which
 * would only dilute a heading's coverage.
 */
export function layerQuestion(question: string, scope: QueryScope | null): string {
  let q = question.normalize('NFKC');
  const cut = [...(scope?.organisations.map((o) => o.alias) ?? []), ...(scope?.periods ?? (scope?.period ? [scope.period] : [])).map((p) => p.phrase)];
  for (const c of cut) if (c) q = q.replace(new RegExp(`${escape(c)}(?:['’]s)?`, 'giu'), ' ');
  return q
    .replace(/\b(?:10-[KQ]|8-K|quarterly\s+report|annual\s+report|filing|report)\b/giu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.!,;:])/g, '$1')
    .trim();
}

/**
 * Scores the document layer over the entries that have one (a profile or headings) and the
 * section layer over the headings of the documents to read: the routed ones when the question
 * was routed, else the document layer's best `unroutedRead` (only when the best stands out:
 * twice the median). Entries without a profile or headings (a plain corpus) make no layers.
 */
export function scoreLayers(question: string, directory: readonly DirectoryEntry[], scope: QueryScope | null, options: LayerOptions = {}): DocumentLayers {
  const maxSections = options.maxSections ?? 8;
  const minSection = options.minSectionScore ?? 0.35;
  // A document has a layer when it has headings or a profile that says something (a plain
  // corpus of one-passage documents has none, and costs nothing here).
  const layered = directory.filter((e) => (e.headings?.length ?? 0) > 0 || Boolean(e.profile && (e.profile.organisations.length > 0 || e.profile.form !== null || hasPeriod(e.profile))));
  if (layered.length === 0) return { documents: [], sections: {}, read: [] };
  const docScores = lexicalScores(analyseQuery(question), layered.map(documentLayerText)).map((s, i) => ({ docId: (layered[i] as DirectoryEntry).doc_id, score: s.score }));
  const ranked = [...docScores].sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1));
  let read: string[];
  if (scope && scope.docIds.length > 0) read = [...scope.docIds];
  else {
    const median = ranked[Math.floor(ranked.length / 2)]?.score ?? 0;
    read = ranked.slice(0, options.unroutedRead ?? 3).filter((d) => d.score > 0 && d.score >= 2 * median).map((d) => d.docId);
  }
  const wanted = new Set(read);
  const headings = [...new Set(layered.filter((e) => wanted.has(e.doc_id)).flatMap((e) => e.headings ?? []))];
  const sections: Record<string, number> = {};
  const asked = analyseQuery(layerQuestion(question, scope));
  if (headings.length > 0 && asked.units.length > 0) {
    const scores = lexicalScores(asked, headings);
    const picked = headings
      .map((h, i) => ({ h, score: scores[i]?.score ?? 0 }))
      .filter((x) => x.score >= minSection)
      .sort((a, b) => b.score - a.score || a.h.localeCompare(b.h))
      .slice(0, maxSections);
    for (const { h, score } of picked) sections[h] = Math.round(score * 1000) / 1000;
  }
  return { documents: ranked, sections, read };
}

/**
 * The routing prior with the document layer folded in: each routed weight × (0.85 + 0.15 ·
 * score / best score), so among documents routing weighs alike, the one whose title, profile
 * and headings fit the question more is read first. Documents outside the prior are untouched.
 */
export function layeredDocWeights(docWeights: Readonly<Record<string, number>>, layers: DocumentLayers): Record<string, number> {
  const best = Math.max(0, ...layers.documents.map((d) => d.score));
  const score = new Map(layers.documents.map((d) => [d.docId, d.score]));
  const out: Record<string, number> = {};
  for (const [doc, w] of Object.entries(docWeights)) out[doc] = best > 0 ? w * (0.85 + (0.15 * (score.get(doc) ?? 0)) / best) : w;
  return out;
}
