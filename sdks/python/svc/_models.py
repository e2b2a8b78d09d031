"""Values the API returns, and the sentinel that tells a keyword left out from one set to None."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Dict, Iterator, List, Mapping, Optional, Tuple, Type, Union, cast


class Unset:
    """The type of `UNSET`: the default of every optional keyword, meaning "leave this out of the request"."""

    _instance: ClassVar[Optional[Unset]] = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __copy__(self) -> Unset:
        return self

    def __deepcopy__(self, memo: Dict[int, Any]) -> Unset:
        return self

    def __reduce__(self) -> str:
        return "UNSET"


UNSET: Any = Unset()
"""Left out of the request. Pass `None` instead to send JSON null (for example to empty a cell)."""


def drop_unset(values: Mapping[str, Any]) -> Dict[str, Any]:
    """The entries whose value was given (None included: it is sent as null)."""
    return {key: value for key, value in values.items() if value is not UNSET}


_MODELS: Dict[str, Type[Model]] = {}
_CAMEL_BOUNDARY = re.compile(r"_([a-z0-9])")

class Model:
    """A JSON object of the API.

    Attributes are the fields in snake_case (`result.version_id`); item access takes the wire names
    and gives the JSON as received (`result["versionId"]`); `to_dict()` returns that JSON.
    """

    __slots__ = ("_data",)
    _data: Dict[str, Any]
    # Per attribute: its wire name, the model of its value, and its shape: one value, a list of them
    # (True), or an object of them by key ("map").
    _svc_fields: ClassVar[Dict[str, Tuple[str, Optional[str], Union[bool, str]]]] = {}

    def __init__(self, data: Optional[Mapping[str, Any]] = None) -> None:
        object.__setattr__(self, "_data", dict(data or {}))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _MODELS[cls.__name__] = cls

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        data: Dict[str, Any] = object.__getattribute__(self, "_data")
        field = type(self)._svc_fields.get(name)
        if field is not None:
            wire, model, many = field
            return _wrap(data.get(wire), model, many)
        wire = _wire_name(name)
        if wire in data:
            value: object = data[wire]
            if isinstance(value, list):
                return [_wrap_one(Model, item) for item in cast(List[object], value)]
            return _wrap_one(Model, value)
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; build a new request instead")

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Model):
            return self._data == other._data
        if isinstance(other, dict):
            return self._data == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"

    def __dir__(self) -> Any:
        return sorted(set(super().__dir__()) | set(type(self)._svc_fields))

    def to_dict(self) -> Dict[str, Any]:
        """The object as the API sent it (wire names, plain JSON values)."""
        return self._data


def build(model: Union[str, Type[Model], None], value: Any, many: bool = False) -> Any:
    """Wraps the JSON of a response in the model the generated code names."""
    return _wrap(value, model, many)


def _wrap(value: Any, model: Union[str, Type[Model], None], many: Union[bool, str]) -> Any:
    if model is None or value is None:
        return value
    cls = _MODELS.get(model, Model) if isinstance(model, str) else model
    if many == "map":
        if not isinstance(value, dict):
            return value
        return {key: _wrap_one(cls, item) for key, item in cast(Dict[str, object], value).items()}
    if many:
        if not isinstance(value, list):
            return value
        return [_wrap_one(cls, item) for item in cast(List[object], value)]
    return _wrap_one(cls, value)


def _wrap_one(cls: Type[Model], value: object) -> object:
    """A JSON object becomes the model; any other value stays as it is."""
    return cls(cast(Dict[str, Any], value)) if isinstance(value, dict) else value


def _wire_name(attribute: str) -> str:
    """`version_id` → `versionId`, `from_` → `from`."""
    name = attribute[:-1] if attribute.endswith("_") else attribute
    return _CAMEL_BOUNDARY.sub(lambda match: match.group(1).upper(), name)
