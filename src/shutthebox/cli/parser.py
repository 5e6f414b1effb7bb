"""The command line's parser pieces: one-line errors, help in the user's language, the rule flags.

Every subcommand that takes rules uses the same flags, named after the rule
options (``--tiles``, ``--one-die``, …, ``--preset``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

from shutthebox.core.rules import PRESETS, Mode, OneDie, Rules, Scoring
from shutthebox.i18n import Lang, detect_language

__all__ = ["RULE_FLAGS", "CliError", "Parser", "add_rules_options", "h", "number_type", "rules_from_args"]

_N = TypeVar("_N", int, float)


class CliError(Exception):
    """A problem with the command line, reported in one line."""


def h(lang: Lang, en: str, es: str) -> str:
    """A help text in ``lang``: ``en`` in English, ``es`` in Spanish."""
    return es if lang == "es" else en


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, with the usage line's prefix in the parser's language."""

    usage_prefix = "usage: "

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self.usage_prefix if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """argparse that reports errors in one line, without the usage block, and helps in ``lang``.

    argparse's own words (``usage:``, the section titles, ``-h``) follow ``lang`` too;
    ``lang`` defaults to the locale's language.
    """

    def __init__(self, *, lang: Lang | None = None, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(add_help=False, **kwargs)
        self.lang: Lang = lang or detect_language(None)
        self._positionals.title = h(self.lang, "positional arguments", "argumentos posicionales")
        self._optionals.title = h(self.lang, "options", "opciones")
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", default=argparse.SUPPRESS,
                help=h(self.lang, "show this help message and exit", "mostrar esta ayuda y salir"),
            )

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = super()._get_formatter()
        if isinstance(formatter, _Formatter):
            formatter.usage_prefix = h(self.lang, "usage: ", "uso: ")
        return formatter

    def error(self, message: str) -> NoReturn:
        if self.lang == "es":
            message = _usage_error_es(message)
        see = h(self.lang, "see --help", "consulta --help")
        self.exit(2, f"{self.prog}: error: {message} ({see})\n")


_USAGE_ERRORS_ES: tuple[tuple[str, str], ...] = (
    (r"invalid choice: (.*) \(choose from (.*)\)", r"valor no válido: \1 (elige entre \2)"),
    (r"invalid int value: (.*)", r"\1 no es un número entero"),
    (r"invalid float value: (.*)", r"\1 no es un número"),
    (r"the following arguments are required: (.*)", r"faltan argumentos obligatorios: \1"),
    (r"unrecognized arguments: (.*)", r"argumentos no reconocidos: \1"),
    (r"expected one argument", "falta su valor"),
    (r"not allowed with argument (.*)", r"no se puede usar junto con \1"),
    (r"ambiguous option: (\S+) could match (.*)", r"opción ambigua: \1 puede ser \2"),
    (r"(.*) is not a whole number", r"\1 no es un número entero"),
    (r"(.*) is not a port number", r"\1 no es un número de puerto"),
    (r"(.*) is not a number of seconds", r"\1 no es un número de segundos"),
    (r"port (\S+) is not between (\S+) and (\S+)", r"el puerto \1 no está entre \2 y \3"),
    (r"(.*) must be between (\S+) and (\S+) seconds", r"\1 debe estar entre \2 y \3 segundos"),
    (r"(.*) must be between (\S+) and (\S+)", r"\1 debe estar entre \2 y \3"),
    (r"(.*) must be (\S+) or more", r"\1 debe ser \2 o más"),
)
"""argparse's usage errors (and those of `number_type`) in Spanish; others stay as they are."""


def _usage_error_es(message: str) -> str:
    """A usage error of argparse in Spanish: ``argument --tiles: invalid …`` → ``argumento --tiles: …``."""
    prefix, body = "", message
    named = re.fullmatch(r"argument (\S+): (.*)", message, re.DOTALL)
    if named:
        prefix, body = f"argumento {named[1]}: ", named[2]
    for pattern, spanish in _USAGE_ERRORS_ES:
        if re.fullmatch(pattern, body, re.DOTALL):
            body = re.sub(pattern, spanish, body, count=1, flags=re.DOTALL)
            break
    return prefix + body


