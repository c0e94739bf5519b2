import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { appConfig } from '../config/app.config';
import { MatchCache } from './state-cache';
import { EventStore } from '@bismarck/event-store';
import { SecretReader, type SeedRow } from '@bismarck/projections';
import {
  decide,
  deckKey,
  newServerSeed,
  SHUFFLE_ALGORITHM,
  sha256Hex,
  shuffleDeck,
  type BismarckEvent,
  type Card,
  type Command,
  type MatchState,
} from '@bismarck/rules';

/** A decision with the dealer's part, and the secret seed to store with it (when it committed one). */
export interface Decided {
  events: BismarckEvent[];
  seeds: SeedRow[];
}

/**
 * The server's part in fair deals (docs/fairness.md). For a match without a caller's seed: before each
 * deal a fresh secret seed is drawn and only its SHA-256 is published (DeckCommitted); the cutter may
 * then cut; the deck is shuffled from the seed and the cut; when the deal is scored every seed of it
 * is revealed (SeedRevealed). A seeded match deals from its seed (and the cut): reproducible, no
 * commitments. Seeds stay in `deal_seeds`, never in the log before their reveal.
 */
@Injectable()
export class DealingService {
  /** Seeds this process drew or read, per match: commitment → row. */
  private readonly known: MatchCache<Map<string, SeedRow>>;
  private readonly sandboxSeeds: MatchCache<string>;
  private readonly secrets: SecretReader;

  constructor(store: EventStore, @Inject(appConfig.KEY) config: ConfigType<typeof appConfig>) {
    this.secrets = new SecretReader(store.queryable);
    this.known = new MatchCache(config.stateCacheSize);
    this.sandboxSeeds = new MatchCache(config.stateCacheSize);
  }

  /** The deck of the next deal and the facts that prove how it was made. */
  async deck(matchId: string, state: MatchState, index: number): Promise<{ deck: Card[]; shuffle: Record<string, unknown> }> {
    if (state.status !== 'awaitingDeal') return { deck: [], shuffle: {} }; // the rules refuse the deal anyway
    const cut = state.cut;
    const matchSeed = state.seeded ? await this.sandboxSeed(matchId) : null;
    if (matchSeed !== null) {
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
   * The rules' decision with what the dealer brings (the rules place its events): a fresh secret
   * seed, whose commitment is published if the match comes to wait for a deal, and, when the decision
   * scores a deal, that deal's seeds to reveal. Most decisions need neither: they are decided once
   * with a stand-in commitment, and only the last card of a deal (or a start, or a void) is decided
   * again with a seed drawn and the seeds read.
   */
  async decide(matchId: string, command: Command, current: { state: MatchState }): Promise<Decided> {
    const events = decide({ ...command, dealer: { commitment: UNDRAWN } }, current.state);
    const scored = events.find((e) => e.type === 'DealScored');
    if (!scored && !events.some((e) => e.type === 'DeckCommitted')) return { events, seeds: [] };
    const seed = newServerSeed();
    const drawn: SeedRow = { match_id: matchId, deal: 0, commitment: sha256Hex(seed), seed };
    const seeds = scored && !isSeeded(current.state) ? await this.seedsOfDeal(matchId, scored.data.deal) : [];
    const final = decide({ ...command, dealer: { commitment: drawn.commitment, seeds } }, current.state);
    const committed = final.find((e) => e.type === 'DeckCommitted');
    return { events: final, seeds: committed?.type === 'DeckCommitted' ? [{ ...drawn, deal: committed.data.deal }] : [] };
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

/** Stands in for the next commitment while the rules tell whether one is needed (never stored). */
const UNDRAWN = 'undrawn';

const isSeeded = (state: MatchState): boolean => state.status !== 'empty' && state.seeded;
