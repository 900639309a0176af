import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, ask, json, type Answer, type ChunkRecord, type Citation, type Role } from '../api.ts';
import { PassageBody } from '../passages.tsx';
import { pagesLabel } from '../viewer-controls.ts';
import { PdfViewer } from '../viewer.tsx';

interface NodeStep {
  node: string;
  ms: number;
}

/** "valid 2024-01-01 → 2025-01-01", "valid from …", or nothing. */
export function validity(c: Pick<Citation, 'validFrom' | 'validTo'>): string {
  if (c.validFrom && c.validTo) return `valid ${c.validFrom} → ${c.validTo}`;
  if (c.validFrom) return `valid from ${c.validFrom}`;
  if (c.validTo) return `valid until ${c.validTo}`;
  return '';
}

/**
 * Ask a question: the streamed answer first, then its cited passages (a table drawn as a table,
 * the cited cell marked; prose with the quoted words marked), each opening its cited page, then
 * feedback and (admin) its trace; the run's steps below, as they come.
 */
export function AskPage({ role }: { role: Role | null }) {
  const [query, setQuery] = useState('');
  const [asOf, setAsOf] = useState('');
  const [busy, setBusy] = useState(false);
  const [runId, setRunId] = useState<string | null>(null);
  const [steps, setSteps] = useState<NodeStep[]>([]);
  const [text, setText] = useState('');
  const [citations, setCitations] = useState<Citation[]>([]);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Citation | null>(null);
  const [feedback, setFeedback] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  // The cited chunks' text (and tables), by chunk id: read once each, as citations arrive.
  const [chunks, setChunks] = useState<Record<string, ChunkRecord>>({});
  const asked = useRef(new Set<string>());

  useEffect(() => {
    for (const c of citations) {
      if (asked.current.has(c.chunkId)) continue;
      asked.current.add(c.chunkId);
      // A passage that cannot be read shows its chip alone: the answer does not depend on it.
      json<ChunkRecord>(`/v1/chunks/${encodeURIComponent(c.chunkId)}`)
        .then((chunk) => setChunks((m) => ({ ...m, [c.chunkId]: chunk })))
        .catch(() => undefined);
    }
  }, [citations]);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setRunId(null);
    setSteps([]);
    setText('');
    setCitations([]);
    setAnswer(null);
    setError(null);
    setFeedback(null);
    // Each question reads its passages afresh (a re-ingested document may have changed them).
    asked.current = new Set();
    setChunks({});
    try {
      await ask({ query, ...(asOf ? { asOf } : {}) }, (ev) => {
        if (ev.event === 'run') setRunId(ev.data.runId);
        else if (ev.event === 'node') setSteps((s) => [...s, { node: ev.data.node, ms: ev.data.ms }]);
        else if (ev.event === 'delta') setText((t) => t + ev.data.text);
        else if (ev.event === 'citations') setCitations(ev.data.citations);
        else if (ev.event === 'done') {
          setAnswer(ev.data.answer);
          setText(ev.data.answer.text);
          setCitations(ev.data.answer.citations);
          setRunId(ev.data.runId);
        } else if (ev.event === 'error') setError(`${ev.data.error.code}: ${ev.data.error.message}`);
      });
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function sendFeedback(helpful: boolean) {
    if (!runId) return;
    try {
      const useful = helpful ? citations.map((c) => c.chunkId) : [];
      await json(`/v1/runs/${runId}/feedback`, { useful, verdict: helpful ? 'useful' : 'not_useful' });
      setFeedback({ text: helpful ? 'Thanks: the cited passages will rank higher for similar questions.' : 'Thanks: noted as not helpful.', kind: 'ok' });
    } catch (err) {
      setFeedback({ text: `Feedback failed: ${err instanceof ApiError ? `${err.code}: ${err.message}` : String(err)}`, kind: 'error' });
    }
  }

  return (
    <section class="page ask">
      <form class="card ask-form" onSubmit={submit}>
        <textarea name="query" rows={2} placeholder="Ask a question about your documents…" value={query} onInput={(e) => setQuery(e.currentTarget.value)} required />
        <div class="row">
          <label>
            As of <input type="date" name="asOf" value={asOf} onInput={(e) => setAsOf(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Asking…' : 'Ask'}
          </button>
        </div>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {(text || answer) && (
        <article class="card answer" data-testid="answer" data-done={answer ? 'true' : 'false'}>
          {/* The answer first: the sentence a reader came for, then where it comes from. */}
          <p class="answer-text" data-testid="answer-text">
            {text}
          </p>
          {answer && !answer.validated && <p class="muted">Not validated: {answer.verdict}</p>}
          {citations.length > 0 && (
            <ol class="passages" data-testid="citations" aria-label="Cited passages">
              {citations.map((c) => (
                <li class="passage" key={c.n} data-chunk-id={c.chunkId}>
                  <button class="chip" onClick={() => setOpen(c)} title="Open the page">
                    <b>[{c.n}] {c.title}</b> {c.sectionPath && <span>{c.sectionPath}</span>} <span>{pagesLabel(c.pages)}</span> {validity(c) && <span class="muted">{validity(c)}</span>}
                  </button>
                  <PassageBody citation={c} chunk={chunks[c.chunkId]} />
                </li>
              ))}
            </ol>
          )}
          {answer && (
            <div class="row feedback">
              <button onClick={() => sendFeedback(true)}>Helpful</button>
              <button onClick={() => sendFeedback(false)}>Not helpful</button>
              {role === 'admin' && <a href={`#/trace/${encodeURIComponent(answer.runId)}`}>Trace of this run</a>}
            </div>
          )}
          {feedback && (
            <p class={`notice ${feedback.kind}`} data-testid="feedback" role={feedback.kind === 'error' ? 'alert' : undefined}>
              {feedback.text}
            </p>
          )}
        </article>
      )}
      {/* The run's steps: progress while it runs, below the answer once there is one. */}
      {steps.length > 0 && (
        <ol class="steps" data-testid="steps">
          {steps.map((s, i) => (
            <li key={i}>
              {s.node} <small>{Math.round(s.ms)} ms</small>
            </li>
          ))}
        </ol>
      )}
      {open && <PdfViewer citation={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
