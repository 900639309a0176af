/**
 * LanceDB's Rust side logs to stderr at its own level, warnings included (a "No existing dataset
 * at …, it will be created" for every new table), which reads like trouble in a CLI's output.
 * This keeps only its errors unless the operator chose a level (`LANCEDB_LOG`, as env_logger reads
 * it: `warn`, `info`, `lance=debug` …). Must run before `@lancedb/lancedb` is first imported: its
 * logger reads the variable when the native module loads.
 */
export function quietLanceDbLogs(env: NodeJS.ProcessEnv = process.env): void {
  if (env.LANCEDB_LOG === undefined || env.LANCEDB_LOG.trim() === '') env.LANCEDB_LOG = 'error';
}
