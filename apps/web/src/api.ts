/** The gateway's HTTP API as the web app uses it: the key, JSON calls, and the streamed answer. */
import { healthOfAnswer, reportUnhealthy } from './health.ts';
import { parseSse } from './sse.ts';
// The API's own types, not copies: type-only imports, erased from the bundle (no zod in the page).
import type { Citation } from '../../../shared/runs/index.ts';
import type { Box, DocTable, TableCell, TableRow } from '../../../shared/domain/index.ts';

const KEY_ITEM = 'quarry.apiKey';

/** The key kept for this browser session (sessionStorage: gone when the tab closes). */
export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY_ITEM, key);
  else sessionStorage.removeItem(KEY_ITEM);
}

/** An error answer of the gateway: its HTTP status, code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Listeners told when the gateway refuses the key, so the app can ask for another. */
const keyRefused = new Set<(e: ApiError) => void>();
export function onKeyRefused(fn: (e: ApiError) => void): () => void {
  keyRefused.add(fn);
  return () => keyRefused.delete(fn);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = storedKey();
  return key ? { ...extra, authorization: `Bearer ${key}` } : extra;
}

async function failure(res: Response): Promise<ApiError> {
  let code = `HTTP_${res.status}`;
  let message = res.statusText || 'request failed';
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) code = body.error.code;
    if (body.error?.message) message = body.error.message;
  } catch {
    // Not JSON: keep the status line.
  }
  const err = new ApiError(res.status, code, message);
  if (res.status === 401) keyRefused.forEach((fn) => fn(err));
  return err;
}

/** The code of an ApiError for a request that got no answer at all (gateway down, network gone). */
export const UNREACHABLE = 'UNREACHABLE';

/**
 * Sends a request with the session's key; a non-2xx answer throws an ApiError. An answer that
 * shows an outage (503 REDIS_UNAVAILABLE, or none at all) is reported to `health.ts` too.
 * @throws ApiError with the gateway's code, or {@link UNREACHABLE} (status 0) without an answer.
 */
export async function call(path: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: headers((init.headers as Record<string, string> | undefined) ?? {}) });
  } catch (err) {
    // fetch rejects only when no answer came: the gateway (or the network to it) is down.
    reportUnhealthy('unreachable');
    throw new ApiError(0, UNREACHABLE, `the gateway did not answer (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!res.ok) {
    const err = await failure(res);
    const health = healthOfAnswer(err.status, err.code);
    if (health) reportUnhealthy(health);
    throw err;
  }
  return res;
}

/** What a key may do: `query` asks, searches and reads; `admin` also uploads, retries, deletes and reads traces. */
export type Role = 'query' | 'admin';

/** The role of the session's key (`GET /v1/whoami`, which needs no Redis: it answers during an outage). */
export async function whoami(): Promise<Role> {
  return (await json<{ role: Role }>('/v1/whoami')).role;
}

/** JSON in, JSON out. */
export async function json<T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  return (await (await call(path, init)).json()) as T;
}


export type { Citation, DocTable, TableCell, TableRow };
/** A rectangle on a page in PDF points: `[x, y, width, height]`, `y` the baseline (origin bottom-left). */
export type PdfBox = Box;
/** The table cell a figure was read from: its row (label path, "Net sales > Total net sales"), column header, text as printed. */
export type CitedCell = NonNullable<Citation['cell']>;

/** A chunk as `GET /v1/chunks/:id` gives it: its text and, when it holds one, its table. */
export interface ChunkRecord {
  chunkId: string;
  docId: string;
  sectionPath: string;
  pages: { start: number; end: number };
  body: string;
  table?: DocTable;
}

export interface Answer {
  runId: string;
  text: string;
  citations: Citation[];
  dateQualifier: string | null;
  validated: boolean;
  verdict: string;
}

/** One event of a streamed answer (the SSE contract of `POST /v1/query`). */
export type StreamEvent =
  | { event: 'run'; data: { runId: string } }
  | { event: 'node'; data: { node: string; ms: number; data?: Record<string, unknown> } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'citations'; data: { citations: Citation[] } }
  | { event: 'done'; data: { runId: string; state: 'completed'; answer: Answer } }
  | { event: 'error'; data: { error: { code: string; message: string } } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks a question and reports the answer as it streams. A gateway that answers JSON instead of a
 * stream (older servers) still works: its record is replayed as the same events.
 */
export async function ask(body: { query: string; asOf?: string }, on: (e: StreamEvent) => void): Promise<void> {
  const res = await call('/v1/query', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'text/event-stream' } });
  if (res.headers.get('content-type')?.includes('text/event-stream') && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const parsed = parseSse(buffer + value);
      buffer = parsed.rest;
      for (const e of parsed.events) on({ event: e.event, data: JSON.parse(e.data) } as StreamEvent);
    }
    return;
  }
  let record = (await res.json()) as { runId: string; state: string; answer?: Answer; error?: { code: string; message: string } };
  on({ event: 'run', data: { runId: record.runId } });
  while (record.state === 'queued' || record.state === 'running') {
    await sleep(500);
    record = await json(`/v1/runs/${record.runId}`);
  }
  if (record.answer) {
    on({ event: 'delta', data: { text: record.answer.text } });
    on({ event: 'citations', data: { citations: record.answer.citations } });
    on({ event: 'done', data: { runId: record.runId, state: 'completed', answer: record.answer } });
  } else on({ event: 'error', data: { error: record.error ?? { code: 'FAILED', message: 'the run failed' } } });
}
