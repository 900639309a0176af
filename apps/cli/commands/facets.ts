import type { Command } from 'commander';
import { FacetRebuildTarget, facetRebuildQueue } from '../../../core/queues.ts';
import { queryFacetWeights, type FacetWeights } from '../../../shared/facets/index.ts';
import { FACET_NAMES, FacetName, type FacetValueVector } from '../../../shared/store/index.ts';
import { facetRebuildWorker } from '../../../workers/facet-rebuild/index.ts';
import { runStageOnce } from '../../../workers/runtime/index.ts';
import { cliLogger, withPorts } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

type RebuildResult = ReturnType<typeof facetRebuildQueue.result.parse>;

/**
 * `--facet` as a rebuild target.
 * @throws Error listing the known facets for anything else.
 */
export function parseFacetTarget(input: string): FacetRebuildTarget {
  const parsed = FacetRebuildTarget.safeParse(input);
  if (!parsed.success) throw new Error(`unknown facet ${input}; known: ${FACET_NAMES.join(', ')}, all`);
  return parsed.data;
}

/**
 * `--facet` of `show`: a facet name, or undefined for all.
 * @throws Error listing the known facets for an unknown name.
 */
export function parseFacetName(input: string | undefined): FacetName | undefined {
  if (input === undefined || input === 'all') return undefined;
  const parsed = FacetName.safeParse(input);
  if (!parsed.success) throw new Error(`unknown facet ${input}; known: ${FACET_NAMES.join(', ')}`);
  return parsed.data;
}

/** One line per rebuilt facet: values now held and stale values removed. */
export function formatRebuildResult(result: RebuildResult): string {
  const width = Math.max(...result.facets.map((f) => f.facet.length));
  const lines = result.facets.map(
    (f) => `${f.facet.padEnd(width)}  ${String(f.values).padStart(5)} value${f.values === 1 ? '' : 's'}${f.removed ? `  (${f.removed} stale removed)` : ''}`,
  );
  const index = result.index;
  return `${lines.join('\n')}\n${result.embedded} text(s) embedded, ${result.cached} from cache\nvector index: ${index.vectorIndex} (${index.reason}${index.seconds >= 1 ? `; ${index.seconds} s` : ''})`;
}

/** The stored facet values: facet, value, chunks carrying it, when built, aliases. */
export function formatFacetValues(rows: readonly FacetValueVector[]): string {
  if (rows.length === 0) return 'no facet values: run `quarry facets rebuild-vectors` after ingesting documents';
  const fw = Math.max(5, ...rows.map((r) => r.facet.length));
  const vw = Math.min(48, Math.max(5, ...rows.map((r) => r.value.length)));
  const head = `${'facet'.padEnd(fw)}  ${'value'.padEnd(vw)}  chunks  updated              aliases`;
  const lines = rows.map((r) => {
    const value = r.value.length > vw ? `${r.value.slice(0, vw - 1)}…` : r.value.padEnd(vw);
    return `${r.facet.padEnd(fw)}  ${value}  ${String(r.sample_count).padStart(6)}  ${r.updated_at.slice(0, 19)}  ${r.aliases.join(', ')}`;
  });
  const counts = FACET_NAMES.map((f) => [f, rows.filter((r) => r.facet === f).length] as const).filter(([, n]) => n > 0);
  return `${head}\n${lines.join('\n')}\n${counts.map(([f, n]) => `${n} ${f}`).join(', ')}`;
}

/** Weights a query gets, best first per facet. */
export function formatWeights(weights: FacetWeights): string {
  return FACET_NAMES.map((f) => {
    const entries = Object.entries(weights[f]).sort((a, b) => b[1] - a[1]);
    return `${f}: ${entries.length ? entries.map(([v, w]) => `${v}=${w.toFixed(3)}`).join(', ') : '—'}`;
  }).join('\n');
}

/** `quarry facets rebuild-vectors` and `quarry facets show`. */
export function facetsCommands(program: Command): void {
  const facets = program.command('facets').description(describeCommand('facets'));

  facets
    .command('rebuild-vectors')
    .description('rebuild FacetValueVector rows (typed description + aliases + sampled sentences), in this process')
    .option('--facet <name>', `${FACET_NAMES.join(', ')} or all`, 'all')
    .action(async (o: { facet: string }) => {
      await withPorts(async (ports, config) => {
        const facet = parseFacetTarget(o.facet);
        const result = facetRebuildQueue.result.parse(
          await runStageOnce(facetRebuildWorker, { facet, requestedAt: Date.now() }, ports, cliLogger(config)),
        );
        process.stdout.write(`${formatRebuildResult(result)}\n`);
      });
    });

  facets
    .command('show')
    .description('list stored facet values; with --query, the weights that query gets')
    .option('--facet <name>', FACET_NAMES.join(', '))
    .option('--query <text>', 'also print the top weights per facet for this query')
    .option('--json')
    .action(async (o: { facet?: string; query?: string; json?: boolean }) => {
      await withPorts(async (ports) => {
        const rows = await ports.store.listFacetValues(parseFacetName(o.facet));
        const weights = o.query === undefined ? undefined : await queryFacetWeights(ports, o.query);
        if (o.json) {
          const plain = rows.map(({ vector: _vector, ...rest }) => rest);
          process.stdout.write(`${JSON.stringify(weights ? { values: plain, weights } : plain, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${formatFacetValues(rows)}\n${weights ? `\nweights for "${o.query}":\n${formatWeights(weights)}\n` : ''}`);
      });
    });
}
