# Uusintakatselin (apps/api/src/web/viewer). Sivu kirjoittaa kortit symboleina (K♥).
page-title = Bismarck — ottelun katselu
page-title-missing = Bismarck — ottelua ei ole
play-link = pelaa ottelu
table-heading = Pöytä
controls-heading = Ottelun selaus
fork-heading = Jatka pelaamalla
scorecard-heading = Pistetaulukko
analysis-heading-plain = Analyysi
analysis-heading = Jaon { $deal } analyysi

## Ottelu otsikkorivillä
schedule-name = { $schedule ->
    [quick] pikaottelu
    [modern] moderni ottelu
   *[traditional] perinteinen ottelu
}
match-status = { $status ->
    [waiting] odottaa pelaajia
    [playing] käynnissä
    [finished] päättynyt
   *[abandoned] hylätty
}
badge-seeded = kiinteä siemen: ei todistettavasti reilu
badge-audit-ok = tarkastus läpäisty · todistettavasti reiluja jakoja { $fair }/{ $deals }
badge-audit-failed = tarkastus EPÄONNISTUI vaiheessa { $version }
badge-committed = jokainen pakka sitoutetaan ennen jakoa
badge-forked = haara ottelusta { $match } vaiheesta { $version }
fairness-explained = Todistettavasti reilussa jaossa palvelu sitoutui pakkaan (julkaisi salaisen siemenensä sormenjäljen) ennen kuin pelaaja nosti, ja paljasti siemenen jälkikäteen, joten kuka tahansa voi tarkistaa, ettei kortteja muutettu.
fairness-seeded = Tämä ottelu jaettiin valitusta siemenestä (harjoitusottelu tai haara): kuka tahansa voi toistaa sen kortit, joten sen jaot eivät ole todistettavasti reiluja.
fairness-audit-link = Katso ottelun tarkastus

## Vaiheet
step-first =
    .title = Ensimmäinen vaihe (Home)
step-first-name = Ensimmäinen vaihe
step-prev =
    .title = Edellinen vaihe (←)
step-prev-name = Edellinen vaihe
step-next =
    .title = Seuraava vaihe (→)
step-next-name = Seuraava vaihe
step-last =
    .title = Viimeinen vaihe, sitten seuraa suorana (End)
step-last-name = Viimeinen vaihe, sitten seuraa suorana
slider =
    .aria-label = Vaihe
slider-value = vaihe { $version } / { $latest }
step-position = vaihe { $version } / { $latest }
jump-prev-deal = « jako
    .title = Edellinen jako (Shift+[ tai Shift+Page Up)
jump-prev-trick = ‹ tikki
    .title = Edellinen tikki ([ tai Page Up)
jump-next-trick = tikki ›
    .title = Seuraava tikki (] tai Page Down)
jump-next-deal = jako »
    .title = Seuraava jako (Shift+] tai Shift+Page Down)
follow-live = seuraa suorana
to-scorecard = pistetaulukko

## Vaiherivi: missä kohtaa ottelua, sitten mitä tapahtui
step-deal = Jako { $deal }
step-trick = Jako { $deal } · tikki { $trick }
event-match-created = Ottelu on perustettu
event-seat-joined = { $who } istuu pöytään
event-table-abandoned = Pöytä suljettiin: kukaan ei tullut vapaille paikoille
event-deck-committed = Jakaja sinetöi seuraavan pakan
event-deck-cut = { $who } nostaa pakan
event-deal-started = { $dealer } jakaa, { $forehand } on etumies
event-hands-dealt = Kortit on jaettu, 16 kullekin
event-contract-chosen = { $contract ->
    [trump] { $who } valitsee valtiksi { $suit }
    [spades] { $who } valitsee patavaltin
    [notrump] { $who } valitsee valtittoman
   *[pass] { $who } valitsee passauksen
}
event-cards-laid-away = { $who } panee pois neljä korttia
event-cards-laid-away-shown = { $who } panee pois { $cards }
event-card-played = { $who } pelaa { $card }
event-card-played-stand-in = Sijainen pelaa { $card } pelaajan { $who } puolesta
event-trick-taken = { $who } ottaa tikin
event-deal-voided = { $who } avasi ennen kuin pani kortit pois: jako jaetaan uudelleen
event-deal-scored = Jako { $deal } laskettu
event-seed-revealed = Pakan salainen siemen paljastetaan: kuka tahansa voi tarkistaa jaon
event-turn-timed-out = Pelaajan { $who } aika loppui: sijainen siirtää hänen puolestaan
event-seat-returned = { $who } on palannut pöytään
event-match-finished = { $count ->
    [one] Ottelu päättyi: { $winners } voittaa
   *[other] Ottelu päättyi: { $winners } voittavat
}
event-rematch-offered = { $who } pyytää uusintaottelua
event-other = Ottelu jatkuu

