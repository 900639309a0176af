import path from 'node:path';
import { PermanentError } from '../errors.ts';
import { WEEK_MS } from '../memory/index.ts';
import { parseBucketUrl, type BucketLocation, type S3Settings } from './bucket-url.ts';
import { ConfigSchema, type RawConfig } from './env-schema.ts';

/** Config as the rest of Quarry sees it: derived paths resolved, names grouped. */
export interface Config {
  redisUrl: string;
  prefix: string;
  dataDir: string;
  watchDir: string;
  lancedbDir: string;
  artifactStore: { kind: 'local'; dir: string } | { kind: 's3'; location: BucketLocation };
  /** How to reach S3 (the artifact bucket, the watched bucket). */
  s3: S3Settings;
  /** The watched bucket, when set (else the watched folder). */
  watchBucket: { location: BucketLocation; pollMs: number } | null;
  vectorStore: VectorStoreSettings;
  embedder: {
    provider: RawConfig['EMBEDDER'];
    model: string;
    dimension: number;
    baseUrl?: string;
    apiKey?: string;
    batchSize: number;
  };
  extract: { maxBytes: number; maxPages: number; timeoutMs: number; maxHeapMb: number; maxRssMb: number; splitMinBytes: number };
  worker: { concurrency: number; /** WORKER_NICE: 0 leaves the process as it started. */ nice: number; lockMs: number; healthPort: number; shutdownGraceMs: number };
  /** The reconciler's period (0: off) and the age a status record must reach before it acts. */
  reconcile: { intervalMs: number; graceMs: number };
  facets: { rebuildDebounceMs: number };
  logLevel: RawConfig['LOG_LEVEL'];
  watchPoll: boolean;
  memory: { halfLifeMs: number; pruneBelow: number };
  gateway: { host: string; port: number; apiKeys: string[]; adminKeys: string[]; queryTimeoutMs: number; maxUploadBytes: number; traceTtlSeconds: number; traceMaxCount: number; rateLimitPerMin: number };
  reranker: { kind: RawConfig['RERANKER']; url?: string; model?: string; apiKey?: string };
  llm: { provider: RawConfig['LLM']; model: string; baseUrl?: string; apiKey?: string };
  retrieval: { alphaScale: number };
}

/** Which vector store, and how to reach it (`createVectorStore` takes this as it is). */
export type VectorStoreSettings =
  | {
      kind: 'lancedb';
      dir: string;
      vectorIndex: { minRows: number; maxSegments: number };
      flatSearchCutoff: number;
      searchLagMs: number;
      refreshPacing: { minIntervalMs: number; maxShare: number };
      recentRefreshIntervalMs: number;
      commitLingerMs: number;
      searchIdleAfterMs: number;
      foldAfter: { rows: number; ms: number };
    }
  | {
      kind: 'weaviate';
      url: string;
      grpcUrl?: string;
      apiKey?: string;
      collectionPrefix: string;
      bodyTokenization: RawConfig['WEAVIATE_BODY_TOKENIZATION'];
      batchSize: number;
    };

/** The vector side's trust when HYBRID_ALPHA_SCALE is unset: full for models, low for `hash`. */
export const DEFAULT_ALPHA_SCALE = { hash: 0.2, openai: 1 } as const;

const keyList = (raw: string) => raw.split(',').map((k) => k.trim()).filter(Boolean);

