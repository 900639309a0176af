import type { Command } from 'commander';
import { retryDocument, retryFailedDocuments, type RetryOutcome } from '../../../core/documents/index.ts';
import { withPorts } from '../app.ts';

const line = (r: RetryOutcome) => (r.retried ? `retried ${r.docId} (extract enqueued)` : `skipped ${r.docId}: ${r.message}`);

/** `quarry ingest retry --doc-id X | --failed`: runs failed documents again from their stored source. */
export function retryCommand(program: Command): void {
  const ingest = program.commands.find((c) => c.name() === 'ingest') ?? program.command('ingest');
  const retry = ingest
    .command('retry')
    .description('run failed documents again from their stored source (one with --doc-id, exit 2 when it cannot be; or every one with --failed)')
    .option('--doc-id <id>', 'one failed document')
    .option('--failed', 'every failed document');
  retry.action(async (o: { docId?: string; failed?: boolean }) => {
    if (Boolean(o.docId) === Boolean(o.failed)) retry.error('error: give exactly one of --doc-id <id> or --failed');
    await withPorts(async (ports) => {
      let outcomes: RetryOutcome[];
      if (o.docId) {
        const r = await retryDocument(ports, o.docId);
        if (!r) throw new Error(`document ${o.docId} is not registered`);
        outcomes = [r];
      } else {
        outcomes = await retryFailedDocuments(ports);
      }
      for (const r of outcomes) process.stdout.write(`${line(r)}\n`);
      if (outcomes.length === 0) process.stdout.write('no failed documents\n');
      if (o.docId && outcomes.some((r) => !r.retried)) process.exitCode = 2;
    });
  });
}
