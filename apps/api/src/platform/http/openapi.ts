import type { OpenAPIObject } from '@nestjs/swagger';
import { oneOfSchemas, problemExample } from './api-docs';
import { LANGUAGES } from '../i18n/languages';
import { unsupportedMediaTypeResponse } from '../problem/media-type';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** The methods of this api a client sends a body with (or may, by mistake). */
const BODY_METHODS = ['post', 'patch', 'delete'];

/**
 * Completes the generated document for client developers and linters, in one place:
 * - every /api operation documents the 429 `RATE_LIMITED` answer with `Retry-After` and `RateLimit`,
 *   the 503 `DATABASE_UNAVAILABLE` one with `Retry-After`, and the refusals of a malformed request
 *   (400 `VALIDATION_FAILED`; 415 and 413 `PAYLOAD_TOO_LARGE` for a POST);
 * - every operation states its security (securityOf): seat or bound player's token, optional player tokens;
 * - request bodies are closed (`additionalProperties: false`), as the validation pipe refuses unknown fields;
 * - every JSON request body has an example (built from its schema's property examples if it has none);
 * - the schemas declared with ApiOneOf get their `oneOf` and `discriminator` (Nest writes none for a class);
 * - the bearer schemes say what the tokens are (Nest's default `bearerFormat` is JWT; ours are opaque, but a
 *   player's may be its identity provider's JWT where the deployment has one);
 * - the problem schema's fields say what they hold;
 * - every operation that may answer problem+json takes `Accept-Language` (the problem's title, and at a table its
 *   detail, follow it), and every problem answer says `Content-Language` and `Vary: Accept-Language`, as
 *   problem/problem.ts sends them (addLanguage);
 * - last, the document becomes OpenAPI 3.1 (toOpenApi31): `null` is a value the schemas themselves allow,
 *   exactly, for every JSON Schema validator and generator (docs/clients.md, "Why OpenAPI 3.1").
 */
export function completeOpenApi(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Json;
  for (const [name, union] of oneOfSchemas()) if (schemas[name]) Object.assign(schemas[name], structuredClone(union));
  const schemes = (document.components?.securitySchemes ?? {}) as Json;
  for (const [name, scheme] of Object.entries(BEARER_SCHEMES)) if (schemes[name]) Object.assign(schemes[name], scheme);
  describeProblem(schemas.ProblemDto);
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const op = (item as Json)[method] as Json | undefined;
      if (!op) continue;
      if (path.startsWith('/api/')) addRateLimited(op);
      if (path.startsWith('/api/')) addDatabaseUnavailable(op);
      if (path.startsWith('/api/') || (op.parameters ?? []).length > 0) addMalformed(op, method);
      if (method === 'get') addNotModified(op);
      op.security = securityOf(path, method, op);
      addLanguage(op, `${method} ${path}`, (document.components ??= {}) as Json);
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) {
        closeObjects(media.schema, schemas);
        if (media.example === undefined && media.examples === undefined) {
          const example = exampleOf(media.schema, schemas);
          if (example !== undefined) media.example = example;
        }
      }
    }
  }
  return toOpenApi31(document);
}

/** The pages whose own answer (not only a problem) is in the language asked for, with `Content-Language` and `Vary`. */
const LANGUAGE_PAGES: readonly string[] = ['get /rules'];

/** The headers addLanguage refers to, declared once in `components.headers`. */
const LANGUAGE_HEADERS = {
  'Content-Language': {
    description: 'The language of the text: the best of `Accept-Language` among the ones the service speaks, else `en`.',
    schema: { type: 'string', enum: [...LANGUAGES], example: 'nb' },
  },
  'Vary-Accept-Language': {
    description: 'Names `Accept-Language`: the text depends on it (a cache keys the answer on it too).',
    schema: { type: 'string', example: 'Accept-Language' },
  },
};

const ACCEPT_LANGUAGE = {
  name: 'Accept-Language',
  in: 'header',
  required: false,
  description:
    "The language of a problem's `title` (and, for the refusals a player meets at a table, its `detail`): `en`, `fi`, `nb` (`no` and `nn` read as `nb`) " +
    'or `sv`, by the usual weights; English otherwise. The answer says which in `Content-Language` (docs/clients.md, "In the caller\'s language").',
  schema: { type: 'string', example: 'nb, en;q=0.8' },
};

/**
 * The language of an answer (problem/problem.ts `sendProblem`, platform/i18n/languages.ts): an operation that may answer
 * problem+json takes `Accept-Language` (`en`, `fi`, `nb` (`no`, `nn`), `sv`; anything else reads as English) and
 * each such answer, and a language page's own, carries `Content-Language` and `Vary: Accept-Language`. The
 * headers are declared once in `components.headers` and referred to: nearly every answer has them.
 */
