import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StrategyName } from '@bismarck/bots';
import { dealHistory } from '@bismarck/bots';
import { EventStore } from '@bismarck/event-store';
import { toDomainEvent, type FoldedMatch } from '@bismarck/match';
import { matchesAwaitingBots } from '@bismarck/projections';
import { legalActions, RuleViolation, seatView, standInDue, visibleEvents, type BismarckEvent, type MatchState, type Seat } from '@bismarck/rules';
import { appConfig } from '../../platform/config/app.config';
import { MatchCommands, serviceMove, type FollowUp } from '../matches/match-commands.service';
import { CommitFeed } from '../../platform/database/commit-feed';
import { StrongBotMatches } from '../matches/strong-bot-matches';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { ProblemException } from '../../platform/problem/problem';
import { SweepAttempts, SWEEP_BACKOFF } from '../../platform/sweeps/sweep-attempts';
import { BotDecider } from './bot-decider.service';
import type { BotTask } from './bot-decision';
import { KnownMatches, learn, type KnownMatch } from './known-matches';

const SEATS: Seat[] = [0, 1, 2];
/** Matches looked at per sweep. */
const PER_SWEEP = 100;
/** A bot turn waiting this long (beyond BOT_DELAY_MS) was missed: the periodic sweep takes it. */
const STUCK_MS = 2_000;
/**
 * How long after a person's deadline the stand-in may still think (then it plays greedy): its move is
 * promised within a second of the deadline (docs/clients.md), and the append takes the rest.
 */
const STAND_IN_THINKS_MS = 500;
/** Lost races in a row (another instance, a person faster at the cut) before a match is left to the sweep. */
const MAX_LOST = 5;
/** Matches whose fold and deal in progress the runner keeps between moves (~15 kB each). */
const KNOWN_MATCHES = 1_000;

const hasBots = (state: MatchState): state is Extract<MatchState, { bots: unknown }> => 'bots' in state && state.bots.some((b) => b !== null);
/** A match the runner may have to play in: a bot seat, or a turn clock (a stand-in for an absent person). */
const playedHere = (state: MatchState): boolean => (state.status !== 'empty' && state.options.clock !== undefined) || hasBots(state);

/** Who plays next for the service: a bot seat, or the stand-in of a person who timed out or is away. */
export interface ServiceSeat {
  seat: Seat;
  /** The bot's strategy; null: the stand-in's (STAND_IN_BOT). */
  strategy: string | null;
}

/** The seat the service plays now, or null: a bot seat that may act, else a stand-in that is due. */
export function serviceSeatToAct(state: MatchState): ServiceSeat | null {
  const bot = botToAct(state);
  if (bot !== null) return { seat: bot, strategy: (state as Extract<MatchState, { bots: unknown }>).bots[bot] };
  const standIn = standInDue(state);
  return standIn === null ? null : { seat: standIn, strategy: null };
}

/**
 * The bot seat that may act now, or null. A bot on the dealer's right cuts before its dealer deals
 * (the cut is optional: a person dealing first simply makes the bot's cut late).
 */
export function botToAct(state: MatchState): Seat | null {
  if (!hasBots(state)) return null;
  let acting: Seat | null = null;
  for (const seat of SEATS) {
    if (state.bots[seat] === null) continue;
    const legal = legalActions(state, seat);
    if (legal?.action === 'cut') return seat;
    if (legal) acting = seat;
  }
  return acting;
}

/**
 * True when the seat to act is a bot about to take the table cards (its discard) in a match where a
 * person sits: the one move that hides cards a person would otherwise never see face up.
 */
export function takesTableCardsBeforeAPerson(state: MatchState, acting: ServiceSeat | null): boolean {
  if (acting === null || acting.strategy === null || !hasBots(state)) return false;
  return state.bots.some((bot) => bot === null) && legalActions(state, acting.seat)?.action === 'discard';
}

/**
 * The person a service move in this match is played for, as the bots' fair queue shares their time:
 * the player account of the first bound seat, else the player who created it (`creator`, known to the
 * process that created it), else the match itself (its person's seat token).
 */
export function personOf(matchId: string, state: MatchState, creator?: string): string {
  const account = 'accounts' in state ? state.accounts.find((a) => a !== null) : undefined;
  return account ? `player:${account}` : (creator ?? `match:${matchId}`);
}

/** What a seat's bot decides from, and nothing more: the seat's view and the deal's log redacted for it. */
const seatTask = (known: KnownMatch, seat: Seat, strategy: StrategyName): BotTask => ({
  strategy,
  view: seatView(known.folded.state, seat),
  history: dealHistory(visibleEvents(known.deal, seat)),
});

/** Someone else moved the match on first (another instance, a person): look again. */
const lostRace = (err: unknown): boolean =>
  err instanceof RuleViolation ||
  (err instanceof ProblemException && ['VERSION_MISMATCH', 'IDEMPOTENCY_KEY_REUSED', 'CONCURRENT_UPDATE'].includes(err.code));

