"""The answers about words and rules, and player profiles."""

from __future__ import annotations

from shutthebox.web.answers.base import Answer, RuleValues

__all__ = ["Bounds", "Catalog", "Language", "Languages", "NewProfile", "Option", "Profile", "RulesCatalog"]


class Language(Answer):
    code: str
    name: str


class Languages(Answer):
    source: str
    languages: list[Language]


class Catalog(Answer):
    """A gettext catalog as the page reads it: each message, its plural forms, the plural rule."""

    lang: str
    plural: str
    messages: dict[str, str | list[str]]


class Option(Answer):
    type: str
    min: int | None = None
    max: int | None = None
    common: list[int] | None = None
    values: list[str] | None = None


class Bounds(Answer):
    min: int
    max: int


class RulesCatalog(Answer):
    defaults: RuleValues
    presets: dict[str, RuleValues]
    options: dict[str, Option]
    players: Bounds
    rounds: Bounds
    bots: list[str]
    strengths: dict[str, str]


class Profile(Answer):
    id: int
    name: str


class NewProfile(Answer):
    profile: Profile
    key: str
