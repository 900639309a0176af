/**
 * Telemetry across queue hops: with an in-memory span exporter, one trace follows a document from
 * the watcher through every ingest stage to the upsert (each span carrying the document id), and
 * one follows a query through the agent's nodes. /metrics exposes the series operators need.
 * A unique secret in the document and the question appears nowhere in logs or spans.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type Service } from '../../apps/cli/service.ts';
import { INGEST_QUEUES } from '../../queues/ingest.queues.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { ATTR } from '../../shared/telemetry/tracing.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const SECRET = `zq${randomBytes(6).toString('hex')}`;
const exporter = new InMemorySpanExporter();

describe.skipIf(!REDIS_AVAILABLE)('telemetry: traces across queue hops, metrics, nothing secret', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  const logs: string[] = [];
  const docId = docIdForSource('dir:secret-policy.pdf');
  const Q = { 'content-type': 'application/json', authorization: 'Bearer query-key' };

  beforeAll(async () => {
    // What the Node SDK does in a real process: a provider, async context, W3C propagation.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { QUARRY_API_KEYS: 'query-key', QUARRY_ADMIN_KEYS: 'admin-key', FACET_REBUILD_DEBOUNCE_MS: '200' });
    const pdf = await textPdf([[
      '1. Purpose',
      `The approval code for travel claims is ${SECRET} and it must be quoted on every claim.`,
      'Claims are reviewed by the finance team within ten working days.',
      '2. Scope',
      'This policy applies to every employee travelling on company business.',
    ]], { title: 'Travel Claims Policy' });
    writeFileSync(path.join(ws.config.watchDir, 'secret-policy.pdf'), pdf);
    const log = createLogger('debug', { service: 'telemetry-test' }, (line) => logs.push(line));
    service = await startService(ws.config, { workers: Object.values(ALL_WORKERS), watch: true, gateway: { port: 0 }, log });
    await settle(service, { count: 1 });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const spans = () => exporter.getFinishedSpans();
  const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

  it('one trace follows the document from the watcher through every stage to the upsert', async () => {
    // The document reads indexed from inside the last stage; its span and BullMQ's end just after:
    // poll for them rather than race them.
    await vi.waitFor(() => assertIngestTrace(), { timeout: 30_000, interval: 100 });
  });

  function assertIngestTrace(): void {
    const root = spans().find((s) => s.name === 'register source' && s.attributes[ATTR.docId] === docId);
    expect(root, 'register source span').toBeDefined();
    const inTrace = spans().filter((s) => traceOf(s) === traceOf(root as ReadableSpan));
    const stages = inTrace.filter((s) => s.name.startsWith('stage '));
    const ingest = INGEST_QUEUES.map((q) => q.name).filter((n) => n !== 'ingest-delete');
    expect(stages.map((s) => s.name.replace('stage ', '')).sort()).toEqual([...ingest].sort());
    for (const s of stages) expect(s.attributes[ATTR.docId], s.name).toBe(docId);
    // BullMQ's own producer and consumer spans carry the context between the stages.
    expect(inTrace.some((s) => s.name === 'process ingest-upsert')).toBe(true);
    expect(inTrace.some((s) => s.name.startsWith('add ingest-extract'))).toBe(true);
    // Log lines written inside a stage lead to the trace.
    const done = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'stage done' && l.docId === docId);
    expect(done.length).toBeGreaterThanOrEqual(ingest.length);
    for (const l of done) expect(l.trace_id).toBe(traceOf(root as ReadableSpan));
  }

  it('one trace follows a query through the agent’s nodes', async () => {
    const res = await fetch(`${service.gatewayUrl}/v1/query`, { method: 'POST', headers: Q, body: JSON.stringify({ query: `What is the approval code ${SECRET} for travel claims?` }) });
    expect(res.status).toBe(200);
    const { runId } = (await res.json()) as { runId: string };
    const nodesOf = () => spans().filter((s) => s.name.startsWith('agent ') && s.attributes[ATTR.runId] === runId);
    await vi.waitFor(() => {
      expect(nodesOf().map((s) => s.name)).toEqual(expect.arrayContaining(['agent listener', 'agent planner', 'agent candidate_search', 'agent rerank_diversify', 'agent validator', 'agent answerer']));
    }, { timeout: 30_000, interval: 50 });
    const nodes = nodesOf();
    expect(new Set(nodes.map(traceOf)).size).toBe(1);
    // The job's span ends when the worker has recorded the job done, which can be just after the
    // gateway has the result and answered: wait for it rather than race it.
    await vi.waitFor(() => {
      const run = spans().find((s) => s.name === 'process agent-run' && traceOf(s) === traceOf(nodes[0] as ReadableSpan));
      expect(run, 'the agent-run job span is in the same trace').toBeDefined();
    }, { timeout: 30_000, interval: 50 });
  });

  it('exposes jobs by queue and state, stage durations, failures by code, query latency and memory updates at /metrics', async () => {
    // A job completes just after its stage returns, and a query's duration is recorded as its
    // answer goes out: read the metrics until they show them, not once.
    let text = '';
    await vi.waitFor(async () => {
      text = await (await fetch(`${service.gatewayUrl}/metrics`)).text();
      expect(text).toMatch(/quarry_jobs\{queue="ingest-upsert",state="completed"\} [1-9]/);
      expect(text).toMatch(/quarry_stage_duration_seconds_count\{queue="ingest-extract"\} [1-9]/);
      expect(text).toMatch(/quarry_query_duration_seconds_count\{outcome="(validated|fallback)"\} [1-9]/);
    }, { timeout: 30_000, interval: 200 });
    expect(text).toMatch(/# TYPE quarry_job_failures_total counter/);
    expect(text).toMatch(/# TYPE quarry_memory_updates_total counter/);
  });

  it('the queue UI needs an admin key', async () => {
    const anonymous = await fetch(`${service.gatewayUrl}/admin/queues`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await fetch(`${service.gatewayUrl}/admin/queues`, { headers: Q })).status).toBe(403);
    const basic = `Basic ${Buffer.from('admin:admin-key').toString('base64')}`;
    const ui = await fetch(`${service.gatewayUrl}/admin/queues`, { headers: { authorization: basic } });
    expect(ui.status).toBe(200);
    expect(await ui.text()).toMatch(/<html/i);
  });

  it('the secret in the document and the question is in no log line and no span', () => {
    expect(logs.length).toBeGreaterThan(10);
    expect(spans().length).toBeGreaterThan(20);
    const everything = [
      ...logs,
      ...spans().map((s) => JSON.stringify({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
  });
});
