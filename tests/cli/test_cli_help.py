"""``--help`` in the reader's language (English and Spanish here): ``--lang`` first, else the locale,
else English."""

from __future__ import annotations

import argparse

import pytest

from shutthebox.cli import build_parser, main
from shutthebox.i18n import Lang, translations, using
from shutthebox.strategy.names import STRATEGIES
from tests.support.cli import in_english

# For each subcommand: a phrase of its description and one of an option's help, in each language.
PHRASES: dict[str, dict[str, tuple[str, str]]] = {
    "play": {
        "en": ("Play a game in the terminal", "a practice game: dice and bots from this seed"),
        "es": ("Juega una partida en la terminal", "una partida de práctica: dados y robots de esta semilla"),
    },
    "atlas": {
        "en": ("Write the strategy atlas into OUTDIR", "games simulated for each bot"),
        "es": ("Escribe el atlas de estrategia en CARPETA", "partidas simuladas por cada robot"),
    },
    "cheatsheet": {
        "en": ("Write a page to print and keep beside a real box", "the HTML file to write"),
        "es": ("Escribe una página para imprimir", "el archivo HTML que escribir"),
    },
    "train": {
        "en": ("Train on positions where a common habit", "puzzles in the session"),
        "es": ("Entrena con posiciones donde un hábito común", "ejercicios de la sesión"),
    },
    "daily": {
        "en": ("Practise the day's challenge in the terminal", "the day to practise"),
        "es": ("Practica el reto del día en la terminal", "el día que practicar"),
    },
    "scores": {
        "en": ("Show personal bests per board size", "how many recent games to list"),
        "es": ("Muestra las mejores marcas personales", "cuántas partidas recientes mostrar"),
    },
    "stats": {
        "en": ("Show a player's statistics per board size", "only boards of N tiles"),
        "es": ("Muestra las estadísticas de un jugador por tamaño", "solo tableros de N fichas"),
    },
    "replay": {
        "en": ("check every action", "print the replayed result as JSON"),
        "es": ("comprueba cada acción", "imprimir en JSON el resultado de la repetición"),
    },
    "verify": {
        "en": ("Check a game record of fair dice", "print the verdict as one JSON object"),
        "es": ("Comprueba el registro de una partida con dados justos",
               "imprimir el veredicto como un objeto JSON"),
    },
    "solve": {
        "en": ("Solve the game exactly", "also print the exact rational value"),
        "es": ("Resuelve el juego de forma exacta", "mostrar también el valor racional exacto"),
    },
    "hint": {
        "en": ("Rank every choice of a position", "open tiles, e.g. 1,5,9"),
        "es": ("Ordena cada opción de una posición", "fichas abiertas, p. ej. 1,5,9"),
    },
    "simulate": {
        "en": ("Simulate many turns of a strategy", "seed of the dice (0)"),
        "es": ("Simula muchos turnos de una estrategia", "semilla de los dados (0)"),
    },
    "review": {
        "en": ("Review a game record", "a game record (JSON)"),
        "es": ("Revisa el registro de una partida", "el registro de una partida (JSON)"),
    },
    "serve": {
        "en": ("Start the web app", "address to listen on"),
        "es": ("Arranca la aplicación web", "dirección en la que escuchar"),
    },
    "loadtest": {
        "en": ("Play many whole solo games", "games in play at once"),
        "es": ("Juega muchas partidas completas en solitario", "partidas en juego a la vez"),
    },
}
RULES = {"en": "when one die may be rolled", "es": "cuándo se puede tirar un solo dado"}
ARGPARSE = {"en": ("usage: ", "options:", "show this help message and exit"),
            "es": ("uso: ", "opciones:", "mostrar esta ayuda y salir")}
OTHER = {"en": "es", "es": "en"}


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """A neutral locale (English) unless a test says otherwise."""
    in_english(monkeypatch)


def spanish_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")


