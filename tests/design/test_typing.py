"""The public API is annotated: every function and every public method of
every class that ``gagebpe``, ``gagebpe.grammar``, ``gagebpe.gage1994`` and
``gagebpe.tokenizers`` export says what it takes and what it returns
(``.ci/run`` type-checks the public modules with mypy), and the package
says so to type checkers (``py.typed``)."""
import inspect
from pathlib import Path

import pytest

import gagebpe
import gagebpe.gage1994
import gagebpe.grammar
import gagebpe.tokenizers

MODULES = (gagebpe, gagebpe.grammar, gagebpe.gage1994, gagebpe.tokenizers)


def public_callables():
    """``(name, function)`` for every function the public modules export and
    every public method (``__init__`` included, properties by their getter)
    their classes define."""
    for module in MODULES:
        for name in module.__all__:
            value = getattr(module, name)
            where = f"{module.__name__}.{name}"
            if inspect.isfunction(value):
                yield where, value
            elif inspect.isclass(value) and not issubclass(value, tuple):
                for attribute, member in vars(value).items():
                    if attribute.startswith("_") and attribute != "__init__":
                        continue
                    if isinstance(member, property):
                        member = member.fget
                    elif isinstance(member, (classmethod, staticmethod)):
                        member = member.__func__
                    elif hasattr(member, "func"):  # functools.cached_property
                        member = member.func
                    if inspect.isfunction(member):
                        yield f"{where}.{attribute}", member


def unannotated(function):
    """The names of ``function``'s parameters without annotations, and
    "return" if its return is not annotated."""
    signature = inspect.signature(function)
    missing = [p.name for p in signature.parameters.values()
               if p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def test_there_is_a_public_api_to_check():
    names = dict(public_callables())
    assert len(names) > 80
    assert "gagebpe.compress" in names and "gagebpe.tokenizers.ByteBPE.encode" in names


@pytest.mark.parametrize("name,function", list(public_callables()))
def test_every_public_callable_is_annotated(name, function):
    assert unannotated(function) == []


def test_the_check_sees_a_missing_annotation():
    def half(data, level: int = 6) -> bytes:
        return b""
    assert unannotated(half) == ["data"]


def test_the_package_is_marked_typed():
    assert (Path(gagebpe.__file__).parent / "py.typed").is_file()
