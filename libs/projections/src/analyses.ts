import { rowsOf, type Queryable } from '@bismarck/event-store';

/** A `deal_analyses` row: the analysis document of a scored deal, kept once computed. */
export interface StoredAnalysis {
  matchId: string;
  deal: number;
  /** The analysis as the api computed it (apps/api/src/analysis/deal-analysis.ts). */
  doc: unknown;
  maxNodes: number;
  computeMs: number;
  /** When it was computed (UTC, ISO 8601). */
  computedAt: string;
}

/** The analyses of scored deals (`deal_analyses`): read one, keep one. */
export class AnalysisTable {
  constructor(private readonly db: Queryable) {}

  async get(matchId: string, deal: number): Promise<StoredAnalysis | null> {
    const [row] = rowsOf(
      await this.db.query(
        `SELECT match_id, deal, doc, max_nodes, compute_ms,
                to_char(computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS computed_at
           FROM deal_analyses WHERE match_id = $1 AND deal = $2`,
        [matchId, deal],
      ),
    );
    return row ? toStored(row) : null;
  }

  /**
   * Keeps an analysis unless one is kept already (another process computed the same deal: the
   * document is the same, the first stays), and answers the row that is kept.
   */
  async keep(matchId: string, deal: number, doc: unknown, maxNodes: number, computeMs: number): Promise<StoredAnalysis> {
    await this.db.query(
      `INSERT INTO deal_analyses (match_id, deal, doc, max_nodes, compute_ms) VALUES ($1, $2, $3::jsonb, $4, $5)
       ON CONFLICT (match_id, deal) DO NOTHING`,
      [matchId, deal, JSON.stringify(doc), maxNodes, Math.round(computeMs)],
    );
    const kept = await this.get(matchId, deal);
    if (!kept) throw new Error(`deal_analyses: the row of ${matchId} deal ${deal} is missing right after its insert`);
    return kept;
  }
}

function toStored(r: Record<string, unknown>): StoredAnalysis {
  return {
    matchId: r.match_id as string,
    deal: r.deal as number,
    doc: r.doc,
    maxNodes: Number(r.max_nodes),
    computeMs: r.compute_ms as number,
    computedAt: r.computed_at as string,
  };
}
