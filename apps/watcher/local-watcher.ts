import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { watch, type FSWatcher } from 'chokidar';
import { deleteQueue } from '../../queues/ingest.queues.ts';
import { docIdForSource, type DocumentMeta } from '../../shared/domain/index.ts';
import { describeError, PermanentError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/logger.ts';
import { parseManifest, readSidecar } from './metadata.ts';
import { recordRejectedSource, registerSource, type RegisterPorts, type RegisterResult } from './register-source.ts';

/** Source keys of files found in the watched folder; CLI registrations use `file:`. */
export const DIR_KEY_PREFIX = 'dir:';

export type WatchEvent =
  | { kind: 'registered' | 'unchanged'; file: string; result: RegisterResult }
  | { kind: 'deleted'; file: string; docId: string }
  | { kind: 'rejected'; file: string; code: string; message: string };

export interface LocalWatcher {
  /** Resolves once the initial scan is done and every file found has been handled. */
  ready: Promise<void>;
  /** Waits for every event handled so far. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Removes a document whose source is gone: status first, then the delete job. */
export async function deleteSource(ports: RegisterPorts, sourceKey: string): Promise<string | null> {
  const docId = docIdForSource(sourceKey);
  const gen = await ports.status.markDeleting(docId);
  if (gen === null) return null;
  await ports.queues.enqueue(deleteQueue, { docId, gen });
  return docId;
}

async function loadManifests(dir: string): Promise<Map<string, DocumentMeta>> {
  const out = new Map<string, DocumentMeta>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort()) {
    const file = path.join(dir, name);
    for (const e of parseManifest(await readFile(file, 'utf8'), file)) out.set(path.normalize(e.path), e.meta);
  }
  return out;
}

/**
 * Watches a local folder: a new or changed PDF is registered (unchanged bytes and metadata are
 * skipped), a removed PDF is deleted, and an edited `<name>.meta.json` re-registers its PDF.
 * Metadata comes from the sidecar, else from `*.jsonl` manifests in the folder's root.
 * Documents registered from this folder whose file is gone when the watcher starts are deleted.
 */
export function startLocalWatcher(opts: {
  dir: string;
  ports: RegisterPorts;
  log: Logger;
  poll?: boolean;
  onEvent?: (e: WatchEvent) => void;
  clock?: () => Date;
}): LocalWatcher {
  const { dir, ports, log } = opts;
  const clock = opts.clock ?? (() => new Date());
  const chains = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  let manifests: Promise<Map<string, DocumentMeta>> = loadManifests(dir).catch((err: unknown) => {
    log.error('manifest rejected', { error: describeError(err).message });
    return new Map();
  });

  const keyOf = (file: string) => DIR_KEY_PREFIX + path.relative(dir, file).split(path.sep).join('/');

  // One file's events run in order; different files run concurrently.
  function serial(file: string, task: () => Promise<void>): void {
    const prev = chains.get(file) ?? Promise.resolve();
    const next = prev.then(task).catch((err: unknown) => {
      const { code, message } = describeError(err);
      log.error('watch event failed', { file: path.relative(dir, file), code, error: message });
      opts.onEvent?.({ kind: 'rejected', file, code, message });
    });
    chains.set(file, next);
    pending.add(next);
    void next.finally(() => pending.delete(next));
  }

  async function ingest(file: string): Promise<void> {
    const rel = path.normalize(path.relative(dir, file));
    const bytes = new Uint8Array(await readFile(file));
    let meta: DocumentMeta;
    try {
      meta = (await readSidecar(file)) ?? (await manifests).get(rel) ?? {};
    } catch (err) {
      if (err instanceof PermanentError) await recordRejectedSource(ports, { sourceKey: keyOf(file), bytes, error: describeError(err) });
      throw err;
    }
    const result = await registerSource(ports, {
      sourceKey: keyOf(file),
      sourceUri: pathToFileURL(file).href,
      collector: 'local-watcher',
      bytes,
      meta,
      fetchedAt: clock(),
    });
    log.info(result.action === 'registered' ? 'registered' : 'unchanged', { docId: result.docId, version: result.version.slice(0, 12) });
    opts.onEvent?.({ kind: result.action, file, result });
  }

  async function remove(file: string): Promise<void> {
    const docId = await deleteSource(ports, keyOf(file));
    if (docId) {
      log.info('deleted', { docId });
      opts.onEvent?.({ kind: 'deleted', file, docId });
    }
  }

  async function reconcile(): Promise<void> {
    const present = new Set(watcher.getWatched ? Object.entries(watcher.getWatched()).flatMap(([d, names]) => names.map((n) => keyOf(path.join(d, n)))) : []);
    for (const s of await ports.status.list()) {
      if (s.sourceKey.startsWith(DIR_KEY_PREFIX) && s.state !== 'deleted' && s.state !== 'deleting' && !present.has(s.sourceKey)) {
        serial(path.join(dir, s.sourceKey.slice(DIR_KEY_PREFIX.length)), () => remove(path.join(dir, s.sourceKey.slice(DIR_KEY_PREFIX.length))));
      }
    }
  }

  const isPdf = (f: string) => /\.pdf$/i.test(f);
  const watcher: FSWatcher = watch(dir, {
    ignoreInitial: false,
    usePolling: opts.poll ?? false,
    interval: 200,
    awaitWriteFinish: { stabilityThreshold: 200, pollInterval: 50 },
    ignored: (p, stats) => Boolean(stats?.isFile() && !isPdf(p) && !p.endsWith('.meta.json') && !p.endsWith('.jsonl')),
  });

  const onFile = (file: string) => {
    if (isPdf(file)) serial(file, () => ingest(file));
    else if (file.endsWith('.meta.json')) {
      const pdf = file.replace(/\.meta\.json$/, '.pdf');
      serial(pdf, async () => {
        try {
          await readFile(pdf, { flag: 'r' }).then(() => ingest(pdf));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      });
    } else if (file.endsWith('.jsonl') && path.dirname(file) === dir) {
      manifests = loadManifests(dir);
    }
  };
  watcher.on('add', onFile);
  watcher.on('change', onFile);
  watcher.on('unlink', (file) => {
    if (isPdf(file)) serial(file, () => remove(file));
  });
  watcher.on('error', (err) => log.error('watcher error', { error: describeError(err).message }));

  const idle = async () => {
    while (pending.size) await Promise.allSettled([...pending]);
  };
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
    .then(reconcile)
    .then(idle);

  return {
    ready,
    idle,
    async close() {
      await watcher.close();
      await idle();
    },
  };
}
