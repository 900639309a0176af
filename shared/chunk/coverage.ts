/** Coverage of a document's printed lines by its chunks (see shared/domain/coverage.ts). */
import type { Coverage, LineInventory } from '../domain/index.ts';

/** Coverage of `inventory` by chunks holding `chunkLines` (each chunk's line indices). */
export function coverageOf(inventory: LineInventory, chunkLines: readonly (readonly number[])[]): Coverage {
  const held = new Uint8Array(inventory.chars.length);
  for (const lines of chunkLines) for (const i of lines) if (i >= 0 && i < held.length) held[i] = 1;
  let bodyChars = 0;
  let indexedChars = 0;
  const missing = new Map<number, number>();
  inventory.chars.forEach((chars, i) => {
    bodyChars += chars;
    if (held[i]) indexedChars += chars;
    else if (chars > 0) {
      const page = inventory.pages[i] ?? 1;
      missing.set(page, (missing.get(page) ?? 0) + chars);
    }
  });
  return {
    ratio: bodyChars === 0 ? 1 : indexedChars / bodyChars,
    bodyChars,
    indexedChars,
    runningChars: inventory.runningChars,
    unindexed: [...missing].sort((a, b) => a[0] - b[0]).map(([page, chars]) => ({ page, chars })),
  };
}
