/**
 * A worker process whose extraction never ends, as one being OOM-killed looks from Redis: it
 * takes the job through the real runtime (lock, status `running@extract`) and holds it until the
 * test SIGKILLs it. Run with `node --import tsx tests/helpers/hanging-extract-worker.ts`, config
 * from the environment.
 */
import { extractQueue } from '../../queues/ingest.queues.ts';
import { loadConfig } from '../../shared/config/config.ts';
import { createLogger } from '../../shared/telemetry/logger.ts';
import { createPorts } from '../../workers/compose.ts';
import { defineStageWorker } from '../../workers/runtime/stage-worker.ts';
import { startWorkers } from '../../workers/runtime/start-workers.ts';

const config = loadConfig(process.env);
const ports = await createPorts(config);
const hang = defineStageWorker(extractQueue, { needs: [] }, () => new Promise<never>(() => undefined));
startWorkers([hang], ports, createLogger('error'));
