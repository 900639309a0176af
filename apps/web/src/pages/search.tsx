import { useState } from 'preact/hooks';
import { ApiError, json } from '../api.ts';

interface Hit {
  chunkId: string;
  docId: string;
  sectionPath: string;
  pages: { start: number; end: number };
  docType: string | null;
  jurisdiction: string | null;
  lang: string | null;
  score: number;
  terms: { keyword: number; vector: number; bm25: number | null; cosine: number | null };
  snippet: string;
}

const f3 = (n: number | null) => (n === null ? '–' : n.toFixed(3));

export function SearchPage() {
  const [form, setForm] = useState({ query: '', alpha: '0.5', docType: '', jurisdiction: '', lang: '', asOf: '' });
  const [hits, setHits] = useState<Hit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });

  async function submit(e: Event) {
    e.preventDefault();
    setError(null);
    const body: Record<string, unknown> = { query: form.query, alpha: Number(form.alpha), limit: 20 };
    for (const k of ['docType', 'jurisdiction', 'lang', 'asOf'] as const) if (form[k].trim()) body[k] = form[k].trim();
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
          <input name="docType" placeholder="doc type" value={form.docType} onInput={set('docType')} />
          <input name="jurisdiction" placeholder="jurisdiction" value={form.jurisdiction} onInput={set('jurisdiction')} />
          <input name="lang" placeholder="language (en, ko)" value={form.lang} onInput={set('lang')} />
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
                  {h.docId} · p. {h.pages.start}
                  {h.pages.end !== h.pages.start ? `–${h.pages.end}` : ''}
                </span>
              </div>
              <p>{h.snippet}</p>
              <p class="terms">
                score {f3(h.score)} · keyword {f3(h.terms.keyword)} (bm25 {f3(h.terms.bm25)}) · vector {f3(h.terms.vector)} (cos {f3(h.terms.cosine)}) {[h.docType, h.jurisdiction, h.lang].filter(Boolean).join(' · ')}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
