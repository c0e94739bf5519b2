# Pöytä (/play ja /play/{id}): aula, paikan ottaminen, pöytä, pistetaulukko.
# Pelin sanat kaikkialla samat: etumies, jakaja, tikki, valtti, patavaltti, valtiton, passaus, nosto, pois laittaminen.

## Sivu ja sen otsikko
page-title = Bismarck — pöytä
title-lobby = Bismarck — aloita ottelu
title-offer = Bismarck — paikkasi
title-join = Bismarck — ota paikka
title-closed = Bismarck — pöytä suljettu
title-no-match = Bismarck — ottelua ei ole
title-turn = ● Sinun vuorosi — Bismarck
title-finished = Ottelu päättyi — Bismarck
nav-new-match = uusi ottelu
nav-viewer = uusintakatselu
nav-rules = säännöt

## Aula
lobby-title = Aloita ottelu
your-name = Nimesi
name-field =
    .placeholder = nimi, jonka muut näkevät
lobby-schedule = Ohjelma
schedule-option-quick = nopea (3 jakoa)
schedule-option-modern = moderni (12 jakoa)
schedule-option-traditional = perinteinen (9 jakoa)
schedule-name = { $schedule ->
    [quick] nopea
    [modern] moderni
    [traditional] perinteinen
   *[other] { $schedule }
}
lobby-others = Kaksi muuta paikkaa
others-bots = kaksi bottia
others-friend = ystävä ja botti
others-friends = kaksi ystävää
lobby-bots = Botit
bot-greedy = ahne
bot-strong = vahva
bot-random = satunnainen
bot-help = satunnainen pelaa minkä tahansa sallitun kortin; ahne ottaa tikin aina kun voi, suunnittelematta; vahva suunnittelee eteenpäin pelaamalla läpi jaot, joita piilossa olevat kortit voivat muodostaa.
lobby-clock = Vuorokello
clock-off = ei käytössä
clock-30 = 30 s vuoro
clock-60 = 60 s vuoro
clock-120 = 2 min vuoro
clock-help = Kellon kanssa botti pelaa vuoron sen pelaajan puolesta, jonka aika loppuu; kahden peräkkäin väliin jääneen vuoron jälkeen botti jatkaa hänen puolestaan, kunnes hän palaa.
lobby-start = Aloita ottelu
lobby-help = Palvelu pelaa botit. Ystävä liittyy pöydän linkillä, jonka pöytä näyttää sinulle. Tämä selain pitää paikkasi ottelun loppuun; pöytä näyttää myös paikkasi oman linkin, jolla otat sen takaisin toisella laitteella.
lobby-help-player = Palvelu pelaa botit. Ystävä liittyy pöydän linkillä, jonka pöytä näyttää sinulle. Paikkasi kuuluu pelaajallesi: yllä oleva ”Omat ottelut” listaa pöydän jokaisella laitteella, jolla kirjaudut.
lobby-rules = Näin pelataan: Bismarckin säännöt
lobby-plays-as = Pelaat pelaajana { $name }: sen tunniste vie sinut pöytään millä tahansa laitteella.

## Paikka, jota tämä selain piti, ja odottavan pöydän vapaa paikka
offer-title = Paikkasi tässä pöydässä
offer-take-back = Ota paikkani takaisin
offer-forget = En ole minä: unohda se tässä selaimessa
offer-who = Tämä selain piti tässä pöydässä paikkaa, jonka pelaaja on { $name } (paikka { $seat }).
offer-who-open = Tämä selain piti tässä pöydässä paikkaa { $seat }.
join-title = Ota paikka tästä pöydästä
join-button = Ota paikka
join-who = Pöydässä: { $names }. { $open ->
    [one] Yksi paikka on vapaana
   *[other] { $open } paikkaa on vapaana
}; ottelu alkaa, kun kaikki paikat on otettu ({ $schedule }).
join-as = Otat sen pelaajana { $name }.
seat-bot-name = { $name } (botti)
problem-table-full = Pöytä on täynnä
    .detail = Kaikki paikat otettiin sillä välin.
