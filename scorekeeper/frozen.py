"""Frozen data: what outlives a request (a worker's caches, the rules' rows) and so must
never be changed by whoever reads it.

``frozen(value)`` makes every dict, list and set in ``value`` refuse any change, and every
dataclass in it one whose fields cannot be set; a reader that tries fails at once (TypeError,
FrozenInstanceError) instead of silently making a worker's memory disagree with the
database. ``thawed(value)`` is a plain copy to change. Nothing here imports anything of the
app, so the rules may use it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Mapping
from typing import Any

_AS_THEY_ARE = {str, bytes, int, float, bool, type(None)}


class FrozenDict(dict):
    """A dict that refuses every change: what a cache hands out. It is still a dict (JSON,
    ``isinstance`` and comparisons see one); ``dict(value)`` is a plain copy to change.

    >>> hand = frozen({"bids": [1, 2]})
    >>> hand["bids"].append(3)
    Traceback (most recent call last):
    TypeError: a kept value cannot be changed: copy it first
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a kept value cannot be changed: copy it first")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return {key: _thawed(value) for key, value in self.items()}

    def __reduce__(self) -> Any:
        return (dict, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))


class FrozenDefaultDict(FrozenDict):
    """A frozen ``defaultdict`` or ``Counter``: a missing key reads as its default, which is
    not kept."""

    def __init__(self, factory: Callable[[], Any], items: Mapping) -> None:
        super().__init__(items)
        self.factory = factory

    def __missing__(self, key: Hashable) -> Any:
        return self.factory()


class FrozenList(list):
    """A list that refuses every change (see :class:`FrozenDict`)."""

    _refuse = FrozenDict._refuse
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = _refuse
    clear = sort = reverse = __iadd__ = __imul__ = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        return [_thawed(value) for value in self]

    def __reduce__(self) -> Any:
        return (list, (list(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))


_KEPT = {*_AS_THEY_ARE, FrozenDict, FrozenList}  # frozen through and through as they are


def frozen(value: Any) -> Any:
    """``value`` with every dict, list and set in it made unchangeable, and every plain
    dataclass in it rebuilt frozen of its fields; text, numbers, bytes, tuples of those and
    frozen dataclasses of those come back as they are.

    >>> frozen([{"a": [1]}]) == [{"a": [1]}], type(frozen({"a": 1})).__name__
    (True, 'FrozenDict')
    """
    kind = type(value)
    if kind in _AS_THEY_ARE or getattr(kind, "deeply_frozen", False):
        return value
    if kind is dict:
        return FrozenDict({key: frozen(item) for key, item in value.items()})
    if kind is list:  # items frozen already (a match's stored hands) are taken as they are
        return FrozenList([item if type(item) in _KEPT else frozen(item) for item in value])
    if isinstance(value, FrozenDict | FrozenList | str | bytes | int | float | None):
        return value
    if isinstance(value, defaultdict | Counter):
        factory = int if isinstance(value, Counter) else value.default_factory
        return FrozenDefaultDict(factory, {key: frozen(item) for key, item in value.items()})
    if isinstance(value, Mapping):
        return FrozenDict({key: frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return FrozenList(frozen(item) for item in value)
    if isinstance(value, tuple):
        if all(type(item) in _AS_THEY_ARE or getattr(type(item), "deeply_frozen", False)
               for item in value):  # a sheet's rows
            return value
        items = tuple(frozen(item) for item in value)
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(*items) if hasattr(value, "_fields") else items
    if isinstance(value, set | frozenset):
        return frozenset(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: frozen(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if all(fields[name] is getattr(value, name) for name in fields) \
                and value.__dataclass_params__.frozen:
            return value
        copy = object.__new__(_frozen_class(type(value)))
        for name, item in fields.items():
            object.__setattr__(copy, name, item)
        return copy
    return value


def _refuse_attribute(self: Any, *args: Any) -> None:
    raise dataclasses.FrozenInstanceError("a kept value cannot be changed: copy it first")


_FROZEN_CLASSES: dict[type, type] = {}


def _frozen_class(cls: type) -> type:
    """``cls`` (a dataclass) as it is kept in a cache: a subclass whose fields cannot be
    set (a frozen dataclass is its own)."""
    if cls.__dataclass_params__.frozen or getattr(cls, "__kept__", False):
        return cls
    if cls not in _FROZEN_CLASSES:
        _FROZEN_CLASSES[cls] = type(cls.__name__, (cls,), {
            "__setattr__": _refuse_attribute, "__delattr__": _refuse_attribute,
            "__kept__": True, "__module__": cls.__module__, "__qualname__": cls.__qualname__})
    return _FROZEN_CLASSES[cls]


def _thawed(value: Any) -> Any:
    """A plain (changeable) copy of a frozen value."""
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_thawed(item) for item in value]
    if getattr(type(value), "__kept__", False):
        copy = object.__new__(type(value).__mro__[1])
        for field in dataclasses.fields(value):
            object.__setattr__(copy, field.name, _thawed(getattr(value, field.name)))
        return copy
    return value


def thawed(value: Any) -> Any:
    """A plain copy of ``value`` that may be changed or stored (dicts and lists copied).

    >>> thawed(frozen({"a": [1]}))["a"].append(2)
    """
    return _thawed(value)


