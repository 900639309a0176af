/**
 * Logs and traces: the JSON logger (pino) with trace ids, spans around work, and the
 * OpenTelemetry SDK started on demand. Metrics are in shared/metrics/.
 * Imports only packages; never apps/, core/, workers/ or queues/.
 * Entry points: createLogger and Logger, withSpan, startTelemetry.
 */

export { createLogger, type Logger } from './logger.ts';
export { ATTR, startTelemetry, withSpan } from './tracing.ts';
