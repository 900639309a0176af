import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { AgentAnswer, createTraceStore } from '../../../shared/runs/index.ts';
import { IsoDate } from '../../../shared/domain/index.ts';
import { agentWorker } from '../../../workers/agent/index.ts';
import { runStageOnce } from '../../../workers/runtime/index.ts';
import { cliLogger, withPorts } from '../app.ts';
import { commandSpec, describeCommand } from '../command-summaries.ts';

/** An answer for a person: the text, then each citation with its section path, pages and validity. */
export function formatAnswer(a: AgentAnswer): string {
  const lines = [a.text, ''];
  for (const c of a.citations) {
    const pages = c.pages.start === c.pages.end ? `p.${c.pages.start}` : `pp.${c.pages.start}-${c.pages.end}`;
    const validity = c.validFrom || c.validTo ? ` (valid ${c.validFrom ?? '…'} to ${c.validTo ?? 'now'})` : '';
    lines.push(`[${c.n}] ${c.title}${c.sectionPath ? ` — ${c.sectionPath}` : ''}, ${pages}${validity}`);
  }
  lines.push('', `${a.validated ? 'validated' : 'not validated'} · ${a.verdict}: ${a.reason} · loops ${a.loops} · ${a.latencyMs} ms`);
  return lines.join('\n');
}

export function queryCommand(program: Command): void {
  program
    .command(commandSpec('query'))
    .description(describeCommand('query'))
    .option('--as-of <date>', 'answer as of this date (YYYY-MM-DD)')
    .option('--alpha <a>', 'force the hybrid weight (0 keyword … 1 vector)')
    .option('--json', 'the answer as JSON')
    .option('--trace', 'print the run’s trace too')
    .action(async (question: string, o: { asOf?: string; alpha?: string; json?: boolean; trace?: boolean }) => {
      await withPorts(async (ports, config) => {
        if (o.asOf && !IsoDate.safeParse(o.asOf).success) throw new Error(`--as-of must be a date such as 2025-02-23, got ${o.asOf}`);
        const runId = randomUUID().replace(/-/g, '');
        const answer = AgentAnswer.parse(
          await runStageOnce(agentWorker, { runId, query: question, asOf: o.asOf, alpha: o.alpha === undefined ? undefined : Number(o.alpha) }, ports, cliLogger(config)),
        );
        const trace = o.trace ? await createTraceStore(ports.redis, config.prefix, config.gateway.traceTtlSeconds).get(runId) : null;
        if (o.json) process.stdout.write(`${JSON.stringify(o.trace ? { answer, trace } : answer, null, 2)}\n`);
        else process.stdout.write(`${formatAnswer(answer)}\n${trace ? `\n${JSON.stringify(trace, null, 2)}\n` : ''}`);
      });
    });
}
