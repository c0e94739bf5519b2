// The API's payloads as the pages read them, named from the generated client's schema
// (libs/client/src/schema.ts, the OpenAPI document's components): for the type checker only
// (tsconfig.pages.json, `npm run typecheck:pages`). No page loads this file: a script names these types
// in JSDoc only, e.g. `/** @import { SeatView } from '../../pages/assets/types' */`.
import type { components } from '../../../../../../libs/client/src/schema';

type Schemas = components['schemas'];

/** A seat's view (`GET /api/matches/{id}/view`). */
export type SeatView = Schemas['SeatViewDto'];
/** What this seat may do now. */
export type Legal = NonNullable<SeatView['legal']>;
/** The public state of a match (`GET /api/matches/{id}`). */
export type PublicState = Schemas['PublicStateDto'];
/** A seat's name, bot and player, as every view lists them. */
export type SeatName = Schemas['SeatNameDto'];
export type PlayedCard = Schemas['PlayedCardDto'];
export type LastTrick = Schemas['LastTrickDto'];
/** `GET /api/matches/{id}/scorecard`. */
export type Scorecard = Schemas['ScorecardDto'];
export type ScorecardDeal = Schemas['ScorecardDealDto'];
/** An event of a match's log, as a caller may see it (`GET …/events`); `type` tells its `data`. */
export type MatchEvent = Schemas['EventDto'];
/** The event of one type, e.g. `EventOf<'DealScored'>`. */
export type EventOf<T extends MatchEvent['type']> = Extract<MatchEvent, { type: T }>;
/** A page of the log (`GET …/events?after=`). */
export type EventPage = Schemas['EventPageDto'];
/** A refusal (problem+json). */
export type ProblemBody = Schemas['ProblemDto'];
/** `POST /api/matches`. */
export type MatchCreated = Schemas['MatchCreatedDto'];
/** `POST …/seats/{seat}/join`. */
export type SeatJoined = Schemas['SeatJoinedDto'];
/** `POST …/rematch`. */
export type RematchCreated = Schemas['RematchCreatedDto'];
/** `POST …/fork`. */
export type ForkCreated = Schemas['ForkCreatedDto'];
/** `GET …/replay?version=`. */
export type Replay = Schemas['ReplayDto'];
export type ReplayView = Schemas['ReplayViewDto'];
export type RevealedDeal = Schemas['RevealedDealDto'];
/** `GET …/audit`. */
export type Audit = Schemas['AuditDto'];
/** `GET …/analysis?deal=`, once done. */
export type DealAnalysis = Schemas['DealAnalysisDto'];
/** `POST /api/players`. */
export type PlayerCreated = Schemas['PlayerCreatedDto'];
/** `GET /api/players/me`. */
export type PlayerProfile = Schemas['PlayerProfileDto'];
/** `GET /api/players/me/matches`. */
export type PlayerMatchList = Schemas['PlayerMatchListDto'];
export type PlayerMatch = Schemas['PlayerMatchDto'];
/** `POST /api/matches`'s body. */
export type CreateMatch = Schemas['CreateMatchDto'];
/** A bot's strategy, as a seat of `CreateMatch` names it. */
export type Bot = Schemas['BotSeatDto']['bot'];
export type Schedule = NonNullable<Schemas['MatchOptionsDto']['schedule']>;

/** A seat of the table. */
export type Seat = SeatName['seat'];
/** A card's code, rank then suit: 'QH', 'TS'. */
export type Card = string;
export type Suit = NonNullable<SeatView['trump']>;
export type Contract = NonNullable<SeatView['contract']>;
export type Status = SeatView['status'];