closed-title = Tämä pöytä suljettiin
closed-detail = Kukaan ei ottanut sen vapaita paikkoja ajoissa.
start-new-match = Aloita uusi ottelu
needs-link-title = Tämä pöytä tarvitsee paikkasi linkin
needs-link-detail = Avaa paikkasi linkki: pöytä näyttää sen kohdassa ”Paikkasi linkki”, ja se päättyy #token=….
watch-match = Katso tätä ottelua

## Sivun omat ongelmat
problem-unreachable = Palveluun ei saada yhteyttä
    .detail = Tarkista yhteys; sivu yrittää uudelleen ja jatkaa itsestään, kun palvelu vastaa.
something-wrong = Jokin meni vikaan

## Pöytä
table-region =
    .aria-label = Pöytä
table-cards-region =
    .aria-label = Pöydän kortit
trick-region =
    .aria-label = Meneillään oleva tikki
me-region =
    .aria-label = Sinun paikkasi
hand-region =
    .aria-label = Kätesi
scorecard-region =
    .aria-label = Pistetaulukko
seat-tools-region =
    .aria-label = Paikkasi linkki
open-seat = vapaa paikka { $seat }
seat-twin = { $name } (paikka { $seat })
me-name = { $name } (sinä)
you = sinä
tally = { $contract ->
    [none] tikit { $taken } · yhteensä { $total }
    [pass] tikit { $taken }, enintään { $quota } · yhteensä { $total }
   *[other] tikit { $taken }/{ $quota } · yhteensä { $total }
}
card-count = { $n ->
    [one] 1 kortti
   *[other] { $n } korttia
}
backs =
    .aria-label = { $n ->
        [one] 1 kortti kuvapuoli alaspäin
       *[other] { $n } korttia kuvapuoli alaspäin
    }
online = yhteydessä
offline = ei yhteyttä
bot-badge = botti: { $bot ->
    [greedy] ahne
    [strong] vahva
    [random] satunnainen
   *[other] { $bot }
}
dealer = jakaja
forehand = etumies
to-act = vuorossa
match-over = Ottelu päättyi · { $n ->
    [one] voittaja
   *[other] voittajat
}: { $names }
deal-of = Jako { $number }/{ $total }
contract-now = { $contract ->
    [spades] patavaltti
    [trump] valtti
    [notrump] valtiton
   *[pass] passaus (vähän tikkejä)
}
your-turn = sinun vuorosi
seat-to-act = vuorossa: { $name }
waiting-players = Odotetaan pelaajia vapaille paikoille
table-closed = Tämä pöytä suljettiin: kukaan ei ottanut sen vapaita paikkoja ajoissa
match-status = Ottelun tila: { $status }
table-cards = pöydän kortit
taken-by = tikin sai { $name }
taken-by-you = tikin sait sinä
last-trick-show = näytä edellinen tikki (L)
last-trick-hide = piilota edellinen tikki (L)
last-trick = edellinen tikki, sai { $name }:
last-trick-you = edellinen tikki, sait sinä:
laid-away = pois laitetut:

## Mitä paikka voi tehdä
waiting = Odotetaan…
waiting-for = Odotetaan: { $name }…
you-deal = Sinä jaat tällä kertaa.
deal-button = Jaa (D)
cut-intro = Voit nostaa seuraavan pakan (vapaaehtoista; jakaja voi jakaa ensin).
cut-label = Nostosi
cut-hint = Mitkä tahansa 1–64 kirjainta, numeroa, välilyöntiä tai merkkiä — esim. Bjørn tai onnea matkaan; se sekoitetaan pakkaan, joten kukaan, ei edes palvelu, ei valitse pakkaa yksin.
cut-field =
    .placeholder = tyhjänä: satunnainen
cut-button = Nosta (U)
problem-cut-too-long = Nostossa on enintään 64 merkkiä
    .detail = Sinun nostossasi on { $n }: lyhennä sitä.
