import { Command } from 'commander';
import { demoCommand } from './commands/demo.ts';
import { facetsCommands } from './commands/facets.ts';
import { ingestCommands } from './commands/ingest.ts';
import { jobsCommands } from './commands/jobs.ts';
import { memoryCommands } from './commands/memory.ts';
import { runCommands } from './commands/run.ts';
import { searchCommand } from './commands/search.ts';
import { queryCommand } from './commands/query.ts';
import { reindexCommand } from './commands/reindex.ts';
import { retryCommand } from './commands/retry.ts';
import { statusCommand } from './commands/status.ts';
import { verifyCommands } from './commands/verify.ts';

const program = new Command('quarry').description('PDFs in a folder → searchable, cited chunks').showHelpAfterError();
ingestCommands(program);
retryCommand(program);
jobsCommands(program);
statusCommand(program);
searchCommand(program);
queryCommand(program);
runCommands(program);
demoCommand(program);
facetsCommands(program);
memoryCommands(program);
verifyCommands(program);
reindexCommand(program);

await program.parseAsync(process.argv);
