export { embedWorker } from './embed.worker.ts';
