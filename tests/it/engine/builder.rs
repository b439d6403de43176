//! One engine builder: `bestmove` (its flags turned into an engine spec), the page's levels
//! and hints, `gtp --engine` and tournaments (engine specs) all build engines with
//! `Players::make_player`, so the same description searches the same tree. Checked by node
//! counts at a fixed depth, which repeat exactly on any machine.

use std::process::Command;

use tessera::engine::{EngineSpec, Players};
use tessera::game::Game;
use tessera::games::{othello, quixo, talat};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

/// Nodes `bestmove GAME --position POS ARGS --json` reports.
fn bestmove_nodes(game: &str, pos: &str, args: &[&str]) -> u64 {
    let out = Command::new(BIN)
        .args(["bestmove", game, "--position", pos, "--json"])
        .args(args)
        .output()
        .expect("run tessera");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("bestmove JSON");
    v["nodes"].as_u64().expect("nodes")
}

/// Nodes the engine `spec` searches on `pos` through the library's builder.
fn library_nodes<G: Players>(spec: &EngineSpec, pos: &str) -> u64 {
    let pos: G = pos.parse().map_err(|e| format!("{e}")).expect("position");
    let mut player = G::make_player(spec).expect("engine");
    player.choose(&pos, &spec.limits()).expect("search").nodes
}

const OTHELLO: &str = "---------------------------OX------XXX-------------------------- O";
const QUIXO: &str = "X...O/...../..X../...../O.... X";

#[test]
fn bestmove_and_the_front_end_default_spec_search_the_same_tree() {
    for (game, pos, depth) in [("othello", OTHELLO, "6"), ("quixo", QUIXO, "4")] {
        let mut spec = EngineSpec::front_end_default(game).unwrap();
        spec.depth = Some(depth.parse().unwrap());
        spec.tt_mb = 64; // bestmove's default table
        let lib = if game == "othello" {
            library_nodes::<othello::Position>(&spec, pos)
        } else {
            library_nodes::<quixo::Quixo>(&spec, pos)
        };
        let cli = bestmove_nodes(game, pos, &["--depth", depth]);
        assert_eq!(cli, lib, "{game} at depth {depth}");
        assert!(cli > 100, "{game}: a real search, {cli} nodes");
    }
    let talat = talat::Talat::start().to_string();
    let mut spec = EngineSpec::front_end_default("talat").unwrap();
    spec.depth = Some(3);
    spec.tt_mb = 64;
    assert_eq!(
        bestmove_nodes("talat", &talat, &["--depth", "3"]),
        library_nodes::<talat::Talat>(&spec, &talat)
    );
}

#[test]
fn a_level_is_the_same_engine_on_the_command_line_and_in_a_spec() {
    // The page's level engines are the spec `level=N,tt-mb=16`; gtp --engine and
    // tournaments take the same inline spec.
    for level in [3u32, 6] {
        let spec =
            EngineSpec::from_inline(&format!("name=tessera,level={level},tt-mb=16"), "othello")
                .unwrap();
        let lib = library_nodes::<othello::Position>(&spec, OTHELLO);
        let cli = bestmove_nodes(
            "othello",
            OTHELLO,
            &["--level", &level.to_string(), "--tt-mb", "16"],
        );
        assert_eq!(cli, lib, "level {level}");
    }
}