function addLanguage(op: Json, route: string, components: Json): void {
  const responses = Object.entries((op.responses ?? {}) as Json);
  const answers = responses.filter(([status, r]) => (r as Json).content?.['application/problem+json'] || (LANGUAGE_PAGES.includes(route) && /^2/.test(status)));
  if (answers.length === 0) return;
  components.headers = { ...components.headers, ...structuredClone(LANGUAGE_HEADERS) };
  for (const [, response] of answers) {
    (response as Json).headers = {
      ...(response as Json).headers,
      'Content-Language': { $ref: '#/components/headers/Content-Language' },
      Vary: { $ref: '#/components/headers/Vary-Accept-Language' },
    };
  }
  op.parameters ??= [];
  if (op.parameters.some((p: Json) => p.in === 'header' && String(p.name).toLowerCase() === 'accept-language')) return;
  op.parameters.push(structuredClone(ACCEPT_LANGUAGE));
}

/** The routes that bind a seat to the caller's player account when a player token is sent (anonymous without one). */
const OPTIONAL_PLAYER: readonly string[] = ['post /api/matches', 'post /api/matches/{id}/seats/{seat}/join'];

/**
 * What an operation accepts, for generators that build their auth from it: a match route that reads a seat token
 * refuses an unknown one (401) and a spectator sends none; wherever a seat token acts, the token of the player the seat
 * is bound to acts too (docs/players.md); creation and the lobby's join take an optional player token; the lobby's bot
 * route reads no token (one sent is not looked at).
 */
function securityOf(path: string, method: string, op: Json): Json[] {
  if (OPTIONAL_PLAYER.includes(`${method} ${path}`)) return [{}, { player: [] }];
  const declared: Json[] = op.security ?? (path.startsWith('/api/matches/{id}') && op.responses?.['401'] ? [{}, { seat: [] }] : [{}]);
  return declared.flatMap((requirement) => ('seat' in requirement && path.startsWith('/api/matches/{id}') ? [requirement, { player: [] }] : [requirement]));
}

/**
 * The validation pipe refuses a field a DTO does not declare (`forbidNonWhitelisted`), at every depth:
 * a request schema says so, so that a client's own validation refuses what the service would.
 */
