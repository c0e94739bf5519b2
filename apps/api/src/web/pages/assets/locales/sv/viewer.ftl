# Reprisvisaren (apps/api/src/web/viewer). Sidan skriver korten med symboler (K♥).
page-title = Bismarck — titta på partiet
page-title-missing = Bismarck — partiet finns inte
play-link = spela ett parti
table-heading = Bordet
controls-heading = Bläddra genom partiet
fork-heading = Spela vidare
scorecard-heading = Poängtabell
analysis-heading-plain = Analys
analysis-heading = Analys av giv { $deal }

## Partiet i sidhuvudet
schedule-name = { $schedule ->
    [quick] snabbt parti
    [modern] modernt parti
   *[traditional] traditionellt parti
}
match-status = { $status ->
    [waiting] väntar på spelare
    [playing] pågår
    [finished] avslutat
   *[abandoned] övergivet
}
badge-seeded = fast frö: inte bevisligen rättvist
badge-audit-ok = granskning godkänd · bevisligen rättvisa givar { $fair }/{ $deals }
badge-audit-failed = granskningen MISSLYCKADES vid steg { $version }
badge-committed = varje kortlek låses före given
badge-forked = en förgrening av { $match } vid steg { $version }
fairness-explained = En bevisligen rättvis giv är en där tjänsten band sig vid kortleken (publicerade ett fingeravtryck av sitt hemliga frö) innan en spelare lyfte av, och avslöjade fröet efteråt, så att vem som helst kan kontrollera att korten inte ändrades.
fairness-seeded = Det här partiet gavs från ett valt frö (ett övningsparti eller en förgrening): vem som helst kan återskapa korten, så givarna är inte bevisligen rättvisa.
fairness-audit-link = Se granskningen av partiet

## Steg
step-first =
    .title = Första steget (Home)
step-first-name = Första steget
step-prev =
    .title = Föregående steg (←)
step-prev-name = Föregående steg
step-next =
    .title = Nästa steg (→)
step-next-name = Nästa steg
step-last =
    .title = Sista steget, och följ direkt (End)
step-last-name = Sista steget, och följ direkt
slider =
    .aria-label = Steg
slider-value = steg { $version } av { $latest }
step-position = steg { $version } av { $latest }
jump-prev-deal = « giv
    .title = Föregående giv (Shift+[ eller Shift+Page Up)
jump-prev-trick = ‹ stick
    .title = Föregående stick ([ eller Page Up)
jump-next-trick = stick ›
    .title = Nästa stick (] eller Page Down)
jump-next-deal = giv »
    .title = Nästa giv (Shift+] eller Shift+Page Down)
follow-live = följ direkt
to-scorecard = poängtabell

## Stegraden: var i partiet, sedan vad som hände
step-deal = Giv { $deal }
step-trick = Giv { $deal } · stick { $trick }
event-match-created = Partiet är upplagt
event-seat-joined = { $who } sätter sig
event-table-abandoned = Bordet stängdes: ingen tog de lediga platserna
event-deck-committed = Givaren förseglar nästa kortlek
event-deck-cut = { $who } lyfter av
event-deal-started = { $dealer } ger, { $forehand } är i förhand
event-hands-dealt = Korten är givna, 16 till var och en
event-contract-chosen = { $contract ->
    [trump] { $who } väljer trumf { $suit }
    [spades] { $who } väljer spader
    [notrump] { $who } väljer sang
   *[pass] { $who } väljer pass
}
event-cards-laid-away = { $who } lägger bort fyra kort
event-cards-laid-away-shown = { $who } lägger bort { $cards }
event-card-played = { $who } spelar { $card }
event-card-played-stand-in = En ersättare spelar { $card } åt { $who }
event-trick-taken = { $who } tar sticket
event-deal-voided = { $who } spelade ut före bortläggningen: given görs om
event-deal-scored = Giv { $deal } är räknad
event-seed-revealed = Kortlekens hemliga frö avslöjas: vem som helst kan kontrollera given
event-turn-timed-out = { $who } fick slut på tid: en ersättare spelar åt dem
event-seat-returned = { $who } är tillbaka vid bordet
event-match-finished = { $count ->
    [one] Partiet är slut: { $winners } vinner
   *[other] Partiet är slut: { $winners } vinner
}
event-rematch-offered = { $who } vill spela igen
event-other = Partiet fortsätter

