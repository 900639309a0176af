import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RerankShape } from '../../shared/retrieval/http-reranker.ts';

/** What the fake should do with the next requests (tests flip these between calls). */
export interface FakeRerankBehaviour {
  /** Answer with this HTTP status and an error body. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer logits (score · 10 − 5) instead of probabilities. */
  logits?: boolean;
  /** Leave the last document out of the answer. */
  dropLast?: boolean;
  /** Answer an index that does not exist. */
  badIndex?: boolean;
  /** Answer 200 with a body that is not JSON. */
  garbage?: boolean;
}

export interface RecordedRerankRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface FakeRerankServer {
  /** Base URL (no path). */
  url: string;
  requests: RecordedRerankRequest[];
  behaviour: FakeRerankBehaviour;
  close(): Promise<void>;
}

function bigrams(text: string): Set<string> {
  const s = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const out = new Set<string>();
  for (let i = 0; i + 1 < s.length; i += 1) out.add(s.slice(i, i + 2));
  return out;
}

/** The fake cross-encoder: share of the query's character bigrams the document has, in [0, 1]. */
export function fakeRelevance(query: string, doc: string): number {
  const q = bigrams(query);
  if (q.size === 0) return 0;
  const d = bigrams(doc);
  let hit = 0;
  for (const g of q) if (d.has(g)) hit += 1;
  return hit / q.size;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * A local rerank server on 127.0.0.1 (random port) speaking one `shape`: TEI at `POST /rerank`
 * (`{query, texts}` → `[{index, score}]`), Cohere and Jina at `POST /v1/rerank`
 * (`{query, documents}` → `{results: [{index, relevance_score}]}`), best first like the real ones.
 */
export async function startFakeRerankServer(shape: RerankShape): Promise<FakeRerankServer> {
  const requests: RecordedRerankRequest[] = [];
  const behaviour: FakeRerankBehaviour = {};
  const path = shape === 'tei' ? '/rerank' : '/v1/rerank';
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const send = (status: number, payload: unknown, asText = false) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': asText ? 'text/plain' : 'application/json' });
        res.end(asText ? String(payload) : JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== path) return send(404, { error: 'not found' });
      const body = JSON.parse(raw) as Record<string, unknown>;
      requests.push({ path: req.url, authorization: req.headers.authorization, body });
      if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
      if (behaviour.status) return send(behaviour.status, { error: `fake ${behaviour.status}`, message: `fake ${behaviour.status}` });
      if (behaviour.garbage) return send(200, '<html>oops</html>', true);
      const query = String(body.query ?? '');
      const texts = (shape === 'tei' ? body.texts : body.documents) as string[];
      let scored = texts.map((t, index) => ({ index, score: fakeRelevance(query, t) }));
      if (behaviour.logits) scored = scored.map((s) => ({ ...s, score: s.score * 10 - 5 }));
      if (behaviour.dropLast) scored = scored.slice(0, -1);
      if (behaviour.badIndex) scored = [...scored, { index: texts.length + 3, score: 0.5 }];
      scored.sort((a, b) => b.score - a.score || a.index - b.index);
      if (shape === 'tei') return send(200, scored);
      return send(200, { model: body.model ?? 'fake', results: scored.map((s) => ({ index: s.index, relevance_score: s.score })), usage: { total_tokens: 1 } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
