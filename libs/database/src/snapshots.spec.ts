import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { startEmbeddedPostgres } from './embedded';
import { alive, migrationsKey, pruneScratchDirectories, pruneSnapshots, savedSnapshots } from './snapshots';

// A start runs initdb (seconds of WebAssembly) when no snapshot fits: a minute and more on a loaded two-core machine.
jest.setTimeout(240_000);


async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function tables(url: string): Promise<string[]> {
  const rows = (await query(url, `SELECT name FROM migrations ORDER BY id`)) as { name: string }[];
  return rows.map((r) => r.name);
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
    const snapshot = savedSnapshots('tarball', [probe])!.migrated!;
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

  it('a scratch database starts from a saved directory, in a directory of its own, named by its server, that it removes when it stops', async () => {
    const probe = oneOffMigration(`CREATE TABLE probe (v text)`);
    const saved = savedSnapshots('directory', [probe])!.migrated!;
    // Only this test's own directories are looked at: other processes (jest's other workers, a
    // `bismarck play`) make and remove theirs in the same temp folder at any time.
    const serverPid = (dir: string) => Number(/^bismarck-scratch-(\d+)-/.exec(basename(dir))?.[1]);
    try {
      const first = await startEmbeddedPostgres({ dataDir: 'scratch', migrations: [probe] });
      expect(first.dataDir).toBe('scratch');
      const own = first.scratchDir!;
      expect(dirname(own)).toBe(tmpdir());
      expect(existsSync(join(own, 'PG_VERSION'))).toBe(true);
      expect(await tables(first.url)).toEqual([probe.name]);
      // Named by the live process that serves it, so another start's pruning keeps it.
      expect(alive(serverPid(own))).toBe(true);
      pruneScratchDirectories();
      expect(existsSync(own)).toBe(true);
      await first.stop();
      expect(alive(serverPid(own))).toBe(false);
      expect(existsSync(own)).toBe(false);
      expect(existsSync(join(saved, 'PG_VERSION'))).toBe(true);

      // The next one copies the saved directory: written to, the copy changes and the saved one does not.
      const second = await startEmbeddedPostgres({ dataDir: 'scratch', migrations: [probe] });
      expect(second.scratchDir).not.toBe(own);
      await query(second.url, `INSERT INTO probe VALUES ('only here')`);
      expect(await tables(second.url)).toEqual([probe.name]);
      await second.stop();
      expect(existsSync(second.scratchDir!)).toBe(false);
      const third = await startEmbeddedPostgres({ dataDir: 'scratch', migrations: [probe] });
      expect(await query(third.url, `SELECT count(*)::int AS n FROM probe`)).toEqual([{ n: 0 }]);
      await third.stop();
    } finally {
      rmSync(saved, { recursive: true, force: true });
    }
  });

  it('the scratch directory of a killed database is removed by the next start, and a live one is kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bismarck-prune-'));
    try {
      const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid;
      mkdirSync(join(dir, `bismarck-scratch-${gone}-abc`));
      mkdirSync(join(dir, `bismarck-scratch-${process.pid}-def`));
      mkdirSync(join(dir, 'unrelated'));
      pruneScratchDirectories(dir);
      expect(readdirSync(dir).sort()).toEqual([`bismarck-scratch-${process.pid}-def`, 'unrelated']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
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