/**
 * Plays the bot seats (docs/bots.md, "Bot seats in the service"). Woken by every append this process
 * commits (the CommitFeed, with the writer's fold), it reads on in the log only what it does
 * not know yet, and while a bot seat may act, decides
 * from that seat's view and the events that seat may see (the rules' own redaction) and sends the
 * move through the same command path as a person's, as a principal of its own (executeAsService): at
 * the version it decided at, under an idempotency key derived from that version in the service's own
 * key space (no caller's Idempotency-Key can collide with it), so a stale decision is refused and a
 * move is appended once, however many api instances decide it. At start-up, and every BOT_SWEEP_MS, it looks for
 * playing matches whose turn is a bot's that nobody took (a restart, a crash, an outage).
 */
@Injectable()
export class BotRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BotRunner');
  /** One loop per match at a time; `again`: woken while it ran. */
  private readonly running = new Map<string, { again: boolean }>();
  private readonly loops = new Set<Promise<void>>();
  private sweeping: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private unhook: (() => void) | undefined;
  private stopped = false;
  private read = 0;
  private readonly stopping = new AbortController();
  private readonly known = new KnownMatches(KNOWN_MATCHES);
  private readonly attempts = new SweepAttempts();
  /**
   * Matches whose bot is to take the table cards before a person, by the version that made it due:
   * not before `until`. In memory only: after a restart, or on an instance that did not see the move,
   * the cards have been on the table at least as long as the sweep's wait, and the bot just acts.
   */
  private readonly tableCardsPause = new Map<string, { version: number; until: number }>();

  constructor(
    private readonly store: EventStore,
    private readonly feed: CommitFeed,
    private readonly commands: MatchCommands,
    private readonly decider: BotDecider,
    private readonly metrics: MetricsService,
    private readonly strongBots: StrongBotMatches,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {}

  onApplicationBootstrap(): void {
    this.unhook = this.feed.follow(({ matchId, from, events, folded }) => {
      if (!playedHere(folded.state)) return;
      this.known.written(matchId, from, events, folded);
      const acting = serviceSeatToAct(folded.state);
      if (acting === null) return;
      if (this.config.botTableCardsPauseMs > 0 && takesTableCardsBeforeAPerson(folded.state, acting)) {
        this.tableCardsPause.set(matchId, { version: folded.version, until: Date.now() + this.config.botTableCardsPauseMs });
      }
      this.wake(matchId);
    });
    // Resume what a previous process left waiting (not awaited: start-up does not wait for bots).
    void this.sweep(0).catch((err: unknown) => this.logger.warn(`bot resume: ${String(err)}`));
    if (this.config.botSweepMs > 0) {
      this.timer = setInterval(
        // A turn within its pause is not stuck: another instance's sweep must not cut the pause short.
        () => void this.sweep(this.config.botDelayMs + this.config.botTableCardsPauseMs + STUCK_MS).catch((err: unknown) => this.logger.warn(`bot sweep: ${String(err)}`)),
        this.config.botSweepMs,
      );
      this.timer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.decider.close();
    this.unhook?.();
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
    await Promise.all([...this.loops]);
  }

  /** Plays the match's bot seats now, unless a loop for it runs already (that one will look again). */
  wake(matchId: string): void {
    if (this.stopped) return;
    const running = this.running.get(matchId);
    if (running) {
      running.again = true;
      return;
    }
    const entry = { again: false };
    this.running.set(matchId, entry);
    const loop = this.play(matchId, entry)
      .catch((err: unknown) => {
        // Left to the next sweep (the database away, a worker failing).
        if (!this.stopped) this.logger.warn(`bot of match ${matchId}: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        if (this.running.get(matchId) === entry) this.running.delete(matchId);
        this.loops.delete(loop);
      });
    this.loops.add(loop);
  }

  /**
   * Wakes the bots of matches whose turn is a bot's, unchanged for `idleMs`; answers how many. One
   * sweep at a time. A match found again where an earlier wake-up left it waits longer each time, then
   * is parked (SweepAttempts), and the read leaves it out meanwhile.
   */
  sweep(idleMs: number): Promise<number> {
    this.sweeping ??= (async () => {
      const found = await matchesAwaitingBots(this.store.queryable, idleMs, PER_SWEEP, this.attempts.waiting());
      this.attempts.forget(new Set(found.map((f) => f.id)));
      for (const { id, version } of found) {
        const tried = this.attempts.tried(id, version);
        if (tried !== 'first') this.metrics.sweepFailed('bots');
        if (tried === 'parked') this.logger.warn(`match ${id}: its bot's turn at version ${version} did not move on after ${SWEEP_BACKOFF.parkAfter} tries; parked for ${SWEEP_BACKOFF.parkMs / 1000} s`);
        this.wake(id);
      }
      this.metrics.sweepParkedNow('bots', this.attempts.parked);
      return found.length;
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Events read from the log so far (the tests' measure of what a bot move costs). */
  get eventsRead(): number {
    return this.read;
  }

  /** True while some match's bots are being played in this process. */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** What is left of the table cards' pause at this version (0: none owed), forgotten once asked. */
  private tableCardsPauseLeft(matchId: string, version: number): number {
    const pause = this.tableCardsPause.get(matchId);
    // One made at a later version than this (stale) fold is kept for the look at that version.
    if (pause === undefined || pause.version > version) return 0;
    this.tableCardsPause.delete(matchId);
    return pause.version === version ? Math.max(0, pause.until - Date.now()) : 0;
  }

  private async knownNow(matchId: string): Promise<KnownMatch> {
    const before = this.known.get(matchId);
    // Trusted only to start a move: a stale fold that says no bot may act would leave a bot waiting.
    if (before?.written && serviceSeatToAct(before.folded.state) !== null) return before;
    const fresh = (await this.store.readStream(matchId, { after: before?.folded.version ?? 0 })).map(toDomainEvent);
    this.read += fresh.length;
    const known = learn(before, fresh);
    this.known.set(matchId, known);
    return known;
  }

  /**
   * The stand-in's move on `after`, the fold a timeout leaves (`events`, not appended yet), for the
   * timeout's own append (ClockSweeper): decided as play() decides it. Null when no stand-in is due
   * there, or the log has moved past the version before the timeout.
   */
  async standInAfter(matchId: string, after: FoldedMatch, events: readonly BismarckEvent[]): Promise<FollowUp | null> {
    const acting = serviceSeatToAct(after.state);
    if (acting === null || acting.strategy !== null || this.stopped) return null;
    const from = after.version - events.length;
    const cached = this.known.get(matchId);
    const before = cached?.folded.version === from ? cached : await this.knownNow(matchId);
    if (before.folded.version !== from) return null;
    const task = seatTask(learn(before, events, after), acting.seat, this.config.standInBot as StrategyName);
    const timedOut = events.find((e) => e.type === 'TurnTimedOut');
    const dueBy = timedOut ? Date.parse(timedOut.data.deadline) + STAND_IN_THINKS_MS : undefined;
    const action = await this.decider.decide(task, { withPeople: true, person: personOf(matchId, after.state, this.strongBots.creatorOf(matchId)), match: matchId, standIn: true, dueBy });
    return action && !this.stopped ? serviceMove(acting.seat, action, 'standIn', after.version) : null;
  }

  private async play(matchId: string, entry: { again: boolean }): Promise<void> {
    let lost = 0;
    while (!this.stopped) {
      entry.again = false;
      // Over (its last event was handed over here): nothing to read, no bot to play.
      if (this.known.ended(matchId)) {
        this.running.delete(matchId);
        return;
      }
      // The bot decides from exactly the events of the version it names: those this process appended
      // (handed over with the writer's fold), else the log read on from where this runner last read it.
      const known = await this.knownNow(matchId);
      const { state, version } = known.folded;
      const acting = serviceSeatToAct(state);
      const seat = acting?.seat ?? null;
      if (acting === null || seat === null || lost >= MAX_LOST) {
        // Checked and given up in one step, so a wake-up in between cannot be lost.
        if (entry.again && lost < MAX_LOST) continue;
        this.running.delete(matchId);
        if (seat !== null) this.logger.warn(`match ${matchId}: bot seat ${seat} lost ${lost} times in a row at version ${version}; left to the next sweep`);
        return;
      }
      const { bots } = state as Extract<MatchState, { bots: unknown }>;
      const standIn = acting.strategy === null;
      const strategy = (acting.strategy ?? this.config.standInBot) as StrategyName;
      // A stand-in plays for a person who let the time run out: it does not wait any longer.
      const waitMs = standIn ? 0 : Math.max(this.config.botDelayMs, this.tableCardsPauseLeft(matchId, version));
      // A timer in this match's loop, before the decision is queued: no worker thread nor any other
      // match waits for it, and the fair queue sees the decision only once the pause is over.
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: this.stopping.signal }).catch(() => undefined);
      if (this.stopped) return;
      const action = await this.decider.decide(seatTask(known, seat, strategy), { withPeople: standIn || bots.some((bot) => bot === null), person: personOf(matchId, state, this.strongBots.creatorOf(matchId)), match: matchId, standIn });
      if (!action || this.stopped) return;
      try {
        await this.commands.executeAsService(matchId, seat, action, standIn ? 'standIn' : 'bot', version);
        lost = 0;
        // Answered but not appended here (another instance made the same move with the same key, and
        // this is its first answer): the fold handed over is behind the log, so read on from the log.
        if ((this.known.get(matchId)?.folded.version ?? 0) <= version) this.known.doubt(matchId);
        this.logger.debug(`match ${matchId}: ${standIn ? 'the stand-in of seat' : 'bot seat'} ${seat} (${strategy}) did ${action.type} at version ${version}`);
      } catch (err) {
        if (!lostRace(err)) throw err;
        lost++;
        this.known.doubt(matchId);
        const code = (err as { code?: string }).code;
        this.logger.debug(`match ${matchId}: bot seat ${seat} lost version ${version} (${code})`);
      }
    }
  }
}
