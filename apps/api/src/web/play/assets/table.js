// The table of the seat whose token this page holds: drawn from the seat's view, live.
import { renderActions } from './actions.js';
import { call, refusesToken } from './api.js';
import { back, byHandOrder, faceUp, suitMark } from './cards.js';
import { $, el } from '../../pages/assets/dom.js';
import { t, tAttr } from '../../pages/assets/i18n.js';
import { listenToKeys } from './keys.js';
import { openLive } from './live.js';
import { clearProblem, readFailed, showProblem } from './notice.js';
import { forgetPlayer, isPlayerToken } from './player.js';
import { offeredRematch, rematch } from './rematch.js';
import { scorecardParts } from './scorecard.js';
import { listenToSummaryKeys, renderSummary, scorecardToggle } from './deal-summary.js';
import { dealFollower } from './follow.js';
import { renderSeatLink } from './seat-link.js';
import { forgetEverywhere, forgetInBrowser, rememberInBrowser } from './seats.js';
import { awayNote, clockBadge, renderBack, signalTurn, startClocks } from './turn-clock.js';

const OPEN = new Set(['waiting', 'playing']);

export function seated(id, token) {
  const api = `/api/matches/${encodeURIComponent(id)}`;
  const state = { view: null, scorecard: null, picked: new Set(), pickedDeal: null, showLast: false, busy: false, ended: false, kept: false, live: false };
  // A deal's end stays on screen until the person moves on; the live view goes on behind it.
  const follower = dealFollower(api, token);

  /** A seat's name; two seats of one name (two bots of one strength) are told apart by their seat. */
  const name = (seat) => {
    const seats = state.view?.seats ?? [];
    const own = seats[seat]?.name;
    if (own === null || own === undefined) return t('open-seat', { seat });
    return seats.filter((s) => s.name === own).length > 1 ? t('seat-twin', { name: own, seat }) : own;
  };
  const quota = (view, seat) => {
    if (!view.contract || view.forehand === null) return null;
    if (view.contract === 'pass') return view.forehand === seat ? 4 : 6;
    return view.forehand === seat ? 8 : 4;
  };
  const tally = (view, seat) => {
    const q = quota(view, seat);
    // In pass the quota is a ceiling ("at most 6"), elsewhere a goal ("3 of 8").
    const contract = q === null ? 'none' : view.contract === 'pass' ? 'pass' : 'other';
    return t('tally', { contract, taken: view.tricksTaken[seat], quota: q ?? 0, total: view.totals[seat] });
  };
  /** A person's seat: online while a live stream of that seat is open (in words, not by colour alone). */
  const presence = (view, seat) => {
    if (view.seats[seat]?.bot || !view.connected || view.status === 'waiting' && !view.seats[seat]?.name) return null;
    const on = !!view.connected[seat];
    return el('span', { class: `badge presence ${on ? 'on' : 'off'}`, 'data-presence': String(seat) }, el('span', { class: 'dot', 'aria-hidden': 'true' }), on ? t('online') : t('offline'));
  };
  const roles = (view, seat) => [
    view.seats[seat]?.bot ? el('span', { class: 'badge bot' }, t('bot-badge', { bot: view.seats[seat].bot })) : null,
    presence(view, seat),
    view.dealer === seat && view.status === 'playing' ? el('span', { class: 'badge' }, t('dealer')) : null,
    view.forehand === seat && view.status === 'playing' ? el('span', { class: 'badge' }, t('forehand')) : null,
    view.turn === seat ? el('span', { class: 'badge turn' }, t('to-act')) : null,
    clockBadge(view, seat),
  ].filter(Boolean);

  function renderOpponent(box, view, seat) {
    box.className = `seat ${view.turn === seat ? 'turn' : ''}`;
    box.dataset.seat = String(seat);
    const count = view.handSizes[seat];
    box.replaceChildren(
      el('h2', {}, el('span', { class: 'name' }, name(seat)), ...roles(view, seat)),
      ...[awayNote(view, seat, name(seat))].filter(Boolean),
      el('div', { class: 'stats' }, t('card-count', { n: count }), ' · ', tally(view, seat)),
      el('div', { class: 'cards backs', role: 'img', 'aria-label': tAttr('backs', 'aria-label', { n: count }) }, ...Array.from({ length: count }, back)),
    );
  }

  function renderCentre(view) {
    const info = [];
    if (view.status === 'finished') {
      // The last deal's summary on screen: the header names that deal too.
      if (view.scored) info.push(t('deal-of', { number: view.dealNumber, total: view.dealsInMatch }), ' · ', t('summary-scored'), ' · ');
      info.push(el('strong', {}, t('match-over', { n: view.winners.length, names: view.winners.map(name).join(', ') })));
    } else if (view.status === 'playing') {
      info.push(t('deal-of', { number: view.dealNumber || 1, total: view.dealsInMatch }));
      if (view.contract) info.push(' · ', t('contract-now', { contract: view.contract }), ...(view.trump ? [' ', suitMark(view.trump)] : []));
      if (view.turn !== null) info.push(' · ', view.turn === view.seat ? el('strong', {}, t('your-turn')) : t('seat-to-act', { name: name(view.turn) }));
      if (view.scored) info.push(' · ', t('summary-scored'));
    } else if (view.status === 'waiting') info.push(t('waiting-players'));
    else if (view.status === 'abandoned') info.push(t('table-closed'));
    else info.push(t('match-status', { status: view.status }));
    $('#info').replaceChildren(...info);
    $('#tableCards').replaceChildren(...(view.tableCards.length ? [el('span', { class: 'label' }, t('table-cards')), ...view.tableCards.map((c) => faceUp(c))] : []));
    const last = view.lastTrick;
    // A trick just taken stays on the table until the next card is led, as cards do on a real table
    // (the bots answer at once: else a person never sees the cards that fell after their own).
    const taken = view.trick.length === 0 && view.phase === 'play' && last ? last : null;
    const who = (seat) => (seat === view.seat ? t('you') : name(seat));
    $('#trick').classList.toggle('taken', !!taken);
    $('#trick').replaceChildren(
      ...(taken ? taken.cards : view.trick).map((p) => el('figure', {}, faceUp(p.card), el('figcaption', {}, who(p.seat)))),
      ...(taken ? [el('p', { class: 'takenBy' }, taken.winner === view.seat ? t('taken-by-you') : t('taken-by', { name: name(taken.winner) }))] : []),
    );
    $('#lastTrickToggle').hidden = !last;
    $('#lastTrickToggle').textContent = state.showLast ? t('last-trick-hide') : t('last-trick-show');
    $('#lastTrickToggle').setAttribute('aria-expanded', String(state.showLast && !!last));
    $('#lastTrick').hidden = !(last && state.showLast);
    $('#lastTrick').replaceChildren(...(last && state.showLast ? [el('span', { class: 'label' }, last.winner === view.seat ? t('last-trick-you') : t('last-trick', { name: name(last.winner) })), ...last.cards.map((p) => faceUp(p.card))] : []));
  }

  function renderHand(view) {
    const legal = view.legal;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = active?.closest?.('#hand') ? active.dataset.card : null;
    const playable = legal?.action === 'play' ? new Set(legal.cards) : null;
    const discarding = legal?.action === 'discard';
    const cards = [...view.hand].sort(byHandOrder).map((code) => {
      const open = discarding || (playable?.has(code) ?? false);
      const cls = discarding ? (state.picked.has(code) ? 'picked' : 'legal') : open ? 'legal' : playable ? 'dim' : 'idle';
      return faceUp(code, 'button', {
        type: 'button', class: cls, disabled: !open, tabindex: '-1',
        'aria-pressed': discarding ? String(state.picked.has(code)) : undefined,
        onclick: () => (discarding ? pick(code, legal.count) : act('play', { card: code })),
      });
    });
    $('#hand').replaceChildren(...cards);
    const open = cards.filter((b) => !b.disabled);
    // One card of the hand takes the Tab stop (a roving tab index); arrows move along the rest.
    const target = open.find((b) => b.dataset.card === focused) ?? open[0];
    if (target) target.tabIndex = 0;
    const idle = document.activeElement === document.body || document.activeElement === null;
    if (target && (focused || (idle && !state.busy))) target.focus({ preventScroll: true });
    $('#away').replaceChildren(...(view.laidAway?.length ? [el('span', { class: 'label' }, t('laid-away')), ...view.laidAway.map((c) => faceUp(c, 'span', { class: 'away' }))] : []));
  }

  function pick(code, count) {
    if (state.picked.has(code)) state.picked.delete(code);
    else if (state.picked.size < count) state.picked.add(code);
    render();
    if (state.picked.size === count) $('#layAway')?.focus();
  }

  function render() {
    if (!state.view) return;
    const view = follower.shown(state.view, state.scorecard);
    if (state.pickedDeal !== view.dealNumber || view.legal?.action !== 'discard') {
      state.picked.clear();
      state.pickedDeal = view.dealNumber;
    }
    $('#game').hidden = false;
    $('#match').textContent = `${t('schedule-name', { schedule: view.options.schedule })} · ${id}`;
    const me = view.seat;
    renderOpponent($('#opp-a'), view, (me + 1) % 3);
    renderOpponent($('#opp-b'), view, (me + 2) % 3);
    renderCentre(view);
    $('#me').className = view.turn === me ? 'turn' : '';
    renderBack($('#backBar'), view, () => act(`seats/${me}/back`));
    $('#myInfo').replaceChildren(el('h2', {}, el('span', { class: 'name' }, t('me-name', { name: name(me) })), ...roles(view, me)), el('div', { class: 'stats' }, tally(view, me)));
    renderActions($('#actions'), view, { id, token, act, name, picked: state.picked });
    renderHand(view);
    // A move on its way: the table may move meanwhile (another seat, a bot), but nothing is offered
    // again until the answer is in.
    if (state.busy) holdControls();
    if (state.scorecard) $('#scorecard').replaceChildren(...scorecardParts(view, follower.scorecardShown(state.scorecard), name));
    renderSummary(follower.current(), { name, me, deals: view.dealsInMatch, onContinue: moveOn });
    renderSeatLink($('#seatTools'), view, token);
    signalTurn(state.view); // the live turn: it may wait behind a deal's summary
    document.body.dataset.version = String(view.version);
    document.body.dataset.status = state.view.status; // the match's own, whatever deal end is held
    document.body.dataset.legal = view.legal ? view.legal.action : 'none';
    document.body.dataset.ready = 'true';
  }

  /** The browser keeps the seat while the match is open (the service has accepted the token), and forgets it after. */
  function keepSeat(view) {
    if (!OPEN.has(view.status)) return forgetInBrowser(id);
    // The player's token is kept once, as the player's (player.js), not as a seat of each match.
    if (!state.kept && !isPlayerToken(token)) state.kept = rememberInBrowser(id, view.seat, token);
  }

  /** The seat's view and the scorecard, read again; a wake-up during a read is not dropped. */
  let reading = false;
  let again = false;
  async function update() {
    if (reading) { again = true; return; }
    let stale = 0;
    reading = true;
    try {
      do {
        again = false;
        const [view, scorecard] = await Promise.all([call('GET', `${api}/view`, { token }), call('GET', `${api}/scorecard`)]);
        if (state.view && view.version < state.view.version) continue; // an older answer: keep the newer
        // The two reads are not one snapshot, and no event follows the match's end to wake the page
        // again: a scorecard read just before the last move would leave the last deal unsummarised, and
        // one read just after it would draw the ended match over a view from before its last card.
        if ((view.status === 'finished') !== scorecard.finished && stale++ < 5) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          again = true;
          continue;
        }
        await follower.observe(scorecard).catch(() => false); // a deal just scored is held before the next is drawn
        state.view = view;
        state.scorecard = scorecard;
        keepSeat(view);
        state.live ||= OPEN.has(view.status);
        // The service answers again: a read's failure is over (a refused command's problem stays).
        if ($('#notice').dataset.from === 'read') clearProblem();
        render();
        followRematch(view);
      } while (again);
    } finally { reading = false; }
  }

  /**
   * Another seat started the rematch: a page that was at the table when the match ended asks for its
   * own seat there and moves on (one opened later, on a finished match, shows the way to it instead).
   */
  function followRematch(message) {
    if (state.live && offeredRematch(message)) rematch(id, token).catch(showProblem);
  }

  /** Every control of the seat off, while its move is on its way. */
  function holdControls() {
    const controls = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('#actions button, #hand button, #backBtn'));
    for (const b of controls) b.disabled = true;
  }

  async function act(command, body) {
    if (state.busy) return;
    state.busy = true;
    holdControls();
    clearProblem();
    try {
      await call('POST', `${api}/${command}`, { token, body });
    } catch (error) {
      showProblem(error);
    } finally {
      state.busy = false;
    }
    await update().catch(readFailed);
  }

  $('#lastTrickToggle').addEventListener('click', () => { state.showLast = !state.showLast; render(); });
  listenToKeys();
  listenToSummaryKeys();
  scorecardToggle();

  /** The person is done with a deal's end: the next one, or the live table. */
  function moveOn() {
    /** @type {HTMLElement | null} */ (document.activeElement)?.blur?.();
    follower.dismiss();
    render();
  }

  // Live: the seat's event stream (read with fetch, the token in a header: live.js), which also makes
  // the seat show as online to the others, wakes the page, which then reads its seat's view; its
  // presence messages are drawn at once. Polling if the browser cannot read a stream.
  // A lost stream (a restart of the service, the network gone) is replaced by a read every 3 s until
  // one succeeds; then the page listens to the stream again. A finished match's stream stays open a
  // while for its RematchOffered (then ends; opened after that, the service answers 204 and the
  // page stops reading): a page opened later learns of the rematch from the view's `rematch`.
  function follow() {
    if (state.view.status === 'abandoned') return;
    if (!('ReadableStream' in window)) return void setInterval(() => void update().catch(readFailed), 3000);
    openLive(`${api}/events/stream?after=${state.view.version}`, token, {
      message: (data) => {
        followRematch(parsed(data));
        void update().catch(readFailed);
      },
      // Who is at the table changes with no new version: shown at once, no read needed.
      presence: (connected) => {
        if (!state.view) return;
        state.view = { ...state.view, connected };
        render();
      },
      end: () => {
        state.ended = true;
        void update().catch(readFailed);
      },
      error: lost,
    });
  }

  /** The stream failed or was cut: a read every 3 s until one succeeds, then the stream again. */
  function lost() {
    if (state.ended || !OPEN.has(state.view.status)) return;
    let timer = setInterval(() => void update().then(() => {
      if (timer === null) return; // another read already brought the stream back
      clearInterval(timer);
      timer = null;
      follow();
    }, readFailed), 3000);
  }

  startClocks();
  update().then(follow, (error) => {
    // A token the service refuses (or a match it does not know) is kept nowhere.
    if (refusesToken(error) || error.status === 404) forgetEverywhere(id);
    if (error.status === 401 && isPlayerToken(token)) forgetPlayer();
    showProblem(error);
    if (error.status === 404) {
      document.title = t('title-no-match');
      $('#notice').append(' ', el('a', { href: '/play' }, t('start-new-match')));
    }
    document.body.dataset.ready = 'failed';
  });
}

const parsed = (data) => {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
};
