"""The words a person reads, in their language: gettext catalogs, one `.po` file per language.

English is the source language: the code says ``_("Roll the dice")`` and each
other language is ``locale/<lang>/LC_MESSAGES/shutthebox.po``, compiled to a
``.mo`` by Babel (``make catalogs``). Adding a language is adding its ``.po``
file: `languages` lists every catalog it finds (in this package, and in the
folders named by ``$SHUTTHEBOX_LOCALES``), and the command line, the terminal
games and the page offer it. The page reads the same catalogs as JSON
(`shutthebox.i18n.export`).

The language in use is the process's (`activate`, for the command line and the
terminal games), or, inside `using`, the context's (a web request, a test).
Errors and other words of the core are `Phrase` values (an English template and
its values): `say` speaks them in the language in use.
"""

from __future__ import annotations

import errno
import gettext as _gettext
import os
from contextvars import ContextVar, Token
from functools import cache
from urllib.parse import parse_qs

from shutthebox.core.errors import N_, Figure, Phrase, ShutTheBoxError

__all__ = [
    "DOMAIN",
    "LOCALES_VAR",
    "LOCALE_DIR",
    "N_",
    "SOURCE",
    "Lang",
    "_",
    "accepted_language",
    "activate",
    "catalog_file",
    "decimal",
    "detect_language",
    "language",
    "language_name",
    "language_named",
    "languages",
    "ngettext",
    "percent",
    "pgettext",
    "requested_language",
    "say",
    "translations",
    "using",
]

Lang = str
"""A language tag as the catalogs are named: ``en``, ``es``, ``pt_BR``, ``en@pseudo``."""

DOMAIN = "shutthebox"
SOURCE: Lang = "en"
"""The language of the messages in the code."""
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")  # os.path, not pathlib: fast start
LOCALES_VAR = "SHUTTHEBOX_LOCALES"
"""More folders of catalogs (``<lang>/LC_MESSAGES/shutthebox.po``), separated like ``$PATH``."""

_process_language: Lang = SOURCE
_context_language: ContextVar[tuple[Lang, _gettext.NullTranslations] | None] = ContextVar(
    "shutthebox_language", default=None
)
"""The language of a `using` block and its catalog, found once as the block starts (a state drawn
for a socket says dozens of messages)."""


def _folders() -> tuple[str, ...]:
    return _folders_of(os.environ.get(LOCALES_VAR, ""))  # read each time: a test may set it


@cache
def _folders_of(extra: str) -> tuple[str, ...]:
    """The catalog folders for ``$SHUTTHEBOX_LOCALES``'s value: made once, as every message asks."""
    return (*(folder for folder in extra.split(os.pathsep) if folder), LOCALE_DIR)


def catalog_file(lang: Lang) -> str | None:
    """The path of the ``.po`` file of ``lang`` (the first found), or None."""
    for folder in _folders():
        po = os.path.join(folder, lang, "LC_MESSAGES", f"{DOMAIN}.po")
        if os.path.isfile(po):
            return po
    return None


def languages() -> tuple[Lang, ...]:
    """Every language there is a catalog for, English first (looked up once per set of folders)."""
    return _languages(_folders())


@cache
def _languages(folders: tuple[str, ...]) -> tuple[Lang, ...]:
    found = {
        name
        for folder in folders
        if os.path.isdir(folder)
        for name in os.listdir(folder)
        if os.path.isfile(os.path.join(folder, name, "LC_MESSAGES", f"{DOMAIN}.po"))
    }
    return (SOURCE, *sorted(found - {SOURCE}))


def translations(lang: Lang) -> _gettext.NullTranslations:
    """The catalog of ``lang`` (English, the source, has none: its messages are the code's).

    Found and loaded once per set of catalog folders: every message said goes through here, so
    English, which no folder can hold a catalog for, does not even read which folders there are.
    """
    if lang == SOURCE:
        return _NO_CATALOG
    return _translations(lang, _folders())


_NO_CATALOG = _gettext.NullTranslations()


@cache
def _translations(lang: Lang, _folders: tuple[str, ...]) -> _gettext.NullTranslations:
    """The compiled catalog beside the ``.po``; compiled here (Babel) when missing or older than it."""
    po = None if lang == SOURCE else catalog_file(lang)
    if po is None:
        return _gettext.NullTranslations()
    mo = po.removesuffix(".po") + ".mo"
    if os.path.isfile(mo) and os.path.getmtime(mo) >= os.path.getmtime(po):
        with open(mo, "rb") as handle:
            return _gettext.GNUTranslations(handle)
    from io import BytesIO

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    lang = os.path.basename(os.path.dirname(os.path.dirname(po)))
    with open(po, "rb") as handle:
        catalog = read_po(handle, locale=lang.partition("@")[0])
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def activate(lang: Lang) -> None:
    """Speak ``lang`` from now on, in this process (the command line, the terminal games)."""
    global _process_language  # noqa: PLW0603 - the process's one language, as gettext's own
    _process_language = lang


