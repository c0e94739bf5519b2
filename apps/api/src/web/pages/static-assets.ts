import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ProblemException } from '../../platform/problem/problem';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * A page's files (the viewer's, the table's), read once at start-up and served from memory: no path is
 * ever built from the request (so `constructor` or `..` name nothing), and no file API refuses the
 * install directory because one of its segments starts with a dot (`res.sendFile` does, e.g. under
 * `~/.cache`).
 */
export class StaticAssets {
  private readonly files: Map<string, { type: string; body: Buffer }>;

  /** `page` is the HTML file, served by `sendPage` only (never as an asset). */
  constructor(dir: string, names: string[], private readonly page: string) {
    this.files = new Map(names.map((name) => [name, { type: TYPES[extname(name)], body: readFileSync(join(dir, name)) }]));
  }

  sendPage(res: Response): void {
    const html = this.files.get(this.page)!;
    res.type(html.type).send(html.body);
  }

  /** One of the page's scripts or style sheets, or 404 (problem+json) for any other name. */
  sendAsset(file: string, res: Response, notFound: string): void {
    const asset = file === this.page ? undefined : this.files.get(file);
    if (!asset) throw new ProblemException('NOT_FOUND', notFound);
    res.type(asset.type).setHeader('Cache-Control', 'public, max-age=300');
    res.send(asset.body);
  }
}