#[test]
fn the_front_end_default_names_its_weights_and_refuses_unknown_games() {
    // Othello's is the strongest preset without its time limit: the same evaluation and
    // Multi-ProbCut as othello-best-t100.
    let spec = EngineSpec::front_end_default("othello").unwrap();
    let best = EngineSpec::resolve("othello-best-t100").unwrap();
    assert_eq!(
        spec.weights.as_deref(),
        Some(std::path::Path::new("builtin:patterns2"))
    );
    assert_eq!(spec.weights, best.weights);
    assert_eq!(
        (spec.mpc.as_deref(), spec.mpc_t),
        (Some("builtin"), Some(1.0))
    );
    assert_eq!((spec.mpc.clone(), spec.mpc_t), (best.mpc, best.mpc_t));
    // ... except the exact solve: from a fixed 20 empties, not the preset's clock-planned auto.
    assert_eq!(
        spec.exact_empties,
        Some(tessera::engine::spec::ExactEmpties::Upto(20))
    );
    assert_eq!((spec.depth, spec.time_ms, spec.nodes), (None, None, None));
    let talat = EngineSpec::front_end_default("talat").unwrap();
    assert_eq!(talat.algo.name(), "brs-plus");
    let err = EngineSpec::front_end_default("chess")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown game 'chess'"), "{err}");
}

