import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ConfigType } from '@nestjs/config';
import { EventStore } from '@bismarck/event-store';
import { claimOverdueTurns, forgetLapsedClaims } from '@bismarck/projections';
import { RuleViolation, standInDue } from '@bismarck/rules';
import { BotRunner } from '../bots/bot-runner.service';
import { appConfig } from '../../platform/config/app.config';
import { MatchFolds } from '../matches/match-folds.service';
import { MatchCommands } from '../matches/match-commands.service';
import { isDatabaseUnavailable } from '../../platform/problem/database-unavailable';
import { ProblemException } from '../../platform/problem/problem';
import { MetricsService } from '../../platform/metrics/metrics.service';
import { PeriodicSweep } from '../../platform/sweeps/periodic-sweep';
import { eachBounded, SweepAttempts, SWEEP_BACKOFF } from '../../platform/sweeps/sweep-attempts';

/** Overdue turns read at once. */
const PER_SWEEP = 500;
/** Timeouts (and stand-in wake-ups) in flight at once per instance. */
const AT_ONCE = 64;
/**
 * A stand-in due for less than this is left to the instance whose append made it due (its bot runner
 * was woken by that append): other instances deciding the same move would only lose the race.
 */
const HANDOVER_MS = 2_000;
/** How long an instance's claim on an overdue turn keeps the others off it (then another may take it). */
const LEASE_MS = 5_000;
/** How often lapsed claims are deleted. */
const FORGET_EVERY_MS = 30_000;

/**
 * Turn clocks (docs/clients.md, "Turn clocks"): every CLOCK_SWEEP_MS each instance looks for persons
 * whose time ran out (match_list.turn_deadline, written with every move), times them out at the version
 * it found (the rules check the deadline; a move that arrives meanwhile wins, and the timeout is
 * refused) with the stand-in's move, decided by the bot runner, in the same append. Deadlines live in the log, so
 * a restart or another instance finds the same ones; the one version check lets one timeout through.
 * Each instance claims what it reads for LEASE_MS (sweep_claims), so another instance leaves those
 * alone: one instance decides each timeout. Up to AT_ONCE timeouts are handled at once. A match found again at a version it was tried at did
 * not move on: it is tried again after a growing wait and then parked (logged, counted in /metrics),
 * and the read leaves out every match waiting so, so no match that cannot move holds up the others.
 * While the database is away nobody can move, so once it is back the sweeper waits
 * CLOCK_OUTAGE_GRACE_MS before it times anyone out: a deadline that passed meanwhile is not held
 * against the person (docs/operations.md, "What clients see during a failover").
 */
@Injectable()
export class ClockSweeper extends PeriodicSweep {
  private readonly attempts = new SweepAttempts();
  /** Overdue turns read at once (a test makes it small to show that stuck matches never fill it). */
  batch = PER_SWEEP;

  constructor(
    private readonly store: EventStore,
    private readonly commands: MatchCommands,
    private readonly folds: MatchFolds,
    private readonly bots: BotRunner,
    private readonly metrics: MetricsService,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
  ) {
    super('ClockSweeper');
  }

  /** No timeouts before this time; Infinity: the database is away (the grace starts when it answers). */
  private heldUntil = 0;
  private forgetAt = 0;
  /** This process, as its claims name it. */
  private readonly instance = randomUUID();

  protected everyMs(): number {
    return this.config.clockSweepMs;
  }

  /** Times out the turns overdue now and hands them to the stand-in; answers how many timed out. */
  protected async sweepOnce(): Promise<number> {
    try {
      return await this.timeOutOverdue();
    } catch (err) {
      if (isDatabaseUnavailable(err)) this.heldUntil = Infinity;
      throw err;
    }
  }

  private async timeOutOverdue(): Promise<number> {
    // Within the grace nothing is read; while the database is away the read is what finds it back.
    if (this.heldUntil !== Infinity && Date.now() < this.heldUntil) return 0;
    const now = new Date();
    const overdue = await claimOverdueTurns(this.store.queryable, now, { instance: this.instance, handoverMs: HANDOVER_MS, leaseMs: LEASE_MS, limit: this.batch, skip: this.attempts.waiting() });
    if (now.getTime() >= this.forgetAt) {
      this.forgetAt = now.getTime() + FORGET_EVERY_MS;
      await forgetLapsedClaims(this.store.queryable, new Date(now.getTime() - FORGET_EVERY_MS));
    }
    if (this.heldUntil === Infinity) this.heldUntil = Date.now() + this.config.clockOutageGraceMs;
    if (Date.now() < this.heldUntil) return 0;
    this.attempts.forget(new Set(overdue.map((o) => o.id)));
    let timedOut = 0;
    await eachBounded(overdue, AT_ONCE, async ({ id, version }) => {
      const tried = this.attempts.tried(id, version);
      // Found again where an earlier try left it: that try failed (a stand-in that could not move, say).
      if (tried !== 'first') this.metrics.sweepFailed('clocks');
      if (tried === 'parked') {
        this.logger.warn(`match ${id}: its overdue turn at version ${version} did not move on after ${SWEEP_BACKOFF.parkAfter} tries; parked for ${SWEEP_BACKOFF.parkMs / 1000} s`);
      }
      if (await this.timeOut(id, version)) timedOut++;
    });
    this.metrics.sweepParkedNow('clocks', this.attempts.parked);
    return timedOut;
  }

  /** Times out the match at `version` (true), or wakes the stand-in that is due already (false). */
  private async timeOut(id: string, version: number): Promise<boolean> {
    let appended = false;
    try {
      // A stand-in due already (timed out, or away) is only woken: it is found again until it has moved.
      const known = await this.folds.load(id);
      if (known?.version === version && standInDue(known.state) !== null) {
        this.bots.wake(id);
        return false;
      }
      // Only at the version found: a move made since is the person's, and its clock starts again. The
      // stand-in's move goes in the same append (decided on the state the timeout leaves): a timeout
      // and its move cost one write, and many clocks running out together are handled in half the time.
      // A decision that failed (a worker, a stopping process) leaves the stand-in's move to the runner.
      await this.commands.timeOut(id, version, (after, events) => this.bots.standInAfter(id, after, events).catch(() => null));
      appended = true;
      return true;
    } catch (err) {
      // Moved meanwhile, or its stand-in is due already (timed out or away): the runner is woken below.
      if (!(err instanceof RuleViolation) && !(err instanceof ProblemException && ['VERSION_MISMATCH', 'CONCURRENT_UPDATE'].includes(err.code))) throw err;
      return false;
    } finally {
      // A stand-in due and not played (a restart, a wake-up lost, another instance's timeout) is played
      // now. After this process's own append the runner was told already (the CommitFeed).
      if (!appended) this.bots.wake(id);
    }
  }
}
