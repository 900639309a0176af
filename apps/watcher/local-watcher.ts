import { realpathSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { watch, type FSWatcher } from 'chokidar';
import { sha256Hex, type DocumentMeta } from '../../shared/domain/index.ts';
import { describeError, PermanentError } from '../../shared/errors.ts';
import type { Logger } from '../../shared/telemetry/index.ts';
import { parseManifest, readSidecar, createFolderBucket, readMetadataFile, unreadVersion, type SourceLimits } from '../../shared/sources/index.ts';
import { recordRejectedSource, registerSource, deleteSource, DIR_KEY_PREFIX, type RegisterPorts, type RegisterResult } from '../../core/sources/index.ts';

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

/** The folder's `*.jsonl` manifests; one that is a link (or resolves outside `root`) is skipped with a log line. */
async function loadManifests(root: string, log: Logger): Promise<Map<string, DocumentMeta>> {
  const out = new Map<string, DocumentMeta>();
  for (const name of (await readdir(root)).filter((n) => n.endsWith('.jsonl')).sort()) {
    const file = path.join(root, name);
    let text: string | null;
    try {
      text = await readMetadataFile(file, root, name);
    } catch (err) {
      if (!(err instanceof PermanentError && err.code === 'SYMLINK_REFUSED')) throw err;
      log.warn('manifest ignored', { file: name, code: err.code, error: err.message });
      continue;
    }
    if (text !== null) for (const e of parseManifest(text, file)) out.set(path.normalize(e.path), e.meta);
  }
  return out;
}

/**
 * Watches a local folder: a new or changed PDF is registered (unchanged bytes and metadata are
 * skipped), a removed PDF is deleted, and an edited `<name>.meta.json` re-registers its PDF.
 * Metadata comes from the sidecar, else from `*.jsonl` manifests in the folder's root.
 * Documents registered from this folder whose file is gone when the watcher starts are deleted.
 *
 * Nothing outside the folder is ever read: symbolic links (to files or directories, inside the
 * folder or out) are never followed; a linked `*.pdf` is recorded `failed` with SYMLINK_REFUSED,
 * other links are ignored with a log line. A PDF over `maxBytes` is recorded `failed` with
 * TOO_LARGE, and one without a `%PDF-` header with NOT_A_PDF, before its bytes are read
 * (see `safe-read.ts`).
 */
export function startLocalWatcher(opts: {
  dir: string;
  ports: RegisterPorts;
  log: Logger;
  /** Larger PDFs are refused unread (MAX_PDF_BYTES, `config.extract.maxBytes`). */
  maxBytes: SourceLimits['maxBytes'];
  poll?: boolean;
  onEvent?: (e: WatchEvent) => void;
  clock?: () => Date;
}): LocalWatcher {
  const { dir, ports, log, maxBytes } = opts;
  // Links are judged against the folder's real path (the folder itself may be reached through one).
  const root = realpathSync(dir);
  const folder = createFolderBucket(root);
  const clock = opts.clock ?? (() => new Date());
  const chains = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  const readManifests = () =>
    loadManifests(root, log).catch((err: unknown) => {
      log.error('manifest rejected', { error: describeError(err).message });
      return new Map<string, DocumentMeta>();
    });
  let manifests = readManifests();

  // Chokidar reports paths under `root`; keys and events name them as under `dir`.
  const relOf = (file: string) => path.relative(root, file);
  const keyOf = (file: string) => DIR_KEY_PREFIX + relOf(file).split(path.sep).join('/');
  const shown = (file: string) => path.join(dir, relOf(file));

  // One file's events run in order; different files run concurrently.
  function serial(file: string, task: () => Promise<void>): void {
    const prev = chains.get(file) ?? Promise.resolve();
    const next = prev.then(task).catch((err: unknown) => {
      const { code, message } = describeError(err);
      log.error('watch event failed', { file: relOf(file), code, error: message });
      opts.onEvent?.({ kind: 'rejected', file: shown(file), code, message });
    });
    chains.set(file, next);
    pending.add(next);
    void next.finally(() => pending.delete(next));
  }

  async function ingest(file: string): Promise<void> {
    const rel = path.normalize(relOf(file));
    const read = await folder.read(relOf(file).split(path.sep).join('/'), { maxBytes, pdf: true });
    // Gone since its event: the unlink event that follows removes it.
    if (!read) return;
    if (read.kind === 'refused') {
      const { code, message } = read.problem;
      await recordRejectedSource(ports, { sourceKey: keyOf(file), version: unreadVersion(code, read.seen), error: { code, message } });
      log.warn('refused', { file: rel, code, error: message });
      opts.onEvent?.({ kind: 'rejected', file: shown(file), code, message });
      return;
    }
    const { bytes } = read;
    let meta: DocumentMeta;
    try {
      meta = (await readSidecar(file, root)) ?? (await manifests).get(rel) ?? {};
    } catch (err) {
      if (err instanceof PermanentError) await recordRejectedSource(ports, { sourceKey: keyOf(file), version: sha256Hex(bytes), error: describeError(err) });
      throw err;
    }
    const result = await registerSource(ports, {
      sourceKey: keyOf(file),
      sourceUri: pathToFileURL(shown(file)).href,
      collector: 'local-watcher',
      bytes,
      meta,
      fetchedAt: clock(),
    });
    log.info(result.action === 'registered' ? 'registered' : 'unchanged', { docId: result.docId, version: result.version.slice(0, 12) });
    opts.onEvent?.({ kind: result.action, file: shown(file), result });
  }

  async function remove(file: string): Promise<void> {
    const docId = await deleteSource(ports, keyOf(file));
    if (docId) {
      log.info('deleted', { docId });
      opts.onEvent?.({ kind: 'deleted', file: shown(file), docId });
    }
  }

  async function reconcile(): Promise<void> {
    const present = new Set(watcher.getWatched ? Object.entries(watcher.getWatched()).flatMap(([d, names]) => names.map((n) => keyOf(path.join(d, n)))) : []);
    for (const s of await ports.status.list()) {
      if (s.sourceKey.startsWith(DIR_KEY_PREFIX) && s.state !== 'deleted' && s.state !== 'deleting' && !present.has(s.sourceKey)) {
        const file = path.join(root, ...s.sourceKey.slice(DIR_KEY_PREFIX.length).split('/'));
        serial(file, () => remove(file));
      }
    }
  }

  const isPdf = (f: string) => /\.pdf$/i.test(f);
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: false,
    // A linked directory is never descended into, a linked file is reported as a link.
    followSymlinks: false,
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
          // Only whether the PDF is there: ingest() decides whether it may be read.
          await lstat(pdf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw err;
        }
        await ingest(pdf);
      });
    } else if (file.endsWith('.jsonl') && path.dirname(file) === root) {
      manifests = readManifests();
    } else {
      void noteLink(file);
    }
  };
  // A linked directory (or any other link that is no PDF) is skipped; say so once per event.
  const noteLink = async (file: string) => {
    const st = await lstat(file).catch(() => null);
    if (st?.isSymbolicLink()) log.warn('symbolic link ignored: links are never followed', { file: relOf(file) });
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
