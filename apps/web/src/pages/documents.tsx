import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, json } from '../api.ts';

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
}

interface QueueCounts {
  queue: string;
  counts: Record<string, number>;
}

/** How often the list is refreshed while the page is open. */
const POLL_MS = 1000;

export function DocumentsPage() {
  const [docs, setDocs] = useState<Doc[]>([]);
  const [queues, setQueues] = useState<QueueCounts[]>([]);
  const [messages, setMessages] = useState<string[]>([]);
  const [over, setOver] = useState(false);
  const note = (m: string) => setMessages((ms) => [m, ...ms].slice(0, 8));

  async function refresh() {
    const [d, q] = await Promise.all([json<{ documents: Doc[] }>('/v1/documents'), json<{ queues: QueueCounts[] }>('/v1/queues')]);
    setDocs(d.documents);
    setQueues(q.queues);
  }
  useEffect(() => {
    let stop = false;
    const tick = () => refresh().catch(() => undefined).finally(() => !stop && setTimeout(tick, POLL_MS));
    tick();
    return () => {
      stop = true;
    };
  }, []);

  async function upload(files: File[]) {
    for (const f of files) {
      try {
        await call(`/v1/documents?filename=${encodeURIComponent(f.name)}`, { method: 'POST', body: f, headers: { 'content-type': 'application/pdf' } });
        note(`Uploaded ${f.name}`);
      } catch (err) {
        note(`${f.name}: ${err instanceof ApiError ? `${err.code}: ${err.message}` : String(err)}`);
      }
    }
    await refresh().catch(() => undefined);
  }
  async function act(docId: string, what: 'retry' | 'delete') {
    try {
      await call(what === 'retry' ? `/v1/documents/${docId}/retry` : `/v1/documents/${docId}`, { method: what === 'retry' ? 'POST' : 'DELETE' });
      note(`${what === 'retry' ? 'Retrying' : 'Deleting'} ${docId}`);
    } catch (err) {
      note(`${docId}: ${err instanceof ApiError ? `${err.code}: ${err.message}` : String(err)}`);
    }
    await refresh().catch(() => undefined);
  }

  return (
    <section class="page documents">
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
      {messages.length > 0 && (
        <ul class="notice">
          {messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
      <table class="docs" data-testid="documents">
        <thead>
          <tr>
            <th>Document</th>
            <th>State</th>
            <th>Stage</th>
            <th>Pages / chunks</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {docs.map((d) => (
            <tr key={d.docId} data-doc={d.sourceKey.replace(/^[a-z0-9]+:/, '')} data-state={d.state} data-doc-id={d.docId}>
              <td>
                {d.sourceKey.replace(/^[a-z0-9]+:/, '')}
                {d.state === 'failed' && (
                  <div class="error">
                    {d.errorCode}: {d.errorMessage}
                  </div>
                )}
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
              <td class="actions">
                {d.state === 'failed' && <button onClick={() => act(d.docId, 'retry')}>Retry</button>}
                <button class="danger" onClick={() => confirm(`Delete ${d.sourceKey}?`) && act(d.docId, 'delete')}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Queues</h3>
      <table class="queues" data-testid="queues">
        <thead>
          <tr>
            <th>Stage</th>
            <th>waiting</th>
            <th>active</th>
            <th>completed</th>
            <th>failed</th>
            <th>delayed</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((q) => (
            <tr key={q.queue}>
              <td>{q.queue}</td>
              {['waiting', 'active', 'completed', 'failed', 'delayed'].map((k) => (
                <td key={k}>{q.counts[k] ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