## Pöytä
seat-unnamed = vapaa paikka { $seat }
seat-twin = { $name } (paikka { $seat })
role-bot = botti: { $bot }
role-dealer = jakaja
role-forehand = etumies
role-you = sinä
seat-stats = { $tricks ->
    [one] 1 tikki
   *[other] { $tricks } tikkiä
} · yhteensä { $total }
seat-hidden-cards = { $n ->
    [one] yksi kortti kuvapuoli alaspäin
   *[other] { $n } korttia kuvapuoli alaspäin
}
seat-laid-away = pois pannut
info-finished = { $count ->
    [one] Päättynyt · voittaja: { $winners }
   *[other] Päättynyt · voittajat: { $winners }
}
info-waiting = Odotetaan pelaajia
info-before = Ennen ensimmäistä jakoa
info-deal = Jako { $deal }/{ $deals }
info-choosing = { $who } valitsee pelin
info-turn = vuorossa: { $who }
last-trick = { $who } otti edellisen tikin:
contract-name = { $contract ->
    [spades] patavaltti
    [trump] valtti
    [notrump] valtiton
   *[pass] passaus
}
contract-none = peliä ei vielä valittu
card-label = { $suit ->
    [S] pata { $rank }
    [H] hertta { $rank }
    [D] ruutu { $rank }
   *[C] risti { $rank }
}
suit-name = { $suit ->
    [S] pata
    [H] hertta
    [D] ruutu
   *[C] risti
}
cost-tricks = { $n ->
    [one] hinta: 1 tikki
   *[other] hinta: { $n } tikkiä
}

## Jaon analyysi (kaikki kortit näkyvissä, kukin pelaaja kahta muuta vastaan)
analysis-pending = Tietokone analysoi jaon { $deal } jokaista korttia…
verdict-best = { $who }, { $card }: paras kortti
verdict-cost = { $n ->
    [one] { $who }, { $card }: hinta 1 tikki
   *[other] { $who }, { $card }: hinta { $n } tikkiä
}
verdict-unknown = { $who }, { $card }: tietokone ei ehtinyt tutkia tätä asemaa loppuun laskentarajansa puitteissa, joten arviota ei ole.
analysis-par = Kaikki kortit näkyvissä kukin pelaaja olisi saanut kahta muuta vastaan: { $par }
analysis-par-seat = { $tricks ->
    [one] { $who } 1 tikki ({ $points })
   *[other] { $who } { $tricks } tikkiä ({ $points })
}
analysis-par-seat-unknown = { $who }: ei arviota
analysis-par-unknown = Mitä kukin olisi saanut ensimmäisestä avauksesta: tietokone ei ehtinyt tutkia tätä asemaa loppuun laskentarajansa puitteissa, joten arviota ei ole.
analysis-costly = Kortit, jotka maksoivat tikkejä:
analysis-none-costly = Jokainen pelattu kortti oli paras kortti.
analysis-costly-card = { $n ->
    [one] tikki { $trick } · { $who } · hinta: 1 tikki
   *[other] tikki { $trick } · { $who } · hinta: { $n } tikkiä
}
analysis-some-unsolved = Joillakin alkupään korteilla ei ole arviota: tietokone ei ehtinyt tutkia niitä loppuun laskentarajansa puitteissa.

## Pistetaulukko
scorecard-deal = jako
scorecard-forehand = etumies
scorecard-contract = peli
scorecard-in-play = käynnissä
scorecard-final = lopputulos
scorecard-totals-at = pisteet vaiheessa { $version }

## Jatka pelaamalla, ja ongelmat
fork-button = Jatka tästä pelaamalla
fork-made = Uusi ottelu vaiheesta { $version }, samat kortit siitä eteenpäin:
fork-seat = pelaa pelaajan { $name } paikalla
fork-watch = katso sitä
missing-heading = Ottelua ”{ $id }” ei ole
missing-text = Tällä tunnisteella ei ole ottelua. Tarkista linkki: ottelun tunniste on muotoa 1b4e28ba-2fa1-4f2c-883f-0cda2b9c6e1a.
missing-play-link = Aloita ottelu botteja tai ystäviä vastaan
missing-docs-link = Kirjoita oma asiakasohjelma: API:n dokumentaatio
load-failed-heading = Ottelua ei voitu ladata
error-unreachable = Palvelua ei tavoiteta. Tarkista yhteys; sivu yrittää uudelleen ja jatkaa itsestään, kun palvelu vastaa.
