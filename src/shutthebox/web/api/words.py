"""The page's words and rules, and player profiles."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path

from shutthebox.i18n import SOURCE, languages
from shutthebox.i18n.export import language_list, page_catalog
from shutthebox.web import answers
from shutthebox.web.api.deps import ERRORS, SECRET, ServerDep, TokenDep, answering
from shutthebox.web.refusals import Refusal, RefusedError
from shutthebox.web.schemas import ProfileIn
from shutthebox.web.views import rules_catalog

__all__ = ["router"]

router = answering()


@router.get(
    "/i18n", response_model=answers.Languages,
    summary="The languages of the page, each named in itself",
)
def get_languages() -> dict[str, Any]:
    return {"source": SOURCE, "languages": language_list()}


@router.get(
    "/i18n/{lang}", response_model=answers.Catalog, responses=ERRORS,
    summary="The page's messages in one language (gettext catalog)",
)
def get_catalog(lang: Annotated[str, Path(max_length=16)]) -> dict[str, Any]:
    if lang not in languages():
        raise RefusedError(Refusal.NOT_FOUND, "there is no catalog for language {lang!r}", lang=lang)
    return page_catalog(lang)


@router.get(
    "/rules", response_model=answers.RulesCatalog,
    summary="Rule options, presets and bots for the setup panel",
)
def get_rules() -> dict[str, Any]:
    return rules_catalog()


@router.post(
    "/profiles", response_model=answers.NewProfile, status_code=201, responses=ERRORS, dependencies=SECRET,
    summary="Create a profile and its secret key",
)
async def create_profile(body: ProfileIn, server: ServerDep) -> dict[str, Any]:
    profile, key = await server.profiles.create(body.name)
    return {"profile": {"id": profile.id, "name": profile.name}, "key": key}


@router.get(
    "/profiles/me", response_model=answers.Profile, responses=ERRORS,
    summary="The profile of the key sent as the bearer token",
)
async def get_profile(server: ServerDep, key: TokenDep) -> dict[str, Any]:
    profile = await server.profiles.mine(key)
    return {"id": profile.id, "name": profile.name}


@router.patch(
    "/profiles/me", response_model=answers.Profile, responses=ERRORS,
    summary="Rename the profile of the bearer key",
)
async def rename_profile(body: ProfileIn, server: ServerDep, key: TokenDep) -> dict[str, Any]:
    profile = await server.profiles.rename(key, body.name)
    return {"id": profile.id, "name": profile.name}
