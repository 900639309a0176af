import type { PlannerOptions } from './planner.ts';

/** The planner's alpha levels (low 0.25, default 0.5, high 0.6) times the embedder's trust. */
export function scaledAlphas(scale: number): Required<Pick<PlannerOptions, 'lowAlpha' | 'defaultAlpha' | 'highAlpha'>> {
  const s = Math.max(0, Math.min(1, scale));
  return { lowAlpha: 0.25 * s, defaultAlpha: 0.5 * s, highAlpha: 0.6 * s };
}
