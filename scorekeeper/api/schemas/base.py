"""What the schemas of every subject share: an example in a schema's docs."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict


def example(*examples: Any) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": list(examples)})


# A game's secret, as the examples show it (a new game's answer, an event's paired game).
TOKEN_EXAMPLE = "mT3o0Q7rX2l9hVb1yK8cZf4WnJ6uA5sD"
