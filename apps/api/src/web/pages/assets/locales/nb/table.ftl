# Bordet (/play og /play/{id}): lobbyen, å ta en plass, bordet, poengtavlen.
# Spillets ord, de samme overalt: forhånd, giver, stikk, trumf, spar, sans, pass, ta av, legge bort.

## Siden og toppen
page-title = Bismarck — bord
title-lobby = Bismarck — start et parti
title-offer = Bismarck — plassen din
title-join = Bismarck — ta en plass
title-closed = Bismarck — bordet er stengt
title-no-match = Bismarck — partiet finnes ikke
title-turn = ● Din tur — Bismarck
title-finished = Partiet er over — Bismarck
nav-new-match = nytt parti
nav-viewer = avspilling
nav-rules = regler

## Lobbyen
lobby-title = Start et parti
your-name = Navnet ditt
name-field =
    .placeholder = navnet de andre ser
lobby-schedule = Oppsett
schedule-option-quick = raskt (3 giv)
schedule-option-modern = moderne (12 giv)
schedule-option-traditional = tradisjonelt (9 giv)
schedule-name = { $schedule ->
    [quick] raskt
    [modern] moderne
    [traditional] tradisjonelt
   *[other] { $schedule }
}
lobby-others = De to andre plassene
others-bots = to roboter
others-friend = en venn og en robot
others-friends = to venner
lobby-bots = Roboter
bot-greedy = grådig
bot-strong = sterk
bot-random = tilfeldig
bot-help = tilfeldig spiller et hvilket som helst lovlig kort; grådig tar stikket når den kan, uten å planlegge; sterk planlegger fremover ved å spille gjennom givene de skjulte kortene kan gi.
lobby-clock = Turklokke
clock-off = av
clock-30 = 30 s per tur
clock-60 = 60 s per tur
clock-120 = 2 min per tur
clock-help = Med klokke spiller en robot turen for en spiller som går tom for tid; etter to tapte turer på rad spiller roboten videre for dem til de kommer tilbake.
lobby-start = Start partiet
lobby-help = Tjenesten spiller robotene. En venn blir med via bordets lenke, som bordet viser deg. Denne nettleseren husker plassen din til partiet er over; bordet viser også plassens egen lenke, så du kan ta den tilbake på en annen enhet.
lobby-help-player = Tjenesten spiller robotene. En venn blir med via bordets lenke, som bordet viser deg. Plassen din tilhører spilleren din: «Mine partier» ovenfor viser bordet på alle enheter der du logger inn.
lobby-rules = Slik spiller du: reglene for Bismarck
lobby-plays-as = Du spiller som { $name }, spilleren din: nøkkelen dens gir deg plassen ved bordet på alle enheter.

## En plass denne nettleseren hadde, og en ledig plass ved et ventende bord
offer-title = Plassen din ved dette bordet
offer-take-back = Ta plassen min tilbake
offer-forget = Ikke meg: glem den i denne nettleseren
offer-who = Denne nettleseren hadde plassen til { $name } ved dette bordet (plass { $seat }).
offer-who-open = Denne nettleseren hadde plass { $seat } ved dette bordet.
join-title = Ta en plass ved dette bordet
join-button = Ta en plass
join-who = Ved bordet: { $names }. { $open ->
    [one] Én plass er ledig
   *[other] { $open } plasser er ledige
}; partiet starter når alle plassene er tatt ({ $schedule }).
join-as = Du tar den som { $name }, spilleren din.
seat-bot-name = { $name } (robot)
problem-table-full = Bordet er fullt
    .detail = Alle plassene ble tatt i mellomtiden.
closed-title = Dette bordet ble stengt
closed-detail = Ingen tok de ledige plassene i tide.
start-new-match = Start et nytt parti
needs-link-title = Dette bordet trenger lenken til plassen din
needs-link-detail = Åpne lenken til plassen din: bordet viser den under «Lenken til plassen din», og den slutter på #token=….
watch-match = Se dette partiet

## Problemer siden møter selv
problem-unreachable = Tjenesten kan ikke nås
    .detail = Sjekk tilkoblingen; siden prøver igjen og fortsetter av seg selv når tjenesten svarer.
something-wrong = Noe gikk galt

## Bordet
table-region =
    .aria-label = Bordet
table-cards-region =
    .aria-label = Bordkortene
trick-region =
    .aria-label = Stikket som spilles
me-region =
    .aria-label = Plassen din
hand-region =
    .aria-label = Hånden din
scorecard-region =
    .aria-label = Poengtavle
seat-tools-region =
    .aria-label = Lenken til plassen din
