/**
 * The Prometheus metrics of a process (/metrics on the gateway and on each worker's health port):
 * jobs by queue and state, stage durations, failures by code, query latency, memory updates.
 * Imports prom-client only: kept apart from telemetry/ so that a process that logs does not
 * load it.
 * Entry point: quarryMetrics.
 */

export { quarryMetrics, type QuarryMetrics } from './metrics.ts';
