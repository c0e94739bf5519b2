// libs/notation: the plain-text match notation (docs/notation.md). Pure: it imports only @bismarck/rules.
export { NotationError, NOTATION_MAGIC } from './format';
export { toNotation } from './write';
export { fromNotation } from './parse';