## Bordet
seat-unnamed = ledig plats { $seat }
seat-twin = { $name } (plats { $seat })
role-bot = bot: { $bot }
role-dealer = givare
role-forehand = förhand
role-you = du
seat-stats = { $tricks ->
    [one] 1 stick
   *[other] { $tricks } stick
} · totalt { $total }
seat-hidden-cards = { $n ->
    [one] ett kort med baksidan upp
   *[other] { $n } kort med baksidan upp
}
seat-laid-away = bortlagt
info-finished = { $count ->
    [one] Slut · vinnare: { $winners }
   *[other] Slut · vinnare: { $winners }
}
info-waiting = Väntar på spelare
info-before = Före första given
info-deal = Giv { $deal } av { $deals }
info-choosing = { $who } väljer spel
info-turn = tur: { $who }
last-trick = { $who } tog förra sticket:
contract-name = { $contract ->
    [spades] spader
    [trump] trumf
    [notrump] sang
   *[pass] pass
}
contract-none = inget spel valt än
card-label = { $suit ->
    [S] spader { $rank }
    [H] hjärter { $rank }
    [D] ruter { $rank }
   *[C] klöver { $rank }
}
suit-name = { $suit ->
    [S] spader
    [H] hjärter
    [D] ruter
   *[C] klöver
}
cost-tricks = { $n ->
    [one] kostade 1 stick
   *[other] kostade { $n } stick
}

## Analysen av en räknad giv (alla kort synliga, varje spelare mot de två andra)
analysis-pending = Datorn analyserar varje kort i giv { $deal }…
verdict-best = { $who }, { $card }: bästa kortet
verdict-cost = { $n ->
    [one] { $who }, { $card }: kostade 1 stick
   *[other] { $who }, { $card }: kostade { $n } stick
}
verdict-unknown = { $who }, { $card }: datorn hann inte söka igenom den här ställningen inom sin budget, så det finns inget utlåtande.
analysis-par = Med alla kort synliga kunde varje spelare mot de två andra ha tagit: { $par }
analysis-par-seat = { $tricks ->
    [one] { $who } 1 stick ({ $points })
   *[other] { $who } { $tricks } stick ({ $points })
}
analysis-par-seat-unknown = { $who }: inget utlåtande
analysis-par-unknown = Vad varje spelare kunde ha tagit från första utspelet: datorn hann inte söka igenom den här ställningen inom sin budget, så det finns inget utlåtande.
analysis-costly = Kort som kostade stick:
analysis-none-costly = Varje spelat kort var ett bästa kort.
analysis-costly-card = { $n ->
    [one] stick { $trick } · { $who } · kostade 1 stick
   *[other] stick { $trick } · { $who } · kostade { $n } stick
}
analysis-some-unsolved = Några tidiga kort har inget utlåtande: datorn hann inte söka igenom dem inom sin budget.

## Poängtabellen
scorecard-deal = giv
scorecard-forehand = förhand
scorecard-contract = spel
scorecard-in-play = pågår
scorecard-final = slut
scorecard-totals-at = poäng vid steg { $version }

## Spela vidare, och problem
fork-button = Spela vidare härifrån
fork-made = Ett nytt parti från steg { $version }, med samma kort därifrån:
fork-seat = spela { $name }s plats
fork-watch = titta på det
missing-heading = Partiet ”{ $id }” finns inte
missing-text = Det finns inget parti med det här id:t. Kontrollera länken: ett parti-id ser ut som 1b4e28ba-2fa1-4f2c-883f-0cda2b9c6e1a.
missing-play-link = Starta ett parti mot botar eller med vänner
missing-docs-link = Skriv en klient: API-dokumentationen
load-failed-heading = Partiet kunde inte läsas in
error-unreachable = Tjänsten svarar inte. Kontrollera anslutningen; sidan försöker igen och fortsätter av sig själv när tjänsten svarar.