choose-contract = Valitse pelimuoto:
choose-contract-blind = Valitse pelimuoto (sokkona: pöydän neljän kortin perusteella; kätesi tulee sen jälkeen):
contract-button = { $contract ->
    [spades] patavaltti (♠ valttia)
    [notrump] valtiton
   *[pass] passaus (vähän tikkejä)
}
free-trump = vapaa valtti
help-spades = patavaltti: pata on valttia
help-trump = vapaa valtti: sinä nimeät valttimaan
help-trump-spades = vapaa valtti: sinä nimeät valttimaan (myös ♠: samat kortit, mutta eri pelimuoto)
help-notrump = valtiton: mikään maa ei ole valttia
help-pass = passaus: ota niin vähän tikkejä kuin voit
help-quotas = Tavoitteet: sinulle 8 tikkiä, muille 4 kummallekin; passauksessa sinulle enintään 4, muille enintään 6 (siinä vähemmän on parempi).
help-once = Jokainen etumies pelaa ottelussa kunkin pelimuodon kerran: nämä sinulla on jäljellä.
lay-away-intro = Laita { $count } korttia pois kuvapuoli alaspäin: valitse ne kädestäsi ({ $picked }/{ $count } valittu).
lay-away-button = Laita { $count } pois (A)
play-now = Sinun vuorosi: pelaa yksi nostetuista korteista.
unknown-action = Palvelu pyytää toimintoa ”{ $action }”, jota tämä sivu ei tunne.
invite = { $open ->
    [one] Odotetaan vielä yhtä pelaajaa. Lähetä tämä linkki ystävälle: selaimessa avattuna se tarjoaa vapaata paikkaa.
   *[other] Odotetaan vielä { $open } pelaajaa. Lähetä tämä linkki ystävillesi: selaimessa avattuna se tarjoaa vapaita paikkoja.
}
invite-link =
    .aria-label = Linkki tähän pöytään
copy-link = Kopioi linkki
copied = Kopioitu
invite-bots = Tai anna palvelun pelata paikka:
bot-for-seat = botti vapaalle paikalle { $seat }

## Ottelun loppu
play-again = Pelaa uudelleen
join-rematch = Liity uusintaotteluun
match-over-below = Ottelu päättyi: lopullinen pistetaulukko on alla.
or-new-match = tai aloita uusi ottelu

## Pistetaulukko
scorecard = Pistetaulukko
final-scorecard = Lopullinen pistetaulukko
scorecard-deal =
    .title = jako
scorecard-forehand = etumies
scorecard-contract = pelimuoto
contract-short = { $contract ->
    [spades] patavaltti
    [trump] valtti
    [notrump] valtiton
   *[pass] passaus
}
in-play = pelissä
totals = yhteensä
final = lopuksi
winners = { $n ->
    [one] Voittaja
   *[other] Voittajat
}: { $names }
scoring-zeroSum = Pisteytys: saat pisteen jokaisesta tikistä tavoitteesi yli ja menetät pisteen jokaisesta, joka siitä puuttuu; passauksessa päinvastoin (vähemmän on parempi). Tavoitteet: etumies 8, muut 4; passauksessa etumies enintään 4, muut enintään 6. Jaon pisteiden summa on 0; suurin yhteispistemäärä voittaa.
scoring-overOnly = Pisteytys: saat pisteen jokaisesta tikistä tavoitteesi yli; vajaaksi jääminen ei maksa mitään. Passauksessa pisteitä saa tikeistä, jotka jäävät tavoitteen alle. Tavoitteet: etumies 8, muut 4; passauksessa etumies enintään 4, muut enintään 6. Suurin yhteispistemäärä voittaa.
scoring-other = Pisteytys: { $scoring }.

## Vuorokello
clock-badge =
    .title = aikaa jäljellä vuoroon
    .aria-label = { $n ->
        [one] 1 sekunti aikaa vuoroon
       *[other] { $n } sekuntia aikaa vuoroon
    }
away-note = { $name } on poissa — botti pelaa hänen puolestaan
back-away = Olit poissa: botti pelaa puolestasi.
back-detail = Se pelaa heti, kunnes palaat.
back-button = Takaisin pöytään
notify-title = Sinun vuorosi — Bismarck
notify-body = Pöydässä on sinun vuorosi.
notify-intro = Pelaatko toisessa välilehdessä?
notify-button = Ilmoita, kun on minun vuoroni

