/**
 * The runtime's named parts without Redis: what a stage declares (its ports, whether its queue
 * tracks a document), what its handler is handed, the superseded outcome, and the document
 * life-cycle's writes (the runtime's only status writes).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentRunQueue } from '../../queues/agent.queues.ts';
import { defineIngestQueue, defineQueue, isSuperseded, SUPERSEDED } from '../../queues/define-queue.ts';
import { facetRebuildQueue } from '../../queues/facets.queues.ts';
import { chunkQueue, deleteQueue, INGEST_QUEUES, upsertQueue } from '../../queues/ingest.queues.ts';
import { MEMORY_QUEUES } from '../../queues/memory.queues.ts';
import type { StageUpdate, StatusStore } from '../../shared/status/status-store.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { ALL_WORKERS } from '../../workers/index.ts';
import { createDocumentLifecycle } from '../../workers/runtime/document-lifecycle.ts';
import type { Ports } from '../../workers/runtime/ports.ts';
import { runStageOnce } from '../../workers/runtime/run-once.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';

const root = path.resolve(import.meta.dirname, '../..');
const V = 'e'.repeat(64);
const silent = createLogger('silent');

/** Ports whose every member is a marker naming it: enough to see which ones a handler gets. */
const markerPorts = new Proxy({}, { get: (_, name) => ({ port: String(name) }) }) as unknown as Ports;

describe('a stage declares the ports it needs', () => {
  const probeQueue = defineQueue({ name: 'probe', payload: z.object({}), result: z.object({ keys: z.array(z.string()) }), jobId: () => 'probe' });

  it('its handler is handed those ports and its job context, nothing else', async () => {
    const probe = defineStageWorker(probeQueue, { needs: ['memory', 'artifacts'] }, async (_p, ctx) => ({ keys: Object.keys(ctx).sort() }));
    expect(await runStageOnce(probe, {}, markerPorts, silent)).toEqual({
      keys: ['artifacts', 'attemptsMade', 'log', 'memory', 'progress', 'recordStatus', 'signal'],
    });
  });

  it('its context is typed to them: an undeclared port does not compile', () => {
    defineStageWorker(probeQueue, { needs: ['memory'] }, async (_p, ctx) => {
      void ctx.memory;
      // @ts-expect-error the store was not declared
      void ctx.store;
      return { keys: [] };
    });
    defineStageWorker(probeQueue, { needs: ['queues'], onStart: async (ports) => void ports.queues }, async () => ({ keys: [] }));
    // @ts-expect-error onStart gets the declared ports only
    defineStageWorker(probeQueue, { needs: ['queues'], onStart: async (ports) => void ports.redis }, async () => ({ keys: [] }));
  });

  it('every worker says what it touches', () => {
    const needs = Object.fromEntries(Object.entries(ALL_WORKERS).map(([name, w]) => [name, [...w.needs].sort()]));
    expect(needs).toEqual({
      extract: ['artifacts', 'config', 'extractor'],
      sectionize: ['artifacts'],
      chunk: ['artifacts'],
      enrich: ['artifacts'],
      embed: ['artifacts', 'config', 'embedder', 'embeddingCache', 'store'],
      upsert: ['artifacts', 'config', 'queues', 'redis', 'status', 'store'],
      delete: ['artifacts', 'config', 'queues', 'redis', 'status', 'store'],
      'memory-update': ['memory'],
      'memory-decay': ['config', 'memory', 'queues'],
      'facet-rebuild': ['config', 'embedder', 'embeddingCache', 'store'],
      agent: ['config', 'embedder', 'memory', 'queues', 'redis', 'store'],
    });
  });
});

describe('a queue declares whether its jobs track a document', () => {
  it('the six ingest stages do, under their stage names; deletion, facets, memory and agent runs do not', () => {
    const tracked = INGEST_QUEUES.filter((q) => q.tracks).map((q) => q.tracks?.stage);
    expect(tracked).toEqual(['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert']);
    for (const q of [deleteQueue, facetRebuildQueue, ...MEMORY_QUEUES, agentRunQueue]) expect(q.tracks, q.name).toBeUndefined();
  });

  it('a tracked job names its registration and nothing more', () => {
    expect(chunkQueue.tracks?.document({ docId: 'd', version: V, gen: 3 })).toEqual({ docId: 'd', version: V, gen: 3 });
    expect(defineIngestQueue('ingest-probe', z.object({})).tracks?.stage).toBe('probe');
  });
});

