// Who a rating belongs to: a registered player (by id) or a kind of bot (`bot:<strategy>`).

/** A bot kind's rated identity: every seat the service plays with `strong` is `bot:strong`. */
export type BotIdentity = `bot:${string}`;
/**
 * A rated identity: a player id or a BotIdentity. Player ids are the players library's (they never
 * begin with `bot:`, so the two kinds cannot collide).
 */
export type Identity = string;

export const BOT_PREFIX = 'bot:';

export const botIdentity = (strategy: string): BotIdentity => `${BOT_PREFIX}${strategy}`;

export const isBotIdentity = (id: Identity): id is BotIdentity => id.startsWith(BOT_PREFIX);

/**
 * The identity a seat is rated as: a bot seat as its kind, a seat bound to a player as that player,
 * any other seat (an anonymous person, or a seat never taken) as null, which leaves the match unrated.
 */
export const seatIdentity = (seat: { readonly bot: string | null; readonly player: string | null }): Identity | null =>
  seat.bot !== null ? botIdentity(seat.bot) : seat.player;
