import { loadConfig, type Config } from '../../shared/config/index.ts';
import { createLogger, type Logger } from '../../shared/telemetry/index.ts';
import { createPorts } from '../../workers/compose.ts';
import type { Ports } from '../../workers/runtime/index.ts';
import { devStatePath, readDevState, redisUrlFor } from './dev-state.ts';
import { REDIS_MISSING_MESSAGE, redisAnswers, redisServerAvailable } from './local-redis.ts';

/** Config plus where its Redis URL came from, for an error that says which one did not answer. */
export type AppConfig = Config & { redisFrom?: string };

/**
 * Config for this process, loaded once from the environment. Without REDIS_URL, a command finds
 * the Redis of a `quarry dev` running on the same data directory (see dev-state.ts).
 */
export function appConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const config = loadConfig(env);
  const { url, from } = redisUrlFor(env, config.redisUrl, readDevState(config.dataDir));
  const redisFrom = from === 'env' ? 'REDIS_URL' : from === 'dev' ? `the running quarry dev, ${devStatePath(config.dataDir)}` : 'the default REDIS_URL';
  return { ...config, redisUrl: url, redisFrom };
}

/** Why no Redis answered, for a person: where the URL came from and what to do. */
export function noRedisMessage(url: string, source: string, serverInstalled: boolean): string {
  const advice = serverInstalled
    ? 'Start Quarry with `npm run dev` (it starts a local Redis when none answers) and run this command from the same folder, or set REDIS_URL.'
    : `Start one (e.g. \`npm run dev\` starts a local one), or set REDIS_URL.\n${REDIS_MISSING_MESSAGE}`;
  return `no Redis answers at ${url} (from ${source}). ${advice}`;
}

export function cliLogger(config: Config): Logger {
  return createLogger(config.logLevel, { service: 'quarry-cli' });
}

/** Ports for a one-shot command; fails with a clear message when Redis is not there. */
export async function openPorts(config: AppConfig): Promise<Ports & { close(): Promise<void> }> {
  if (!(await redisAnswers(config.redisUrl))) throw new Error(noRedisMessage(config.redisUrl, config.redisFrom ?? 'REDIS_URL', redisServerAvailable()));
  return createPorts(config);
}

/** Prints an error for a person, not a stack, and sets a failing exit code. */
export function reportFailure(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  const code = typeof err === 'object' && err && 'code' in err ? `${String((err as { code: unknown }).code)}: ` : '';
  process.stderr.write(`quarry: ${code}${message}\n`);
  process.exitCode = 1;
}

/**
 * The shell of a one-shot command: config, ports, the command, and a readable failure (never a
 * stack) with a failing exit code. Ports are closed whatever happens.
 */
export async function withPorts(run: (ports: Ports, config: Config) => Promise<void>): Promise<void> {
  let ports: (Ports & { close(): Promise<void> }) | undefined;
  try {
    const config = appConfig();
    ports = await openPorts(config);
    await run(ports, config);
  } catch (err) {
    reportFailure(err);
  } finally {
    await ports?.close();
  }
}
