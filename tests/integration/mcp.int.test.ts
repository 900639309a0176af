import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDevState } from '../../apps/cli/dev-state.ts';
import { startService, type Service } from '../../apps/cli/service.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'apps/cli/quarry.mjs');
const DOCS = ['parental-leave-policy-2025', 'data-retention-policy'];
const LEAVE = docIdForSource('dir:parental-leave-policy-2025.pdf');
const TOOLS = ['ask', 'get_chunk', 'get_document', 'list_documents', 'search'];

/**
 * What the README's client config's `"command": "node"` finds on a machine whose own Node is older
 * than Quarry's (Debian's is 20), or the test's own Node where the machine has no older one.
 */
const OLD_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find(
  (p) => existsSync(p) && p !== process.execPath && Number(execFileSync(p, ['-p', 'process.versions.node']).toString().split('.')[0]) < 22,
);

/** A tool call's structured result; fails the test on a tool error, with its text. */
async function call<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (res.isError) throw new Error(`${name} failed: ${JSON.stringify(res.content)}`);
  // Clients that read only text get the same value as JSON.
  const text = res.content.find((c) => c.type === 'text');
  expect(JSON.parse(text && text.type === 'text' ? text.text : 'null')).toEqual(res.structuredContent);
  return res.structuredContent as T;
}

async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const res = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(res.isError).toBe(true);
  const first = res.content.find((c) => c.type === 'text');
  const text = first && first.type === 'text' ? first.text : '';
  // Quarry's own failures also carry the code as data; the SDK's input validation does not.
  const meta = res._meta?.['quarry/error'] as { code: string } | undefined;
  if (!text.startsWith('MCP error')) expect(text.startsWith(`${meta?.code}: `)).toBe(true);
  return text;
}

interface Hit {
  chunkId: string;
  docId: string;
  title: string | null;
  sectionPath: string;
  pages: { start: number; end: number };
  scores: { fused: number; keyword: number; vector: number };
  text: string;
}
interface ChunkView {
  chunkId: string;
  docId: string;
  chunkIndex: number;
  text: string;
}

/** Every tool, called as an agent would: search, read around a hit, ask, look the document up, page the list. */
async function exerciseTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  expect(tools.find((t) => t.name === 'search')?.inputSchema.properties).toHaveProperty('filters');

  const search = await call<{ hits: Hit[] }>(client, 'search', { query: 'weeks of paid parental leave', limit: 5, filters: { docType: ['policy'], lang: ['en'], asOf: '2025-06-01' } });
  expect(search.hits.length).toBeGreaterThan(0);
  const top = search.hits[0]!;
  expect(top).toMatchObject({ docId: LEAVE, title: 'Parental Leave Policy' });
  expect(top.sectionPath).not.toBe('');
  expect(top.pages.start).toBeGreaterThanOrEqual(1);
  expect(top.scores.fused).toBeGreaterThan(0);
  expect(top.scores.keyword + top.scores.vector).toBeGreaterThan(0);
  // The date filter applies: the 2025 policy is not valid in 2020, nothing of it comes back.
  const old = await call<{ hits: Hit[] }>(client, 'search', { query: 'weeks of paid parental leave', filters: { asOf: '2020-01-01' } });
  expect(old.hits.every((h) => h.docId !== LEAVE)).toBe(true);

  const around = await call<{ chunk: ChunkView; before: ChunkView[]; after: ChunkView[] }>(client, 'get_chunk', { chunkId: top.chunkId, neighbours: 1 });
  expect(around.chunk).toMatchObject({ chunkId: top.chunkId, docId: LEAVE, text: top.text });
  const idx = around.chunk.chunkIndex;
  expect(around.before.map((c) => c.chunkIndex)).toEqual(idx > 0 ? [idx - 1] : []);
  expect(around.after.every((c) => c.chunkIndex === idx + 1)).toBe(true);
  expect(around.before.length + around.after.length).toBeGreaterThan(0);
  expect([...around.before, ...around.after].every((c) => c.docId === LEAVE)).toBe(true);

  const answer = await call<{ text: string; citations: { docId: string; sectionPath: string; pages: { start: number } }[]; dateQualifier: string | null }>(client, 'ask', {
    query: 'How many weeks of paid parental leave do employees get?',
    asOf: '2025-06-01',
  });
  expect(answer.text).toMatch(/sixteen \(16\) weeks/);
  expect(answer.citations[0]).toMatchObject({ docId: LEAVE });
  expect(answer.dateQualifier).toMatch(/2025/);

  const doc = await call<{ title: string; status: { state: string; chunkCount: number }; document: { doc_type: string } }>(client, 'get_document', { docId: LEAVE });
  expect(doc).toMatchObject({ title: 'Parental Leave Policy', status: { state: 'indexed' }, document: { doc_type: 'policy' } });
  expect(doc.status.chunkCount).toBeGreaterThan(1);

  const page1 = await call<{ total: number; nextOffset: number | null; documents: { docId: string; title: string; state: string; pages: number; chunks: number }[] }>(client, 'list_documents', { limit: 1 });
  expect(page1).toMatchObject({ total: 2, nextOffset: 1 });
  const page2 = await call<typeof page1>(client, 'list_documents', { offset: 1, limit: 1 });
  expect(page2.nextOffset).toBeNull();
  const listed = [...page1.documents, ...page2.documents];
  expect(listed.map((d) => d.docId).sort()).toEqual(DOCS.map((d) => docIdForSource(`dir:${d}.pdf`)).sort());
  for (const d of listed) {
    expect(d.state).toBe('indexed');
    expect(d.title).toBeTruthy();
    expect(d.pages).toBeGreaterThan(0);
    expect(d.chunks).toBeGreaterThan(0);
  }

  // Errors are tool errors carrying the Quarry code; inputs go through the HTTP API's schemas.
  expect(await toolError(client, 'get_document', { docId: docIdForSource('dir:nothing.pdf') })).toMatch(/^NOT_FOUND: /);
  expect(await toolError(client, 'get_chunk', { chunkId: '00000000-0000-5000-8000-000000000000' })).toMatch(/^NOT_FOUND: /);
  expect(await toolError(client, 'ask', { query: '  ', asOf: '2025-13-40' })).toMatch(/query[\s\S]*asOf|asOf[\s\S]*query/);
  expect(await toolError(client, 'search', { query: 'leave', alpha: 2 })).toMatch(/alpha/);
}