class using:  # noqa: N801 - reads as a function: ``with using("es"):``
    """Speak ``lang`` inside the block, in this context only (a web request, a test).

    A class, not a `contextlib` generator: every command imports this module first.
    """

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self._tokens: list[Token[tuple[Lang, _gettext.NullTranslations] | None]] = []

    def __enter__(self) -> None:
        self._tokens.append(_context_language.set((self.lang, translations(self.lang))))

    def __exit__(self, *_exc: object) -> None:
        _context_language.reset(self._tokens.pop())


def language() -> Lang:
    """The language in use."""
    spoken = _context_language.get()
    return spoken[0] if spoken is not None else _process_language


def _catalog() -> _gettext.NullTranslations:
    """The catalog of the language in use."""
    spoken = _context_language.get()
    return spoken[1] if spoken is not None else translations(_process_language)


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _catalog().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a message for ``count`` things, in the language in use."""
    return _catalog().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, where the same English means different things."""
    return _catalog().pgettext(context, message)


def decimal(value: float, digits: int, *, signed: bool = False) -> str:
    """``value`` with ``digits`` decimals as the language in use writes it: 4.23, 4,23 (``signed``: +4,23)."""
    written = f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"
    # Translators: the decimal separator of your language: "," for 4,23
    return written.replace(".", pgettext("decimal separator", "."))


def percent(value: float, digits: int = 1) -> str:
    """The fraction ``value`` as a percentage the language in use writes: 54.2%, 54,2 % (a no-break space)."""
    # Translators: a percentage, {n} its number: "{n}\u00a0%" where a space (no-break) comes before %
    return pgettext("percentage", "{n}%").format(n=decimal(value * 100, digits))


def language_name(lang: Lang) -> str:
    """The name of ``lang`` in itself: ``English``, ``Español``."""
    # Translators: the name of your language, in your language.
    return translations(lang).pgettext("language name", "English")


def detect_language(explicit: str | None = None) -> Lang:
    """``explicit`` if there is a catalog for it, else the locale's language (gettext's order
    of variables), else English. ``es_ES.UTF-8`` finds ``es``; ``en@pseudo`` finds itself."""
    known = languages()
    wanted = [explicit] if explicit else []
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            wanted += value.split(":") if var == "LANGUAGE" else [value]
            if var != "LANGUAGE":
                break
    for tag in wanted:
        for candidate in _candidates(tag):
            if candidate in known:
                return candidate
    return SOURCE


def accepted_language(header: str | None) -> Lang:
    """The best language there is a catalog for in an HTTP ``Accept-Language`` header, else English."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, index, tag))
    for _quality, _index, tag in sorted(ranked):
        if (found := language_named(tag)) is not None:
            return found
    return SOURCE


def requested_language(query: str, accept_language: str) -> Lang:
    """The language a web request asks for: its address's ``lang`` (``?lang=es``, ``ES``, ``es-MX``)
    if there is a catalog for it, else the best of its ``Accept-Language`` header."""
    asked = parse_qs(query).get("lang", [""])[-1]
    found = language_named(asked) if asked else None
    return found if found is not None else accepted_language(accept_language)


def language_named(tag: str) -> Lang | None:
    """The language with a catalog that ``tag`` names (``es``, ``ES``, ``es-MX``), or None."""
    known = languages()
    return next((candidate for candidate in _candidates(tag) if candidate in known), None)


def _candidates(tag: str) -> list[str]:
    """``es_ES.UTF-8@euro`` → ``es_ES@euro``, ``es_ES``, ``es@euro``, ``es``; a tag's case is no
    matter (``ES``, ``es-mx``: RFC 5646), the catalogs' names are ``ll`` or ``ll_RR``."""
    tag = tag.replace("-", "_")
    base, _sep, modifier = tag.partition("@")
    language_part, _sep, region = base.partition(".")[0].partition("_")
    language_part = language_part.lower()
    base = f"{language_part}_{region.upper()}" if region else language_part
    suffix = f"@{modifier}" if modifier else ""
    return list(dict.fromkeys([base + suffix, base, language_part + suffix, language_part]))


_FILE_REASONS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
}
"""Why a file could not be used: the system's English reasons, as messages of the catalog."""


def say(value: object) -> str:
    """A value in the language in use: an error, a `Phrase` or a value that has one (a dice choice)
    from its template, a file error by its reason, anything else as it prints."""
    if not isinstance(value, Phrase) and (isinstance(value, ShutTheBoxError) or hasattr(value, "phrase")):
        value = value.phrase  # an error, a dice choice
    if isinstance(value, Phrase):
        if value.plural is None:
            template = _(value.template)
        else:
            template = ngettext(value.template, value.plural, value.count)
        return template.format(**{name: _spoken(v) for name, v in value.values.items()})
    if isinstance(value, OSError):
        reason = _FILE_REASONS.get(value.errno or 0)
        return _(reason) if reason else value.strerror or str(value)
    return str(value)


_PLAIN = (str, int, float)
"""What a message says as it is: words already said, numbers (the first thing `_spoken` asks, since a
state in words holds dozens of them)."""


def _spoken(value: object) -> object:
    """A value inside a message: words are said, numbers and names stay as they are (for ``!r``)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, Figure):
        return percent(value.value, value.digits) if value.percent else decimal(value.value, value.digits)
    words = isinstance(value, (ShutTheBoxError, Phrase, OSError)) or hasattr(value, "phrase")
    return say(value) if words else value
