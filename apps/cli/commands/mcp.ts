import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { QueueEvents } from 'bullmq';
import type { Command } from 'commander';
import { scaledAlphas } from '../../../shared/retrieval/index.ts';
import { agentWorker } from '../../../workers/agent/index.ts';
import { loadWorkerStart, type WorkerGroup } from '../../../workers/runtime/index.ts';
import { createUseCaseDeps } from '../../../core/deps.ts';
import { agentRunQueue, createRedis } from '../../../core/queues.ts';
// `quarry mcp` serves the MCP face over stdio: a composition root, allowed to start the MCP app
// (tests/helpers/import-graph.ts, COMPOSITION_ROOTS).
import { createMcpServer } from '../../mcp/index.ts';
import { appConfig, cliLogger, openPorts, reportFailure } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

/**
 * Serves MCP on stdin/stdout until stdin ends or a signal arrives. stdout carries JSON-RPC only:
 * every log line goes to stderr (the logger's default), or the client would read garbage.
 */
async function serveStdio(o: { agent?: boolean; askTimeout?: string }): Promise<void> {
  const config = appConfig();
  const log = cliLogger(config);
  const ports = await openPorts(config);
  const eventsConnection = createRedis(config.redisUrl);
  const events = new QueueEvents(agentRunQueue.name, { connection: eventsConnection, prefix: config.prefix });
  events.on('error', () => undefined);
  let workers: WorkerGroup | null = null;
  try {
    await events.waitUntilReady();
    // Without a running `quarry dev` or agent workers elsewhere, `ask` would only time out.
    if (o.agent) workers = (await loadWorkerStart()).startWorkers([agentWorker], ports, log);
    const askTimeoutMs = o.askTimeout === undefined ? config.gateway.queryTimeoutMs : Number(o.askTimeout);
    if (!(askTimeoutMs > 0)) throw new Error(`--ask-timeout must be a positive number of milliseconds, got ${o.askTimeout}`);
    const server = createMcpServer(
      createUseCaseDeps({
        store: ports.store,
        embedder: ports.embedder,
        status: ports.status,
        agentQueue: ports.queues.queue(agentRunQueue),
        events,
        defaultAlpha: scaledAlphas(config.retrieval.alphaScale).defaultAlpha,
        askTimeoutMs,
      }),
    );
    const ended = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.connect(new StdioServerTransport());
    log.info('mcp server on stdio', { agent: Boolean(o.agent) });
    await ended;
    await server.close();
  } finally {
    await workers?.close();
    await events.close().catch(() => undefined);
    eventsConnection.disconnect();
    await ports.close();
  }
}

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description(describeCommand('mcp'))
    .option('--agent', 'also run an agent worker in this process (otherwise `ask` needs `quarry dev` or agent workers running)')
    .option('--ask-timeout <ms>', 'how long `ask` waits for an answer (default: QUERY_TIMEOUT_MS)')
    .action(async (o: { agent?: boolean; askTimeout?: string }) => {
      try {
        await serveStdio(o);
      } catch (err) {
        reportFailure(err);
      }
    });
}
