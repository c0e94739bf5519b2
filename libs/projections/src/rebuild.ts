import { changesScorecard } from '@bismarck/rules';
import { loadCheckpoint, rowsOf, saveCheckpoint, START, type Checkpoint, type EventStore, type Queryable, type StoredEvent } from '@bismarck/event-store';
import { applyInOrder, type Identity, type RatedMatch, type RatingEntry } from '@bismarck/ratings';
import { foldOnto, toDomainEvent, UNBORN, type FoldedMatch } from '@bismarck/match';
import { projectMatch, type MatchProjection } from './projection';
import { isPlayerStream } from '@bismarck/players';
import { foldPlayerEvents, NO_FOLDED_PLAYER, projectPlayer, type FoldedPlayer } from './players';
import { isLaterThan, RATINGS_CHECKPOINT, RATINGS_LOCK, ratedMatchOf, writeRatings } from './ratings';
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
  /** The events replayed: every event of the snapshot. */
  events: number;
  matches: number;
  /**
   * The last event of the commit-order feed at the snapshot (its transaction id below the snapshot's
   * xmin, so no event in flight sorts before it): where the swap sets the ratings projector's checkpoint.
   */
  checkpoint: Checkpoint;
  /**
   * The one database snapshot (`pg_snapshot` text, xmin:xmax:running ids) the live tables were read
   * at and the log replayed at: compare() sets one against the other at this single position.
   */
  snapshot: string;
  /** The ratings projector's checkpoint in that snapshot: the rebuilt ratings compared are those up to it. */
  ratingsCheckpoint: Checkpoint;
  /** Milliseconds to read the live tables at the snapshot (one short transaction). */
  snapshotMs: number;
  /** Milliseconds of the replay. */
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
/** A live table as it was at the rebuild's snapshot: what compare() sets the rebuilt one against. */
const liveAt = (table: Table | 'ratings'): string => `rebuild_live_${table}`;

/** The live tables' position: the snapshot they were copied at, and the ratings projector's checkpoint in it. */
interface LivePosition {
  snapshot: string;
  /** pg_snapshot_xmin of the snapshot: every transaction below it had ended. */
  xmin: bigint;
  ratings: Checkpoint;
}

/** A rated match and where its MatchFinished is in the commit order. */
interface RatedAt {
  match: RatedMatch;
  at: Checkpoint;
}

/** What the replay needs of an event (a stored event without its hash and metadata). */
type LogEvent = Pick<StoredEvent, 'streamId' | 'version' | 'type' | 'data' | 'recordedAt' | 'position' | 'txId'>;

/**
 * Rebuilds every projection from the log: replays all events in commit order through the same
 * `projectMatch` that commands use, into fresh `rebuild_*` tables; these can be compared with the
 * live tables row for row, then merged into them.
 *
 * One log position: rebuild() first copies the live tables in one REPEATABLE READ transaction (one
 * snapshot), then replays exactly the events that snapshot sees (`pg_visible_in_snapshot`). The
 * inline projection writes a command's rows in the transaction that appends its events, so rows and
 * events of that snapshot agree unless a row drifted: compare() finds only drift, however busy the
 * service is. The ratings are written behind the log by their projector, with its checkpoint in the
 * same transaction: they are compared at that checkpoint, as of the same snapshot.
 */
