import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type CommandOutcome = 'accepted' | 'refused' | 'failed';

/** Prometheus metrics of this process: commands by type and outcome, and their latency. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly commands = new Counter({
    name: 'bismarck_commands_total',
    help: 'Commands handled, by type and outcome (accepted, refused by the rules or validation, failed).',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly latency = new Histogram({
    name: 'bismarck_command_duration_seconds',
    help: 'Time from receiving a command to its answer, by type and outcome.',
    labelNames: ['type', 'outcome'] as const,
    buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  private readonly sweepFailures = new Counter({
    name: 'bismarck_sweep_failures_total',
    help: 'Matches a sweep tried to move on (a timeout, a stand-in or bot move) and found unmoved, or whose try failed, by sweep.',
    labelNames: ['sweep'] as const,
    registers: [this.registry],
  });

  private readonly sweepParked = new Gauge({
    name: 'bismarck_sweep_parked',
    help: 'Matches a sweep has parked (left alone a while after repeated failed tries), by sweep, in this process.',
    labelNames: ['sweep'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A sweep's try at a match failed or left it unmoved. */
  sweepFailed(sweep: string): void {
    this.sweepFailures.inc({ sweep });
  }

  /** How many matches a sweep has parked now. */
  sweepParkedNow(sweep: string, parked: number): void {
    this.sweepParked.set({ sweep }, parked);
  }

  /** Starts timing a command; call the returned function with its type and outcome. */
  startCommand(): (type: string, outcome: CommandOutcome) => void {
    const started = process.hrtime.bigint();
    return (type, outcome) => {
      this.commands.inc({ type, outcome });
      this.latency.observe({ type, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    };
  }
}
