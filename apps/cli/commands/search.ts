import type { Command } from 'commander';
import type { Embedder } from '../../../shared/embed/embedder.ts';
import type { HybridHit, VectorStore } from '../../../shared/store/vector-store.ts';
import { createDocumentDirectory } from '../../../shared/agent/document-directory.ts';
import { scaledAlphas, type DirectoryEntry } from '../../../shared/retrieval/index.ts';
import { routedHybrid } from '../../../shared/retrieval/routed-search.ts';
import { withPorts } from '../app.ts';

/**
 * Embeds the query and runs one hybrid search: the raw retrieval, before any agent logic. With
 * `documents`, a question naming organisations, periods or forms gets those documents' hits
 * first (`routedHybrid`; nothing is filtered out).
 */
export async function hybridSearch(
  deps: { embedder: Embedder; store: VectorStore; documents?: () => Promise<DirectoryEntry[]> },
  text: string,
  opts: { alpha: number; limit: number },
): Promise<HybridHit[]> {
  const [vector] = await deps.embedder.embed([text]);
  if (!vector) throw new Error('the embedder returned no vector');
  const q = { text, vector, alpha: opts.alpha, limit: opts.limit };
  if (!deps.documents) return deps.store.hybrid(q);
  return (await routedHybrid({ store: deps.store, documents: deps.documents }, text, q)).hits;
}

/** One line of a hit: score parts, where it is (section path and pages), and a short snippet. */
export function formatHit(hit: HybridHit, rank: number, snippetChars = 140): string {
  const c = hit.chunk;
  const pages = c.page_start === c.page_end ? `p.${c.page_start}` : `pp.${c.page_start}-${c.page_end}`;
  const snippet = c.body.replace(/\s+/g, ' ').slice(0, snippetChars);
  return [
    `${String(rank).padStart(2)}. ${hit.score.toFixed(3)} (keyword ${hit.keywordScore.toFixed(3)}, vector ${hit.vectorScore.toFixed(3)})  ${c.doc_id}`,
    `    ${c.section_path} · ${pages}${c.valid_from ? ` · valid from ${c.valid_from}` : ''}${c.valid_to ? ` to ${c.valid_to}` : ''}`,
    `    ${snippet}${c.body.length > snippetChars ? '…' : ''}`,
  ].join('\n');
}

export function searchCommand(program: Command): void {
  program
    .command('search <text>')
    .description('hybrid search over indexed chunks (keyword + vector, relative-score fusion)')
    .option('--alpha <a>', '0 = keyword only, 1 = vector only (default: 0.5 × HYBRID_ALPHA_SCALE)')
    .option('--limit <n>', 'hits', '5')
    .option('--json')
    .option('--no-route', 'no document routing: the store’s hybrid search alone')
    .action(async (text: string, o: { alpha?: string; limit: string; json?: boolean; route: boolean }) => {
      await withPorts(async (ports, config) => {
        const alpha = o.alpha === undefined ? scaledAlphas(config.retrieval.alphaScale).defaultAlpha : Number(o.alpha);
        if (!(alpha >= 0 && alpha <= 1)) throw new Error(`--alpha must be between 0 and 1, got ${o.alpha}`);
        const documents = o.route ? createDocumentDirectory(ports.store) : undefined;
        const hits = await hybridSearch({ embedder: ports.embedder, store: ports.store, documents }, text, { alpha, limit: Number(o.limit) });
        process.stdout.write(o.json ? `${JSON.stringify(hits, (k, v: unknown) => (k === 'vector' ? undefined : v), 2)}\n` : `${hits.map((h, i) => formatHit(h, i + 1)).join('\n')}\n`);
      });
    });
}
