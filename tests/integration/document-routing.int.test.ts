/**
 * Issue 13 over an indexed corpus of look-alike filings: three generated 10-Q PDFs (two
 * companies, two periods of one of them) with the same sections and sentences, differing only in
 * the registrant, the period and the figures. Ingested by the real workers, each document gets
 * its profile; the agent as the agent worker builds it routes a question naming one company and
 * period to that filing, cites it, validates, and qualifies the answer with its period; a period
 * no filing of the company covers ends in "not found", not in another quarter's figure.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import { NOT_IN_INDEX } from '../../shared/agent/compose-answer.ts';
import { buildAgentGraph, runAgent } from '../../shared/agent/graph.ts';
import type { Trace } from '../../shared/runs/trace.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createAgentDeps } from '../../workers/agent/agent-deps.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const FILINGS = [
  { file: 'filing-a.pdf', registrant: 'ORCHARD DEVICES INC.', ticker: 'ORCD', ended: 'April 1, 2023', quarter: 'second', sales: '94,836', income: '24,160' },
  { file: 'filing-b.pdf', registrant: 'ORCHARD DEVICES INC.', ticker: 'ORCD', ended: 'July 1, 2023', quarter: 'third', sales: '81,797', income: '19,881' },
  { file: 'filing-c.pdf', registrant: 'RIVERMART.COM, INC.', ticker: 'RVMT', ended: 'September 30, 2023', quarter: 'third', sales: '143,083', income: '9,879' },
] as const;

/** Cover page, then a results page every filing shares word for word but for the figures. */
function filingPages(f: (typeof FILINGS)[number]): string[][] {
  return [
    [
      'UNITED STATES',
      'SECURITIES AND EXCHANGE COMMISSION',
      'FORM 10-Q',
      'QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
      `For the quarterly period ended ${f.ended}`,
      'Commission File Number: 001-00000',
      f.registrant,
      '(Exact name of registrant as specified in its charter)',
      'Title of each class Trading symbol(s) Name of each exchange on which registered',
      `Common Stock ${f.ticker} The Nasdaq Stock Market LLC`,
    ],
    [
      'Results of Operations',
      '',
      `Net sales for the ${f.quarter} quarter of fiscal 2023 were $${f.sales} million.`,
      `Net income for the ${f.quarter} quarter of fiscal 2023 was $${f.income} million.`,
      'The Company continues to invest in research and development and in its retail and online stores.',
    ],
  ];
}

const ORCHARD_Q3 = docIdForSource('dir:filing-b.pdf');

describe.skipIf(!REDIS_AVAILABLE)('routing over look-alike filings', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  const traces: Trace[] = [];
  let graph: ReturnType<typeof buildAgentGraph>;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    for (const f of FILINGS) await writeFile(path.join(ws.config.watchDir, f.file), await textPdf(filingPages(f)));
    service = await startPipeline(ws.config);
    const statuses = await settle(service, { count: FILINGS.length, timeoutMs: 60_000 });
    expect(statuses.map((s) => s.state)).toEqual(['indexed', 'indexed', 'indexed']);
    const ports: Ports = service.ports;
    graph = buildAgentGraph({ ...createAgentDeps(ports, createLogger('error', { service: 'test' })), record: async (t) => void traces.push(t) });
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('each filing is stored with its organisation, form and period', async () => {
    const doc = await service.ports.store.getDocument(ORCHARD_Q3);
    expect(doc?.profile).toMatchObject({
      organisations: [{ name: 'Orchard Devices Inc.', aliases: expect.arrayContaining(['orchard', 'orcd']) }],
      form: '10-Q',
      period: { end: '2023-07-01', fiscalYear: 2023, fiscalQuarter: 3 },
    });
    expect(doc?.doc_type).toBe('10-Q');
    // The status record shows it (quarry status, GET /v1/documents/:id).
    expect((await service.ports.status.get(ORCHARD_Q3))?.profile?.label).toBe('Orchard Devices Inc. (ORCD) · 10-Q · fiscal 2023 Q3 · calendar 2023 Q2 · period ended 2023-07-01');
  });

  it('a question naming one company and period cites that filing, validates, and is qualified by its period', async () => {
    const a = await runAgent(graph, { runId: 'run-route-0001', query: "What were Orchard's net sales in the third quarter of fiscal 2023?" });
    expect(a.citations.length).toBeGreaterThan(0);
    expect(new Set(a.citations.map((c) => c.docId))).toEqual(new Set([ORCHARD_Q3]));
    expect(a.text).toContain('81,797');
    expect(a.validated).toBe(true);
    expect(a.dateQualifier).toMatch(/^for the period ended 2023-07-01 \(Orchard Devices Inc\. \(ORCD\) · 10-Q · fiscal 2023 Q3\)$/);
    const planner = traces.at(-1)?.steps.find((s) => s.node === 'planner')?.data as { routing?: { documents: number } };
    expect(planner.routing?.documents).toBe(1);
  });

  it('a question dated "this year" is still qualified by the period of the filing it cites, not by today', async () => {
    const a = await runAgent(graph, { runId: 'run-route-0003', query: "What were Rivermart's net sales this year?" });
    expect(a.text).toContain('143,083');
    expect(a.dateQualifier).toMatch(/^for the period ended 2023-09-30 \(Rivermart/u);
  });

  it('a period no filing of the company covers is answered "not found", never with another quarter', async () => {
    const a = await runAgent(graph, { runId: 'run-route-0002', query: "What were Rivermart's net sales in Q1 2021?" });
    expect(a.validated).toBe(false);
    expect(a.citations).toEqual([]);
    expect(a.text).toBe(NOT_IN_INDEX.en);
  });
});
