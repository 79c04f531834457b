"""Integers as JSON Schema counts them."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, StrictInt


def _whole(value: object) -> object:
    # JSON has one number type: 35450.0 is an integer to JSON Schema, so to the API's
    # OpenAPI document. Booleans and strings stay refused (StrictInt): "30" and true are type
    # confusion, not numbers.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# An integer, written 35450 or 35450.0; 35450.5, "35450" and true are refused.
WholeNumber = Annotated[StrictInt, BeforeValidator(_whole)]
