// The playable table: plays one seat of a match through the public API, like any other client.
// `/play` is a small lobby; `/play/{id}` is the table (`#token=…` in a link: the seat's token, which the
// page keeps in the tab's storage and takes out of the address bar at once). Plain DOM, no framework;
// each file a part of the page (an ES module).
import { $ } from '../../pages/assets/dom.js';
import { language, languagePicker, loadMessages } from '../../pages/assets/i18n.js';
import { arrive } from './arrive.js';
import { lobby } from './lobby.js';
import { pruneBrowserSeats } from './seats.js';
import { seated } from './table.js';

// Every text the modules draw comes from the catalogs: none is drawn before they are in.
await loadMessages(['common', 'problems', 'table', 'deal']);
$('header').append(languagePicker());
for (const link of [$('#rulesLink', HTMLAnchorElement), $('#lobbyRules', HTMLAnchorElement)]) link.href = `/rules?lang=${language()}`;

pruneBrowserSeats();
const parts = location.pathname.split('/').filter(Boolean);
if (parts.length < 2) lobby();
else {
  const id = decodeURIComponent(parts[1]);
  $('#viewerLink', HTMLAnchorElement).href = `/viewer/${encodeURIComponent(id)}`;
  $('#viewerLink').hidden = false;
  arrive(id, (token) => seated(id, token));
}
