import type { OpenAPIObject } from '@nestjs/swagger';
import { problemBody } from '../problem/problem';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * Completes the generated document for client developers and linters, in one place:
 * - every /api operation documents the 429 `RATE_LIMITED` answer with `Retry-After` and `RateLimit`;
 * - every operation states its security: a seat token where one is required (already there), an
 *   optional seat token on the match routes (a spectator without one), none elsewhere;
 * - a nullable union of objects gets `type: object` beside `nullable` (OpenAPI 3.0);
 * - every JSON request body has an example (built from its schema's property examples if it has none).
 */
export function completeOpenApi(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Json;
  // A nullable union of objects (e.g. a seat view's `legal`) needs `type` beside `nullable` in OpenAPI 3.0.
  for (const schema of Object.values(schemas)) {
    for (const prop of Object.values((schema.properties ?? {}) as Json)) {
      if (prop.nullable && prop.type === undefined && (prop.oneOf || prop.anyOf || prop.allOf)) prop.type = 'object';
    }
  }
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      if (path.startsWith('/api/')) addRateLimited(op);
      op.security ??= path.startsWith('/api/matches/{id}') ? [{}, { seat: [] }] : [{}];
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) {
        if (media.example === undefined && media.examples === undefined) {
          const example = exampleOf(media.schema, schemas);
          if (example !== undefined) media.example = example;
        }
      }
    }
  }
  return document;
}

function addRateLimited(op: Json): void {
  op.responses ??= {};
  if (op.responses['429']) return;
  const example = problemBody('RATE_LIMITED', 'Too many requests: at most 30000 in 60 s. Retry after 12 s.', { retryAfter: 12 });
  op.responses['429'] = {
    description: 'Problem details; `code` is `RATE_LIMITED`. Wait `Retry-After` seconds.',
    headers: {
      'Retry-After': { description: 'Seconds to wait before sending again.', schema: { type: 'integer', example: 12 } },
      RateLimit: { description: 'The tighter of the token and address limits: `limit=…, remaining=…, reset=…`.', schema: { type: 'string', example: 'limit=30000, remaining=0, reset=12' } },
      'RateLimit-Policy': { description: 'The limit and its window in seconds.', schema: { type: 'string', example: '30000;w=60' } },
    },
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' }, examples: { RATE_LIMITED: { value: example } } } },
  };
}

function exampleOf(schema: Json | undefined, schemas: Json, depth = 0): unknown {
  if (!schema || depth > 4) return undefined;
  if (schema.$ref) return exampleOf(schemas[String(schema.$ref).split('/').pop()!], schemas, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (schema.type !== 'object' || !schema.properties) return undefined;
  const out: Json = {};
  for (const [name, prop] of Object.entries(schema.properties as Json)) {
    const value = exampleOf(prop, schemas, depth + 1);
    if (value !== undefined && (schema.required ?? []).includes(name)) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
