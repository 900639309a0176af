import { useEffect, useState } from 'preact/hooks';
import { ApiError, json } from '../api.ts';

interface Step {
  node: string;
  ms: number;
  data: Record<string, unknown>;
}
interface Trace {
  runId: string;
  lang: string;
  asOf: string | null;
  totalMs: number;
  steps: Step[];
  verdict: string;
  reason: string;
  loops: number;
}

type Row = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A chunk id as a table shows it: its first 8 characters (the whole id is the cell's tooltip). */
const shortId = (s: string) => (UUID.test(s) ? `${s.slice(0, 8)}…` : s);
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
/** One value for a person: numbers to 3 places, nested records (facet weights) as `key value` lists. */
function cell(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return '–';
  if (Array.isArray(v)) return v.map(cell).join(', ');
  const entries = Object.entries(v as Row);
  return entries.length ? entries.map(([k, x]) => (isRow(x) ? `${k} (${cell(x)})` : `${k} ${cell(x)}`)).join(', ') : '–';
}

/** A step's data: scalars as a line, lists of records (branches, top candidates) as small tables. */
function StepData({ data }: { data: Record<string, unknown> }) {
  const entries = Object.entries(data);
  const scalars = entries.filter(([, v]) => !Array.isArray(v) || !v.every(isRow));
  const tables = entries.filter(([, v]) => Array.isArray(v) && v.length > 0 && v.every(isRow)) as [string, Row[]][];
  return (
    <>
      {scalars.length > 0 && (
        <p class="terms">
          {scalars.map(([k, v]) => (
            <span key={k}>
              {k}: {cell(v)}{' '}
            </span>
          ))}
        </p>
      )}
      {tables.map(([k, rows]) => {
        const cols = [...new Set(rows.flatMap((r) => Object.keys(r).filter((c) => !isRow(r[c]) && !Array.isArray(r[c]))))];
        return (
          <div class="scroll" key={k}>
            <b>{k}</b>
            <table>
              <thead>
                <tr>
                  {cols.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, 10).map((r, i) => (
                  <tr key={i}>
                    {cols.map((c) => {
                      const v = r[c];
                      return (
                        <td key={c} title={typeof v === 'string' && UUID.test(v) ? v : undefined}>
                          {typeof v === 'string' ? shortId(v) : cell(v)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
    </>
  );
}

export function TracePage({ runId }: { runId: string }) {
  const [id, setId] = useState(runId);
  const [trace, setTrace] = useState<Trace | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function load(run: string) {
    setError(null);
    setTrace(null);
    try {
      setTrace(await json<Trace>(`/debug/trace/${encodeURIComponent(run)}`));
    } catch (err) {
      setError(err instanceof ApiError ? (err.status === 403 ? 'Traces need an admin key.' : `${err.code}: ${err.message}`) : String(err));
    }
  }
  useEffect(() => {
    setId(runId);
    if (runId) void load(runId);
  }, [runId]);
  return (
    <section class="page trace">
      <form class="card row" onSubmit={(e) => (e.preventDefault(), (location.hash = `#/trace/${encodeURIComponent(id.trim())}`))}>
        <input name="runId" placeholder="run id" value={id} onInput={(e) => setId(e.currentTarget.value)} required />
        <button type="submit">Open trace</button>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      {trace && (
        <div data-testid="trace">
          <p class="card">
            Verdict <b>{trace.verdict}</b> ({trace.reason}) · {trace.loops} loop(s) · {Math.round(trace.totalMs)} ms · lang {trace.lang}
            {trace.asOf ? ` · as of ${trace.asOf}` : ''}
          </p>
          <ol class="trace-steps">
            {trace.steps.map((s, i) => (
              <li class="card" key={i}>
                <div class="row">
                  <b>{s.node}</b>
                  <span class="muted">{Math.round(s.ms)} ms</span>
                </div>
                <StepData data={s.data} />
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
