# Bordet (/play och /play/{id}): lobbyn, att ta en plats, bordet, poängtabellen.
# Spelets ord, desamma överallt: förhand, givare, stick, trumf, spader, sang, pass, kupera, lägga bort.

## Sidan och huvudet
page-title = Bismarck — bord
title-lobby = Bismarck — starta ett parti
title-offer = Bismarck — din plats
title-join = Bismarck — ta en plats
title-closed = Bismarck — bordet är stängt
title-no-match = Bismarck — partiet finns inte
title-turn = ● Din tur — Bismarck
title-finished = Partiet är slut — Bismarck
nav-new-match = nytt parti
nav-viewer = uppspelning
nav-rules = regler

## Lobbyn
lobby-title = Starta ett parti
your-name = Ditt namn
name-field =
    .placeholder = namnet de andra ser
lobby-schedule = Schema
schedule-option-quick = snabbt (3 givar)
schedule-option-modern = modernt (12 givar)
schedule-option-traditional = traditionellt (9 givar)
schedule-name = { $schedule ->
    [quick] snabbt
    [modern] modernt
    [traditional] traditionellt
   *[other] { $schedule }
}
lobby-others = De två andra platserna
others-bots = två robotar
others-friend = en vän och en robot
others-friends = två vänner
lobby-bots = Robotar
bot-greedy = girig
bot-strong = stark
bot-random = slumpvis
bot-help = slumpvis spelar vilket tillåtet kort som helst; girig tar sticket när den kan, utan att planera; stark planerar framåt genom att spela igenom de givar som de dolda korten kan ge.
lobby-clock = Turklocka
clock-off = av
clock-30 = 30 s per tur
clock-60 = 60 s per tur
clock-120 = 2 min per tur
clock-help = Med klocka spelar en robot turen åt en spelare vars tid tar slut; efter två missade turer i rad spelar roboten vidare åt dem tills de kommer tillbaka.
lobby-start = Starta partiet
lobby-help = Tjänsten spelar robotarna. En vän ansluter med bordets länk, som bordet visar dig. Den här webbläsaren minns din plats tills partiet är slut; bordet visar också platsens egen länk, så att du kan ta tillbaka den på en annan enhet.
lobby-help-player = Tjänsten spelar robotarna. En vän ansluter med bordets länk, som bordet visar dig. Din plats hör till din spelare: ”Mina partier” ovanför visar bordet på varje enhet där du loggar in.
lobby-rules = Så spelar man: reglerna för Bismarck
lobby-plays-as = Du spelar som { $name }, din spelare: dess nyckel ger dig platsen vid bordet på vilken enhet som helst.

## En plats som den här webbläsaren hade, och en ledig plats vid ett väntande bord
offer-title = Din plats vid det här bordet
offer-take-back = Ta tillbaka min plats
offer-forget = Inte jag: glöm den i den här webbläsaren
offer-who = Den här webbläsaren hade platsen för { $name } vid det här bordet (plats { $seat }).
offer-who-open = Den här webbläsaren hade plats { $seat } vid det här bordet.
join-title = Ta en plats vid det här bordet
join-button = Ta en plats
join-who = Vid bordet: { $names }. { $open ->
    [one] En plats är ledig
   *[other] { $open } platser är lediga
}; partiet börjar när alla platser är tagna ({ $schedule }).
join-as = Du tar den som { $name }, din spelare.
seat-bot-name = { $name } (robot)
problem-table-full = Bordet är fullt
    .detail = Alla platser togs under tiden.
closed-title = Det här bordet stängdes
closed-detail = Ingen tog de lediga platserna i tid.
start-new-match = Starta ett nytt parti
needs-link-title = Det här bordet behöver länken till din plats
needs-link-detail = Öppna länken till din plats: bordet visar den under ”Länken till din plats”, och den slutar på #token=….
watch-match = Titta på det här partiet

## Problem som sidan själv möter
problem-unreachable = Tjänsten går inte att nå
    .detail = Kontrollera anslutningen; sidan försöker igen och fortsätter av sig själv när tjänsten svarar.
something-wrong = Något gick fel

## Bordet
table-region =
    .aria-label = Bordet
table-cards-region =
    .aria-label = Bordskorten
trick-region =
    .aria-label = Sticket som spelas
me-region =
    .aria-label = Din plats
hand-region =
    .aria-label = Din hand
scorecard-region =
    .aria-label = Poängtabell
seat-tools-region =
    .aria-label = Länken till din plats
