export { agentWorker } from './agent.worker.ts';
