import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Every environment variable Quarry reads, in one place. `.env.example` documents each one;
 * docs/configuration.md lists the same variables with the same descriptions.
 */
export const ConfigSchema = z.object({
  /** Redis for BullMQ, status records, locks and caches. @defaultValue redis://127.0.0.1:6379 */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').default('redis://127.0.0.1:6379'),
  /** Key prefix for every Redis key and BullMQ queue, so several Quarry installs can share a Redis. @defaultValue quarry */
  QUARRY_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, "-" and "_" only').default('quarry'),
  /** Where the embedded defaults keep their data (artifacts, LanceDB). @defaultValue .quarry */
  QUARRY_DATA_DIR: z.string().min(1).default('.quarry'),
  /** The watched folder: PDFs dropped here are ingested, removed ones deleted. @defaultValue inbox */
  QUARRY_WATCH_DIR: z.string().min(1).default('inbox'),
  /** Artifact store: `local` keeps stage outputs under QUARRY_DATA_DIR/artifacts; `s3` in ARTIFACT_BUCKET (shared by pods). @defaultValue local */
  ARTIFACT_STORE: z.enum(['local', 's3']).default('local'),
  /** Bucket and prefix of the artifacts for ARTIFACT_STORE=s3, as s3://bucket/prefix. */
  ARTIFACT_BUCKET: z.string().optional(),
  /** Watch this bucket (s3://bucket/prefix) instead of QUARRY_WATCH_DIR: new or changed PDFs are ingested, removed ones deleted. */
  WATCH_BUCKET: z.string().optional(),
  /** How often the bucket watcher lists the bucket (event notifications at POST /v1/events/s3 need no poll). @defaultValue 30000 */
  WATCH_BUCKET_POLL_MS: int(1000, 86_400_000).default(30_000),
  /** S3-compatible endpoint (MinIO, Ceph, R2 …); unset for AWS S3. */
  S3_ENDPOINT: z.string().url().optional(),
  /** S3 region. @defaultValue us-east-1 */
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** S3 access key; unset to use the AWS default credential chain (environment, web identity, instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  /** S3 secret key. */
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style bucket URLs, as MinIO and most S3-compatible servers want. @defaultValue true when S3_ENDPOINT is set */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** Vector store: `lancedb` is embedded, under QUARRY_DATA_DIR/lancedb; `weaviate` is the server at WEAVIATE_URL. @defaultValue lancedb */
  VECTOR_STORE: z.enum(['lancedb', 'weaviate']).default('lancedb'),
  /** LanceDB: chunks from which the vectors get an HNSW index (below, search is an exact scan). @defaultValue 20000 */
  LANCEDB_VECTOR_INDEX_MIN_ROWS: int(1, 1_000_000_000).default(20_000),
  /** LanceDB: delta segments the vector index may gather from writes before it is rebuilt as one. @defaultValue 8 */
  LANCEDB_VECTOR_INDEX_MAX_SEGMENTS: int(1, 1000).default(8),
  /** LanceDB: a filtered search matching at most this many chunks scans them exactly instead of using the vector index. @defaultValue 20000 */
  LANCEDB_FLAT_SEARCH_CUTOFF: int(0, 1_000_000_000).default(20_000),
  /**
   * LanceDB: how long this process's searches may lag writes of OTHER processes, ms (its own are
   * searchable at once): Elasticsearch's refresh interval. 0 = every search checks for a newer
   * table version first. @defaultValue 1000
   */
  LANCEDB_SEARCH_LAG_MS: int(0, 3_600_000).default(1000),
  /**
   * LanceDB: the background full-text index refresh after writes (an optimize(), whose compaction
   * costs more as the table grows; writes do not wait for it) starts at least this long after the
   * previous one. @defaultValue 0 (back to back while writes come in)
   */
  LANCEDB_REFRESH_MIN_INTERVAL_MS: int(0, 60_000).default(0),
  /**
   * LanceDB: under steady writes, a commit of rows waits this long after the previous one began so
   * the documents arriving meanwhile share it (an idle store commits at once). @defaultValue 500
   */
  LANCEDB_COMMIT_LINGER_MS: int(0, 10_000).default(500),
  /**
   * LanceDB: a store no process searched for this long is search-idle, and the index refresh after
   * its writes waits for the next search, maintenance or close (a bulk load compacts the table once,
   * not after every commit); 0 = refresh after every write. @defaultValue 30000
   */
  LANCEDB_SEARCH_IDLE_AFTER_MS: int(0, 86_400_000).default(30_000),
  /**
   * LanceDB: the recent rows' index refresh starts at least this long after the previous one (and no
   * sooner than LANCEDB_REFRESH_MIN_INTERVAL_MS); searches scan the rows written meanwhile. @defaultValue 2000
   */
  LANCEDB_RECENT_REFRESH_MIN_INTERVAL_MS: int(0, 60_000).default(2_000),
  /** LanceDB: largest share of the time those refreshes may take under steady writes, in (0, 1]. @defaultValue 1 */
  LANCEDB_REFRESH_MAX_SHARE: z.coerce.number().gt(0).max(1).default(1),
  /**
   * LanceDB: a searched store folds its recent rows into the chunks table's full-text index once a
   * writing process has written this many rows since its last fold, or the first of them is
   * LANCEDB_FOLD_AFTER_MS old, and no sooner than three times the last fold's length after it (each
   * fold costs ~1–2 s of CPU at 100k chunks; see FOLD_AFTER in lance-state.ts). @defaultValue 1000, 10000
   */
  LANCEDB_FOLD_AFTER_ROWS: int(1, 10_000_000).default(1_000),
  LANCEDB_FOLD_AFTER_MS: int(0, 86_400_000).default(10_000),
  /** Weaviate HTTP endpoint for VECTOR_STORE=weaviate, e.g. http://127.0.0.1:8080. */
  WEAVIATE_URL: z.string().url().optional(),
  /** Weaviate gRPC endpoint `host:port`. @defaultValue WEAVIATE_URL's host, port 50051 (443 for https) */
  WEAVIATE_GRPC_URL: z.string().regex(/^(grpcs?:\/\/)?[^\s:/]+(:\d+)$|^\[[0-9a-fA-F:]+\]:\d+$/, 'host:port').optional(),
  /** Weaviate API key (Weaviate Cloud, or a server with API-key auth). */
  WEAVIATE_API_KEY: z.string().optional(),
  /** Prefix of Quarry's Weaviate collection names (`<prefix>Chunk` …), so several installs share a server. @defaultValue empty */
  WEAVIATE_COLLECTION_PREFIX: z.string().regex(/^([A-Z][A-Za-z0-9_]*)?$/, 'starts with A-Z; letters, digits and _ only').default(''),
  /** Tokenization of Chunk.body: `auto` uses kagome_kr when the server enables it, else trigram. @defaultValue auto */
  WEAVIATE_BODY_TOKENIZATION: z.enum(['auto', 'kagome_kr', 'trigram']).default('auto'),
  /** Objects per Weaviate batch request (200–1000). @defaultValue 500 */
  WEAVIATE_BATCH_SIZE: int(200, 1000).default(500),
  /** Embedder: `hash` needs no model; `openai` calls any OpenAI-compatible /embeddings endpoint. @defaultValue hash */
  EMBEDDER: z.enum(['hash', 'openai']).default('hash'),
  /** Embedding model name (for `openai`; `hash` names itself). @defaultValue text-embedding-3-small */
  EMBED_MODEL: z.string().min(1).default('text-embedding-3-small'),
  /** Vector dimension: the hash embedder's size, or the `dimensions` asked of an OpenAI-compatible model. @defaultValue 512 */
  EMBED_DIMENSION: int(8, 8192).default(512),
  /** Base URL of the OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, TEI). */
  EMBED_BASE_URL: z.string().url().optional(),
  /** API key for the embedding endpoint. */
  EMBED_API_KEY: z.string().optional(),
  /** Texts per embedding request. @defaultValue 64 */
  EMBED_BATCH_SIZE: int(1, 2048).default(64),
  /** PDFs larger than this fail with TOO_LARGE before parsing. @defaultValue 104857600 (100 MiB) */
  MAX_PDF_BYTES: int(1, 2 ** 31).default(100 * 1024 * 1024),
  /** PDFs with more pages fail with TOO_LARGE. @defaultValue 5000 */
  MAX_PDF_PAGES: int(1, 100_000).default(5000),
  /** Extraction of one PDF is stopped after this long at most (EXTRACT_TIMEOUT); smaller files get less CPU time: 10 s + 2 s/MiB + 0.25 s/page. @defaultValue 120000 */
  EXTRACT_TIMEOUT_MS: int(100, 3_600_000).default(120_000),
  /** V8 heap limit of each extraction child process, never above EXTRACT_MAX_RSS_MB (over it: TOO_LARGE). @defaultValue 1024 */
  EXTRACT_MAX_HEAP_MB: int(64, 16_384).default(1024),
  /**
   * Resident memory limit of each extraction child process in MB, pdf.js's decoded buffers
   * included (over it: killed, TOO_LARGE). An extract process holds up to WORKER_CONCURRENCY + 1
   * children, so (WORKER_CONCURRENCY + 1) × this + ~300 MB must fit the pod's memory limit.
   * @defaultValue 448
   */
  EXTRACT_MAX_RSS_MB: int(192, 65_536).default(448),
  /**
   * A PDF of at least this many bytes (and 32+ pages) has its pages read by WORKER_CONCURRENCY
   * extraction children at once, each a range; 0 never splits. Off by default: on a 352-page book
   * the split cost ~25% more extraction CPU and ~45 MB for no shorter drop-to-searchable
   * (docs/benchmarks.md, "One child a document"). @defaultValue 0
   */
  EXTRACT_SPLIT_MIN_BYTES: int(0, 1_000_000_000_000).default(0),
  /** Jobs one stage worker runs at once. @defaultValue 2 */
  WORKER_CONCURRENCY: int(1, 256).default(2),
  /**
   * Nice value a worker process gives itself (and its extraction children) at start, 0–19: on a
   * host where workers share cores with the gateway and agent (docker-compose, one VM), queries
   * then win the CPU while ingest runs. No effect between Kubernetes pods (each container has its
   * own cgroup; CPU requests weigh them). @defaultValue 0 (off)
   */
  WORKER_NICE: int(0, 19).default(0),
  /**
   * On SIGTERM, running jobs get this long to finish; then they are cancelled so they retry on
   * another worker. Keep it below the pod's terminationGracePeriodSeconds. @defaultValue 25000
   */
  WORKER_SHUTDOWN_GRACE_MS: int(0, 3_600_000).default(25_000),
  /** BullMQ lock duration: a job whose worker stops renewing it for this long is retried. @defaultValue 30000 */
  WORKER_LOCK_MS: int(1000, 600_000).default(30_000),
  /**
   * How often the reconciler (run by the process holding the watcher lease) repairs documents
   * whose status says queued/running with no live job, whose job failed unseen, or whose source
   * has no status record; 0 turns it off. @defaultValue 30000
   */
  RECONCILE_INTERVAL_MS: int(0, 86_400_000).default(30_000),
  /**
   * The reconciler leaves a document alone until its status record is this old (ms), so a job
   * merely between two stages is never enqueued twice. @defaultValue 60000
   */
  RECONCILE_GRACE_MS: int(1000, 86_400_000).default(60_000),
  /** After an upsert, facet-value vectors are rebuilt this long after the first request; requests meanwhile join it. @defaultValue 5000 */
  FACET_REBUILD_DEBOUNCE_MS: int(100, 3_600_000).default(5000),
  /** Port of the worker health endpoint (/healthz, /readyz); 0 turns it off. @defaultValue 0 */
  HEALTH_PORT: int(0, 65_535).default(0),
  /** Log level. @defaultValue info */
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Watch the folder by polling (network filesystems, containers). @defaultValue false */
  WATCH_POLL: bool.default(false),
  /** Half-life of a chunk's memory utility in weeks (4–8): a helpful answer counts half after this long. @defaultValue 6 */
  MEMORY_HALF_LIFE_WEEKS: z.coerce.number().min(4).max(8).default(6),
  /** The weekly decay drops a chunk's memory when its utility is below this and it has had no win for 13 weeks; 0 keeps all. @defaultValue 0.05 */
  MEMORY_PRUNE_BELOW: z.coerce.number().min(0).max(1).default(0.05),
  /** Gateway listen address; without API keys it must stay on loopback. @defaultValue 127.0.0.1 */
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  /** Gateway port. @defaultValue 8080 */
  GATEWAY_PORT: int(0, 65_535).default(8080),
  /** Comma-separated API keys that may query, read runs and give feedback. */
  QUARRY_API_KEYS: z.string().default(''),
  /** Comma-separated API keys that may also upload/delete documents and read traces. */
  QUARRY_ADMIN_KEYS: z.string().default(''),
  /** How long POST /v1/query waits for an answer before replying 202 with the run id. @defaultValue 10000 */
  QUERY_TIMEOUT_MS: int(100, 600_000).default(10_000),
  /** Largest PDF POST /v1/documents accepts. @defaultValue 104857600 */
  MAX_UPLOAD_BYTES: int(1, 2 ** 31).default(100 * 1024 * 1024),
  /** How long run traces (and what feedback needs of a run) are kept. @defaultValue 604800 (7 days) */
  TRACE_TTL_SECONDS: int(60, 90 * 24 * 3600).default(7 * 24 * 3600),
  /** Most run traces (and run contexts) kept, whatever their TTL; the oldest are deleted first. @defaultValue 10000 */
  TRACE_MAX_COUNT: int(1, 10_000_000).default(10_000),
  /** Requests per minute one API key (one client IP when no keys are set) may send the gateway, counted in Redis across replicas; 0 turns the limit off. @defaultValue 600 */
  RATE_LIMIT_PER_MIN: int(0, 1_000_000).default(600),
  /** Reranker: `lexical` (no server) or an HTTP cross-encoder speaking the TEI, Cohere or Jina /rerank shape. @defaultValue lexical */
  RERANKER: z.enum(['lexical', 'tei', 'cohere', 'jina']).default('lexical'),
  /** URL of the /rerank endpoint for RERANKER=tei|cohere|jina. */
  RERANKER_URL: z.string().url().optional(),
  /** Model name sent to the reranker (Cohere, Jina). */
  RERANKER_MODEL: z.string().optional(),
  /** API key for the reranker. */
  RERANKER_API_KEY: z.string().optional(),
  /**
   * Scales every hybrid alpha the planner chooses (and `quarry search`'s default): how far the
   * vector side is trusted. Defaults to 1 for a model embedder and 0.2 for `hash`, whose character
   * n-grams know no meanings: on SciFact train, hash-vector weight above ~0.1 costs nDCG@10.
   */
  HYBRID_ALPHA_SCALE: z.coerce.number().min(0).max(1).optional(),
  /** Answer writer: `none` (extractive, with citations) or `openai` (any OpenAI-compatible chat endpoint). @defaultValue none */
  LLM: z.enum(['none', 'openai']).default('none'),
  /** Chat model for LLM=openai. @defaultValue gpt-4o-mini */
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Base URL of the chat endpoint (OpenAI, Ollama, vLLM). */
  LLM_BASE_URL: z.string().url().optional(),
  /** API key of the chat endpoint. */
  LLM_API_KEY: z.string().optional(),
});

export type RawConfig = z.infer<typeof ConfigSchema>;
