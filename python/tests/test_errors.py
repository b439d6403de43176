"""Bad input: the library's one-line messages as ValueError / TypeError / OSError; a Rust
panic as tessera.PanicException, the interpreter going on."""

import numpy as np
import pytest

import tessera

FFO40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"


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
    # A bool is an int to Python, but True is no action (it used to play action 1).
    for bad in (True, False, np.True_):
        with pytest.raises(TypeError, match=rf"^action must be an int, not a bool \(got {bad}\)$"):
            g.play_action(bad)
        with pytest.raises(TypeError, match="action must be an int, not a bool"):
            g.action_to_move(bad)
    assert g.plies() == 0
    with pytest.raises(TypeError, match=r"^depth must be an int, not a bool \(got True\)$"):
        tessera.best_move("othello", depth=True)
    with pytest.raises(TypeError, match=r"^game must be an int, not a bool \(got False\)$"):
        tessera.VecEnv("othello", 2).position(False)


def test_vec_env_checks_dtype_shape_and_legality():
    env = tessera.VecEnv("othello", 3, seed=1)
    env.reset()
    with pytest.raises(TypeError, match="actions must be integers"):
        env.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError, match=r"actions must have shape \(3,\), got \[2\]"):
        env.step(np.array([37, 37]))
    with pytest.raises(ValueError, match=r"^game 1: action 0 \(a1\) is not legal in this position$"):
        env.step(np.array([37, 0, 37]))
    with pytest.raises(ValueError, match=r"^threads must be in 1\.\.=1024, got 0$"):
        tessera.VecEnv("othello", 3, threads=0)
    # uint64 beyond int64 is named as it is, not wrapped to a negative action.
    with pytest.raises(ValueError, match="actions must be integers in int64's range, got 18446744073709551615"):
        env.step(np.array([2**64 - 1] * 3, dtype=np.uint64))
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
    games = r"\(games: othello, quixo, quixo-4p, talat, talat-2p\)$"
    with pytest.raises(ValueError, match=r"^engine 'a': unknown game 'chess' " + games):
        tessera.Engine("othello", engine="name=a,game=chess")
    with pytest.raises(ValueError, match=r"^the engine name is empty \(`tessera engines` lists the presets\)$"):
        tessera.best_move("othello", engine="")
    with pytest.raises(ValueError):
        tessera.best_move("quixo", engine="othello-ab-d1")
    with pytest.raises(ValueError, match="solve supports othello and quixo, not talat"):
        tessera.solve("talat", tessera.Game("talat").position())


def test_a_rust_panic_is_an_exception():
    with pytest.raises(tessera.PanicException, match="boom"):
        tessera._tessera._panic_for_test("boom")
    # The interpreter and the module still work.
    assert tessera.Game("othello").legal_moves() == ["d3", "c4", "f5", "e6"]


