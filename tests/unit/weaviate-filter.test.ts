import { describe, expect, it } from 'vitest';
import type { FilterValue } from 'weaviate-client';
import { PermanentError } from '../../shared/errors.ts';
import { and, containsAny, eq, isIn, isNull, or, range, temporalClamp, type Filter } from '../../shared/store/filter.ts';
import { checkFilterAgainstSchema, toWeaviateFilter, type Translated } from '../../shared/store/weaviate/weaviate-filter.ts';
import { collectionSpecs } from '../../shared/store/weaviate/weaviate-schema.ts';

const CHUNK = collectionSpecs({ prefix: '', dimension: 4, body: 'trigram' }).find((s) => s.kind === 'Chunk')?.properties ?? [];
const day = (d: string) => new Date(`${d}T00:00:00.000Z`);
const leaf = (property: string, operator: FilterValue['operator'], value: unknown) => ({ operator, target: { property }, value });
const value = (t: Translated): FilterValue => {
  if (t.kind !== 'filter') throw new Error(`expected a filter, got ${t.kind}`);
  return t.value;
};

/** Every node kind, with the FilterValue the server must receive. */
const CASES: [string, Filter, unknown][] = [
  ['eq on a string', eq('doc_id', 'kr-law-1'), leaf('doc_id', 'Equal', 'kr-law-1')],
  ['eq on an int', eq('page_start', 3), leaf('page_start', 'Equal', 3)],
  ['eq on a date', eq('valid_from', '2025-02-23'), leaf('valid_from', 'Equal', day('2025-02-23'))],
  ['in (one value)', isIn('lang', ['ko']), leaf('lang', 'Equal', 'ko')],
  ['in (several)', isIn('doc_type', ['law', 'policy']), { operator: 'Or', filters: [leaf('doc_type', 'Equal', 'law'), leaf('doc_type', 'Equal', 'policy')], value: null }],
  ['in on ints', isIn('chunk_index', [0, 2]), { operator: 'Or', filters: [leaf('chunk_index', 'Equal', 0), leaf('chunk_index', 'Equal', 2)], value: null }],
  ['containsAny', containsAny('entities', ['출산 장려금', '출산장려금']), leaf('entities', 'ContainsAny', ['출산 장려금', '출산장려금'])],
  ['range on dates (two bounds)', range('valid_to', { gt: '2024-01-01', lte: '2025-01-01' }), { operator: 'And', filters: [leaf('valid_to', 'GreaterThan', day('2024-01-01')), leaf('valid_to', 'LessThanEqual', day('2025-01-01'))], value: null }],
  ['range on ints (one bound)', range('page_end', { lt: 10 }), leaf('page_end', 'LessThan', 10)],
  ['range on datetimes', range('updated_at', { gte: '2026-01-01T09:30:00Z' }), leaf('updated_at', 'GreaterThanEqual', new Date('2026-01-01T09:30:00Z'))],
  ['isNull', isNull('valid_to'), leaf('valid_to', 'IsNull', true)],
  ['isNull false', isNull('valid_from', false), leaf('valid_from', 'IsNull', false)],
  ['and', and(eq('lang', 'ko'), eq('doc_type', 'law')), { operator: 'And', filters: [leaf('lang', 'Equal', 'ko'), leaf('doc_type', 'Equal', 'law')], value: null }],
  ['or', or(eq('lang', 'ko'), isNull('valid_to')), { operator: 'Or', filters: [leaf('lang', 'Equal', 'ko'), leaf('valid_to', 'IsNull', true)], value: null }],
];

