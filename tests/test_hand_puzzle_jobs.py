"""`hand puzzle generate --jobs N` (``generate(..., jobs=N)``): the attempts spread over
worker processes give the same puzzles, in the same order, as one process."""
from __future__ import annotations

from click.testing import CliRunner

from cli.hand import hand
from puzzles.hand import generate


def test_jobs_give_the_same_puzzles_in_the_same_order():
    one = [p.dumps() for p in generate(8, seed=4)]
    two = [p.dumps() for p in generate(8, seed=4, jobs=2)]
    assert len(one) == 8 and two == one
    # stopping early (a generator closed before its end) ends the workers and gives a prefix
    it = generate(8, seed=4, jobs=2)
    first = next(it)
    it.close()
    assert first.dumps() == one[0]


def test_cli_jobs_writes_the_same_files(tmp_path):
    outs = []
    for jobs in ("1", "2"):
        r = CliRunner().invoke(hand, ["puzzle", "generate", "--count", "3", "--seed", "9", "--jobs", jobs,
                                      "--out", str(tmp_path / jobs)])
        assert r.exit_code == 0, r.output
        files = sorted((tmp_path / jobs).glob("*.json"))
        assert len(files) == 3
        outs.append(([f.name for f in files], [f.read_text() for f in files],
                     [line.split(":", 1)[1] for line in r.stdout.splitlines()[:3]]))
    assert outs[0] == outs[1]
    assert r.stdout.splitlines()[-1].startswith("3 puzzles in ") and "2 worker processes" in r.stdout
