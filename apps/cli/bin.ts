import { Command } from 'commander';
import { groupFor, registerSummaries } from './command-table.ts';
import { nodeVersionProblem } from './node-version.ts';
import { quietLanceDbLogs } from '../../shared/lance-logs.ts';

const tooOld = nodeVersionProblem(process.version);
if (tooOld) {
  process.stderr.write(`quarry: ${tooOld}\n`);
  process.exit(1);
}
// Before any command module (and with it LanceDB) is imported.
quietLanceDbLogs();

const program = new Command('quarry').description('PDFs in a folder → searchable, cited chunks').showHelpAfterError();
// Only the named command's module is imported (see command-table.ts): start-up cost of a worker
// process is what a scale-up waits for, and help needs none of them.
const group = groupFor(process.argv.slice(2));
if (group) (await group.load())(program);
else registerSummaries(program);

await program.parseAsync(process.argv);
