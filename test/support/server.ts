import type { NestExpressApplication } from '@nestjs/platform-express';

/** Listens on a free port of 127.0.0.1 and returns the base URL (for fetch, SSE and the client). */
export async function listenLocal(app: NestExpressApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** Collects events from an async iterator until `until` says stop (or it ends). */
export async function collect<T>(source: AsyncIterable<T>, until: (items: T[]) => boolean = () => false): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) {
    items.push(item);
    if (until(items)) break;
  }
  return items;
}
