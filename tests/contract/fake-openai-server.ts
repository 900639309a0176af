import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server should do with the next requests (tests flip these between calls). */
export interface FakeBehaviour {
  /** Answer with this HTTP status and an OpenAI-shaped error body. */
  status?: number;
  /** Drop this many embeddings from the answer. */
  dropItems?: number;
  /** Answer vectors of this length instead of the asked/default dimension. */
  dimensionOverride?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer the items in reverse order (each still carries its `index`). */
  reverse?: boolean;
}

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; input: string[] | string; encoding_format?: string; dimensions?: number };
}

export interface FakeOpenAiServer {
  /** Base URL including `/v1`. */
  baseURL: string;
  requests: RecordedRequest[];
  behaviour: FakeBehaviour;
  close(): Promise<void>;
}

/**
 * A deterministic, NOT normalised vector for `text`: sha256-seeded values in [-1, 1] scaled by 3,
 * so adapters are seen to normalise.
 */
export function fakeVector(text: string, dimension: number): number[] {
  const out: number[] = [];
  let block = createHash('sha256').update(text).digest();
  for (let i = 0; i < dimension; i++) {
    if (i > 0 && i % 16 === 0) block = createHash('sha256').update(block).digest();
    out.push(((block.readUInt16BE((i % 16) * 2) / 65535) * 2 - 1) * 3);
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Starts a local server on 127.0.0.1 (random port) speaking the `/v1/embeddings` shape. */
export async function startFakeOpenAiServer(defaultDimension: number): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const behaviour: FakeBehaviour = {};
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const send = (status: number, payload: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') return send(404, { error: { message: 'not found' } });
      const body = JSON.parse(raw) as RecordedRequest['body'];
      requests.push({ path: req.url, authorization: req.headers.authorization, body });
      if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
      if (behaviour.status) {
        return send(behaviour.status, { error: { message: `fake ${behaviour.status}`, type: 'fake', code: null } });
      }
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const dimension = behaviour.dimensionOverride ?? body.dimensions ?? defaultDimension;
      let data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimension) }));
      if (behaviour.dropItems) data = data.slice(0, Math.max(0, data.length - behaviour.dropItems));
      if (behaviour.reverse) data = data.reverse();
      send(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
