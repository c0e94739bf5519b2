import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiHeader, ApiParam, ApiResponse, getSchemaPath, type DiscriminatorObject, type ReferenceObject } from '@nestjs/swagger';
import { CLIENT_ERROR_DETAILS } from '../edge/client-errors';
import { ApiUnsupportedMediaType } from '../problem/media-type';
import { PROBLEM_STATUS, problemBody, type ProblemCode } from '../problem/problem';

/** A problem a route documents: its code, or its code with the `detail` this route gives. */
export type Problem = ProblemCode | readonly [ProblemCode, string];

const MATCH = '0b8a4c1e-5d7f-4e2a-9c3b-1f2e3d4c5b6a';

/** A `detail` each code is thrown with (libs/rules refuse() calls, ProblemException calls), for the examples. */
const DETAILS: Record<ProblemCode, string> = {
  VALIDATION_FAILED: 'The body is not valid JSON.',
  MALFORMED_HTTP: CLIENT_ERROR_DETAILS.MALFORMED_HTTP,
  SEED_WITH_OPEN_SEATS: 'a seeded match cannot have open seats: its creator could compute every hand',
  UNAUTHORIZED: 'Unknown seat token.',
  FORBIDDEN: 'This token belongs to another match.',
  MATCH_NOT_FOUND: `There is no match ${MATCH}.`,
  NOT_FOUND: 'Cannot GET /api/nothing-here',
  METHOD_NOT_ALLOWED: 'DELETE is not a method of this resource: it answers GET, HEAD, POST, OPTIONS.',
  REQUEST_TIMEOUT: CLIENT_ERROR_DETAILS.REQUEST_TIMEOUT,
  NOT_YOUR_TURN: 'not your turn: it is another seat to play (seat 2)',
  MUST_FOLLOW_SUIT: 'you must follow suit (H)',
  MUST_TRUMP: 'you cannot follow H, so you must play a trump',
  CARD_NOT_IN_HAND: 'QH is not in your hand',
  CONTRACT_ALREADY_PLAYED: 'this forehand has already played notrump',
  CONTRACT_LOCKED: 'only pass can be announced in this deal',
  SPADES_NOT_ALLOWED: 'spades may not be named as the free trump in this match',
  WRONG_PHASE: 'playCard is not possible now: the dealer has to deal',
  DISCARD_FIRST: 'lay away 4 cards before leading to the first trick',
  MATCH_EXISTS: 'this match already exists',
  MATCH_NOT_STARTED: 'the match starts when all three seats are taken',
  SEAT_TAKEN: 'seat 1 is taken',
  MATCH_ABANDONED: 'this lobby table was closed: its seats were not filled in time',
  SEAT_NOT_AWAY: 'seat 1 is not away',
  TOO_MANY_TOKENS: 'a player holds at most 20 tokens: revoke one first',
  ALREADY_SEATED: 'this player holds a seat of this match already',
  PLAYER_NOT_FOUND: 'There is no player pl-6f1c2f0e-8a8e-4a53-9d4e-2b0f3c1d5e7a.',
  TOKEN_NOT_FOUND: 'this player has no such token',
  MATCH_NOT_FINISHED: 'A match can be exported once it is finished: until then some cards are secret.',
  REMATCH_OFFERED: "this match's rematch is 2f9d7a10-3c4b-4e5f-8a6b-7c8d9e0f1a2b",
  DEAL_NOT_SCORED: 'Deal 2 is not scored yet: it can be analysed once it is (its hands are secret until then).',
  CONCURRENT_UPDATE: 'The match kept changing while this command was decided; send it again.',
  VERSION_MISMATCH: 'The match is at version 13, not 12.',
  PAYLOAD_TOO_LARGE: 'The body is declared as 20000 bytes; at most 16384 are accepted.',
  UNSUPPORTED_MEDIA_TYPE: 'The body must be JSON (Content-Type: application/json), not text/plain.',
  EXPECTATION_FAILED: CLIENT_ERROR_DETAILS.EXPECTATION_FAILED,
  HEADERS_TOO_LARGE: CLIENT_ERROR_DETAILS.HEADERS_TOO_LARGE,
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was first used for a different command.',
  VERSION_NOT_FORKABLE: 'Version 9 is inside a move (the events of one move are appended together): fork at 8 or 12.',
  RATE_LIMITED: 'Too many requests: at most 30000 in 60 s. Retry after 12 s.',
  TOO_MANY_STREAMS: 'Too many live streams are open for this address or seat token: close one first.',
  TOO_MANY_BOT_MATCHES: 'You have 4 matches against strong bots in play: finish one first.',
  INTERNAL_ERROR: 'The server could not complete the request.',
  SERVICE_UNAVAILABLE: 'The database does not answer.',
  DATABASE_UNAVAILABLE:
    'The database cannot be reached right now. Send the request again shortly: with the same Idempotency-Key a command that did reach the log is not applied twice.',
  ANALYSIS_BUSY: 'Too many deals wait for their analysis on this server; retry after 5 s.',
};

