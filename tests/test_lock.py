"""The lock files (requirements/*.txt, made by `make lock`) hold every dependency pyproject.toml
names, at a version it allows, each with its files' hashes; and this environment runs them."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s\\;]+)")


def pins(name: str) -> dict[str, tuple[str, int]]:
    """The lock file's pins: each package's version and how many hashes it has.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "x.txt").write_text("Foo_Bar==1.2 \\\\\\n    --hash=sha256:ab\\n    # via y\\n")
    >>> pins(str(folder / "x.txt"))
    {'foo-bar': ('1.2', 1)}
    """
    found: dict[str, tuple[str, int]] = {}
    last = ""
    for line in (ROOT / name).read_text().splitlines():
        if pinned := PIN.match(line):
            last = canonicalize_name(pinned[1])
            found[last] = (pinned[2], 0)
        elif line.strip().startswith("--hash=sha256:") and last:
            version, hashes = found[last]
            found[last] = (version, hashes + 1)
    return found


def wanted(*extras: str) -> list[Requirement]:
    """What pyproject.toml asks for with ``extras``; an extra that names the project's own
    (``scorekeeper[photo]``) stands for that extra's requirements."""
    found = [Requirement(r) for r in PROJECT["dependencies"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for named in PROJECT["optional-dependencies"][extra]:
            requirement = Requirement(named)
            if canonicalize_name(requirement.name) == canonicalize_name(PROJECT["name"]):
                todo.extend(requirement.extras)
            else:
                found.append(requirement)
    return found


@pytest.mark.parametrize(
    ("lock", "extras"),
    [
        ("requirements/dev.txt", ("dev", "postgres")),
        ("requirements/app.txt", ("postgres", "photo")),
    ],
)
def test_the_lock_pins_every_dependency_at_a_version_pyproject_allows(lock, extras):
    locked = pins(lock)
    missing = [str(r) for r in wanted(*extras) if canonicalize_name(r.name) not in locked]
    assert not missing, f"{lock} lacks {missing}: run `make lock`"
    refused = [
        f"{r.name}=={locked[canonicalize_name(r.name)][0]} (wanted {r.specifier})"
        for r in wanted(*extras)
        if not r.specifier.contains(locked[canonicalize_name(r.name)][0], prereleases=True)
    ]
    assert not refused, f"{lock}: {refused}: run `make lock`"
    assert all(hashes for _, hashes in locked.values()), f"{lock} has a pin with no hash"


def test_a_server_runs_the_versions_the_developers_test():
    dev = pins("requirements/dev.txt")
    app = pins("requirements/app.txt")
    assert {name: dev.get(name, ("",))[0] for name in app} == {n: v for n, (v, _) in app.items()}


def test_this_environment_runs_the_locked_versions():
    """`make install` installs the lock: a version that differs here was installed by hand."""
    differ = []
    for name, (version, _) in pins("requirements/dev.txt").items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != version:
            differ.append(f"{name} {installed}, locked {version}")
    assert not differ, f"{differ}: run `make install`"
