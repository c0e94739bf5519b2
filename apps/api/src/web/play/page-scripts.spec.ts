import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

// The table's scripts are plain ES modules the browser loads as they are (no build step); the
// TypeScript checker reads them as JavaScript all the same, so that a name imported but not exported,
// a misspelt one, or a DOM property an element does not have fails here rather than in a player's
// browser. Not strict: the DOM helpers stay untyped, the checks are those plain JavaScript allows.
// Every page's scripts and those they share (apps/api/src/web/pages/assets), checked together.
const SRC = join(__dirname, '..');
const FOLDERS = ['play', 'viewer', 'pages'].map((d) => join(SRC, d, 'assets'));

describe('the pages\' scripts', () => {
  it('type-check as ES modules against the DOM', () => {
    const files = FOLDERS.flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => join(dir, name)));
    expect(files.length).toBeGreaterThan(5);
    const program = ts.createProgram(files, {
      allowJs: true,
      checkJs: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      skipLibCheck: true,
      strict: false,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      return `${d.file?.fileName.slice(SRC.length + 1) ?? ''}${where ? `:${where.line + 1}` : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});
