"""Every Python example of docs/python.md runs as printed (in a scratch directory holding
the two data files the tuning example reads, made here from random games)."""

import json
import pathlib
import random
import re

import pytest

import tessera

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def make_data(root):
    rng = random.Random(3)
    lines, records = [], []
    for i in range(20):
        g = tessera.Game("othello")
        positions, moves = [], []
        while not g.is_over():
            positions.append(g.position())
            m = rng.choice(g.legal_moves())
            moves.append(m)
            g.play(m)
        black, white = g.scores()
        for k, p in enumerate(positions):
            margin = black - white if tessera.Game("othello", p).to_move() == 0 else white - black
            lines.append(f"{p}\t{margin}\t-")
        r = g.returns()
        ranks = [1 if x >= max(r) else 2 for x in r]
        records.append(json.dumps({
            "id": i, "block": i, "round": i, "game": "othello", "seed": 1, "engines": ["a", "b"],
            "opening": "", "start": tessera.Game("othello").position(), "moves": moves,
            "scores": [black, white], "points": r, "ranks": ranks, "reason": "normal", "seconds": 0.0,
        }))
    (root / "data").mkdir()
    (root / "data" / "othello-selfplay.txt").write_text("\n".join(lines) + "\n")
    (root / "tournament").mkdir()
    (root / "tournament" / "games.jsonl").write_text("\n".join(records) + "\n")


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
