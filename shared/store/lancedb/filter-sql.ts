import { FILTER_FIELDS, parseFilter, type Filter, type FilterField } from '../filter.ts';

/**
 * SQL string literal. DataFusion (LanceDB's SQL engine) follows the standard: only `'` needs
 * escaping, by doubling; a backslash is an ordinary character outside `E'…'` strings.
 */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Literals in one `IN (…)` list: a query reads up to this many ids. */
export const IN_LIST_MAX = 500;

/** `values` as the bodies of SQL `IN (…)` lists of at most {@link IN_LIST_MAX} literals each ("'a', 'b'"). */
export function sqlInLists(values: readonly string[]): string[] {
  const lists: string[] = [];
  for (let start = 0; start < values.length; start += IN_LIST_MAX) lists.push(values.slice(start, start + IN_LIST_MAX).map(sqlString).join(', '));
  return lists;
}

/**
 * A value as a literal of the column's type. Dates are `date32` columns and compare as
 * `DATE '…'`; datetimes are UTC millisecond timestamps and compare as `TIMESTAMP '…'`
 * (DataFusion refuses to coerce a plain string literal to either).
 */
function literal(field: FilterField, value: string | number): string {
  switch (FILTER_FIELDS[field]) {
    case 'date':
      return `DATE ${sqlString(String(value))}`;
    case 'datetime':
      return `TIMESTAMP ${sqlString(new Date(String(value).length === 10 ? `${String(value)}T00:00:00Z` : String(value)).toISOString())}`;
    case 'int':
      return String(Number(value));
    case 'string':
    case 'string[]':
      return sqlString(String(value));
  }
}

const RANGE_OPS = { gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;

function translate(filter: Filter): string {
  switch (filter.op) {
    case 'and':
      return filter.args.length === 0 ? 'TRUE' : `(${filter.args.map(translate).join(' AND ')})`;
    case 'or':
      return filter.args.length === 0 ? 'FALSE' : `(${filter.args.map(translate).join(' OR ')})`;
    case 'eq':
      return `${filter.field} = ${literal(filter.field, filter.value)}`;
    case 'in':
      return filter.values.length === 0
        ? 'FALSE'
        : `${filter.field} IN (${filter.values.map((v) => literal(filter.field, v)).join(', ')})`;
    case 'containsAny':
      return filter.values.length === 0
        ? 'FALSE'
        : `array_has_any(${filter.field}, [${filter.values.map(sqlString).join(', ')}])`;
    case 'range': {
      const parts: string[] = [];
      for (const bound of ['gte', 'gt', 'lte', 'lt'] as const) {
        const value = filter[bound];
        if (value !== undefined) parts.push(`${filter.field} ${RANGE_OPS[bound]} ${literal(filter.field, value)}`);
      }
      return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' AND ')})`;
    }
    case 'isNull':
      return `${filter.field} ${filter.value === false ? 'IS NOT NULL' : 'IS NULL'}`;
  }
}

/**
 * Translates a filter to a LanceDB `where` predicate over the chunks table, or `undefined` for
 * no filter. The filter is validated first, so field names come only from `FILTER_FIELDS` and
 * values only reach the SQL as escaped literals.
 *
 * @throws PermanentError `INVALID_PAYLOAD` for a malformed filter.
 */
export function filterToSql(filter: Filter | undefined): string | undefined {
  if (filter === undefined) return undefined;
  return translate(parseFilter(filter));
}
