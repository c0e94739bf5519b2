// Rematch (docs/clients.md, "Rematch"): a seat of a finished match asks for the next one; the match
// records it once (RematchOffered), whoever asks first, and the rematch's MatchCreated names its origin.
import {
  decide,
  evolve,
  fold,
  forkableVersions,
  publicView,
  redactEvent,
  scorecard,
  visibleEvents,
  type BismarckEvent,
  type Command,
} from '../src';
import { create, given, history } from './given';
import { awaiting, playUntil } from './play-until';

const offer = (seat: 0 | 1 | 2, matchId = 'match-2'): Command => ({ type: 'offerRematch', seat, matchId });
const finished = (): BismarckEvent[] => playUntil(history(create({ schedule: 'quick' })), (s) => s.status === 'finished').events;
const offered: BismarckEvent = { type: 'RematchOffered', data: { matchId: 'match-2', seat: 1 } };

describe('given a finished match', () => {
  const events = finished();

  it('has no rematch yet: the public view says null', () => {
    expect(fold(events).status).toBe('finished');
    expect(publicView(fold(events)).rematch).toBeNull();
  });

  it('a seat asks: RematchOffered names the new match and the seat', () => {
    given(events).when(offer(1)).then([offered]);
  });

  it('records it: the state and the public view name the rematch; nothing else of the match changes', () => {
    const before = publicView(fold(events));
    const after = publicView(fold([...events, offered]));
    expect(after).toEqual({ ...before, rematch: 'match-2' });
    expect(scorecard(fold([...events, offered]))).toEqual(scorecard(fold(events)));
  });

  it('refuses a seat that is not 0, 1 or 2, and a missing or same match id: VALIDATION_FAILED', () => {
    given(events).when({ type: 'offerRematch', seat: 3 as 0, matchId: 'match-2' }).thenThrows('VALIDATION_FAILED');
    given(events).when(offer(0, '')).thenThrows('VALIDATION_FAILED');
    given(events).when(offer(0, 'match-1')).thenThrows('VALIDATION_FAILED');
  });
});

describe('given a finished match whose rematch was offered', () => {
  const events = [...finished(), offered];

  it('refuses a second offer, by any seat, with REMATCH_OFFERED (the service answers the first one)', () => {
    for (const seat of [0, 1, 2] as const) {
      const refusal = given(events).when(offer(seat, 'match-3')).thenThrows('REMATCH_OFFERED');
      expect(refusal.message).toContain('match-2');
    }
  });

  it('evolve keeps the first rematch: a second RematchOffered changes nothing (evolve never throws)', () => {
    const state = fold(events);
    expect(evolve(state, { type: 'RematchOffered', data: { matchId: 'match-3', seat: 0 } })).toBe(state);
  });

  it('RematchOffered is public: every viewer sees it unredacted, and it belongs to no deal', () => {
    for (const viewer of [0, 1, 2, 'spectator'] as const) {
      expect(redactEvent(offered, viewer, false)).toEqual(offered);
      expect(visibleEvents(events, viewer).at(-1)).toEqual(offered);
    }
  });

  it('forks as before: the version after RematchOffered is forkable too, and its fork is the finished match without it', () => {
    const before = forkableVersions(events.slice(0, -1));
    expect(forkableVersions(events)).toEqual([...before, events.length]);
    const fork = (version: number) =>
      fold(decide({ type: 'forkMatch', matchId: 'fork', from: { matchId: 'match-1', version, events } }, fold([])));
    const last = fork(events.length);
    expect(last.status).toBe('finished');
    expect(publicView(last).rematch).toBeNull();
    // The same match as at the version before, but for the version it says it was forked at.
    const atEnd = publicView(fork(events.length - 1));
    expect(publicView(last)).toEqual({ ...atEnd, forkedFrom: { matchId: 'match-1', version: events.length } });
  });
});

describe('given a match that is not finished', () => {
  it('refuses a rematch while the match is played: MATCH_NOT_FINISHED', () => {
    const playing = playUntil(history(create({ schedule: 'quick' })), awaiting('trickPlay')).events;
    given(playing).when(offer(0)).thenThrows('MATCH_NOT_FINISHED');
    given(history(create({ schedule: 'quick' }))).when(offer(0)).thenThrows('MATCH_NOT_FINISHED');
  });

  it('refuses a lobby table still waiting (MATCH_NOT_STARTED), an abandoned one (MATCH_ABANDONED), and no match (MATCH_NOT_FOUND)', () => {
    const lobby = history({ type: 'createMatch', matchId: 'lobby', players: ['Ann', null, null], firstDealer: 0, seeded: false });
    given(lobby).when(offer(0)).thenThrows('MATCH_NOT_STARTED');
    given([...lobby, { type: 'TableAbandoned', data: { openSeats: [1, 2] } }]).when(offer(0)).thenThrows('MATCH_ABANDONED');
    given([]).when(offer(0)).thenThrows('MATCH_NOT_FOUND');
  });

  it('ignores a RematchOffered that does not fit (evolve never throws)', () => {
    const playing = history(create({ schedule: 'quick' }));
    expect(fold([...playing, offered])).toEqual(fold(playing));
  });
});

describe('creating a rematch', () => {
  const rematch: Command = {
    type: 'createMatch',
    matchId: 'match-2',
    players: ['Ann', 'Bob', 'Cyd'],
    bots: [null, 'greedy', null],
    options: { schedule: 'quick' },
    firstDealer: 1,
    seeded: false,
    rematchOf: 'match-1',
  };

  it('records the match it follows in MatchCreated (`rematchOf`), only when there is one', () => {
    given([]).when(rematch).then(([created]) => {
      expect(created).toMatchObject({ type: 'MatchCreated', data: { matchId: 'match-2', rematchOf: 'match-1', firstDealer: 1, seeded: false } });
    });
    given([]).when(create()).then(([created]) => expect(created.data).not.toHaveProperty('rematchOf'));
  });

  it('refuses a rematchOf that names no other match: VALIDATION_FAILED', () => {
    given([]).when({ ...rematch, rematchOf: '' }).thenThrows('VALIDATION_FAILED');
    given([]).when({ ...rematch, rematchOf: 'match-2' }).thenThrows('VALIDATION_FAILED');
  });
});
