import { readFileSync } from 'node:fs';
import { EXPORT_FORMAT } from '@bismarck/audit';
import { fromNotation, NotationError, toNotation } from '@bismarck/notation';
import type { BismarckEvent } from '@bismarck/rules';
import type { Command } from 'commander';

/**
 * `bismarck notation <export.json>` prints a match in the plain-text notation (docs/notation.md);
 * `bismarck notation --parse <file.txt>` reads a notation back and prints its events as JSON. Offline:
 * no server, no database. Exit status 1, with the line and what was expected, when a file is not one.
 */
export function registerNotationCommand(program: Command): void {
  program
    .command('notation [file]')
    .description('print a match in the plain-text notation, from an export (GET /api/matches/{id}/export) or a JSON array of events; --parse reads a notation back into JSON events')
    .option('--parse <file>', 'read a notation and print its events as JSON: [{ version, type, data }, …]')
    .action(notationCommand);
}

export function notationCommand(file: string | undefined, options: { parse?: string }): void {
  if ((file === undefined) === (options.parse === undefined)) {
    fail('give either an export to write as notation (bismarck notation <export.json>) or a notation to read (bismarck notation --parse <file.txt>)');
  }
  if (options.parse !== undefined) {
    const events = convert(options.parse, () => fromNotation(read(options.parse!)));
    console.log(JSON.stringify(events.map((e, i) => ({ version: i + 1, type: e.type, data: e.data })), null, 2));
    return;
  }
  const events = eventsOf(file!, read(file!));
  process.stdout.write(convert(file!, () => toNotation(events)));
}

/** The events of an export document, or of a JSON array of `{ type, data }` (what --parse prints). */
function eventsOf(file: string, text: string): BismarckEvent[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return fail(`${file} is not JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(doc) ? doc : (doc as { format?: unknown })?.format === EXPORT_FORMAT ? (doc as { events: unknown }).events : null;
  if (!Array.isArray(list) || !list.every((e) => e !== null && typeof e === 'object' && typeof e.type === 'string' && 'data' in e)) {
    return fail(`${file} is neither a ${EXPORT_FORMAT} document nor a JSON array of events ({ type, data })`);
  }
  return list.map((e: { type: string; data: unknown }) => ({ type: e.type, data: e.data }) as BismarckEvent);
}

function convert<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof NotationError) return fail(`${file}: ${error.message}`);
    throw error;
  }
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
