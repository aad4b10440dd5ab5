"""Tournaments' rules, free of I/O: who sits at which table each round (pairing) and how the
entrants stand after the games played so far (standings).

A tournament is played in rounds; every game of a round runs at once, and the next round is
paired once the last of them ends. Two formats:

- **round robin**: every entrant meets every other. Two-seat tables follow the circle method
  (each pair exactly once); larger tables are formed so that pairs of entrants meet as evenly
  as can be, over enough rounds for each entrant to meet every other at least about once.
- **Swiss**: a number of rounds set by the creator. The first is seeded (`seeded`): the entrants
  in order of strength (the application orders them by rating) are cut into as many bands as a
  table has seats and each table takes one entrant from each band, so every table has a spread of
  strength (at two seats, the top half against the bottom half). Each later round's tables are formed within score
  groups (entrants in standings order), rearranged so that nobody sits with a player they met
  before where that can be avoided, and then so that scores at a table are as close as can be.

Points go by finishing place: a seat scores one point for each seat it finished above and half
a point for each seat it tied with (at a four-seat table 3, 2, 1 and 0). When the entrants do
not fill whole tables, those left over sit the round out (a bye, each entrant's first before
anyone's second, the lowest in the standings first in a Swiss) and score half of first place's
points. Standings order: points, then the sum of the points of every opponent met at each table
(Buchholz), then first places, then sign-up order.

An entrant who withdraws is paired no more (their running games are forfeited); one who ran out
of time in every game of a round is withdrawn. Points already scored stay."""
