import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import {
  and, containsAny, eq, isIn, isNull, or, parseFilter, range, temporalClamp, type Filter,
} from '../../shared/store/filter.ts';
import { filterToSql, sqlString } from '../../shared/store/lancedb/filter-sql.ts';

function invalid(input: unknown): string {
  try {
    parseFilter(input);
  } catch (err) {
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).code).toBe('INVALID_PAYLOAD');
    return (err as PermanentError).message;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('filter schema', () => {
  it('accepts every node kind built by the helpers', () => {
    const f = and(
      eq('doc_type', 'law'),
      isIn('chunk_index', [0, 1]),
      containsAny('entities', ['출산장려금']),
      range('valid_from', { gte: '2020-01-01', lt: '2021-01-01' }),
      range('created_at', { gt: '2025-01-01T00:00:00Z' }),
      or(isNull('valid_to'), isNull('valid_from', false)),
    );
    expect(parseFilter(JSON.parse(JSON.stringify(f)))).toEqual(f);
  });

  it('rejects unknown fields, wrong kinds and bad values, naming them', () => {
    expect(invalid({ op: 'eq', field: 'body; DROP TABLE chunks', value: 'x' })).toMatch(/field/);
    expect(invalid({ op: 'eq', field: 'page_start', value: '1' })).toMatch(/int/);
    expect(invalid(range('valid_from', { gte: '2021-02-30' }))).toMatch(/date/);
    expect(invalid(range('created_at', { gte: 'yesterday' }))).toMatch(/datetime/);
    expect(invalid(range('page_start', {}))).toMatch(/at least one/);
    expect(invalid(range('lang', { gte: 'a' }))).toMatch(/range on string/);
    expect(invalid(containsAny('doc_type', ['law']))).toMatch(/array field/);
    expect(invalid(eq('entities', 'x'))).toMatch(/containsAny/);
    expect(invalid({ op: 'xor', args: [] })).toBeTruthy();
    expect(invalid({ op: 'eq', field: 'lang', value: 'ko', extra: 1 })).toBeTruthy();
  });

  it('caps nesting depth', () => {
    let deep: Filter = eq('lang', 'ko');
    for (let i = 0; i < 40; i++) deep = and(deep);
    expect(invalid(deep)).toMatch(/deeper/);
  });

  it('temporalClamp: valid_from ≤ d (or null) and valid_to > d (or null)', () => {
    expect(temporalClamp('2024-05-01')).toEqual(
      and(
        or(isNull('valid_from'), range('valid_from', { lte: '2024-05-01' })),
        or(isNull('valid_to'), range('valid_to', { gt: '2024-05-01' })),
      ),
    );
    expect(() => temporalClamp('2024-5-1')).toThrow(PermanentError);
  });
});

describe('filter → LanceDB SQL', () => {
  it('quotes strings by doubling single quotes and leaves backslashes alone', () => {
    expect(sqlString("O'Brien \\ x")).toBe("'O''Brien \\ x'");
    expect(filterToSql(eq('doc_type', "law' OR '1'='1"))).toBe("doc_type = 'law'' OR ''1''=''1'");
  });

  it('translates each node', () => {
    expect(filterToSql(undefined)).toBeUndefined();
    expect(filterToSql(eq('lang', 'ko'))).toBe("lang = 'ko'");
    expect(filterToSql(eq('page_start', 3))).toBe('page_start = 3');
    expect(filterToSql(eq('valid_from', '2024-01-01'))).toBe("valid_from = DATE '2024-01-01'");
    expect(filterToSql(isIn('lang', ['ko', 'en']))).toBe("lang IN ('ko', 'en')");
    expect(filterToSql(isIn('lang', []))).toBe('FALSE');
    expect(filterToSql(containsAny('entities', ['출산 장려금', "it's"]))).toBe("array_has_any(entities, ['출산 장려금', 'it''s'])");
    expect(filterToSql(containsAny('entities', []))).toBe('FALSE');
    expect(filterToSql(range('page_start', { gte: 2, lt: 5 }))).toBe('(page_start >= 2 AND page_start < 5)');
    expect(filterToSql(range('valid_to', { gt: '2024-01-01' }))).toBe("valid_to > DATE '2024-01-01'");
    expect(filterToSql(range('updated_at', { lt: '2025-01-03' }))).toBe("updated_at < TIMESTAMP '2025-01-03T00:00:00.000Z'");
    expect(filterToSql(range('created_at', { gte: '2025-01-02T12:00:00+09:00' }))).toBe(
      "created_at >= TIMESTAMP '2025-01-02T03:00:00.000Z'",
    );
    expect(filterToSql(isNull('valid_to'))).toBe('valid_to IS NULL');
    expect(filterToSql(isNull('valid_to', false))).toBe('valid_to IS NOT NULL');
    expect(filterToSql(and())).toBe('TRUE');
    expect(filterToSql(or())).toBe('FALSE');
    expect(filterToSql(and(eq('lang', 'ko'), or(eq('section', 'a'), eq('section', 'b'))))).toBe(
      "(lang = 'ko' AND (section = 'a' OR section = 'b'))",
    );
    expect(filterToSql(temporalClamp('2024-05-01'))).toBe(
      "((valid_from IS NULL OR valid_from <= DATE '2024-05-01') AND (valid_to IS NULL OR valid_to > DATE '2024-05-01'))",
    );
  });
});
