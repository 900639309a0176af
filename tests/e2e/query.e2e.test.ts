import { copyFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import type { AgentAnswer } from '../../shared/runs/answer.ts';
import type { Trace } from '../../shared/runs/trace.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { facetRebuildSettled, until } from '../helpers/acceptance.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const GRAPH_NODES = ['listener', 'planner', 'facet_planner', 'candidate_search', 'narrowed_search', 'rerank_diversify', 'validator', 'answerer', 'memory_updater', 'observer'];

describe.skipIf(!REDIS_AVAILABLE)('end to end: watched folder → gateway over HTTP → answer, feedback, memory, trace', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let base: string;
  const Q = { 'content-type': 'application/json', authorization: 'Bearer query-key' };
  const A = { 'content-type': 'application/json', 'x-api-key': 'admin-key' };

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'query-key', QUARRY_ADMIN_KEYS: 'admin-key', FACET_REBUILD_DEBOUNCE_MS: '200' });
    const docs = path.join(root, 'examples/docs');
    for (const f of await readdir(docs)) await copyFile(path.join(docs, f), path.join(ws.config.watchDir, f));
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 } });
    base = service.gatewayUrl!;
    await settle(service, { count: 10, timeoutMs: 120_000 });
    // The facet rebuild done, not only begun: one still running would change the first question's
    // facet weights (and the branch it narrows to) under it.
    await until('the facet rebuild', () => facetRebuildSettled(service.ports), 60_000);
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('answers with citations to the right document, section and page; feedback updates chunk memory; the trace shows every node', async () => {
    const docId = docIdForSource('dir:parental-leave-policy-2025.pdf');
    expect(await (await fetch(`${base}/v1/documents/${docId}`, { headers: Q })).json()).toMatchObject({ docId, state: 'indexed' });

    const res = await fetch(`${base}/v1/query`, { method: 'POST', headers: Q, body: JSON.stringify({ query: 'How many weeks of paid parental leave do employees get?' }) });
    expect(res.status).toBe(200);
    const { runId, answer } = (await res.json()) as { runId: string; answer: AgentAnswer };
    expect(answer.validated).toBe(true);
    expect(answer.text).toMatch(/sixteen \(16\) weeks/);
    const first = answer.citations[0]!;
    expect(first).toMatchObject({ docId, title: 'Parental Leave Policy' });
    expect(first.sectionPath).toMatch(/Leave Entitlement/);
    // The citation points at the real passage: same pages as the stored chunk, which says it.
    const [chunk] = await service.ports.store.fetchByIds([first.chunkId]);
    expect(chunk).toMatchObject({ doc_id: docId, page_start: first.pages.start, page_end: first.pages.end });
    // Its section is the passage's, or a section of it printed above the quote (a merged passage's 5.1).
    expect(first.sectionPath === chunk!.section_path || first.sectionPath.startsWith(`${chunk!.section_path} > `)).toBe(true);
    expect(chunk!.body).toMatch(/sixteen \(16\) weeks/);

    // A validated run remembers what it cited (memory-update worker) …
    const afterRun = await until('the validated run in memory', async () => {
      const v = (await service.ports.memory.getMany([first.chunkId])).get(first.chunkId);
      return v && v.stats.useful_count >= 1 ? v : null;
    });
    expect(afterRun.stats.useful_count).toBe(1);
    // … and explicit feedback counts once more.
    const fb = await fetch(`${base}/v1/runs/${runId}/feedback`, { method: 'POST', headers: Q, body: JSON.stringify({ useful: [first.chunkId], verdict: 'useful' }) });
    expect(fb.status).toBe(202);
    const afterFeedback = await until('feedback in memory', async () => {
      const v = (await service.ports.memory.getMany([first.chunkId])).get(first.chunkId);
      return v && v.stats.useful_count >= 2 ? v : null;
    });
    expect(afterFeedback.stats.useful_count).toBe(2);
    expect(afterFeedback.features.decayedUtility).toBeGreaterThan(afterRun.features.decayedUtility);

    const trace = (await (await fetch(`${base}/debug/trace/${runId}`, { headers: A })).json()) as Trace;
    expect(trace.steps.map((s) => s.node)).toEqual(GRAPH_NODES);
    expect(trace.verdict).toBe('OK');
    const rerank = trace.steps.find((s) => s.node === 'rerank_diversify')!.data as { top: { chunkId: string }[] };
    expect(rerank.top.map((t) => t.chunkId)).toContain(first.chunkId);
    // Traces never hold document text or the question.
    expect(JSON.stringify(trace)).not.toMatch(/sixteen|parental leave do employees/i);
    expect((await fetch(`${base}/debug/trace/${runId}`, { headers: Q })).status).toBe(403);
  }, 60_000);

  it('as of a past date, the superseded policy answers', async () => {
    const res = await fetch(`${base}/v1/query`, { method: 'POST', headers: Q, body: JSON.stringify({ query: 'How many weeks of paid parental leave do employees get?', asOf: '2024-06-01' }) });
    const { answer } = (await res.json()) as { answer: AgentAnswer };
    expect(answer.dateQualifier).toBe('as of 2024-06-01');
    expect(answer.text).toMatch(/twelve \(12\) weeks/);
    expect(answer.citations[0]!.docId).toBe(docIdForSource('dir:parental-leave-policy-2023.pdf'));
    for (const c of answer.citations) {
      expect(c.validFrom === null || c.validFrom <= '2024-06-01').toBe(true);
      expect(c.validTo === null || c.validTo > '2024-06-01').toBe(true);
    }
  }, 30_000);
});
