/**
 * The watched folder as an attacker or an unlucky operator fills it: links to a file and to a
 * directory outside, a sidecar linked from outside, sparse 300 MB and 3 GiB "PDFs", text named
 * .pdf. Nothing outside the folder reaches the artifact store, the vector store or the status
 * records; oversize files are recorded TOO_LARGE without being read; the good file is indexed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import { registerFile } from '../../core/sources/register-source.ts';
import { docIdForSource } from '../../shared/domain/index.ts';
import { eq } from '../../shared/store/filter.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const MiB = 1024 * 1024;
const SECRET = 'Zanzibar quokka marmalade';
const doc = (rel: string) => docIdForSource(`dir:${rel}`);

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe.skipIf(!REDIS_AVAILABLE)('the watched folder never reads outside itself, nor an oversize or non-PDF file', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let statuses: Map<string, DocStatus>;
  let artifactsDir: string;
  let outside: string;
  let rssGrowth: number;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    const { watchDir } = ws.config;
    if (ws.config.artifactStore.kind !== 'local') throw new Error('this suite reads the local artifact store');
    artifactsDir = ws.config.artifactStore.dir;
    // Outside the folder: a searchable PDF with a secret, a directory holding another, metadata.
    outside = path.join(ws.root, 'outside');
    mkdirSync(path.join(outside, 'dir'), { recursive: true });
    const secretPdf = await textPdf([[`The secret passphrase is ${SECRET}.`, 'It must never be indexed.']]);
    writeFileSync(path.join(outside, 'secret.pdf'), secretPdf);
    writeFileSync(path.join(outside, 'dir', 'nested.pdf'), secretPdf);
    writeFileSync(path.join(outside, 'meta.json'), JSON.stringify({ doc_type: 'secret', title: SECRET }));

    writeFileSync(path.join(watchDir, 'good.pdf'), await textPdf([['Parental leave is sixteen weeks.', 'It is paid in full.']]));
    symlinkSync(path.join(outside, 'secret.pdf'), path.join(watchDir, 'passwd-link.pdf'));
    symlinkSync(path.join(outside, 'dir'), path.join(watchDir, 'linked-dir'));
    writeFileSync(path.join(watchDir, 'with-linked-meta.pdf'), await textPdf([['Overtime is paid at 150 percent.']]));
    symlinkSync(path.join(outside, 'meta.json'), path.join(watchDir, 'with-linked-meta.meta.json'));
    writeFileSync(path.join(watchDir, 'notes.pdf'), 'plain text under a .pdf name\n');
    // Sparse: a valid header, then holes; no disk used.
    for (const [name, size] of [['big.pdf', 300 * 1000 * 1000], ['huge.pdf', 3 * 1024 * MiB]] as const) {
      await writeFile(path.join(watchDir, name), '%PDF-1.7\n');
      await truncate(path.join(watchDir, name), size);
    }

    const rssBefore = process.memoryUsage().rss;
    service = await startPipeline(ws.config);
    const settled = await settle(service, { count: 6, timeoutMs: 60_000 });
    rssGrowth = process.memoryUsage().rss - rssBefore;
    statuses = new Map(settled.map((s) => [s.sourceKey.replace(/^dir:/, ''), s]));
  }, 90_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('indexes the regular PDF, and records each refused file failed with a specific code', () => {
    const seen = Object.fromEntries([...statuses].map(([k, s]) => [k, `${s.state} ${s.errorCode ?? ''}`.trim()]));
    expect(seen).toEqual({
      'good.pdf': 'indexed',
      'passwd-link.pdf': 'failed SYMLINK_REFUSED',
      'with-linked-meta.pdf': 'failed SYMLINK_REFUSED',
      'notes.pdf': 'failed NOT_A_PDF',
      'big.pdf': 'failed TOO_LARGE',
      'huge.pdf': 'failed TOO_LARGE',
    });
    expect(statuses.get('huge.pdf')?.errorMessage).toMatch(/huge\.pdf is 3221225472 bytes, over the 104857600-byte limit/);
  });

  it('stores nothing from outside the folder, and nothing of the refused files', async () => {
    for (const rel of ['passwd-link.pdf', 'with-linked-meta.pdf', 'notes.pdf', 'big.pdf', 'huge.pdf', 'linked-dir/nested.pdf']) {
      expect(existsSync(path.join(artifactsDir, doc(rel))), rel).toBe(false);
      expect(await service.ports.store.countChunks(eq('doc_id', doc(rel))), rel).toBe(0);
    }
    const secretBytes = readFileSync(path.join(outside, 'secret.pdf'));
    for (const file of filesUnder(artifactsDir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(SECRET), file).toBe(false);
      expect(bytes.equals(secretBytes), file).toBe(false);
    }
    expect(await service.ports.store.countChunks(eq('doc_id', doc('good.pdf')))).toBeGreaterThan(0);
  });

  it('never descends into a linked directory', async () => {
    expect([...statuses.keys()].filter((k) => k.startsWith('linked-dir'))).toEqual([]);
    expect(await service.ports.status.get(doc('linked-dir/nested.pdf'))).toBeNull();
  });

  it('read neither oversize file: the process did not grow by their size', () => {
    // Reading big.pdf alone takes 300 MB (and a copy to the artifact store).
    expect(rssGrowth).toBeLessThan(200 * MiB);
  });

  it('a file named on the command line gets the same size and type checks, and a status record', async () => {
    const ports = { ...service.ports, prefix: ws.config.prefix };
    const input = { collector: 'cli', meta: {}, fetchedAt: new Date(), maxBytes: ws.config.extract.maxBytes };
    const big = await registerFile(ports, { ...input, file: path.join(ws.config.watchDir, 'huge.pdf'), sourceKey: 'file:huge.pdf' });
    expect(big).toMatchObject({ action: 'rejected', code: 'TOO_LARGE' });
    expect(await service.ports.status.get(docIdForSource('file:huge.pdf'))).toMatchObject({ state: 'failed', errorCode: 'TOO_LARGE' });
    expect(existsSync(path.join(artifactsDir, docIdForSource('file:huge.pdf')))).toBe(false);
    const text = await registerFile(ports, { ...input, file: path.join(ws.config.watchDir, 'notes.pdf'), sourceKey: 'file:notes.pdf' });
    expect(text).toMatchObject({ action: 'rejected', code: 'NOT_A_PDF' });
  });
});
