"""A word list's analysis structures are built by one process of the machine: the others that
want them meanwhile wait for its file and map it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from referee.lexicon import compile_lexicon
from tests.builds import builds

WORDS = ["CAT", "CATS", "CAR", "CARE", "CARES", "DOG", "DOGS", "AT", "A"]
ROOT = Path(__file__).resolve().parent.parent.parent

# A process that wants the list's structures, each GADDAG build it starts counted and held until
# another process wants them too (tests/builds.py).
WANTS = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from referee.lexicon import compile_lexicon
    from tests.builds import count_builds

    source, cache = Path(sys.argv[1]), Path(sys.argv[2])
    count_builds(cache, hold=True)
    lexicon = compile_lexicon(source, cache)
    lexicon.prepare_analysis()
    print(len(lexicon.gaddag().words()))
    """
)


def test_two_processes_that_want_a_lists_structures_at_once_build_them_once(tmp_path):
    """Each build is held until the other process wants the structures too (builds them as
    well, or waits for this build): without the lock both would build."""
    source = tmp_path / "CLUB.txt"
    source.write_text("\n".join(WORDS) + "\n")
    cache = tmp_path / "cache"
    compile_lexicon(source, cache)  # the trie, as a worker finds it
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WANTS, str(source), str(cache)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    answers = [process.communicate(timeout=120)[0].strip() for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    gaddag_strings = len(compile_lexicon(source, cache).gaddag().words())
    assert answers == [str(gaddag_strings)] * 2  # both have the structures
    assert builds(cache) == 1