describe.skipIf(!REDIS_AVAILABLE)('MCP server: the SDK client over streamable HTTP and over stdio', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let base: string;
  const weaviatePrefix = `T${Math.random().toString(36).slice(2, 10)}`;
  // The stdio server must open the same store as the in-process pipeline (its own collections under Weaviate).
  const storeOverride: Record<string, string> = process.env.VECTOR_STORE === 'weaviate' ? { WEAVIATE_COLLECTION_PREFIX: weaviatePrefix } : {};

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'query-key', QUARRY_ADMIN_KEYS: 'admin-key', ...storeOverride });
    for (const d of DOCS) {
      for (const ext of ['.pdf', '.meta.json']) await copyFile(path.join(root, 'examples/docs', `${d}${ext}`), path.join(ws.config.watchDir, `${d}${ext}`));
    }
    // The agent worker runs in this process, so `ask` answers from the stdio server too.
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    await settle(service, { count: DOCS.length, timeoutMs: 90_000 });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('over HTTP at /mcp with a query key: lists the tools and calls each', async () => {
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: 'Bearer query-key' } } }));
    try {
      await exerciseTools(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over HTTP without a key or with a wrong one: 401, and the client cannot connect; GET is 405', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bare = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    const wrong = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, 'x-api-key': 'nope' }, body: JSON.stringify(init) });
    expect(wrong.status).toBe(401);
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)))).rejects.toThrow(/UNAUTHORIZED/);
    // Stateless: no server-initiated stream to open, no session to end.
    const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', authorization: 'Bearer query-key' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('over stdio (`quarry mcp`): lists the tools and calls each; stdout carries only the protocol', async () => {
    const { config } = ws;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      REDIS_URL: config.redisUrl,
      QUARRY_PREFIX: config.prefix,
      QUARRY_DATA_DIR: config.dataDir,
      QUARRY_WATCH_DIR: config.watchDir,
      // Logs at info level on purpose: they must all land on stderr, or the client would choke.
      LOG_LEVEL: 'info',
      ...storeOverride,
    };
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--ask-timeout', '30000'], env, cwd: root, stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr?.on('data', (b: Buffer) => stderr.push(b.toString()));
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    // A line on stdout that is not JSON-RPC (a stray log) arrives here as a parse error.
    const transportErrors: Error[] = [];
    client.onerror = (err) => transportErrors.push(err);
    await client.connect(transport);
    try {
      await exerciseTools(client);
    } finally {
      await client.close();
    }
    expect(transportErrors).toEqual([]);
    expect(stderr.join('')).toMatch(/mcp server on stdio/);
  }, 90_000);

  it("the README's client config as written: `node` (however old) and the data directory of a running dev, no REDIS_URL", async (ctx) => {
    if (!OLD_NODE) console.warn("no Node older than 22 on this machine: the README's MCP config is run with the test's own Node");
    const { config } = ws;
    // What `quarry dev` writes while it runs; this process plays the running dev.
    const forget = writeDevState(config.dataDir, { pid: process.pid, redisUrl: config.redisUrl, redisStarted: false, gatewayUrl: base, startedAt: new Date().toISOString() });
    ctx.onTestFinished(forget);
    const { REDIS_URL: _unset, ...inherited } = process.env as Record<string, string>;
    const env = { ...inherited, QUARRY_DATA_DIR: config.dataDir, QUARRY_PREFIX: config.prefix, LOG_LEVEL: 'warn', ...storeOverride };
    const transport = new StdioClientTransport({ command: OLD_NODE ?? process.execPath, args: [bin, 'mcp'], env, cwd: root, stderr: 'pipe' });
    const client = new Client({ name: 'quarry-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
      const listed = await call<{ documents: { docId: string }[] }>(client, 'list_documents', {});
      expect(listed.documents.map((d) => d.docId).sort()).toEqual(DOCS.map((d) => docIdForSource(`dir:${d}.pdf`)).sort());
    } finally {
      await client.close();
    }
  }, 90_000);
});