describe('the superseded outcome', () => {
  it('is what a skipped job completes with, and what a result admitting it says', () => {
    expect(isSuperseded(SUPERSEDED)).toBe(true);
    expect(isSuperseded(upsertQueue.result.parse({ upsertedChunks: 0, deletedStaleChunks: 0, superseded: true }))).toBe(true);
    expect(isSuperseded(upsertQueue.result.parse({ upsertedChunks: 4, deletedStaleChunks: 0, superseded: false }))).toBe(false);
    expect(isSuperseded(chunkQueue.result.parse({ chunkCount: 3 }))).toBe(false);
    expect(isSuperseded(null)).toBe(false);
  });
});

describe('the document life-cycle', () => {
  type Call = { op: string; args: unknown[] };
  function recordingStatus(answer: boolean): { status: StatusStore; calls: Call[] } {
    const calls: Call[] = [];
    const record = (op: string) => async (...args: unknown[]) => {
      calls.push({ op, args });
      return answer;
    };
    const status = { update: record('update'), failAt: record('failAt'), get: async () => null } as unknown as StatusStore;
    return { status, calls };
  }
  const doc = { docId: 'd', version: V, gen: 7 };
  const at = { ...doc, stage: 'chunk' };

  it('writes each transition once, conditional on the registration and, where it matters, the stage', async () => {
    const { status, calls } = recordingStatus(true);
    const life = createDocumentLifecycle(status);
    const failure = { code: 'CORRUPT_PDF' as const, message: 'broken' };
    expect(await life.begin(at)).toBe(true);
    await life.progress(doc, 40);
    expect(await life.handOver(at, 'enrich', { recorded: { chunkCount: 3 }, ms: 12 })).toBe(true);
    await life.finish(at, { recorded: {}, ms: 5 });
    expect(await life.requeue(at)).toBe(true);
    await life.attemptFailed(at, failure, false);
    await life.attemptFailed(at, failure, true);
    expect(await life.fail(at, failure)).toBe(true);
    await life.record(doc, {});
    await life.record(doc, { pageCount: 2 });
    const update = (u: StageUpdate, condition?: { atStage: string }) => ({ op: 'update', args: ['d', V, 7, u, condition] });
    expect(calls).toEqual([
      update({ state: 'running', stage: 'chunk', progress: 0 }, { atStage: 'chunk' }),
      update({ progress: 40 }),
      update({ chunkCount: 3, timing: { stage: 'chunk', ms: 12 }, stage: 'enrich', state: 'queued', progress: 0 }, { atStage: 'chunk' }),
      update({ timing: { stage: 'chunk', ms: 5 }, progress: 100 }),
      update({ state: 'queued', progress: 0 }, { atStage: 'chunk' }),
      update({ error: failure }, { atStage: 'chunk' }),
      update({ error: failure, state: 'failed' }, { atStage: 'chunk' }),
      { op: 'failAt', args: ['d', V, 7, 'chunk', failure] },
      update({ pageCount: 2 }),
    ]);
  });

  it('says when a job may not run or hand on', async () => {
    const life = createDocumentLifecycle(recordingStatus(false).status);
    expect(await life.begin(at)).toBe(false);
    expect(await life.handOver(at, 'enrich', { recorded: {}, ms: 1 })).toBe(false);
    expect(await life.waitsAt(doc, 'enrich')).toBe(false);
  });

  it('is the only module of workers/runtime that writes a status record', () => {
    const dir = path.join(root, 'workers/runtime');
    const writers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /\bstatus\.(update|failAt|markDeleting|markDeleted)\(/.test(readFileSync(path.join(dir, f), 'utf8')));
    expect(writers).toEqual(['document-lifecycle.ts']);
  });
});
