"""A finished terminal game saved to the history, and how each person did against their best.

A finished terminal game is saved in the same store as the web app's (SQLite
in the user data folder, or ``$SHUTTHEBOX_DB``) through the `storage` repositories (SQLAlchemy);
saving tells each person how the game compares with their best under the same rules and board
size. Reading the bests back, for ``shutthebox scores``, is `term.scores`, which starts without
SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Sequence

from shutthebox.core.daily import PracticeDice
from shutthebox.core.errors import ShutTheBoxError
from shutthebox.core.game import Game
from shutthebox.core.ranking import Unranked
from shutthebox.i18n import _, ngettext, say
from shutthebox.storage.database import Database
from shutthebox.storage.games import GameRepository
from shutthebox.storage.profiles import ProfileRepository
from shutthebox.term.profile import link_profile

__all__ = ["save_finished", "unranked_line"]


def save_finished(game: Game, humans: Sequence[str]) -> list[str]:
    """Store a finished game and say how each person did against their best.

    Only fair dice count (docs/fairness.md): a game whose dice were typed in at a
    real box (companion mode) or drawn from a chosen seed (practice) is kept but
    counts for no best, and a turn with a hint counts as it stood when the hint
    came (`core.ranking`); each is said plainly, so nobody takes a score for a
    record it is not. The seat played under this machine's profile is compared with the profile's
    best, every other person's with the best of the guest of that name. A store that
    cannot be opened or written costs the player only a message.
    """
    record = game.record()
    source = "companion" if game.by_hand else "terminal"
    try:
        with Database.open() as database:
            games = GameRepository(database)
            profiles, news = link_profile(ProfileRepository(database), record.players, humans)
            linked = {record.players[seat] for seat in profiles}
            held = {  # a seat kept as a guest's under a profile's name: the history shows the profile's
                name for name in humans if name not in linked and ProfileRepository(database).named(name)
            }
            before = {  # a guest's best is a guest's: never a profile's that has the same name
                name: games.best(name, record.rules, guest=name not in linked) for name in humans
            }
            game_id = game.save(games, source=source, profiles=profiles)
    except (ShutTheBoxError, ImportError, OSError) as error:
        return [_("The game could not be saved to the history: {reason}").format(reason=say(error))]
    except Exception as error:  # a database driver error must not lose the game on screen
        reason = type(error).__name__
        return [_("The game could not be saved to the history: {reason}").format(reason=reason)]
    lines = [_("Saved to your history (game {id}).").format(id=game_id)]
    told = [news] if news else []
    results = record.results(humans, {name: best.score for name, best in before.items() if best is not None})
    unranked = next((result.unranked for result in results), None)
    if unranked is not None:
        if isinstance(game.dice, PracticeDice):  # the day's dice, not revealed: a practice, not unfair
            said = _(
                "A practice of the day's challenge (its dice, not its ranked attempt), "
                "so it counts for no best."
            )
            return [*lines, said, *told]
        return [*lines, unranked_line(unranked, record.seed), *told]
    for result in results:
        if result.counted is None:
            continue
        if result.new_best:
            lines.append(ngettext(
                "New personal best for {player} on {tiles} tile: {score}!",
                "New personal best for {player} on {tiles} tiles: {score}!", record.rules.tiles,
            ).format(
                player=result.player, score=result.counted, tiles=record.rules.tiles
            ))
        else:
            best = result.counted if result.best_before is None else min(result.counted, result.best_before)
            lines.append(
                ngettext(
                    "{player}'s best on {tiles} tile with these rules: {best}.",
                    "{player}'s best on {tiles} tiles with these rules: {best}.", record.rules.tiles,
                ).format(
                    player=result.player, best=best, tiles=record.rules.tiles
                )
            )
        if result.player in held:  # the history names the profile's best under that name, not the guest's
            lines.append(_(
                "This game is kept as a guest's: shutthebox scores shows the best of the profile {player}, "
                "which is not this machine's."
            ).format(player=result.player))
    helped = [result.player for result in results if result.helped]
    if helped:
        lines.append(ngettext(
            "{players} asked for a hint, so that turn counts as it stood when the hint came.",
            "{players} asked for hints, so each turn with a hint counts as it stood when the hint came.",
            len(helped),
        ).format(players=", ".join(helped)))
    return [*lines, *told]


def unranked_line(reason: Unranked, seed: int | None) -> str:
    """Why no turn of a game counts for a best, in a sentence."""
    if reason is Unranked.TYPED:
        return _("The dice were typed in, so this game counts for no best.")
    if reason is Unranked.PRACTICE:
        practice = _("A practice game (dice from the chosen seed {seed}), so it counts for no best.")
        return practice.format(seed=seed)
    return _("The dice were not rolled under the fair scheme, so this game counts for no best.")
