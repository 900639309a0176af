import type * as lancedb from '@lancedb/lancedb';

/**
 * The table `name` of `connection`, or null while it does not exist. Absence is never final:
 * another process may create the table, so callers ask again rather than remember it.
 */
export async function openIfExists(connection: lancedb.Connection, name: string): Promise<lancedb.Table | null> {
  if (!(await connection.tableNames()).includes(name)) return null;
  try {
    return await connection.openTable(name);
  } catch (err) {
    // Listed while another writer is still creating it (its folder made, no version committed
    // yet): not there yet, as for a reader that looked a moment earlier.
    if (/not found/i.test(err instanceof Error ? err.message : String(err))) return null;
    throw err;
  }
}
