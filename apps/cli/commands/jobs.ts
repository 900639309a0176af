import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parseManifest } from '../../../shared/sources/index.ts';
import { registerFile } from '../../../core/sources/index.ts';
import { withPorts } from '../app.ts';
import { formatStatuses } from '../format.ts';
import { waitForSettled } from '../wait.ts';
import { cliSourceKey } from './ingest.ts';
import { describeCommand } from '../command-summaries.ts';

export function jobsCommands(program: Command): void {
  program
    .command('jobs')
    .description(describeCommand('jobs'))
    .command('run <manifest>')
    .description('register every PDF of a JSONL manifest ({"path", doc_type, jurisdiction, lang, valid_from, valid_to, …} a line)')
    .option('--wait', 'wait until every document is indexed or failed, with progress')
    .option('--timeout <seconds>', 'how long --wait waits', '600')
    .option('--force', 're-process unchanged documents')
    .action(async (manifest: string, o: { wait?: boolean; timeout: string; force?: boolean }) => {
      await withPorts(async (ports, config) => {
        const entries = parseManifest(await readFile(manifest, 'utf8'), manifest);
        const docIds: string[] = [];
        for (const e of entries) {
          // Manifest paths are relative to the working directory, like the CLI's --path.
          const file = e.path;
          const r = await registerFile(
            { ...ports, prefix: config.prefix },
            { file, sourceKey: cliSourceKey(file), collector: 'jobs-run', meta: e.meta, force: Boolean(o.force), fetchedAt: new Date(), maxBytes: config.extract.maxBytes },
          );
          if (r.action === 'rejected') {
            process.stdout.write(`${r.action.padEnd(10)} ${r.docId} ${r.code}: ${r.message}\n`);
            process.exitCode = 2;
            continue;
          }
          docIds.push(r.docId);
          process.stdout.write(`${r.action.padEnd(10)} ${r.docId}\n`);
        }
        if (o.wait) {
          const tty = process.stderr.isTTY;
          const done = await waitForSettled(ports.status, {
            docIds,
            timeoutMs: Number(o.timeout) * 1000,
            onTick: (s) => {
              if (tty) process.stderr.write(`\x1b[2J\x1b[H${formatStatuses(s, { bars: true })}\n`);
            },
          });
          process.stdout.write(`${formatStatuses(done)}\n`);
          if (done.some((s) => s.state === 'failed')) process.exitCode = 2;
        }
      });
    });
}
