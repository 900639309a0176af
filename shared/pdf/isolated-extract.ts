import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ExtractedDocument } from '../domain/extracted.ts';
import { PermanentError } from '../errors.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';
import { deserialiseError, type WorkerReply, type WorkerRequest } from './worker-protocol.ts';

/** Bounds on one isolated extraction. */
export interface IsolationOptions {
  /** Wall-clock budget including thread start-up (~0.3 s), in ms. */
  timeoutMs: number;
  /** V8 old-generation heap limit of the thread, in MB. pdf.js image buffers live outside it. */
  maxHeapMb: number;
}

const ENTRY = new URL('./extract-worker-entry.ts', import.meta.url).href;

/**
 * The worker is started from a tiny eval'd bootstrap that registers tsx's ESM loader and only
 * then imports the `.ts` entry. `execArgv: ['--import', 'tsx']` does not work here: on Node 20
 * the `--import` hooks never reach a worker thread's loader, so the `.ts` entry fails with
 * ERR_UNKNOWN_FILE_EXTENSION (checked under both `tsx` and vitest).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi)
  .then((api) => { (api.register ?? api.default.register)(); return import(workerData.entry); });
`;

interface TsxPackage {
  exports: Record<string, { import?: { default?: string } } | string>;
}

let tsxApiUrl: string | undefined;
/**
 * URL of the ESM build of `tsx/esm/api`. require.resolve would give its CJS build, whose
 * register() fails to load its own ESM half; import.meta.resolve is missing under vitest.
 * So the package's own export map is read.
 */
function tsxApi(): string {
  if (tsxApiUrl) return tsxApiUrl;
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as TsxPackage;
  const entry = pkg.exports['./esm/api'];
  const target = typeof entry === 'string' ? entry : entry?.import?.default;
  if (!target) throw new Error('tsx does not export ./esm/api; the isolated extractor needs tsx >= 4');
  tsxApiUrl = pathToFileURL(path.join(path.dirname(pkgPath), target)).href;
  return tsxApiUrl;
}

/**
 * Runs `extractDocument` in a worker thread with a heap limit and a deadline, so a hostile or
 * pathological PDF fails its own document instead of stalling or crashing the process. The
 * bytes are copied once (the caller keeps `input.bytes` intact) and that copy is transferred.
 *
 * @throws PermanentError with the code the extraction raised (TOO_LARGE, PASSWORD_REQUIRED,
 *   CORRUPT_PDF, NO_TEXT_LAYER, UNSUPPORTED_FEATURE); EXTRACT_TIMEOUT past `timeoutMs`;
 *   TOO_LARGE when the thread runs out of heap; INTERNAL when the thread dies otherwise.
 */
export async function extractIsolated(
  input: ExtractInput,
  limits: ExtractLimits,
  isolation: IsolationOptions,
): Promise<ExtractedDocument> {
  const size = input.bytes.byteLength;
  // Refuse oversize files before paying for a thread (and the copy).
  if (size > limits.maxBytes) throw new PermanentError('TOO_LARGE', `PDF is ${size} bytes, over the ${limits.maxBytes}-byte limit`);

  const bytes = input.bytes.slice();
  const request: WorkerRequest = input.password === undefined ? { bytes, limits } : { bytes, limits, password: input.password };
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    execArgv: [],
    workerData: { request, entry: ENTRY, tsxApi: tsxApi() },
    transferList: [bytes.buffer],
    resourceLimits: { maxOldGenerationSizeMb: isolation.maxHeapMb },
  });

  return new Promise<ExtractedDocument>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      // The answer is in (or we gave up): nothing the thread still holds is needed.
      void worker.terminate();
    };
    const timer = setTimeout(() => {
      settle(() =>
        reject(new PermanentError('EXTRACT_TIMEOUT', `PDF extraction did not finish within ${isolation.timeoutMs} ms and was stopped`)),
      );
    }, isolation.timeoutMs);

    worker.once('message', (reply: WorkerReply) => {
      settle(() => (reply.ok ? resolve(reply.doc) : reject(deserialiseError(reply.error))));
    });
    worker.once('error', (err: Error & { code?: string }) => {
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PermanentError('TOO_LARGE', `PDF needs more than the ${isolation.maxHeapMb} MB heap allowed for extraction`, { cause: err })
            : new PermanentError('INTERNAL', `extraction thread failed: ${err.message}`, { cause: err }),
        ),
      );
    });
    worker.once('exit', (code) => {
      settle(() => reject(new PermanentError('INTERNAL', `extraction thread exited with code ${code} before answering`)));
    });
  });
}
