/**
 * BullMQ's OpenTelemetry integration, as every Queue and Worker of Quarry gets it: trace context
 * travels in the job (one trace follows a document through every stage, a question through the
 * agent), but a job's result is never written into a span. BullMQ records each completed job's
 * result as a span event; an agent run's result is its answer, which quotes document text, and
 * spans must carry ids and numbers only (seed 000 §12).
 */
import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { Span, Telemetry } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';

/** Attributes BullMQ puts on span events that may carry job content. */
const CONTENT_ATTRIBUTES = ['bullmq.job.result'];

function withoutContent(span: Span): Span {
  return {
    setSpanOnContext: (ctx) => span.setSpanOnContext(ctx),
    setAttribute: (key, value) => span.setAttribute(key, value),
    setAttributes: (attributes) => span.setAttributes(attributes),
    addEvent: (name, attributes) =>
      span.addEvent(name, attributes && Object.fromEntries(Object.entries(attributes).filter(([k]) => !CONTENT_ATTRIBUTES.includes(k)))),
    recordException: (exception, time) => span.recordException(exception, time),
    end: () => span.end(),
  };
}

/** True once a tracer provider has been registered in this process (an SDK started, or a test's). */
function tracingActive(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer('quarry') !== undefined;
}

/**
 * The telemetry option of Quarry's BullMQ Queues and Workers: none while no tracer provider is
 * registered. BullMQ's spans would then be no-ops, but it still creates them and carries their
 * context in every job (~2.5 ms of a worker's CPU per small document, six stages).
 */
export function queueTelemetry(): Telemetry | undefined {
  if (!tracingActive()) return undefined;
  const otel = new BullMQOtel({ tracerName: 'quarry' });
  return {
    contextManager: otel.contextManager,
    tracer: { startSpan: (name, options, context) => withoutContent(otel.tracer.startSpan(name, options, context)) },
  };
}
