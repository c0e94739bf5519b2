# The table (/play and /play/{id}): the lobby, taking a seat, the table, the scorecard.
# The game's words, the same everywhere: forehand, dealer, trick, trump, spades, no trump, pass, cut, lay away.

## The page and its header
page-title = Bismarck — table
title-lobby = Bismarck — start a match
title-offer = Bismarck — your seat
title-join = Bismarck — take a seat
title-closed = Bismarck — table closed
title-no-match = Bismarck — no such match
title-turn = ● Your turn — Bismarck
title-finished = Match over — Bismarck
nav-new-match = new match
nav-viewer = replay viewer
nav-rules = rules

## The lobby
lobby-title = Start a match
your-name = Your name
name-field =
    .placeholder = the name the others see
lobby-schedule = Schedule
schedule-option-quick = quick (3 deals)
schedule-option-modern = modern (12 deals)
schedule-option-traditional = traditional (9 deals)
schedule-name = { $schedule ->
    [quick] quick
    [modern] modern
    [traditional] traditional
   *[other] { $schedule }
}
lobby-others = The other two seats
others-bots = two bots
others-friend = a friend and a bot
others-friends = two friends
lobby-bots = Bots
bot-greedy = greedy
bot-strong = strong
bot-random = random
bot-help = random plays any legal card; greedy takes a trick when it can, without planning; strong plans ahead by playing out the deals the hidden cards could make.
lobby-clock = Turn clock
clock-off = off
clock-30 = 30 s a turn
clock-60 = 60 s a turn
clock-120 = 2 min a turn
clock-help = With a clock, a player who runs out of time has a bot play that turn for them; after two turns missed in a row the bot plays on for them until they come back.
lobby-start = Start the match
lobby-help = The service plays the bots. A friend joins with the table’s link, which the table shows you. This browser keeps your seat until the match ends; the table also shows your seat’s own link, to take it back on another device.
lobby-help-player = The service plays the bots. A friend joins with the table’s link, which the table shows you. Your seat is your player’s: “My matches” above lists the table, on any device where you sign in.
lobby-rules = How to play: the rules of Bismarck
lobby-plays-as = You play as { $name }, your player: its token seats you at the table on any device.

## A seat this browser held, and a waiting table's open seat
offer-title = Your seat at this table
offer-take-back = Take my seat back
offer-forget = Not me: forget it on this browser
offer-who = This browser held { $name }’s seat at this table (seat { $seat }).
offer-who-open = This browser held seat { $seat } at this table.
join-title = Take a seat at this table
join-button = Take a seat
join-who = At this table: { $names }. { $open ->
    [one] One seat is open
   *[other] { $open } seats are open
}; the match starts when every seat is taken ({ $schedule }).
join-as = You take it as { $name }, your player.
seat-bot-name = { $name } (bot)
problem-table-full = The table is full
    .detail = Every seat was taken meanwhile.
closed-title = This table was closed
closed-detail = Nobody took its open seats in time.
start-new-match = Start a new match
needs-link-title = This table needs your seat’s link
needs-link-detail = Open your seat’s link: the table shows it under “Your seat’s link”, and it ends in #token=….
watch-match = Watch this match

## Problems the page meets itself
problem-unreachable = The service cannot be reached
    .detail = Check the connection; the page keeps trying and carries on by itself once the service answers.
something-wrong = Something went wrong

## The table
table-region =
    .aria-label = The table
table-cards-region =
    .aria-label = Table cards
trick-region =
    .aria-label = Current trick
me-region =
    .aria-label = Your seat
hand-region =
    .aria-label = Your hand
scorecard-region =
    .aria-label = Scorecard
seat-tools-region =
    .aria-label = Your seat’s link
