import { Command } from 'commander';
import { rebuildCommand } from './rebuild.command';

/** `npm run bismarck -- <command>`: the operator's and player's command line. */
const program = new Command('bismarck').description('Bismarck game service command line').showHelpAfterError();

program
  .command('rebuild')
  .description('rebuild every projection from the event log (DATABASE_URL, or the embedded database in BISMARCK_DATA_DIR)')
  .option('--compare-only', 'rebuild into fresh tables and report differences, without making them live')
  .action(rebuildCommand);

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
