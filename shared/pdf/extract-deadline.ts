/** How long one extraction may take, scaled to the file: small files get short budgets. */
export interface DeadlinePolicy {
  /** Time any document gets, in ms. @defaultValue 10000 */
  baseMs?: number;
  /** Extra time per MiB of file, in ms. @defaultValue 2000 */
  perMibMs?: number;
  /** Extra time per page, in ms (added once the page count is known). @defaultValue 250 */
  perPageMs?: number;
}

const MIB = 1024 * 1024;

/**
 * Time budget of one extraction in ms (CPU time of its child where /proc gives it):
 * `baseMs + perMibMs × MiB + perPageMs × pages`, never over `capMs` (EXTRACT_TIMEOUT_MS). Before
 * the document is open `pages` is unknown and counts as 0, so a 4 MB one-page PDF that is slow
 * rather than big gets ~18 s, not the cap.
 */
export function extractDeadlineMs(bytes: number, pages: number | null, capMs: number, policy: DeadlinePolicy = {}): number {
  const base = policy.baseMs ?? 10_000;
  const perMib = policy.perMibMs ?? 2000;
  const perPage = policy.perPageMs ?? 250;
  return Math.min(capMs, Math.round(base + (perMib * bytes) / MIB + perPage * (pages ?? 0)));
}