/** Thrown at start-up; the message names every bad variable. */
export class ConfigError extends PermanentError {
  constructor(readonly problems: string[]) {
    super('INVALID_CONFIG', `invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Reads and validates the environment once; call it in `main`, never at import time.
 * @throws ConfigError naming every invalid variable at once.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const known = Object.fromEntries(
    Object.keys(ConfigSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = ConfigSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}=${JSON.stringify(known[String(i.path[0])] ?? null)}: ${i.message}`),
    );
  }
  const c = parsed.data;
  const problems: string[] = [];
  if (c.EMBEDDER === 'openai' && !c.EMBED_BASE_URL && !c.EMBED_API_KEY) {
    problems.push('EMBED_API_KEY: required when EMBEDDER=openai talks to api.openai.com (or set EMBED_BASE_URL)');
  }
  if (c.RERANKER !== 'lexical' && !c.RERANKER_URL) problems.push(`RERANKER_URL: required when RERANKER=${c.RERANKER}`);
  if (c.LLM === 'openai' && !c.LLM_BASE_URL && !c.LLM_API_KEY) problems.push('LLM_API_KEY: required when LLM=openai talks to api.openai.com (or set LLM_BASE_URL)');
  if (c.VECTOR_STORE === 'weaviate' && !c.WEAVIATE_URL) problems.push('WEAVIATE_URL: required when VECTOR_STORE=weaviate');
  const bucket = (variable: 'ARTIFACT_BUCKET' | 'WATCH_BUCKET', url: string | undefined): BucketLocation | null => {
    if (url === undefined) return null;
    try {
      return parseBucketUrl(url, variable);
    } catch (err) {
      problems.push(`${variable}=${JSON.stringify(url)}: ${(err as Error).message}`);
      return null;
    }
  };
  const artifactBucket = bucket('ARTIFACT_BUCKET', c.ARTIFACT_BUCKET);
  const watchBucket = bucket('WATCH_BUCKET', c.WATCH_BUCKET);
  if (c.ARTIFACT_STORE === 's3' && c.ARTIFACT_BUCKET === undefined) problems.push('ARTIFACT_BUCKET: required when ARTIFACT_STORE=s3');
  if ((c.S3_ACCESS_KEY_ID === undefined) !== (c.S3_SECRET_ACCESS_KEY === undefined)) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  if (problems.length) throw new ConfigError(problems);
  const dataDir = path.resolve(cwd, c.QUARRY_DATA_DIR);
  return {
    redisUrl: c.REDIS_URL,
    prefix: c.QUARRY_PREFIX,
    dataDir,
    watchDir: path.resolve(cwd, c.QUARRY_WATCH_DIR),
    lancedbDir: path.join(dataDir, 'lancedb'),
    artifactStore: c.ARTIFACT_STORE === 's3' && artifactBucket ? { kind: 's3', location: artifactBucket } : { kind: 'local', dir: path.join(dataDir, 'artifacts') },
    s3: {
      endpoint: c.S3_ENDPOINT,
      region: c.S3_REGION,
      accessKeyId: c.S3_ACCESS_KEY_ID,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY,
      forcePathStyle: c.S3_FORCE_PATH_STYLE ?? c.S3_ENDPOINT !== undefined,
    },
    watchBucket: watchBucket ? { location: watchBucket, pollMs: c.WATCH_BUCKET_POLL_MS } : null,
    vectorStore:
      c.VECTOR_STORE === 'weaviate'
        ? {
            kind: 'weaviate',
            url: c.WEAVIATE_URL as string,
            grpcUrl: c.WEAVIATE_GRPC_URL,
            apiKey: c.WEAVIATE_API_KEY,
            collectionPrefix: c.WEAVIATE_COLLECTION_PREFIX,
            bodyTokenization: c.WEAVIATE_BODY_TOKENIZATION,
            batchSize: c.WEAVIATE_BATCH_SIZE,
          }
        : {
            kind: 'lancedb',
            dir: path.join(dataDir, 'lancedb'),
            vectorIndex: { minRows: c.LANCEDB_VECTOR_INDEX_MIN_ROWS, maxSegments: c.LANCEDB_VECTOR_INDEX_MAX_SEGMENTS },
            flatSearchCutoff: c.LANCEDB_FLAT_SEARCH_CUTOFF,
            searchLagMs: c.LANCEDB_SEARCH_LAG_MS,
            refreshPacing: { minIntervalMs: c.LANCEDB_REFRESH_MIN_INTERVAL_MS, maxShare: c.LANCEDB_REFRESH_MAX_SHARE },
            recentRefreshIntervalMs: c.LANCEDB_RECENT_REFRESH_MIN_INTERVAL_MS,
            commitLingerMs: c.LANCEDB_COMMIT_LINGER_MS,
            searchIdleAfterMs: c.LANCEDB_SEARCH_IDLE_AFTER_MS,
            foldAfter: { rows: c.LANCEDB_FOLD_AFTER_ROWS, ms: c.LANCEDB_FOLD_AFTER_MS },
          },
    embedder: {
      provider: c.EMBEDDER,
      model: c.EMBEDDER === 'hash' ? `hash-${c.EMBED_DIMENSION}` : c.EMBED_MODEL,
      dimension: c.EMBED_DIMENSION,
      baseUrl: c.EMBED_BASE_URL,
      apiKey: c.EMBED_API_KEY,
      batchSize: c.EMBED_BATCH_SIZE,
    },
    extract: {
      maxBytes: c.MAX_PDF_BYTES,
      maxPages: c.MAX_PDF_PAGES,
      timeoutMs: c.EXTRACT_TIMEOUT_MS,
      maxHeapMb: c.EXTRACT_MAX_HEAP_MB,
      maxRssMb: c.EXTRACT_MAX_RSS_MB,
      splitMinBytes: c.EXTRACT_SPLIT_MIN_BYTES,
    },
    worker: { concurrency: c.WORKER_CONCURRENCY, nice: c.WORKER_NICE, lockMs: c.WORKER_LOCK_MS, healthPort: c.HEALTH_PORT, shutdownGraceMs: c.WORKER_SHUTDOWN_GRACE_MS },
    reconcile: { intervalMs: c.RECONCILE_INTERVAL_MS, graceMs: c.RECONCILE_GRACE_MS },
    facets: { rebuildDebounceMs: c.FACET_REBUILD_DEBOUNCE_MS },
    logLevel: c.LOG_LEVEL,
    watchPoll: c.WATCH_POLL,
    memory: { halfLifeMs: Math.round(c.MEMORY_HALF_LIFE_WEEKS * WEEK_MS), pruneBelow: c.MEMORY_PRUNE_BELOW },
    gateway: {
      host: c.GATEWAY_HOST,
      port: c.GATEWAY_PORT,
      apiKeys: keyList(c.QUARRY_API_KEYS),
      adminKeys: keyList(c.QUARRY_ADMIN_KEYS),
      queryTimeoutMs: c.QUERY_TIMEOUT_MS,
      maxUploadBytes: c.MAX_UPLOAD_BYTES,
      traceTtlSeconds: c.TRACE_TTL_SECONDS,
      traceMaxCount: c.TRACE_MAX_COUNT,
      rateLimitPerMin: c.RATE_LIMIT_PER_MIN,
    },
    reranker: { kind: c.RERANKER, url: c.RERANKER_URL, model: c.RERANKER_MODEL, apiKey: c.RERANKER_API_KEY },
    llm: { provider: c.LLM, model: c.LLM_MODEL, baseUrl: c.LLM_BASE_URL, apiKey: c.LLM_API_KEY },
    retrieval: { alphaScale: c.HYBRID_ALPHA_SCALE ?? DEFAULT_ALPHA_SCALE[c.EMBEDDER] },
  };
}
