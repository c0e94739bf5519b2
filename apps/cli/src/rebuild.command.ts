import { apiMigrations } from './migrations';

export async function rebuildCommand(options: { compareOnly?: boolean }): Promise<void> {
  // Loaded here, not at the top: every other command starts without TypeORM (about half a second).
  const [{ openDataSource, postgresDataSourceOptions, resolveDatabaseUrl, runMigrationsLocked }, { EventStore }, { ProjectionRebuilder }, migrations] =
    await Promise.all([import('@bismarck/database'), import('@bismarck/event-store'), import('@bismarck/projections'), apiMigrations()]);
  const database = await resolveDatabaseUrl();
  const dataSource = await openDataSource(
    postgresDataSourceOptions({ url: database.url, embedded: database.embedded, migrations, poolSize: 4 }),
  );
  const store = new EventStore(dataSource, { notifications: 'none' });
  try {
    await runMigrationsLocked(dataSource);
    const rebuilder = new ProjectionRebuilder(store, dataSource, (work) => dataSource.transaction((m) => work(m)));
    const stats = await rebuilder.rebuild();
    const differences = await rebuilder.compare();
    if (options.compareOnly) await rebuilder.dropRebuildTables();
    else await rebuilder.swap();
    const perSecond = stats.ms > 0 ? Math.round((stats.events / stats.ms) * 1000) : stats.events;
    // One log position: the live tables as one snapshot saw them, the replay of that snapshot's events.
    console.log(`live tables read at snapshot ${stats.snapshot} in ${stats.snapshotMs} ms; ratings compared at their projector's checkpoint ${stats.ratingsCheckpoint.txId}/${stats.ratingsCheckpoint.position}`);
    console.log(`replayed ${stats.events} events of ${stats.matches} matches in ${stats.ms} ms (${perSecond} events/s)`);
    for (const d of differences) console.log(`  ${d.table.padEnd(12)} live-only rows ${d.onlyLive}, rebuilt-only rows ${d.onlyRebuilt}`);
    const differing = differences.reduce((n, d) => n + d.onlyLive + d.onlyRebuilt, 0);
    console.log(options.compareOnly ? 'compared only: live tables untouched' : 'rebuilt tables are live');
    console.log(JSON.stringify({ ...stats, differences, swapped: !options.compareOnly }));
    // A script or CI job must be able to notice drift: with --compare-only it is left in place.
    if (options.compareOnly && differing > 0) {
      console.error(`${differing} projection rows differ from the log's replay: run \`bismarck rebuild\` to repair them`);
      process.exitCode = 1;
    }
  } finally {
    await store.close();
    await dataSource.destroy();
    await database.stop();
  }
}
