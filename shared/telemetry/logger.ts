/**
 * Structured logs (pino): one JSON object per line on stderr, with the active trace and span ids
 * so a line leads to its trace. Callers pass ids and numbers, never document or query text
 * (seed 000 §12).
 */
import { trace } from '@opentelemetry/api';
import pino from 'pino';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

function wrap(p: pino.Logger): Logger {
  return {
    debug: (m, f) => p.debug(f ?? {}, m),
    info: (m, f) => p.info(f ?? {}, m),
    warn: (m, f) => p.warn(f ?? {}, m),
    error: (m, f) => p.error(f ?? {}, m),
    child: (fields) => wrap(p.child(fields)),
  };
}

/**
 * A logger at `level` with `base` fields on every line. `write` receives each line (tests
 * capture them); by default lines go to stderr.
 */
export function createLogger(
  level: LogLevel,
  base: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const p = pino(
    {
      level,
      base,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const ctx = trace.getActiveSpan()?.spanContext();
        return ctx ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
      },
    },
    { write: (line: string) => write(line.replace(/\n$/, '')) },
  );
  return wrap(p);
}
