"""Integers as JSON Schema counts them."""

from __future__ import annotations

from pydantic import BeforeValidator


def _whole(value: object) -> object:
    # JSON has one number type: 35450.0 is an integer to JSON Schema, so to the API's
    # OpenAPI document. Booleans and strings stay refused (StrictInt): "30" and true are type
    # confusion, not numbers.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# Reads 35450.0 as 35450 for a StrictInt ("35450", true and 35450.5 stay refused). Put it
# last, after the bounds: `Annotated[StrictInt, Field(ge=1), WHOLE]`; before them, pydantic
# could no longer state the bounds in the schema as minimum and maximum.
WHOLE = BeforeValidator(_whole)
