import fc from 'fast-check';

type Json = Record<string, any>;

/**
 * Values for an OpenAPI 3.1 schema (JSON Schema 2020-12, `$ref`s into the document's components), as a
 * client might send them: mostly valid, sometimes just outside a bound or a pattern, and now and then
 * any JSON at all. A request built from these must never get a 5xx nor an answer outside the document.
 */
export function arbitraryFor(schema: Json | undefined, document: Json, depth = 0): fc.Arbitrary<unknown> {
  const wild = fc.jsonValue({ maxDepth: 2 });
  if (!schema || depth > 6) return wild;
  return fc.oneof({ weight: 9, arbitrary: shaped(schema, document, depth) }, { weight: 1, arbitrary: wild });
}

function shaped(schema: Json, document: Json, depth: number): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryFor(document.components.schemas[String(schema.$ref).split('/').pop()!], document, depth + 1);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s: Json) => arbitraryFor(s, document, depth + 1)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  return fc.oneof(...types.map((type) => ofType(type, schema, document, depth)));
}

function ofType(type: string, schema: Json, document: Json, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      const inside = fc.integer({ min, max });
      return fc.oneof({ weight: 8, arbitrary: inside }, { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0.5) });
    }
    case 'string': {
      const text = fc.string({ unit: 'grapheme', minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 80) });
      if (!schema.pattern) return fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) });
      const matching = matchingText(new RegExp(ascii(schema.pattern)), text);
      return fc.oneof({ weight: 6, arbitrary: matching }, { weight: 1, arbitrary: text }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) });
    }
    case 'array': {
      const items = arbitraryFor(schema.items, document, depth + 1);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 5, 8);
      return fc.oneof({ weight: 8, arbitrary: fc.array(items, { minLength, maxLength }) }, { weight: 1, arbitrary: fc.array(items, { maxLength: maxLength + 2 }) });
    }
    default: {
      const properties = Object.entries((schema.properties ?? {}) as Json);
      const required = new Set<string>(schema.required ?? []);
      const record = fc.record(Object.fromEntries(properties.map(([name, s]) => [name, arbitraryFor(s as Json, document, depth + 1)])), {
        requiredKeys: [...required].filter((name) => schema.properties?.[name]),
      });
      // Sometimes a field the schema does not name (refused when `additionalProperties` is false).
      return fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: fc.tuple(record, fc.string({ minLength: 1, maxLength: 8 })).map(([r, k]) => ({ ...(r as Json), [k]: 1 })) });
    }
  }
}

/** fast-check draws from a pattern without Unicode property classes: stand those in with their ASCII part. */
function ascii(pattern: string): string {
  return pattern.replaceAll(/\\p\{[A-Za-z]+\}/g, '\\x00-\\x1f');
}

/** Text the pattern accepts: drawn from the pattern itself, or (fast-check draws from no lookahead, as the cut's bound on marks has) text kept when it matches. */
function matchingText(pattern: RegExp, text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(pattern);
  } catch {
    return text.filter((s) => pattern.test(s));
  }
}
