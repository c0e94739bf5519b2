import { PATH_METADATA } from '@nestjs/common/constants';
import { generateSchema, type OpenAPIObject } from '@nestjs/swagger';
import { completeOpenApi } from '../../platform/http/openapi';
import { LiveController } from '../../game/live/live.controller';
import { StreamQueryDto } from '../../game/live/stream-query.dto';
import { EventPageDto } from '../../game/matches/dto/responses.dto';
import { CONTACT, LICENSE } from './about';

type Json = Record<string, any>;
const SCHEMA_REF = '#/components/schemas/';

/** The live stream's address: the controller's own route (Nest's metadata), `:id` written `{id}`. */
export const LIVE_STREAM_ADDRESS = `/${[
  Reflect.getMetadata(PATH_METADATA, LiveController),
  Reflect.getMetadata(PATH_METADATA, LiveController.prototype.stream),
].join('/')}`
  .replace(/\/+/g, '/')
  .replace(/:(\w+)/g, '{$1}');

/**
 * The schemas of `GET /api/matches/{id}/events` as `/docs/openapi.json` has them: @nestjs/swagger's
 * schemas of the page DTO, completed the same way (http/openapi.ts). The stream sends the same `EventDto`.
 */
export function eventSchemasOfTheApi(): Json {
  const { schemas } = generateSchema(EventPageDto);
  const document = { openapi: '3.0.0', info: { title: '', version: '' }, paths: {}, components: { schemas } } as OpenAPIObject;
  return completeOpenApi(document).components!.schemas as Json;
}

/**
 * The AsyncAPI 3.1 document of the live event stream (`GET /asyncapi.json`). Its event payload is the
 * OpenAPI document's `EventDto` with every schema it references, turned into AsyncAPI (JSON Schema)
 * schemas; `after` is `StreamQueryDto`'s. test/asyncapi.e2e-spec.ts checks it against the served
 * OpenAPI document and a real stream; `npm run asyncapi:lint` lints it.
 */