open-seat = ledig plass { $seat }
seat-twin = { $name } (plass { $seat })
me-name = { $name } (deg)
you = deg
tally = { $contract ->
    [none] stikk { $taken } · totalt { $total }
    [pass] stikk { $taken }, høyst { $quota } · totalt { $total }
   *[other] stikk { $taken } av { $quota } · totalt { $total }
}
card-count = { $n ->
    [one] 1 kort
   *[other] { $n } kort
}
backs =
    .aria-label = { $n ->
        [one] 1 kort med baksiden opp
       *[other] { $n } kort med baksiden opp
    }
online = tilkoblet
offline = frakoblet
bot-badge = robot: { $bot ->
    [greedy] grådig
    [strong] sterk
    [random] tilfeldig
   *[other] { $bot }
}
dealer = giver
forehand = forhånd
to-act = i tur
match-over = Partiet er over · { $n ->
    [one] vinner
   *[other] vinnere
}: { $names }
deal-of = Giv { $number } av { $total }
contract-now = { $contract ->
    [spades] spar
    [trump] trumf
    [notrump] sans
   *[pass] pass (ta få stikk)
}
your-turn = din tur
seat-to-act = { $name } er i tur
waiting-players = Venter på at noen tar de ledige plassene
table-closed = Dette bordet ble stengt: ingen tok de ledige plassene i tide
match-status = Partiet er { $status }
table-cards = bordkort
taken-by = tatt av { $name }
taken-by-you = tatt av deg
last-trick-show = vis forrige stikk (L)
last-trick-hide = skjul forrige stikk (L)
last-trick = forrige stikk, til { $name }:
last-trick-you = forrige stikk, til deg:
laid-away = lagt bort:

## Hva plassen kan gjøre
waiting = Venter…
waiting-for = Venter på { $name }…
you-deal = Du gir denne gangen.
deal-button = Gi (D)
cut-intro = Du kan ta av den neste kortstokken (valgfritt; giveren kan gi først).
cut-label = Avtaket ditt
cut-hint = Hvilke som helst 1 til 64 bokstaver, sifre, mellomrom eller tegn — f.eks. Bjørn eller lykke til; blandes inn i stokkingen, så ingen, heller ikke tjenesten, velger kortstokken alene.
cut-field =
    .placeholder = tomt: et tilfeldig
cut-button = Ta av (U)
problem-cut-too-long = Et avtak har høyst 64 tegn
    .detail = Ditt har { $n }: gjør det kortere.
choose-contract = Velg melding:
choose-contract-blind = Velg melding (blindt: ut fra de fire bordkortene; hånden din kommer etterpå):
contract-button = { $contract ->
    [spades] spar (♠ er trumf)
    [notrump] sans
   *[pass] pass (ta få stikk)
}
free-trump = fri trumf
help-spades = spar: spar er trumf
help-trump = fri trumf: du bestemmer trumffargen
help-trump-spades = fri trumf: du bestemmer trumffargen (også ♠: de samme kortene, men en annen melding)
help-notrump = sans: ingen farge er trumf
help-pass = pass: ta så få stikk du kan
help-quotas = Kvoter: du 8 stikk, de andre 4 hver; i pass du høyst 4, de andre høyst 6 (der er færre bedre).
help-once = Hver forhånd spiller hver melding én gang i partiet: dette er de du har igjen.
lay-away-intro = Legg bort { $count } kort med baksiden opp: velg dem på hånden ({ $picked } av { $count } valgt).
lay-away-button = Legg bort { $count } (A)
play-now = Din tur: spill et av de løftede kortene.
unknown-action = Tjenesten ber om «{ $action }», som denne siden ikke kjenner.
invite = { $open ->
    [one] Venter på én spiller til. Send denne lenken til en venn: åpnet i en nettleser tilbyr den den ledige plassen.
   *[other] Venter på { $open } spillere til. Send denne lenken til vennene dine: åpnet i en nettleser tilbyr den de ledige plassene.
}
invite-link =
    .aria-label = Lenke til dette bordet
copy-link = Kopier lenken
copied = Kopiert
invite-bots = Eller la tjenesten spille en plass:
bot-for-seat = en robot på ledig plass { $seat }

## Slutten på et parti
play-again = Spill igjen
join-rematch = Bli med på returpartiet
match-over-below = Partiet er over: den endelige poengtavlen står nedenfor.
or-new-match = eller start et nytt parti

## Poengtavlen
scorecard = Poengtavle
final-scorecard = Endelig poengtavle
scorecard-deal =
    .title = giv
