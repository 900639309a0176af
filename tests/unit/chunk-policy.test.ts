import { describe, expect, it } from 'vitest';
import { ChunkPolicy, ChunkPolicyTable, DEFAULT_CHUNK_POLICIES, resolvePolicy } from '../../shared/chunk/policy.ts';
import { createCharEstimateCounter, createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import { PermanentError } from '../../shared/errors.ts';

describe('DEFAULT_CHUNK_POLICIES', () => {
  it('is a valid table whose entries respect the invariants and seed ranges', () => {
    expect(ChunkPolicyTable.safeParse(DEFAULT_CHUNK_POLICIES).success).toBe(true);
    for (const [type, p] of Object.entries(DEFAULT_CHUNK_POLICIES)) {
      expect(ChunkPolicy.safeParse(p).success, type).toBe(true);
      expect(p.maxTokens, type).toBeLessThanOrEqual(900);
      expect(p.overlapTokens, type).toBeGreaterThanOrEqual(50);
      expect(p.overlapTokens, type).toBeLessThanOrEqual(100);
    }
    expect(DEFAULT_CHUNK_POLICIES.default).toEqual({ minTokens: 120, targetTokens: 600, maxTokens: 900, overlapTokens: 80 });
    // Law keeps articles whole with a smaller target than the default.
    expect(DEFAULT_CHUNK_POLICIES.law?.targetTokens).toBeLessThan(600);
  });
});

describe('resolvePolicy', () => {
  it('matches doc types case-insensitively and falls back to default', () => {
    expect(resolvePolicy(DEFAULT_CHUNK_POLICIES, ' LAW ')).toEqual(DEFAULT_CHUNK_POLICIES.law);
    expect(resolvePolicy(DEFAULT_CHUNK_POLICIES, 'statute')).toEqual(DEFAULT_CHUNK_POLICIES.law);
    expect(resolvePolicy(DEFAULT_CHUNK_POLICIES, 'unknown')).toEqual(DEFAULT_CHUNK_POLICIES.default);
    expect(resolvePolicy(DEFAULT_CHUNK_POLICIES, undefined)).toEqual(DEFAULT_CHUNK_POLICIES.default);
  });

  it('rejects a table without default and a broken policy', () => {
    expect(() => resolvePolicy({ law: { minTokens: 1, targetTokens: 2, maxTokens: 4, overlapTokens: 1 } }, 'faq')).toThrow(PermanentError);
    const broken = { default: { minTokens: 500, targetTokens: 400, maxTokens: 900, overlapTokens: 80 } };
    try {
      resolvePolicy(broken, 'x');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).code).toBe('INVALID_CONFIG');
    }
  });
});

describe('token counters', () => {
  it('counts cl100k tokens, including literal special-token text', () => {
    const c = createCl100kCounter();
    expect(c.count('')).toBe(0);
    expect(c.count('hello world')).toBe(2);
    expect(c.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(c.count('근로자')).toBeGreaterThan(0);
  });

  it('has a hand-computable estimate for tests', () => {
    const c = createCharEstimateCounter();
    expect(c.count('abcdefgh')).toBe(2);
    expect(c.count('근로자')).toBe(3);
  });
});
