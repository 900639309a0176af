import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { RunView } from '../../core/schemas.ts';
import { createMcpServer, type McpDeps } from '../../apps/mcp/server.ts';
import { PermanentError } from '../../shared/errors.ts';
import type { StatusStore } from '../../shared/status/status-store.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';

/** Deps whose `ask` answers with `run`, and whose stores must not be reached. */
function depsAnswering(run: () => Promise<RunView>): McpDeps {
  const unreachable = new Proxy({}, { get: (_t, p) => () => Promise.reject(new Error(`unexpected call: ${String(p)}`)) });
  return {
    store: unreachable as VectorStore,
    status: unreachable as StatusStore,
    embedder: {
      model: 'none',
      dimension: 2,
      embed: async () => {
        throw new PermanentError('EMBEDDER_UNAVAILABLE', 'no embedder here');
      },
    },
    documents: async () => [],
    defaultAlpha: 0.5,
    ask: run,
  };
}

async function connected(deps: McpDeps): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(deps).connect(a);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(b);
  return client;
}

async function ask(client: Client): Promise<CallToolResult> {
  return (await client.callTool({ name: 'ask', arguments: { query: 'how long is leave?' } })) as CallToolResult;
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('MCP tool errors carry the Quarry code', () => {
  it('a run still going when the wait ends is TIMEOUT, naming the run to read later', async () => {
    const client = await connected(depsAnswering(async () => ({ runId: 'run-0001', state: 'running' })));
    const res = await ask(client);
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toBeUndefined();
    expect(textOf(res)).toMatch(/^TIMEOUT: run run-0001 is still running/);
    expect(res._meta?.['quarry/error']).toEqual({ code: 'TIMEOUT', message: expect.stringContaining('/v1/runs/run-0001') });
  });

  it('a failed run gives its own code; an internal failure says only that it failed', async () => {
    let client = await connected(depsAnswering(async () => ({ runId: 'run-0002', state: 'failed', error: { code: 'LLM_UNAVAILABLE', message: 'the model did not answer' } })));
    expect(textOf(await ask(client))).toBe('LLM_UNAVAILABLE: the model did not answer');
    client = await connected(depsAnswering(async () => Promise.reject(new Error('secret host 10.0.0.7 refused'))));
    const res = await ask(client);
    expect(textOf(res)).toBe('INTERNAL: internal error');
  });

  it('a Quarry error thrown by a port keeps its code (search without an embedder)', async () => {
    const client = await connected(depsAnswering(async () => ({ runId: 'run-0003', state: 'queued' })));
    const res = (await client.callTool({ name: 'search', arguments: { query: 'leave' } })) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe('EMBEDDER_UNAVAILABLE: no embedder here');
  });
});
