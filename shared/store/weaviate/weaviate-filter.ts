/**
 * Our filter tree → the Weaviate client's FilterValue (the objects `Filters.and/or` and
 * `collection.filter.byProperty(…)` build), pure and testable without a server.
 *
 * Weaviate has no "match nothing" filter and refuses an empty And/Or, so translation is
 * three-valued: a filter may match everything (no filter is sent), nothing (the adapter answers
 * without a query), or be a FilterValue.
 */
import { Filters, type FilterValue } from 'weaviate-client';
import { PermanentError } from '../../errors.ts';
import { FILTER_FIELDS, parseFilter, type Filter, type FieldKind } from '../filter.ts';
import type { PropertySpec } from './weaviate-schema.ts';

export type Translated = { kind: 'all' } | { kind: 'none' } | { kind: 'filter'; value: FilterValue };

const ALL: Translated = { kind: 'all' };
const NONE: Translated = { kind: 'none' };

type Leaf = FilterValue<string | number | boolean | Date | string[]>;

function leaf(property: string, operator: FilterValue['operator'], value: Leaf['value']): Leaf {
  return { operator, target: { property }, value };
}

/** A literal of `kind` as Weaviate compares it: dates and instants as Date objects. */
function literal(kind: FieldKind, value: string | number): string | number | Date {
  if (kind === 'date') return new Date(`${String(value)}T00:00:00.000Z`);
  if (kind === 'datetime') return new Date(Date.parse(String(value)));
  return value;
}

function combine(op: 'and' | 'or', parts: Translated[]): Translated {
  const neutral = op === 'and' ? 'all' : 'none';
  const absorbing = op === 'and' ? 'none' : 'all';
  if (parts.some((p) => p.kind === absorbing)) return op === 'and' ? NONE : ALL;
  const values = parts.flatMap((p) => (p.kind === 'filter' ? [p.value] : []));
  if (values.length === 0) return { kind: neutral };
  if (values.length === 1) return { kind: 'filter', value: values[0] as FilterValue };
  return { kind: 'filter', value: op === 'and' ? Filters.and(...values) : Filters.or(...values) };
}

function translateNode(f: Filter): Translated {
  switch (f.op) {
    case 'and':
    case 'or':
      return combine(f.op, f.args.map(translateNode));
    case 'eq':
      return { kind: 'filter', value: leaf(f.field, 'Equal', literal(FILTER_FIELDS[f.field], f.value)) };
    case 'in': {
      const kind = FILTER_FIELDS[f.field];
      return combine('or', f.values.map((v) => ({ kind: 'filter', value: leaf(f.field, 'Equal', literal(kind, v)) })));
    }
    case 'containsAny':
      return f.values.length === 0 ? NONE : { kind: 'filter', value: leaf(f.field, 'ContainsAny', [...f.values]) };
    case 'range': {
      const kind = FILTER_FIELDS[f.field];
      const ops = [['gte', 'GreaterThanEqual'], ['gt', 'GreaterThan'], ['lte', 'LessThanEqual'], ['lt', 'LessThan']] as const;
      return combine(
        'and',
        ops.flatMap(([bound, operator]) => {
          const v = f[bound];
          return v === undefined ? [] : [{ kind: 'filter' as const, value: leaf(f.field, operator, literal(kind, v)) }];
        }),
      );
    }
    case 'isNull':
      return { kind: 'filter', value: leaf(f.field, 'IsNull', f.value ?? true) };
  }
}

/**
 * Validates `filter` (an untrusted tree) and translates it.
 * @throws PermanentError `INVALID_PAYLOAD` for a malformed filter.
 */
export function toWeaviateFilter(filter: Filter | undefined): Translated {
  if (filter === undefined) return ALL;
  return translateNode(parseFilter(filter));
}

/** Operators Weaviate accepts per property data type (for the properties Quarry creates). */
const OPERATORS: Record<PropertySpec['dataType'], readonly FilterValue['operator'][]> = {
  text: ['Equal', 'NotEqual', 'Like', 'IsNull', 'ContainsAny', 'ContainsAll'],
  'text[]': ['ContainsAny', 'ContainsAll', 'IsNull'],
  int: ['Equal', 'NotEqual', 'GreaterThan', 'GreaterThanEqual', 'LessThan', 'LessThanEqual', 'IsNull', 'ContainsAny'],
  date: ['Equal', 'NotEqual', 'GreaterThan', 'GreaterThanEqual', 'LessThan', 'LessThanEqual', 'IsNull'],
};

function valueFits(dataType: PropertySpec['dataType'], operator: FilterValue['operator'], value: unknown): boolean {
  if (operator === 'IsNull') return typeof value === 'boolean';
  if (operator === 'ContainsAny' || operator === 'ContainsAll') {
    return Array.isArray(value) && value.length > 0 && value.every((v) => (dataType === 'int' ? Number.isSafeInteger(v) : typeof v === 'string'));
  }
  switch (dataType) {
    case 'text':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'date':
      return value instanceof Date && !Number.isNaN(value.getTime());
    case 'text[]':
      return false;
  }
}

/**
 * Checks a translated filter against the collection's properties as a Weaviate server would:
 * the property exists and is filterable, the operator suits its data type, the value its type,
 * And/Or have operands. Run before every query, so a translation bug is a clear error here and
 * never a server-side rejection.
 * @throws PermanentError `STORE_REJECTED` naming the first offending node.
 */
export function checkFilterAgainstSchema(value: FilterValue, properties: readonly PropertySpec[]): void {
  const byName = new Map(properties.map((p) => [p.name, p]));
  const visit = (node: FilterValue, path: string): void => {
    if (node.operator === 'And' || node.operator === 'Or') {
      const args = node.filters ?? [];
      if (args.length < 2) throw new PermanentError('STORE_REJECTED', `${path}: ${node.operator} needs at least two operands`);
      args.forEach((a, i) => visit(a, `${path}.${node.operator}[${i}]`));
      return;
    }
    const name = node.target?.property;
    const prop = name === undefined ? undefined : byName.get(name);
    if (!prop) throw new PermanentError('STORE_REJECTED', `${path}: unknown property ${String(name)}`);
    if (!prop.indexFilterable) throw new PermanentError('STORE_REJECTED', `${path}: ${prop.name} is not filterable`);
    if (!OPERATORS[prop.dataType].includes(node.operator)) {
      throw new PermanentError('STORE_REJECTED', `${path}: ${node.operator} does not apply to ${prop.name} (${prop.dataType})`);
    }
    if (!valueFits(prop.dataType, node.operator, node.value)) {
      throw new PermanentError('STORE_REJECTED', `${path}: ${JSON.stringify(node.value)} is not a value ${node.operator} takes for ${prop.name} (${prop.dataType})`);
    }
  };
  visit(value, 'filter');
}

