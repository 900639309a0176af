/**
 * Issue 29 over an indexed corpus of generated PDFs (names invented): a company whose fiscal year
 * ends in September files a 10-K and publishes an earnings release (no SEC cover: its issuer and
 * ticker are in the dateline, its quarter in the headline); another company's 10-Q has a
 * letter-spaced registrant line. Ingested by the real workers, each gets its profile; the agent
 * as the agent worker builds it routes a question about the release's quarter to the release and
 * cites it, answers a question naming a company by its ticker in lower case, and qualifies each
 * answer by the cited document's own period.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import { buildAgentGraph, runAgent } from '../../shared/agent/graph.ts';
import type { Trace } from '../../shared/runs/trace.ts';
import { docIdForSource } from '../../shared/domain/ids.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createAgentDeps } from '../../workers/agent/agent-deps.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const ANNUAL = [
  [
    'UNITED STATES',
    'SECURITIES AND EXCHANGE COMMISSION',
    'FORM 10-K',
    'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    'For the fiscal year ended September 30, 2023',
    'Commission File Number: 001-00000',
    'HALCYON SYSTEMS, INC.',
    '(Exact name of registrant as specified in its charter)',
    'Title of each class Trading symbol(s) Name of each exchange on which registered',
    'Common Stock HLCY The Nasdaq Stock Market LLC',
  ],
  ['Results of Operations', '', 'Total revenue for fiscal 2023 was $4,210 million,', 'up from $3,980 million in fiscal 2022.', 'Operating income for fiscal 2023 was $812 million.'],
];

const RELEASE = [
  [
    'Halcyon Systems Reports First Quarter Fiscal 2024 Results',
    // Lines short enough to stay on the page (a text layer keeps what the page shows).
    'AUSTIN, Texas, Feb. 1, 2024 (BUSINESS WIRE) -- Halcyon Systems (NASDAQ: HLCY)',
    'today reported results for the first quarter ended December 30, 2023.',
    'Quarterly revenue was $1,137 million, up 9% from the first quarter of fiscal 2023.',
    'Quarterly operating income was $233 million.',
  ],
];

const SPACED = [
  [
    'FORM 10-Q',
    'QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    'For the quarterly period ended June 30, 2023',
    'Commission File Number: 001-11111',
    'M ARLOW R ESORTS I NTERNATIONAL',
    '(Exact name of registrant as specified in its charter)',
    'Title of each class Trading symbol(s) Name of each exchange on which registered',
    'Common Stock MRLW New York Stock Exchange',
  ],
  [
    'Results of Operations',
    '',
    'Marlow Resorts International operates resorts.',
    'Net revenues for the six months ended June 30, 2023 were $7,912 million.',
    'Casino revenue for the three months ended June 30, 2023 was $2,101 million.',
  ],
];

const RELEASE_ID = docIdForSource('dir:halcyon-release.pdf');
const ANNUAL_ID = docIdForSource('dir:halcyon-10k.pdf');
const SPACED_ID = docIdForSource('dir:marlow-10q.pdf');

describe.skipIf(!REDIS_AVAILABLE)('routing that generalises (issue 29)', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  const traces: Trace[] = [];
  let graph: ReturnType<typeof buildAgentGraph>;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    await writeFile(path.join(ws.config.watchDir, 'halcyon-10k.pdf'), await textPdf(ANNUAL));
    await writeFile(path.join(ws.config.watchDir, 'halcyon-release.pdf'), await textPdf(RELEASE));
    await writeFile(path.join(ws.config.watchDir, 'marlow-10q.pdf'), await textPdf(SPACED));
    service = await startPipeline(ws.config);
    const statuses = await settle(service, { count: 3, timeoutMs: 90_000 });
    expect(statuses.map((s) => s.state)).toEqual(['indexed', 'indexed', 'indexed']);
    graph = buildAgentGraph({ ...createAgentDeps(service.ports, createLogger('error', { service: 'test' })), record: async (t) => void traces.push(t) });
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('profiles: the release has its issuer, ticker and quarter; the 10-K its fiscal year; the letter-spaced registrant its name', async () => {
    const release = await service.ports.store.getDocument(RELEASE_ID);
    expect(release?.profile).toMatchObject({ organisations: [{ name: 'Halcyon Systems', aliases: expect.arrayContaining(['halcyon systems', 'halcyon', 'hlcy']) }], period: { end: '2023-12-30', fiscalYear: 2024, fiscalQuarter: 1 } });
    expect((await service.ports.store.getDocument(ANNUAL_ID))?.profile?.period).toMatchObject({ end: '2023-09-30', fiscalYear: 2023 });
    expect((await service.ports.store.getDocument(SPACED_ID))?.profile?.organisations[0]?.name).toBe('Marlow Resorts International');
  });

  it("a question about the release's quarter cites the release beside the company's 10-K, qualified by the release's period", async () => {
    const a = await runAgent(graph, { runId: 'run-gen-0001', query: 'What was Halcyon’s revenue in Q1 fiscal 2024?' });
    expect(a.citations.map((c) => c.docId)).toContain(RELEASE_ID);
    expect(a.text).toContain('1,137');
    expect(a.dateQualifier).toMatch(/^for the period ended 2023-12-30 \(Halcyon Systems/);
    const planner = traces.at(-1)?.steps.find((s) => s.node === 'planner')?.data as { routing?: { documents: number }; layers?: { documents: unknown[] } };
    expect(planner.routing?.documents).toBeGreaterThan(0);
    expect(planner.layers?.documents.length).toBeGreaterThan(0);
  });

  it('a ticker in lower case and a letter-spaced name route to their filings', async () => {
    const a = await runAgent(graph, { runId: 'run-gen-0002', query: 'what was hlcy operating income in fiscal 2023?' });
    expect(a.citations.map((c) => c.docId)).toContain(ANNUAL_ID);
    expect(a.dateQualifier).toMatch(/^for the period ended 2023-09-30/);
    const b = await runAgent(graph, { runId: 'run-gen-0003', query: 'What was Marlow Resorts casino revenue in the quarter?' });
    expect(b.citations.map((c) => c.docId)).toContain(SPACED_ID);
  });
});
