/**
 * A question about several documents ("How has Apple's revenue changed over these quarters?",
 * routed to four filings) should see each of them near the top: look-alike filings compete for
 * the same few places, and the one whose table reads slightly worse would never be seen.
 */

/**
 * Reorders `ranked` (best first) so that each of `docIds` with a passage anywhere in it has one
 * within the first `within` places: a missing document's best passage takes the place of the
 * lowest-placed passage inside the window whose document is there more than once, which moves
 * to the first place after the window. The relative order of everything else is kept. Without such a passage to give up, nothing moves.
 *
 * @returns the reordered list and the documents promoted, in the order they were.
 */
export function coverDocuments<T>(ranked: readonly T[], docIds: readonly string[], docOf: (item: T) => string, within = 10): { items: T[]; promoted: string[] } {
  const items = [...ranked];
  const promoted: string[] = [];
  const window = Math.min(within, items.length);
  for (const doc of docIds) {
    const inWindow = items.slice(0, window).map(docOf);
    if (inWindow.includes(doc)) continue;
    const from = items.findIndex((x, i) => i >= window && docOf(x) === doc);
    if (from < 0) continue;
    const counts = new Map<string, number>();
    for (const d of inWindow) counts.set(d, (counts.get(d) ?? 0) + 1);
    let slot = -1;
    for (let i = window - 1; i >= 0; i -= 1) {
      if ((counts.get(inWindow[i] as string) ?? 0) > 1) {
        slot = i;
        break;
      }
    }
    if (slot < 0) continue;
    const [item] = items.splice(from, 1);
    // The promoted passage takes the slot; the one it displaces leads what follows the window.
    const [displaced] = items.splice(slot, 1, item as T);
    items.splice(window, 0, displaced as T);
    promoted.push(doc);
  }
  return { items, promoted };
}
