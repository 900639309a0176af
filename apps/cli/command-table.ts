/**
 * The `quarry` command groups, each loaded only when asked for. A command module imports what its
 * commands run (the gateway and Fastify, the MCP SDK, the agent's LangGraph, the watcher…), so
 * registering every command up front made `quarry workers start --only chunk` load all of it
 * before it could start one worker. `groupFor` picks the one group the command line names; help,
 * an empty command line or an unknown command load none: commander lists and suggests from the
 * summaries (command-summaries.ts), which is what lets `--help` answer at once.
 */
import type { Command } from 'commander';
import { COMMAND_SUMMARIES, commandSpec, type CommandName } from './command-summaries.ts';

/** Registers a group's commands on the program. */
export type Register = (program: Command) => void;

/** One or more top-level commands and the module(s) that define them. */
export interface CommandGroup {
  /** The top-level command names this group registers. */
  names: readonly CommandName[];
  /** Imports the group's module(s); resolves with what registers its commands. */
  load: () => Promise<Register>;
}

/** Every group, in the order `quarry --help` lists them. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    names: ['ingest'],
    load: async () => {
      const [{ ingestCommands }, { retryCommand }] = await Promise.all([import('./commands/ingest.ts'), import('./commands/retry.ts')]);
      return (p) => {
        ingestCommands(p);
        retryCommand(p);
      };
    },
  },
  { names: ['jobs'], load: async () => (await import('./commands/jobs.ts')).jobsCommands },
  { names: ['status'], load: async () => (await import('./commands/status.ts')).statusCommand },
  { names: ['search'], load: async () => (await import('./commands/search.ts')).searchCommand },
  { names: ['query'], load: async () => (await import('./commands/query.ts')).queryCommand },
  { names: ['dev', 'workers', 'gateway', 'watch'], load: async () => (await import('./commands/run.ts')).runCommands },
  { names: ['demo'], load: async () => (await import('./commands/demo.ts')).demoCommand },
  { names: ['facets'], load: async () => (await import('./commands/facets.ts')).facetsCommands },
  { names: ['memory'], load: async () => (await import('./commands/memory.ts')).memoryCommands },
  { names: ['verify'], load: async () => (await import('./commands/verify.ts')).verifyCommands },
  { names: ['reindex'], load: async () => (await import('./commands/reindex.ts')).reindexCommand },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.ts')).mcpCommand },
];

/**
 * The group to load for a command line (`process.argv.slice(2)`): the group of its first word when
 * that word is a known command (or of the second, after `help`), else none: no command, an option
 * such as `--help` first, a typo commander should answer with a suggestion.
 */
export function groupFor(args: readonly string[], groups: readonly CommandGroup[] = COMMAND_GROUPS): CommandGroup | null {
  const first = args[0] === 'help' ? args[1] : args[0];
  if (first === undefined || first.startsWith('-')) return null;
  return groups.find((g) => (g.names as readonly string[]).includes(first)) ?? null;
}

/** Registers every top-level command by its summary alone (no module loaded): enough to list them, or to suggest one. */
export function registerSummaries(program: Command): void {
  for (const name of Object.keys(COMMAND_SUMMARIES) as CommandName[]) program.command(commandSpec(name)).description(COMMAND_SUMMARIES[name].description);
}
