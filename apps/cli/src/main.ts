import { Command } from 'commander';
import { registerBotCommand, tokenOption } from './bot.command';
import { registerNotationCommand } from './notation.command';
import { registerPlayCommand, registerPrepareCommand } from './play.command';
import { rebuildCommand } from './rebuild.command';
import { replayCommand } from './replay.command';
import { verifyCommand } from './verify.command';

/** `npx bismarck <command>` (bin/bismarck.js): the operator's and player's command line. */
const program = new Command('bismarck').description('Bismarck game service command line').showHelpAfterError();

program
  .command('rebuild')
  .description('rebuild every projection from the event log (DATABASE_URL, or the embedded database in BISMARCK_DATA_DIR)')
  .option('--compare-only', 'rebuild into fresh tables and report differences, without making them live')
  .action(rebuildCommand);

program
  .command('replay <matchId>')
  .description('print a match deal by deal, trick by trick (as the caller may see it)')
  .option('--url <url>', 'the service', 'http://localhost:3000')
  .addOption(tokenOption('a seat token of this match, to see that seat\'s cards'))
  .action(replayCommand);

program
  .command('verify <file>')
  .description('check an exported match offline (GET /api/matches/{id}/export): exit status 0 when it verifies')
  .option('--pin <version:hash>', 'a checkpoint kept during play: the export must hold that hash at that version')
  .action(verifyCommand);

registerBotCommand(program);
registerNotationCommand(program);
registerPlayCommand(program);
registerPrepareCommand(program);

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
