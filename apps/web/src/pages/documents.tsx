import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, json, type Role } from '../api.ts';

interface Doc {
  docId: string;
  sourceKey: string;
  state: string;
  stage: string;
  progress: number;
  errorCode: string | null;
  errorMessage: string | null;
  pageCount: number | null;
  chunkCount: number | null;
  /** Whether a retry would run it again (a failed document whose source was stored). */
  retryable?: boolean;
}

interface QueueCounts {
  queue: string;
  counts: Record<string, number>;
}

/** The lists as last read, and when. */
interface Listing {
  docs: Doc[];
  queues: QueueCounts[];
  at: Date;
}

/** A line under the drop zone: what an upload or an action did. Failures are told apart by colour. */
interface Notice {
  /** Keeps each line on its own element as newer ones are put above it. */
  id: number;
  text: string;
  kind: 'ok' | 'error';
}

let noticeIds = 0;

/** How often the list is refreshed while the page is open. */
const POLL_MS = 1000;

const QUEUE_STATES = ['waiting', 'active', 'completed', 'failed', 'delayed'] as const;

const describe = (err: unknown) => (err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
const nameOf = (d: Doc) => d.sourceKey.replace(/^[a-z0-9]+:/, '');

/** The documents and the queues; uploads, retries and deletes for an admin key. */
export function DocumentsPage({ role }: { role: Role | null }) {
  const [listing, setListing] = useState<Listing | null>(null);
  // Why the last refresh failed: the lists shown are then older than they look.
  const [listError, setListError] = useState<string | null>(null);
  const [notices, setNotices] = useState<Notice[]>([]);
  const [over, setOver] = useState(false);
  const canManage = role === 'admin';
  const note = (text: string, kind: Notice['kind']) => setNotices((ns) => [{ id: ++noticeIds, text, kind }, ...ns].slice(0, 8));

  async function refresh() {
    try {
      const [d, q] = await Promise.all([json<{ documents: Doc[] }>('/v1/documents'), json<{ queues: QueueCounts[] }>('/v1/queues')]);
      setListing({ docs: d.documents, queues: q.queues, at: new Date() });
      setListError(null);
    } catch (err) {
      // Never an empty list for a failed read: the last one stays, marked stale.
      setListError(describe(err));
    }
  }
  useEffect(() => {
    let stop = false;
    const tick = () => void refresh().finally(() => !stop && setTimeout(tick, POLL_MS));
    tick();
    return () => {
      stop = true;
    };
  }, []);

  async function upload(files: File[]) {
    for (const f of files) {
      try {
        await call(`/v1/documents?filename=${encodeURIComponent(f.name)}`, { method: 'POST', body: f, headers: { 'content-type': 'application/pdf' } });
        note(`Uploaded ${f.name}`, 'ok');
      } catch (err) {
        note(`${f.name}: ${describe(err)}`, 'error');
      }
    }
    await refresh();
  }
  async function act(d: Doc, what: 'retry' | 'delete') {
    try {
      await call(what === 'retry' ? `/v1/documents/${d.docId}/retry` : `/v1/documents/${d.docId}`, { method: what === 'retry' ? 'POST' : 'DELETE' });
      note(`${what === 'retry' ? 'Retrying' : 'Deleting'} ${nameOf(d)}`, 'ok');
    } catch (err) {
      note(`${nameOf(d)}: ${describe(err)}`, 'error');
    }
    await refresh();
  }

  return (
    <section class="page documents">
      {canManage && (
        <label
          class={`dropzone card${over ? ' over' : ''}`}
          data-testid="dropzone"
          onDragOver={(e) => (e.preventDefault(), setOver(true))}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            void upload([...(e.dataTransfer?.files ?? [])]);
          }}
        >
          Drop PDFs here, or choose files
          <input type="file" accept="application/pdf,.pdf" multiple onChange={(e) => void upload([...(e.currentTarget.files ?? [])])} />
        </label>
      )}
      {notices.length > 0 && (
        <ul class="notices" data-testid="notices">
          {notices.map((n) => (
            <li key={n.id} class={`notice ${n.kind}`} role={n.kind === 'error' ? 'alert' : undefined}>
              {n.text}
            </li>
          ))}
        </ul>
      )}
      {listing === null ? (
        listError ? (
          <p class="card error" data-testid="list-error">
            The documents cannot be listed right now ({listError}). They will show as soon as the gateway can read them.
          </p>
        ) : (
          <p class="muted">Loading the documents…</p>
        )
      ) : (
        <div class={listError ? 'stale' : ''} data-stale={listError ? 'true' : 'false'} data-testid="listing">
          {listError && (
            <p class="error" data-testid="stale-note">
              Not refreshed since {listing.at.toLocaleTimeString()} ({listError}): showing the last list read.
            </p>
          )}
          <DocumentTable docs={listing.docs} canManage={canManage} act={act} />
          <h3>Queues</h3>
          <div class="scroll">
            <table class="queues" data-testid="queues">
              <thead>
                <tr>
                  <th>Stage</th>
                  {QUEUE_STATES.map((k) => (
                    <th key={k}>{k}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {listing.queues.map((q) => (
                  <tr key={q.queue}>
                    <td>{q.queue}</td>
                    {QUEUE_STATES.map((k) => (
                      <td key={k}>{q.counts[k] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

/** The documents, one row each; a failure shows its code, Retry only where a retry can succeed. */
function DocumentTable({ docs, canManage, act }: { docs: Doc[]; canManage: boolean; act: (d: Doc, what: 'retry' | 'delete') => Promise<void> }) {
  if (docs.length === 0) {
    return (
      <p class="muted" data-testid="no-documents">
        No documents yet{canManage ? ': drop PDFs above.' : '.'}
      </p>
    );
  }
  return (
    <table class="docs" data-testid="documents">
      <thead>
        <tr>
          <th>Document</th>
          <th>State</th>
          <th>Stage</th>
          <th>Pages / chunks</th>
          {canManage && <th />}
        </tr>
      </thead>
      <tbody>
        {docs.map((d) => (
          <tr key={d.docId} data-doc={nameOf(d)} data-state={d.state} data-doc-id={d.docId}>
            <td class="name">
              {nameOf(d)}
              {d.state === 'failed' && (
                <div class="error">
                  {d.errorCode}: {d.errorMessage}
                </div>
              )}
              {d.state === 'failed' && !d.retryable && canManage && <div class="muted">Nothing to retry: the file was refused before it was stored. Fix it and upload it again.</div>}
            </td>
            <td>
              <span class={`state ${d.state}`}>{d.state}</span>
            </td>
            <td>
              {d.stage} <progress max={100} value={d.progress} />
            </td>
            <td>
              {d.pageCount ?? '–'} / {d.chunkCount ?? '–'}
            </td>
            {canManage && (
              <td class="actions">
                <div class="buttons">
                  {d.retryable && <button onClick={() => act(d, 'retry')}>Retry</button>}
                  <button class="danger" onClick={() => confirm(`Delete ${nameOf(d)}?`) && act(d, 'delete')}>
                    Delete
                  </button>
                </div>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
