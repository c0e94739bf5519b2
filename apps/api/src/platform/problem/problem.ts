import { HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { localizeProblem, problemLanguage } from './problem-language';

/** Stable machine-readable error codes of the public contract, each with the status it leaves as. */
export const PROBLEM_STATUS = {
  VALIDATION_FAILED: 400,
  // A request Node's HTTP parser refuses (framing, method, headers): answered before any route.
  MALFORMED_HTTP: 400,
  // A seeded (sandbox) match with an open seat: its creator could compute the stranger's hand.
  SEED_WITH_OPEN_SEATS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  MATCH_NOT_FOUND: 404,
  // An unknown player id (or a deleted account's, for anything but its public profile).
  PLAYER_NOT_FOUND: 404,
  // DELETE /api/players/me/tokens/{tokenId} of a token the player does not hold.
  TOKEN_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  // The headers, or the whole request, did not arrive within HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS.
  REQUEST_TIMEOUT: 408,
  // The rules refuse the command in the current state.
  NOT_YOUR_TURN: 409,
  MUST_FOLLOW_SUIT: 409,
  MUST_TRUMP: 409,
  CARD_NOT_IN_HAND: 409,
  CONTRACT_ALREADY_PLAYED: 409,
  CONTRACT_LOCKED: 409,
  SPADES_NOT_ALLOWED: 409,
  WRONG_PHASE: 409,
  DISCARD_FIRST: 409,
  MATCH_EXISTS: 409,
  // A command to a lobby match before all three seats are taken.
  MATCH_NOT_STARTED: 409,
  // A join of a seat someone already holds.
  SEAT_TAKEN: 409,
  // A join by a player account that holds a seat of the match already.
  ALREADY_SEATED: 409,
  // A lobby table closed because its seats were not filled in time (LOBBY_TTL_MS).
  MATCH_ABANDONED: 409,
  // Export and fork wait for the end of the match: until then some cards are secret.
  MATCH_NOT_FINISHED: 409,
  // POST …/seats/{seat}/back by a seat that is not away (turn clocks).
  SEAT_NOT_AWAY: 409,
  // A player holds at most 20 tokens at once.
  TOO_MANY_TOKENS: 409,
  // A rematch offered again: never sent (the service answers the first rematch), mapped for completeness.
  REMATCH_OFFERED: 409,
  // The analysis of a deal waits until it is scored: until then its hands are secret.
  DEAL_NOT_SCORED: 409,
  // Another command won the race for this version and this one could not be re-decided in time.
  CONCURRENT_UPDATE: 409,
  VERSION_MISMATCH: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // An Expect header other than 100-continue.
  EXPECTATION_FAILED: 417,
  HEADERS_TOO_LARGE: 431,
  // The same Idempotency-Key was sent again with a different request.
  IDEMPOTENCY_KEY_REUSED: 422,
  // A fork at a version inside a move (or a lobby's joins): no position the match rested in.
  VERSION_NOT_FORKABLE: 422,
  RATE_LIMITED: 429,
  // Too many open live streams for this address or seat token (STREAMS_PER_ADDRESS, STREAMS_PER_TOKEN).
  TOO_MANY_STREAMS: 429,
  // A caller's live matches against strong bots are at STRONG_BOT_MATCHES_PER_CALLER.
  TOO_MANY_BOT_MATCHES: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  // The database cannot be reached right now; the same request may succeed after Retry-After.
  DATABASE_UNAVAILABLE: 503,
  // Too many deals accepted for analysis in this process (ANALYSIS_QUEUE + ANALYSIS_WORKERS); the same request may succeed after Retry-After.
  ANALYSIS_BUSY: 503,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export const PROBLEM_TITLES: Record<ProblemCode, string> = {
  VALIDATION_FAILED: 'The request is malformed',
  MALFORMED_HTTP: 'The HTTP message cannot be read',
  SEED_WITH_OPEN_SEATS: 'A seeded match cannot have open seats',
  UNAUTHORIZED: 'A valid seat token is required',
  FORBIDDEN: 'This token does not act for this match',
  MATCH_NOT_FOUND: 'No such match',
  PLAYER_NOT_FOUND: 'No such player',
  TOKEN_NOT_FOUND: 'No such token',
  NOT_FOUND: 'No such resource',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  REQUEST_TIMEOUT: 'The request took too long to arrive',
  NOT_YOUR_TURN: 'It is not your turn',
  MUST_FOLLOW_SUIT: 'You must follow suit',
  MUST_TRUMP: 'You must play a trump',
  CARD_NOT_IN_HAND: 'That card is not in your hand',
  CONTRACT_ALREADY_PLAYED: 'You have already played that contract',
  CONTRACT_LOCKED: 'Only your remaining contract is possible',
  SPADES_NOT_ALLOWED: 'Spades may not be named as free trump in this match',
  SEAT_NOT_AWAY: 'This seat is not away',
  TOO_MANY_TOKENS: 'Too many tokens',
  ALREADY_SEATED: 'This player holds a seat of this match already',
  WRONG_PHASE: 'That command does not fit the current phase',
  DISCARD_FIRST: 'Forehand must lay away four cards before leading',
  MATCH_EXISTS: 'The match exists already',
  MATCH_NOT_STARTED: 'The match waits for players to take its open seats',
  SEAT_TAKEN: 'That seat is taken',
  MATCH_ABANDONED: 'This lobby table was closed before its seats were filled',
  MATCH_NOT_FINISHED: 'The match is not finished',
  REMATCH_OFFERED: 'The match has its rematch already',
  DEAL_NOT_SCORED: 'The deal is not scored yet',
  CONCURRENT_UPDATE: 'The match changed while the command was decided',
  VERSION_MISMATCH: 'The match is no longer at that version',
  PAYLOAD_TOO_LARGE: 'The request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'Send JSON',
  EXPECTATION_FAILED: 'The expectation cannot be met',
  HEADERS_TOO_LARGE: 'The request headers are too large',
  IDEMPOTENCY_KEY_REUSED: 'That Idempotency-Key was used for a different request',
  VERSION_NOT_FORKABLE: 'The match cannot be forked at that version',
  RATE_LIMITED: 'Too many requests',
  TOO_MANY_STREAMS: 'Too many open live streams',
  TOO_MANY_BOT_MATCHES: 'Too many matches against strong bots',
  INTERNAL_ERROR: 'Internal error',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  DATABASE_UNAVAILABLE: 'The database is unavailable; try again shortly',
  ANALYSIS_BUSY: 'Too many analyses are being computed; try again shortly',
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  instance?: string;
  [extension: string]: unknown;
}

export function problemBody(code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}): ProblemBody {
  return {
    type: `https://bismarck.example/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: PROBLEM_TITLES[code],
    status: PROBLEM_STATUS[code],
    detail,
    code,
    ...extensions,
  };
}

/**
 * Writes a problem as the answer to a request: the one place a problem+json body leaves from (the
 * exception filter, the Express error handler, the rate limiter), so all carry the same headers.
 */
export function sendProblem(req: Request, res: Response, body: ProblemBody): void {
  body.instance = req.originalUrl ?? req.url;
  if (typeof body.retryAfter === 'number') res.setHeader('Retry-After', String(body.retryAfter));
  const lang = problemLanguage(req);
  res.setHeader('Content-Language', lang);
  res.vary('Accept-Language');
  res.status(body.status).type('application/problem+json').send(JSON.stringify(localizeProblem(body, lang)));
}

/** The one exception the HTTP layer throws; the filter turns it into application/problem+json. */
export class ProblemException extends HttpException {
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(problemBody(code, detail, extensions), PROBLEM_STATUS[code]);
  }
}

/** VALIDATION_FAILED about one parameter (query, path or header, named as the OpenAPI document names it), with its `errors` entry. */
export function invalidParameter(parameter: string, detail: string): ProblemException {
  return new ProblemException('VALIDATION_FAILED', detail, { errors: [{ parameter, detail }] });
}
