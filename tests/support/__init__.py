"""What the tests share, in one package with one name: ``tests.support.<module>``.

- `drive`: a match driven by a short script; brute-force move lists; random play; fair dice for rolls.
- `oracle`, `round_oracle`, `strategies`: references for the solver written from the rules alone,
  and Hypothesis strategies of rule sets.
- `services`: private Redis and PostgreSQL servers (a pytest plugin: ``redis_url``, ``postgres_url``,
  ``postgres_database``), one of each per session, so one per xdist worker.
- `serving`, `remote`: a real ``shutthebox serve`` on a free port; a player over HTTP and WebSocket.
- `web`: the app in process through a TestClient (a room seen through a seat token).
- `storage`: games to store. `cli`: the command run in process. `tui`: the Textual app driven.
- `browser`, `play`: Chromium, fresh pages and screenshots; playing through the page as a person.

No test module imports another, nor a helper by a second name.
"""