def number_type(
    convert: Callable[[str], _N],
    low: float,
    high: float | None = None,
    *,
    kind: str = "a whole number",
    refusal: str | None = None,
) -> Callable[[str], _N]:
    """An argparse type: ``convert`` the text, refused in one line outside ``low``..``high``.

    ``refusal`` words the out-of-range message (``{text}`` and ``{value}`` are filled in).
    """

    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        if not (low <= value if high is None else low <= value <= high):
            if refusal is not None:
                message = refusal.format(text=text, value=value)
            elif high is None:
                message = f"{text!r} must be {low} or more"
            else:
                message = f"{text!r} must be between {low} and {high}"
            raise argparse.ArgumentTypeError(message)
        return value

    return parse


positive = number_type(int, 1)
natural = number_type(int, 0)


def add_rules_options(parser: argparse.ArgumentParser, lang: Lang | None = None) -> None:
    """The rule flags shared by every subcommand that takes rules, helped in ``lang``."""
    lang = lang or detect_language(None)
    group = parser.add_argument_group(h(
        lang,
        "rules (SPEC.md; a preset first, then each flag over it)",
        "reglas (SPEC.md; primero un conjunto predefinido, y luego cada opción lo cambia)",
    ))
    group.add_argument("--preset", choices=list(PRESETS), help=h(
        lang, "start from a named rule set", "partir de un conjunto de reglas con nombre"
    ))
    group.add_argument("--tiles", type=positive, help=h(
        lang, "tiles 1..N on the board, 1-12 (9)", "fichas 1..N del tablero, de 1 a 12 (9)"
    ))
    group.add_argument("--one-die", choices=[o.value for o in OneDie], help=h(
        lang, "when one die may be rolled (high-shut)", "cuándo se puede tirar un solo dado (high-shut)"
    ))
    group.add_argument("--one-die-forced", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "one die must be rolled whenever it is allowed (off)",
        "hay que tirar un solo dado siempre que se permita (desactivado)",
    ))
    group.add_argument("--max-tiles", type=positive, help=h(
        lang, "at most this many tiles per roll", "como mucho tantas fichas por tirada"
    ))
    group.add_argument("--scoring", choices=[s.value for s in Scoring], help=h(
        lang, "how open tiles score (sum)", "cómo puntúan las fichas abiertas (sum)"
    ))
    group.add_argument("--mode", choices=[m.value for m in Mode], help=h(
        lang, "way to play (round)", "modalidad de juego (round)"
    ))
    group.add_argument("--shut-wins", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "shutting the box wins the round at once (on)",
        "cerrar la caja gana la ronda en el acto (activado)",
    ))
    group.add_argument("--stake", type=natural, help=h(
        lang, "stake each player puts in the pot (0)", "apuesta que cada jugador pone en el bote (0)"
    ))
    group.add_argument("--limit", type=positive, help=h(
        lang,
        "elimination total that retires (45)",
        "total con el que un jugador queda eliminado (45)",
    ))
    group.add_argument("--doubles-extra-turn", action=argparse.BooleanOptionalAction, help=h(
        lang,
        "a double earns an extra roll after a miss (on in the long game only)",
        "un doble da una tirada extra tras fallar (activado solo en el juego largo)",
    ))


RULE_FLAGS = (
    "tiles", "one_die", "one_die_forced", "max_tiles", "scoring", "mode",
    "shut_wins", "stake", "limit", "doubles_extra_turn",
)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the flags describe: the preset (or classic) with each given flag over it."""
    changes = {name: getattr(args, name) for name in RULE_FLAGS if getattr(args, name) is not None}
    return Rules.preset(args.preset or "classic", **changes)
