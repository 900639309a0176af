/**
 * LanceDB's Rust side logs to stderr at its own level, warnings included (a "No existing dataset
 * at …, it will be created" for every new table), which reads like trouble in a CLI's output.
 * This keeps only its errors unless the operator chose a level (`LANCEDB_LOG`, as env_logger reads
 * it: `warn`, `info`, `lance=debug` …). Must run before `@lancedb/lancedb` is first imported: its
 * logger reads the variable when the native module loads. It sits at the top of shared/, not in
 * store/lancedb/, so that the CLI's entry calls it without loading the store's index (the
 * dependency rules let nothing outside store/ import its files).
 */
export function quietLanceDbLogs(env: NodeJS.ProcessEnv = process.env): void {
  if (env.LANCEDB_LOG === undefined || env.LANCEDB_LOG.trim() === '') env.LANCEDB_LOG = 'error';
}
