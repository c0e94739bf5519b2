import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../../platform/config/app.config';
import { MatchCache } from '../../platform/cache/match-cache';
import { EventStore } from '@bismarck/event-store';
import { toDomainEvent, type FoldedMatch } from '@bismarck/match';
import { SecretReader, type SeedRow } from '@bismarck/projections';
import {
  dealToReveal,
  deckKey,
  newServerSeed,
  SHUFFLE_ALGORITHM,
  sha256Hex,
  shuffleDeck,
  type BismarckEvent,
  type Card,
  type Command,
  type CopiedShuffle,
  type Deal,
  type DealerFacts,
  type ForkedFrom,
  type MatchState,
  type TimeOut,
} from '@bismarck/rules';

/** A fork's origin: the finished match it was forked from, and that match's decks by deal, every attempt in order. */
interface ForkOrigin {
  matchId: string;
  decks: Map<number, { deck: Card[]; version: number }[]>;
}

/** A command as asked, before the facts from outside the rules are brought: a deal has no deck yet, a timeout no time. */
export type AskedCommand = Exclude<Command, Deal | TimeOut> | ((Omit<Deal, 'deck' | 'shuffle'> | Omit<TimeOut, 'now' | 'since'>) & Pick<Command, 'standIn'>);

/** The dealer's facts for one decision, and the secret seed behind their commitment (never in the log before its reveal). */
export interface DealerPart {
  facts: DealerFacts | undefined;
  drawn: SeedRow | null;
}

/**
 * The server's part in fair deals (docs/fairness.md). For a match without a caller's seed: before each
 * deal a fresh secret seed is drawn and only its SHA-256 is published (DeckCommitted); the cutter may
 * then cut; the deck is shuffled from the seed and the cut; when the deal is scored every seed of it
 * is revealed (SeedRevealed). A seeded match deals from its seed (and the cut): reproducible, no
 * commitments. Seeds stay in `deal_seeds`, never in the log before their reveal.
 *
 * A fork (POST /api/matches/{id}/fork) is a seeded match: deal n (attempt k) of the fork is dealt
 * the original's deck of deal n (attempt k) when the original had one, so a post-mortem replays the
 * same cards with other play; any other deal is shuffled from the fork's own random seed, stored in
 * `match_secrets` like a caller's seed. The original's decks are read from its log, not copied
 * anywhere: it is finished, so they are public and cannot change.
 */
@Injectable()
export class DealingService {
  /** Seeds this process drew or read, per match: commitment → row. */
  private readonly known: MatchCache<Map<string, SeedRow>>;
  private readonly sandboxSeeds: MatchCache<string>;
  /** Per fork: the decks of the match it was forked from. */
  private readonly origins: MatchCache<ForkOrigin>;
  private readonly secrets: SecretReader;

  constructor(
    private readonly store: EventStore,
    @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>,
  ) {
    this.secrets = new SecretReader(store.queryable);
    this.known = new MatchCache(config.stateCacheSize);
    this.sandboxSeeds = new MatchCache(config.stateCacheSize);
    this.origins = new MatchCache(config.stateCacheSize);
  }

  /**
   * The command as the rules take it: `asked` with every fact from outside the rules that its decision
   * needs, all resolved before the rules decide it (once): the deck of a deal, and the dealer's part.
   */
  async prepare(matchId: string, asked: AskedCommand, current: FoldedMatch): Promise<{ command: Command; dealer: DealerPart }> {
    const dealer = await this.bring(matchId, current.state);
    // The shuffle outcome is an input of the rules; its index is the version the deal will start at.
    const deck = asked.type === 'deal' ? await this.deck(matchId, current.state, current.version + 1) : {};
    return { command: { ...asked, ...deck, dealer: dealer.facts } as Command, dealer };
  }

  /** The deck of the next deal and the facts that prove how it was made. */
  private async deck(matchId: string, state: MatchState, index: number): Promise<{ deck: Card[]; shuffle: Record<string, unknown> }> {
    // Only a match waiting for a deal has a next deck; the rules refuse the deal of any other.
    if (state.status !== 'awaitingDeal') return { deck: [], shuffle: {} };
    const cut = state.cut;
    const matchSeed = state.seeded ? await this.sandboxSeed(matchId) : null;
    if (matchSeed !== null) {
      const copied = await this.copiedDeck(matchId, state);
      if (copied) return copied;
      return { deck: shuffleDeck(deckKey(matchSeed, cut), index), shuffle: { algorithm: SHUFFLE_ALGORITHM, index, seeded: true, cut } };
    }
    const commitment = state.commitment;
    const row = commitment === null ? null : await this.seedOf(matchId, commitment);
    // A match from before commitments existed (or a lost seed) still deals, visibly without proof.
    const seed = row?.seed ?? newServerSeed();
    return {
      deck: shuffleDeck(deckKey(seed, cut), index),
      shuffle: { algorithm: SHUFFLE_ALGORITHM, index, seeded: false, commitment: row ? commitment : null, cut },
    };
  }

