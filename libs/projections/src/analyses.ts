import { rowsOf, type Queryable } from '@bismarck/event-store';

/** A match's deal's analysis: its `deal_analyses` row joined with the `deal_solves` row it names. */
export interface StoredAnalysis {
  matchId: string;
  deal: number;
  /** The analysis as the api computed it (apps/api/src/game/analysis/deal-analysis.ts). */
  doc: unknown;
  maxNodes: number;
  computeMs: number;
  /** When it was computed (UTC, ISO 8601), for whichever match asked first. */
  computedAt: string;
}

const SELECT = `SELECT a.match_id, a.deal, s.doc, s.max_nodes, s.compute_ms,
                       to_char(s.computed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS computed_at
                  FROM deal_analyses a JOIN deal_solves s ON s.content = a.content`;

/**
 * The analyses of scored deals, kept by the deal's content (`deal_solves`: one solve per content key)
 * and named per match and deal (`deal_analyses`: the key of its solve). The same deal in two matches
 * (a fork and its source) is one solve.
 */
export class AnalysisTable {
  constructor(private readonly db: Queryable) {}

  async get(matchId: string, deal: number): Promise<StoredAnalysis | null> {
    const [row] = rowsOf(await this.db.query(`${SELECT} WHERE a.match_id = $1 AND a.deal = $2`, [matchId, deal]));
    return row ? toStored(row) : null;
  }

  /**
   * The analysis of the match's deal from a solve of the same content kept before (another match's:
   * a fork's source), which it now names too; null when no deal of that content was solved yet.
   */
  async link(matchId: string, deal: number, content: string): Promise<StoredAnalysis | null> {
    await this.db.query(
      `INSERT INTO deal_analyses (match_id, deal, content) SELECT $1, $2, content FROM deal_solves WHERE content = $3
       ON CONFLICT (match_id, deal) DO NOTHING`,
      [matchId, deal, content],
    );
    return this.get(matchId, deal);
  }

  /**
   * Keeps a solve unless one of that content is kept already (another process computed the same
   * deal: the document is the same, the first stays), names it for the match's deal, and answers the
   * analysis that is kept.
   */
  async keep(matchId: string, deal: number, content: string, doc: unknown, maxNodes: number, computeMs: number): Promise<StoredAnalysis> {
    await this.db.query(
      `INSERT INTO deal_solves (content, doc, max_nodes, compute_ms) VALUES ($1, $2::jsonb, $3, $4) ON CONFLICT (content) DO NOTHING`,
      [content, JSON.stringify(doc), maxNodes, Math.round(computeMs)],
    );
    const kept = await this.link(matchId, deal, content);
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
