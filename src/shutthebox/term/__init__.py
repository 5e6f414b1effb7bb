"""The terminal games: the full-screen Textual app and the plain, line-by-line game.

`app.ShutTheBoxApp` holds one immutable `Match` and redraws from it; `widgets`
draw, `view` turns the state into what they draw, `screens` hold the setup
form and the review, and `keys` is the keyboard as data. `plain` is the
line-by-line game; `narrate`, `hints`, `session` and `scores` serve both.
"""
