// @bismarck/api: the api's public entry, all that other apps and tools may import of it (the CLI
// serves it in-process, the client generator reads its OpenAPI document). The rest of apps/api/src
// is the api's own and may change without them.
export { buildOpenApi, createApp } from './bootstrap';
export type { CreateAppOptions } from './bootstrap';
