"""How the packages import each other: the engine through its public face, nobody's privates."""

from __future__ import annotations

import ast
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import referee
import referee.events

ROOT = Path(__file__).resolve().parents[1]
SUBMODULES = {module.name for module in pkgutil.iter_modules(referee.__path__)}
EVENT_MODULES = {module.name for module in pkgutil.iter_modules(referee.events.__path__)}


def modules(*folders: str) -> Iterator[tuple[str, ast.Module]]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" not in path.parts:
                yield str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))


# The engine's two faces: the rules of a game (``referee``) and of an event (``referee.events``).
FACES = {"referee", "referee.events"}


def referee_submodule_imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """``from referee.game import X``, ``import referee.game``, ``from referee import game``,
    ``from referee.events.pairing import X`` (``from referee.events import X`` is a face's)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("referee.") and node.module not in FACES:
                yield node.lineno, f"from {node.module} import ..."
            elif node.module in FACES:
                for alias in node.names:
                    if f"{node.module}.{alias.name}" in FACES or (
                        node.module == "referee" and alias.name in SUBMODULES
                    ):
                        yield node.lineno, f"from {node.module} import {alias.name}"
                    elif node.module == "referee.events" and alias.name in EVENT_MODULES:
                        yield node.lineno, f"from referee.events import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("referee.") and alias.name not in FACES:
                    yield node.lineno, f"import {alias.name}"


def private_imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """``from m import _name`` and ``import m._private`` (``__future__`` and dunders are not
    private)."""

    def private(name: str) -> bool:
        return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            for alias in node.names:
                if private(alias.name) or any(private(part) for part in module.split(".")):
                    yield node.lineno, f"from {'.' * node.level}{module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(private(part) for part in alias.name.split(".")):
                    yield node.lineno, f"import {alias.name}"


def test_the_app_imports_the_engine_only_through_its_public_face() -> None:
    found = [
        f"{path}:{line}: {text}"
        for path, tree in modules("scorekeeper", "config", "bench")
        for line, text in referee_submodule_imports(tree)
    ]
    assert found == [], "import these names from referee or referee.events (their __init__.py)"


def test_every_name_the_face_shows_is_there() -> None:
    for face in (referee, referee.events):
        assert sorted(face.__all__) == sorted(set(face.__all__))
        assert [name for name in face.__all__ if not hasattr(face, name)] == []


def test_no_module_imports_another_modules_private_names() -> None:
    found = [
        f"{path}:{line}: {text}"
        for path, tree in modules("scorekeeper", "referee", "config")
        for line, text in private_imports(tree)
    ]
    assert found == [], "promote the name, or keep it in its module"


def test_the_import_checks_see_what_they_look_for() -> None:
    tree = ast.parse(
        "from referee.game import GameState\nimport referee.gcg\nfrom referee import dawg\n"
        "from referee import GameState\nfrom scorekeeper.web.table import _whole\n"
        "from .views import _whole\nfrom __future__ import annotations\n"
        "from referee.events import Bout\nfrom referee.events.pairing import Situation\n"
        "from referee import events\nfrom referee.events import pairing\nimport referee.events\n"
    )
    assert [line for line, _ in referee_submodule_imports(tree)] == [1, 2, 3, 9, 10, 11]
    assert [line for line, _ in private_imports(tree)] == [5, 6]


# Which package may import which: each package's __init__ says the same in words.
ABOVE_THE_DOMAIN = {
    "scorekeeper.api",
    "scorekeeper.web",
    "scorekeeper.records",
    "scorekeeper.stats",
    "scorekeeper.http",
}
LAYERS = {
    "scorekeeper.games": ABOVE_THE_DOMAIN,
    "scorekeeper.clubs": {"scorekeeper.events", *ABOVE_THE_DOMAIN},
    "scorekeeper.events": ABOVE_THE_DOMAIN,
    "scorekeeper.live": {
        "scorekeeper.games",
        "scorekeeper.clubs",
        "scorekeeper.events",
        *ABOVE_THE_DOMAIN,
    },
    "scorekeeper.records": {"scorekeeper.api", "scorekeeper.web", "scorekeeper.stats"},
    "scorekeeper.stats": {"scorekeeper.api", "scorekeeper.web", "scorekeeper.records"},
    "scorekeeper.api": {"scorekeeper.web"},
    "scorekeeper.http": {"scorekeeper.api", "scorekeeper.web"},
    "scorekeeper.web": {"scorekeeper.api"},
    # The photo reader is plain Python over the engine: nothing of the app above it.
    "scorekeeper.photo": {
        "scorekeeper.games",
        "scorekeeper.clubs",
        "scorekeeper.events",
        "scorekeeper.live",
        "scorekeeper.models",
        *ABOVE_THE_DOMAIN,
    },
}


def imported_modules(tree: ast.Module) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name


def test_each_package_imports_only_what_its_layer_may() -> None:
    found = []
    for path, tree in modules("scorekeeper"):
        package = ".".join(Path(path).with_suffix("").parts[:2])
        barred = LAYERS.get(package, set())
        for line, name in imported_modules(tree):
            if any(name == bar or name.startswith(bar + ".") for bar in barred):
                found.append(f"{path}:{line}: imports {name}")
    assert found == [], "see the package's __init__ for what it may import"


def test_no_test_imports_from_a_test_file_or_a_conftest() -> None:
    found = []
    for path, tree in modules("tests"):
        for line, name in imported_modules(tree):
            last = name.rsplit(".", 1)[-1]
            if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                found.append(f"{path}:{line}: imports {name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                module = node.module or ""
                parts = module.split(".") + [alias.name for alias in node.names]
                if any(part.startswith("test_") or part == "conftest" for part in parts):
                    found.append(f"{path}:{node.lineno}: imports .{module}")
    assert found == [], "share helpers through tests/factories.py or tests/positions.py"


def runtime_imports(module: str, tree: ast.Module, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports when it runs, at its top or inside a
    function (``if TYPE_CHECKING:`` blocks are for the type checker and are left out)."""
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    package = module if (ROOT / module.replace(".", "/") / "__init__.py").exists() else ""
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                parts = (package or module.rpartition(".")[0]).split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.add(name if name in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return (found & known) - {module}


def test_no_package_imports_itself_round_a_circle() -> None:
    """A module that needs one that needs it back works only by the order they load in."""
    trees = {}
    for path, tree in modules("referee", "scorekeeper", "config", "bench"):
        name = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        trees[name] = tree
    edges = {name: runtime_imports(name, tree, set(trees)) for name, tree in trees.items()}
    circles = []
    for start in sorted(edges):  # a path from each module back to itself, if any
        seen: set[str] = set()
        paths = [[start]]
        while paths:
            path = paths.pop()
            for step in sorted(edges[path[-1]]):
                if step == start:
                    circles.append(" → ".join([*path, start]))
                    paths = []
                    break
                if step not in seen:
                    seen.add(step)
                    paths.append([*path, step])
    assert circles == []


# What may never be reached, through any chain of imports (at a module's top or inside a
# function): the pages and the API each stand on the HTTP edge and the subjects, never on each
# other; the subjects (games, clubs, the events) and the edge never on a page or a route; the
# engine on nothing of the app.
NEVER_REACHES = {
    "scorekeeper.api": {"scorekeeper.web"},
    "scorekeeper.web": {"scorekeeper.api"},
    "scorekeeper.http": {"scorekeeper.api", "scorekeeper.web"},
    "scorekeeper.games": {"scorekeeper.api", "scorekeeper.web", "scorekeeper.http"},
    "scorekeeper.clubs": {"scorekeeper.api", "scorekeeper.web", "scorekeeper.http"},
    "scorekeeper.events": {"scorekeeper.api", "scorekeeper.web", "scorekeeper.http"},
    "referee": {"scorekeeper"},
}


def import_graph() -> dict[str, set[str]]:
    """Each module of the app, the engine and config, and those it imports when it runs; a
    module imported brings its packages' ``__init__`` with it."""
    trees = {}
    for path, tree in modules("referee", "scorekeeper", "config"):
        trees[path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")] = tree
    known = set(trees)
    edges = {}
    for name, tree in trees.items():
        reached = runtime_imports(name, tree, known)
        parents = {p for m in reached for p in within(m) if p in known and p != name}
        edges[name] = reached | parents
    return edges


def within(module: str) -> list[str]:
    """``a.b.c`` is within ``a`` and ``a.b``."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def chain_to(edges: dict[str, set[str]], start: str, barred: set[str]) -> list[str] | None:
    """The shortest chain of imports from ``start`` to a module of a barred package, if any."""
    came_from: dict[str, str] = {start: ""}
    queue = [start]
    while queue:
        module = queue.pop(0)
        if module != start and any(module == b or module.startswith(b + ".") for b in barred):
            path = [module]
            while came_from[path[-1]]:
                path.append(came_from[path[-1]])
            return path[::-1]
        for step in sorted(edges.get(module, ())):
            if step not in came_from:
                came_from[step] = module
                queue.append(step)
    return None


def test_no_package_reaches_what_it_may_not_through_any_chain() -> None:
    edges = import_graph()
    found = []
    for source, barred in NEVER_REACHES.items():
        for module in sorted(edges):
            if module == source or module.startswith(source + "."):
                chain = chain_to(edges, module, barred)
                if chain:
                    found.append(" → ".join(chain))
    assert found == [], "a piece both sides need belongs in a subject or in scorekeeper.http"


def test_the_chain_check_sees_a_chain_two_steps_long() -> None:
    edges = {"a.x": {"b.y"}, "b.y": {"c.z"}, "c.z": set()}
    assert chain_to(edges, "a.x", {"c"}) == ["a.x", "b.y", "c.z"]
    assert chain_to(edges, "a.x", {"d"}) is None
