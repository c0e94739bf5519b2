# The replay viewer (apps/api/src/web/viewer). Cards are written with symbols (K♥) by the page.
page-title = Bismarck — match viewer
page-title-missing = Bismarck — no such match
play-link = play a match
table-heading = The table
controls-heading = Step through the match
fork-heading = Play on
scorecard-heading = Scorecard
analysis-heading-plain = Analysis
analysis-heading = Analysis of deal { $deal }

## The match in the header
schedule-name = { $schedule ->
    [quick] quick match
    [modern] modern match
   *[traditional] traditional match
}
match-status = { $status ->
    [waiting] waiting for players
    [playing] in play
    [finished] finished
   *[abandoned] abandoned
}
badge-seeded = seeded: not provably fair
badge-audit-ok = audit passed · provably fair deals { $fair }/{ $deals }
badge-audit-failed = audit FAILED at step { $version }
badge-committed = each deck is committed before its deal
badge-forked = a fork of { $match } at step { $version }
fairness-explained = A provably fair deal is one whose deck the service committed to (published a fingerprint of its secret seed) before a player cut it, and revealed afterwards, so that anyone can check the cards were not changed.
fairness-seeded = This match was dealt from a chosen seed (a practice match or a fork): its cards can be replayed by anyone, so its deals are not provably fair.
fairness-audit-link = Check this match's audit

## Steps
step-first =
    .title = First step (Home)
step-first-name = First step
step-prev =
    .title = Previous step (←)
step-prev-name = Previous step
step-next =
    .title = Next step (→)
step-next-name = Next step
step-last =
    .title = Last step, then follow live (End)
step-last-name = Last step, then follow live
slider =
    .aria-label = Step
slider-value = step { $version } of { $latest }
step-position = step { $version } of { $latest }
jump-prev-deal = « deal
    .title = Previous deal (Shift+[ or Shift+Page Up)
jump-prev-trick = ‹ trick
    .title = Previous trick ([ or Page Up)
jump-next-trick = trick ›
    .title = Next trick (] or Page Down)
jump-next-deal = deal »
    .title = Next deal (Shift+] or Shift+Page Down)
follow-live = follow live
to-scorecard = scorecard

## The step line: where in the match, then what happened
step-deal = Deal { $deal }
step-trick = Deal { $deal } · trick { $trick }
event-match-created = The match is set up
event-seat-joined = { $who } takes a seat
event-table-abandoned = The table closed: nobody took the open seats
event-deck-committed = The dealer seals the next deck
event-deck-cut = { $who } cuts the deck
event-deal-started = { $dealer } deals, { $forehand } is forehand
event-hands-dealt = The cards are dealt, 16 to each player
event-contract-chosen = { $contract ->
    [trump] { $who } chooses trump { $suit }
    [spades] { $who } chooses spades
    [notrump] { $who } chooses no trump
   *[pass] { $who } chooses pass
}
event-cards-laid-away = { $who } lays away four cards
event-cards-laid-away-shown = { $who } lays away { $cards }
event-card-played = { $who } plays { $card }
event-card-played-stand-in = A stand-in plays { $card } for { $who }
event-trick-taken = { $who } takes the trick
event-deal-voided = { $who } led before laying away: the deal is dealt again
event-deal-scored = Deal { $deal } scored
event-seed-revealed = The deck's secret seed is revealed: anyone can check the deal
event-turn-timed-out = { $who } ran out of time: a stand-in moves for them
event-seat-returned = { $who } is back at the table
event-match-finished = { $count ->
    [one] Match finished: { $winners } wins
   *[other] Match finished: { $winners } win
}
event-rematch-offered = { $who } asks for a rematch
event-other = The match goes on

## The table
seat-unnamed = open seat { $seat }
seat-twin = { $name } (seat { $seat })
role-bot = bot: { $bot }
role-dealer = dealer
role-forehand = forehand
role-you = you
seat-stats = { $tricks ->
    [one] 1 trick
   *[other] { $tricks } tricks
} · total { $total }
seat-hidden-cards = { $n ->
    [one] one card face down
   *[other] { $n } cards face down
}
seat-laid-away = laid away
info-finished = { $count ->
    [one] Finished · winner: { $winners }
   *[other] Finished · winners: { $winners }
}
info-waiting = Waiting for players
info-before = Before the first deal
info-deal = Deal { $deal } of { $deals }
info-choosing = { $who } chooses the contract
info-turn = turn: { $who }
last-trick = { $who } took the last trick:
contract-name = { $contract ->
    [spades] spades
    [trump] trump
    [notrump] no trump
   *[pass] pass
}
contract-none = no contract yet
card-label = { $suit ->
    [S] { $rank } of spades
    [H] { $rank } of hearts
    [D] { $rank } of diamonds
   *[C] { $rank } of clubs
}
suit-name = { $suit ->
    [S] spades
    [H] hearts
    [D] diamonds
   *[C] clubs
}
cost-tricks = { $n ->
    [one] cost: 1 trick
   *[other] cost: { $n } tricks
}

## The analysis of a scored deal (every card face up, each player against the other two)
analysis-pending = The computer is analysing every card of deal { $deal }…
verdict-best = { $who }’s { $card }: best card
verdict-cost = { $n ->
    [one] { $who }’s { $card }: cost 1 trick
   *[other] { $who }’s { $card }: cost { $n } tricks
}
verdict-unknown = { $who }’s { $card }: the computer could not finish searching this position within its budget, so there is no verdict.
analysis-par = With every card face up, each player against the other two could have made: { $par }
analysis-par-seat = { $tricks ->
    [one] { $who } 1 trick ({ $points })
   *[other] { $who } { $tricks } tricks ({ $points })
}
analysis-par-seat-unknown = { $who }: no verdict
analysis-par-unknown = What each player could have made from the first lead: the computer could not finish searching this position within its budget, so there is no verdict.
analysis-costly = Cards that cost tricks:
analysis-none-costly = Every card played was a best card.
analysis-costly-card = { $n ->
    [one] trick { $trick } · { $who } · cost: 1 trick
   *[other] trick { $trick } · { $who } · cost: { $n } tricks
}
analysis-some-unsolved = Some early cards have no verdict: the computer could not finish searching them within its budget.

## The scorecard
scorecard-deal = deal
scorecard-forehand = forehand
scorecard-contract = contract
scorecard-in-play = in play
scorecard-final = final
scorecard-totals-at = totals at step { $version }

## Playing on from a moment, and problems
fork-button = Play on from here
fork-made = A new match from step { $version }, the same cards from there on:
fork-seat = play { $name }'s seat
fork-watch = watch it
missing-heading = No match “{ $id }”
missing-text = There is no match with this id. Check the link: a match id looks like 1b4e28ba-2fa1-4f2c-883f-0cda2b9c6e1a.
missing-play-link = Start a match, against bots or with friends
missing-docs-link = Write a client: the API documentation
load-failed-heading = The match could not be loaded
error-unreachable = The service cannot be reached. Check the connection; the page keeps trying and carries on by itself once the service answers.
