/**
 * Each top-level command's name, arguments and one-line description: what `quarry --help` lists.
 * Kept apart from the command modules (and importing nothing) so help answers without loading
 * any of them — the gateway, LangGraph, LanceDB… — and so each module takes its description from
 * here rather than repeating it.
 */
export const COMMAND_SUMMARIES = {
  ingest: { args: '', description: 'register sources and replay single stages' },
  jobs: { args: '', description: 'batch operations' },
  status: { args: '', description: 'queue counts per stage, each document’s state, failures with reasons' },
  search: { args: '<text>', description: 'hybrid search over indexed chunks (keyword + vector, relative-score fusion)' },
  query: { args: '<question>', description: 'ask a question through the agent, in this process; prints the answer with citations' },
  dev: { args: '', description: 'every worker, the folder watcher and the gateway in one process (starts a local Redis when none answers)' },
  workers: { args: '', description: 'stage workers' },
  gateway: { args: '', description: 'the HTTP API (no workers): POST /v1/query, runs, feedback, traces, documents, /docs' },
  watch: { args: '', description: 'watch QUARRY_WATCH_DIR (or WATCH_BUCKET) and enqueue ingests and deletes (no workers)' },
  demo: { args: '', description: 'ingest examples/docs through the queues on the embedded defaults, then run sample searches and ask the agent' },
  facets: { args: '', description: 'facet-value vectors: the soft metadata priors of ranking' },
  memory: { args: '', description: 'per-chunk memory from validated answers (ChunkStats)' },
  verify: { args: '', description: 'check that the store answers correctly for a document' },
  reindex: { args: '', description: 'copy the index into another vector store from stored artifacts (no re-extraction, no re-embedding)' },
  mcp: { args: '', description: 'Model Context Protocol server on stdio: tools search, ask, get_document, get_chunk, list_documents' },
} as const satisfies Record<string, { args: string; description: string }>;

export type CommandName = keyof typeof COMMAND_SUMMARIES;

/** A command's `name <args>` as commander takes it. */
export function commandSpec(name: CommandName): string {
  const { args } = COMMAND_SUMMARIES[name];
  return args ? `${name} ${args}` : name;
}

/** A command's one-line description. */
export function describeCommand(name: CommandName): string {
  return COMMAND_SUMMARIES[name].description;
}
