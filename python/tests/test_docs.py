"""Every Python example of docs/python.md runs as printed (in a scratch directory holding
the data the tuning example reads: a self-play file made here from random games and the
tournament folder of tests/data)."""

import pathlib
import random
import re
import shutil

import pytest

import tessera

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
TOURNAMENT = pathlib.Path(__file__).resolve().parent / "data" / "tournament"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def make_data(root):
    rng = random.Random(3)
    lines = []
    for i in range(20):
        g = tessera.Game("othello")
        positions = []
        while not g.is_over():
            positions.append(g.position())
            g.play(rng.choice(g.legal_moves()))
        black, white = g.scores()
        for p in positions:
            margin = black - white if tessera.Game("othello", p).to_move() == 0 else white - black
            lines.append(f"{p}\t{margin}\t-")
    (root / "data").mkdir()
    (root / "data" / "othello-selfplay.txt").write_text("\n".join(lines) + "\n")
    # A tournament folder as `tessera tournament --out tournament` writes it.
    shutil.copytree(TOURNAMENT, root / "tournament")


def test_the_doc_has_an_example_per_part():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_example_runs(index, tmp_path, monkeypatch):
    if "pettingzoo" in BLOCKS[index]:
        pytest.importorskip("pettingzoo")
    if "tessera.gym" in BLOCKS[index]:
        pytest.importorskip("gymnasium")
    make_data(tmp_path)
    monkeypatch.chdir(tmp_path)
    exec(compile(BLOCKS[index], f"docs/python.md block {index + 1}", "exec"), {})
