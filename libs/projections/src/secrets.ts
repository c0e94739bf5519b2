import { rowsOf, type Queryable } from '@bismarck/event-store';
import type { SeedRow } from './tables';


/** A `seat_credentials` row: the SHA-256 (hex) of a seat's token. */
export interface SeatTokenHash {
  seat: number;
  token_hash: string;
}

/**
 * What is kept beside the log and never in it: seat token hashes (`seat_credentials`), the seeds of
 * deals (`deal_seeds`) and a seeded match's seed (`match_secrets`). The inline projection writes them
 * with the events that need them; these are the reads.
 */
export class SecretReader {
  constructor(private readonly db: Queryable) {}

  /** The seed whose SHA-256 the match published, or null (a lost seed, or a match from before commitments). */
  async seedOf(matchId: string, commitment: string): Promise<SeedRow | null> {
    const [row] = await this.seeds('SELECT match_id, deal, commitment, seed FROM deal_seeds WHERE match_id = $1 AND commitment = $2', [matchId, commitment]);
    return row ?? null;
  }

  /** Every seed drawn for a deal, in a stable order (the reveal lists them). */
  async seedsOfDeal(matchId: string, deal: number): Promise<SeedRow[]> {
    return this.seeds('SELECT match_id, deal, commitment, seed FROM deal_seeds WHERE match_id = $1 AND deal = $2 ORDER BY commitment', [matchId, deal]);
  }

  /** The caller's seed of a seeded match, or null. */
  async sandboxSeed(matchId: string): Promise<string | null> {
    const [row] = rowsOf(await this.db.query('SELECT seed FROM match_secrets WHERE match_id = $1', [matchId]));
    return row ? (row.seed as string) : null;
  }

  /** The token hash of each taken seat of the match. */
  async tokenHashes(matchId: string): Promise<SeatTokenHash[]> {
    const rows = rowsOf(await this.db.query('SELECT seat, token_hash FROM seat_credentials WHERE match_id = $1 ORDER BY seat', [matchId]));
    return rows as unknown as SeatTokenHash[];
  }

  /** Whether a token hash (hex) belongs to some seat of some match. */
  async tokenElsewhere(tokenHash: string): Promise<boolean> {
    return rowsOf(await this.db.query('SELECT 1 FROM seat_credentials WHERE token_hash = $1', [tokenHash])).length > 0;
  }

  private async seeds(sql: string, params: unknown[]): Promise<SeedRow[]> {
    return rowsOf(await this.db.query(sql, params)) as unknown as SeedRow[];
  }
}
