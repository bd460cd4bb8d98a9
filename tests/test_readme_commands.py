"""The commands of README.md and docs/*.md work as written, from a fresh clone's settings.

Every line of their ```sh blocks runs, in a scratch copy of the project (a temporary folder
with its own, new SQLite database), through bash, with the environment a fresh clone has: no
DEBUG, no SECRET_KEY, no LEXICON_DIR, no DATABASE_URL. Each must exit 0. A block whose first
line is a comment starting "# Example" is not run: it serves the app, needs a running server,
or holds values to replace, and the page says so at its top.

The pages' conventions are read as a person would: an optional part in brackets
(``[--strict]``) is left out, ``<id>`` is the game the block's import made, and the files a
command names are there: ``game.gcg`` (a real record of the crossword game) and
``~/mylist.txt`` (a word list). Before the blocks, ``manage.py migrate`` makes the database,
as ``make run`` does first.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "fixtures" / "gcg" / "real" / "vs_frentz.gcg"
PYTHON = ".venv/bin/python"
# docs/clubs.md's prose names these account commands (a club's first evening starts with them).
PROSE = [f"{PYTHON} manage.py account add ann", f"{PYTHON} manage.py account reset ann"]
SKIP = (".git", ".venv", "var", "staticfiles", "__pycache__", "db.sqlite3*", ".*_cache")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def pages() -> list[Path]:
    """README and every page of docs/, in a fixed order (their blocks run in it)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def documented_blocks() -> list[list[str]]:
    return [block for page in pages() for block in sh_blocks(page.read_text())]


def sh_blocks(readme: str) -> list[list[str]]:
    """The lines of each ```sh block.

    >>> sh_blocks("text\\n```sh\\nls -l\\n```\\n```python\\nx = 1\\n```\\n")
    [['ls -l']]
    """
    return [block.splitlines() for block in re.findall(r"^```sh\n(.*?)^```", readme, re.M | re.S)]


def is_example(block: list[str]) -> bool:
    return bool(block) and block[0].startswith("# Example")


def commands(block: list[str]) -> list[str]:
    """The block's commands, as they run: optional parts left out, comment lines skipped.

    >>> commands(["# a note", "m import_game game.gcg [--strict] [--json]  # reads it", ""])
    ['m import_game game.gcg  # reads it']
    """
    return [
        re.sub(r" \[[^\]]*\]", "", line)
        for line in block
        if line.strip() and not line.lstrip().startswith("#")
    ]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A scratch copy of the project, its virtualenv linked, and a fresh clone's environment."""
    base = tmp_path_factory.mktemp("readme")
    project = base / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(*SKIP), symlinks=True)
    (project / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    home = base / "home"
    home.mkdir()
    (home / "mylist.txt").write_text("CAT\nCATS\nDOG\n")
    shutil.copy(RECORD, project / "game.gcg")
    # Nothing of this machine's settings: PATH to find bash, HOME for ~, a UTF-8 locale.
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    return project, env


def run(command: str, project: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )


def test_the_docs_pages_are_all_read():
    names = {page.name for page in pages()}
    assert {"README.md", "records.md", "deploy.md", "analysis.md", "configuration.md"} <= names


def test_the_docs_mark_what_they_do_not_run():
    blocks = documented_blocks()
    examples = [b for b in blocks if is_example(b)]
    run_here = [line for b in blocks if not is_example(b) for line in commands(b)]
    assert any("make run" in line for b in examples for line in b)
    assert any("curl" in line for b in examples for line in b)
    assert any("SECRET_KEY=..." in line for b in examples for line in b)
    assert any("../shared/lexica" in line for b in examples for line in b)
    assert not [line for line in run_here if not line.startswith(f"{PYTHON} manage.py ")]


def test_every_documented_command_works_as_written_from_a_fresh_clone(clone):
    project, env = clone
    blocks = [b for b in documented_blocks() if not is_example(b)]
    done = run(f"{PYTHON} manage.py migrate --noinput", project, env)
    assert done.returncode == 0, done.stderr
    game = ""
    ran = []
    for command in [*PROSE, *(line for block in blocks for line in commands(block))]:
        command = command.replace("<id>", game)
        done = run(command, project, env)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        if "import_game" in command:
            game = UUID.search(done.stdout).group(0)  # type: ignore[union-attr]
        ran.append(command.split("#")[0].split()[2])
    assert {"account", "import_game", "check_games", "export_game", "lexicons"} <= set(ran)
    assert "import_lexicon" in ran
    assert (project / "game.json").read_text().startswith("{")


@pytest.mark.parametrize(
    "command",
    [
        f"{PYTHON} manage.py runserver --noreload 127.0.0.1:8799",
        f"{PYTHON} manage.py check --deploy",
        f"{PYTHON} -c 'import config.wsgi'",  # what gunicorn loads (make serve)
    ],
)
def test_a_server_still_refuses_to_start_without_a_secret_key(clone, command):
    project, env = clone
    done = run(command, project, env)
    assert done.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in done.stderr
