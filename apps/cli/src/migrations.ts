/** The api's schema: the event store's migrations, then the projections'. Loaded on demand (TypeORM is heavy). */
export async function apiMigrations() {
  const [{ eventStoreMigrations }, { projectionMigrations }] = await Promise.all([import('@bismarck/event-store'), import('@bismarck/projections')]);
  return [...eventStoreMigrations, ...projectionMigrations];
}
