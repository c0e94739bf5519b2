import { mulberry32, playRandomMatch, shuffleDeck } from '@bismarck/rules';
import { AnalysisPool } from './analysis-pool';
import { dealToAnalyse } from './deal-analysis';

const events = playRandomMatch({ schedule: 'quick' }, 0, { random: mulberry32(3), deck: (n) => shuffleDeck('pool', n) }).events;
const deal = dealToAnalyse(events, 3)!;

describe('AnalysisPool', () => {
  const pool = new AnalysisPool(1);
  afterAll(() => pool.close());

  it('solves a deal in a worker thread and answers it with the time spent', async () => {
    const { analysis, ms } = await pool.run(deal, 20_000);
    expect(analysis.cards).toHaveLength(48);
    expect(ms).toBeGreaterThan(0);
  }, 60_000);

  it('fails a job the worker cannot do, with the reason, and goes on with the next', async () => {
    const short = { ...deal, plays: deal.plays.slice(0, 47) };
    const [failed, next] = await Promise.allSettled([pool.run(short, 20_000), pool.run(deal, 20_000)]);
    expect(failed).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('47 cards played, 48 expected') }) });
    expect(next).toMatchObject({ status: 'fulfilled' });
  }, 60_000);

  it('refuses jobs once closed, and fails those still waiting', async () => {
    const other = new AnalysisPool(1);
    const running = expect(other.run(deal, 20_000)).rejects.toThrow('closed');
    const waiting = expect(other.run(deal, 20_000)).rejects.toThrow('closed');
    expect(other.waiting).toBe(1);
    await other.close();
    await running;
    await waiting;
    await expect(other.run(deal, 1)).rejects.toThrow('closed');
  });
});
