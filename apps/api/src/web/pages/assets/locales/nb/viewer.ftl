# Reprisevisningen (apps/api/src/web/viewer). Siden skriver kortene med symboler (K♥).
page-title = Bismarck — se partiet
page-title-missing = Bismarck — partiet finnes ikke
play-link = spill et parti
table-heading = Bordet
controls-heading = Bla gjennom partiet
fork-heading = Spill videre
scorecard-heading = Poengtavle
analysis-heading-plain = Analyse
analysis-heading = Analyse av giv { $deal }

## Partiet i toppen
schedule-name = { $schedule ->
    [quick] kort parti
    [modern] moderne parti
   *[traditional] tradisjonelt parti
}
match-status = { $status ->
    [waiting] venter på spillere
    [playing] i gang
    [finished] ferdig
   *[abandoned] forlatt
}
badge-seeded = fast frø: ikke bevisbart rettferdig
badge-audit-ok = revisjon godkjent · bevisbart rettferdige giv { $fair }/{ $deals }
badge-audit-failed = revisjonen FEILET ved trinn { $version }
badge-committed = hver kortstokk er låst før given
badge-forked = en avgreining av { $match } ved trinn { $version }
fairness-explained = Et bevisbart rettferdig giv er et der tjenesten forpliktet seg til kortstokken (publiserte et fingeravtrykk av sitt hemmelige frø) før en spiller tok av, og avslørte frøet etterpå, slik at hvem som helst kan sjekke at kortene ikke ble endret.
fairness-seeded = Dette partiet ble gitt fra et valgt frø (et øvingsparti eller en avgreining): hvem som helst kan gjenskape kortene, så givene er ikke bevisbart rettferdige.
fairness-audit-link = Se revisjonen av partiet

## Trinn
step-first =
    .title = Første trinn (Home)
step-first-name = Første trinn
step-prev =
    .title = Forrige trinn (←)
step-prev-name = Forrige trinn
step-next =
    .title = Neste trinn (→)
step-next-name = Neste trinn
step-last =
    .title = Siste trinn, og følg direkte (End)
step-last-name = Siste trinn, og følg direkte
slider =
    .aria-label = Trinn
slider-value = trinn { $version } av { $latest }
step-position = trinn { $version } av { $latest }
jump-prev-deal = « giv
    .title = Forrige giv (Shift+[ eller Shift+Page Up)
jump-prev-trick = ‹ stikk
    .title = Forrige stikk ([ eller Page Up)
jump-next-trick = stikk ›
    .title = Neste stikk (] eller Page Down)
jump-next-deal = giv »
    .title = Neste giv (Shift+] eller Shift+Page Down)
follow-live = følg direkte
to-scorecard = poengtavle

## Trinnlinjen: hvor i partiet, så hva som skjedde
step-deal = Giv { $deal }
step-trick = Giv { $deal } · stikk { $trick }
event-match-created = Partiet er satt opp
event-seat-joined = { $who } setter seg
event-table-abandoned = Bordet ble stengt: ingen tok de ledige plassene
event-deck-committed = Giveren forsegler neste kortstokk
event-deck-cut = { $who } tar av
event-deal-started = { $dealer } gir, { $forehand } er i forhånd
event-hands-dealt = Kortene er gitt, 16 til hver
event-contract-chosen = { $contract ->
    [trump] { $who } velger trumf { $suit }
    [spades] { $who } velger spar
    [notrump] { $who } velger sans
   *[pass] { $who } velger pass
}
event-cards-laid-away = { $who } legger bort fire kort
event-cards-laid-away-shown = { $who } legger bort { $cards }
event-card-played = { $who } spiller { $card }
event-card-played-stand-in = En stedfortreder spiller { $card } for { $who }
event-trick-taken = { $who } tar stikket
event-deal-voided = { $who } spilte ut før bortleggingen: given gis på nytt
event-deal-scored = Giv { $deal } er talt opp
event-seed-revealed = Kortstokkens hemmelige frø avsløres: hvem som helst kan sjekke given
event-turn-timed-out = { $who } gikk tom for tid: en stedfortreder spiller for dem
event-seat-returned = { $who } er tilbake ved bordet
event-match-finished = { $count ->
    [one] Partiet er ferdig: { $winners } vinner
   *[other] Partiet er ferdig: { $winners } vinner
}
event-rematch-offered = { $who } ber om returparti
event-other = Partiet fortsetter

