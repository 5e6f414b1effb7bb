"""The text catalogs: gather every message of the code, keep each language's `.po` in step, compile.

    python tools/catalogs.py update    # messages of the code -> every .po (new ones untranslated)
    python tools/catalogs.py compile   # every .po -> its .mo (what the program reads)
    python tools/catalogs.py check     # every .po holds every message, translated, nothing else

Messages come from the Python code (``_``, ``N_``, ``ngettext``, ``pgettext``,
``plural_phrase`` and the templates of the error classes), from the page's
JavaScript (``_``, ``ngettext``) and from its HTML (elements marked
``data-i18n``: their text, and the attributes ``data-i18n-attrs`` names).
A language is one ``.po`` file: ``src/shutthebox/i18n/locale/<lang>/LC_MESSAGES/shutthebox.po``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "shutthebox"
LOCALE = PACKAGE / "i18n" / "locale"
DOMAIN = "shutthebox"
PLURAL_FORMS = {"es": (2, "(n != 1)")}
"""Plural rules where gettext's usual one differs from Babel's (CLDR gives Spanish a third, rare form)."""


def plural_rule(catalog: Catalog, lang: str) -> None:
    """Give ``catalog`` the plural rule gettext uses for ``lang``, where it differs from Babel's."""
    if lang in PLURAL_FORMS:
        count, rule = PLURAL_FORMS[lang]
        catalog._num_plurals = count  # type: ignore[assignment]  # Babel reads these from a header
        catalog._plural_expr = rule  # type: ignore[assignment]

PYTHON_KEYWORDS: dict[str, Any] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "plural_phrase": (1, 2),
    "Phrase": None,
    "ShutTheBoxError": None,
    "RulesError": None,
    "ParseError": None,
    "IllegalActionError": None,
    "OutOfTurnError": None,
    "StaleActionError": None,
    "RecordError": None,
    "OverBudgetError": None,
    "StorageError": None,
    "NameTakenError": None,
    "SealedError": None,
    "AlreadyPlayedError": None,
    "NotDealtError": None,
    "CliError": None,
    "RefusedError": (2,),
}
"""The calls whose literal arguments are messages; an error's first argument is its template."""
JS_KEYWORDS: dict[str, Any] = {"_": None, "ngettext": (1, 2)}
JS_OPTIONS = {"parse_template_string": True}
"""So a message inside a template literal (``${_("…")}``) is found too."""
COMMENT_TAGS = ("Translators:",)


class _HtmlMessages(HTMLParser):
    """The messages of a page: the inner HTML of each ``data-i18n`` element, and its named attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str]] = []
        self._open: list[_Collecting] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for collecting in self._open:
            collecting.markup.append(self.get_starttag_text() or "")
            collecting.depth += tag == collecting.tag
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attrs") or "").split():
            if values.get(name):
                self.found.append((line, values[name] or ""))
        if "data-i18n" in values and tag not in _VOID:
            self._open.append(_Collecting(tag, line))

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1].tag == tag and self._open[-1].depth == 0:
            collecting = self._open.pop()
            self.found.append((collecting.line, normalize("".join(collecting.markup))))
        for collecting in self._open:
            collecting.markup.append(f"</{tag}>")
            collecting.depth -= tag == collecting.tag

    def handle_data(self, data: str) -> None:
        for collecting in self._open:
            collecting.markup.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")


class _Collecting:
    """An open ``data-i18n`` element: its tag, its line, its markup so far, and how deep its own tag nests."""

    def __init__(self, tag: str, line: int) -> None:
        self.tag = tag
        self.line = line
        self.markup: list[str] = []
        self.depth = 0


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def normalize(markup: str) -> str:
    """Markup as a message: whitespace runs become one space, the ends are trimmed (as the page does)."""
    return re.sub(r"\s+", " ", markup).strip()


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for the page's HTML."""
    parser = _HtmlMessages()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, message in parser.found:
        if message:
            yield line, "_", message, []