def subcommands(lang: Lang) -> dict[str, argparse.ArgumentParser]:
    with using(lang):
        parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The help the command prints, its lines joined (argparse wraps them to the terminal)."""
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out, err = capsys.readouterr()
    assert exit_.value.code == 0 and err == ""
    return " ".join(out.split())


def assert_in(lang: str, out: str, name: str) -> None:
    description, option = PHRASES[name][lang]
    assert description in out and option in out, (lang, name)
    other_description, other_option = PHRASES[name][OTHER[lang]]
    assert other_description not in out and other_option not in out, (lang, name)
    prefix, options, help_help = ARGPARSE[lang]
    assert out.startswith(prefix) and options in out and help_help in out


def test_every_subcommand_has_phrases() -> None:
    assert set(subcommands("en")) == set(subcommands("es")) == set(PHRASES)


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_lang_es_gives_spanish_help(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert_in("es", help_of(capsys, "--lang", "es", name, "--help"), name)
    assert_in("es", help_of(capsys, "--lang=es", name, "--help"), name)


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_spanish_locale_gives_spanish_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    spanish_locale(monkeypatch)
    assert_in("es", help_of(capsys, name, "--help"), name)


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_default_help_is_english(capsys: pytest.CaptureFixture[str], name: str) -> None:
    assert_in("en", help_of(capsys, name, "--help"), name)


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_lang_en_wins_over_a_spanish_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    spanish_locale(monkeypatch)
    assert_in("en", help_of(capsys, "--lang", "en", name, "--help"), name)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("name", sorted(PHRASES))
def test_every_option_appears_in_both_languages(
    capsys: pytest.CaptureFixture[str], lang: Lang, name: str
) -> None:
    out = help_of(capsys, "--lang", lang, name, "--help")
    parser = subcommands(lang)[name]
    options = [option for action in parser._actions for option in action.option_strings]
    assert "--help" in options and len(options) > 2
    for option in options:
        assert option in out, (lang, name, option)
    for action in parser._actions:
        if action.choices and not isinstance(action, argparse._SubParsersAction):
            for choice in action.choices:
                assert str(choice) in out, (lang, name, choice)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_rule_flags_are_helped_in_the_language(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    for name in ("play", "solve", "hint", "simulate"):
        out = help_of(capsys, "--lang", lang, name, "--help")
        assert RULES[lang] in out and RULES[OTHER[lang]] not in out, (lang, name)


def test_top_level_help_in_both_languages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    english = help_of(capsys, "--help")
    assert english.startswith("usage: shutthebox")
    assert "play, solve and study the dice game" in english and "play in the terminal" in english
    spanish = help_of(capsys, "--lang", "es", "--help")
    assert spanish.startswith("uso: shutthebox")
    assert "juega, resuelve y estudia el juego de dados" in spanish
    assert "jugar en la terminal" in spanish and "argumentos posicionales" in spanish
    spanish_locale(monkeypatch)
    assert help_of(capsys, "--help") == spanish
    for out in (english, spanish):
        assert "--version" in out and "--lang" in out
        for name in PHRASES:
            assert name in out


def test_lang_after_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert_in("es", help_of(capsys, "play", "--lang", "es", "--help"), "play")
    assert_in("es", help_of(capsys, "--lang", "en", "play", "--lang=es", "--help"), "play")


def test_build_parser_speaks_the_language_in_use() -> None:
    assert build_parser().format_help().startswith("usage: ")
    with using("es"):
        spanish = build_parser().format_help()
        assert spanish.startswith("uso: ") and "argumentos posicionales" in spanish
    assert build_parser().format_help().startswith("usage: ")


def test_the_strategies_are_described_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_of(capsys, "--lang", "es", "simulate", "--help")
    assert "estrategias: random: " in out
    spanish = translations("es")
    for name, described in STRATEGIES.items():
        assert spanish.gettext(described) != described  # translated
        assert f"{name}: {spanish.gettext(described)}" in out


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["--bot-delay SECONDS", "--data DIR", "sqlite:///FILE", "--trust-proxy ADDRESSES"]),
    ("es", ["--bot-delay SEGUNDOS", "--data CARPETA", "sqlite:///ARCHIVO", "--trust-proxy DIRECCIONES"]),
])
def test_what_an_option_takes_is_named_in_the_language(
    capsys: pytest.CaptureFixture[str], lang: str, words: list[str]
) -> None:
    """Regression: the Spanish help named the values of the options in English (SECONDS, FILE…)."""
    text = " ".join(help_of(capsys, "--lang", lang, "serve", "--help").split())
    for word in words:
        assert word in text
