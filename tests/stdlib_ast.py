"""Python's own `ast` as the reference for Python symbols (used by tests and benchmarks)."""
from __future__ import annotations

import ast
import os
import sysconfig
import warnings

from workbench.languages import SPECS, module_path


def stdlib_root() -> str:
    return sysconfig.get_paths()["stdlib"]


def ast_definitions(root: str, rel: str) -> list[tuple[str, int, int]] | None:
    """(qualname, start_line incl. decorators, end_line) of every def/class; None if ast fails."""
    try:
        with open(os.path.join(root, rel), "rb") as fh:
            src = fh.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src)
    except (SyntaxError, ValueError, UnicodeDecodeError, OSError):
        return None
    out: list[tuple[str, int, int]] = []
    mod = module_path(rel, SPECS["python"])

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                q = f"{prefix}.{child.name}"
                start = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append((q, start, child.end_lineno))
                visit(child, q)
            else:
                visit(child, prefix)

    visit(tree, mod)
    return out
