import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { queueTelemetry } from '../../queues/telemetry.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { startTelemetry, telemetryConfigured, tracer, withSpan } from '../../shared/telemetry/tracing.ts';

describe('telemetry set-up', () => {
  afterAll(() => trace.disable());

  it('starts only when OTEL_* configuration asks for it', () => {
    expect(telemetryConfigured({})).toBe(false);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(telemetryConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(telemetryConfigured({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(telemetryConfigured({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('without configuration spans are no-ops; with it the Node SDK records them', async () => {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith('OTEL_')) delete process.env[k];
    try {
      const off = await startTelemetry('quarry-test');
      expect(tracer().startSpan('x').isRecording()).toBe(false);
      await off.shutdown();
      // The console exporter: nothing leaves the process.
      Object.assign(process.env, { OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });
      const on = await startTelemetry('quarry-test');
      const span = tracer().startSpan('y');
      expect(span.isRecording()).toBe(true);
      await on.shutdown();
    } finally {
      process.env = saved;
    }
  });

  it("BullMQ gets telemetry only once a tracer provider is registered (else it would build no-op spans and carry their context in every job)", () => {
    trace.disable();
    expect(queueTelemetry()).toBeUndefined();
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    try {
      expect(queueTelemetry()?.tracer).toBeDefined();
    } finally {
      trace.disable();
    }
  });

  it('withSpan records the error code of a failure and rethrows it', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { service: 't' }, (l) => lines.push(l));
    await expect(withSpan('z', {}, async () => {
      log.info('inside');
      throw Object.assign(new Error('boom'), { code: 'CORRUPT_PDF' });
    })).rejects.toThrow('boom');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'info', msg: 'inside', service: 't' });
  });
});