#[test]
fn engines_lists_the_presets_of_a_game() {
    let out = Command::new(BIN)
        .args(["engines", "quixo"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("quixo-ab-d4"), "{text}");
    assert!(!text.contains("othello-ab-d4"), "{text}");
    let out = Command::new(BIN)
        .args(["engines", "othello", "--json"])
        .output()
        .unwrap();
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = list.as_array().unwrap();
    assert!(list.iter().all(|p| p["game"] == "othello"));
    assert!(
        list.iter()
            .any(|p| p["name"] == "othello-best-t100" && p["settings"] == "alphabeta, 100 ms/move")
    );
    let bad = Command::new(BIN)
        .args(["engines", "chess"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("invalid value 'chess'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `bestmove ARGS --json` run from the repository root: (exit code, stdout, stderr).
fn bestmove(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("bestmove")
        .args(args)
        .output()
        .expect("run tessera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bestmove_takes_an_engine_spec_as_gtp_and_tournaments_do() {
    // A preset by name: its own limit (depth 4) and settings.
    let preset = EngineSpec::resolve("othello-pat-d4").unwrap();
    let lib = library_nodes::<othello::Position>(&preset, OTHELLO);
    assert_eq!(
        bestmove_nodes("othello", OTHELLO, &["--engine", "othello-pat-d4"]),
        lib
    );
    // --depth replaces the preset's limit; the rest of the preset stays.
    let deeper = preset.clone().with_limits(Some(5), None, None);
    assert_eq!(
        bestmove_nodes(
            "othello",
            OTHELLO,
            &["--engine", "othello-pat-d4", "--depth", "5"]
        ),
        library_nodes::<othello::Position>(&deeper, OTHELLO)
    );
    // An inline spec, for Quixo.
    let inline = "name=q,depth=3,weights=builtin:texel,tt-mb=8";
    let spec = EngineSpec::from_inline(inline, "quixo").unwrap();
    assert_eq!(
        bestmove_nodes("quixo", QUIXO, &["--engine", inline]),
        library_nodes::<quixo::Quixo>(&spec, QUIXO)
    );
}

#[test]
fn bestmove_keeps_the_defaults_mpc_unless_a_flag_changes_the_engine() {
    // The default engine searches with MPC; --mpc off, --weights and levels below 11 (full
    // width) take it off, so each searches another tree than the default at the same depth.
    let default = bestmove_nodes("othello", OTHELLO, &["--depth", "13"]);
    let off = bestmove_nodes("othello", OTHELLO, &["--depth", "13", "--mpc", "off"]);
    let mut spec = EngineSpec::front_end_default("othello").unwrap();
    spec.depth = Some(13);
    spec.tt_mb = 64;
    assert_eq!(default, library_nodes::<othello::Position>(&spec, OTHELLO));
    spec.mpc = None;
    spec.mpc_t = None;
    assert_eq!(off, library_nodes::<othello::Position>(&spec, OTHELLO));
    assert!(default < off, "MPC prunes: {default} against {off} nodes");
    let weights = bestmove_nodes(
        "othello",
        OTHELLO,
        &["--depth", "13", "--weights", "builtin:patterns2"],
    );
    assert_eq!(weights, off, "--weights alone: no MPC");
    // --exact-empties auto is accepted as engine specs accept it.
    let (code, _, err) = bestmove(&["othello", "--exact-empties", "auto", "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = bestmove(&["othello", "--exact-empties", "65"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("0..=64"), "{err}");
}

#[test]
fn a_bad_engine_spec_is_one_line_and_exit_2() {
    for (args, wanted) in [
        (
            vec!["othello", "--engine", "quixo-ab-d4"],
            "--engine quixo-ab-d4 is for quixo, not othello",
        ),
        (vec!["othello", "--engine", "no-such-engine"], "--engine: "),
        (
            vec!["othello", "--engine", "othello-mcts-i2000", "--depth", "5"],
            "is an MCTS engine",
        ),
        (
            vec!["othello", "--engine", "name=x,depht=3"],
            "unknown field 'depht'",
        ),
        (
            vec![
                "othello",
                "--engine",
                "othello-ab-d4",
                "--weights",
                "builtin:texel",
            ],
            "cannot be used with",
        ),
    ] {
        let (code, _, err) = bestmove(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(wanted), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
}

/// The last `nodestats` count of an NBoard session that sets `depth` and asks for a move
/// from the position after `moves` (GGF), with the book off; the input stays open until
/// the move is answered (its end would stop the search).
fn nboard_nodes(depth: u32, moves: &str, args: &[&str]) -> u64 {
    use std::io::{BufRead, Write};
    let mut child = Command::new(BIN)
        .args(["nboard", "othello", "--book", "none"])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run tessera nboard");
    let mut stdin = child.stdin.take().unwrap();
    write!(
        stdin,
        "nboard 2\nset depth {depth}\nset game (;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]{moves};)\ngo\n"
    )
    .unwrap();
    stdin.flush().unwrap();
    let mut nodes = None;
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.expect("nboard output");
        if let Some(rest) = line.strip_prefix("nodestats ") {
            nodes = rest.split_whitespace().next().and_then(|n| n.parse().ok());
        }
        if line.starts_with("=== ") {
            break;
        }
    }
    drop(stdin);
    child.wait().expect("nboard exits");
    nodes.expect("a nodestats line before the move")
}

#[test]
fn nboard_levels_are_bestmove_levels() {
    // NBoard's `set depth N` is `bestmove --level N` (full width, exact from the level's
    // empties), built from the same default spec.
    let start = othello::Position::start().to_string();
    for depth in [4, 6] {
        assert_eq!(
            nboard_nodes(depth, "", &[]),
            bestmove_nodes(
                "othello",
                &start,
                &["--level", &depth.to_string(), "--book", "none"]
            ),
            "depth {depth}"
        );
    }
    let after = "---------------------------OX------XXX-------------------------- O";
    assert_eq!(
        nboard_nodes(5, "B[F5]", &[]),
        bestmove_nodes("othello", after, &["--level", "5", "--book", "none"])
    );
}

#[test]
fn nboard_plays_an_engine_spec_at_the_guis_levels() {
    // `nboard --engine SPEC` with `set depth N` searches what `bestmove --engine SPEC
    // --depth N` searches (the level's exact-solve threshold is far from these positions).
    let after = "---------------------------OX------XXX-------------------------- O";
    for (engine, depth) in [("othello-best-t100", 7), ("othello-pat-d4", 5)] {
        assert_eq!(
            nboard_nodes(depth, "B[F5]", &["--engine", engine]),
            bestmove_nodes(
                "othello",
                after,
                &["--engine", engine, "--depth", &depth.to_string()]
            ),
            "{engine} at depth {depth}"
        );
    }
    let out = Command::new(BIN)
        .args(["nboard", "othello", "--engine", "othello-mcts-t100"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the engine must be tessera's alpha-beta"),
        "{err}"
    );
}
