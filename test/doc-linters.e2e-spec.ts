import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { useTestApp } from './support/app';

// The two contracts as the service serves them, through the linters that code generators trust:
// Spectral (spectral:oas with .spectral.yaml, spectral:asyncapi with .spectral-asyncapi.yaml) and
// the official AsyncAPI parser. Any error or warning fails. Each linter is also handed a faulty
// document and must see the fault: a ruleset that checks nothing (a format it does not recognise,
// a rule set off by mistake) would otherwise pass everything.
type Json = Record<string, any>;
const ROOT = join(__dirname, '..');
const SPECTRAL = join(ROOT, 'node_modules', '.bin', 'spectral');
const run = promisify(execFile);

/** Spectral's errors and warnings on each document, by name, as `code at path: message`. */
async function spectral(ruleset: string, documents: Record<string, Json>): Promise<Record<string, string[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'bismarck-spectral-'));
  try {
    const files = Object.keys(documents).map((name) => join(dir, `${name}.json`));
    for (const [name, document] of Object.entries(documents)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(document, null, 2));
    // Spectral exits 1 when it finds an error; its report is on stdout all the same.
    const { stdout } = await run(SPECTRAL, ['lint', '--quiet', '--format', 'json', '--ruleset', join(ROOT, ruleset), ...files], { cwd: ROOT }).catch(
      (err: { code?: number; stdout?: string }) => {
        if (err.code === 1 && err.stdout) return { stdout: err.stdout };
        throw err;
      },
    );
    const found = Object.fromEntries(Object.keys(documents).map((name) => [name, [] as string[]]));
    for (const r of JSON.parse(stdout) as { code: string; path: string[]; message: string; severity: number; source: string }[]) {
      // 0 error, 1 warning; 2 information and 3 hint do not fail.
      if (r.severity <= 1) found[r.source.slice(dir.length + 1, -'.json'.length)].push(`${r.code} at ${r.path.join('.')}: ${r.message}`);
    }
    return found;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The AsyncAPI parser's errors and warnings, as `code at path: message`. */
async function parserFindings(document: Json): Promise<string[]> {
  const diagnostics = await new Parser().validate(JSON.stringify(document));
  return diagnostics
    .filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning)
    .map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`);
}

/**
 * A small OpenAPI 3.1 document, as the served one is to become: a nullable value written with a type
 * array and `null` in its enum (valid), and an operation whose tag is not declared (a warning).
 */
const OPENAPI_3_1_PROBE: Json = {
  openapi: '3.1.0',
  info: { title: 'probe', version: '1', description: 'A probe.', contact: { name: 'probe' } },
  servers: [{ url: '/' }],
  tags: [{ name: 'declared', description: 'A tag.' }],
  paths: {
    '/things': {
      get: {
        operationId: 'things',
        description: 'The things.',
        tags: ['undeclared'],
        responses: {
          '200': {
            description: 'A thing or none.',
            content: { 'application/json': { schema: { type: ['string', 'null'], enum: ['a', null], example: null } } },
          },
        },
      },
    },
  },
};

const t = useTestApp();
let openapi: Json;
let asyncapi: Json;
let oasFindings: Record<string, string[]>;
let aasFindings: Record<string, string[]>;

beforeAll(async () => {
  openapi = (await t.http().get('/docs/openapi.json').expect(200)).body;
  asyncapi = (await t.http().get('/asyncapi.json').expect(200)).body;
  const { servers: _, ...asyncapiWithoutServers } = asyncapi;
  [oasFindings, aasFindings] = await Promise.all([
    spectral('.spectral.yaml', { served: openapi, probe: OPENAPI_3_1_PROBE }),
    spectral('.spectral-asyncapi.yaml', { served: asyncapi, probe: asyncapiWithoutServers }),
  ]);
}, 60_000);

describe('the OpenAPI document (GET /docs/openapi.json)', () => {
  it('has no error and no warning from Spectral (spectral:oas, .spectral.yaml)', () => {
    expect(oasFindings.served).toEqual([]);
  });

  it('is linted by a Spectral that reads OpenAPI 3.1 and sees its faults', () => {
    expect(oasFindings.probe).toEqual([expect.stringMatching(/^operation-tag-defined at paths\.\/things\.get\.tags\.0: /)]);
  });
});

describe('the AsyncAPI document (GET /asyncapi.json)', () => {
  it('has no error and no warning from Spectral (spectral:asyncapi, .spectral-asyncapi.yaml)', () => {
    expect(aasFindings.served).toEqual([]);
  });

  it('is linted by a Spectral that sees its faults: without servers, it warns', () => {
    expect(aasFindings.probe).toEqual([expect.stringMatching(/^asyncapi-servers at : /)]);
  });

  it('has no error and no warning from the AsyncAPI parser', async () => {
    expect(await parserFindings(asyncapi)).toEqual([]);
  });

  it('is validated by a parser that sees its faults: an AsyncAPI 2 action is an error', async () => {
    const faulty = structuredClone(asyncapi);
    faulty.operations.receiveMatchEvents.action = 'subscribe';
    expect(await parserFindings(faulty)).toEqual([expect.stringMatching(/^asyncapi-document-resolved at operations\.receiveMatchEvents\.action: /)]);
  });
});