## Paikan linkki
seat-link-title = Paikkasi linkki
seat-link-help = Avaa se millä tahansa laitteella ottaaksesi paikkasi takaisin, esimerkiksi suljettuasi tämän välilehden. Se on vain sinun: älä jaa sitä (pöydän osoite ilman sitä on ystäville).
seat-player-help = Tämä paikka on myös sidottu pelaajaasi: sen tunniste vie sinut tänne jokaisella laitteella, jolla kirjaudut sillä.
seat-link-field =
    .aria-label = Paikkasi linkki
copy-seat-link = Kopioi linkkisi
seat-devices-title = Paikkasi muilla laitteilla
seat-bound-help = Tämä paikka on sidottu pelaajaasi { $name }: kirjaudu pelaajan tunnisteella millä tahansa laitteella, niin pöytä ottaa sinut paikallesi. Paikan linkkiä ei tarvita.

## Pelaaja
player-title = Pelaaja
player-intro = Pelaaja pitää ottelusi yhdessä: sen tunniste vie sinut niihin millä tahansa laitteella.
player-refused = Tämän selaimen pelaajatunniste hylättiin (peruttu, tai pelaaja poistettu), joten se unohdettiin täällä. Kirjaudu pelaajan toisella tunnisteella tai luo pelaaja.
new-player-name = Uuden pelaajan nimi
create-player = Luo pelaaja
sign-in-token = Kirjaudu tunnisteella
sign-in = Kirjaudu
sign-in-help = Tunniste näytettiin kerran, kun pelaaja luotiin.
not-player-token = Tämä ei ole pelaajatunniste: pelaajatunniste alkaa bskp_ (paikan linkki avataan, sitä ei liitetä tähän).
token-unknown = Palvelu ei tunne tätä tunnistetta (kirjoitusvirhe, peruttu, tai pelaaja poistettu).
signed-in-as = Kirjautunut pelaajana
sign-out = Kirjaudu ulos
signed-out = Kirjauduit ulos: tämä selain ei enää pidä pelaajan tunnistetta.
my-matches = Omat ottelut
my-matches-unread = Omia otteluita ei voitu lukea: { $message }
no-match-in-play = Ei käynnissä olevia otteluita.
player-unread = Pelaajaa ei voitu lukea: { $message }
player-token-field =
    .aria-label = Pelaajasi tunniste
token-once = Pelaajasi tunniste, näytetään vain nyt.
token-once-help = Se on pelaajan avain jokaiselle laitteelle: kirjaudu sillä, missä ikinä pelaat. Säilytä se kuin salasana; sillä, jolla se on, pelaa sinuna.
copy-token = Kopioi tunniste
token-kept = Olen tallentanut sen
match-with = vastassa { $names }
an-open-seat = vapaa paikka
waiting-for-players = odottaa pelaajia

## Kortit ruudunlukijalle: ensin näkyvä teksti (puheohjaus nimeää painikkeen sen mukaan, mitä se näyttää)
suit-name = { $suit ->
    [S] pata
    [H] hertta
    [D] ruutu
   *[C] risti
}
card-name = { $suit ->
    [S] pata
    [H] hertta
    [D] ruutu
   *[C] risti
}{ $rank ->
    [A] ässä
    [K] kuningas
    [Q] rouva
    [J] jätkä
    [T] kymppi
    [9] ysi
    [8] kasi
    [7] seiska
    [6] kutonen
    [5] vitonen
    [4] nelonen
    [3] kolmonen
   *[2] kakkonen
}
card-button =
    .aria-label = { $shown }, { $suit ->
        [S] pata
        [H] hertta
        [D] ruutu
       *[C] risti
    }{ $rank ->
        [A] ässä
        [K] kuningas
        [Q] rouva
        [J] jätkä
        [T] kymppi
        [9] ysi
        [8] kasi
        [7] seiska
        [6] kutonen
        [5] vitonen
        [4] nelonen
        [3] kolmonen
       *[2] kakkonen
    }

## Näppäimet
keys-title = Näppäimistö
keys-move = liiku kädessäsi
keys-play = pelaa kortin (pois laitettaessa: valitsee sen tai poistaa valinnan)
keys-lay-away = laittaa neljä valittua korttia pois
keys-contract = valitse pelimuoto, jonka kohdalla on se numero
keys-deal = jakaa (kun sinä jaat)
keys-cut = nostaa (kun sinä nostat)
keys-last = näyttää tai piilottaa edellisen tikin
