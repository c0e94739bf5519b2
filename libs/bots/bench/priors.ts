// Measures CONTRACT_PRIORS (strong.ts): what each contract is worth to forehand on an average deal, as
// the strong bot values it (contractValues, the trump contract with its best suit), for a blind and an
// informed choice under each scoring. Paste the printed table into strong.ts.
//   npm run -s build && node dist/libs/bots/bench/priors.js      (PRIORS_DEALS=400 PRIORS_SEED=7)
import { type Contract, type Suit, freshDeck, mulberry32 } from '@bismarck/rules';
import { STRONG_DEFAULTS, type StrongView, contractValues } from '../src/strong';

const deals = Number(process.env.PRIORS_DEALS ?? 400);
const random = mulberry32(Number(process.env.PRIORS_SEED ?? 7));
const CONTRACTS: Contract[] = ['spades', 'trump', 'notrump', 'pass'];
const TRUMPS: Suit[] = ['S', 'H', 'D', 'C'];

const out: Record<string, Record<string, Record<Contract, number>>> = {};
for (const choice of ['blind', 'informed']) {
  out[choice] = {};
  for (const scoring of ['zeroSum', 'overOnly']) {
    const sums: Record<Contract, number> = { spades: 0, trump: 0, notrump: 0, pass: 0 };
    for (let d = 0; d < deals; d++) {
      const deck = freshDeck();
      for (let i = deck.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
      const view: StrongView = {
        seat: 1,
        hand: choice === 'blind' ? [] : deck.slice(4, 20),
        handSizes: choice === 'blind' ? [0, 0, 0] : [16, 16, 16],
        forehand: 1,
        dealNumber: 1,
        tableCards: deck.slice(0, 4),
        laidAway: null,
        trick: [],
        trump: null,
        contract: null,
        options: { mustTrump: false, schedule: 'modern', scoring, contractChoice: choice },
        legal: { action: 'chooseContract', contracts: CONTRACTS, trumps: TRUMPS },
      };
      const values = contractValues(view, CONTRACTS, TRUMPS, { ...STRONG_DEFAULTS, budgetMs: Infinity, random });
      for (const c of CONTRACTS) sums[c] += Math.max(...values.filter((v) => v.contract === c).map((v) => v.value));
    }
    out[choice][scoring] = Object.fromEntries(CONTRACTS.map((c) => [c, Number((sums[c] / deals).toFixed(2))])) as Record<Contract, number>;
    process.stderr.write(`${choice} ${scoring}: ${JSON.stringify(out[choice][scoring])}\n`);
  }
}
console.log(JSON.stringify(out, null, 2));