## Bordet
seat-unnamed = ledig plass { $seat }
seat-twin = { $name } (plass { $seat })
role-bot = bot: { $bot }
role-dealer = giver
role-forehand = forhånd
role-you = du
seat-stats = { $tricks ->
    [one] 1 stikk
   *[other] { $tricks } stikk
} · totalt { $total }
seat-hidden-cards = { $n ->
    [one] ett kort med baksiden opp
   *[other] { $n } kort med baksiden opp
}
seat-laid-away = lagt bort
info-finished = { $count ->
    [one] Ferdig · vinner: { $winners }
   *[other] Ferdig · vinnere: { $winners }
}
info-waiting = Venter på spillere
info-before = Før første giv
info-deal = Giv { $deal } av { $deals }
info-choosing = { $who } velger spill
info-turn = tur: { $who }
last-trick = { $who } tok forrige stikk:
contract-name = { $contract ->
    [spades] spar
    [trump] trumf
    [notrump] sans
   *[pass] pass
}
contract-none = ikke valgt ennå
card-label = { $suit ->
    [S] spar { $rank }
    [H] hjerter { $rank }
    [D] ruter { $rank }
   *[C] kløver { $rank }
}
suit-name = { $suit ->
    [S] spar
    [H] hjerter
    [D] ruter
   *[C] kløver
}
cost-tricks = { $n ->
    [one] kostet 1 stikk
   *[other] kostet { $n } stikk
}

## Analysen av et opptalt giv (alle kort synlige, hver spiller mot de to andre)
analysis-pending = Datamaskinen analyserer hvert kort i giv { $deal }…
verdict-best = { $who }, { $card }: beste kort
verdict-cost = { $n ->
    [one] { $who }, { $card }: kostet 1 stikk
   *[other] { $who }, { $card }: kostet { $n } stikk
}
verdict-unknown = { $who }, { $card }: datamaskinen rakk ikke å søke gjennom denne stillingen innenfor budsjettet sitt, så det finnes ingen dom.
analysis-par = Med alle kort synlige kunne hver spiller mot de to andre ha tatt: { $par }
analysis-par-seat = { $tricks ->
    [one] { $who } 1 stikk ({ $points })
   *[other] { $who } { $tricks } stikk ({ $points })
}
analysis-par-seat-unknown = { $who }: ingen dom
analysis-par-unknown = Hva hver spiller kunne ha tatt fra første utspill: datamaskinen rakk ikke å søke gjennom denne stillingen innenfor budsjettet sitt, så det finnes ingen dom.
analysis-costly = Kort som kostet stikk:
analysis-none-costly = Hvert kort som ble spilt, var et beste kort.
analysis-costly-card = { $n ->
    [one] stikk { $trick } · { $who } · kostet 1 stikk
   *[other] stikk { $trick } · { $who } · kostet { $n } stikk
}
analysis-some-unsolved = Noen tidlige kort har ingen dom: datamaskinen rakk ikke å søke dem gjennom innenfor budsjettet sitt.

## Poengtavlen
scorecard-deal = giv
scorecard-forehand = forhånd
scorecard-contract = spill
scorecard-in-play = i gang
scorecard-final = slutt
scorecard-totals-at = poeng ved trinn { $version }

## Spill videre, og problemer
fork-button = Spill videre herfra
fork-made = Et nytt parti fra trinn { $version }, med de samme kortene derfra:
fork-seat = spill plassen til { $name }
fork-watch = se på det
missing-heading = Partiet «{ $id }» finnes ikke
missing-text = Det finnes ikke noe parti med denne id-en. Sjekk lenken: en parti-id ser ut som 1b4e28ba-2fa1-4f2c-883f-0cda2b9c6e1a.
missing-play-link = Start et parti mot boter eller med venner
missing-docs-link = Skriv en klient: API-dokumentasjonen
load-failed-heading = Partiet kunne ikke lastes
error-unreachable = Tjenesten svarer ikke. Sjekk tilkoblingen; siden prøver igjen og fortsetter av seg selv når tjenesten svarer.
