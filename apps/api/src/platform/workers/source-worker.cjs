// A piscina worker run from the TypeScript sources (jest; `npm run build` compiles the real entries):
// loads the worker's .ts entry, compiled by SWC as it is required (@swc/core, a dev dependency), with
// the @bismarck/* libraries taken from their sources, and exports its default function.
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { workerData } = require('piscina');

const { root, entry } = workerData;
const { transformSync } = Module.createRequire(join(root, 'package.json'))('@swc/core');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@bismarck\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? join(root, 'libs', lib[1], 'src', 'index.ts') : request, ...rest);
};
Module._extensions['.ts'] = (module, filename) => {
  const options = { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'commonjs' } };
  module._compile(transformSync(readFileSync(filename, 'utf8'), options).code, filename);
};
module.exports = require(entry).default;
