import type { Chunk, LineSpan, Section, Coverage, LineInventory, PlacedTable } from '../../shared/domain/index.ts';
import { chunkDocument, coverageOf, resolvePolicy, createCl100kCounter, type ChunkPolicyTable, type TokenCounter } from '../../shared/chunk/index.ts';

/** Input of the chunk stage: the document's identity, its type (selects the policy) and its sections. */
export interface ChunkStageInput {
  docId: string;
  version: string;
  /** The document's doc_type (meta.doc_type, or 'unknown'); picks the row of the policy table. */
  docType: string;
  sections: Section[];
  /** Every printed line of the document (from the sectionize stage); without it, no coverage is counted. */
  inventory?: LineInventory;
  /** The tables read from the pages (from the sectionize stage): each becomes a chunk of its own, its lines out of the sections' text. */
  tables?: PlacedTable[];
}

/** What the chunk stage makes: the chunks, the printed lines each holds (in its body; in its breadcrumb only), and the document's coverage. */
export interface ChunkStageOutput {
  chunks: Chunk[];
  /** Per chunk, where each printed line of its body sits in it (LineSpan in body offsets). */
  spans: LineSpan[][];
  headingLines: number[][];
  coverage: Coverage | null;
}

/**
 * The chunk stage: sections → chunks, pure and deterministic (no clock, no randomness), so a
 * replay from the same sections yields byte-identical chunks and ids.
 *
 * Sections that fit in the policy's maxTokens become one chunk; bigger ones are packed from
 * sentences and whole lists/tables towards targetTokens with sentence overlap; sections under
 * minTokens are merged with adjacent siblings of the same parent. See shared/chunk/.
 *
 * @param policies - per doc_type chunk sizes; `DEFAULT_CHUNK_POLICIES` unless configured.
 * @param tokenizer - token counter. @defaultValue cl100k_base (`createCl100kCounter()`)
 * @throws PermanentError INVALID_CONFIG when the policy table has no valid entry for the doc type.
 */
export function chunkStage(input: ChunkStageInput, policies: ChunkPolicyTable, tokenizer: TokenCounter = createCl100kCounter()): Chunk[] {
  return chunkStageWithCoverage(input, policies, tokenizer).chunks;
}

/** {@link chunkStage}, with the printed lines each chunk holds and the coverage they add up to. */
export function chunkStageWithCoverage(input: ChunkStageInput, policies: ChunkPolicyTable, tokenizer: TokenCounter = createCl100kCounter()): ChunkStageOutput {
  const policy = resolvePolicy(policies, input.docType);
  const { chunks, spans, headingLines } = chunkDocument({ docId: input.docId, version: input.version }, input.sections, policy, tokenizer, input.tables);
  const held = spans.map((body, k) => [...body.map((s) => s[3]), ...(headingLines[k] ?? [])]);
  return { chunks, spans, headingLines, coverage: input.inventory ? coverageOf(input.inventory, held) : null };
}
