import { Option, type Command } from 'commander';
import { runBot } from './bot/bot';
import { STRATEGIES, type StrategyName } from '@bismarck/bots';

/** `bismarck bot --url URL --match ID [--token TOKEN] [--strategy random|greedy|strong] [--budget-ms MS]`: plays one seat to the end. */
export function registerBotCommand(program: Command): void {
  program
    .command('bot')
    .description('play one seat of a match to the end (waits for its turn on the live event stream)')
    .requiredOption('--url <url>', 'the api, e.g. http://localhost:3000')
    .requiredOption('--match <id>', 'the match id')
    .addOption(tokenOption("the seat's token (required)"))
    .option('--strategy <name>', STRATEGIES.join(', '), 'greedy')
    .option('--budget-ms <ms>', 'strong only: the time one decision may take (default 200)')
    .option('--quiet', 'print only the result')
    .action(async (o: { url: string; match: string; token?: string; strategy: string; budgetMs?: string; quiet?: boolean }) => {
      if (!o.token) throw new Error(`a seat token is needed: ${TOKEN_ENV}=<token> or --token <token>`);
      const strategy = parseStrategy(o.strategy);
      const budgetMs = o.budgetMs === undefined ? undefined : Number(o.budgetMs);
      if (budgetMs !== undefined && !(budgetMs > 0)) throw new Error('--budget-ms must be a positive number of milliseconds');
      const log = o.quiet ? undefined : (line: string) => console.log(line);
      const result = await runBot({ url: o.url, match: o.match, token: o.token, strategy, budgetMs, log });
      const { view } = result;
      console.log(`seat ${result.seat}: ${result.actions} actions; totals ${view.totals.join(' / ')}; winners ${JSON.stringify(view.winners)}`);
    });
}

/** The environment variable a seat token may come from instead of `--token`. */
export const TOKEN_ENV = 'BISMARCK_TOKEN';

/** `--token`, or BISMARCK_TOKEN: a token in the environment does not show in `ps` as an argument does. */
export function tokenOption(description: string): Option {
  return new Option('--token <token>', `${description}; better from the environment, which \`ps\` does not show`).env(TOKEN_ENV);
}

export function parseStrategy(name: string): StrategyName {
  const known = STRATEGIES.find((s) => s === name);
  if (!known) throw new Error(`--strategy must be one of ${STRATEGIES.join(', ')}, not "${name}"`);
  return known;
}
