"""The page's words as JSON, read from the same `.po` catalogs as everything else.

The page asks the server for the messages of its own files (those the
catalog locates under ``web/static``) in one language, with that language's
plural rule; English, the source, needs none. Babel reads the catalog once per
change of the file.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from babel.messages.pofile import read_po

from shutthebox.i18n import SOURCE, Lang, catalog_file, language_name, languages

__all__ = ["PAGE_FILES", "language_list", "page_catalog"]

PAGE_FILES = "shutthebox/web/static/"
"""Where the page's messages are used, as the catalogs name their files."""


def language_list() -> list[dict[str, str]]:
    """Every language there is a catalog for, each named in itself."""
    return [{"code": lang, "name": language_name(lang)} for lang in languages()]


def page_catalog(lang: Lang) -> dict[str, Any]:
    """The page's messages in ``lang``: ``{msgid: text}``, ``{msgid: [forms]}`` for plurals,
    ``"context\\x04msgid"`` keys where a context tells two meanings apart; and the plural rule."""
    po = None if lang == SOURCE else catalog_file(lang)
    if po is None:
        return {"lang": SOURCE, "plural": "n != 1", "messages": {}}
    return _read(po, os.path.getmtime(po), lang)


@cache
def _read(po: str, _stamp: float, lang: Lang) -> dict[str, Any]:
    with open(po, "rb") as handle:
        catalog = read_po(handle, locale=lang.partition("@")[0])
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue
        if not any(where.startswith(PAGE_FILES) for where, _line in message.locations):
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        key = f"{message.context}\x04{msgid}" if message.context else msgid
        messages[key] = message.string if isinstance(message.string, str) else list(message.string)
    return {"lang": lang, "plural": catalog.plural_expr, "messages": messages}
