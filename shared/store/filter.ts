import { z } from 'zod';
import { IsoDate } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';

/**
 * Chunk fields a filter may name, and their kind. The list is closed on purpose: adapters turn
 * field names into query syntax, so only names from this table ever reach a query string.
 */
export const FILTER_FIELDS = {
  chunk_id: 'string',
  doc_id: 'string',
  version: 'string',
  section: 'string',
  section_path: 'string',
  doc_type: 'string',
  jurisdiction: 'string',
  lang: 'string',
  entities: 'string[]',
  valid_from: 'date',
  valid_to: 'date',
  created_at: 'datetime',
  updated_at: 'datetime',
  page_start: 'int',
  page_end: 'int',
  chunk_index: 'int',
  total_chunks: 'int',
  token_count: 'int',
} as const;

/** A filterable chunk field. */
export type FilterField = keyof typeof FILTER_FIELDS;
/** Kind of a filterable field: how its values are written and compared. */
export type FieldKind = (typeof FILTER_FIELDS)[FilterField];

const FIELD_NAMES = Object.keys(FILTER_FIELDS) as [FilterField, ...FilterField[]];
const FieldName = z.enum(FIELD_NAMES);
const Scalar = z.union([z.string(), z.number()]);
/** Nesting limit: a filter is built by code, never deep; a deep one is a bug or an attack. */
const MAX_DEPTH = 32;

/** Bounds of a range node; at least one must be present. Dates as `YYYY-MM-DD`, datetimes ISO 8601. */
export interface RangeBounds {
  gte?: string | number;
  gt?: string | number;
  lte?: string | number;
  lt?: string | number;
}

/** The filter tree every VectorStore adapter translates (Weaviate-like `where`). */
export type Filter =
  | { op: 'and'; args: Filter[] }
  | { op: 'or'; args: Filter[] }
  | { op: 'eq'; field: FilterField; value: string | number }
  | { op: 'in'; field: FilterField; values: (string | number)[] }
  | { op: 'containsAny'; field: FilterField; values: string[] }
  | ({ op: 'range'; field: FilterField } & RangeBounds)
  | { op: 'isNull'; field: FilterField; value?: boolean };

/** True when `value` is a valid literal for a field of `kind` (scalars; arrays compare items). */
export function isValueOfKind(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
    case 'string[]':
      return typeof value === 'string';
    case 'date':
      return IsoDate.safeParse(value).success;
    case 'datetime':
      return (
        typeof value === 'string' &&
        (IsoDate.safeParse(value).success || z.iso.datetime({ offset: true }).safeParse(value).success)
      );
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
  }
}

