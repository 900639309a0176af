import { describe, expect, it } from 'vitest';
import { filtersOf } from '../../apps/cli/commands/search.ts';
import { AskRequest, QueryBody, SearchRequest, searchFilter } from '../../core/schemas.ts';
import { temporalClamp } from '../../shared/store/filter.ts';

describe('search filters (MCP search tool, quarry search flags)', () => {
  it('become one store filter: any of each list, all of the lists, the date as a validity clamp', () => {
    expect(searchFilter(undefined)).toBeUndefined();
    expect(searchFilter({})).toBeUndefined();
    expect(searchFilter({ docType: ['policy', 'faq'], lang: ['ko'], asOf: '2025-03-01' })).toEqual({
      op: 'and',
      args: [{ op: 'in', field: 'doc_type', values: ['policy', 'faq'] }, { op: 'in', field: 'lang', values: ['ko'] }, temporalClamp('2025-03-01')],
    });
    expect(searchFilter({ jurisdiction: ['KR'] })).toEqual({ op: 'and', args: [{ op: 'in', field: 'jurisdiction', values: ['KR'] }] });
  });

  it('quarry search flags are comma lists checked by the same schema, a bad one named as a flag', () => {
    expect(filtersOf({})).toBeUndefined();
    expect(filtersOf({ docType: 'policy, faq', asOf: '2024-12-31' })).toEqual({ docType: ['policy', 'faq'], asOf: '2024-12-31' });
    expect(() => filtersOf({ asOf: '2024-02-30' })).toThrow(/--as-of/);
    expect(() => filtersOf({ docType: ' , ' })).toThrow(/--doc-type/);
  });

  it('tool inputs are the HTTP API’s: ask takes /v1/query’s fields and bounds, search its query and alpha', () => {
    expect(AskRequest.safeParse({ query: 'q', asOf: '2025-01-01', alpha: 0.3 }).success).toBe(true);
    for (const bad of [{ query: ' ' }, { query: 'q', alpha: 1.5 }, { query: 'q', async: true }, { query: 'x'.repeat(2001) }]) {
      expect(AskRequest.safeParse(bad).success).toBe(false);
      // …refused for the same reason by POST /v1/query's body schema, except the HTTP-only field.
      if (!('async' in bad)) expect(QueryBody.safeParse(bad).success).toBe(false);
    }
    expect(SearchRequest.parse({ query: 'q' })).toEqual({ query: 'q', limit: 10 });
    expect(SearchRequest.safeParse({ query: 'q', filters: { docType: [] } }).success).toBe(false);
    expect(SearchRequest.safeParse({ query: 'q', filters: { color: ['red'] } }).success).toBe(false);
  });
});
