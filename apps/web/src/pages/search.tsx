import { useState } from 'preact/hooks';
import { ApiError, json } from '../api.ts';

/** A hit of `POST /v1/search` (the MCP search tool's result). */
interface Hit {
  rank: number;
  chunkId: string;
  docId: string;
  title: string | null;
  sectionPath: string;
  pages: { start: number; end: number };
  validFrom: string | null;
  validTo: string | null;
  scores: { fused: number; keyword: number; vector: number };
  text: string;
}

const f3 = (n: number) => n.toFixed(3);
/** A facet box as the API's list: comma-separated values, blanks dropped; none: no filter. */
const list = (s: string) => s.split(',').map((v) => v.trim()).filter(Boolean);
/** How much of a passage a hit shows. */
const SNIPPET_CHARS = 320;

export function SearchPage() {
  const [form, setForm] = useState({ query: '', alpha: '0.5', docType: '', jurisdiction: '', lang: '', asOf: '' });
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });

  async function submit(e: Event) {
    e.preventDefault();
    setError(null);
    const filters: Record<string, unknown> = {};
    for (const k of ['docType', 'jurisdiction', 'lang'] as const) if (list(form[k]).length) filters[k] = list(form[k]);
    if (form.asOf) filters.asOf = form.asOf;
    const body = { query: form.query, alpha: Number(form.alpha), limit: 20, ...(Object.keys(filters).length ? { filters } : {}) };
    try {
      setHits((await json<{ hits: Hit[] }>('/v1/search', body)).hits);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    }
  }

  return (
    <section class="page search">
      <form class="card" onSubmit={submit}>
        <input name="query" placeholder="Search passages…" value={form.query} onInput={set('query')} required />
        <div class="row wrap">
          <label>
            alpha {form.alpha} <input type="range" name="alpha" min="0" max="1" step="0.05" value={form.alpha} onInput={set('alpha')} />
          </label>
          <input name="docType" placeholder="doc types (policy, law)" value={form.docType} onInput={set('docType')} />
          <input name="jurisdiction" placeholder="jurisdiction" value={form.jurisdiction} onInput={set('jurisdiction')} />
          <input name="lang" placeholder="languages (en, ko)" value={form.lang} onInput={set('lang')} />
          <label>
            valid on <input type="date" name="asOf" value={form.asOf} onInput={set('asOf')} />
          </label>
          <button type="submit">Search</button>
        </div>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {hits && hits.length === 0 && <p class="muted">No hits.</p>}
      {hits && hits.length > 0 && (
        <ol class="hits" data-testid="hits">
          {hits.map((h) => (
            <li class="card" key={h.chunkId}>
              <div class="row">
                <b>{h.sectionPath}</b>
                <span class="muted">
                  {h.title ?? h.docId} · p. {h.pages.start}
                  {h.pages.end !== h.pages.start ? `–${h.pages.end}` : ''}
                </span>
              </div>
              <p>
                {h.text.replace(/\s+/g, ' ').slice(0, SNIPPET_CHARS)}
                {h.text.length > SNIPPET_CHARS ? '…' : ''}
              </p>
              <p class="terms">
                score {f3(h.scores.fused)} · keyword {f3(h.scores.keyword)} · vector {f3(h.scores.vector)}
                {h.validFrom || h.validTo ? ` · valid ${h.validFrom ?? '…'} → ${h.validTo ?? '…'}` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
