// The replay viewer: steps through a match event by event, as the caller may see it (spectator by
// default; a seat token in the URL fragment, #token=…, shows that seat's cards). Plain DOM, no framework.
(() => {
  'use strict';
  const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
  // A seat's token, as on the table (play.js): from the fragment, then kept in this tab's session storage
  // (under the table's key, so the table's "replay viewer" link shows the seat's own cards) and removed
  // from the address bar, so that a copied link never carries it.
  const tokenKey = `bismarck.seat-token.${id}`;
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    try { sessionStorage.setItem(tokenKey, fromHash); } catch { /* storage off: memory only */ }
    history.replaceState(history.state, '', location.pathname + location.search);
  }
  const token = fromHash ?? (() => { try { return sessionStorage.getItem(tokenKey); } catch { return null; } })();
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const api = `/api/matches/${encodeURIComponent(id)}`;
  const SUITS = { S: '♠', H: '♥', D: '♦', C: '♣' };
  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) if (k === 'class') node.className = v; else node.setAttribute(k, v);
    for (const c of children) node.append(c);
    return node;
  };

  // scoredAt: the version of each deal's DealScored event, so that a moment shows only the deals scored by then.
  const state = { version: 1, latest: 1, types: [], scoredAt: new Map(), replays: new Map(), scorecard: null, following: true };

  async function get(path) {
    const res = await fetch(path, { headers }).catch(() => {
      throw new Error('The service cannot be reached. Check the connection; the page keeps trying and carries on by itself once the service answers.');
    });
    const body = await res.json();
    if (!res.ok) throw Object.assign(new Error(body.detail || `${res.status}`), { status: res.status, code: body.code });
    return body;
  }

  // Cards are codes ('QH', 'TS') in the API and symbols on screen: converted here only.
  const isRed = (suit) => suit === 'H' || suit === 'D';
  const rankOf = (code) => (code[0] === 'T' ? '10' : code[0]);
  const named = (code) => `${rankOf(code)}${SUITS[code[1]]}`;
  /** A suit symbol in running text: on a white chip, so that a red one stays legible on the felt too. */
  const suitMark = (suit) => el('span', { class: `sym ${isRed(suit) ? 'red' : ''}`, title: { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' }[suit] }, SUITS[suit]);
  /** A card in running text, e.g. Q♥ (hearts and diamonds red). */
  const played = (code) => el('span', { class: `played ${isRed(code[1]) ? 'red' : ''}`, 'data-card': code }, named(code));
  const CONTRACT_LABELS = { notrump: 'no trump' };
  const contractOf = (contract, trump) => (contract ? [CONTRACT_LABELS[contract] ?? contract, ...(trump ? [' ', suitMark(trump)] : [])] : ['—']);
  /** A seat's name; two seats of one name (two bots of one strength) are told apart by their seat, as on the table. */
  const seatName = (seats, seat) => {
    const own = seats[seat]?.name ?? `seat ${seat}`;
    return seats.filter((s) => s?.name === own).length > 1 ? `${own} (seat ${seat})` : own;
  };

  function card(code, extra = '') {
    if (!code) return el('span', { class: `card back ${extra}`, title: 'hidden' });
    return el('span', { class: `card ${isRed(code[1]) ? 'red' : ''} ${extra}`, title: named(code), 'data-card': code }, el('span', {}, rankOf(code)), el('span', { class: 'suit' }, SUITS[code[1]]));
  }
  const cardRow = (codes, cls = '') => el('div', { class: `cards ${cls}` }, ...codes.map((c) => card(c)));

  // The analysis of scored deals (GET …/analysis?deal=N): asked once per deal, again after Retry-After while pending.
  const analyses = new Map();
  const analysing = new Set();
  async function loadAnalysis(deal) {
    if (analyses.has(deal) || analysing.has(deal)) return;
    analysing.add(deal);
    try {
      const res = await fetch(`${api}/analysis?deal=${deal}`, { headers });
      const body = await res.json();
      if (res.status === 202) {
        setTimeout(() => { analysing.delete(deal); void loadAnalysis(deal); }, 1000 * Number(res.headers.get('Retry-After') || 2));
        return;
      }
      if (!res.ok) throw new Error(body.detail || `${res.status}`);
      analyses.set(deal, body);
      analysing.delete(deal);
      void show(state.version).catch(fail);
    } catch (e) { analysing.delete(deal); fail(e); }
  }
  const costOf = (deal, code) => analyses.get(deal)?.cards.find((c) => c.card === code)?.cost ?? null;
  const signed = (n) => (n === null ? '?' : n > 0 ? `+${n}` : String(n));

  function renderAnalysis(view, revealed) {
    const box = $('#analysis');
    box.hidden = !revealed;
    if (!revealed) return box.replaceChildren();
    const a = analyses.get(revealed.deal);
    if (!a) {
      box.replaceChildren(el('p', { class: 'muted' }, `Deal ${revealed.deal}: analysing every card…`));
      return void loadAnalysis(revealed.deal);
    }
    const name = (s) => seatName(view.seats, s);
    // A seat whose solve from the first lead stopped at the node budget has no par: said in words, not "? (?)".
    const par = a.par.tricks.every((t) => t === null)
      ? 'not found within the analysis budget (from the first lead there are too many positions)'
      : a.par.tricks.map((t, s) => `${name(s)} ${t ?? 'not found'}${t === null ? '' : ` (${signed(a.par.points[s])})`}`).join(' · ');
    const costly = a.cards.filter((c) => c.cost !== null && c.cost >= 1);
    box.replaceChildren(
      el('p', { id: 'par' }, `Deal ${a.deal} par, every card face up, each seat against the other two: ${par}`),
      el('p', {}, costly.length ? `Costly cards (tricks given away):` : 'No costly card: every card was a best one.',
        ...(a.overBudget ? [el('span', { class: 'muted' }, ` (some early cards were not solved within the budget)`)] : [])),
      el('div', { id: 'costly' }, ...costly.map((c) => el('figure', { 'data-trick': String(c.trick) }, card(c.card, 'costly'),
        el('figcaption', {}, `trick ${c.trick} · ${name(c.seat)} · −${c.cost}`)))),
    );
  }

  async function replay(version) {
    if (!state.replays.has(version)) state.replays.set(version, await get(`${api}/replay?version=${version}`));
    return state.replays.get(version);
  }

  function renderSeat(seat, view, revealed) {
    const box = $(`#seat-${seat}`);
    box.className = `seat ${view.turn === seat ? 'turn' : ''}`;
    const name = seatName(view.seats, seat);
    const bot = view.seats[seat]?.bot;
    const roles = [bot ? `bot: ${bot}` : null, view.dealer === seat ? 'dealer' : null, view.forehand === seat ? 'forehand' : null, view.seat === seat ? 'you' : null].filter(Boolean);
    let hand;
    if (revealed) hand = revealed.hands[seat];
    else if (view.seat === seat) hand = view.hand;
    else hand = Array(view.handSizes[seat]).fill(null);
    const away = revealed && view.forehand === seat ? revealed.laidAway : view.seat === seat ? view.laidAway : null;
    box.replaceChildren(
      el('h2', {}, `${name}`, ...roles.map((r) => el('span', { class: 'badge' }, r))),
      el('div', { class: 'stats' }, `tricks ${view.tricksTaken[seat]} · total ${view.totals[seat]}`),
      cardRow(hand, 'hand'),
      ...(away && away.length ? [el('div', { class: 'stats' }, 'laid away'), el('div', { class: 'cards hand' }, ...away.map((c) => card(c, 'away')))] : []),
    );
  }

  function renderCentre(view) {
    const name = (s) => seatName(view.seats, s);
    const turn = view.turn === null ? '' : ` · to act: ${name(view.turn)}`;
    if (view.status === 'finished') $('#info').replaceChildren(`Finished · winner${view.winners.length > 1 ? 's' : ''}: ${view.winners.map(name).join(', ')}`);
    else $('#info').replaceChildren(`Deal ${view.dealNumber || '–'} of ${view.dealsInMatch} · ${view.phase} · contract `, ...contractOf(view.contract, view.trump), turn);
    $('#tableCards').replaceChildren(...view.tableCards.map((c) => card(c)));
    $('#trick').replaceChildren(...view.trick.map((p) => {
      const cost = costOf(view.dealNumber, p.card);
      return el('figure', {}, card(p.card, cost >= 1 ? 'costly' : ''), el('figcaption', {}, name(p.seat) + (cost >= 1 ? ` −${cost}` : '')));
    }));
    const last = view.lastTrick;
    $('#lastTrick').replaceChildren(...(last ? [`last trick to ${name(last.winner)}: `, ...last.cards.flatMap((p, i) => [i ? ' ' : '', played(p.card)])] : []));
  }

  // No spoilers: the moment on screen shows the deals scored up to it and the totals of its own replay;
  // a deal scored later is an empty row, as it was then.
  function renderScorecard(view, version) {
    const sc = state.scorecard;
    if (!sc) return;
    const names = sc.seats.map((_, s) => seatName(sc.seats, s));
    const known = new Map(sc.deals.filter((d) => state.scoredAt.get(d.number) <= version).map((d) => [d.number, d]));
    const count = Math.max(view.dealsInMatch, ...sc.deals.map((d) => d.number));
    const rows = Array.from({ length: count }, (_, i) => i + 1).map((number) => {
      const d = known.get(number);
      if (!d) {
        const current = number === view.dealNumber && view.status === 'playing';
        return el('tr', { class: current ? 'current' : 'future', 'data-deal': String(number) },
          el('td', {}, String(number)), el('td', { colspan: String(2 + names.length) }, current ? 'in play' : '—'));
      }
      return el('tr', { 'data-deal': String(number), 'data-scored': 'true' },
        el('td', {}, String(number)), el('td', {}, names[d.forehand]), el('td', {}, ...contractOf(d.contract, d.trump)),
        ...d.tricks.map((t, s) => el('td', {}, `${t} (${d.points[s] > 0 ? '+' : ''}${d.points[s]})`)));
    });
    const label = view.status === 'finished' ? 'final' : `totals at event ${version}`;
    $('#scorecard').replaceChildren(el('table', { id: 'scorecard-table' },
      el('thead', {}, el('tr', {}, el('th', {}, 'deal'), el('th', {}, 'forehand'), el('th', {}, 'contract'), ...names.map((n) => el('th', {}, n)))),
      el('tbody', {}, ...rows),
      el('tfoot', {}, el('tr', {}, el('td', { colspan: '3' }, label), ...view.totals.map((t, s) => el('td', { 'data-total': String(s) }, String(t)))))));
  }

  async function show(version) {
    version = Math.max(1, Math.min(state.latest, version));
    state.version = version;
    const { view, revealed } = await replay(version);
    if (state.version !== version) return; // a later step won the race
    [0, 1, 2].forEach((s) => renderSeat(s, view, revealed));
    renderCentre(view);
    renderAnalysis(view, revealed);
    renderScorecard(view, version);
    $('#slider').max = String(state.latest);
    $('#slider').value = String(version);
    $('#step').textContent = `event ${version} / ${state.latest}: ${state.types[version - 1] ?? ''}`;
    $('#step').dataset.version = String(version);
    document.body.dataset.ready = 'true';
  }

  async function refresh() {
    const types = [];
    const scoredAt = new Map();
    for (let after = 0; ; ) {
      const page = await get(`${api}/events?after=${after}&limit=1000`);
      for (const e of page.events) {
        types.push(e.type);
        if (e.type === 'DealScored' && e.data) scoredAt.set(e.data.deal, e.version);
      }
      if (page.next === null) break;
      after = page.next;
    }
    state.types = types;
    state.scoredAt = scoredAt;
    state.latest = types.length;
    state.scorecard = await get(`${api}/scorecard`);
    const pub = await get(api);
    const badges = [el('span', { class: 'badge' }, pub.status)];
    if (pub.seeded) badges.push(el('span', { class: 'badge warn' }, 'seeded: not provably fair'));
    else if (pub.status === 'finished') {
      // The audit says which deals were provably fair (committed seed, a seat's cut, revealed seed).
      const audit = await get(`${api}/audit`);
      const fair = audit.provablyFairDeals.length;
      badges.push(el('span', { class: `badge ${audit.ok ? 'ok' : 'warn'}`, id: 'audit' }, audit.ok ? `audit ok · provably fair deals ${fair}/${audit.scoredDeals.length}` : `audit FAILED at event ${audit.firstFailure}`));
    } else badges.push(el('span', { class: 'badge' }, 'decks committed before each deal'));
    // A fork's origin is a finished match, public: linked without this page's token.
    if (pub.forkedFrom) badges.push(el('a', { class: 'badge', id: 'forked-from', href: `./${encodeURIComponent(pub.forkedFrom.matchId)}` }, `a fork of ${pub.forkedFrom.matchId.slice(0, 8)}… at version ${pub.forkedFrom.version}`));
    $('#badges').replaceChildren(...badges);
    $('#fork').hidden = pub.status !== 'finished'; // only a finished match can be forked
    $('#match').textContent = `${pub.options.schedule} · ${id}`;
  }

  const step = (delta) => { state.following = false; $('#live').checked = false; void show(state.version + delta).catch(fail); };
  $('#first').onclick = () => { state.following = false; $('#live').checked = false; void show(1).catch(fail); };
  // The last event is the live edge: from there the page follows the match again.
  $('#last').onclick = () => { state.following = true; $('#live').checked = true; void show(state.latest).catch(fail); };
  $('#prev').onclick = () => step(-1);
  $('#next').onclick = () => step(1);
  $('#slider').oninput = (e) => { state.following = false; $('#live').checked = false; void show(Number(e.target.value)).catch(fail); };
  $('#live').onchange = (e) => { state.following = e.target.checked; if (state.following) void show(state.latest).catch(fail); };
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'Home') $('#first').click();
    else if (e.key === 'End') $('#last').click();
  });

  // Play on from the moment on screen: a fork of the finished match (POST …/fork), a new match with
  // fresh tokens; each person's seat is a link to the table (the token in the fragment, never sent).
  $('#forkBtn').onclick = async () => {
    $('#forkBtn').disabled = true;
    $('#forkResult').replaceChildren('…');
    try {
      const fork = async (version) => {
        const res = await fetch(`${api}/fork?version=${version}`, { method: 'POST', headers }).catch(() => null);
        const body = res && (await res.json().catch(() => null));
        // Inside a move (its events are appended together): the moment just before it.
        if (res?.status === 422 && body?.nearestForkable?.before != null && body.nearestForkable.before < version) return fork(body.nearestForkable.before);
        if (!res?.ok) throw new Error(body?.detail || body?.title || 'The service cannot be reached.');
        return { ...body, from: version };
      };
      const made = await fork(state.version);
      const seats = made.seats.filter((s) => s.token);
      $('#forkResult').replaceChildren(
        el('span', {}, `A new match from event ${made.from}, the same cards from there on: `),
        ...seats.map((s) => el('a', { class: 'fork-seat', href: `/play/${encodeURIComponent(made.id)}#token=${encodeURIComponent(s.token)}` }, `play ${s.name}'s seat`)),
        el('a', { id: 'fork-viewer', href: `./${encodeURIComponent(made.id)}` }, 'watch it'),
      );
      $('#forkResult').dataset.fork = made.id;
    } catch (e) {
      $('#forkResult').replaceChildren(el('span', { class: 'red' }, String(e.message || e)));
    } finally {
      $('#forkBtn').disabled = false;
    }
  };

  function fail(error) { $('#error').textContent = String(error.message || error); }

  // Nothing to show (an unknown id, or not a match id at all): say so at the top, and where to start.
  function failToLoad(error) {
    const missing = error.status === 404;
    document.body.classList.add('missing');
    document.title = missing ? 'Bismarck — no such match' : 'Bismarck — match viewer';
    $('#notice').replaceChildren(
      el('h2', {}, missing ? `No match “${id}”` : 'The match could not be loaded'),
      el('p', {}, missing ? 'There is no match with this id. Check the link: a match id looks like 1b4e28ba-2fa1-4f2c-883f-0cda2b9c6e1a.' : String(error.message || error)),
      ...(missing ? [el('p', {}, 'To start a match, against bots or with friends, open ', el('a', { href: '/play' }, 'the table'), '; to write a client, see ', el('a', { href: '/docs' }, 'the API documentation'), '.')] : []),
    );
    $('#notice').hidden = false;
    document.body.dataset.ready = missing ? 'missing' : 'failed';
  }

  // Follow a live match: the event stream wakes us (polling if it is not available); the log stays the truth.
  function follow() {
    // A wake-up during a refresh is not dropped: one more refresh follows (the last events of a match
    // come in a burst, and the one that ends it must be shown).
    let busy = false;
    let again = false;
    const update = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        do {
          again = false;
          const before = state.latest;
          await refresh();
          $('#error').textContent = ''; // the service answers again: an earlier failure is over
          if (state.following && state.latest !== before) await show(state.latest);
        } while (again);
      } catch (e) { fail(e); } finally { busy = false; }
    };
    // A lost stream (a restart of the service, the network gone): a refresh every 3 s until one
    // succeeds, then the stream again.
    const listen = () => {
      const source = new EventSource(`${api}/events/stream?after=${state.latest}`);
      let ended = false;
      source.onmessage = () => void update();
      source.addEventListener('end', () => { ended = true; source.close(); void update(); });
      source.addEventListener('error', () => {
        source.close();
        if (ended) return;
        let timer = setInterval(() => void update().then(() => {
          if (timer === null || $('#error').textContent) return; // still failing, or already listening
          clearInterval(timer);
          timer = null;
          listen();
        }), 3000);
      });
    };
    if ('EventSource' in window && !token) listen();
    else setInterval(update, 3000);
  }

  refresh().then(() => show(state.latest)).then(follow, failToLoad).catch(fail);
})();
