import { generateSchema } from '@nestjs/swagger';
import { EventDto } from '../matches/dto/responses.dto';
import { LIVE_CONTROLLER_PATH, LIVE_STREAM_PATH } from '../live/live.controller';
import { StreamQueryDto } from '../live/stream-query.dto';

type Json = Record<string, any>;

/** The live stream's address in AsyncAPI form: the controller's own route, `:id` written `{id}`. */
export const LIVE_STREAM_ADDRESS = `/${LIVE_CONTROLLER_PATH}/${LIVE_STREAM_PATH}`.replace(/:(\w+)/g, '{$1}');

/** The payload is the OpenAPI document's own `EventDto` schema (an OpenAPI 3.0 schema object). */
const OPENAPI_SCHEMA = 'application/vnd.oai.openapi+json;version=3.0.0';

/**
 * The AsyncAPI 3 document of the live event stream (`GET /asyncapi.json`), built from the same DTOs
 * as the OpenAPI document: the event payload is `EventDto`'s schema as @nestjs/swagger generates it
 * for `/docs/openapi.json`, the `after` parameter is `StreamQueryDto`'s, and the address is the
 * controller's route. test/asyncapi.e2e-spec.ts checks both documents agree and that a real stream
 * sends what this one says.
 */
export function buildAsyncApi(): Json {
  const { schema: event } = generateSchema(EventDto);
  const { schema: query } = generateSchema(StreamQueryDto);
  const exampleEvent = { version: 7, type: 'CardPlayed', at: '2026-01-01T12:00:00.000Z', data: { deal: 1, trick: 1, seat: 2, card: 'QH' } };
  const message = (name: string): Json => ({ $ref: `#/channels/matchEvents/messages/${name}` });
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Bismarck live events',
      version: '1',
      description:
        "A match's events as Server-Sent Events (`text/event-stream`), as they are appended to its log. " +
        'The HTTP API, including the errors this stream answers before it starts, is the OpenAPI document at `/docs/openapi.json`; ' +
        'docs/clients.md ("The live event stream") has the details and the event catalogue.',
      license: { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' },
      tags: [{ name: 'matches', description: 'Matches and their events.' }],
    },
    defaultContentType: 'application/json',
    channels: {
      matchEvents: {
        address: LIVE_STREAM_ADDRESS,
        title: "A match's live events",
        description:
          'Opened with `GET` (`Accept: text/event-stream`) on the HTTP API\'s own host. The server first sends `retry: 2000`, then ' +
          'every event after `Last-Event-ID` (or `?after=`, default 0) from the log, then each new one as it is appended: versions in ' +
          'order, with no gap and no duplicate. Every `SSE_KEEPALIVE_MS` (15 s) a comment line (`: keep-alive`) keeps the connection ' +
          'open; EventSource ignores it. After `MatchFinished` comes `event: end` and the server closes.',
        parameters: { id: { description: 'The match id (a lowercase UUID).' } },
        messages: {
          event: {
            name: 'message',
            title: 'An event of the match',
            summary: 'One event of the log, redacted for the caller.',
            description:
              'SSE fields: `id:` the event\'s version (what `Last-Event-ID` resumes after) and `data:` the event as JSON, the ' +
              'same `EventDto` as `GET /api/matches/{id}/events` returns, redacted for the caller at the moment it is sent: a seat ' +
              'token sees its own cards, a spectator (no token) none; a hidden card is `null`. No `event:` field (EventSource type `message`).',
            contentType: 'application/json',
            payload: { schemaFormat: OPENAPI_SCHEMA, schema: event },
            examples: [{ name: 'cardPlayed', summary: '`id: 7`', payload: exampleEvent }],
          },
          end: {
            name: 'end',
            title: 'The match is finished',
            summary: '`event: end`, right after `MatchFinished`; then the server closes the stream.',
            description: 'Reconnecting at this version answers `204 No Content`, which tells an EventSource to stop.',
            contentType: 'application/json',
            payload: {
              type: 'object',
              additionalProperties: false,
              required: ['version', 'status'],
              properties: {
                version: { type: 'integer', minimum: 1, description: 'The last version, that of `MatchFinished`.' },
                status: { type: 'string', const: 'finished' },
              },
            },
            examples: [{ name: 'finished', payload: { version: 131, status: 'finished' } }],
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
          "seat's own cards. Before the stream starts, an error is `application/problem+json` (400, 401, 403, 404, 429 " +
          '`TOO_MANY_STREAMS`), and a finished match whose last version the caller already has answers `204`.',
        security: [{ $ref: '#/components/securitySchemes/seat' }],
        bindings: { http: { method: 'GET', query: { type: 'object', properties: query.properties }, bindingVersion: '0.3.0' } },
        messages: [message('event'), message('end'), message('error')],
      },
    },
    components: {
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
