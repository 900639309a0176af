import { FILTER_FIELDS, type Filter, type FieldKind, type RangeBounds } from './filter.ts';

/** A row as far as filters see it: any chunk fields, dates as `YYYY-MM-DD`, instants ISO 8601. */
export type FilterableRow = Readonly<Record<string, unknown>>;

/** Comparable form of a cell or literal of `kind`; null when absent. */
function comparable(kind: FieldKind, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (kind === 'int') return Number(value);
  if (kind === 'datetime') return Date.parse(String(value));
  return String(value);
}

function inRange(kind: FieldKind, cell: unknown, b: RangeBounds): boolean {
  const v = comparable(kind, cell);
  if (v === null) return false;
  const bound = (x: string | number | undefined) => (x === undefined ? null : comparable(kind, x));
  const [gte, gt, lte, lt] = [bound(b.gte), bound(b.gt), bound(b.lte), bound(b.lt)];
  return (gte === null || v >= gte) && (gt === null || v > gt) && (lte === null || v <= lte) && (lt === null || v < lt);
}

/**
 * Whether `row` matches `filter`, with the stores' semantics: a null cell never equals, is in,
 * or falls in a range; an empty `and` matches everything, an empty `or` nothing. Used where a
 * store cannot apply a filter itself (a Weaviate cursor scan takes no filter).
 * The filter must have been validated (`parseFilter`).
 */
export function matchesFilter(filter: Filter, row: FilterableRow): boolean {
  switch (filter.op) {
    case 'and':
      return filter.args.every((f) => matchesFilter(f, row));
    case 'or':
      return filter.args.some((f) => matchesFilter(f, row));
    case 'eq': {
      const kind = FILTER_FIELDS[filter.field];
      const v = comparable(kind, row[filter.field]);
      return v !== null && v === comparable(kind, filter.value);
    }
    case 'in': {
      const kind = FILTER_FIELDS[filter.field];
      const v = comparable(kind, row[filter.field]);
      return v !== null && filter.values.some((x) => comparable(kind, x) === v);
    }
    case 'containsAny': {
      const cell = row[filter.field];
      const items = Array.isArray(cell) ? cell.map(String) : [];
      return filter.values.some((x) => items.includes(x));
    }
    case 'range':
      return inRange(FILTER_FIELDS[filter.field], row[filter.field], filter);
    case 'isNull': {
      const cell = row[filter.field];
      const isNull = cell === null || cell === undefined;
      return (filter.value ?? true) ? isNull : !isNull;
    }
  }
}

/** Fields a filter reads (a scan must fetch them to evaluate it). */
export function filterFields(filter: Filter | undefined, into: Set<string> = new Set()): Set<string> {
  if (!filter) return into;
  if (filter.op === 'and' || filter.op === 'or') for (const f of filter.args) filterFields(f, into);
  else into.add(filter.field);
  return into;
}