describe('filter tree → Weaviate FilterValue', () => {
  it.each(CASES)('%s', (_name, filter, expected) => {
    const v = value(toWeaviateFilter(filter));
    expect(v).toEqual(expected);
    // …and the server would accept it: filterable property, operator for its type, value of its type.
    expect(() => checkFilterAgainstSchema(v, CHUNK)).not.toThrow();
  });

  it('translates the temporal clamp into null-aware date comparisons the server accepts', () => {
    const v = value(toWeaviateFilter(temporalClamp('2024-06-01')));
    expect(v).toEqual({
      operator: 'And',
      value: null,
      filters: [
        { operator: 'Or', value: null, filters: [leaf('valid_from', 'IsNull', true), leaf('valid_from', 'LessThanEqual', day('2024-06-01'))] },
        { operator: 'Or', value: null, filters: [leaf('valid_to', 'IsNull', true), leaf('valid_to', 'GreaterThan', day('2024-06-01'))] },
      ],
    });
    expect(() => checkFilterAgainstSchema(v, CHUNK)).not.toThrow();
  });

  it('keeps the empty and/or identities without sending an empty And/Or', () => {
    expect(toWeaviateFilter(undefined)).toEqual({ kind: 'all' });
    expect(toWeaviateFilter(and())).toEqual({ kind: 'all' });
    expect(toWeaviateFilter(or())).toEqual({ kind: 'none' });
    expect(toWeaviateFilter(isIn('lang', []))).toEqual({ kind: 'none' });
    expect(toWeaviateFilter(containsAny('entities', []))).toEqual({ kind: 'none' });
    expect(toWeaviateFilter(and(eq('lang', 'ko'), or()))).toEqual({ kind: 'none' });
    expect(toWeaviateFilter(or(eq('lang', 'ko'), and()))).toEqual({ kind: 'all' });
    expect(value(toWeaviateFilter(and(and(), eq('lang', 'ko'))))).toEqual(leaf('lang', 'Equal', 'ko'));
    expect(value(toWeaviateFilter(or(or(), eq('lang', 'ko'))))).toEqual(leaf('lang', 'Equal', 'ko'));
  });

  it('rejects malformed trees before anything is sent', () => {
    const bad = [{ op: 'eq', field: 'nope', value: 1 }, { op: 'range', field: 'lang', gte: 'a' }, { op: 'eq', field: 'entities', value: 'x' }];
    for (const f of bad) expect(() => toWeaviateFilter(f as Filter), JSON.stringify(f)).toThrow(PermanentError);
  });
});

describe('what a Weaviate server would reject fails here, with the node named', () => {
  const REJECTED: [string, unknown, RegExp][] = [
    ['a range operator on text', leaf('doc_id', 'GreaterThan', 'a'), /GreaterThan does not apply to doc_id \(text\)/],
    ['Equal on a text[] property', leaf('entities', 'Equal', 'x'), /Equal does not apply to entities/],
    ['ContainsAny on a date', leaf('valid_from', 'ContainsAny', [day('2024-01-01')]), /ContainsAny does not apply to valid_from/],
    ['a date compared with a string', leaf('valid_from', 'LessThan', '2024-01-01'), /not a value LessThan takes for valid_from \(date\)/],
    ['an int compared with a string', leaf('page_start', 'Equal', '3'), /not a value Equal takes for page_start/],
    ['a non-filterable property', leaf('body', 'Equal', 'x'), /body is not filterable/],
    ['an unknown property', leaf('colour', 'Equal', 'x'), /unknown property colour/],
    ['IsNull with a non-boolean', leaf('valid_to', 'IsNull', 'yes'), /not a value IsNull takes/],
    ['an And with one operand', { operator: 'And', filters: [leaf('lang', 'Equal', 'ko')], value: null }, /And needs at least two operands/],
    ['a bad leaf deep inside', { operator: 'Or', value: null, filters: [leaf('lang', 'Equal', 'ko'), { operator: 'And', value: null, filters: [leaf('lang', 'Equal', 'en'), leaf('token_count', 'Like', 'x')] }] }, /filter\.Or\[1\]\.And\[1\]: Like does not apply to token_count/],
  ];
  it.each(REJECTED)('%s', (_name, filter, message) => {
    expect(() => checkFilterAgainstSchema(filter as FilterValue, CHUNK)).toThrow(message);
  });
});
