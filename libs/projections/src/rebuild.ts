import { changesScorecard } from '@bismarck/rules';
import { rowsOf, START, type Checkpoint, type EventStore, type Queryable, type StoredEvent } from '@bismarck/event-store';
import { toDomainEvent } from './event-view';
import { foldOnto, projectMatch, UNBORN, type FoldedMatch, type MatchProjection } from './projection';
import { MATCH_LIST, MATCH_VIEWS, SCORECARDS, SEAT_VIEWS } from './tables';

/** The projection tables, each with the columns that identify a row. */
export const PROJECTION_TABLES = [MATCH_LIST, MATCH_VIEWS, SEAT_VIEWS, SCORECARDS] as const;

type Table = (typeof PROJECTION_TABLES)[number]['table'];

export interface RebuildStats {
  events: number;
  matches: number;
  checkpoint: Checkpoint;
  ms: number;
}

export interface TableDifference {
  table: string;
  /** Rows in the live table that the rebuild does not produce exactly. */
  onlyLive: number;
  /** Rows the rebuild produces that the live table does not hold exactly. */
  onlyRebuilt: number;
}

interface Fold extends FoldedMatch {
  /** The version of the last event that changed the scorecard. */
  scorecardAt: number;
  createdAt: string;
  updatedAt: string;
}

/** Something that runs statements inside one transaction. */
export type InTransaction = <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;

const rebuilt = (table: Table): string => `rebuild_${table}`;

/**
 * Rebuilds every projection from the log: replays all events in commit order through the same
 * `projectMatch` that commands use, into fresh `rebuild_*` tables; these can be compared with the
 * live tables row for row, then merged into them.
 */
export class ProjectionRebuilder {
  constructor(
    private readonly store: EventStore,
    private readonly db: Queryable,
    private readonly transaction: InTransaction,
    private readonly batchSize = 5000,
    /** Matches in progress whose rows wait to be written; beyond this they are written (and may be again). */
    private readonly maxPending = 20_000,
  ) {}

  async rebuild(): Promise<RebuildStats> {
    const started = Date.now();
    for (const { table } of PROJECTION_TABLES) {
      await this.db.query(`DROP TABLE IF EXISTS ${rebuilt(table)}`);
      await this.db.query(`CREATE UNLOGGED TABLE ${rebuilt(table)} (LIKE ${table} INCLUDING ALL)`);
    }
    const folds = new Map<string, Fold>();
    // Only a match's last state is written: a finished match at once (its fold is then dropped), a
    // match still in progress when the log ends (or when too many wait: memory stays bounded).
    // Projecting every match a batch touched would write a live log's rows again with every batch.
    const pending = new Set<string>();
    let checkpoint = START;
    let events = 0;
    for (;;) {
      const batch = await this.store.readAll({ after: checkpoint, limit: this.batchSize });
      if (batch.length === 0) break;
      const finished = new Set<string>();
      for (const e of batch) {
        if (foldInto(folds, e).state.status === 'finished') finished.add(e.streamId);
        pending.add(e.streamId);
      }
      if (finished.size > 0 || pending.size > this.maxPending) {
        const ids = pending.size > this.maxPending ? [...pending] : [...finished];
        await this.write(ids.map((id) => project(id, folds.get(id)!)));
        for (const id of ids) {
          pending.delete(id);
          if (folds.get(id)!.state.status === 'finished') folds.delete(id);
        }
      }
      events += batch.length;
      const last = batch[batch.length - 1];
      checkpoint = { txId: last.txId, position: last.position };
    }
    if (pending.size > 0) await this.write([...pending].map((id) => project(id, folds.get(id)!)));
    const matches = Number(rowsOf(await this.db.query(`SELECT count(*)::int AS n FROM rebuild_match_list`))[0].n);
    return { events, matches, checkpoint, ms: Date.now() - started };
  }

