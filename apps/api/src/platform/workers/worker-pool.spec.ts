import { join } from 'node:path';
import { mulberry32, playRandomMatch, shuffleDeck } from '@bismarck/rules';
import { dealToAnalyse } from '../../game/analysis/deal-analysis';
import type { AnalysisJob, Solved } from '../../game/analysis/analysis.worker';
import { workerPool } from './worker-pool';

const events = playRandomMatch({ schedule: 'quick' }, 0, { random: mulberry32(3), deck: (n) => shuffleDeck('pool', n) }).events;
const deal = dealToAnalyse(events, 3)!;
const ANALYSIS = join(__dirname, '..', '..', 'game', 'analysis', 'analysis.worker');
const job = (maxNodes: number, d = deal): AnalysisJob => ({ deal: d, maxNodes });

describe('workerPool: the api worker threads, run here from their TypeScript sources', () => {
  const pool = workerPool(ANALYSIS, { threads: 1 });
  afterAll(() => pool.destroy());

  it('solves a deal in a worker thread and answers it with the time spent', async () => {
    const { analysis, ms } = (await pool.run(job(20_000))) as Solved;
    expect(analysis.cards).toHaveLength(48);
    expect(ms).toBeGreaterThan(0);
    expect(pool.threads).toHaveLength(1);
  }, 60_000);

  it('fails a job the worker cannot do, with the reason, and goes on with the next', async () => {
    const short = { ...deal, plays: deal.plays.slice(0, 47) };
    const [failed, next] = await Promise.allSettled([pool.run(job(20_000, short)), pool.run(job(20_000))]);
    expect(failed).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringContaining('47 cards played, 48 expected') }) });
    expect(next).toMatchObject({ status: 'fulfilled' });
  }, 60_000);

  it('counts the jobs waiting for a thread, and fails them when it is destroyed', async () => {
    const other = workerPool(ANALYSIS, { threads: 1 });
    const running = expect(other.run(job(2_000_000))).rejects.toThrow('Terminating');
    const waiting = expect(other.run(job(2_000_000))).rejects.toThrow('Terminating');
    expect(other.queueSize).toBe(1);
    await other.destroy();
    await running;
    await waiting;
  }, 60_000);
});