def test_a_selfplay_file_without_positions_is_refused(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    comments = tmp_path / "comments.txt"
    comments.write_text("# nothing yet\n\n")
    for path in (empty, comments, "/dev/null"):
        with pytest.raises(ValueError) as e:
            tessera.read_selfplay("othello", path)
        assert str(e.value) == (
            f"data file {path} holds no positions "
            "(expected POSITION<TAB>RESULT<TAB>EXACT|-[<TAB>SCORES] lines)"
        )


# Out-of-range integers: ValueError naming the argument and its range, never OverflowError.
BAD_INTS = [
    (lambda: tessera.best_move("othello", depth=-1), r"^depth must be in 1\.\.=60 plies, got -1$"),
    (lambda: tessera.best_move("othello", depth=0), r"^depth must be in 1\.\.=60 plies, got 0$"),
    (lambda: tessera.best_move("othello", depth=61), r"^depth must be in 1\.\.=60 plies, got 61$"),
    (lambda: tessera.best_move("othello", depth=2**70),
     r"^depth must be in 1\.\.=60 plies, got 1180591620717411303424$"),
    (lambda: tessera.analyze("othello", level=0), r"^level must be in 1\.\.=60, got 0$"),
    (lambda: tessera.Engine("othello", level=-3), r"^level must be in 1\.\.=60, got -3$"),
    (lambda: tessera.best_move("othello", time_ms=0), r"^time_ms must be at least 1, got 0$"),
    (lambda: tessera.best_move("othello", time_ms=-5), r"^time_ms must be at least 1, got -5$"),
    (lambda: tessera.best_move("othello", time_ms=2**70),
     r"^time_ms must be at most 9223372036854775807, got 1180591620717411303424$"),
    (lambda: tessera.best_move("othello", time_ms=2**200), r"^time_ms must be at most 9223372036854775807, got 1606"),
    (lambda: tessera.solve("othello", FFO40, time_ms=0), r"^time_ms must be at least 1, got 0$"),
    (lambda: tessera.solve("quixo", ".../.../... X", max_plies=0), r"^max_plies must be in 1\.\.=64, got 0$"),
    (lambda: tessera.solve("quixo", ".../.../... X", max_plies=-1), r"^max_plies must be in 1\.\.=64, got -1$"),
    (lambda: tessera.random_playouts("othello", -5), r"^n must be in 0\.\.=16777216, got -5$"),
    (lambda: tessera.random_playouts("othello", 2**70), r"^n must be in 0\.\.=16777216, got 1180591620717411303424$"),
    (lambda: tessera.random_playouts("othello", 1, seed=-1), r"^seed must be at least 0, got -1$"),
    (lambda: tessera.random_playouts("othello", 1, seed=2**64),
     r"^seed must be at most 18446744073709551615, got 18446744073709551616$"),
    (lambda: tessera.random_playouts("othello", 1, threads=0), r"^threads must be in 1\.\.=1024, got 0$"),
    (lambda: tessera.VecEnv("othello", 0), r"^n must be in 1\.\.=16777216, got 0$"),
    (lambda: tessera.VecEnv("othello", -5), r"^n must be in 1\.\.=16777216, got -5$"),
    (lambda: tessera.VecEnv("othello", 2, seed=-1), r"^seed must be at least 0, got -1$"),
    (lambda: tessera.VecEnv("othello", 2, max_plies=0), r"^max_plies must be in 1\.\.=100000, got 0$"),
    (lambda: tessera.VecEnv("othello", 2, threads=-1), r"^threads must be in 1\.\.=1024, got -1$"),
    (lambda: tessera.VecEnv("othello", 2).position(-1), r"^game -1 is outside 0\.\.2$"),
    (lambda: tessera.VecEnv("othello", 2).position(2**70), r"^game 1180591620717411303424 is outside 0\.\.2$"),
    (lambda: tessera.Game("othello").play_action(2**70),
     r"^action 1180591620717411303424 is outside the action space of othello \(0\.\.65\)$"),
    (lambda: tessera.Game("othello").action_to_move(-2**70),
     r"^action -1180591620717411303424 is outside the action space of othello \(0\.\.65\)$"),
    (lambda: tessera.Game("othello").play_action(-1), r"^action -1 is outside the action space of othello \(0\.\.65\)$"),
    # bestmove refuses --level with --depth; the library says it as for a preset.
    (lambda: tessera.best_move("othello", level=5, depth=3),
     r"^level 5 sets depth 5: give level or depth, not both$"),
    (lambda: tessera.Engine("othello", level=5, depth=5),
     r"^level 5 sets depth 5: give level or depth, not both$"),
]


@pytest.mark.parametrize("index", range(len(BAD_INTS)))
def test_out_of_range_ints_are_value_errors(index):
    call, message = BAD_INTS[index]
    with pytest.raises(ValueError, match=message):
        call()


def test_non_integers_stay_type_errors():
    with pytest.raises(TypeError):
        tessera.best_move("othello", depth=2.5)
    with pytest.raises(TypeError):
        tessera.VecEnv("othello", "4")


def test_a_level_with_a_time_keeps_the_levels_depth():
    # As `tessera bestmove --level 3 --time-ms 60000`: depth 3, bounded by the time.
    assert tessera.best_move("othello", level=3, time_ms=60000)["depth"] == 3
    assert tessera.best_move("othello", level=2, time_ms=60000, engine="othello-ab-d4")["depth"] == 2
