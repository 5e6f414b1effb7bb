"""The rules of the game and its flow, in the standard library only.

`board` (tiles and moves over bitmasks), `dice` (rolls and their exact
chances), `rules` (every rule option, with presets), `match` (a whole game as
one frozen state that says who acts, whether dice are due and what is legal),
`record` (a game as JSON that replays), `game` (the one driver: a match in play
with its dice, bots and record) and `errors` (the `ValueError` family, and
`Phrase`, words to be said in the reader's language). `tiles` (mask arithmetic,
grades) and `options` (the classic defaults) are light enough for any command
to import at start-up. Nothing here imports the strategy, the storage or an
interface.
"""
