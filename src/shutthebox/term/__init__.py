"""The terminal games: the full-screen Textual app and the plain, line-by-line game.

`controller` holds the game and what the people at the keyboard are doing with it, with no Textual
in it, and makes the frozen `model.Scene` that `view` puts in words; `app.ShutTheBoxApp` is the
Textual shell (keys, workers, the other screens), `game_screen` draws the scene with the `widgets`,
`screens` hold the setup form, the review, the help and the questions, and `keys` is the keyboard
as data. `plain` is the line-by-line game; `narrate`, `hints`, `session` and `scores` serve both.
"""
