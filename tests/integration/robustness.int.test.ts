import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import { EnrichedArtifact, docIdForSource } from '../../shared/domain/index.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { queueTotals, settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';
import { decodePassword, sharedPath } from '../helpers/shared-data.ts';

const robustness = sharedPath('pdfs', 'robustness');
const legal = sharedPath('pdfs', 'legal');
const SPECIFIC_CODES = ['PASSWORD_REQUIRED', 'NO_TEXT_LAYER', 'CORRUPT_PDF', 'UNSUPPORTED_FEATURE', 'TOO_LARGE', 'EXTRACT_TIMEOUT'];

interface ManifestFile {
  file: string;
  category: string;
  password?: string;
}

describe.skipIf(!REDIS_AVAILABLE || !robustness.present || !legal.present)('real-world PDFs through the whole pipeline', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let manifest: ManifestFile[];
  let statuses: Map<string, DocStatus>;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { EXTRACT_TIMEOUT_MS: '60000' });
    manifest = (JSON.parse(await readFile(path.join(robustness.path, 'MANIFEST.json'), 'utf8')) as { files: ManifestFile[] }).files;
    for (const f of manifest) {
      await copyFile(path.join(robustness.path, f.file), path.join(ws.config.watchDir, f.file));
      // Encrypted files get their password in the sidecar, as a person would give it.
      if (f.password !== undefined) {
        await writeFile(path.join(ws.config.watchDir, f.file.replace(/\.pdf$/, '.meta.json')), JSON.stringify({ password: decodePassword(f.password) }));
      }
    }
    await copyFile(path.join(legal.path, 'kr_labor_standards_act_2025.pdf'), path.join(ws.config.watchDir, 'kr_labor_standards_act_2025.pdf'));
    await writeFile(path.join(ws.config.watchDir, 'kr_labor_standards_act_2025.meta.json'), JSON.stringify({ doc_type: 'law', jurisdiction: 'KR' }));
    await copyFile(path.join(legal.path, 'rfc8446_tls1.3.pdf'), path.join(ws.config.watchDir, 'rfc8446_tls1.3.pdf'));
    service = await startPipeline(ws.config);
    const settled = await settle(service, { count: manifest.length + 2, timeoutMs: 400_000 });
    statuses = new Map(settled.map((s) => [s.sourceKey.replace(/^dir:/, ''), s]));
  }, 420_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('every file ends indexed or failed with a specific code, and nothing is left in the queues', async () => {
    const unsettled = [...statuses.values()].filter((s) => s.state !== 'indexed' && !(s.state === 'failed' && SPECIFIC_CODES.includes(s.errorCode ?? '')));
    expect(unsettled.map((s) => `${s.sourceKey}: ${s.state} ${s.errorCode} ${s.errorMessage}`)).toEqual([]);
    const totals = await queueTotals(service);
    expect(totals.open).toBe(0);
    expect(service.workers?.isRunning()).toBe(true);
  });

  it('encrypted files open with the password from their metadata; the unreadable fail with the right code', () => {
    // issue3371.pdf is a scanned page behind a password: the password opens it, then it has no text.
    const expected: Record<string, string> = {
      'issue6010_1.pdf': 'indexed',
      'print_protection.pdf': 'indexed',
      'saslprep-r6.pdf': 'indexed',
      'bug900822.pdf': 'indexed',
      'issue3371.pdf': 'NO_TEXT_LAYER',
      'issue7229.pdf': 'NO_TEXT_LAYER',
      'scan-bad.pdf': 'NO_TEXT_LAYER',
      'empty.pdf': 'NO_TEXT_LAYER',
      'empty_protected.pdf': 'NO_TEXT_LAYER',
      'REDHAT-1531897-0.pdf': 'CORRUPT_PDF',
      'helloworld-bad.pdf': 'indexed',
      'xref_command_missing.pdf': 'indexed',
      'tracemonkey.pdf': 'indexed',
      'freeculture.pdf': 'indexed',
    };
    const actual = Object.fromEntries(Object.keys(expected).map((f) => {
      const s = statuses.get(f)!;
      return [f, s.state === 'indexed' ? 'indexed' : (s.errorCode ?? s.state)];
    }));
    expect(actual).toEqual(expected);
    for (const s of statuses.values()) if (s.state === 'failed') expect(s.errorMessage?.length).toBeGreaterThan(10);
  });

  it('the Korean Labor Standards Act is indexed per article, valid from 2025-02-23', async () => {
    const s = statuses.get('kr_labor_standards_act_2025.pdf')!;
    expect(s.state).toBe('indexed');
    const docId = docIdForSource('dir:kr_labor_standards_act_2025.pdf');
    const { document, chunks } = await service.ports.artifacts.getJson(docId, s.version, 'enriched.json', EnrichedArtifact);
    expect(document.valid_from).toBe('2025-02-23');
    expect(document.lang).toBe('ko');
    expect(chunks.every((c) => c.valid_from === '2025-02-23')).toBe(true);
    const paths = chunks.map((c) => c.section_path).join('\n');
    expect(paths).toMatch(/제1장 총칙/);
    expect(paths).toMatch(/제2장 근로계약/);
    expect(chunks.some((c) => c.body.includes('국가법령정보센터'))).toBe(false);
  });

  it('RFC 8446 is indexed with its numbered sections', async () => {
    const s = statuses.get('rfc8446_tls1.3.pdf')!;
    expect(s.state).toBe('indexed');
    const { chunks } = await service.ports.artifacts.getJson(s.docId, s.version, 'enriched.json', EnrichedArtifact);
    expect(chunks.some((c) => /^4\.\s.*> 4\.1\.\s.*> 4\.1\.2\./.test(c.section_path))).toBe(true);
  });
});