open-seat = ledig plats { $seat }
seat-twin = { $name } (plats { $seat })
me-name = { $name } (du)
you = du
tally = { $contract ->
    [none] stick { $taken } · totalt { $total }
    [pass] stick { $taken }, högst { $quota } · totalt { $total }
   *[other] stick { $taken } av { $quota } · totalt { $total }
}
card-count = { $n ->
    [one] 1 kort
   *[other] { $n } kort
}
backs =
    .aria-label = { $n ->
        [one] 1 kort med baksidan upp
       *[other] { $n } kort med baksidan upp
    }
online = ansluten
offline = frånkopplad
bot-badge = robot: { $bot ->
    [greedy] girig
    [strong] stark
    [random] slumpvis
   *[other] { $bot }
}
dealer = givare
forehand = förhand
to-act = på tur
match-over = Partiet är slut · { $n ->
    [one] vinnare
   *[other] vinnare
}: { $names }
deal-of = Giv { $number } av { $total }
contract-now = { $contract ->
    [spades] spader
    [trump] trumf
    [notrump] sang
   *[pass] pass (ta få stick)
}
your-turn = din tur
seat-to-act = { $name } är på tur
waiting-players = Väntar på att någon tar de lediga platserna
table-closed = Det här bordet stängdes: ingen tog de lediga platserna i tid
match-status = Partiet är { $status }
table-cards = bordskort
taken-by = taget av { $name }
taken-by-you = taget av dig
last-trick-show = visa förra sticket (L)
last-trick-hide = dölj förra sticket (L)
last-trick = förra sticket, till { $name }:
last-trick-you = förra sticket, till dig:
laid-away = bortlagda:

## Vad platsen kan göra
waiting = Väntar…
waiting-for = Väntar på { $name }…
you-deal = Du ger den här gången.
deal-button = Ge (D)
cut-intro = Du får kupera nästa kortlek (frivilligt; givaren kan ge först).
cut-label = Din kupering
cut-hint = Vilka 1 till 64 bokstäver, siffror, mellanslag eller tecken som helst — t.ex. Bjørn eller lycka till; blandas in när kortleken blandas, så att ingen, inte ens tjänsten, väljer kortleken ensam.
cut-field =
    .placeholder = tomt: en slumpvis
cut-button = Kupera (U)
problem-cut-too-long = En kupering har högst 64 tecken
    .detail = Din har { $n }: korta ner den.
choose-contract = Välj spelsätt:
choose-contract-blind = Välj spelsätt (blint: utifrån de fyra bordskorten; din hand kommer sedan):
contract-button = { $contract ->
    [spades] spader (♠ är trumf)
    [notrump] sang (utan trumf)
   *[pass] pass (ta få stick)
}
free-trump = fri trumf
help-spades = spader: spader är trumf
help-trump = fri trumf: du väljer trumffärgen
help-trump-spades = fri trumf: du väljer trumffärgen (även ♠: samma kort, men ett annat spelsätt)
help-notrump = sang: ingen färg är trumf
help-pass = pass: ta så få stick du kan
help-quotas = Kvoter: du 8 stick, de andra 4 var; i pass du högst 4, de andra högst 6 (där är färre bättre).
help-once = Varje förhand spelar varje spelsätt en gång i partiet: det här är de du har kvar.
lay-away-intro = Lägg bort { $count } kort med baksidan upp: välj dem på handen ({ $picked } av { $count } valda).
lay-away-button = Lägg bort { $count } (A)
play-now = Din tur: spela ett av de upplyfta korten.
unknown-action = Tjänsten ber om ”{ $action }”, som den här sidan inte känner till.
invite = { $open ->
    [one] Väntar på en spelare till. Skicka länken till en vän: öppnad i en webbläsare erbjuder den den lediga platsen.
   *[other] Väntar på { $open } spelare till. Skicka länken till dina vänner: öppnad i en webbläsare erbjuder den de lediga platserna.
}
invite-link =
    .aria-label = Länk till det här bordet
copy-link = Kopiera länken
copied = Kopierad
invite-bots = Eller låt tjänsten spela en plats:
bot-for-seat = en robot på ledig plats { $seat }

## Slutet på ett parti
play-again = Spela igen
join-rematch = Gå med i returpartiet
match-over-below = Partiet är slut: den slutliga poängtabellen finns nedan.
or-new-match = eller starta ett nytt parti

## Poängtabellen
scorecard = Poängtabell
final-scorecard = Slutlig poängtabell
scorecard-deal =
    .title = giv
