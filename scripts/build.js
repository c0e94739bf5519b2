#!/usr/bin/env node
// `npm run build`: compiles the whole repository with tsconfig.build.json into dist/, as `tsc -p
// tsconfig.build.json` would, plus the two things tsc alone does not do (and @nestjs/cli did):
//   1. the `@bismarck/*` aliases of tsconfig.json's "paths" become relative paths in the emitted
//      JavaScript (tsc keeps import specifiers as written, and node cannot resolve the aliases);
//   2. the viewer's static files (apps/api/src/viewer/assets) are copied next to the compiled
//      controller, which serves them from `__dirname/assets`.
// Type errors fail the build and nothing is emitted.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const ROOT = path.resolve(__dirname, '..');
const CONFIG = path.join(ROOT, 'tsconfig.build.json');
const ASSETS = ['apps/api/src/viewer/assets'];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) };
const config = ts.getParsedCommandLineOfConfigFile(CONFIG, undefined, host);
const { options } = config;
const program = ts.createProgram({ rootNames: config.fileNames, options, configFileParsingDiagnostics: config.errors });

const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) fail(diagnostics);

const aliases = aliasTargets(options);
const emitted = program.emit(undefined, undefined, undefined, false, { before: [rewriteAliases(aliases)] });
if (emitted.emitSkipped || emitted.diagnostics.length > 0) fail(emitted.diagnostics);
checkNoAliasLeft(options.outDir, Object.keys(aliases));

for (const dir of ASSETS) {
  fs.cpSync(path.join(ROOT, dir), path.join(options.outDir, path.relative(options.rootDir, path.join(ROOT, dir))), { recursive: true });
}

/** `@bismarck/rules` → the absolute path of the file it names (exact aliases only, as this repository uses). */
function aliasTargets(opts) {
  const base = opts.baseUrl ?? opts.pathsBasePath ?? ROOT;
  const targets = {};
  for (const [alias, [target]] of Object.entries(opts.paths ?? {})) {
    if (alias.includes('*')) throw new Error(`scripts/build.js: wildcard path alias "${alias}" is not supported`);
    targets[alias] = path.resolve(base, target);
  }
  return targets;
}

/** A transformer giving every import/export of an alias the relative path of the emitted file instead. */
function rewriteAliases(targets) {
  return (context) => (sourceFile) => {
    const relative = (specifier) => {
      const target = targets[specifier];
      if (!target) return undefined;
      const js = target.replace(/\.([mc]?)tsx?$/, (_, m) => `.${m}js`);
      const rel = path.relative(path.dirname(sourceFile.fileName), js).split(path.sep).join('/');
      return rel.startsWith('.') ? rel : `./${rel}`;
    };
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const to = relative(node.moduleSpecifier.text);
        if (!to) return node;
        const specifier = ts.factory.createStringLiteral(to);
        specifier.parent = node; // the CommonJS emit finds the source file through it
        const updated = ts.isImportDeclaration(node)
          ? ts.factory.updateImportDeclaration(node, node.modifiers, node.importClause, specifier, node.attributes)
          : ts.factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, specifier, node.attributes);
        // Decorator metadata and import elision look names up through the original declaration.
        updated.parent = node.parent;
        updated.flags = node.flags;
        return updated;
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(sourceFile, visit);
  };
}

/** Fails if an alias survived in the output (a dynamic import() or require() of one, which the transformer does not rewrite). */
function checkNoAliasLeft(outDir, names) {
  const left = [];
  const leftover = (name) => new RegExp(`\\b(require|import)\\(\\s*["'\`]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'\`]`);
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js')) {
        const text = fs.readFileSync(file, 'utf8');
        for (const name of names) if (leftover(name).test(text)) left.push(`${path.relative(ROOT, file)}: ${name}`);
      }
    }
  };
  walk(outDir);
  if (left.length > 0) {
    console.error(`scripts/build.js: path aliases left unresolved in the output:\n  ${left.join('\n  ')}`);
    process.exit(1);
  }
}

function fail(list) {
  const formatHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => ts.sys.newLine };
  console.error(ts.formatDiagnosticsWithColorAndContext(list, formatHost));
  process.exit(1);
}
