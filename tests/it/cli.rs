//! End-to-end tests of the `tessera` binary: output formats, reference answers, exit codes
//! and error messages. They run the built program as a user would.

use std::process::Output;

use serde_json::Value;

const START: &str = "---------------------------OX------XO--------------------------- X";
/// FFO #40 (Black to move, 20 empties): exact +38, best a2.
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

fn tessera(args: &[&str]) -> Output {
    tessera_with_stdin(args, None)
}

/// Runs the binary with `args`, feeding `input` on stdin (or an empty stdin).
fn tessera_with_stdin(args: &[&str], input: Option<&str>) -> Output {
    crate::common::tessera_with_input(args, input.unwrap_or(""))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The single JSON object a successful `--json` run prints.
fn json_of(args: &[&str]) -> Value {
    let out = tessera(args);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "tessera {args:?} failed: {:?}\nstdout: {stdout}\nstderr: {}",
        out.status,
        text(&out.stderr)
    );
    assert_eq!(
        stdout.trim().lines().count(),
        1,
        "expected exactly one JSON line, got: {stdout}"
    );
    let v: Value = serde_json::from_str(stdout.trim()).expect("stdout is JSON");
    assert!(v.is_object(), "not a JSON object: {v}");
    v
}

/// Asserts the run failed with exit code 2 and one `error: ...` line on stderr containing
/// every `needles`, without a panic; returns that stderr.
fn assert_input_error(args: &[&str], needles: &[&str]) -> String {
    let out = tessera(args);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "tessera {args:?}: expected exit code 2; stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked"),
        "tessera {args:?} panicked: {stderr}"
    );
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "tessera {args:?}: expected one stderr line, got: {stderr}"
    );
    assert!(stderr.starts_with("error: "), "tessera {args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "tessera {args:?}: stderr should name '{needle}': {stderr}"
        );
    }
    assert!(
        out.stdout.is_empty(),
        "tessera {args:?}: nothing expected on stdout, got: {}",
        text(&out.stdout)
    );
    stderr
}

