import type { Command } from 'commander';
import type { HybridHit } from '../../../shared/store/index.ts';
import { SearchFilters, searchFilter } from '../../../core/schemas.ts';
import { createDocumentDirectory, scaledAlphas } from '../../../shared/retrieval/index.ts';
import { hybridSearch } from '../../../core/search.ts';
import { withPorts } from '../app.ts';
import { commandSpec, describeCommand } from '../command-summaries.ts';

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

interface FilterOptions {
  docType?: string;
  jurisdiction?: string;
  lang?: string;
  asOf?: string;
}

/**
 * The filter flags, checked by the schema the MCP `search` tool uses.
 * @throws Error naming each bad flag.
 */
export function filtersOf(o: FilterOptions): SearchFilters | undefined {
  const list = (v: string | undefined) => v?.split(',').map((x) => x.trim()).filter(Boolean);
  const raw = { docType: list(o.docType), jurisdiction: list(o.jurisdiction), lang: list(o.lang), asOf: o.asOf };
  if (Object.values(raw).every((v) => v === undefined)) return undefined;
  const parsed = SearchFilters.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `--${String(i.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`).join('; '));
  return parsed.data;
}

export function searchCommand(program: Command): void {
  program
    .command(commandSpec('search'))
    .description(describeCommand('search'))
    .option('--alpha <a>', '0 = keyword only, 1 = vector only (default: 0.5 × HYBRID_ALPHA_SCALE)')
    .option('--limit <n>', 'hits', '5')
    .option('--json')
    .option('--no-route', 'no document routing: the store’s hybrid search alone')
    .option('--doc-type <types>', 'only these document types (comma-separated)')
    .option('--jurisdiction <codes>', 'only these jurisdictions (comma-separated)')
    .option('--lang <langs>', 'only these languages (comma-separated)')
    .option('--as-of <date>', 'only passages valid on this date (YYYY-MM-DD)')
    .action(async (text: string, o: { alpha?: string; limit: string; json?: boolean; route: boolean } & FilterOptions) => {
      await withPorts(async (ports, config) => {
        const alpha = o.alpha === undefined ? scaledAlphas(config.retrieval.alphaScale).defaultAlpha : Number(o.alpha);
        if (!(alpha >= 0 && alpha <= 1)) throw new Error(`--alpha must be between 0 and 1, got ${o.alpha}`);
        const documents = o.route ? createDocumentDirectory(ports.store) : undefined;
        const filter = searchFilter(filtersOf(o));
        const hits = await hybridSearch({ embedder: ports.embedder, store: ports.store, documents }, text, { alpha, limit: Number(o.limit), filter });
        process.stdout.write(o.json ? `${JSON.stringify(hits, (k, v: unknown) => (k === 'vector' ? undefined : v), 2)}\n` : `${hits.map((h, i) => formatHit(h, i + 1)).join('\n')}\n`);
      });
    });
}
