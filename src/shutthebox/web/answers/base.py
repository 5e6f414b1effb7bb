"""What every answer of the API is: a JSON object of exactly the keys its model names."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Answer", "Number", "RuleValues"]

Number = int | float
"""A number as it was computed: an ``int`` stays one, a ``float`` stays one."""
RuleValues = dict[str, bool | int | str | None]
"""A rule set's options (`core.rules.Rules.to_dict`)."""


class Answer(BaseModel):
    """A JSON object the API answers: exactly the keys it names."""

    model_config = ConfigDict(extra="forbid")
