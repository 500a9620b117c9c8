"""The one base of every body model: strict in what we build, tolerant in what we read.

A body we build is checked in full: an unknown field, a missing required field, a value outside
its enum or its range is a validation error (the mapping turns it into an issue on the analyst's
cell). The platform's answers may gain fields and values, and its read schemas require less than
its request schemas (a facility instance's details, a unit read back), so :func:`read_answer`
validates against the *answer variant* of the same model (:func:`answer_model`): every field
optional, enums read as their plain type, ranges not checked, and keys the model does not know
set aside. One set of models serves both directions.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationInfo, create_model, model_validator

__all__ = ["ANSWER", "Body", "Text", "answer_model", "dump", "is_answer", "read_answer", "read_answers"]

#: the validation context of an answer read from the platform
ANSWER = {"answer": True}

M = TypeVar("M", bound=BaseModel)

Text = Annotated[str, Field(min_length=1)]


def is_answer(info: ValidationInfo) -> bool:
    """Whether the body being validated is an answer (a rule on what we build does not apply)."""
    return bool(info.context and info.context.get("answer"))


class Body(BaseModel):
    """A JSON body of a modular API: unknown fields are refused when we build, set aside when we read."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _answer_keeps_known_fields(cls, data: Any, info: ValidationInfo) -> Any:
        if not is_answer(info) or not isinstance(data, Mapping):
            return data
        known = _known_keys(cls)
        if all(k in known for k in data):
            return data
        return {k: v for k, v in data.items() if k in known}


_KNOWN: dict[type, frozenset[str]] = {}
_ANSWERS: dict[type, type] = {}
_LISTS: dict[type, TypeAdapter[Any]] = {}


def _known_keys(cls: type[BaseModel]) -> frozenset[str]:
    known = _KNOWN.get(cls)
    if known is None:
        names = set(cls.model_fields) | {f.alias for f in cls.model_fields.values() if f.alias}
        known = _KNOWN[cls] = frozenset(names)
    return known


def _relaxed(annotation: Any) -> Any:
    """``annotation`` as an answer may carry it: nested bodies relaxed, enums as their plain type, no constraints."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _relaxed(get_args(annotation)[0])
    if origin is Literal:
        kinds = {type(v) for v in get_args(annotation)}
        return kinds.pop() if len(kinds) == 1 else Any
    if origin in (Union, types.UnionType):
        return typing.Union[tuple(_relaxed(a) for a in get_args(annotation))]  # noqa: UP007
    if origin is list:
        return list[_relaxed(get_args(annotation)[0])]  # type: ignore[misc]
    if isinstance(annotation, type) and issubclass(annotation, Body):
        return answer_model(annotation)
    return annotation


def answer_model(model: type[M]) -> type[M]:
    """The answer variant of ``model`` (a subclass, so it is still a ``model``): every field optional (a required
    one defaults to ``None``, the others keep their defaults) and relaxed."""
    made = _ANSWERS.get(model)
    if made is not None:
        return made
    _ANSWERS[model] = model  # a model that names itself (meta categories) reads its own kind as published
    fields: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        fields[name] = (_relaxed(info.annotation) | None, Field(default, alias=info.alias))
    made = create_model(f"{model.__name__}Answer", __base__=model, __module__=model.__module__, **fields)
    _ANSWERS[model] = made
    return made


def read_answer(model: type[M], data: object) -> M:
    """``data`` (an answer's ``data``, decoded from JSON) read as ``model``, tolerating new fields and values."""
    return answer_model(model).model_validate(data, context=ANSWER)


def read_answers(model: type[M], data: object) -> list[M]:
    """An answer's ``data`` that is a list of ``model``."""
    adapter = _LISTS.get(model)
    if adapter is None:
        item: Any = answer_model(model)
        adapter = _LISTS[model] = TypeAdapter(list[item])
    return list(adapter.validate_python(data if data is not None else [], context=ANSWER))


def dump(model: BaseModel) -> dict[str, Any]:
    """The JSON body to send: field names as the platform spells them, absent values left out."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)
