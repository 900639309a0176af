import path from 'node:path';
import type { Command } from 'commander';
import { STAGE_NAMES, type StageName } from '../../../core/queues.ts';
import { runStageOnce } from '../../../workers/runtime/index.ts';
import { INGEST_WORKERS } from '../../../workers/index.ts';
import { parseMeta } from '../../../shared/sources/index.ts';
import { registerFile } from '../../../core/sources/index.ts';
import { cliLogger, withPorts } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

/** Source key of a file registered by hand: its path relative to the working directory. */
export function cliSourceKey(file: string): string {
  return `file:${path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/')}`;
}

const REPLAYABLE = STAGE_NAMES.filter((s) => s !== 'delete');

export function ingestCommands(program: Command): void {
  const ingest = program.command('ingest').description(describeCommand('ingest'));

  ingest
    .command('register-source')
    .description('register a PDF and enqueue its ingestion (idempotent: unchanged bytes and metadata are skipped; over MAX_PDF_BYTES or not a PDF: recorded failed unread, exit 2)')
    .requiredOption('--path <pdf>', 'the PDF file')
    .option('--doc-type <type>', 'law, policy, faq, standard, …')
    .option('--jurisdiction <code>', 'KR, EU, US, …')
    .option('--lang <code>', 'ko, en, … (detected when absent)')
    .option('--valid-from <date>', 'YYYY-MM-DD')
    .option('--valid-to <date>', 'YYYY-MM-DD')
    .option('--title <title>')
    .option('--password <password>', 'for encrypted PDFs')
    .option('--force', 're-process even when unchanged')
    .action(async (o: Record<string, string | boolean | undefined>) => {
      await withPorts(async (ports, config) => {
        const meta = parseMeta(
          {
            doc_type: o.docType,
            jurisdiction: o.jurisdiction,
            lang: o.lang,
            valid_from: o.validFrom,
            valid_to: o.validTo,
            title: o.title,
            password: o.password,
          },
          'command line',
        );
        const file = String(o.path);
        const result = await registerFile(
          { ...ports, prefix: config.prefix },
          { file, sourceKey: cliSourceKey(file), collector: 'cli', meta, force: Boolean(o.force), fetchedAt: new Date(), maxBytes: config.extract.maxBytes },
        );
        if (result.action === 'rejected') {
          process.stdout.write(`rejected ${result.docId} ${result.code}: ${result.message}\n`);
          process.exitCode = 2;
          return;
        }
        process.stdout.write(`${result.action} ${result.docId} version ${result.version.slice(0, 12)}${result.enqueued ? ' (extract enqueued)' : ''}\n`);
      });
    });

  for (const stage of REPLAYABLE) {
    ingest
      .command(stage)
      .description(`replay the ${stage} stage from stored artifacts, in this process`)
      .requiredOption('--doc-id <id>')
      .option('--version <sha256>', 'defaults to the registered version')
      .action(async (o: { docId: string; version?: string }) => {
        await withPorts(async (ports, config) => {
          const status = await ports.status.get(o.docId);
          const version = o.version ?? status?.version;
          if (!version || !status) throw new Error(`document ${o.docId} is not registered`);
          const result = await runStageOnce(INGEST_WORKERS[stage as StageName], { docId: o.docId, version, gen: status.gen }, ports, cliLogger(config));
          process.stdout.write(`${stage} ${o.docId}: ${JSON.stringify(result)}\n`);
        });
      });
  }
}
