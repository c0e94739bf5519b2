// The playable table: plays one seat of a match through the public API, like any other client.
// `/play` is a small lobby (a match against two service bots); `/play/{id}#token=…` is the table.
// The seat's token comes in the URL fragment (never sent to the server), is kept in this tab's session
// storage, and is removed from the address bar at once. Plain DOM, no framework.
(() => {
  'use strict';
  const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };
  const SUIT_NAMES = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
  const RANK_NAMES = { A: 'ace', K: 'king', Q: 'queen', J: 'jack', T: '10' };
  // The hand is sorted by suit, black and red in turn, then from the ace down.
  const SUIT_ORDER = 'SHCD';
  const RANK_ORDER = 'AKQJT98765432';
  // How a deal is scored (docs/rules.md §5), in the scorecard's words: each cell is "tricks (points)".
  const QUOTAS = 'Quotas: forehand 8, the others 4; in pass forehand 4, the others 6.';
  const SCORING = {
    zeroSum: `Scoring: your points are the tricks you take over your quota, less those you fall short of it; in pass the other way round (fewer is better). ${QUOTAS} A deal's points add up to 0; the highest total wins.`,
    overOnly: `Scoring: your points are the tricks you take over your quota; falling short costs nothing. In pass the tricks you stay under it score instead. ${QUOTAS} The highest total wins.`,
  };
  const CONTRACT_LABELS = { spades: 'spades (♠ trumps)', notrump: 'no trump', pass: 'pass (take few tricks)' };

  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) node.append(c);
    return node;
  };

  // Cards are codes ('QH', 'TS') in the API and symbols on screen: converted here only.
  const isRed = (suit) => suit === 'H' || suit === 'D';
  const rankOf = (code) => (code[0] === 'T' ? '10' : code[0]);
  const spoken = (code) => `${RANK_NAMES[code[0]] ?? code[0]} of ${SUIT_NAMES[code[1]]}`;
  const suitMark = (suit) => el('span', { class: `sym ${isRed(suit) ? 'red' : ''}`, title: SUIT_NAMES[suit] }, SUITS[suit]);
  const byHandOrder = (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
  /** A face-up card (every one carries data-card: the browser test compares them with the seat's view). */
  const faceUp = (code, tag = 'span', attrs = {}) => el(tag, { 'data-card': code, 'aria-label': spoken(code), title: spoken(code), ...attrs, class: `card ${isRed(code[1]) ? 'red' : ''} ${attrs.class ?? ''}` },
    el('span', { class: 'rank' }, rankOf(code)), el('span', { class: 'suit' }, SUITS[code[1]]));
  const back = () => el('span', { class: 'card back', 'aria-hidden': 'true' });

  /** An API refusal in words: problem+json's title and detail. */
  class Problem extends Error {
    constructor(status, body) {
      super(body?.detail || body?.title || `HTTP ${status}`);
      this.status = status;
      this.title = body?.title || `HTTP ${status}`;
      this.detail = body?.detail || '';
      this.code = body?.code;
    }
  }

  async function call(method, path, { token, body } = {}) {
    const headers = { Accept: 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    } catch {
      throw new Problem(0, { title: 'The service cannot be reached', detail: 'Check the connection; the page keeps trying and carries on by itself once the service answers.' });
    }
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new Problem(res.status, data);
    return data;
  }

  function showProblem(error) {
    const notice = $('#notice');
    if (error instanceof Problem) notice.replaceChildren(el('strong', { class: 'title' }, error.title), error.detail ? el('span', { class: 'detail' }, ` ${error.detail}`) : '');
    else notice.replaceChildren(el('strong', { class: 'title' }, 'Something went wrong'), el('span', { class: 'detail' }, ` ${String(error?.message || error)}`));
    notice.hidden = false;
    delete notice.dataset.from;
  }
  /** A failed read (the service restarting, the network gone): shown until the next read succeeds. */
  function readFailed(error) {
    showProblem(error);
    $('#notice').dataset.from = 'read';
  }
  function clearProblem() {
    $('#notice').hidden = true;
    $('#notice').replaceChildren();
  }

  // ---- The lobby: a match against bots, or with seats open for friends. ---------------------------------
  function lobby() {
    document.title = 'Bismarck — start a match';
    // Friends in the other seats: those seats stay open, and the table shows the link that takes them.
    const others = () => $('#others').value;
    const showBots = () => { $('#botLabel').hidden = others() === 'friends'; };
    $('#others').addEventListener('change', showBots);
    showBots();
    $('#lobby').hidden = false;
    $('#newLink').hidden = true;
    $('#name').focus();
    $('#lobbyForm').addEventListener('submit', async (e) => {
      e.preventDefault();
      clearProblem();
      $('#start').disabled = true;
      const bot = $('#bot').value;
      try {
        const rest = { bots: [{ bot }, { bot }], friend: [null, { bot }], friends: [null, null] }[others()];
        const match = await call('POST', '/api/matches', { body: { players: [$('#name').value.trim(), ...rest], options: { schedule: $('#schedule').value } } });
        const mine = match.seats.find((s) => s.token);
        // The table finds the token in this tab's storage: no address, not even for a moment, holds it.
        // Without storage it goes in the fragment (never sent to the server), which the table removes.
        const table = `/play/${encodeURIComponent(match.id)}`;
        location.assign(remember(match.id, mine.token) ? table : `${table}#token=${encodeURIComponent(mine.token)}`);
      } catch (error) {
        showProblem(error);
        $('#start').disabled = false;
      }
    });
    document.body.dataset.ready = 'lobby';
  }

  function storageKey(id) { return `bismarck.seat-token.${id}`; }
  function remember(id, token) {
    try {
      sessionStorage.setItem(storageKey(id), token);
      return true;
    } catch {
      return false; // storage off: the token lives in memory only
    }
  }
  /** The seat's token: from the fragment (then removed from the address bar and history), else this tab's storage. */
  function takeToken(id) {
    const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
    if (fromHash) {
      remember(id, fromHash);
      history.replaceState(history.state, '', location.pathname + location.search);
      return fromHash;
    }
    try { return sessionStorage.getItem(storageKey(id)); } catch { return null; }
  }

  // ---- The table. ---------------------------------------------------------------------------------------
  function table(id) {
    const token = takeToken(id);
    $('#viewerLink').href = `/viewer/${encodeURIComponent(id)}`;
    $('#viewerLink').hidden = false;
    // Without a token: an open seat to take at a waiting table, else how to get the seat's link.
    if (!token) return void join(id).catch(() => false).then((offered) => { if (!offered) needsLink(id); });
    seated(id, token);
  }

  /** A waiting table's open seat, taken with a name: the seat's token goes to this tab, and the table opens. */
  async function join(id) {
    const api = `/api/matches/${encodeURIComponent(id)}`;
    const pub = await call('GET', api);
    const open = () => pub.seats.filter((s) => s.name === null).map((s) => s.seat);
    if (pub.status === 'abandoned') {
      document.title = 'Bismarck — table closed';
      $('#notice').replaceChildren(el('strong', { class: 'title' }, 'This table was closed'),
        el('span', { class: 'detail' }, ' Nobody took its open seats in time. '), el('a', { href: '/play' }, 'Start a new match'), '.');
      $('#notice').hidden = false;
      document.body.dataset.ready = 'abandoned';
      return true;
    }
    if (pub.status !== 'waiting' || !open().length) return false;
    document.title = 'Bismarck — take a seat';
    const named = pub.seats.filter((s) => s.name !== null).map((s) => (s.bot ? `${s.name} (bot)` : s.name));
    $('#joinWho').textContent = `At this table: ${named.join(', ')}. ${open().length === 1 ? 'One seat is' : `${open().length} seats are`} open; the match starts when every seat is taken (${pub.options.schedule}).`;
    $('#join').hidden = false;
    $('#joinName').focus();
    $('#joinForm').addEventListener('submit', async (e) => {
      e.preventDefault();
      clearProblem();
      $('#joinBtn').disabled = true;
      try {
        // Someone faster may take a seat meanwhile (409 SEAT_TAKEN): the next open one, read again.
        for (;;) {
          const seats = open();
          if (!seats.length) throw new Problem(409, { title: 'The table is full', detail: 'Every seat was taken meanwhile.' });
          try {
            const joined = await call('POST', `${api}/seats/${seats[0]}/join`, { body: { name: $('#joinName').value.trim() } });
            remember(id, joined.token); // a reload finds it (without storage, this page holds it in memory)
            $('#join').hidden = true;
            seated(id, joined.token);
            return;
          } catch (error) {
            if (error.code !== 'SEAT_TAKEN') throw error;
            Object.assign(pub, await call('GET', api));
          }
        }
      } catch (error) {
        showProblem(error);
        $('#joinBtn').disabled = false;
      }
    });
    document.body.dataset.ready = 'join';
    return true;
  }

  function needsLink(id) {
    $('#notice').replaceChildren(
      el('strong', { class: 'title' }, 'This table needs your seat’s link'),
      el('span', { class: 'detail' }, ' Open the link you got when the match was created (it ends in #token=…), or '),
      el('a', { href: '/play' }, 'start a new match'), el('span', {}, ', or '), el('a', { href: `/viewer/${encodeURIComponent(id)}` }, 'watch this one'), '.');
    $('#notice').hidden = false;
    document.body.dataset.ready = 'no-token';
  }

  /** The table of the seat whose token this tab holds. */
  function seated(id, token) {
    const api = `/api/matches/${encodeURIComponent(id)}`;
    const state = { view: null, scorecard: null, picked: new Set(), pickedDeal: null, showLast: false, busy: false, ended: false };

    /** A seat's name; two seats of one name (two bots of one strength) are told apart by their seat. */
    const name = (seat) => {
      const seats = state.view?.seats ?? [];
      const own = seats[seat]?.name;
      if (own === null || own === undefined) return `open seat ${seat}`;
      return seats.filter((s) => s.name === own).length > 1 ? `${own} (seat ${seat})` : own;
    };
    const quota = (view, seat) => {
      if (!view.contract || view.forehand === null) return null;
      if (view.contract === 'pass') return view.forehand === seat ? 4 : 6;
      return view.forehand === seat ? 8 : 4;
    };
    const tally = (view, seat) => {
      const q = quota(view, seat);
      return `tricks ${view.tricksTaken[seat]}${q === null ? '' : ` of ${q}`} · total ${view.totals[seat]}`;
    };
    const roles = (view, seat) => [
      view.seats[seat]?.bot ? el('span', { class: 'badge bot' }, `bot: ${view.seats[seat].bot}`) : null,
      view.dealer === seat && view.status === 'playing' ? el('span', { class: 'badge' }, 'dealer') : null,
      view.forehand === seat && view.status === 'playing' ? el('span', { class: 'badge' }, 'forehand') : null,
      view.turn === seat ? el('span', { class: 'badge turn' }, 'to act') : null,
    ].filter(Boolean);

    function renderOpponent(box, view, seat) {
      box.className = `seat ${view.turn === seat ? 'turn' : ''}`;
      box.dataset.seat = String(seat);
      const count = view.handSizes[seat];
      box.replaceChildren(
        el('h2', {}, el('span', { class: 'name' }, name(seat)), ...roles(view, seat)),
        el('div', { class: 'stats' }, `${count} card${count === 1 ? '' : 's'} · ${tally(view, seat)}`),
        el('div', { class: 'cards backs', 'aria-label': `${count} cards, face down` }, ...Array.from({ length: count }, back)),
      );
    }

    function renderCentre(view) {
      const info = [];
      if (view.status === 'finished') {
        info.push(el('strong', {}, `Match over · winner${view.winners.length > 1 ? 's' : ''}: ${view.winners.map(name).join(', ')}`));
      } else if (view.status === 'playing') {
        info.push(`Deal ${view.dealNumber || 1} of ${view.dealsInMatch}`);
        if (view.contract) info.push(' · ', view.contract === 'trump' ? 'trump ' : view.contract === 'spades' ? 'spades ' : CONTRACT_LABELS[view.contract], ...(view.trump ? [suitMark(view.trump)] : []));
        if (view.turn !== null) info.push(' · ', view.turn === view.seat ? el('strong', {}, 'your turn') : `${name(view.turn)} to act`);
      } else if (view.status === 'waiting') info.push('Waiting for players to take the open seats');
      else if (view.status === 'abandoned') info.push('This table was closed: nobody took its open seats in time');
      else info.push(`The match is ${view.status}`);
      $('#info').replaceChildren(...info);
      $('#tableCards').replaceChildren(...(view.tableCards.length ? [el('span', { class: 'label' }, 'table cards'), ...view.tableCards.map((c) => faceUp(c))] : []));
      const last = view.lastTrick;
      // A trick just taken stays on the table until the next card is led, as cards do on a real table
      // (the bots answer at once: else a person never sees the cards that fell after their own).
      const taken = view.trick.length === 0 && view.phase === 'play' && last ? last : null;
      const who = (seat) => (seat === view.seat ? 'you' : name(seat));
      $('#trick').classList.toggle('taken', !!taken);
      $('#trick').replaceChildren(
        ...(taken ? taken.cards : view.trick).map((p) => el('figure', {}, faceUp(p.card), el('figcaption', {}, who(p.seat)))),
        ...(taken ? [el('p', { class: 'takenBy' }, `taken by ${who(taken.winner)}`)] : []),
      );
      $('#lastTrickToggle').hidden = !last;
      $('#lastTrickToggle').textContent = state.showLast ? 'hide last trick (L)' : 'show last trick (L)';
      $('#lastTrickToggle').setAttribute('aria-expanded', String(state.showLast && !!last));
      $('#lastTrick').hidden = !(last && state.showLast);
      $('#lastTrick').replaceChildren(...(last && state.showLast ? [el('span', { class: 'label' }, `last trick, to ${last.winner === view.seat ? 'you' : name(last.winner)}:`), ...last.cards.map((p) => faceUp(p.card))] : []));
    }

    /** What this seat may do now, as its view's `legal` says: nothing else is offered. */
    function renderActions(view) {
      const legal = view.legal;
      const box = $('#actions');
      if (view.status === 'finished') return box.replaceChildren(el('p', {}, 'The match is over: the final scorecard is below. ', el('a', { href: '/play' }, 'Play again')));
      if (view.status === 'waiting') return renderInvite(view, box);
      if (view.status === 'abandoned') return box.replaceChildren(el('p', {}, el('a', { href: '/play' }, 'Start a new match')));
      if (!legal) return box.replaceChildren(el('p', { class: 'waiting' }, view.turn === null ? 'Waiting…' : `Waiting for ${name(view.turn)}…`));
      switch (legal.action) {
        case 'deal':
          return box.replaceChildren(el('p', {}, 'You deal this time.'), el('button', { id: 'dealBtn', type: 'button', onclick: () => act('deal', {}) }, 'Deal (D)'));
        case 'cut': {
          const input = el('input', { id: 'cutText', maxlength: '64', value: randomCut(), 'aria-label': 'Your cut', spellcheck: 'false' });
          return box.replaceChildren(
            el('p', {}, 'You may cut the next deck: your string is mixed into the shuffle (optional; the dealer may deal first).'),
            el('div', { class: 'row' }, input, el('button', { id: 'cutBtn', type: 'button', onclick: () => act('cut', { cut: input.value }) }, 'Cut (U)')),
          );
        }
        case 'chooseContract': {
          const choices = legal.contracts.flatMap((c) => (c === 'trump' ? legal.trumps.map((t) => ({ contract: c, trump: t })) : [{ contract: c }]));
          const blind = view.hand.length === 0 ? ' (blind: from the four table cards; your hand comes after)' : '';
          return box.replaceChildren(el('p', {}, `Choose the contract${blind}:`), el('div', { class: 'row', id: 'contracts' }, ...choices.map((choice, i) => el('button', {
            type: 'button', class: 'contract', 'data-key': String(i + 1), 'data-contract': choice.contract, 'data-trump': choice.trump,
            onclick: () => act('contract', choice.trump ? { contract: 'trump', trump: choice.trump } : { contract: choice.contract }),
          }, el('kbd', {}, String(i + 1)), ' ', ...(choice.trump ? ['free trump ', suitMark(choice.trump)] : [CONTRACT_LABELS[choice.contract]]))),
          ), el('p', { id: 'contractHelp', class: 'muted' }, contractHelp(view, legal)));
        }
        case 'discard': {
          const n = state.picked.size;
          return box.replaceChildren(
            el('p', {}, `Lay away ${legal.count} cards, face down: pick them in your hand (${n} of ${legal.count} picked).`),
            el('button', { id: 'layAway', type: 'button', disabled: n !== legal.count, onclick: () => act('discard', { cards: [...state.picked] }) }, `Lay away ${legal.count} (A)`),
          );
        }
        case 'play':
          return box.replaceChildren(el('p', {}, el('strong', {}, 'Your turn:'), ' play one of the raised cards.'));
        default:
          return box.replaceChildren(el('p', {}, `The service asks for “${legal.action}”, which this page does not know.`));
      }
    }

    /** A waiting table: the link that seats a friend (it holds no token), or a bot for an open seat. */
    function renderInvite(view, box) {
      const open = view.seats.filter((s) => s.name === null).map((s) => s.seat);
      // Kept while the open seats are the same (a selection, a copy in progress), its buttons on again.
      if (box.querySelector('#inviteLink') && box.dataset.open === open.join()) {
        for (const b of box.querySelectorAll('button')) b.disabled = false;
        return;
      }
      box.dataset.open = open.join();
      const link = el('input', { id: 'inviteLink', readonly: true, value: `${location.origin}/play/${encodeURIComponent(id)}`, 'aria-label': 'Link to this table', spellcheck: 'false' });
      const copy = el('button', { id: 'copyLink', type: 'button', onclick: () => {
        link.select();
        navigator.clipboard?.writeText(link.value).then(() => { copy.textContent = 'Copied'; }, () => undefined);
      } }, 'Copy link');
      box.replaceChildren(
        el('p', {}, `Waiting for ${open.length === 1 ? 'one more player' : `${open.length} more players`}. Send this link to ${open.length === 1 ? 'a friend' : 'your friends'}: opened in a browser, it offers the open seat${open.length === 1 ? '' : 's'}.`),
        el('div', { class: 'row' }, link, copy),
        el('p', {}, 'Or let the service play a seat:'),
        el('div', { class: 'row' }, ...open.map((seat) => el('button', {
          type: 'button', class: 'botSeat', 'data-seat': String(seat), onclick: () => act(`seats/${seat}/bot`, { bot: 'greedy' }),
        }, `a bot for open seat ${seat}`))),
      );
    }

    /** What the offered contracts mean (docs/rules.md §3), so that "spades" and "free trump ♠" are told apart. */
    function contractHelp(view, legal) {
      const words = {
        spades: 'spades: spades are trumps',
        trump: 'free trump: you name the trump suit' + (legal.contracts.includes('spades') && legal.trumps.includes('S') ? ' (♠ too: the same cards, but another contract)' : ''),
        notrump: 'no trump: no suit is trumps',
        pass: 'pass: take as few tricks as you can',
      };
      const quota = 'Quotas: you 8 tricks, the others 4 each; in pass you 4, the others 6 (there, fewer is better).';
      const once = view.options.schedule === 'modern' ? ' Each forehand plays each contract once in the match: these are the ones you have left.' : '';
      return `${legal.contracts.map((c) => words[c] ?? c).join('; ')}. ${quota}${once}`;
    }

    function renderHand(view) {
      const legal = view.legal;
      const focused = document.activeElement?.closest?.('#hand') ? document.activeElement.dataset.card : null;
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
      $('#away').replaceChildren(...(view.laidAway?.length ? [el('span', { class: 'label' }, 'laid away:'), ...view.laidAway.map((c) => faceUp(c, 'span', { class: 'away' }))] : []));
    }

    function pick(code, count) {
      if (state.picked.has(code)) state.picked.delete(code);
      else if (state.picked.size < count) state.picked.add(code);
      render();
      if (state.picked.size === count) $('#layAway')?.focus();
    }

    function renderScorecard(view) {
      const sc = state.scorecard;
      if (!sc) return;
      const names = sc.seats.map((s, i) => (i === view.seat ? `${name(i)} (you)` : name(i)));
      const known = new Map(sc.deals.map((d) => [d.number, d]));
      const rows = Array.from({ length: Math.max(view.dealsInMatch, sc.deals.length) }, (_, i) => i + 1).map((number) => {
        const d = known.get(number);
        if (!d) {
          const current = number === view.dealNumber && view.status === 'playing';
          return el('tr', { class: current ? 'current' : 'future' }, el('td', {}, String(number)), el('td', { colspan: String(2 + names.length) }, current ? 'in play' : '—'));
        }
        return el('tr', { 'data-deal': String(number) }, el('td', {}, String(number)), el('td', {}, name(d.forehand)),
          el('td', {}, d.contract === 'notrump' ? 'no trump' : d.contract, ...(d.trump ? [' ', suitMark(d.trump)] : [])),
          ...d.tricks.map((t, s) => el('td', {}, `${t} (${d.points[s] > 0 ? '+' : ''}${d.points[s]})`)));
      });
      $('#scorecard').replaceChildren(
        el('h2', {}, sc.finished ? 'Final scorecard' : 'Scorecard'),
        el('table', { id: 'scorecard-table' },
          el('thead', {}, el('tr', {}, el('th', { title: 'deal' }, '#'), el('th', {}, 'forehand'), el('th', {}, 'contract'), ...names.map((n) => el('th', {}, n)))),
          el('tbody', {}, ...rows),
          el('tfoot', {}, el('tr', {}, el('td', { colspan: '3' }, sc.finished ? 'final' : 'totals'), ...sc.totals.map((t, s) => el('td', { 'data-total': String(s) }, String(t)))))),
        ...(sc.finished ? [el('p', { id: 'winners' }, `Winner${sc.winners.length > 1 ? 's' : ''}: ${sc.winners.map(name).join(', ')}`)] : []),
        el('p', { id: 'scoring', class: 'muted' }, SCORING[view.options.scoring] ?? `Scoring: ${view.options.scoring}.`),
      );
    }

    function render() {
      const view = state.view;
      if (!view) return;
      if (state.pickedDeal !== view.dealNumber || view.legal?.action !== 'discard') {
        state.picked.clear();
        state.pickedDeal = view.dealNumber;
      }
      $('#game').hidden = false;
      $('#match').textContent = `${view.options.schedule} · ${id}`;
      const me = view.seat;
      renderOpponent($('#opp-a'), view, (me + 1) % 3);
      renderOpponent($('#opp-b'), view, (me + 2) % 3);
      renderCentre(view);
      $('#me').className = view.turn === me ? 'turn' : '';
      $('#myInfo').replaceChildren(el('h2', {}, el('span', { class: 'name' }, `${name(me)} (you)`), ...roles(view, me)), el('div', { class: 'stats' }, tally(view, me)));
      renderActions(view);
      renderHand(view);
      // A move on its way: the table may move meanwhile (another seat, a bot), but nothing is offered
      // again until the answer is in.
      if (state.busy) holdControls();
      renderScorecard(view);
      document.title = `${view.legal ? '● Your turn · ' : view.status === 'finished' ? 'Match over · ' : ''}Bismarck — table`;
      document.body.dataset.version = String(view.version);
      document.body.dataset.status = view.status;
      document.body.dataset.legal = view.legal ? view.legal.action : 'none';
      document.body.dataset.ready = 'true';
    }

    /** The seat's view and the scorecard, read again; a wake-up during a read is not dropped. */
    let reading = false;
    let again = false;
    async function update() {
      if (reading) { again = true; return; }
      reading = true;
      try {
        do {
          again = false;
          const [view, scorecard] = await Promise.all([call('GET', `${api}/view`, { token }), call('GET', `${api}/scorecard`)]);
          if (state.view && view.version < state.view.version) continue; // an older answer: keep the newer
          state.view = view;
          state.scorecard = scorecard;
          // The service answers again: a read's failure is over (a refused command's problem stays).
          if ($('#notice').dataset.from === 'read') clearProblem();
          render();
        } while (again);
      } finally { reading = false; }
    }

    /** Every control of the seat off, while its move is on its way. */
    function holdControls() {
      for (const b of document.querySelectorAll('#actions button, #hand button')) b.disabled = true;
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

    function randomCut() {
      const bytes = crypto.getRandomValues(new Uint8Array(9));
      return Array.from(bytes, (b) => 'abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3456789'[b % 52]).join('');
    }

    $('#lastTrickToggle').addEventListener('click', () => { state.showLast = !state.showLast; render(); });

    document.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest?.('input, select, textarea')) return;
      const open = [...document.querySelectorAll('#hand button:not([disabled])')];
      const at = open.indexOf(document.activeElement);
      const move = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: open.length - 1 }[e.key];
      if (move !== undefined && open.length) {
        e.preventDefault();
        const next = open[at < 0 ? (e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'End' ? open.length - 1 : 0) : Math.max(0, Math.min(open.length - 1, move))];
        for (const b of open) b.tabIndex = b === next ? 0 : -1;
        next.focus();
        return;
      }
      const key = e.key.toLowerCase();
      const press = (sel) => { const b = $(sel); if (b && !b.disabled) { e.preventDefault(); b.click(); } };
      if (/^[1-9]$/.test(key)) press(`#actions button[data-key="${key}"]`);
      else if (key === 'a') press('#layAway');
      else if (key === 'd') press('#dealBtn');
      else if (key === 'u') press('#cutBtn');
      else if (key === 'l') press('#lastTrickToggle:not([hidden])');
    });

    // Live: the public event stream (it carries no secret and needs no token) wakes the page, which
    // then reads its seat's view with the token in a header. Polling if the stream is not available.
    // A lost stream (a restart of the service, the network gone) is replaced by a read every 3 s until
    // one succeeds; then the page listens to the stream again.
    function follow() {
      if (!('EventSource' in window)) return void setInterval(() => void update().catch(readFailed), 3000);
      const source = new EventSource(`${api}/events/stream?after=${state.view.version}`);
      source.onmessage = () => void update().catch(readFailed);
      source.addEventListener('end', () => { state.ended = true; source.close(); void update().catch(readFailed); });
      source.addEventListener('error', () => {
        source.close();
        if (state.ended) return;
        let timer = setInterval(() => void update().then(() => {
          if (timer === null) return; // another read already brought the stream back
          clearInterval(timer);
          timer = null;
          follow();
        }, readFailed), 3000);
      });
    }

    update().then(follow, (error) => {
      showProblem(error);
      if (error.status === 404) {
        document.title = 'Bismarck — no such match';
        $('#notice').append(' ', el('a', { href: '/play' }, 'Start a new match.'));
      }
      document.body.dataset.ready = 'failed';
    });
  }

  // `/play`: the lobby; `/play/{id}`: the table.
  const parts = location.pathname.split('/').filter(Boolean);
  if (parts.length < 2) lobby();
  else table(decodeURIComponent(parts[1]));
})();