export function buildAsyncApi(openApiSchemas: Json = eventSchemasOfTheApi()): Json {
  const schemas = Object.fromEntries(referencedFrom('EventDto', openApiSchemas).map((name) => [name, toAsyncApiSchema(openApiSchemas[name])]));
  const after = toAsyncApiSchema(generateSchema(StreamQueryDto).schema.properties!.after as Json);
  const message = (name: string): Json => ({ $ref: `#/channels/matchEvents/messages/${name}` });
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Bismarck live events',
      version: '1',
      description:
        "A match's events as Server-Sent Events (`text/event-stream`), as they are appended to its log. " +
        'The HTTP API, including the errors this stream answers before it starts, is the OpenAPI document at `/docs/openapi.json`; ' +
        'docs/clients.md ("The live event stream") has the details and the event catalogue.',
      contact: { ...CONTACT },
      license: { ...LICENSE },
      tags: [{ name: 'matches', description: 'Matches and their events.' }],
    },
    servers: {
      // No fixed host: the stream is served beside the HTTP API, wherever that is deployed. No `title`:
      // Redocly's linter (asyncapi:lint) refuses it on a server.
      api: {
        host: '{host}',
        protocol: 'http',
        protocolVersion: '1.1',
        description: "The HTTP API's own host (https behind a TLS-terminating proxy); the OpenAPI document's server.",
        variables: { host: { default: 'localhost:3000', description: 'Host and port of the HTTP API (`npm start`: localhost:3000).' } },
      },
    },
    defaultContentType: 'application/json',
    channels: {
      matchEvents: {
        address: LIVE_STREAM_ADDRESS,
        title: "A match's live events",
        description:
          "Opened with `GET` (`Accept: text/event-stream`) on the HTTP API's own host. The server first sends `retry: 2000`, then " +
          'every event after `Last-Event-ID` (or `?after=`, default 0) from the log, then each new one as it is appended: versions in ' +
          'order, with no gap and no duplicate; `event: presence` (which seats are connected) first and at each change, between them. Every `SSE_KEEPALIVE_MS` (15 s) a comment line (`: keep-alive`) keeps the connection ' +
          'open; EventSource ignores it. After `MatchFinished` the stream waits `REMATCH_WINDOW_MS` (5 min) for the match\'s `RematchOffered` ' +
          '(a seat asked for the next match: docs/clients.md, "Rematch"); after it, or when the window closes, comes `event: end` and the ' +
          'server closes; after `TableAbandoned` (a lobby table closed unfilled), at once. The response has ' +
          '`Connection: close` and no `Content-Length` or chunked framing: the body ends when the connection does.',
        parameters: { id: { description: 'The match id (a lowercase UUID).' } },
        messages: {
          event: {
            name: 'message',
            title: 'An event of the match',
            summary: 'One event of the log, redacted for the caller.',
            description:
              "SSE fields: `id:` the event's version (what `Last-Event-ID` resumes after) and `data:` the event as JSON, the " +
              'same `EventDto` as `GET /api/matches/{id}/events` returns, redacted for the caller at the moment it is sent: a seat ' +
              'token sees its own cards, a spectator (no token) none; a hidden card is `null`. No `event:` field (EventSource type `message`).',
            contentType: 'application/json',
            payload: { $ref: `${SCHEMA_REF}EventDto` },
            examples: [
              {
                name: 'cardPlayed',
                summary: '`id: 7`',
                payload: { version: 7, type: 'CardPlayed', at: '2026-01-01T12:00:00.000Z', data: { deal: 1, trick: 1, seat: 2, card: 'QH' } },
              },
            ],
          },
          end: {
            name: 'end',
            title: 'The match is over',
            summary:
              '`event: end` (`status: finished`) right after `RematchOffered`, or after `MatchFinished` once the rematch window (`REMATCH_WINDOW_MS`) closes; ' +
              'right after `TableAbandoned` (`status: abandoned`). Then the server closes the stream.',
            description:
              'Reconnecting at this version answers `204 No Content`, which tells an EventSource to stop. (A rematch asked for after the window still ' +
              "reaches the log and the public state's `rematch`: a later reconnect streams its `RematchOffered`.)",
            contentType: 'application/json',
            payload: {
              type: 'object',
              additionalProperties: false,
              required: ['version', 'status'],
              properties: {
                version: { type: 'integer', minimum: 1, description: 'The last version: that of `RematchOffered`, `MatchFinished` (no rematch in the window) or `TableAbandoned`.' },
                status: { type: 'string', enum: ['finished', 'abandoned'], description: 'The match status: `abandoned` after `TableAbandoned`.' },
              },
            },
            examples: [
              { name: 'finished', payload: { version: 131, status: 'finished' } },
              { name: 'abandoned', payload: { version: 2, status: 'abandoned' } },
            ],
          },
          presence: {
            name: 'presence',
            title: 'Which seats are connected',
            summary: "`event: presence` with no `id:` line: once when the stream opens (before the log's events), then at each change.",
            description:
              'A seat is connected while a live stream opened with its credential (its seat token, or the token of the player bound to it) ' +
              "is open on any instance of the service; spectators' streams do not count. The same `connected` as the public state's " +
              '(`GET /api/matches/{id}`). Presence is not an event of the log: it has no version, and without an `id:` line it leaves ' +
              "an EventSource's `Last-Event-ID` at the last event's version. A change made on another instance arrives within about a " +
              'second on PostgreSQL (NOTIFY), at worst after `PRESENCE_HEARTBEAT_MS` (10 s); a crashed instance\'s streams stop counting ' +
              'after three heartbeats.',
            contentType: 'application/json',
            payload: {
              type: 'object',
              additionalProperties: false,
              required: ['connected'],
              properties: {
                connected: {
                  type: 'array',
                  items: { type: 'boolean' },
                  minItems: 3,
                  maxItems: 3,
                  description: 'Per seat, seat 0 first: whether that seat has a live stream open.',
                },
              },
            },
            examples: [{ name: 'twoConnected', payload: { connected: [true, false, true] } }],
          },
          error: {
            name: 'error',
            title: 'The stream failed',
            summary: '`event: error`; then the server closes the stream.',
            description: 'Nothing about the failure is told: reconnect with `Last-Event-ID` to go on where the stream stopped.',
            contentType: 'application/json',
            payload: {
              type: 'object',
              additionalProperties: false,
              required: ['code'],
              properties: { code: { type: 'string', enum: ['INTERNAL_ERROR'] } },
            },
            examples: [{ name: 'internal', payload: { code: 'INTERNAL_ERROR' } }],
          },
        },
      },
    },
    operations: {
      receiveMatchEvents: {
        action: 'receive',
        channel: { $ref: '#/channels/matchEvents' },
        title: "Follow a match's events",
        summary: 'GET /api/matches/{id}/events/stream',
        description:
          'Request headers: `Accept: text/event-stream`; `Last-Event-ID: <version>` to resume after that version (EventSource ' +
          'sends it when it reconnects; it wins over `?after=`); `Authorization: Bearer <seat token>` (optional) to see that ' +
          "seat's own cards, and to count as that seat's presence while the stream is open. Before the stream starts, an error is `application/problem+json` (400, 401, 403, 404, 429 " +
          '`TOO_MANY_STREAMS`), and a match with nothing more to wait for (finished with its rematch offered or its rematch window closed, ' +
          'or an abandoned lobby table) whose last version the caller already has answers `204`.',
        security: [{ $ref: '#/components/securitySchemes/seat' }],
        bindings: { http: { method: 'GET', query: { type: 'object', properties: { after } }, bindingVersion: '0.3.0' } },
        messages: [message('event'), message('presence'), message('end'), message('error')],
      },
    },
    components: {
      schemas,
      securitySchemes: {
        seat: {
          type: 'http',
          scheme: 'bearer',
          description: 'A seat token (from `POST /api/matches` or a join), optional: without one the caller is a spectator.',
        },
      },
    },
  };
}