function checkValues(ctx: z.RefinementCtx, field: FilterField, values: readonly unknown[], path: string): void {
  const kind = FILTER_FIELDS[field];
  values.forEach((value, i) => {
    if (!isValueOfKind(kind, value)) {
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a ${kind} value for ${field}`, path: [path, i] });
    }
  });
}

const leaves = [
  z
    .object({ op: z.literal('eq'), field: FieldName, value: Scalar })
    .strict()
    .superRefine((n, ctx) => {
      if (FILTER_FIELDS[n.field] === 'string[]') {
        ctx.addIssue({ code: 'custom', message: `eq on array field ${n.field}: use containsAny`, path: ['field'] });
      } else checkValues(ctx, n.field, [n.value], 'value');
    }),
  z
    .object({ op: z.literal('in'), field: FieldName, values: z.array(Scalar).max(10_000) })
    .strict()
    .superRefine((n, ctx) => {
      if (FILTER_FIELDS[n.field] === 'string[]') {
        ctx.addIssue({ code: 'custom', message: `in on array field ${n.field}: use containsAny`, path: ['field'] });
      } else checkValues(ctx, n.field, n.values, 'values');
    }),
  z
    .object({ op: z.literal('containsAny'), field: FieldName, values: z.array(z.string()).max(10_000) })
    .strict()
    .superRefine((n, ctx) => {
      if (FILTER_FIELDS[n.field] !== 'string[]') {
        ctx.addIssue({ code: 'custom', message: `containsAny needs an array field, ${n.field} is not`, path: ['field'] });
      }
    }),
  z
    .object({ op: z.literal('range'), field: FieldName, gte: Scalar.optional(), gt: Scalar.optional(), lte: Scalar.optional(), lt: Scalar.optional() })
    .strict()
    .superRefine((n, ctx) => {
      const kind = FILTER_FIELDS[n.field];
      if (kind === 'string' || kind === 'string[]') {
        ctx.addIssue({ code: 'custom', message: `range on ${kind} field ${n.field}`, path: ['field'] });
        return;
      }
      const bounds = (['gte', 'gt', 'lte', 'lt'] as const).filter((b) => n[b] !== undefined);
      if (bounds.length === 0) ctx.addIssue({ code: 'custom', message: 'range needs at least one of gte, gt, lte, lt' });
      for (const b of bounds) checkValues(ctx, n.field, [n[b]], b);
    }),
  z.object({ op: z.literal('isNull'), field: FieldName, value: z.boolean().optional() }).strict(),
] as const;

/** zod schema of {@link Filter}; validates field kinds and value formats, not only the shape. */
export const Filter: z.ZodType<Filter> = z.lazy(() =>
  z.discriminatedUnion('op', [
    z.object({ op: z.literal('and'), args: z.array(Filter) }).strict(),
    z.object({ op: z.literal('or'), args: z.array(Filter) }).strict(),
    ...leaves,
  ]),
);

function depthOf(filter: Filter): number {
  return filter.op === 'and' || filter.op === 'or' ? 1 + Math.max(0, ...filter.args.map(depthOf)) : 1;
}

/**
 * Validates an untrusted filter (a queued payload may predate today's code).
 *
 * @throws PermanentError `INVALID_PAYLOAD` listing every problem, or when nesting exceeds 32.
 */
export function parseFilter(input: unknown): Filter {
  const parsed = Filter.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new PermanentError('INVALID_PAYLOAD', `invalid filter: ${problems}`);
  }
  if (depthOf(parsed.data) > MAX_DEPTH) throw new PermanentError('INVALID_PAYLOAD', `filter nested deeper than ${MAX_DEPTH}`);
  return parsed.data;
}

/** All of `args` (an empty `and` matches everything). */
export function and(...args: Filter[]): Filter {
  return { op: 'and', args };
}

/** Any of `args` (an empty `or` matches nothing). */
export function or(...args: Filter[]): Filter {
  return { op: 'or', args };
}

/** `field = value`. Dates as `YYYY-MM-DD`. */
export function eq(field: FilterField, value: string | number): Filter {
  return { op: 'eq', field, value };
}

/** `field` is one of `values` (empty `values` matches nothing). */
export function isIn(field: FilterField, values: (string | number)[]): Filter {
  return { op: 'in', field, values };
}

/** The array `field` (e.g. `entities`) shares at least one item with `values`. */
export function containsAny(field: FilterField, values: string[]): Filter {
  return { op: 'containsAny', field, values };
}

/** `field` within the given bounds (dates, datetimes or integers). A null field never matches. */
export function range(field: FilterField, bounds: RangeBounds): Filter {
  return { op: 'range', field, ...bounds };
}

/**
 * `field` is null (or, with `value = false`, is not null).
 * @defaultValue value = true
 */
export function isNull(field: FilterField, value = true): Filter {
  return { op: 'isNull', field, value };
}

/**
 * Chunks valid on `date` (`YYYY-MM-DD`): valid_from ≤ date < valid_to, where a null valid_from
 * means "valid since always" and a null valid_to "still valid". valid_to is exclusive because
 * it is the day the next revision takes effect.
 *
 * @throws PermanentError `INVALID_PAYLOAD` when `date` is not a real `YYYY-MM-DD` date.
 */
export function temporalClamp(date: string): Filter {
  if (!IsoDate.safeParse(date).success) throw new PermanentError('INVALID_PAYLOAD', `temporal clamp date must be YYYY-MM-DD, got ${date}`);
  return and(
    or(isNull('valid_from'), range('valid_from', { lte: date })),
    or(isNull('valid_to'), range('valid_to', { gt: date })),
  );
}
