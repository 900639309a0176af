import type { Command } from 'commander';
import { WEEK_MS, type ChunkStatsView } from '../../../shared/memory/index.ts';
import { memoryDecayWorker } from '../../../workers/memory-decay/index.ts';
import { runStageOnce } from '../../../workers/runtime/index.ts';
import { cliLogger, withPorts } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

/**
 * `--now` as a time.
 * @throws Error naming the bad value.
 */
export function parseNow(now: string | undefined, clock: () => Date = () => new Date()): Date {
  if (now === undefined) return clock();
  const t = new Date(now);
  if (Number.isNaN(t.getTime())) throw new Error(`--now must be an ISO time such as 2025-06-01T03:00:00Z, got ${now}`);
  return t;
}

const top = (hist: Record<string, number>, n: number) =>
  Object.entries(hist)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k, c]) => `${k} ×${c}`)
    .join(', ') || '—';

/** A chunk's memory for a person: counts, utility now and as stored, top intents and entities, centroid size. */
export function formatChunkStats(view: ChunkStatsView, now: Date, halfLifeMs: number): string {
  const s = view.stats;
  const c = s.query_centroid;
  const norm = c ? Math.sqrt(c.reduce((a, x) => a + x * x, 0)) : 0;
  return [
    `chunk ${view.chunkId}`,
    `  useful_count     ${s.useful_count}`,
    `  last_useful_at   ${new Date(s.last_useful_at).toISOString()}`,
    `  utility now      ${view.features.decayedUtility.toFixed(4)} (at ${now.toISOString()}, half-life ${(halfLifeMs / WEEK_MS).toFixed(1)} weeks)`,
    `  utility stored   ${s.decayed_utility.toFixed(4)} (at ${new Date(s.utility_at).toISOString()})`,
    `  intents          ${top(s.intent_hist, 8)}`,
    `  entities         ${top(s.entity_hist, 12)}`,
    `  query_centroid   ${c ? `${c.length} dims, norm ${norm.toFixed(4)}` : '—'}`,
  ].join('\n');
}

/** `quarry memory decay` and `quarry memory show`. */
export function memoryCommands(program: Command): void {
  const memory = program.command('memory').description(describeCommand('memory'));

  memory
    .command('decay')
    .description('materialise every chunk’s decayed utility and prune forgotten chunks now, in this process')
    .option('--now <iso>', 'decay as of this time (default: now)')
    .option('--json')
    .action(async (o: { now?: string; json?: boolean }) => {
      await withPorts(async (ports, config) => {
        const now = parseNow(o.now);
        const result = (await runStageOnce(memoryDecayWorker, { requestedAt: now.toISOString() }, ports, cliLogger(config))) as {
          at: string;
          scanned: number;
          updated: number;
          pruned: number;
        };
        process.stdout.write(
          o.json ? `${JSON.stringify(result)}\n` : `decayed at ${result.at}: scanned ${result.scanned}, updated ${result.updated}, pruned ${result.pruned}\n`,
        );
      });
    });

  memory
    .command('show')
    .description('one chunk’s memory and its decayed utility now')
    .requiredOption('--chunk-id <id>')
    .option('--now <iso>', 'evaluate as of this time (default: now)')
    .option('--json')
    .action(async (o: { chunkId: string; now?: string; json?: boolean }) => {
      await withPorts(async (ports) => {
        const now = parseNow(o.now);
        const view = (await ports.memory.getMany([o.chunkId], now)).get(o.chunkId);
        if (!view) throw new Error(`chunk ${o.chunkId} has no memory (never part of a validated answer, or pruned)`);
        if (o.json) {
          const { query_centroid: c, ...rest } = view.stats;
          const out = { chunkId: view.chunkId, ...rest, centroid_dimension: c?.length ?? 0, utility_now: view.features.decayedUtility, now: now.toISOString() };
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${formatChunkStats(view, now, ports.memory.policy.halfLifeMs)}\n`);
      });
    });
}