  /**
   * What the dealer brings to a decision on `state`, resolved before the rules decide it (once): the
   * commitment to a fresh secret seed, which the rules publish only if the decision leaves the match
   * waiting for a deal, and, when the next card may end the deal, that deal's seeds to reveal. A
   * seeded match (a fork too) brings nothing: it commits to nothing and reveals nothing.
   */
  private async bring(matchId: string, state: MatchState): Promise<DealerPart> {
    if (isSeeded(state)) return { facts: undefined, drawn: null };
    const seed = newServerSeed();
    const drawn: SeedRow = { match_id: matchId, deal: 0, commitment: sha256Hex(seed), seed };
    const deal = dealToReveal(state);
    const seeds = deal === null ? [] : await this.seedsOfDeal(matchId, deal);
    return { facts: { commitment: drawn.commitment, seeds }, drawn };
  }

  /** The secret seed to store with `events`: the one drawn, if the rules committed to it. */
  committed(part: DealerPart, events: readonly BismarckEvent[]): SeedRow[] {
    const committed = part.drawn === null ? undefined : events.find((e) => e.type === 'DeckCommitted');
    return committed?.type === 'DeckCommitted' ? [{ ...part.drawn!, deal: committed.data.deal }] : [];
  }

  /**
   * For a fork, the original's deck of the deal about to be dealt (the same deal number and attempt),
   * with the shuffle record saying so; null for a match that is not a fork, or a deal (or redeal) the
   * original never dealt. The fork's cut is recorded but changes nothing: the cards are the original's.
   */
  private async copiedDeck(matchId: string, state: Extract<MatchState, { status: 'awaitingDeal' }>): Promise<{ deck: Card[]; shuffle: CopiedShuffle } | null> {
    const origin = state.forkedFrom === null ? null : await this.originOf(matchId, state.forkedFrom);
    const attempts = origin?.decks.get(state.upcomingDeal);
    if (!origin || !attempts) return null;
    // The first attempt unless a void carried the contract over; then count the fork's own attempts (rare).
    const attempt = state.carried === null ? 0 : await this.dealtBefore(matchId, state.upcomingDeal);
    const copied = attempts[attempt];
    if (!copied) return null;
    return { deck: copied.deck.slice(), shuffle: { seeded: true, cut: state.cut, copiedFrom: { matchId: origin.matchId, version: copied.version } } };
  }

  /** The decks of the finished match a fork starts from, read once. */
  private async originOf(matchId: string, from: ForkedFrom): Promise<ForkOrigin> {
    const known = this.origins.get(matchId);
    if (known) return known;
    const origin: ForkOrigin = { matchId: from.matchId, decks: new Map() };
    for (const stored of await this.store.readStream(from.matchId)) {
      const e = toDomainEvent(stored);
      if (e.type !== 'DealStarted' || e.data.deck === null) continue;
      const attempts = origin.decks.get(e.data.deal) ?? [];
      attempts.push({ deck: e.data.deck, version: stored.version });
      origin.decks.set(e.data.deal, attempts);
    }
    this.origins.set(matchId, origin);
    return origin;
  }

  /** How many times the fork has dealt this deal number already (voided attempts). */
  private async dealtBefore(matchId: string, deal: number): Promise<number> {
    const events = (await this.store.readStream(matchId)).map(toDomainEvent);
    return events.filter((e) => e.type === 'DealStarted' && e.data.deal === deal).length;
  }

  /** The caller's seed of a seeded match, kept out of the log in `match_secrets`. */
  private async sandboxSeed(matchId: string): Promise<string> {
    const known = this.sandboxSeeds.get(matchId);
    if (known) return known;
    const seed = await this.secrets.sandboxSeed(matchId);
    if (seed === null) throw new Error(`seeded match ${matchId} has no stored seed`);
    this.sandboxSeeds.set(matchId, seed);
    return seed;
  }

  /** Call once the seeds are committed to the database with their events. */
  remember(seeds: SeedRow[]): void {
    for (const row of seeds) this.rows(row.match_id).set(row.commitment, row);
  }

  private rows(matchId: string): Map<string, SeedRow> {
    let rows = this.known.get(matchId);
    if (!rows) this.known.set(matchId, (rows = new Map()));
    return rows;
  }

  private async seedOf(matchId: string, commitment: string): Promise<SeedRow | null> {
    const hit = this.known.get(matchId)?.get(commitment);
    if (hit) return hit;
    const row = await this.secrets.seedOf(matchId, commitment);
    if (row) this.rows(matchId).set(commitment, row);
    return row;
  }

  private async seedsOfDeal(matchId: string, deal: number): Promise<SeedRow[]> {
    const rows = await this.secrets.seedsOfDeal(matchId, deal);
    // Revealed seeds are not needed again in this process.
    const known = this.known.get(matchId);
    for (const row of rows) known?.delete(row.commitment);
    return rows;
  }
}

const isSeeded = (state: MatchState): boolean => state.status !== 'empty' && state.seeded;
