"""The package's folders are its layers (docs/DESIGN.md, "Layers"): each
module imports only from its own layer and those below, and no private
module imports a public one."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gagebpe"
PUBLIC = {"gagebpe", "gagebpe.__main__", "gagebpe.cli", "gagebpe.dask", "gagebpe.demo",
          "gagebpe.fsspec", "gagebpe.gage1994", "gagebpe.grammar", "gagebpe.numcodecs",
          "gagebpe.precompile", "gagebpe.sample", "gagebpe.zarr", "gagebpe.tokenizers",
          "gagebpe.tokenizers.__main__", "gagebpe.tokenizers.cli"}
HELPERS = {"gagebpe._errors", "gagebpe._jit", "gagebpe._version", "gagebpe._arguments",
           "gagebpe._inplace_bytes", "gagebpe._output", "gagebpe._threads", "gagebpe._types"}
# Each layer's folders, and what it may import besides itself and HELPERS.
# ``format`` is the format, ``format.codings`` one module per coding below
# it: no coding reaches back into the container or the decoders.  The
# tokenizers share the kernels, never the compressor.
BELOW = {
    "gagebpe.plain": (),
    "gagebpe.kernels": ("gagebpe.plain",),
    "gagebpe.tokenizers.kernels": ("gagebpe.kernels",),
    "gagebpe.tokenizers": ("gagebpe.tokenizers.kernels", "gagebpe.kernels", "gagebpe.plain"),
    "gagebpe.format.codings": ("gagebpe.kernels", "gagebpe.plain"),
    "gagebpe.format": ("gagebpe.format.codings", "gagebpe.kernels", "gagebpe.plain"),
    "gagebpe.encoder": ("gagebpe.format", "gagebpe.format.codings", "gagebpe.kernels",
                        "gagebpe.plain"),
    "gagebpe.decoder": ("gagebpe.format", "gagebpe.format.codings", "gagebpe.kernels",
                        "gagebpe.plain"),
}


def name_of(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path):
    """The gagebpe modules ``path`` imports (a name imported from a
    package counts as its module where it is one)."""
    name = name_of(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("gagebpe")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("gagebpe"):
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    where = PACKAGE.parent / sub.replace(".", "/")
                    found.add(sub if where.with_suffix(".py").exists() or where.is_dir()
                              else module)
    return found


MODULES = {name_of(path): imports(path) for path in PACKAGE.rglob("*.py")}
PUBLIC_TOKENIZERS = {"gagebpe.tokenizers", "gagebpe.tokenizers.__main__", "gagebpe.tokenizers.cli"}


def layer_of(name):
    return max((layer for layer in BELOW if name == layer or name.startswith(layer + ".")),
               key=len, default=None)


def test_no_private_module_imports_a_public_one():
    wrong = {(name, used) for name, used_all in MODULES.items() if name not in PUBLIC
             for used in used_all if used in PUBLIC}
    assert not wrong


def wrong_imports(modules):
    """``(module, what it imports)`` for each import that runs up or across
    the layers."""
    wrong = set()
    for name, used_all in modules.items():
        layer = layer_of(name)
        if layer is None:
            continue
        allowed = (layer, *BELOW[layer])
        for used in used_all - HELPERS:
            if layer_of(used) not in allowed:
                wrong.add((name, used))
    return wrong


def test_every_layer_imports_only_itself_and_the_layers_below():
    assert not wrong_imports(MODULES)


def test_the_layer_check_sees_each_kind_of_wrong_import():
    planted = {
        ("gagebpe.format.container", "gagebpe.decoder.stream"),  # format up to a decoder
        ("gagebpe.format.dictionary", "gagebpe.encoder.block"),  # format up to an encoder
        ("gagebpe.format.codings.lz", "gagebpe.format.container"),  # a coding up to the format
        ("gagebpe.format.codings.lz", "gagebpe.decoder.blocks"),  # a coding to the dispatch
        ("gagebpe.tokenizers._byte", "gagebpe.encoder.stream"),  # tokenizers to the compressor
        ("gagebpe.tokenizers.kernels.distinct", "gagebpe.format.container"),
    }
    modules = {name: set(used) for name, used in MODULES.items()}
    for name, used in planted:
        modules[name].add(used)
    assert wrong_imports(modules) == planted


def test_no_tokenizer_module_imports_the_compressors_public_modules():
    wrong = {(name, used) for name, used_all in MODULES.items()
             if name.startswith("gagebpe.tokenizers") for used in used_all
             if used in PUBLIC - PUBLIC_TOKENIZERS}
    assert not wrong


def test_the_helpers_import_only_helpers():
    for name in HELPERS:
        assert MODULES[name] <= HELPERS, name


def test_the_top_level_holds_public_modules_and_helpers():
    top = {name_of(path) for path in PACKAGE.glob("*.py")}
    assert top - PUBLIC - HELPERS == {"gagebpe._file", "gagebpe._plain_jobs"}