#[test]
fn perft_json_counts_match_the_reference() {
    let v = json_of(&["perft", "othello", "--depth", "4", "--json"]);
    assert_eq!(v["game"], "othello");
    assert_eq!(v["position"], START);
    let depths = v["depths"].as_array().expect("depths array");
    let leaves: Vec<u64> = depths
        .iter()
        .map(|d| d["leaves"].as_u64().unwrap())
        .collect();
    assert_eq!(leaves, [4, 12, 56, 244]);
    for (i, d) in depths.iter().enumerate() {
        assert_eq!(d["depth"].as_u64(), Some(i as u64 + 1));
        assert!(d["seconds"].as_f64().unwrap() >= 0.0);
        assert!(d["leaves_per_second"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn perft_from_a_transcript_and_as_a_table() {
    // After f5 White has 3 moves; 1 + 3 + ... from the start's depth-2 count of 12.
    let v = json_of(&[
        "perft", "othello", "--depth", "1", "--moves", "f5", "--json",
    ]);
    assert_eq!(v["depths"][0]["leaves"], 3);

    let out = tessera(&["perft", "othello", "--depth", "6"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("leaves/s"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.trim_start().starts_with('6') && last.contains("8200"),
        "{stdout}"
    );
}

/// A table size in range that this process cannot allocate (here an address-space limit
/// of ~1.5 GB, as in a small container) is one error line, not an abort once the work has
/// begun (`memory allocation of 4294967344 bytes failed`, SIGABRT).
#[test]
fn a_table_that_cannot_be_allocated_is_an_input_error() {
    let bin = env!("CARGO_BIN_EXE_tessera");
    for cmd in ["solve othello --ffo 40", "bestmove othello"] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1500000 && exec '{bin}' {cmd} --tt-mb 4096"
            ))
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{cmd}: {stderr}");
        assert!(
            stderr.contains("cannot allocate a 4096 MiB transposition table"),
            "{cmd}: {stderr}"
        );
    }
}

/// A forced win found by the midgame alpha-beta search is solved to the end: `exact` (was
/// false beside "forced win in 1 ply"). X holds a1-d1; taking the neutral e1 and pushing
/// it in at a1 (row 1 shifts right) fills row 1 with X: the only win in 1 (rules: a cube
/// taken from the border is turned to the mover's symbol). A quiet position stays inexact.
#[test]
fn a_forced_win_from_alpha_beta_is_exact_and_a_depth_above_60_is_refused() {
    let win = "XXXX./OO.../...../...../..... X";
    let v = json_of(&[
        "bestmove",
        "quixo",
        "--position",
        win,
        "--depth",
        "5",
        "--json",
    ]);
    assert_eq!(v["score"], tessera::search::WIN - 1, "{v}");
    assert_eq!(v["exact"], true, "{v}");
    let quiet = "X..../.O.../...../...../..... X";
    let v = json_of(&[
        "bestmove",
        "quixo",
        "--position",
        quiet,
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(v["exact"], false, "{v}");
    assert_input_error(
        &["bestmove", "othello", "--depth", "61"],
        &["--depth", "61 must be in 1..=60 plies"],
    );
    assert_input_error(
        &[
            "tournament",
            "othello",
            "--engine",
            "depth=1000",
            "--engine",
            "depth=1",
        ],
        &["depth must be in 1..=60 plies, got 1000"],
    );
}

#[test]
fn bestmove_start_position_returns_a_legal_move() {
    // The search itself (the opening book would answer the start position).
    let v = json_of(&[
        "bestmove", "othello", "--depth", "3", "--book", "none", "--json",
    ]);
    let mv = v["move"].as_str().expect("move is a string");
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&mv),
        "illegal first move {mv}"
    );
    assert_eq!(v["position"], START);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["exact"], false);
    assert_eq!(v["unit"], "centi-discs");
    assert!(v["score"].is_i64());
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["nps"].as_f64().unwrap() >= 0.0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    let pv = v["pv"].as_array().expect("pv array");
    assert!(!pv.is_empty() && pv.iter().all(Value::is_string));
    assert_eq!(pv[0].as_str(), Some(mv));
}

#[test]
fn bestmove_text_shows_board_iterations_and_result() {
    let out = tessera(&[
        "bestmove", "othello", "--moves", "f5d6c3", "--depth", "4", "--book", "none",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for needle in [
        "a b c d e f g h",
        "info depth 4",
        "best move",
        "discs",
        "nodes/s",
        "pv",
    ] {
        assert!(stdout.contains(needle), "missing '{needle}' in:\n{stdout}");
    }
}

#[test]
fn bestmove_ffo40_is_solved_exactly() {
    let v = json_of(&[
        "bestmove",
        "othello",
        "--ffo",
        "40",
        "--exact-empties",
        "20",
        "--time-ms",
        "120000",
        "--json",
    ]);
    assert_eq!(v["move"], "a2");
    assert_eq!(v["score"], 3800);
    assert_eq!(v["exact"], true);
    assert_eq!(v["depth"], 20);
    assert_eq!(v["position"], FFO40);
    assert_eq!(v["pv"][0], "a2");
}

#[test]
fn solve_ffo40() {
    let v = json_of(&["solve", "othello", "--ffo", "40", "--json"]);
    assert_eq!(v["score"], 38);
    assert_eq!(v["move"], "a2");
    assert_eq!(v["empties"], 20);
    assert_eq!(v["stopped"], false);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["nps"].as_f64().unwrap() > 0.0);
    assert_eq!(v["pv"][0], "a2");
    // The root passes: the selective ladder (73, 87, 95 %) then the exact pass.
    let passes = v["passes"].as_array().expect("a passes array");
    let probs: Vec<u64> = passes
        .iter()
        .map(|p| p["probability"].as_u64().unwrap())
        .collect();
    assert_eq!(probs, [73, 87, 95, 100]);
    let last = &passes[3];
    assert_eq!(
        (&last["score"], &last["move"], &last["depth"]),
        (&v["score"], &v["move"], &v["empties"])
    );
    assert_eq!(last["nodes"], v["nodes"]);
}

#[test]
fn solve_takes_a_position_starting_with_a_dash() {
    // FFO #41 as a --position value (clap must not read it as a flag): exact 0, best h4.
    let p41 = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X";
    let v = json_of(&["solve", "othello", "--position", p41, "--json"]);
    assert_eq!(v["score"], 0);
    assert_eq!(v["move"], "h4");
}

#[test]
fn solve_stopped_by_the_time_limit_exits_1() {
    let out = tessera(&[
        "solve",
        "othello",
        "--ffo",
        "50",
        "--time-ms",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["stopped"], true);
    assert!(v["score"].is_null() && v["move"].is_null());
}

#[test]
fn finished_game_reports_no_move() {
    let full = format!("{} O", "X".repeat(64));
    let v = json_of(&["bestmove", "othello", "--position", &full, "--json"]);
    assert!(v["move"].is_null());
    assert_eq!(v["game_over"], true);
    assert_eq!(v["score"], -6400);

    let out = tessera(&["bestmove", "othello", "--position", &full]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("game over"));

    let v = json_of(&["solve", "othello", "--position", &full, "--json"]);
    assert_eq!(v["score"], -64);
    assert!(v["move"].is_null());
}

#[test]
fn bad_inputs_exit_2_with_one_error_line() {
    let dir = std::env::temp_dir().join("tessera-cli-test-no-such-dir");
    let missing = dir.join("weights.json");
    let missing = missing.to_str().unwrap();
    let bad_side = format!("{} Z", &START[..64]);
    let short = format!("{} X", &START[..63]);
    let huge_out = std::env::temp_dir()
        .join(format!("tessera-cli-huge-{}", std::process::id()))
        .to_str()
        .unwrap()
        .to_string();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["bestmove", "othello", "--position", "xx"],
            vec!["--position"],
        ),
        (
            vec!["bestmove", "othello", "--position", &short],
            vec!["--position", "63"],
        ),
        (
            vec!["bestmove", "othello", "--position", &bad_side],
            vec!["--position", "side", "Z"],
        ),
        (
            vec!["bestmove", "othello", "--moves", "f5f5"],
            vec!["--moves", "f5", "illegal"],
        ),
        (
            vec!["bestmove", "othello", "--moves", "f5zz"],
            vec!["--moves", "zz"],
        ),
        (
            vec!["bestmove", "othello", "--ffo", "99"],
            vec!["99", "40..59"],
        ),
        (vec!["solve", "othello", "--ffo", "7"], vec!["7"]),
        (
            vec!["bestmove", "othello", "--weights", missing, "--depth", "1"],
            vec!["weights", "weights.json"],
        ),
        (vec!["bestmove", "othello", "--depth", "0"], vec!["--depth"]),
        (vec!["perft", "othello", "--depth", "0"], vec!["--depth"]),
        (vec!["perft", "othello"], vec!["--depth"]),
        (vec!["bestmove", "chess"], vec!["chess"]),
        (vec!["solve", "othello"], vec!["position"]),
        (
            vec!["bestmove", "othello", "--ffo", "40", "--moves", "f5"],
            vec!["--moves"],
        ),
        (vec!["play", "othello", "--human", "red"], vec!["red"]),
        (vec!["perft", "othello", "--depth", "x"], vec!["--depth"]),
        (
            vec![
                "bestmove",
                "quixo",
                "--algo",
                "mcts",
                "--mcts-parallel",
                "leaf",
            ],
            vec!["--mcts-parallel", "leaf", "root, tree"],
        ),
        (
            vec![
                "bestmove",
                "othello",
                "--depth",
                "2",
                "--mcts-parallel",
                "tree",
            ],
            vec!["--mcts-parallel", "--algo mcts"],
        ),
        (
            vec!["bench", "talat", "--algo", "mcts", "--mcts-parallel", ""],
            vec!["--mcts-parallel"],
        ),
        (
            vec!["bench", "othello", "--iterations", "5"],
            vec!["--iterations", "--algo mcts"],
        ),
        // Options of the other algorithm are refused even at their default values.
        (
            vec!["bench", "othello", "--mcts-parallel", "root"],
            vec!["--mcts-parallel", "--algo mcts"],
        ),
        (
            vec!["bench", "othello", "--algo", "mcts", "--depth", "9"],
            vec!["--depth", "--iterations"],
        ),
        (
            vec!["bestmove", "othello", "--depth", "3", "--c", "1"],
            vec!["--c", "--algo mcts"],
        ),
        (
            vec!["bestmove", "othello", "--depth", "3", "--seed", "0"],
            vec!["--seed", "--algo mcts"],
        ),
        (
            vec![
                "bestmove",
                "quixo",
                "--depth",
                "4",
                "--threads",
                "2",
                "--mcts-parallel",
                "root",
            ],
            vec!["--mcts-parallel", "--algo mcts"],
        ),
        // Two names of one MCTS budget.
        (
            vec![
                "bestmove",
                "othello",
                "--algo",
                "mcts",
                "--iterations",
                "10",
                "--nodes",
                "100",
            ],
            vec!["--iterations", "--nodes", "same budget"],
        ),
        // A finished 3x3 game is still a 3x3 position: no 5x5 prover options.
        (
            vec![
                "solve",
                "quixo",
                "--position",
                "XXX/.../... X",
                "--max-plies",
                "3",
            ],
            vec!["3x3", "--max-plies"],
        ),
        // --exact-empties only means something to Othello's alpha-beta search.
        (
            vec!["bestmove", "quixo", "--depth", "3", "--exact-empties", "5"],
            vec!["--exact-empties", "othello"],
        ),
        (
            vec![
                "bestmove",
                "othello",
                "--algo",
                "mcts",
                "--iterations",
                "100",
                "--exact-empties",
                "5",
            ],
            vec!["--exact-empties", "--algo alphabeta"],
        ),
        // Above i64::MAX: refused as too large, not "not a whole number" of an inline
        // engine the user never typed.
        (
            vec![
                "bestmove",
                "othello",
                "--algo",
                "mcts",
                "--iterations",
                "9223372036854775808",
            ],
            vec!["--iterations", "too large", "9223372036854775807"],
        ),
        (
            vec![
                "tournament",
                "othello",
                "--engine",
                "name=x,algo=mcts,iterations=18446744073709551616",
                "--engine",
                "othello-ab-d1",
                "--out",
                &huge_out,
            ],
            vec!["iterations", "too large"],
        ),
    ];
    for (args, needles) in &cases {
        assert_input_error(args, needles);
    }
}

#[test]
fn weights_file_that_is_not_json_is_an_input_error() {
    let path = std::env::temp_dir().join(format!(
        "tessera-cli-bad-weights-{}.json",
        std::process::id()
    ));
    std::fs::write(&path, "not json").unwrap();
    let p = path.to_str().unwrap();
    assert_input_error(
        &["bestmove", "othello", "--weights", p, "--depth", "1"],
        &["weights"],
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn play_answers_bad_input_and_continues() {
    let out = tessera_with_stdin(
        &["play", "othello", "--human", "black", "--depth", "1"],
        Some("zz\nf5\nquit\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("panicked"));
    assert!(stdout.contains("a b c d e f g h"), "{stdout}");
    assert!(stdout.contains("legal moves: d3 c4 f5 e6"), "{stdout}");
    assert!(stdout.contains("'zz' is not an Othello move"), "{stdout}");
    assert!(stdout.contains("Black (X) plays f5"), "{stdout}");
    assert!(stdout.contains("(tessera) plays"), "{stdout}");
    assert!(stdout.contains("score"), "{stdout}");
    assert!(stdout.contains("quit"), "{stdout}");
}

#[test]
fn play_rejects_illegal_moves_and_passes_when_allowed_placements_exist() {
    let out = tessera_with_stdin(
        &["play", "othello", "--human", "black", "--depth", "1"],
        Some("a1\npass\nd4\nf5\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains("illegal move 'a1'"), "{stdout}");
    assert!(stdout.contains("illegal move 'pass'"), "{stdout}");
    assert!(stdout.contains("d4 is occupied"), "{stdout}");
    assert!(stdout.contains("Black (X) plays f5"), "{stdout}");
    assert!(stdout.contains("end of input"), "{stdout}");
}

/// Undo, redo, hint and analyze at the move prompt, and the short answer to a typo.
#[test]
fn play_takes_back_replays_hints_and_analyses() {
    let out = tessera_with_stdin(
        &["play", "othello", "--human", "black", "--depth", "1"],
        Some("undo\nzz\nf5\nundo\nredo\nredo\nhint\nanalyze\nmoves\nquit\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("Commands: moves"), "{stdout}");
    assert!(stdout.contains("nothing to undo"), "{stdout}");
    // One short line for a typo; the list only on request.
    assert!(
        stdout.contains(
            "'zz' is not an Othello move (expected a square a1..h8 or 'pass'); `moves` lists \
             the legal moves\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("Legal moves:"), "{stdout}");
    // f5 and the engine's reply taken back, then both replayed.
    assert!(stdout.contains("took back 2 moves"), "{stdout}");
    assert!(stdout.contains("replayed 2 moves"), "{stdout}");
    assert!(stdout.contains("nothing to redo"), "{stdout}");
    assert!(stdout.contains("hint: "), "{stdout}");
    assert!(
        stdout.contains("moves of Black (X), best first"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nmoves: f5"),
        "the transcript after redo: {stdout}"
    );
}

/// The commands exist in every game; a typo is one short line, not Talat's ~75 legal
/// moves; three-player Talat's analysis says why it has none.
#[test]
fn play_commands_work_in_every_game() {
    for (game, human, typo_line) in [
        ("quixo", "0", "zz"),
        ("quixo-4p", "a1", "zz"),
        ("talat", "white", "zz"),
        ("talat-2p", "0", "zz"),
    ] {
        let input = format!("{typo_line}\nundo\nhint\nanalyze\nquit\n");
        let out = tessera_with_stdin(
            &["play", game, "--human", human, "--depth", "1"],
            Some(&input),
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{game}: {}", text(&out.stderr));
        let typo = stdout
            .lines()
            .find(|l| l.contains("`moves` lists the legal moves"))
            .unwrap_or_else(|| panic!("{game}: no typo line in {stdout}"));
        assert!(typo.len() < 160, "{game}: {typo}");
        assert!(stdout.contains("nothing to undo"), "{game}: {stdout}");
        assert!(stdout.contains("hint: "), "{game}: {stdout}");
        if game == "talat" {
            assert!(
                stdout.contains("analyze: per-move analysis needs a two-sided game"),
                "{stdout}"
            );
        } else {
            assert!(
                stdout.contains(", best first (score for "),
                "{game}: {stdout}"
            );
        }
    }
}

#[test]
fn play_exits_cleanly_at_end_of_input() {
    let out = tessera_with_stdin(&["play", "othello", "--depth", "1"], None);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(text(&out.stdout).contains("end of input"));
}

#[test]
fn play_engine_against_itself_to_the_end() {
    let out = tessera(&["play", "othello", "--human", "none", "--depth", "1"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("game over"), "{stdout}");
    assert!(
        stdout.contains("moves: f5")
            || stdout.contains("moves: d3")
            || stdout.contains("moves: c4")
            || stdout.contains("moves: e6"),
        "{stdout}"
    );
}

#[test]
fn play_two_humans_with_a_forced_pass() {
    // White to move with no placement while Black has one: the pass is automatic.
    // Row 1: X O . . . . . . ; White (O) cannot move, Black can play c1.
    let pos = format!("XO{} O", "-".repeat(62));
    let out = tessera_with_stdin(
        &["play", "othello", "--human", "both", "--position", &pos],
        Some("c1\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    // In the web page's words (one history for both).
    assert!(
        stdout.contains("White (O) had no legal move and passed"),
        "{stdout}"
    );
    assert!(stdout.contains("Black (X) plays c1"), "{stdout}");
    assert!(stdout.contains("game over"), "{stdout}");
    assert!(stdout.contains("Black (X) wins by 64"), "{stdout}");
}

#[test]
fn every_command_has_help() {
    for cmd in ["perft", "bestmove", "solve", "play"] {
        let out = tessera(&[cmd, "--help"]);
        assert!(out.status.success(), "{cmd} --help");
        let stdout = text(&out.stdout);
        assert!(stdout.contains("Usage: tessera"), "{stdout}");
        assert!(stdout.contains("othello"), "{stdout}");
    }
    let out = tessera(&["--help"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    for cmd in ["perft", "bestmove", "solve", "play"] {
        assert!(stdout.contains(cmd), "{stdout}");
    }
}

/// The engine options that are `Option`s (so that giving one to the wrong algorithm is
/// refused even at its default value) state their defaults in the help by hand: those
/// texts must match the values the engine really uses.
#[test]
fn engine_option_defaults_in_help_match_the_code() {
    let out = tessera(&["bestmove", "--help"]);
    let help = text(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let spec = tessera::engine::EngineSpec::front_end_default("othello").unwrap();
    let exact = tessera::games::othello::DEFAULT_EXACT_EMPTIES;
    assert_eq!(
        spec.exact_empties,
        Some(tessera::engine::spec::ExactEmpties::Upto(exact))
    );
    let exact = format!("[default: {exact}]");
    for (option, default) in [
        ("--exact-empties", exact.as_str()),
        ("--mcts-parallel", "[default: root]"),
        ("--seed", "[default: 0]"),
        ("--c", "[default: 1]"),
    ] {
        let at = help
            .find(&format!("{option} <"))
            .unwrap_or_else(|| panic!("{option} missing in: {help}"));
        let next = help[at + 2..]
            .find(" --")
            .map_or(help.len(), |i| at + 2 + i);
        assert!(
            help[at..next].contains(default),
            "{option} should say {default}: {}",
            &help[at..next]
        );
    }
}

// ---- Quixo ----------------------------------------------------------------------------

#[test]
fn quixo_perft_matches_the_published_counts() {
    // tests/data/quixo/solved.md: 44, 1 836, 76 596 from the empty 5x5 board.
    let v = json_of(&["perft", "quixo", "--depth", "3", "--json"]);
    let leaves: Vec<u64> = v["depths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["leaves"].as_u64().unwrap())
        .collect();
    assert_eq!(leaves, [44, 1836, 76_596]);
    // Four players: 88 first moves (44 pushes x 2 dots).
    let v = json_of(&["perft", "quixo-4p", "--depth", "1", "--json"]);
    assert_eq!(v["depths"][0]["leaves"], 88);
}

#[test]
fn quixo_solve_size_3_reproduces_the_published_values() {
    // tests/data/quixo/solved.md: 3x3 is a first-player win in 7 plies; 12 748 / 6 935 / 0.
    let v = json_of(&["solve", "quixo", "--size", "3", "--json"]);
    assert_eq!(v["value"], "win");
    assert_eq!(v["plies"], 7);
    assert_eq!(
        (
            v["wins"].as_u64(),
            v["losses"].as_u64(),
            v["draws"].as_u64()
        ),
        (Some(12_748), Some(6_935), Some(0))
    );
}

/// A 3x3 position (solved by the retrograde table) answers with the same JSON fields as a
/// 5x5 one (proved by search), so scripts need not know which solver ran.
#[test]
fn quixo_solve_json_has_the_same_fields_for_every_board_size() {
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let small = json_of(&["solve", "quixo", "--position", "XOO/OXX/... X", "--json"]);
    let big = json_of(&[
        "solve",
        "quixo",
        "--position",
        "XXXX./...../...../...../..... X",
        "--json",
    ]);
    assert_eq!(keys(&small), keys(&big), "{small}\n{big}");
    assert_eq!(small["prover"], "retrograde");
    assert_eq!(small["stopped"], false);
    assert_eq!(small["plies_exact"], small["plies"].is_u64());
    // A finished 3x3 game: the same fields, over, and no table needed. X has the top
    // row; O is to move and has lost.
    let over = json_of(&["solve", "quixo", "--position", "XXX/.O./O.. O", "--json"]);
    assert_eq!(keys(&over), keys(&big), "{over}");
    assert_eq!(
        (
            &over["value"],
            &over["plies"],
            &over["game_over"],
            &over["prover"]
        ),
        (
            &Value::from("loss"),
            &Value::from(0),
            &Value::from(true),
            &Value::from("retrograde")
        ),
        "{over}"
    );
    assert_eq!(over["move"], Value::Null);
}

#[test]
fn quixo_solve_position_gives_value_and_distance() {
    // X holds a1..d1 and e1 is blank: taking the blank e1 and pushing it in at a1
    // (e1-a1) shifts X's cubes right and fills the row with X: a win in 1 ply.
    let v = json_of(&[
        "solve",
        "quixo",
        "--position",
        "XXXX./...../...../...../..... X",
        "--json",
    ]);
    assert_eq!(v["value"], "win");
    assert_eq!(v["plies"], 1);
    // The empty 5x5 board is a draw (solved.md) and no game ends before ply 9: within
    // 3 plies nothing is proven, which is said as "unproven" with exit code 1.
    let out = tessera(&[
        "solve",
        "quixo",
        "--position",
        "...../...../...../...../..... X",
        "--max-plies",
        "3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["value"], "unproven");
    // Searched in full (no clock): the search was not stopped, and no distance is claimed.
    assert_eq!(v["stopped"], false);
    assert_eq!(v["plies_exact"], false);
    // The same with both provers in text mode: the reason is said.
    for prover in ["dfpn", "id"] {
        let out = tessera(&[
            "solve",
            "quixo",
            "--position",
            "...../...../...../...../..... X",
            "--max-plies",
            "3",
            "--prover",
            prover,
        ]);
        assert_eq!(out.status.code(), Some(1), "{prover}");
        let said = text(&out.stdout);
        assert!(
            said.contains("unproven: neither side can force a line within 3 plies"),
            "{prover}: {said}"
        );
    } // A win in 13 (docs/quixo.md's df-pn table) cannot be proven in 1 ms: the clock stops it,
    // and both the JSON and the text say so.
    for json in [true, false] {
        let mut cmd = vec![
            "solve",
            "quixo",
            "--position",
            "XXOOO/OOXXO/X.X../..O.X/XO.XX X",
            "--max-plies",
            "15",
            "--time-ms",
            "1",
        ];
        if json {
            cmd.push("--json");
        }
        let out = tessera(&cmd);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        if json {
            let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
            assert_eq!(
                (&v["value"], &v["stopped"]),
                (&"unproven".into(), &true.into())
            );
        } else {
            assert!(
                text(&out.stdout).contains("the time limit (1 ms) stopped the search"),
                "{}",
                text(&out.stdout)
            );
        }
    }
}

#[test]
fn quixo_bad_input_is_one_line_errors() {
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["bestmove", "quixo", "--position", "XXXX./..... X"],
            vec!["--position"],
        ),
        (vec!["bestmove", "quixo", "--moves", "c1-c1"], vec!["c1-c1"]),
        (vec!["bestmove", "quixo", "--ffo", "40"], vec!["--ffo"]),
        (vec!["solve", "quixo", "--size", "6"], vec!["--size"]),
        (vec!["solve", "quixo"], vec!["--size"]),
        (vec!["solve", "quixo-4p", "--size", "3"], vec!["quixo-4p"]),
        (
            vec!["solve", "quixo", "--size", "3", "--prover", "id"],
            vec!["--prover"],
        ),
        (
            vec!["solve", "quixo", "--size", "3", "--max-plies", "5"],
            vec!["--max-plies"],
        ),
        (
            vec!["solve", "quixo", "--size", "3", "--tt-mb", "4"],
            vec!["--tt-mb"],
        ),
        (
            vec![
                "solve",
                "quixo",
                "--position",
                "XO./.X./..O X",
                "--time-ms",
                "1",
            ],
            vec!["3x3", "--time-ms"],
        ),
        (
            vec![
                "solve",
                "quixo",
                "--position",
                "XO./.X./..O X",
                "--prover",
                "id",
            ],
            vec!["3x3", "--prover"],
        ),
        (vec!["play", "quixo", "--human", "z"], vec!["z"]),
        (
            vec![
                "tournament",
                "quixo",
                "--engines",
                "quixo-ab-d2,othello-ab-d2",
            ],
            vec!["othello"],
        ),
    ];
    for (args, needles) in &cases {
        assert_input_error(args, needles);
    }
}

#[test]
fn quixo_4p_play_shows_dots_and_takes_a_human_move() {
    let out = tessera_with_stdin(
        &["play", "quixo-4p", "--human", "a1", "--depth", "1"],
        Some("c1-a1>2\nquit\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("A1 (team X) plays c1-a1>2"), "{stdout}");
    // After the move a1 holds an X cube whose dot points at A2.
    assert!(stdout.contains(" 1  X2"), "{stdout}");
    assert!(stdout.contains("B1 (team O) (tessera) plays"), "{stdout}");
}

#[test]
fn quixo_team_tournament_rates_one_engine_per_team() {
    let dir = std::env::temp_dir().join(format!("tessera-cli-q4p-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let v = json_of(&[
        "tournament",
        "quixo-4p",
        "--engine",
        "name=q1,game=quixo-4p,depth=1,tt-mb=1",
        "--engine",
        "name=q2,game=quixo-4p,depth=2,tt-mb=1",
        "--rounds",
        "2",
        "--concurrency",
        "2",
        "--no-progress",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["played"], 4);
    let records = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let lines: Vec<Value> = records
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for r in &lines {
        // One engine per team, on both of its seats; teammates share the result.
        let e = r["engines"].as_array().unwrap();
        assert_eq!(e.len(), 4);
        assert_eq!((&e[0], &e[1]), (&e[2], &e[3]), "{r}");
        assert_ne!(e[0], e[1]);
        assert_eq!(r["teams"], serde_json::json!([0, 1, 0, 1]));
        let p = r["points"].as_array().unwrap();
        assert_eq!((&p[0], &p[1]), (&p[2], &p[3]), "{r}");
    }
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    assert_eq!(ratings[0]["games"].as_u64(), Some(4));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Talat ----------------------------------------------------------------------------

#[test]
fn talat_perft_counts_the_setup_placements() {
    // Setup placements, worked by hand (tests/it/talat/perft.rs): 9 kinds x 10 start squares
    // = 90 for the first placer, 90 x 90 = 8 100 after the second.
    for game in ["talat", "talat-2p"] {
        let v = json_of(&["perft", game, "--depth", "2", "--json"]);
        assert_eq!(v["depths"][0]["leaves"], 90, "{game}");
        assert_eq!(v["depths"][1]["leaves"], 8100, "{game}");
    }
}

#[test]
fn talat_bestmove_with_each_multi_player_search() {
    for algo in ["paranoid", "maxn", "brs", "brs-plus", "mcts"] {
        let mut args = vec!["bestmove", "talat", "--algo", algo, "--json"];
        if algo == "mcts" {
            args.extend(["--iterations", "300"]);
        } else {
            args.extend(["--depth", "2"]);
        }
        let v = json_of(&args);
        let mv = v["move"].as_str().unwrap_or_default().to_string();
        // White places first, on row 1 of WG or row 5 of BW.
        assert!(
            mv.contains("@WG:") && mv.ends_with('1') || mv.contains("@BW:") && mv.ends_with('5'),
            "{algo}: {v}"
        );
        let unit = if algo == "mcts" {
            "margin-reward x 1000"
        } else {
            "centi-points"
        };
        assert_eq!(v["unit"], unit, "{algo}");
    }
}

#[test]
fn talat_2p_seed_sets_up_the_djinn() {
    let a = json_of(&[
        "bestmove", "talat-2p", "--depth", "1", "--seed", "1", "--json",
    ]);
    let b = json_of(&[
        "bestmove", "talat-2p", "--depth", "1", "--seed", "2", "--json",
    ]);
    let c = json_of(&[
        "bestmove", "talat-2p", "--depth", "1", "--seed", "1", "--json",
    ]);
    assert_ne!(a["position"], b["position"]);
    assert_eq!(a["position"], c["position"]);
}

#[test]
fn talat_bad_input_is_one_line_errors() {
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["bestmove", "talat", "--algo", "alphabeta"],
            vec!["alphabeta", "paranoid"],
        ),
        (vec!["bestmove", "talat", "--seed", "3"], vec!["--seed"]),
        (
            vec!["bestmove", "talat", "--algo", "maxn", "--threads", "2"],
            vec!["--threads"],
        ),
        (vec!["bestmove", "talat-2p", "--algo", "brs"], vec!["brs"]),
        (
            vec!["bestmove", "talat", "--moves", "H3@WG:c3"],
            vec!["H3@WG:c3"],
        ),
        (
            vec!["bestmove", "talat", "--position", "talat WG:..."],
            vec!["--position"],
        ),
        (vec!["gtp", "talat"], vec!["talat"]),
        (vec!["play", "talat", "--human", "purple"], vec!["purple"]),
    ];
    for (args, needles) in &cases {
        assert_input_error(args, needles);
    }
}

#[test]
fn talat_play_seats_two_humans_and_the_engine() {
    let out = tessera_with_stdin(
        &["play", "talat", "--human", "white,grey", "--depth", "1"],
        Some("H3@WG:c1\nT1@GB:a1\nquit\n"),
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert!(
        stdout.contains("You play White, Grey against tessera (Black)"),
        "{stdout}"
    );
    assert!(stdout.contains("White plays H3@WG:c1"), "{stdout}");
    assert!(stdout.contains("Grey plays T1@GB:a1"), "{stdout}");
    assert!(stdout.contains("Black (tessera) plays"), "{stdout}");
}

#[test]
fn engine_only_quixo_games_in_play_always_end() {
    // Deterministic fixed-depth engines cycle in Quixo; play ends the game as a draw on the
    // third occurrence of a position (it ran forever before).
    for depth in ["1", "2", "4"] {
        let out = tessera_with_stdin(
            &["play", "quixo", "--human", "none", "--depth", depth],
            None,
        );
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
        assert!(
            stdout.contains("game over"),
            "depth {depth}: {}",
            &stdout[stdout.len().saturating_sub(500)..]
        );
        assert!(
            stdout.lines().count() < 20_000,
            "depth {depth}: the game did not stop"
        );
    }
}

#[test]
fn quixo_gtp_accepts_its_board_size_and_forced_wins_read_as_such() {
    let out = tessera_with_stdin(
        &["gtp", "quixo", "--depth", "1"],
        Some("boardsize 5\nboardsize 4\nquit\n"),
    );
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("=\n\n? "), "{stdout}");
    // X to move on 3x3 with a forced win found at depth 5.
    let out = tessera(&[
        "bestmove",
        "quixo",
        "--position",
        "X../.../... X",
        "--depth",
        "7",
    ]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("score      forced win in 5 plies"),
        "{stdout}"
    );
}

#[test]
fn finished_openings_and_talat_inline_defaults() {
    let dir = std::env::temp_dir().join(format!("tessera-cli-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    std::fs::write(&file, "XXXXX/...../...../...../..... O\n").unwrap();
    let out_dir = dir.join("t");
    assert_input_error(
        &[
            "tournament",
            "quixo",
            "--engines",
            "quixo-ab-d2,quixo-ab-d4",
            "--openings",
            file.to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        &["line 1", "already over"],
    );
    // An inline talat engine without algo gets brs-plus (alpha-beta is two-sided).
    let v = json_of(&[
        "tournament",
        "talat",
        "--engines",
        "talat-brs-t25",
        "--engine",
        "name=x,depth=1",
        "--engine",
        "name=y,depth=1,algo=paranoid",
        "--rounds",
        "1",
        "--no-progress",
        "--json",
        "--out",
        dir.join("t3").to_str().unwrap(),
    ]);
    assert_eq!(v["played"], 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_runs_every_game_with_mcts_and_a_stable_signature() {
    for game in ["othello", "quixo", "quixo-4p", "talat", "talat-2p"] {
        let args = [
            "bench",
            game,
            "--algo",
            "mcts",
            "--iterations",
            "200",
            "--json",
        ];
        let a = json_of(&args);
        let b = json_of(&args);
        assert!(a["nodes"].as_u64().unwrap() > 0, "{game}: {a}");
        // MCTS has iterations, not a depth.
        assert_eq!((&a["iterations"], &a["depth"]), (&200.into(), &Value::Null));
        // One thread, seed 0: the same tree, the same signature.
        assert_eq!(a["signature"], b["signature"], "{game}");
        // The total time is the rows' searches summed; the wall time holds it and the
        // set-up around it.
        let rows: f64 = a["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["seconds"].as_f64().unwrap())
            .sum();
        let (secs, wall) = (
            a["seconds"].as_f64().unwrap(),
            a["wall_seconds"].as_f64().unwrap(),
        );
        assert!((secs - rows).abs() < 1e-9, "{game}: {secs} vs rows {rows}");
        assert!(wall >= secs, "{game}: wall {wall} < searches {secs}");
    }
}

#[test]
fn quixo_small_board_positions_are_solved_from_the_table() {
    // 3x3, X to move: the retrograde table says win in 5; the alpha-beta search finds the
    // same forced win in 5 plies independently (quixo_gtp_accepts_... above); with O to
    // move the same board is a loss in 6.
    let v = json_of(&["solve", "quixo", "--position", "X../.../... X", "--json"]);
    assert_eq!(
        (v["value"].as_str(), v["plies"].as_u64()),
        (Some("win"), Some(5))
    );
    let mv = v["move"].as_str().unwrap().to_string();
    // --threads sets the retrograde analysis' threads: the same answer on one thread.
    let one = json_of(&[
        "solve",
        "quixo",
        "--position",
        "X../.../... X",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!((&one["value"], &one["plies"]), (&v["value"], &v["plies"]));
    let v = json_of(&["solve", "quixo", "--position", "X../.../... O", "--json"]);
    assert_eq!(
        (v["value"].as_str(), v["plies"].as_u64()),
        (Some("loss"), Some(6))
    );
    assert!(!mv.is_empty());
}

/// A weights file that names no weight at all (empty, `{}`, only comments) is almost
/// certainly the wrong file: it is refused instead of silently meaning "every default"
/// (before, `--weights empty.txt` played the baseline evaluation with exit 0).
#[test]
fn a_weights_file_with_no_weights_is_refused() {
    let dir = std::env::temp_dir().join(format!("tessera-cli-noweights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, body) in [
        ("empty.txt", ""),
        ("object.json", " {\n}\n"),
        ("notes.md", "# my notes\n\n# nothing else\n"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        for game in ["othello", "quixo", "talat"] {
            let out = tessera(&[
                "bestmove",
                game,
                "--depth",
                "1",
                "--weights",
                path.to_str().unwrap(),
            ]);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{game} {name}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.contains("holds no weights") && err.contains(name),
                "{err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A negative number given to an option is that option's value, refused with the option's
/// own message (exit 2): not clap's "unexpected argument '-1'" with a `-- -1` tip.
#[test]
fn negative_numbers_get_the_options_own_error() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["bestmove", "othello", "--threads", "-1"],
            "-1 is not in 1..=256",
        ),
        (
            &["solve", "othello", "--ffo", "40", "--threads", "-3"],
            "-3 is not in 1..=256",
        ),
        (
            &["bench", "quixo", "--threads", "-2"],
            "-2 is not in 1..=256",
        ),
        (
            &["bestmove", "othello", "--time-ms", "-5"],
            "must be at least 1",
        ),
        (
            &["bestmove", "othello", "--tt-mb", "-5"],
            "-5 MiB is outside 1..=",
        ),
        (
            &[
                "tournament",
                "othello",
                "--engines",
                "a,b",
                "--rounds",
                "-2",
            ],
            "must be at least 1",
        ),
    ];
    for (args, want) in cases {
        let err = assert_input_error(args, &[want]);
        assert!(!err.contains("-- -"), "{args:?}: {err}");
    }
}

/// A one-thread search given `--threads 2` is named as the user met it (the game's default
/// search, or the `--algo` they chose), and a seed too large for an engine setting is the
/// option's own error, not an inline engine spec the user never wrote.
#[test]
fn threads_for_a_one_thread_search_and_huge_seeds_are_named_plainly() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["bestmove", "talat", "--threads", "2"],
            "talat's default search (brs-plus) searches on one thread",
        ),
        (
            &["bench", "talat", "--depth", "2", "--threads", "2"],
            "talat's default search (brs-plus) searches on one thread",
        ),
        (
            &["bestmove", "talat", "--algo", "maxn", "--threads", "2"],
            "--algo maxn searches on one thread",
        ),
        (
            &[
                "bestmove",
                "othello",
                "--algo",
                "mcts",
                "--seed",
                "18446744073709551615",
            ],
            "for '--seed <S>': 18446744073709551615 is too large",
        ),
    ];
    for (args, want) in cases {
        let err = assert_input_error(args, &[want]);
        assert!(!err.contains("inline engine"), "{args:?}: {err}");
    }
}

#[test]
fn bench_takes_an_engine_spec_and_searches_it_as_the_spec_says() {
    let nodes = |args: &[&str]| json_of(args)["nodes"].as_u64().unwrap();
    // The built-in bench engine written as a spec searches the same trees.
    assert_eq!(
        nodes(&["bench", "quixo", "--depth", "3", "--json"]),
        nodes(&[
            "bench",
            "quixo",
            "--engine",
            "weights=builtin:texel,tt-mb=16",
            "--depth",
            "3",
            "--json"
        ])
    );
    let full = nodes(&["bench", "othello", "--depth", "5", "--json"]);
    let spec = "weights=builtin:patterns2,mpc=off,exact-empties=0,tt-mb=16";
    assert_eq!(
        full,
        nodes(&[
            "bench", "othello", "--engine", spec, "--depth", "5", "--json"
        ])
    );
    // A preset keeps its own settings: othello-best-t100's Multi-ProbCut prunes.
    let best = nodes(&[
        "bench",
        "othello",
        "--engine",
        "othello-best-t100",
        "--depth",
        "5",
        "--json",
    ]);
    assert!(best < full, "MPC {best} nodes, full width {full}");
    // An MCTS spec runs its own iterations on every position.
    let m = json_of(&[
        "bench",
        "othello",
        "--engine",
        "algo=mcts,iterations=300",
        "--json",
    ]);
    assert_eq!(
        (&m["algo"], &m["iterations"]),
        (&"mcts".into(), &300.into())
    );
    // At most 300 a position (MCTS-Solver stops a proven one early).
    let (n, positions) = (
        m["nodes"].as_u64().unwrap(),
        m["positions"].as_array().unwrap().len() as u64,
    );
    assert!(
        n > 300 && n <= 300 * positions,
        "{n} nodes over {positions}"
    );
    assert_input_error(
        &[
            "bench",
            "othello",
            "--engine",
            "othello-best-t100",
            "--algo",
            "mcts",
        ],
        &["--engine othello-best-t100 is the engine benched", "--algo"],
    );
    assert_input_error(
        &[
            "bench",
            "othello",
            "--engine",
            "algo=mcts,iterations=300",
            "--depth",
            "3",
        ],
        &["is an MCTS engine", "--depth"],
    );
    assert_input_error(
        &["bench", "othello", "--engine", "no-such-engine"],
        &["--engine: unknown engine 'no-such-engine'"],
    );
    assert_input_error(
        &["bench", "othello", "--engine", "othello-gtp-rhino"],
        &["--engine othello-gtp-rhino is an external program"],
    );
    // nboard: a book `learn` could never write is refused before the session.
    assert_input_error(
        &[
            "nboard",
            "othello",
            "--book",
            "/nonexistent-tessera-dir/b.book",
        ],
        &["--book /nonexistent-tessera-dir/b.book: folder /nonexistent-tessera-dir does not exist"],
    );
}
