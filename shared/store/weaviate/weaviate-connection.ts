/**
 * Connection settings of the Weaviate store and the one client instance a process uses.
 */
import weaviate, { ApiKey, type ConnectToCustomOptions, type WeaviateClient } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import { classifyWeaviateError } from './weaviate-errors.ts';

export interface WeaviateConnectionOptions {
  /** HTTP endpoint, e.g. `http://127.0.0.1:8080` or `https://x.weaviate.cloud`. */
  url: string;
  /** gRPC endpoint `host:port`. @defaultValue the HTTP host, port 50051 (443 when the URL is https) */
  grpcUrl?: string;
  apiKey?: string;
  /** Per-request timeouts, seconds. @defaultValue { query: 30, insert: 90, init: 10 } */
  timeoutSeconds?: { query?: number; insert?: number; init?: number };
}

/**
 * Client options for a URL pair.
 * @throws PermanentError `INVALID_CONFIG` for a URL that cannot be parsed.
 */
export function connectOptions(opts: WeaviateConnectionOptions): ConnectToCustomOptions {
  let http: URL;
  try {
    http = new URL(opts.url);
  } catch {
    throw new PermanentError('INVALID_CONFIG', `WEAVIATE_URL is not a URL: ${opts.url}`);
  }
  if (http.protocol !== 'http:' && http.protocol !== 'https:') throw new PermanentError('INVALID_CONFIG', `WEAVIATE_URL must be http(s), got ${opts.url}`);
  const httpSecure = http.protocol === 'https:';
  const httpPort = http.port ? Number(http.port) : httpSecure ? 443 : 80;
  let grpcHost = http.hostname;
  let grpcPort = httpSecure ? 443 : 50051;
  if (opts.grpcUrl) {
    const m = /^(?:grpcs?:\/\/)?\[?([^\]]+?)\]?:(\d+)$/.exec(opts.grpcUrl.trim());
    if (!m) throw new PermanentError('INVALID_CONFIG', `WEAVIATE_GRPC_URL must be host:port, got ${opts.grpcUrl}`);
    grpcHost = m[1] as string;
    grpcPort = Number(m[2]);
  }
  const path = http.pathname.replace(/\/+$/, '');
  return {
    httpHost: http.hostname,
    httpPort,
    httpSecure,
    ...(path ? { httpPath: path } : {}),
    grpcHost,
    grpcPort,
    grpcSecure: httpSecure,
    ...(opts.apiKey ? { authCredentials: new ApiKey(opts.apiKey) } : {}),
    timeout: { query: opts.timeoutSeconds?.query ?? 30, insert: opts.timeoutSeconds?.insert ?? 90, init: opts.timeoutSeconds?.init ?? 10 },
  };
}

/**
 * Connects (the client checks the server is live and speaks gRPC).
 * @throws RetryableError `STORE_UNAVAILABLE` when the server cannot be reached.
 */
export async function connectWeaviate(opts: WeaviateConnectionOptions): Promise<WeaviateClient> {
  const options = connectOptions(opts);
  try {
    return await weaviate.connectToCustom(options);
  } catch (err) {
    throw classifyWeaviateError(err, `connect ${opts.url}`);
  }
}