def _sources() -> Iterator[tuple[Path, Any, dict[str, Any], dict[str, Any]]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, "python", PYTHON_KEYWORDS, {}
    static = PACKAGE / "web" / "static"
    for path in sorted(static.rglob("*.js")):
        yield path, "javascript", JS_KEYWORDS, JS_OPTIONS
    for path in sorted(static.rglob("*.html")):
        yield path, extract_html, {"_": None}, {}


def template() -> Catalog:
    """Every message of the code, with where it is used and the translators' comments."""
    catalog = Catalog(project="shutthebox", domain=DOMAIN, fuzzy=False)
    for path, method, keywords, options in _sources():
        where = path.relative_to(ROOT / "src").as_posix()
        with path.open("rb") as handle:
            found = list(extract(method, handle, keywords=keywords, comment_tags=COMMENT_TAGS,
                                 options=options, strip_comment_tags=True))
        for line, message, comments, context in found:
            catalog.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return catalog


def catalogs() -> Iterator[tuple[str, Path]]:
    """Each language's ``.po`` file."""
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        yield po.parent.parent.name, po


def read(po: Path, lang: str) -> Catalog:
    with po.open("rb") as handle:
        return read_po(handle, locale=lang.partition("@")[0], domain=DOMAIN)


def write(po: Path, catalog: Catalog) -> None:
    buffer = BytesIO()
    write_po(buffer, catalog, width=100, ignore_obsolete=True, include_previous=False)
    po.write_bytes(buffer.getvalue())


def update() -> None:
    """Bring every ``.po`` in step with the code: new messages added untranslated, gone ones dropped."""
    source = template()
    for lang, po in catalogs():
        catalog = read(po, lang)
        catalog.update(source, no_fuzzy_matching=True, update_creation_date=False)
        plural_rule(catalog, lang)
        write(po, catalog)


def compile_all() -> None:
    """Write each ``.mo`` beside its ``.po``."""
    for lang, po in catalogs():
        with po.with_suffix(".mo").open("wb") as handle:
            write_mo(handle, read(po, lang))


_FIELDS = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-z%]")


def fields(text: str) -> list[str]:
    """The placeholders of a message (``{player}``, ``{value!r}``, ``%(prog)s``, ``%s``), sorted."""
    return sorted(_FIELDS.findall(text))


def problems(catalog: Catalog, source: Catalog) -> list[str]:
    """What is wrong with a language's catalog against the code's messages."""
    found: list[str] = []
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in source if m.id}
    held = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}
    found += [f"missing: {key[0]!r}" for key in sorted(wanted - held, key=str)]
    found += [f"not in the code: {key[0]!r}" for key in sorted(held - wanted, key=str)]
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
        if message.fuzzy or not all(strings):
            found.append(f"untranslated: {ids[0]!r}")
            continue
        for text in strings:  # a translation may leave a value out, never name one the code does not give
            if not set(fields(text)) <= set(fields(ids[0])) | set(fields(ids[-1])):
                found.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
    return found


def check() -> list[str]:
    source = template()
    return [f"{lang}: {problem}" for lang, po in catalogs() for problem in problems(read(po, lang), source)]


# -- a pseudo-language, to find words that escape the catalog -------------------------------------
PSEUDO = "en@pseudo"
_LOOKALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçďéƒĝĥíĵķĺɱñóþʠŕšţúṽŵẋýžÁƁÇĎÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŢÚṼŴẊÝŽ",
)
_KEPT = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-z%]|<[^>]*>|&#?\w+;")
"""What a translation keeps as it is: placeholders, %-conversions, HTML tags and entities."""
_RUN = re.compile(r"⟦[^⟦⟧]*⟧")


def pseudo(text: str) -> str:
    """``text`` with its letters swapped for look-alikes, wrapped in ⟦ ⟧; placeholders and markup kept."""
    kept = _KEPT.findall(text)
    words = [part.translate(_LOOKALIKES) for part in _KEPT.split(text)]
    return "⟦" + "".join(word + (kept[i] if i < len(kept) else "") for i, word in enumerate(words)) + "⟧"


def pseudo_catalog() -> Catalog:
    """Every message of the code, "translated" to the pseudo-language."""
    catalog = Catalog(locale="en", domain=DOMAIN, fuzzy=False)
    for message in template():
        if not message.id:
            continue
        if isinstance(message.id, str):
            string: str | tuple[str, ...] = pseudo(message.id)
        else:
            string = tuple(pseudo(form) for form in message.id)
        catalog.add(message.id, string, locations=message.locations, context=message.context)
    return catalog


def write_pseudo(folder: Path) -> Path:
    """A catalog folder holding the pseudo-language (a ``.po`` file, nothing else); the folder."""
    po = folder / PSEUDO / "LC_MESSAGES" / f"{DOMAIN}.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    write(po, pseudo_catalog())
    return folder


def unmarked_words(texts: Iterable[str], allowed: Iterable[str] = (), data: Iterable[str] = ()) -> set[str]:
    """The ASCII words of ``texts`` outside every ⟦ ⟧ run, other than ``allowed`` words and ``data``
    (names, codes, paths: values the program shows, not words it says)."""
    values = sorted(data, key=len, reverse=True)
    found: set[str] = set()
    for text in texts:
        rest = text
        for value in values:
            rest = rest.replace(value, " ")
        previous = None
        while previous != rest:  # a run may hold another (a message inside a message)
            previous, rest = rest, _RUN.sub(" ", rest)
        found |= set(re.findall(r"[A-Za-z]+", rest))
    return found - set(allowed)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = check()
        for problem in found:
            print(problem)
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