open-seat = open seat { $seat }
seat-twin = { $name } (seat { $seat })
me-name = { $name } (you)
you = you
tally = { $contract ->
    [none] tricks { $taken } · total { $total }
    [pass] tricks { $taken }, at most { $quota } · total { $total }
   *[other] tricks { $taken } of { $quota } · total { $total }
}
card-count = { $n ->
    [one] 1 card
   *[other] { $n } cards
}
backs =
    .aria-label = { $n ->
        [one] 1 card, face down
       *[other] { $n } cards, face down
    }
online = online
offline = offline
bot-badge = bot: { $bot ->
    [greedy] greedy
    [strong] strong
    [random] random
   *[other] { $bot }
}
dealer = dealer
forehand = forehand
to-act = to act
match-over = Match over · { $n ->
    [one] winner
   *[other] winners
}: { $names }
deal-of = Deal { $number } of { $total }
contract-now = { $contract ->
    [spades] spades
    [trump] trump
    [notrump] no trump
   *[pass] pass (take few tricks)
}
your-turn = your turn
seat-to-act = { $name } to act
waiting-players = Waiting for players to take the open seats
table-closed = This table was closed: nobody took its open seats in time
match-status = The match is { $status }
table-cards = table cards
taken-by = taken by { $name }
taken-by-you = taken by you
last-trick-show = show last trick (L)
last-trick-hide = hide last trick (L)
last-trick = last trick, to { $name }:
last-trick-you = last trick, to you:
laid-away = laid away:

## What the seat may do
waiting = Waiting…
waiting-for = Waiting for { $name }…
you-deal = You deal this time.
deal-button = Deal (D)
cut-intro = You may cut the next deck (optional; the dealer may deal first).
cut-label = Your cut
cut-hint = Any 1 to 64 letters, digits, spaces or symbols — e.g. Bjørn or lykke til; mixed into the shuffle so nobody, the service included, chose the deck alone.
cut-field =
    .placeholder = left empty: a random one
cut-button = Cut (U)
problem-cut-too-long = A cut is at most 64 characters
    .detail = Yours has { $n }: shorten it.
choose-contract = Choose the contract:
choose-contract-blind = Choose the contract (blind: from the four table cards; your hand comes after):
contract-button = { $contract ->
    [spades] spades (♠ trumps)
    [notrump] no trump
   *[pass] pass (take few tricks)
}
free-trump = free trump
help-spades = spades: spades are trumps
help-trump = free trump: you name the trump suit
help-trump-spades = free trump: you name the trump suit (♠ too: the same cards, but another contract)
help-notrump = no trump: no suit is trumps
help-pass = pass: take as few tricks as you can
help-quotas = Quotas: you 8 tricks, the others 4 each; in pass you at most 4, the others at most 6 (there, fewer is better).
help-once = Each forehand plays each contract once in the match: these are the ones you have left.
lay-away-intro = Lay away { $count } cards, face down: pick them in your hand ({ $picked } of { $count } picked).
lay-away-button = Lay away { $count } (A)
play-now = Your turn: play one of the raised cards.
unknown-action = The service asks for “{ $action }”, which this page does not know.
invite = { $open ->
    [one] Waiting for one more player. Send this link to a friend: opened in a browser, it offers the open seat.
   *[other] Waiting for { $open } more players. Send this link to your friends: opened in a browser, it offers the open seats.
}
invite-link =
    .aria-label = Link to this table
copy-link = Copy link
copied = Copied
invite-bots = Or let the service play a seat:
bot-for-seat = a bot for open seat { $seat }

## The end of a match
play-again = Play again
join-rematch = Join the rematch
match-over-below = The match is over: the final scorecard is below.
or-new-match = or start a new match

## The scorecard
scorecard = Scorecard
final-scorecard = Final scorecard
scorecard-deal =
    .title = deal
