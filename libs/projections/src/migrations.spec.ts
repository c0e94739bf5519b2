import { createHash } from 'node:crypto';
import { recordMigration, type RecordedStatement } from '@bismarck/database';
import { projectionMigrations } from './index';

const hashOf = (statements: RecordedStatement[]): string => createHash('sha256').update(JSON.stringify(statements)).digest('hex').slice(0, 16);

/**
 * What each migration sends, up and down, as it was released: a database migrated long ago and one
 * migrated today must end alike, so these hashes never change. A row changes only for the migration
 * that installs today's `bismarck_project` or `bismarck_project_player` (PROJECT_FUNCTION_SQL,
 * PLAYER_PROJECT_FUNCTION_SQL): freeze its text there first and install the new one with a new
 * migration (project-function.ts says how).
 */
const RELEASED: Record<string, { up: string; down: string }> = {
  Projections1799000000000: { up: '38b06c1b911c2881', down: 'e0191a222c15283c' },
  DealSeeds1799000002000: { up: 'a460d004eef8e246', down: '3cbefa451537ba56' },
  SlimProjections1799000003000: { up: '1195160cc8c732cf', down: '92d88644d46de4c2' },
  ListPlayers1799000004000: { up: '0d204f7a63bfdd71', down: '4f53cda18c2baa0c' },
  Checkpoints1799000005000: { up: 'd3f7e854461899b4', down: '8c91aea3ebd55245' },
  DealAnalyses1799000008000: { up: '9cc9683165eb6608', down: '85553258da37d5e2' },
  ForkedFrom1799000009000: { up: '135bed325ed94e38', down: '4ef5c1b55e69bfb9' },
  ProjectFunction1799000010000: { up: '46870d892bae7ab2', down: 'd2b767b6b2ecc059' },
  AnalysesByContent1799000011000: { up: '3df166303ea69043', down: 'e073a7fc4b20b798' },
  TurnDeadline1799000012000: { up: '8ecb75eee45ead77', down: '8bdfefd5c4a4cde1' },
  Rematch1799000013000: { up: '6cc25a334767ff41', down: '07e66ce432d70090' },
  Players1799000014000: { up: '9d75371596063bc2', down: 'aebbdc17cd071b56' },
  Ratings1799000015000: { up: '9309c8b9a0a91256', down: '16d8e4f35ca3ee00' },
  SeatPresence1799000016000: { up: '6d22339ab3fd3819', down: 'a813a5b154885d8d' },
  SweepClaims1799000017000: { up: '2c6d4a63365dd7e4', down: 'e4cd46c49029b4c8' },
  PlayerProjectFunction1799000018000: { up: 'cce5aa010d302d6d', down: 'a85f241500a8f25f' },
};

describe('projection migrations', () => {
  it.each(projectionMigrations.map((m) => [m.name, m] as const))('%s runs exactly the statements it was released with', async (name, migration) => {
    const recorded = await recordMigration(migration);
    expect({ up: hashOf(recorded.up), down: hashOf(recorded.down) }).toEqual(RELEASED[name]);
  });
});
