import { describe, expect, it } from 'vitest';
import { chooseChild, type ChildView, type ChoiceContext } from '../../shared/pdf/child-choice.ts';

const ctx = (over: Partial<ChoiceContext> = {}): ChoiceContext => ({ size: 2, spareSlots: 1, slowAfterMs: 3000, spreadAfterMs: 250, waitedMs: 0, part: false, ...over });
const child = (over: Partial<ChildView> = {}): ChildView => ({ spare: false, busy: false, jobs: 0, runningMs: null, ...over });
const busy = (jobs: number, runningMs: number | null = 10): ChildView => child({ busy: true, jobs, runningMs });

describe('chooseChild: which extraction child takes the next job', () => {
  it('starts the first child, and takes an idle one that has read before over one that has not', () => {
    expect(chooseChild([], ctx())).toEqual({ spawn: 'regular' });
    expect(chooseChild([child(), child({ jobs: 3 })], ctx())).toEqual({ take: 1 });
  });

  it('lets a job wait for a busy child that has read before, rather than warm up another, until it has waited spreadAfterMs', () => {
    expect(chooseChild([busy(5), child()], ctx({ waitedMs: 249 }))).toBeNull();
    expect(chooseChild([busy(5)], ctx({ waitedMs: 249 }))).toBeNull();
    expect(chooseChild([busy(5), child()], ctx({ waitedMs: 250 }))).toEqual({ take: 1 });
    expect(chooseChild([busy(5)], ctx({ waitedMs: 250 }))).toEqual({ spawn: 'regular' });
  });

  it('spreads at once when no busy child has read before (start-up) and for a part of a split document', () => {
    // The only busy child is still starting up or has not been sent its job: no warm child to wait for.
    expect(chooseChild([busy(0, null)], ctx())).toEqual({ spawn: 'regular' });
    expect(chooseChild([busy(0, null), child()], ctx())).toEqual({ take: 1 });
    expect(chooseChild([busy(5), child()], ctx({ part: true }))).toEqual({ take: 1 });
    expect(chooseChild([busy(5)], ctx({ part: true }))).toEqual({ spawn: 'regular' });
  });

  it('never starts more regular children than the size', () => {
    expect(chooseChild([busy(5), busy(1)], ctx({ waitedMs: 10_000, size: 2 }))).toBeNull();
    expect(chooseChild([busy(5)], ctx({ waitedMs: 10_000, size: 1, spareSlots: 0 }))).toBeNull();
  });

  it('uses a spare only while every regular child holds a slow job, up to spareSlots', () => {
    const slow = [busy(5, 3000), busy(2, 4000)];
    expect(chooseChild(slow, ctx())).toEqual({ spawn: 'spare' });
    expect(chooseChild([...slow, child({ spare: true, busy: true, jobs: 1, runningMs: 5 })], ctx())).toBeNull();
    expect(chooseChild([...slow, child({ spare: true, busy: true }), child({ spare: true })], ctx({ spareSlots: 2 }))).toEqual({ take: 3 });
    // One regular job quick, or a regular child missing: no spare.
    expect(chooseChild([busy(5, 3000), busy(2, 100)], ctx({ waitedMs: 10_000 }))).toBeNull();
    expect(chooseChild([busy(5, 9000)], ctx({ waitedMs: 100 }))).toBeNull();
    expect(chooseChild(slow, ctx({ spareSlots: 0 }))).toBeNull();
  });

  it('never hands a job to a spare while a regular child is idle', () => {
    expect(chooseChild([busy(5, 9000), child({ jobs: 2 }), child({ spare: true })], ctx())).toEqual({ take: 1 });
  });
});
