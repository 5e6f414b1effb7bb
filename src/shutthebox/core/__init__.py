"""The rules of the game and its flow, in the standard library only.

`board` (tiles and moves over bitmasks), `dice` (rolls and their exact
chances), `rules` (every rule option, with presets), `match` (a whole game as
one frozen state), `record` (a game as JSON that replays), `game` (a match in
play with its dice and record) and `errors` (the `ValueError` family). Nothing
here imports the strategy, the storage or an interface.
"""
