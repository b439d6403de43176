"""Bad input: the library's one-line messages as ValueError / TypeError / OSError; a Rust
panic as tessera.PanicException, the interpreter going on."""

import numpy as np
import pytest

import tessera


def test_unknown_game_id():
    with pytest.raises(ValueError, match=r"^unknown game 'chess' \(games: othello, quixo, quixo-4p, talat, talat-2p\)$"):
        tessera.Game("chess")
    for f in (lambda: tessera.VecEnv("chess", 2), lambda: tessera.random_playouts("chess", 1),
              lambda: tessera.best_move("chess")):
        with pytest.raises(ValueError, match="unknown game 'chess'"):
            f()


def test_bad_position():
    with pytest.raises(ValueError) as e:
        tessera.Game("othello", "not a position")
    assert "\n" not in str(e.value) and str(e.value)


def test_bad_and_illegal_moves():
    g = tessera.Game("othello")
    with pytest.raises(ValueError) as e:
        g.play("z9")
    assert "z9" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(ValueError) as e:
        g.play("a1")
    assert "a1" in str(e.value)
    assert g.plies() == 0
    with pytest.raises(ValueError, match="there is no move to undo"):
        g.undo()


def test_bad_actions():
    g = tessera.Game("othello")
    with pytest.raises(ValueError, match=r"^action 65 is outside the action space of othello \(0\.\.65\)$"):
        g.play_action(65)
    with pytest.raises(ValueError, match=r"^action 0 \(a1\) is not legal in this position$"):
        g.play_action(0)
    with pytest.raises(ValueError, match="outside the action space"):
        g.action_to_move(-3)
    with pytest.raises(TypeError):
        g.play_action("f5")


def test_vec_env_checks_dtype_shape_and_legality():
    env = tessera.VecEnv("othello", 3, seed=1)
    env.reset()
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError, match=r"actions must have shape \(3,\), got \[2\]"):
        env.step(np.array([37, 37]))
    with pytest.raises(ValueError, match=r"^game 1: action 0 \(a1\) is not legal in this position$"):
        env.step(np.array([37, 0, 37]))
    with pytest.raises(ValueError, match="threads must be at least 1"):
        tessera.VecEnv("othello", 3, threads=0)
    # Nothing was played: the legal actions still work.
    obs, rewards, dones, masks = env.step([37, 37, 37])
    assert not dones.any()


def test_files(tmp_path):
    with pytest.raises(OSError, match="cannot read"):
        tessera.read_selfplay("othello", tmp_path / "missing.txt")
    with pytest.raises(OSError, match="cannot read"):
        tessera.read_records(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.txt"
    bad.write_text("only one field\n")
    with pytest.raises(ValueError, match="line 1: 1 tab-separated fields"):
        tessera.read_selfplay("othello", bad)
    bad.write_text("not a position\t2\t-\n")
    with pytest.raises(ValueError, match="line 1"):
        tessera.read_selfplay("othello", bad)
    bad.write_text("{not json\n{}\n")
    with pytest.raises(ValueError):
        tessera.read_records(bad)


def test_engine_errors():
    with pytest.raises(ValueError, match="unknown engine 'nope'"):
        tessera.best_move("othello", engine="nope")
    with pytest.raises(ValueError):
        tessera.best_move("quixo", engine="othello-ab-d1")
    with pytest.raises(ValueError, match="solve supports othello and quixo, not talat"):
        tessera.solve("talat", tessera.Game("talat").position())


def test_a_rust_panic_is_an_exception():
    with pytest.raises(tessera.PanicException, match="boom"):
        tessera._tessera._panic_for_test("boom")
    # The interpreter and the module still work.
    assert tessera.Game("othello").legal_moves() == ["d3", "c4", "f5", "e6"]