scorecard-forehand = forhånd
scorecard-contract = melding
contract-short = { $contract ->
    [spades] spar
    [trump] trumf
    [notrump] sans
   *[pass] pass
}
in-play = spilles nå
totals = totalt
final = slutt
winners = { $n ->
    [one] Vinner
   *[other] Vinnere
}: { $names }
scoring-zeroSum = Poeng: du får et poeng for hvert stikk over kvoten din og mister et for hvert du mangler; i pass er det omvendt (færre er bedre). Kvoter: forhånd 8, de andre 4; i pass forhånd høyst 4, de andre høyst 6. Poengene i et giv blir til sammen 0; høyeste sum vinner.
scoring-overOnly = Poeng: du får et poeng for hvert stikk over kvoten din; å komme under koster ingenting. I pass teller stikkene du holder deg under den i stedet. Kvoter: forhånd 8, de andre 4; i pass forhånd høyst 4, de andre høyst 6. Høyeste sum vinner.
scoring-other = Poeng: { $scoring }.

## Turklokken
clock-badge =
    .title = tid igjen av turen
    .aria-label = { $n ->
        [one] 1 sekund igjen av turen
       *[other] { $n } sekunder igjen av turen
    }
away-note = { $name } er borte — en robot spiller for dem
back-away = Du var borte: en robot spiller for deg.
back-detail = Den spiller med en gang til du kommer tilbake.
back-button = Tilbake til bordet
notify-title = Din tur — Bismarck
notify-body = Det er din tur ved bordet.
notify-intro = Spiller du i en annen fane?
notify-button = Varsle meg når det er min tur

## Lenken til plassen
seat-link-title = Lenken til plassen din
seat-link-help = Åpne den på en hvilken som helst enhet for å ta plassen din tilbake, for eksempel etter at du har lukket denne fanen. Den er bare din: ikke del den (bordets adresse uten den er for venner).
seat-player-help = Denne plassen er også knyttet til spilleren din: nøkkelen dens gir deg plassen her på alle enheter der du logger inn med den.
seat-link-field =
    .aria-label = Lenken til plassen din
copy-seat-link = Kopier lenken din
seat-devices-title = Plassen din på andre enheter
seat-bound-help = Denne plassen er knyttet til spilleren din, { $name }: logg inn med spillerens nøkkel på en hvilken som helst enhet, så gir bordet deg plassen der. Ingen plasslenke trengs.

## Spillerpanelet
player-title = Spiller
player-intro = En spiller holder partiene dine samlet: nøkkelen dens gir deg plassene dine på alle enheter.
player-refused = Denne nettleserens spillernøkkel ble avvist (tilbakekalt, eller spilleren slettet), så den er glemt her. Logg inn med en annen nøkkel for spilleren, eller opprett en spiller.
new-player-name = Navn på en ny spiller
create-player = Opprett en spiller
sign-in-token = Logg inn med en nøkkel
sign-in = Logg inn
sign-in-help = Nøkkelen ble vist én gang, da spilleren ble opprettet.
not-player-token = Det er ikke en spillernøkkel: en spillernøkkel begynner med bskp_ (en plasslenke åpnes, den limes ikke inn her).
token-unknown = Tjenesten kjenner ikke denne nøkkelen (feilskrevet, tilbakekalt, eller spilleren slettet).
signed-in-as = Logget inn som
sign-out = Logg ut
signed-out = Logget ut: denne nettleseren har ikke lenger spillerens nøkkel.
my-matches = Mine partier
my-matches-unread = Partiene dine kunne ikke leses: { $message }
no-match-in-play = Ingen partier pågår.
player-unread = Spilleren kunne ikke leses: { $message }
player-token-field =
    .aria-label = Spillernøkkelen din
token-once = Spillernøkkelen din, vist bare nå.
token-once-help = Den er spillerens nøkkel på alle enheter: logg inn med den der du spiller. Ta vare på den som et passord; den som har den, spiller som deg.
copy-token = Kopier nøkkelen
token-kept = Jeg har tatt vare på den
match-with = mot { $names }
an-open-seat = en ledig plass
waiting-for-players = venter på spillere

## Kort for skjermlesere: den synlige teksten først (stemmestyring nevner en knapp ved det den viser)
suit-name = { $suit ->
    [S] spar
    [H] hjerter
    [D] ruter
   *[C] kløver
}
card-name = { $suit ->
    [S] spar
    [H] hjerter
    [D] ruter
   *[C] kløver
} { $rank ->
    [A] ess
    [K] konge
    [Q] dame
    [J] knekt
    [T] 10
   *[other] { $rank }
}
card-button =
    .aria-label = { $shown }, { $suit ->
        [S] spar
        [H] hjerter
        [D] ruter
       *[C] kløver
    } { $rank ->
        [A] ess
        [K] konge
        [Q] dame
        [J] knekt
        [T] 10
       *[other] { $rank }
    }

## Tastene
keys-title = Tastatur
keys-move = flytt langs hånden
keys-play = spiller kortet (når du legger bort: velger det eller fjerner valget)
keys-lay-away = legger bort de fire valgte kortene
keys-contract = velg meldingen som står ved det tallet
keys-deal = gir (når du gir)
keys-cut = tar av (når du tar av)
keys-last = viser eller skjuler forrige stikk