export class ProjectionRebuilder {
  /** The commit-order feed's end at rebuild()'s snapshot: where swap() sets the ratings projector's checkpoint. */
  private checkpoint: Checkpoint | undefined;
  /** The ratings up to `checkpoint`: what swap() makes live (rebuild_ratings holds them at the live checkpoint). */
  private ratingsAtCheckpoint: Map<Identity, RatingEntry> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly db: Queryable,
    private readonly transaction: InTransaction,
    private readonly batchSize = 5000,
    /** Matches in progress whose rows wait to be written; beyond this they are written (and may be again). */
    private readonly maxPending = 20_000,
  ) {}

  async rebuild(): Promise<RebuildStats> {
    await this.dropRebuildTables();
    const copying = Date.now();
    const live = await this.copyLiveTables();
    const started = Date.now();
    for (const table of COMPARED_TABLES) await this.db.query(`CREATE UNLOGGED TABLE ${rebuilt(table)} (LIKE ${table} INCLUDING ALL)`);
    const folds = new Map<string, Fold>();
    // Accounts are few and small: folded whole, written once at the end.
    const players = new Map<string, FoldedPlayer>();
    // Only a match's last state is written: a finished match at once (its fold is then dropped), a
    // match still in progress when the log ends (or when too many wait: memory stays bounded).
    // Projecting every match a batch touched would write a live log's rows again with every batch.
    const pending = new Set<string>();
    // The rated matches in the commit order of their MatchFinished: the projector's order.
    const rated: RatedAt[] = [];
    let after = START;
    // The feed's end at the snapshot: the last event whose transaction is below its xmin.
    let checkpoint = START;
    let events = 0;
    for (;;) {
      const batch = await this.readSnapshot(live.snapshot, after);
      if (batch.length === 0) break;
      const finished = new Set<string>();
      for (const e of batch) {
        if (BigInt(e.txId) < live.xmin) checkpoint = { txId: e.txId, position: e.position };
        if (isPlayerStream(e.streamId)) {
          players.set(e.streamId, foldPlayerEvents(players.get(e.streamId) ?? NO_FOLDED_PLAYER, [e]));
          continue;
        }
        const fold = foldInto(folds, e);
        if (fold.state.status === 'finished') finished.add(e.streamId);
        const ratedMatch = e.type === 'MatchFinished' ? ratedMatchOf(fold.state) : null;
        if (ratedMatch) rated.push({ match: ratedMatch, at: { txId: e.txId, position: e.position } });
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
      after = { txId: last.txId, position: last.position };
    }
    if (pending.size > 0) await this.write([...pending].map((id) => project(id, folds.get(id)!)));
    await this.insert('players', [...players].flatMap(([id, folded]) => projectPlayer(id, folded) ?? []));
    // Compared: the ratings as the live table holds them at its own checkpoint. Swapped in: on to the
    // feed's end (the live checkpoint is never past it: the projector reads below its own snapshot's
    // xmin, which is not above this one's).
    const upTo = (c: Checkpoint) => rated.filter((r) => !isLaterThan(r.at, c)).map((r) => r.match);
    const atLive = applyInOrder(upTo(live.ratings));
    await writeRatings(this.db, atLive, rebuilt(RATINGS.table));
    this.ratingsAtCheckpoint = isLaterThan(live.ratings, checkpoint)
      ? applyInOrder(upTo(checkpoint))
      : applyInOrder(rated.filter((r) => isLaterThan(r.at, live.ratings) && !isLaterThan(r.at, checkpoint)).map((r) => r.match), atLive);
    this.checkpoint = checkpoint;
    const matches = Number(rowsOf(await this.db.query(`SELECT count(*)::int AS n FROM rebuild_match_list`))[0].n);
    return { events, matches, checkpoint, snapshot: live.snapshot, ratingsCheckpoint: live.ratings, snapshotMs: started - copying, ms: Date.now() - started };
  }

  /**
   * Row-for-row comparison of the rebuilt tables with the live ones as they were at the rebuild's
   * snapshot (the same log position): a row counts only when it differs from what that position's
   * events make of it. `ratings` at the projector's checkpoint in that snapshot (it follows the log a
   * moment behind, so a lag is not drift).
   */
  async compare(): Promise<TableDifference[]> {
    const out: TableDifference[] = [];
    for (const table of COMPARED_TABLES) {
      const [row] = rowsOf(
        await this.db.query(
          `SELECT (SELECT count(*) FROM (SELECT * FROM ${liveAt(table)} EXCEPT SELECT * FROM ${rebuilt(table)}) a)::int AS only_live,
                  (SELECT count(*) FROM (SELECT * FROM ${rebuilt(table)} EXCEPT SELECT * FROM ${liveAt(table)}) b)::int AS only_rebuilt`,
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
      // Ratings: under the projector's lock, the ratings rebuilt up to the feed's end and that
      // checkpoint replace the live ones together; the projector then goes on from there (re-reading
      // the checkpoint under the same lock), so no match is applied twice or skipped.
      if (this.checkpoint && this.ratingsAtCheckpoint) {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [RATINGS_LOCK]);
        await tx.query(`DELETE FROM ${RATINGS.table}`);
        await writeRatings(tx, this.ratingsAtCheckpoint, RATINGS.table);
        await saveCheckpoint(tx, RATINGS_CHECKPOINT, this.checkpoint);
      }
    });
    await this.dropRebuildTables();
  }

  async dropRebuildTables(): Promise<void> {
    for (const table of COMPARED_TABLES) await this.db.query(`DROP TABLE IF EXISTS ${rebuilt(table)}, ${liveAt(table)}`);
  }

  /**
   * Copies every compared live table in one REPEATABLE READ transaction: one snapshot for all of
   * them, the ratings checkpoint and the snapshot's own description. The copy is the transaction's
   * only work (it holds back the commit-order feed's xmin while it runs, as any writer does; on the
   * embedded database it holds the one session): the replay runs after it, outside.
   */
  private async copyLiveTables(): Promise<LivePosition> {
    return this.transaction(async (tx) => {
      // Before the transaction's first query: every statement of it then reads the snapshot that query took.
      await tx.query(`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
      const [at] = rowsOf(await tx.query(`SELECT pg_current_snapshot()::text AS snapshot, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`));
      for (const table of COMPARED_TABLES) await tx.query(`CREATE UNLOGGED TABLE ${liveAt(table)} AS SELECT * FROM ${table}`);
      const ratings = await loadCheckpoint(tx, RATINGS_CHECKPOINT);
      return { snapshot: String(at.snapshot), xmin: BigInt(String(at.xmin)), ratings };
    });
  }

  /**
   * The events after `after` that `snapshot` sees, in the feed's order (transaction id, position):
   * those of the transactions that had committed when the live tables were copied, none later. Each
   * of them has ended, so no read waits; a stream's events seen are a prefix of it (one stream's
   * appends are serialised). The event store's readAll reads at the current snapshot's xmin instead.
   */
  private async readSnapshot(snapshot: string, after: Checkpoint): Promise<LogEvent[]> {
    const rows = rowsOf(
      await this.store.queryable.query(
        `SELECT stream_id, version, type, data, recorded_at, position::text AS position, tx_id::text AS tx_id FROM events
          WHERE (events.tx_id, events.position) > ($1::xid8, $2::bigint)
            AND events.tx_id < pg_snapshot_xmax($3::pg_snapshot)
            AND pg_visible_in_snapshot(events.tx_id, $3::pg_snapshot)
          ORDER BY events.tx_id, events.position
          LIMIT $4`,
        [after.txId, after.position, snapshot, this.batchSize],
      ),
    );
    return rows.map((row) => ({
      streamId: String(row.stream_id),
      version: Number(row.version),
      type: String(row.type),
      data: row.data,
      // As the event store reads it (a Date from pg: milliseconds), so the rows' times are the inline projection's.
      recordedAt: (row.recorded_at instanceof Date ? row.recorded_at : new Date(String(row.recorded_at))).toISOString(),
      position: String(row.position),
      txId: String(row.tx_id),
    }));
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

function foldInto(folds: Map<string, Fold>, e: LogEvent): Fold {
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
