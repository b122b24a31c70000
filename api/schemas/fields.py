"""Strict marshmallow fields: JSON booleans and integers only, no coercion from strings."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate


class StrictBoolean(fields.Boolean):
    """Accepts only JSON ``true``/``false`` (marshmallow's Boolean also takes ``"yes"``, ``1``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean: use true or false.")
        return value


class StrictInteger(fields.Integer):
    """A JSON integer (not a float, not a string, not a boolean)."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        result: int = super()._deserialize(value, attr, data, **kwargs)
        return result


NUMBER_RULE = (
    "The exact value of the sibling number: present only when that JSON number is not the "
    'value itself, as "p/q", the digits of an integer past 64 bits, or a formula such as '
    '"5*sqrt(10)". Lists and maps of numbers get one companion of the same shape, with '
    "every entry as a string, when any entry is inexact (docs/numbers.md)."
)
"""The one number rule, as the ``ExactCompanion`` component states it."""

_COMPANION = {"openapi": {"allOf": [{"$ref": "#/components/schemas/ExactCompanion"}]}}


def exact_companion(of: str) -> fields.String:
    """The ``<of>_exact`` field of a number under the one rule (``docs/numbers.md``)."""
    return fields.String(
        metadata={"description": f"Exact `{of}`, when `{of}` is not exact.", **_COMPANION}
    )


def exact_list_companion(of: str, nesting: int = 1) -> fields.List[Any]:
    """The ``<of>_exact`` field of a list of numbers (``nesting`` levels deep)."""
    inner: fields.Field[Any] = fields.String(metadata=_COMPANION)
    for _ in range(nesting - 1):
        inner = fields.List(inner)
    return fields.List(
        inner,
        metadata={
            "description": f"Every entry of `{of}` exactly, when some entry is not exact "
            "(ExactCompanion)."
        },
    )


def exact_map_companion(of: str) -> fields.Dict:
    """The ``<of>_exact`` field of a map of numbers."""
    return fields.Dict(
        keys=fields.String(),
        values=fields.String(metadata=_COMPANION),
        metadata={
            "description": f"Every entry of `{of}` exactly, same keys, when some entry is not "
            "exact (ExactCompanion)."
        },
    )


class IntegersOrInteger(fields.Field[list[int]]):
    """A list of integers within ``[low, high]``, or one integer standing for ``repeat``
    copies of itself (``"branching": 3`` is ``[3, 3]``, ``"denominators": 4`` is ``[4]``).

    A list holds ``length`` entries (``(least, most)``, ``most`` ``None`` for no bound); an
    entry out of range is reported at its index (``/values/1``).
    """

    def __init__(
        self,
        low: int,
        high: int,
        length: tuple[int, int | None],
        repeat: int = 1,
        **kwargs: Any,
    ) -> None:
        item = {"type": "integer", "minimum": low, "maximum": high}
        listed: dict[str, Any] = {"type": "array", "items": item, "minItems": length[0]}
        if length[1] is not None:
            listed["maxItems"] = length[1]
        metadata = {**kwargs.pop("metadata", {}), "openapi": {"oneOf": [item, listed]}}
        super().__init__(metadata=metadata, **kwargs)
        self.entry = StrictInteger(validate=validate.Range(min=low, max=high))
        self.length = length
        self.repeat = repeat

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[int]:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value] * self.repeat
        if not isinstance(value, list):
            raise ValidationError("Not an integer or a list of integers.")
        least, most = self.length
        if len(value) < least or (most is not None and len(value) > most):
            size = f"{least}" if least == most else f"at least {least}"
            raise ValidationError(f"Length must be {size}.")
        read: list[int] = []
        errors: dict[int, Any] = {}
        for index, entry in enumerate(value):
            try:
                read.append(self.entry.deserialize(entry))
            except ValidationError as error:
                errors[index] = error.messages
        if errors:
            raise ValidationError(errors)
        return read
