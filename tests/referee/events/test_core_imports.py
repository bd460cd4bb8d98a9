"""The events' rules are plain Python: they import no Django and nothing else of the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import referee.events

PACKAGE = Path(referee.events.__file__).parent


def test_the_core_imports_only_itself_the_standard_library_and_networkx() -> None:
    found = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                top = name.split(".")[0]
                inside = name == "referee.events" or name.startswith("referee.events.")
                if not inside and (top not in sys.stdlib_module_names and top != "networkx"):
                    found.append(f"{path.name}: {name}")
    assert found == []


def test_importing_the_core_loads_no_django() -> None:
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, referee.events; print(sorted(m for m in sys.modules if m.startswith('django')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"
