import { z } from 'zod';
import { HttpError } from '../../core/failures.ts';

/** Parses with zod; a failure is a 400 naming every bad field. */
export function parseOr400<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'params' | 'query' | 'headers'): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as z.infer<T>;
  const fields = parsed.error.issues.map((i) => ({ field: [where, ...i.path.map(String)].join('.'), message: i.message }));
  throw new HttpError(400, 'INVALID_PAYLOAD', fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);
}

/** JSON Schema of a zod schema, for the OpenAPI document. */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
