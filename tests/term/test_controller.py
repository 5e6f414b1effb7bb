"""The terminal game's controller without a terminal: keys as calls, the screen as a frozen `Scene`,
and what a shell runs in workers done here at once, in order, by a runner of the test's own."""

from __future__ import annotations

import subprocess
import sys
from collections import deque
from collections.abc import Callable

from shutthebox import Mode, Move, Phase, Rules
from shutthebox.core.game import ROLL, Due, Game, Wait
from shutthebox.core.match import Match
from shutthebox.strategy.bots import Seated, make_bot
from shutthebox.term.controller import Controller
from shutthebox.term.session import PlaySetup
from tests.support.tui import ROLLS, Broken, Wrong, dice

ONE_TILE = Rules(mode=Mode.ROUND, max_tiles=1)
"""One tile a roll: 6+6 makes nothing, so a turn can end on its first roll."""
class Inline:
    """A runner that does at once, in order, what the Textual shell does in workers: a bot's step
    (`Game.think`: its fallback's when it fails), its fallback's when its choice is refused, the
    advice (a line naming the state), and keeping (a line)."""

    def __init__(self) -> None:
        self.controller: Controller | None = None
        self.chores: deque[Callable[[], None]] = deque()
        self.rescued: list[Due] = []

    @property
    def game(self) -> Game:
        assert self.controller is not None and self.controller.game is not None
        return self.controller.game

    def bot(self, due: Due) -> None:
        def step() -> None:
            assert self.controller is not None
            self.controller.bot_step(due, ROLL if due.wait is Wait.CHANCE else self.game.think(due))

        self.chores.append(step)

    def rescue(self, due: Due) -> None:
        self.rescued.append(due)
        self.chores.append(lambda: self.ctl.bot_step(due, self.game.rescue(due), fallback=True))

    def advise(self, state: Match) -> None:
        self.chores.append(lambda: self.ctl.advised(state, [f"advice: {state.describe()}"]))

    def keep(self, game: Game, setup: PlaySetup) -> None:
        self.chores.append(lambda: self.ctl.kept(["kept"]))

    @property
    def ctl(self) -> Controller:
        assert self.controller is not None
        return self.controller

    def run(self) -> None:
        while self.chores:
            self.chores.popleft()()


def controller(*rolls: str, rules: Rules = ONE_TILE, bots: tuple[str, ...] = ("greedy",),
               companion: bool = False) -> tuple[Controller, Inline]:
    runner = Inline()
    control = Controller(runner, lang="en", dice=dice(*rolls), handover_delay=0, repeat_gap=0)
    runner.controller = control
    control.start(PlaySetup(rules=rules, humans=("Ana",), bots=bots, companion=companion, lang="en"))
    runner.run()
    return control, runner


def seat(control: Controller, own: object, fallback: object | None = None) -> None:
    """Seat 1 is played from now on by ``own``, with ``fallback`` (else the heuristic) to fall back on."""
    assert control.game is not None
    control.game.seat_bot(1, Seated(own, fallback or make_bot("heuristic")))  # type: ignore[arg-type]


def play_anas_turn(control: Controller, runner: Inline) -> None:
    """Ana's die for the start (5, the bot's 3: she starts), then her roll of 6+6 that ends her turn."""
    for _ in range(2):
        control.confirm()
        runner.run()


def test_the_controller_imports_no_textual() -> None:
    """Attributes down, messages up: the controller holds the game and draws nothing."""
    code = (
        "import sys, shutthebox.term.controller, shutthebox.term.model\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'}))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_a_round_against_a_bot_by_calls_and_its_scenes() -> None:
    control, runner = controller(*ROLLS)
    first = control.scene()
    assert first == control.scene() and first.table is not None  # a value, the same when nothing moved
    assert first.table.status == "Ana: roll one die to see who starts."
    play_anas_turn(control, runner)
    final = control.state
    assert final is not None and final.is_over and final.winner == 1
    assert [t.score for t in final.history] == [45, 38]
    assert "Bot (greedy) shuts 7." in control.log and control.log[-1] == "kept"
    assert control.saved[-1].result is not None
    scene = control.scene()
    assert scene.table is not None and scene.table.status == "Bot (greedy) wins the game!"
    assert ("n", "new game") in scene.keys


def test_a_bot_that_fails_is_replaced_by_its_fallback_and_keeps_its_seat() -> None:
    control, runner = controller(*ROLLS)
    seat(control, Broken())
    play_anas_turn(control, runner)
    assert control.game is not None and control.state is not None and control.state.is_over
    assert "Bot (greedy) shuts 7." in control.log  # the heuristic's choice, the only one
    assert 1 in control.game.bots and not runner.rescued


def test_a_bot_whose_choice_is_refused_is_replaced_by_its_fallback() -> None:
    control, runner = controller(*ROLLS)
    seat(control, Wrong())
    play_anas_turn(control, runner)
    assert len(runner.rescued) == 1 and runner.rescued[0].state.roll is not None
    assert control.state is not None and control.state.is_over and "Bot (greedy) shuts 7." in control.log
    assert control.message == ""


def test_when_even_the_fallback_is_refused_a_person_takes_the_seat() -> None:
    control, runner = controller(*ROLLS)
    seat(control, Wrong(), Wrong())
    play_anas_turn(control, runner)
    assert control.game is not None and 1 not in control.game.bots
    assert control.message.startswith("Not allowed: ")
    due = control.game.due()
    assert due.wait is Wait.PERSON and due.seat == 1 and due.state.phase is Phase.MOVE
    control.number(7)
    control.confirm()  # shut 7 for the seat, then roll its 6+6
    control.confirm()
    runner.run()
    assert control.state is not None and control.state.is_over and "Bot (greedy) shuts 7." in control.log


def test_answers_for_a_state_the_game_has_left_are_dropped() -> None:
    control, runner = controller("3,4", "6,6", rules=Rules(mode=Mode.SOLO), bots=())
    control.confirm()
    runner.run()
    rolled = control.state
    assert rolled is not None and rolled.phase is Phase.MOVE
    control.ask_hint()
    assert control.hint == ("Thinking…",)
    pending = list(runner.chores)
    runner.chores.clear()
    control.number(7)
    control.confirm()  # shut 7 before the advice came
    for chore in pending:
        chore()
    assert control.hint == ()  # advice for the state left behind is dropped
    old = Due(Wait.BOT, rolled)
    control.bot_step(old, Move.parse("4+3"))
    assert control.state is not None and control.state.board.shut_tiles == (7,)  # nothing played twice


def test_companion_advice_is_asked_once_a_decision_and_shown() -> None:
    control, runner = controller(rules=Rules(mode=Mode.SOLO), bots=(), companion=True)
    control.number(3)
    control.number(4)
    assert control.hint == ("Thinking…",)
    runner.run()
    state = control.state
    assert state is not None and control.hint == (f"advice: {state.describe()}",)
    assert control.scene().table is not None and control.scene().table.hint.startswith("advice: ")  # type: ignore[union-attr]
