import { changesScorecard } from '@bismarck/rules';
import { rowsOf, saveCheckpoint, START, type Checkpoint, type EventStore, type Queryable, type StoredEvent } from '@bismarck/event-store';
import { applyInOrder, type RatedMatch } from '@bismarck/ratings';
import { toDomainEvent } from './event-view';
import { foldOnto, projectMatch, UNBORN, type FoldedMatch, type MatchProjection } from './projection';
import { isPlayerStream } from '@bismarck/players';
import { foldPlayerEvents, NO_FOLDED_PLAYER, projectPlayer, type FoldedPlayer } from './players';
import { RATINGS_CHECKPOINT, RATINGS_LOCK, ratedMatchOf, writeRatings } from './ratings';
import { MATCH_LIST, MATCH_VIEWS, PLAYERS, RATINGS, SCORECARDS, SEAT_VIEWS, type PlayerRow } from './tables';

/** The projection tables, each with the columns that identify a row (its first: the stream's id). */
export const PROJECTION_TABLES = [MATCH_LIST, MATCH_VIEWS, SEAT_VIEWS, SCORECARDS, PLAYERS] as const;

type Table = (typeof PROJECTION_TABLES)[number]['table'];

/**
 * Tables the rebuild recomputes and compares but does not merge per stream: `ratings` is keyed by
 * identity (a player or `bot:<kind>`), not by stream, and is a fold over the whole log in commit
 * order, so its swap replaces it whole together with the projector's checkpoint (see swap()).
 */
const WHOLE_TABLES = [RATINGS] as const;
/** Every table the rebuild recomputes and compare() reports, in its order. */
export const COMPARED_TABLES = [...PROJECTION_TABLES, ...WHOLE_TABLES].map((t) => t.table);

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

const rebuilt = (table: Table | 'ratings'): string => `rebuild_${table}`;

/**
 * Rebuilds every projection from the log: replays all events in commit order through the same
 * `projectMatch` that commands use, into fresh `rebuild_*` tables; these can be compared with the
 * live tables row for row, then merged into them.
 */
export class ProjectionRebuilder {
  /** Where rebuild() stopped reading the log (what rebuild_ratings covers). */
  private checkpoint: Checkpoint | undefined;

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
    for (const table of COMPARED_TABLES) {
      await this.db.query(`DROP TABLE IF EXISTS ${rebuilt(table)}`);
      await this.db.query(`CREATE UNLOGGED TABLE ${rebuilt(table)} (LIKE ${table} INCLUDING ALL)`);
    }
    const folds = new Map<string, Fold>();
    // Accounts are few and small: folded whole, written once at the end.
    const players = new Map<string, FoldedPlayer>();
    // Only a match's last state is written: a finished match at once (its fold is then dropped), a
    // match still in progress when the log ends (or when too many wait: memory stays bounded).
    // Projecting every match a batch touched would write a live log's rows again with every batch.
    const pending = new Set<string>();
    // The rated matches in the commit order of their MatchFinished: the projector's order.
    const rated: RatedMatch[] = [];
    let checkpoint = START;
    let events = 0;
    for (;;) {
      const batch = await this.store.readAll({ after: checkpoint, limit: this.batchSize });
      if (batch.length === 0) break;
      const finished = new Set<string>();
      for (const e of batch) {
        if (isPlayerStream(e.streamId)) {
          players.set(e.streamId, foldPlayerEvents(players.get(e.streamId) ?? NO_FOLDED_PLAYER, [e]));
          continue;
        }
        const fold = foldInto(folds, e);
        if (fold.state.status === 'finished') finished.add(e.streamId);
        const ratedMatch = e.type === 'MatchFinished' ? ratedMatchOf(fold.state) : null;
        if (ratedMatch) rated.push(ratedMatch);
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
    await this.insert('players', [...players].flatMap(([id, folded]) => projectPlayer(id, folded) ?? []));
    await writeRatings(this.db, applyInOrder(rated), rebuilt(RATINGS.table));
    this.checkpoint = checkpoint;
    const matches = Number(rowsOf(await this.db.query(`SELECT count(*)::int AS n FROM rebuild_match_list`))[0].n);
    return { events, matches, checkpoint, ms: Date.now() - started };
  }

  /**
   * Row-for-row comparison of the rebuilt tables with the live ones. `ratings` is written by the
   * api's projector a moment after a match ends: compared while it lags, the live table is behind
   * the log (rows differ until it catches up).
   */
  async compare(): Promise<TableDifference[]> {
    const out: TableDifference[] = [];
    for (const table of COMPARED_TABLES) {
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
      // Ratings: under the projector's lock, the rebuilt table and the checkpoint it covers replace
      // the live ones together; the projector then goes on from there (re-reading the checkpoint
      // under the same lock), so no match is applied twice or skipped.
      if (this.checkpoint) {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [RATINGS_LOCK]);
        await tx.query(`DELETE FROM ${RATINGS.table}`);
        await tx.query(`INSERT INTO ${RATINGS.table} SELECT * FROM ${rebuilt(RATINGS.table)}`);
        await saveCheckpoint(tx, RATINGS_CHECKPOINT, this.checkpoint);
      }
    });
    await this.dropRebuildTables();
  }

  async dropRebuildTables(): Promise<void> {
    for (const table of COMPARED_TABLES) await this.db.query(`DROP TABLE IF EXISTS ${rebuilt(table)}`);
  }

  private async insert(table: Table, rows: PlayerRow[]): Promise<void> {
    if (rows.length > 0) await this.db.query(`INSERT INTO ${rebuilt(table)} SELECT * FROM jsonb_populate_recordset(NULL::${rebuilt(table)}, $1::jsonb)`, [JSON.stringify(rows)]);
  }

  private async write(projections: MatchProjection[]): Promise<void> {
    const rows: Record<Exclude<Table, 'players'>, unknown[]> = {
      match_list: projections.map((p) => p.match),
      match_views: projections.map((p) => p.view),
      seat_views: projections.flatMap((p) => p.seats),
      scorecards: projections.flatMap((p) => (p.scorecard ? [p.scorecard] : [])),
    };
    for (const { table, key } of PROJECTION_TABLES) {
      if (table === 'players') continue;
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
