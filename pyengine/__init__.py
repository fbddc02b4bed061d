"""A declarative rules knowledge base for card-game rules: the rules are ASP (clingo), Python only loads,
normalises, emits facts, runs clingo and renders the answers.

The public API lives in pyengine.api and is re-exported here (`pyengine.load`, `pyengine.answer`,
`pyengine.plays`, ...), imported on first use so that `import pyengine` stays cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the API's names as an editor and a type checker see them (pyengine.api)
    from pyengine.api import *  # noqa: F403

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The names of pyengine.api, loaded when first asked for (a submodule's name is left to the import system)."""
    from importlib.util import find_spec

    if name.startswith("_") or find_spec(f"{__name__}.{name}") is not None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pyengine import api

    if name in api.__all__:
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    from pyengine import api

    return sorted([*globals(), *api.__all__])
