import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Request } from 'express';
import { EventStore, rowsOf } from '@bismarck/event-store';
import { appConfig } from '../../platform/config/app.config';
import { bearerToken, clientAddress } from '../../platform/edge/caller';
import { PlayerCredentials } from '../../accounts/players/player-credentials.service';
import { ProblemException } from '../../platform/problem/problem';

/** Callers remembered at once (each with at most the cap of match ids); the oldest are forgotten first. */
const REMEMBERED = 50_000;

/**
 * The cap on live matches against strong bots (docs/bots.md, "Fair shares"): as chess servers cap
 * simultaneous games against the computer, one caller — a player account when the request carries its
 * credential, else the client address — may have at most STRONG_BOT_MATCHES_PER_CALLER matches with a
 * strong bot seat in play or waiting at once; one more is 429 `TOO_MANY_BOT_MATCHES`. Each process
 * counts the matches created through it, in memory only (like the rate limits: a caller's address is
 * never written anywhere); whether a remembered match still counts is read from match_list, so a match
 * finished or abandoned through another instance frees its place.
 */
@Injectable()
export class StrongBotMatches {
  /** Per caller: its matches created here, and creations under way (a place held, no id yet). */
  private readonly callers = new Map<string, { ids: string[]; pending: number }>();
  /** The player who created each match counted here (its seats may be unbound): the person its bots play for. */
  private readonly creators = new Map<string, string>();

  constructor(
    private readonly store: EventStore,
    private readonly players: PlayerCredentials,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  /** Who asks, as the cap counts: the player whose credential the request carries, else its address. */
  async callerOf(req: Request): Promise<string> {
    const token = bearerToken(req);
    const player = token === undefined ? null : await Promise.resolve(this.players.playerForLimits(token)).catch(() => null);
    return player === null ? `address:${clientAddress(req)}` : `player:${player}`;
  }

  /**
   * Creates a match through `create` when the caller has a place for it (always, without a strong bot
   * seat or with no cap); else 429 and nothing is created.
   */
  async admit<T extends { id: string }>(caller: string, strongBots: boolean, create: () => Promise<T>): Promise<T> {
    if (!strongBots) return create();
    const cap = this.config.strongBotMatchesPerCaller;
    const entry = cap === 0 ? null : await this.live(caller);
    // Checked and held in one step (no await between): concurrent creations cannot both take the last place.
    if (entry && entry.ids.length + entry.pending >= cap) {
      throw new ProblemException('TOO_MANY_BOT_MATCHES', `You have ${cap} matches against strong bots in play: finish one first (or let a lobby table close).`, {
        retryAfter: 30,
      });
    }
    if (entry) entry.pending++;
    try {
      const created = await create();
      entry?.ids.push(created.id);
      if (caller.startsWith('player:')) {
        this.creators.set(created.id, caller);
        if (this.creators.size > REMEMBERED) this.creators.delete(this.creators.keys().next().value!);
      }
      return created;
    } finally {
      if (entry) entry.pending--;
    }
  }

  /**
   * The player whose credential created this match against strong bots through this process, as
   * `player:<id>`, or undefined: one account's matches share one turn in the bots' queue even when
   * their seats are not bound to it.
   */
  creatorOf(matchId: string): string | undefined {
    return this.creators.get(matchId);
  }

  /** The caller's entry, its matches that ended (through any instance) taken out. */
  private async live(caller: string): Promise<{ ids: string[]; pending: number }> {
    let entry = this.callers.get(caller);
    if (entry === undefined) {
      entry = { ids: [], pending: 0 };
      this.callers.set(caller, entry);
      if (this.callers.size > REMEMBERED) this.callers.delete(this.callers.keys().next().value!);
      return entry;
    }
    if (entry.ids.length > 0) {
      const asked = [...entry.ids];
      const rows = rowsOf(await this.store.queryable.query(`SELECT id FROM match_list WHERE id = ANY($1::text[]) AND status IN ('waiting', 'playing')`, [asked]));
      const live = new Set(rows.map((r) => String(r.id)));
      // Ids added while the read ran are kept: they are newer than it.
      entry.ids = entry.ids.filter((id) => live.has(id) || !asked.includes(id));
    }
    return entry;
  }
}
