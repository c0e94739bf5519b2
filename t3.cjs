const t0=Date.now(); const lap=(m)=>console.log(m, Date.now()-t0);
(async()=>{
const { startEmbeddedPostgres } = require('./dist/libs/database/src');
const m=[...require('./dist/libs/event-store/src').eventStoreMigrations,...require('./dist/libs/projections/src').projectionMigrations];
lap('libs');
const starting = startEmbeddedPostgres({ dataDir: 'memory', migrations:m }).then(d=>{lap('db ready');return d;});
await new Promise(r=>setImmediate(r));
const api = require('./dist/apps/api/src'); lap('api import');
const db = await starting;
const app = await api.createApp({ databaseUrl: db.url, embedded: true, quiet: true }); lap('createApp');
await app.listen(0,'127.0.0.1'); lap('listen');
await app.close(); await db.stop(); lap('stopped');
})();
