/**
 * OpenTelemetry for Quarry: one tracer, a span helper, and the SDK set-up every long-running
 * process calls in `main`. The SDK is configured by the standard `OTEL_*` variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_TRACES_EXPORTER`, `OTEL_SERVICE_NAME`, …); without any of
 * them nothing is started and every span below is a no-op.
 *
 * Spans carry ids (document, run, stage), never document or query text (seed 000 §12).
 */
import { SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/** The tracer every Quarry span comes from. */
export function tracer() {
  return trace.getTracer('quarry');
}

/** Span attribute names Quarry sets. */
export const ATTR = {
  docId: 'quarry.doc_id',
  version: 'quarry.version',
  stage: 'quarry.stage',
  runId: 'quarry.run_id',
  node: 'quarry.agent_node',
  errorCode: 'quarry.error_code',
} as const;

/** Runs `fn` inside an active span (children and BullMQ enqueues join its trace); errors are recorded with their code. */
export async function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      const code = (err as { code?: unknown })?.code;
      span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : 'error' });
      if (typeof code === 'string') span.setAttribute(ATTR.errorCode, code);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** True when the environment asks for traces to be exported. */
export function telemetryConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (env.OTEL_TRACES_EXPORTER && env.OTEL_TRACES_EXPORTER !== 'none'));
}

/**
 * Starts the OpenTelemetry Node SDK for this process when the process's `OTEL_*` variables ask
 * for it (the SDK reads them itself). Returns the shutdown that flushes pending spans (call it
 * before the process exits).
 */
export async function startTelemetry(serviceName: string): Promise<{ shutdown(): Promise<void> }> {
  if (!telemetryConfigured(process.env)) return { shutdown: async () => undefined };
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
