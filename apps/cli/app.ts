import { loadConfig, type Config } from '../../shared/config/config.ts';
import { createLogger, type Logger } from '../../shared/telemetry/logger.ts';
import { createPorts, type Ports } from '../../workers/runtime/ports.ts';
import { REDIS_MISSING_MESSAGE, redisAnswers } from './local-redis.ts';

/** Config for this process, loaded once from the environment. */
export function appConfig(): Config {
  return loadConfig(process.env);
}

export function cliLogger(config: Config): Logger {
  return createLogger(config.logLevel, { service: 'quarry-cli' });
}

/** Ports for a one-shot command; fails with a clear message when Redis is not there. */
export async function openPorts(config: Config): Promise<Ports & { close(): Promise<void> }> {
  if (!(await redisAnswers(config.redisUrl))) {
    throw new Error(`no Redis answers at ${config.redisUrl}. Start one (e.g. \`npm run dev\` starts a local one), or set REDIS_URL.\n${REDIS_MISSING_MESSAGE}`);
  }
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