  /** Row-for-row comparison of the rebuilt tables with the live ones. */
  async compare(): Promise<TableDifference[]> {
    const out: TableDifference[] = [];
    for (const { table } of PROJECTION_TABLES) {
      const [row] = rowsOf(
        await this.db.query(
          `SELECT (SELECT count(*) FROM (SELECT * FROM ${table} EXCEPT SELECT * FROM ${rebuilt(table)}) a)::int AS only_live,
                  (SELECT count(*) FROM (SELECT * FROM ${rebuilt(table)} EXCEPT SELECT * FROM ${table}) b)::int AS only_rebuilt`,
        ),
      );
      out.push({ table, onlyLive: Number(row.only_live), onlyRebuilt: Number(row.only_rebuilt) });
    }
    return out;
  }

  /**
   * Makes the rebuilt rows live, in one transaction that holds the live tables against concurrent
   * inline writes: per match, the rebuilt row replaces the live one unless the live one reflects a
   * later version (a command that committed after the rebuild read the log); rows of streams that
   * are not in the log are removed. The rebuild tables are dropped afterwards.
   */
  async swap(): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.query(`LOCK TABLE ${PROJECTION_TABLES.map((t) => t.table).join(', ')} IN EXCLUSIVE MODE`);
      for (const { table, key } of PROJECTION_TABLES) {
        const same = key.map((k) => `l.${k} = r.${k}`).join(' AND ');
        const stream = key[0];
        await tx.query(`DELETE FROM ${table} l USING ${rebuilt(table)} r WHERE ${same} AND r.version >= l.version`);
        await tx.query(`DELETE FROM ${table} l WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.stream_id = l.${stream})`);
        await tx.query(
          `INSERT INTO ${table} SELECT * FROM ${rebuilt(table)} r
            WHERE NOT EXISTS (SELECT 1 FROM ${table} l WHERE ${same})`,
        );
      }
    });
    await this.dropRebuildTables();
  }

  async dropRebuildTables(): Promise<void> {
    for (const { table } of PROJECTION_TABLES) await this.db.query(`DROP TABLE IF EXISTS ${rebuilt(table)}`);
  }

  private async write(projections: MatchProjection[]): Promise<void> {
    const rows: Record<Table, unknown[]> = {
      match_list: projections.map((p) => p.match),
      match_views: projections.map((p) => p.view),
      seat_views: projections.flatMap((p) => p.seats),
      scorecards: projections.flatMap((p) => (p.scorecard ? [p.scorecard] : [])),
    };
    for (const { table, key } of PROJECTION_TABLES) {
      const target = rebuilt(table);
      await this.db.query(
        `DELETE FROM ${target} t USING jsonb_populate_recordset(NULL::${target}, $1::jsonb) r
          WHERE ${key.map((k) => `t.${k} = r.${k}`).join(' AND ')}`,
        [JSON.stringify(rows[table])],
      );
      await this.db.query(`INSERT INTO ${target} SELECT * FROM jsonb_populate_recordset(NULL::${target}, $1::jsonb)`, [
        JSON.stringify(rows[table]),
      ]);
    }
  }
}

function foldInto(folds: Map<string, Fold>, e: StoredEvent): Fold {
  const domain = toDomainEvent(e);
  const known = folds.get(e.streamId);
  if (!known) {
    if (e.version !== 1) throw new Error(`stream ${e.streamId} starts at version ${e.version}`);
    const fold = { ...foldOnto(UNBORN, [domain]), scorecardAt: e.version, createdAt: e.recordedAt, updatedAt: e.recordedAt };
    folds.set(e.streamId, fold);
    return fold;
  }
  if (e.version !== known.version + 1) throw new Error(`stream ${e.streamId}: version ${e.version} after ${known.version}`);
  Object.assign(known, foldOnto(known, [domain]));
  if (changesScorecard(domain)) known.scorecardAt = e.version;
  known.updatedAt = e.recordedAt;
  return known;
}

function project(id: string, fold: Fold): MatchProjection {
  return projectMatch(id, fold, { createdAt: fold.createdAt, updatedAt: fold.updatedAt }, fold.scorecardAt);
}
