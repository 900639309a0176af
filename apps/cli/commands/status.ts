import type { Command } from 'commander';
import { INGEST_QUEUES } from '../../../core/queues.ts';
import { withPorts } from '../app.ts';
import { formatQueueCounts, formatStatuses } from '../format.ts';
import { waitForSettled } from '../wait.ts';
import { describeCommand } from '../command-summaries.ts';

export function statusCommand(program: Command): void {
  program
    .command('status')
    .description(describeCommand('status'))
    .option('--doc-id <id>', 'one document, in full')
    .option('--wait', 'redraw with progress bars until every document has settled')
    .option('--timeout <seconds>', 'how long --wait waits', '600')
    .option('--json', 'machine-readable output')
    .action(async (o: { docId?: string; wait?: boolean; timeout: string; json?: boolean }) => {
      await withPorts(async (ports) => {
        if (o.docId) {
          const s = await ports.status.get(o.docId);
          if (!s) throw new Error(`document ${o.docId} is not registered`);
          process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
          return;
        }
        if (o.wait) {
          await waitForSettled(ports.status, {
            timeoutMs: Number(o.timeout) * 1000,
            onTick: (s) => {
              if (process.stderr.isTTY) process.stderr.write(`\x1b[2J\x1b[H${formatStatuses(s, { bars: true })}\n`);
            },
          });
        }
        const counts = await Promise.all(INGEST_QUEUES.map(async (q) => ({ queue: q.name, counts: await ports.queues.counts(q) })));
        const statuses = await ports.status.list();
        if (o.json) {
          process.stdout.write(`${JSON.stringify({ queues: counts, documents: statuses }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${formatQueueCounts(counts)}\n\n${formatStatuses(statuses)}\n`);
      });
    });
}