/** The extension members a code is thrown with (each one a property of ProblemDto). */
const EXTENSIONS: Partial<Record<ProblemCode, Record<string, unknown>>> = {
  VERSION_MISMATCH: { currentVersion: 13 },
  RATE_LIMITED: { retryAfter: 12 },
  TOO_MANY_STREAMS: { retryAfter: 5 },
  TOO_MANY_BOT_MATCHES: { retryAfter: 30 },
  DATABASE_UNAVAILABLE: { retryAfter: 2 },
  ANALYSIS_BUSY: { retryAfter: 5 },
  VERSION_NOT_FORKABLE: { nearestForkable: { before: 8, after: 12 } },
};

/** The example body of a problem as the service sends it. */
export const problemExample = (code: ProblemCode, detail = DETAILS[code]) => problemBody(code, detail, EXTENSIONS[code]);

/** Documents the problem+json answers a route may give, grouped by status, with their codes and a real example of each. */
export function ApiProblems(...problems: Problem[]): MethodDecorator {
  // A later entry for a code replaces an earlier one (a route's own detail over a shared list's).
  const details = new Map<ProblemCode, string>();
  for (const p of problems) {
    const [code, detail] = typeof p === 'string' ? [p, DETAILS[p]] : p;
    details.set(code, detail);
  }
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of details.keys()) byStatus.set(PROBLEM_STATUS[code], [...(byStatus.get(PROBLEM_STATUS[code]) ?? []), code]);
  return applyDecorators(
    ApiUnsupportedMediaType(), // 415 where the route takes a body (problem/media-type.ts)
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: `Problem details; \`code\` is one of ${list.map((c) => `\`${c}\``).join(', ')}.`,
        content: {
          'application/problem+json': {
            schema: { $ref: '#/components/schemas/ProblemDto' },
            examples: Object.fromEntries(list.map((code) => [code, { value: problemExample(code, details.get(code)) }])),
          },
        },
      }),
    ),
  );
}

export const ApiMatchId = (): MethodDecorator => ApiParam({ name: 'id', format: 'uuid', description: 'The match id.' });

/** A command route: seat token, optimistic concurrency and idempotency headers. */
export function ApiCommand(...problems: Problem[]): MethodDecorator {
  return applyDecorators(
    ApiBearerAuth('seat'),
    ApiMatchId(),
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Apply only if the match is still at this version, e.g. `"12"`, or a GET\'s `ETag` as it is (`"12-010"`: its presence part is not compared); else 412. ' +
        '`*` asks for no version (RFC 9110).',
      schema: { type: 'string', pattern: '^\\s*(\\*|(W/)?"?[0-9]{1,9}(-[01]{3})?"?)\\s*$', example: '"12"' },
    }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: 'A retry with the same key by the same seat returns the first answer and appends nothing.',
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,200}$', example: 'play-7f3a' },
    }),
    ApiProblems(
      'VALIDATION_FAILED',
      ['UNAUTHORIZED', 'This route acts for a seat: send "Authorization: Bearer <seat token>".'],
      'FORBIDDEN',
      'MATCH_NOT_FOUND',
      'VERSION_MISMATCH',
      'IDEMPOTENCY_KEY_REUSED',
      'CONCURRENT_UPDATE',
      'MATCH_NOT_STARTED',
      'MATCH_ABANDONED',
      ...problems,
    ),
  );
}

export interface OneOf {
  readonly oneOf: ReferenceObject[];
  readonly discriminator: DiscriminatorObject;
}
const ONE_OF = new Map<string, OneOf>();

/**
 * A schema with properties of its own that is also one of several shapes, told apart by the value of
 * `propertyName` (a discriminated union in generated clients). Nest writes no `oneOf` for a class:
 * it is kept here and added to the document by completeOpenApi (http/openapi.ts).
 */
export function ApiOneOf(propertyName: string, members: Record<string, Type>): ClassDecorator {
  const mapping = Object.fromEntries(Object.entries(members).map(([value, model]) => [value, getSchemaPath(model)]));
  const union: OneOf = { oneOf: Object.values(mapping).map(($ref) => ({ $ref })), discriminator: { propertyName, mapping } };
  return (target) => {
    ApiExtraModels(...Object.values(members))(target);
    ONE_OF.set(getSchemaPath(target).slice('#/components/schemas/'.length), union);
  };
}

/** The unions of ApiOneOf, by schema name. */
export const oneOfSchemas = (): ReadonlyMap<string, OneOf> => ONE_OF;

/** The `ETag` of a GET that answers a match's projection (withEtag in matches.controller.ts). */
export const ETAG = {
  ETag: {
    description: 'The match version in quotes, e.g. `"42"`: send it as `If-Match` on a command to act only if nothing happened since.',
    schema: { type: 'string', pattern: '^"[0-9]+"$', example: '"42"' },
  },
};

/**
 * The `ETag` of a GET that shows presence (`connected`), which changes with no new version: the
 * version, then one digit per seat (1: connected), so a revalidation never gets a stale 304.
 */
export const PRESENCE_ETAG = {
  ETag: {
    description:
      'The match version and the presence shown, e.g. `"42-010"` (version 42, seat 1 connected): `If-None-Match` answers 304 only when neither changed. ' +
      'Send it as `If-Match` on a command (only its version is compared) to act only if nothing happened since.',
    schema: { type: 'string', pattern: '^"[0-9]+-[01]{3}"$', example: '"42-010"' },
  },
};
