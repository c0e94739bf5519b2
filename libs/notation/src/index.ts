// libs/notation: the plain-text match notation (docs/notation.md). Pure: it imports only @bismarck/rules.
export { toNotation, fromNotation, NotationError, NOTATION_MAGIC } from './notation';