/** `name` and every schema it references, directly or not, in the order found. */
export function referencedFrom(name: string, schemas: Json): string[] {
  const found: string[] = [];
  const visit = (schemaName: string): void => {
    if (found.includes(schemaName)) return;
    if (!schemas[schemaName]) throw new Error(`the OpenAPI schemas have no ${schemaName}`);
    found.push(schemaName);
    JSON.stringify(schemas[schemaName], (key, value) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) visit(value.slice(SCHEMA_REF.length));
      return value;
    });
  };
  visit(name);
  return found;
}

const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'];

/**
 * An OpenAPI 3.0 schema as an AsyncAPI 3 one (JSON Schema draft 07): `nullable` becomes a `null`
 * type (or `anyOf` with null around a reference or a union), `example` an `examples` list, exclusive
 * bounds numbers. `$ref`s keep their `#/components/schemas/` names.
 */
export function toAsyncApiSchema(schema: Json): Json {
  const { nullable, example, discriminator: _, exclusiveMinimum, exclusiveMaximum, ...rest } = schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toAsyncApiSchema(v)]));
    else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) out[key] = toAsyncApiSchema(value);
    else if (SUBSCHEMA_LISTS.includes(key)) out[key] = (value as Json[]).map(toAsyncApiSchema);
    else out[key] = value;
  }
  if (example !== undefined) out.examples = [example];
  // The discriminator is left out: AsyncAPI 3 wants its property name, Redocly's linter an object, and
  // the union's members tell themselves apart anyway (each has its own `type` enum).
  // OpenAPI 3.0's exclusive bounds are flags on minimum/maximum; draft 07's are the bounds themselves.
  if (exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  }
  if (exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  }
  if (!nullable) return out;
  if (out.$ref || SUBSCHEMA_LISTS.some((key) => out[key])) {
    // What it says about the value stays outside; the value is either the reference (or union) or null.
    const { title, description, examples, ...inner } = out;
    return JSON.parse(JSON.stringify({ title, description, examples, anyOf: [inner, { type: 'null' }] }));
  }
  if (out.type !== undefined) out.type = [...new Set([...[out.type].flat(), 'null'])];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}
