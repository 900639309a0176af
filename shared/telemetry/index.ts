export { createLogger, type Logger } from './logger.ts';
export { ATTR, startTelemetry, withSpan } from './tracing.ts';
