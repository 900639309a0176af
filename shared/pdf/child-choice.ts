/** What the choice needs to know of one child of an extraction pool. */
export interface ChildView {
  spare: boolean;
  /** Holds a job (running, or waiting for the child to be ready). */
  busy: boolean;
  /** Jobs the child has been sent so far: 0 means its pdf.js has read nothing yet (its JIT is cold). */
  jobs: number;
  /** How long its current job has run, in ms; null when idle or not started yet. */
  runningMs: number | null;
}

/** The pool's limits and the job at the head of the queue, as the choice sees them. */
export interface ChoiceContext {
  /** Regular children at most. */
  size: number;
  spareSlots: number;
  /** A job running this long counts as slow (every regular child slow: a spare may start). */
  slowAfterMs: number;
  /** The head job may go to a child that has done no work while a child that has waits this long. */
  spreadAfterMs: number;
  /** How long the head job has waited in the queue, in ms. */
  waitedMs: number;
  /** The head job is a part of a split document: split to run in parallel, it takes any free child. */
  part: boolean;
}

/** Which child takes the head job: an existing one, a new one, or none yet (it waits). */
export type ChildChoice = { take: number } | { spawn: 'regular' | 'spare' } | null;

/**
 * Where the next queued extraction goes. Work gathers on the children that already have some:
 * a child reaches its full speed only after pdf.js's code has been compiled and optimised on real
 * pages (a fresh child reads a small document at ~1.4× the cost of a warmed one), so a steady
 * stream of quick documents that one child keeps up with stays on that child, and the pool's
 * other children cost neither that warm-up nor the memory of reading. A job spreads to a child
 * that has done nothing (an idle one, or one started for it) only when no child that has done
 * work is busy, when it has waited `spreadAfterMs` for one, or when it is a part of a split
 * document. Spares, as before, only while every regular child holds a slow job. Pure.
 */
export function chooseChild(children: readonly ChildView[], c: ChoiceContext): ChildChoice {
  const regular = children.map((child, index) => ({ child, index })).filter(({ child }) => !child.spare);
  const warmIdle = regular.find(({ child }) => !child.busy && child.jobs > 0);
  if (warmIdle) return { take: warmIdle.index };
  const mayWait = regular.some(({ child }) => child.busy && child.jobs > 0);
  if (!mayWait || c.part || c.waitedMs >= c.spreadAfterMs) {
    const coldIdle = regular.find(({ child }) => !child.busy);
    if (coldIdle) return { take: coldIdle.index };
    if (regular.length < c.size) return { spawn: 'regular' };
  }
  // A child still starting up is not slow: a burst of jobs at start-up must not wake the spare.
  const allSlow = regular.length >= c.size && regular.every(({ child }) => child.busy && child.runningMs !== null && child.runningMs >= c.slowAfterMs);
  if (!allSlow) return null;
  const spareIdle = children.findIndex((child) => child.spare && !child.busy);
  if (spareIdle >= 0) return { take: spareIdle };
  return children.filter((child) => child.spare).length < c.spareSlots ? { spawn: 'spare' } : null;
}