scorecard-forehand = forehand
scorecard-contract = contract
contract-short = { $contract ->
    [spades] spades
    [trump] trump
    [notrump] no trump
   *[pass] pass
}
in-play = in play
totals = totals
final = final
winners = { $n ->
    [one] Winner
   *[other] Winners
}: { $names }
scoring-zeroSum = Scoring: your points are the tricks you take over your quota, less those you fall short of it; in pass the other way round (fewer is better). Quotas: forehand 8, the others 4; in pass forehand at most 4, the others at most 6. A deal’s points add up to 0; the highest total wins.
scoring-overOnly = Scoring: your points are the tricks you take over your quota; falling short costs nothing. In pass the tricks you stay under it score instead. Quotas: forehand 8, the others 4; in pass forehand at most 4, the others at most 6. The highest total wins.
scoring-other = Scoring: { $scoring }.

## The turn clock
clock-badge =
    .title = time left to act
    .aria-label = { $n ->
        [one] 1 second left to act
       *[other] { $n } seconds left to act
    }
away-note = { $name } is away — a bot is playing for them
back-away = You were away: a bot is playing for you.
back-detail = It plays at once until you come back.
back-button = Back to the table
notify-title = Your turn — Bismarck
notify-body = It is your turn at the table.
notify-intro = Playing in another tab?
notify-button = Notify me when it is my turn

## The seat's link
seat-link-title = Your seat’s link
seat-link-help = Open it on any device to take your seat back, for example after closing this tab. It is yours alone: do not share it (the table’s address without it is for friends).
seat-player-help = This seat is also bound to your player: its token seats you here on any device where you sign in with it.
seat-link-field =
    .aria-label = Your seat’s link
copy-seat-link = Copy your link
seat-devices-title = Your seat on other devices
seat-bound-help = This seat is bound to your player, { $name }: sign in with the player’s token on any device and the table seats you there. No seat link is needed.

## The player panel
player-title = Player
player-intro = A player keeps your matches together: its token seats you at them on any device.
player-refused = This browser’s player token was refused (revoked, or its player deleted), so it was forgotten here. Sign in with another token of the player, or create a player.
new-player-name = Name of a new player
create-player = Create a player
sign-in-token = Sign in with a token
sign-in = Sign in
sign-in-help = The token was shown once, when the player was created.
not-player-token = That is not a player token: a player token begins with bskp_ (a seat’s link is opened, not pasted here).
token-unknown = The service does not know this token (mistyped, revoked, or its player deleted).
signed-in-as = Signed in as
sign-out = Sign out
signed-out = Signed out: this browser no longer holds the player’s token.
my-matches = My matches
my-matches-unread = My matches could not be read: { $message }
no-match-in-play = No match in play.
player-unread = The player could not be read: { $message }
player-token-field =
    .aria-label = Your player’s token
token-once = Your player’s token, shown only now.
token-once-help = It is the player’s key for every device: sign in with it wherever you play. Keep it like a password; whoever has it plays as you.
copy-token = Copy the token
token-kept = I have kept it
match-with = with { $names }
an-open-seat = an open seat
waiting-for-players = waiting for players

## Cards, for screen readers: the visible text first (voice control names a button by what it shows)
suit-name = { $suit ->
    [S] spades
    [H] hearts
    [D] diamonds
   *[C] clubs
}
card-name = { $rank ->
    [A] ace
    [K] king
    [Q] queen
    [J] jack
    [T] 10
   *[other] { $rank }
} of { $suit ->
    [S] spades
    [H] hearts
    [D] diamonds
   *[C] clubs
}
card-button =
    .aria-label = { $shown }, { $rank ->
        [A] ace
        [K] king
        [Q] queen
        [J] jack
        [T] 10
       *[other] { $rank }
    } of { $suit ->
        [S] spades
        [H] hearts
        [D] diamonds
       *[C] clubs
    }

## The keys
keys-title = Keyboard
keys-move = move along your hand
keys-play = plays the card (during the lay-away: picks or drops it)
keys-lay-away = lays away the four picked cards
keys-contract = choose the contract shown with that number
keys-deal = deals (when you deal)
keys-cut = cuts (when you cut)
keys-last = shows or hides the last trick