function closeObjects(schema: Json | undefined, schemas: Json, seen = new Set<Json>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (schema.$ref) return closeObjects(schemas[String(schema.$ref).split('/').pop()!], schemas, seen);
  if (schema.properties) schema.additionalProperties ??= false;
  for (const sub of [...Object.values((schema.properties ?? {}) as Json), schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    closeObjects(sub, schemas, seen);
  }
}

/**
 * OpenAPI 3.0's `nullable: true` does not add null to an `enum`, an `allOf` or a `oneOf` beside it (3.0.3
 * clarified it), so a strict validator or generator refused the service's real nulls (a seat view's
 * `turn`, `legal`, `lastTrick`). Nest's decorators speak 3.0; this one pass says the same in 3.1, where a
 * schema is plain JSON Schema 2020-12: `type: [t, 'null']`, `null` among an enum's values, and
 * `anyOf: [X, {type: 'null'}]` around a referenced or discriminated schema.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) out[key] = key === 'example' || key === 'examples' ? value : visit(value);
    return out.nullable === true || out.nullable === false ? withNull(out) : out;
  };
  return { ...(visit(document) as OpenAPIObject), openapi: '3.1.0' };
}

function withNull({ nullable, ...schema }: Json): Json {
  if (!nullable) return schema;
  if (typeof schema.type === 'string' && !schema.allOf && !schema.oneOf && !schema.anyOf) {
    const enumerated = schema.enum ? { enum: schema.enum.includes(null) ? schema.enum : [...schema.enum, null] } : {};
    return { ...schema, type: [schema.type, 'null'], ...enumerated };
  }
  // A reference or a union: null beside it, the annotations (description, example) outside.
  const { description, example, allOf, type: _objectType, ...inner } = schema;
  const target = allOf?.length === 1 && Object.keys(inner).length === 0 ? allOf[0] : { ...inner, ...(allOf ? { allOf } : {}) };
  return { ...(description === undefined ? {} : { description }), anyOf: [target, { type: 'null' }], ...(example === undefined ? {} : { example }) };
}

const BEARER_SCHEMES: Json = {
  seat: {
    bearerFormat: 'bsk_ token',
    description:
      'A seat token: `bsk_` and 32 base64url characters (192 random bits), opaque (not a JWT: nothing in it to decode). ' +
      'Answered once, by `POST /api/matches` for each named seat and by `POST /api/matches/{id}/seats/{seat}/join`; ' +
      'it acts for that seat of that match only, and the service keeps only its SHA-256.',
  },
  player: {
    bearerFormat: 'bskp_ token (or an OIDC JWT)',
    description:
      'A player token: `bskp_` and 32 base64url characters, opaque, from `POST /api/players` (or `POST /api/players/me/tokens`); ' +
      'the service keeps only its SHA-256. A deployment with an OpenID Connect issuer (`OIDC_ISSUER`) also takes a JWT of that issuer ' +
      'here, signed with one of its published keys and issued for this service (`OIDC_AUDIENCE`): it acts as the player of its ' +
      '`sub`, registered at its first use (docs/players.md). Without `OIDC_ISSUER`, a JWT is refused like any unknown token.',
  },
  admin: {
    bearerFormat: 'opaque',
    description: 'The `ADMIN_TOKEN` of the deployment (at least 16 characters); without it set, the admin routes answer 404.',
  },
};

// The problem schema belongs to apps/api/src/platform/problem; what its fields hold is said here only where it says nothing.
const PROBLEM_FIELDS: Json = {
  type: 'A URI naming the problem: one per `code`.',
  title: 'A short summary of the problem: one per `code`.',
  status: 'The HTTP status.',
  detail: 'What went wrong with this request, for people.',
  code: 'The stable machine-readable code: branch on this.',
  instance: 'The path of the request that failed.',
};

function describeProblem(schema: Json | undefined): void {
  for (const [name, prop] of Object.entries((schema?.properties ?? {}) as Json)) {
    prop.description ??= PROBLEM_FIELDS[name];
    if ((name === 'status' || name === 'retryAfter') && prop.type === 'number') prop.type = 'integer';
  }
}

/**
 * What any /api operation (and any page with parameters) may answer before its own code runs: 400 `VALIDATION_FAILED` for a path
 * segment that is not valid percent-encoding or a query parameter it does not take, and, for a POST,
 * PATCH or DELETE, 415 `UNSUPPORTED_MEDIA_TYPE` for a body that is not JSON (even where the route
 * reads none) and 413 for one over BODY_LIMIT.
 */
function addMalformed(op: Json, method: string): void {
  const examples = ownExamples(op, '400');
  if (!examples.VALIDATION_FAILED) {
    examples.VALIDATION_FAILED = { value: problemExample('VALIDATION_FAILED', "Failed to decode param '%zz'") };
    op.responses['400'] = problemResponse(examples, '');
  }
  if (!BODY_METHODS.includes(method)) return;
  if (!op.responses['415']) op.responses['415'] = unsupportedMediaTypeResponse();
  // BODY_LIMIT is checked from Content-Length before any route, a body-less one's too.
  if (!op.responses['413']) op.responses['413'] = problemResponse({ PAYLOAD_TOO_LARGE: { value: problemExample('PAYLOAD_TOO_LARGE') } }, '');
}

/**
 * Express answers a GET from its body's ETag (its own, or the match version where a route sets one):
 * a request whose `If-None-Match` names it gets 304 with no body — a browser revalidating the table's
 * page or a polling client's state. Not a live stream, which has no body to tag.
 */
function addNotModified(op: Json): void {
  const ok = op.responses?.['200']?.content as Json | undefined;
  if (!ok || op.responses['304'] || Object.keys(ok).some((media) => media.startsWith('text/event-stream'))) return;
  op.responses['304'] = {
    description: 'Not modified: the answer would be the one whose `ETag` the request names in `If-None-Match`. No body.',
    headers: { ETag: { description: 'The same tag as before.', schema: { type: 'string' } } },
  };
}

/** The examples of the operation's own problem answer with this status (a copy, to add to), if it has one. */
function ownExamples(op: Json, status: string): Json {
  op.responses ??= {};
  return { ...(op.responses[status] as Json | undefined)?.content?.['application/problem+json']?.examples };
}

/** A problem+json answer with these examples, described by their codes. */
function problemResponse(examples: Json, more: string, headers?: Json): Json {
  const codes = Object.keys(examples);
  return {
    description: `Problem details; \`code\` is ${codes.length > 1 ? 'one of ' : ''}${codes.map((c) => `\`${c}\``).join(', ')}.${more}`,
    ...(headers ? { headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDto' }, examples } },
  };
}

/**
 * Every /api route reads or writes the database: while it is away the answer is 503 DATABASE_UNAVAILABLE
 * with `Retry-After` (send it again; a command with the same Idempotency-Key). A route's own 503
 * (ANALYSIS_BUSY) keeps its codes beside it.
 */
function addDatabaseUnavailable(op: Json): void {
  const examples = { ...ownExamples(op, '503'), DATABASE_UNAVAILABLE: { value: problemExample('DATABASE_UNAVAILABLE') } };
  op.responses['503'] = problemResponse(examples, ' Send it again after `Retry-After` seconds.', {
    'Retry-After': { description: 'Seconds to wait before sending again.', schema: { type: 'integer', example: 2 } },
  });
}

/** Every /api route may answer 429 RATE_LIMITED; a route's own 429 (TOO_MANY_STREAMS) keeps its codes beside it. */
function addRateLimited(op: Json): void {
  const examples = { ...ownExamples(op, '429'), RATE_LIMITED: { value: problemExample('RATE_LIMITED') } };
  op.responses['429'] = problemResponse(examples, ' Wait `Retry-After` seconds.', {
    'Retry-After': { description: 'Seconds to wait before sending again.', schema: { type: 'integer', example: 12 } },
    RateLimit: { description: 'The tighter of the token and address limits: `limit=…, remaining=…, reset=…`.', schema: { type: 'string', example: 'limit=30000, remaining=0, reset=12' } },
    'RateLimit-Policy': { description: 'The limit and its window in seconds.', schema: { type: 'string', example: '30000;w=60' } },
  });
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