scorecard-forehand = förhand
scorecard-contract = spelsätt
contract-short = { $contract ->
    [spades] spader
    [trump] trumf
    [notrump] sang
   *[pass] pass
}
in-play = spelas nu
totals = totalt
final = slut
winners = { $n ->
    [one] Vinnare
   *[other] Vinnare
}: { $names }
scoring-zeroSum = Poäng: du får en poäng för varje stick över din kvot och förlorar en för varje som fattas; i pass tvärtom (färre är bättre). Kvoter: förhand 8, de andra 4; i pass förhand högst 4, de andra högst 6. Poängen i en giv blir sammanlagt 0; högsta summa vinner.
scoring-overOnly = Poäng: du får en poäng för varje stick över din kvot; att hamna under kostar ingenting. I pass räknas i stället sticken du håller dig under den. Kvoter: förhand 8, de andra 4; i pass förhand högst 4, de andra högst 6. Högsta summa vinner.
scoring-other = Poäng: { $scoring }.

## Turklockan
clock-badge =
    .title = tid kvar av turen
    .aria-label = { $n ->
        [one] 1 sekund kvar av turen
       *[other] { $n } sekunder kvar av turen
    }
away-note = { $name } är borta — en robot spelar åt dem
back-away = Du var borta: en robot spelar åt dig.
back-detail = Den spelar direkt tills du kommer tillbaka.
back-button = Tillbaka till bordet
notify-title = Din tur — Bismarck
notify-body = Det är din tur vid bordet.
notify-intro = Spelar du i en annan flik?
notify-button = Meddela mig när det är min tur

## Länken till platsen
seat-link-title = Länken till din plats
seat-link-help = Öppna den på vilken enhet som helst för att ta tillbaka din plats, till exempel efter att du stängt den här fliken. Den är bara din: dela den inte (bordets adress utan den är för vänner).
seat-player-help = Den här platsen är också knuten till din spelare: dess nyckel ger dig platsen här på varje enhet där du loggar in med den.
seat-link-field =
    .aria-label = Länken till din plats
copy-seat-link = Kopiera din länk
seat-devices-title = Din plats på andra enheter
seat-bound-help = Den här platsen är knuten till din spelare, { $name }: logga in med spelarens nyckel på vilken enhet som helst så ger bordet dig platsen där. Ingen platslänk behövs.

## Spelarpanelen
player-title = Spelare
player-intro = En spelare håller ihop dina partier: dess nyckel ger dig dina platser på vilken enhet som helst.
player-refused = Den här webbläsarens spelarnyckel avvisades (återkallad, eller spelaren raderad), så den glömdes här. Logga in med en annan nyckel för spelaren, eller skapa en spelare.
new-player-name = Namn på en ny spelare
create-player = Skapa en spelare
sign-in-token = Logga in med en nyckel
sign-in = Logga in
sign-in-help = Nyckeln visades en gång, när spelaren skapades.
not-player-token = Det är ingen spelarnyckel: en spelarnyckel börjar med bskp_ (en platslänk öppnas, den klistras inte in här).
token-unknown = Tjänsten känner inte till den här nyckeln (felskriven, återkallad, eller spelaren raderad).
signed-in-as = Inloggad som
sign-out = Logga ut
signed-out = Utloggad: den här webbläsaren har inte längre spelarens nyckel.
my-matches = Mina partier
my-matches-unread = Dina partier kunde inte läsas: { $message }
no-match-in-play = Inga pågående partier.
player-unread = Spelaren kunde inte läsas: { $message }
player-token-field =
    .aria-label = Din spelarnyckel
token-once = Din spelarnyckel, visas bara nu.
token-once-help = Den är spelarens nyckel på alla enheter: logga in med den där du spelar. Förvara den som ett lösenord; den som har den spelar som du.
copy-token = Kopiera nyckeln
token-kept = Jag har sparat den
match-with = mot { $names }
an-open-seat = en ledig plats
waiting-for-players = väntar på spelare

## Kort för skärmläsare: den synliga texten först (röststyrning nämner en knapp efter det den visar)
suit-name = { $suit ->
    [S] spader
    [H] hjärter
    [D] ruter
   *[C] klöver
}
card-name = { $suit ->
    [S] spader
    [H] hjärter
    [D] ruter
   *[C] klöver
} { $rank ->
    [A] ess
    [K] kung
    [Q] dam
    [J] knekt
    [T] 10
   *[other] { $rank }
}
card-button =
    .aria-label = { $shown }, { $suit ->
        [S] spader
        [H] hjärter
        [D] ruter
       *[C] klöver
    } { $rank ->
        [A] ess
        [K] kung
        [Q] dam
        [J] knekt
        [T] 10
       *[other] { $rank }
    }

## Tangenterna
keys-title = Tangentbord
keys-move = flytta längs handen
keys-play = spelar kortet (när du lägger bort: väljer det eller tar bort valet)
keys-lay-away = lägger bort de fyra valda korten
keys-contract = välj spelsättet som står vid den siffran
keys-deal = ger (när du ger)
keys-cut = kuperar (när du kuperar)
keys-last = visar eller döljer förra sticket
