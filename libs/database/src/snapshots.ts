import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { MigrationClass } from './data-source';

/**
 * Saved data directories a throw-away embedded database ('memory', 'scratch') starts from, instead of
 * running initdb (~3 s of WebAssembly) and the migrations (~0.6 s) each time: a fresh cluster, and one
 * per set of migrations with those applied; gzipped tarballs for 'memory', plain directories for
 * 'scratch' (copied, then opened). They live in node_modules/.cache/bismarck (the usual home of tools'
 * caches, emptied by `npm ci`), named by the PGlite version that wrote them.
 */
export interface SavedSnapshots {
  /** A fresh cluster, as initdb leaves it. */
  readonly cluster: string;
  /** The cluster with the given migrations applied; absent when none were given. */
  readonly migrated?: string;
}

/** Files not used for this long are removed when a new one is written. */
const UNUSED_FOR_MS = 14 * 24 * 3600 * 1000;

/** Where the snapshots for this PGlite (and these migrations) are, or undefined when there is no node_modules to hold them. */
export function savedSnapshots(format: 'tarball' | 'directory', migrations?: readonly MigrationClass[]): SavedSnapshots | undefined {
  const entry = createRequire(__filename).resolve('@electric-sql/pglite');
  const marker = `${sep}node_modules${sep}@electric-sql${sep}pglite${sep}`;
  const at = entry.lastIndexOf(marker);
  if (at < 0) return undefined;
  let version: string;
  try {
    ({ version } = JSON.parse(readFileSync(join(entry.slice(0, at + marker.length), 'package.json'), 'utf8')) as { version: string });
  } catch {
    return undefined;
  }
  const dir = join(entry.slice(0, at), 'node_modules', '.cache', 'bismarck');
  const suffix = format === 'tarball' ? '.tar.gz' : '';
  return {
    cluster: join(dir, `pglite-${version}-initdb${suffix}`),
    migrated: migrations?.length ? join(dir, `pglite-${version}-migrated-${migrationsKey(migrations)}${suffix}`) : undefined,
  };
}

/**
 * Names the schema a set of migrations makes: their names and the text of what they run, so editing
 * a migration (not only adding one) makes a new snapshot rather than starting from a stale one.
 */
export function migrationsKey(migrations: readonly MigrationClass[]): string {
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(`${m.name}\n${String(m.prototype.up)}\n${String(m.prototype.down)}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** Marks a snapshot as used, so pruning keeps it. */
export function touchSnapshot(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // best effort: at worst it is written again later
  }
}

/** Removes snapshots (of any PGlite version) unused for two weeks, and partial files left by a crash. */
export function pruneSnapshots(dir: string, now = Date.now()): void {
  for (const name of namesIn(dir)) {
    if (!name.startsWith('pglite-')) continue;
    const path = join(dir, name);
    try {
      const partial = /\.\d+$/.test(name); // pglite-…<.tar.gz>.<pid>: left by a crash while it was written
      if (now - statSync(path).mtimeMs > (partial ? 3600 * 1000 : UNUSED_FOR_MS)) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process pruned it first
    }
  }
}

/**
 * Removes the scratch directories ('scratch' databases) whose process is gone: each database removes
 * its own when it stops, so only a killed one leaves its directory behind.
 */
export function pruneScratchDirectories(dir = tmpdir()): void {
  for (const name of namesIn(dir)) {
    const pid = /^bismarck-scratch-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || alive(Number(pid))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** True while a process of that id runs (EPERM: it runs, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The entries of a folder, none when it cannot be read (not made yet). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
