"""The shipped type stubs (brasa/__init__.pyi) are current: regenerated from the registry, they
equal the checked-in file, and they parse."""
import ast
import importlib.util
from pathlib import Path

import brasa

ROOT = Path(__file__).resolve().parents[1]


def test_stubs_are_current(tmp_path):
    spec = importlib.util.spec_from_file_location("gen_stubs", ROOT / "tools" / "gen_stubs.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    out = tmp_path / "brasa.pyi"
    gen.main(out)
    checked_in = (ROOT / "brasa" / "__init__.pyi").read_text()
    assert out.read_text() == checked_in, "run python/tools/gen_stubs.py"
    tree = ast.parse(checked_in)
    names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"add", "sum", "tensor", "zeros", "max"} <= names
    assert Path(brasa.__file__).parent.joinpath("__init__.pyi").exists()


def test_every_public_name_is_stubbed():
    tree = ast.parse((ROOT / "brasa" / "__init__.pyi").read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
    public = {n for n in dir(brasa) if not n.startswith("_")}
    assert sorted(public - names) == []
