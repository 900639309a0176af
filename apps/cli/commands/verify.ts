import type { Command } from 'commander';
import {
  evaluateProbe,
  formatSanityReport,
  isProbe,
  planSanity,
  sanityExitCode,
  type SanityFacts,
  type SanityObservation,
  type SanityOutcome,
  type SanityQuery,
  type VectorStore,
} from '../../../shared/store/index.ts';
import { PermanentError } from '../../../shared/errors.ts';
import type { ArtifactStore } from '../../../shared/artifacts/index.ts';
import type { Embedder } from '../../../shared/embed/index.ts';
import type { StatusStore } from '../../../shared/status/index.ts';
import { withPorts } from '../app.ts';
import { describeCommand } from '../command-summaries.ts';

/** The ports the probes read (a process's `Ports` has them). */
type SanityPorts = { status: StatusStore; store: VectorStore; artifacts: ArtifactStore; embedder: Embedder };

/** What the status record, the store and the current version's artifact say about a document. */
export async function gatherSanityFacts(ports: SanityPorts, docId: string): Promise<SanityFacts> {
  const status = await ports.status.get(docId);
  if (!status) return { docId, status: null, stored: null, artifact: null };
  const [stored, enriched] = await Promise.all([
    ports.store.getDocument(docId),
    // A missing artifact is a fact (its probes are skipped), not a failure of the command.
    ports.artifacts.getJson(docId, status.version, 'enriched.json').catch((err: unknown) => {
      if (err instanceof PermanentError && err.code === 'ARTIFACT_MISSING') return null;
      throw err;
    }),
  ]);
  return {
    docId,
    status: { state: status.state, version: status.version, chunkCount: status.chunkCount, errorCode: status.errorCode },
    stored,
    artifact: enriched ? { document: enriched.document, chunks: enriched.chunks.map((c) => ({ entities: c.entities })) } : null,
  };
}

/** Runs one probe's query; a store error becomes an observation, so it fails that probe only. */
export async function observe(ports: SanityPorts, query: SanityQuery): Promise<SanityObservation> {
  try {
    switch (query.kind) {
      case 'count':
        return { kind: 'count', count: await ports.store.countChunks(query.filter) };
      case 'aggregate':
        return { kind: 'aggregate', buckets: await ports.store.aggregate({ groupBy: query.groupBy, filter: query.filter }) };
      case 'search': {
        const [vector] = await ports.embedder.embed([query.text]);
        if (!vector) return { kind: 'error', message: 'the embedder returned no vector' };
        const hits = await ports.store.hybrid({ text: query.text, vector, alpha: query.alpha, filter: query.filter, limit: query.limit });
        return { kind: 'search', docIds: hits.map((h) => h.chunk.doc_id) };
      }
    }
  } catch (err) {
    return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}

/** Plans, runs and evaluates the sanity probes of one document, in report order. */
export async function verifySanity(ports: SanityPorts, docId: string): Promise<SanityOutcome[]> {
  const steps = planSanity(await gatherSanityFacts(ports, docId));
  const out: SanityOutcome[] = [];
  for (const step of steps) out.push(isProbe(step) ? evaluateProbe(step, await observe(ports, step.query)) : step);
  return out;
}

/** `quarry verify sanity --doc-id <id>`: one line per probe, exit code 1 when any failed. */
export function verifyCommands(program: Command): void {
  const verify = program.command('verify').description(describeCommand('verify'));
  verify
    .command('sanity')
    .description('probe queries for one document: counts, title search, time clamp, aggregate, entity filter')
    .requiredOption('--doc-id <id>')
    .option('--json', 'the outcomes as JSON')
    .action(async (o: { docId: string; json?: boolean }) => {
      await withPorts(async (ports) => {
        const outcomes = await verifySanity(ports, o.docId);
        process.stdout.write(o.json ? `${JSON.stringify({ docId: o.docId, outcomes }, null, 2)}\n` : `${formatSanityReport(o.docId, outcomes)}\n`);
        if (sanityExitCode(outcomes) === 1) process.exitCode = 1;
      });
    });
}
