import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { publicView, RuleViolation, type MatchState, type Seat, type Triple } from '@bismarck/rules';
import type { MatchCreated } from '../matches/match-commands.service';
import { MatchFolds } from '../matches/match-folds.service';
import { MatchCommands } from '../matches/match-commands.service';
import { ProblemException } from '../../platform/problem/problem';
import { SeatCredentials } from '../../accounts/seats/seat-credentials.service';

type Finished = Extract<MatchState, { status: 'finished' }>;

/** The caller's seat in the rematch. No credential: the one the caller sent acts for the seat there too. */
export interface RematchSeat {
  seat: Seat;
  name: string;
  token: null;
}

/** The answer to a rematch: the new match as POST /api/matches answers it, with only the caller's seat. */
export interface RematchCreated extends Omit<MatchCreated, 'status' | 'seats'> {
  seats: [RematchSeat];
  /** `playing`, or `finished` when the rematch was played to its end before this call. */
  status: 'playing' | 'finished';
  /** The finished match it follows. */
  rematchOf: string;
}

/**
 * The next match of a finished one (docs/clients.md, "Rematch"), in two appends, each through the one
 * write path: first `RematchOffered { matchId }` to the finished match (the rules take it once, so two
 * seats asking at once get one rematch: the second is refused REMATCH_OFFERED and answered the first's),
 * then the new match under that id. A crash between the two leaves an id that names no match yet: the
 * next call (any seat's) creates it. The persons keep their seat tokens: the new match's seats get the
 * same token hashes, so nothing secret is written to the log or sent in a stream, and the answer holds
 * no credential either (a seat token, a player token or a JWT acts for the seat as it did).
 */
@Injectable()
export class RematchService {
  constructor(
    private readonly folds: MatchFolds,
    private readonly commands: MatchCommands,
    private readonly credentials: SeatCredentials,
  ) {}

  async rematch(id: string, seat: Seat): Promise<RematchCreated> {
    const finished = await this.offer(id, seat);
    return this.answer(finished, await this.created(finished), seat);
  }

  /** The finished match with its rematch: offered now, or found (offered by anyone before). */
  private async offer(id: string, seat: Seat): Promise<Finished> {
    const known = await this.folds.load(id);
    if (known?.state.status === 'finished' && known.state.rematch !== null) return known.state;
    try {
      return (await this.commands.offerRematch(id, seat)).state as Finished;
    } catch (error) {
      if (!(error instanceof RuleViolation) || error.code !== 'REMATCH_OFFERED') throw error;
      // The writer refused it against the log as it is now: the rematch is there.
      const now = await this.folds.load(id, true);
      if (now?.state.status !== 'finished' || now.state.rematch === null) throw error;
      return now.state;
    }
  }

  /** The rematch as it is now: created here, or (a second seat, a retry) found. */
  private async created(finished: Finished): Promise<{ version: number; state: MatchState }> {
    const id = finished.rematch!;
    const found = await this.folds.load(id, true);
    if (found) return found;
    const { players, bots, accounts, options, firstDealer, matchId } = finished;
    // The persons keep their tokens: the same hashes for the same seats (bot seats have none).
    const persons = ([0, 1, 2] as Seat[]).filter((s) => bots[s] === null);
    const credentials = await this.credentials.carriedOver(matchId, id, persons);
    try {
      const written = await this.commands.createFrom(
        // An ordinary match, whatever the finished one was (seeded, a fork): provably fair deals.
        // Seats bound to player accounts stay bound: each player's own token acts in the rematch too.
        { type: 'createMatch', matchId: id, players, bots, ...(accounts.some((a) => a !== null) ? { accounts } : {}), options, firstDealer: ((firstDealer + 1) % 3) as Seat, seeded: false, rematchOf: matchId },
        { credentials },
      );
      this.credentials.remember(id, credentials.map((c) => ({ seat: c.seat as Seat, hash: c.token_hash })), true);
      return written;
    } catch (error) {
      // Created meanwhile by another call (the version check refused this one): answer that one.
      if (!(error instanceof ProblemException) || error.code !== 'VERSION_MISMATCH') throw error;
      const now = await this.folds.load(id, true);
      if (!now) throw error;
      return now;
    }
  }

  /** As POST /api/matches answers, but with the caller's seat only, and no token: the caller's own acts for it. */
  private answer(finished: Finished, rematch: { version: number; state: MatchState }, seat: Seat): RematchCreated {
    const view = publicView(rematch.state);
    if (rematch.state.status === 'empty') throw new Error(`rematch ${finished.rematch} has no events`);
    const names = view.seats.map((s) => s.name) as Triple<string>;
    const bots = view.seats.flatMap((s) => (s.bot === null ? [] : [{ seat: s.seat, name: s.name!, bot: s.bot }]));
    return {
      id: finished.rematch!,
      version: rematch.version,
      options: view.options,
      firstDealer: rematch.state.firstDealer,
      seeded: view.seeded,
      status: view.status === 'finished' ? 'finished' : 'playing',
      seats: [{ seat, name: names[seat], token: null }],
      bots,
      rematchOf: finished.matchId,
    };
  }
}
