import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { startEmbeddedPostgres } from './embedded';
import { memorySnapshots, migrationsKey, pruneSnapshots } from './snapshots';

jest.setTimeout(90_000);

async function tables(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query(`SELECT name FROM migrations ORDER BY id`)).rows as { name: string }[];
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** A migration of this test's own (a fresh name per run), so its snapshot is made here and removed after. */
function oneOffMigration(sql: string): new () => MigrationInterface {
  const name = `SnapshotProbe${Date.now()}${process.pid}`;
  const Migration = class implements MigrationInterface {
    name = name;
    async up(q: QueryRunner) {
      await q.query(sql);
    }
    async down() {}
  };
  Object.defineProperty(Migration, 'name', { value: name });
  return Migration;
}

describe('in-memory snapshots', () => {
  it('the first start applies the migrations and saves them; the next starts from that snapshot; a damaged one is made again', async () => {
    const probe = oneOffMigration(`CREATE TABLE probe (v text)`);
    const snapshot = memorySnapshots([probe])!.migrated!;
    try {
      expect(existsSync(snapshot)).toBe(false);
      const first = await startEmbeddedPostgres({ dataDir: 'memory', migrations: [probe] });
      expect(await tables(first.url)).toEqual([probe.name]);
      await first.stop();
      expect(existsSync(snapshot)).toBe(true);

      const second = await startEmbeddedPostgres({ dataDir: 'memory', migrations: [probe] });
      expect(await tables(second.url)).toEqual([probe.name]);
      await second.stop();

      writeFileSync(snapshot, 'not a tarball');
      const third = await startEmbeddedPostgres({ dataDir: 'memory', migrations: [probe] });
      expect(await tables(third.url)).toEqual([probe.name]);
      await third.stop();
      expect(readFileSync(snapshot).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip again
    } finally {
      rmSync(snapshot, { force: true });
    }
  });

  it('a snapshot is named by what the migrations run, not only by their names', () => {
    const before = class Kept1 {
      async up(q: QueryRunner) {
        await q.query(`CREATE TABLE kept (v text)`);
      }
    };
    const edited = class Kept1 {
      async up(q: QueryRunner) {
        await q.query(`CREATE TABLE kept (v int)`);
      }
    };
    expect(before.name).toBe(edited.name);
    expect(migrationsKey([before])).not.toEqual(migrationsKey([edited]));
    expect(migrationsKey([before])).toEqual(migrationsKey([before]));
    expect(migrationsKey([before, edited])).not.toEqual(migrationsKey([edited, before]));
  });

  it('pruning removes snapshots unused for two weeks and partial files, and keeps the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bismarck-snapshots-'));
    try {
      const now = Date.now();
      const files = { used: 'pglite-1-initdb.tar.gz', stale: 'pglite-0-initdb.tar.gz', partial: 'pglite-1-initdb.tar.gz.123', other: 'notes.txt' };
      for (const name of Object.values(files)) writeFileSync(join(dir, name), '');
      const ago = (ms: number) => new Date(now - ms);
      utimesSync(join(dir, files.stale), ago(15 * 86_400_000), ago(15 * 86_400_000));
      utimesSync(join(dir, files.partial), ago(2 * 3_600_000), ago(2 * 3_600_000));
      utimesSync(join(dir, files.other), ago(30 * 86_400_000), ago(30 * 86_400_000));
      pruneSnapshots(dir, now);
      expect(existsSync(join(dir, files.used))).toBe(true);
      expect(existsSync(join(dir, files.stale))).toBe(false);
      expect(existsSync(join(dir, files.partial))).toBe(false);
      expect(existsSync(join(dir, files.other))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
