export { quarryMetrics, type QuarryMetrics } from './metrics.ts';
