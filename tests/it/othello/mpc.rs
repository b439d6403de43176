//! Multi-ProbCut in the Othello midgame search: off, the search is unchanged (node counts
//! recorded before MPC existed); on, it searches fewer nodes at the same depth with scores
//! close to the full search's.

use tessera::games::othello::probcut::{DEFAULT_T, FittedWith, MpcParams};
use tessera::games::othello::{Position, eval::Eval, patterns};
use tessera::search::{Limits, TranspositionTable, search};

/// Midgame positions with 39, 38 and 29 empties, from `tessera selfplay othello` games.
const LINES: [&str; 3] = [
    "---X-------X-O--OOOX-OOO---OOOO----OXXX----X-O----XX-XO----X---- O",
    "-----------O-OX---XXOXX---XOXO-X--OOOOX----OOXX----OXX------X--- X",
    "----OX---OXXXO---XXXOOX-XXOOOOO-XOOXXOO-OOOOOO----XO------------ O",
];

fn position(line: &str) -> Position {
    line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn nodes_and_score(pos: &Position, eval: &Eval, depth: u32) -> (u64, i32) {
    let tt = TranspositionTable::new(16);
    let r = search(pos, eval, &tt, &Limits::depth(depth), |_| {});
    (r.nodes, r.score)
}

/// The search without MPC visits exactly the nodes it visited before MPC was added
/// (baseline evaluation, 16 MiB table, depth 9; counts taken at 734200f).
#[test]
fn mpc_off_leaves_the_search_unchanged() {
    let got: Vec<(u64, i32)> = LINES
        .iter()
        .map(|l| nodes_and_score(&position(l), &Eval::default(), 9))
        .collect();
    assert_eq!(got, vec![(159_305, -120), (212_124, -183), (183_976, -128)]);
}

/// With the shipped MPC parameters (t = 1.5) and the pattern evaluation, depth-10 searches
/// of the midgame positions visit fewer nodes in total, and each score stays within 4 discs
/// of the full-width search's.
#[test]
fn mpc_on_cuts_nodes_and_keeps_scores_close() {
    let full = Eval::with_patterns(patterns::shipped());
    let mpc = full.clone().with_mpc(Some(
        MpcParams::load("builtin", DEFAULT_T, FittedWith::Other).unwrap(),
    ));
    let (mut off_nodes, mut on_nodes) = (0, 0);
    for l in LINES {
        let pos = position(l);
        let (n_off, s_off) = nodes_and_score(&pos, &full, 10);
        let (n_on, s_on) = nodes_and_score(&pos, &mpc, 10);
        eprintln!("{l}: off {n_off} nodes score {s_off}, on {n_on} nodes score {s_on}");
        assert!((s_on - s_off).abs() <= 400, "{l}: {s_on} vs {s_off}");
        off_nodes += n_off;
        on_nodes += n_on;
    }
    let ratio = on_nodes as f64 / off_nodes as f64;
    eprintln!("depth 10: {on_nodes} / {off_nodes} nodes = {ratio:.3}");
    assert!(ratio < 0.6, "MPC kept {ratio:.3} of the nodes");
}

/// A parameter file that does not fit is refused, naming the file and the line, when an
/// engine is built from a spec naming it; MPC is refused below level 11.
#[test]
fn bad_mpc_specs_and_files_are_refused() {
    use tessera::engine::EngineSpec;
    let dir = std::env::temp_dir().join(format!("tessera-mpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad-mpc.txt");
    std::fs::write(
        &bad,
        "tessera-othello-mpc 1\n# h\n8 4 21 28 0.9 1.0 oops 100\n",
    )
    .unwrap();
    let spec =
        EngineSpec::from_inline(&format!("name=m,mpc={}", bad.display()), "othello").unwrap();
    let e = tessera::engine::othello::make_player(&spec).err().unwrap();
    assert!(
        e.contains("bad-mpc.txt line 3") && e.contains("sigma 'oops'") && !e.contains('\n'),
        "{e}"
    );
    let e = EngineSpec::from_inline("name=m,level=8,mpc=builtin", "othello").unwrap_err();
    assert!(e.contains("levels below 11"), "{e}");
    assert!(EngineSpec::from_inline("name=m,level=11,mpc=builtin", "othello").is_ok());
    let e = EngineSpec::from_inline("name=m,mpc-t=1.5", "othello").unwrap_err();
    assert!(e.contains("mpc-t"), "{e}");
    let e = EngineSpec::from_inline("name=m,mpc=builtin,mpc-t=0", "othello").unwrap_err();
    assert!(e.contains("mpc-t must be"), "{e}");
    let e = EngineSpec::from_inline("name=m,mpc=builtin", "quixo").unwrap_err();
    assert!(e.contains("mpc and mpc-t are for othello"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The command line refuses a parameter file that does not fit with one line naming the
/// file and line, exit code 2; `--mpc` below level 11 likewise.
#[test]
fn bad_mpc_file_on_the_command_line_exits_2() {
    let dir = std::env::temp_dir().join(format!("tessera-mpc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("mpc.txt");
    std::fs::write(&bad, "tessera-othello-mpc 1\n8 4 21 28 0.9\n").unwrap();
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["bestmove", "othello"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--depth", "2", "--mpc", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("mpc.txt line 2: 5 fields"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let (code, err) = run(&["--depth", "2", "--mpc", "/nonexistent/mpc.txt"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("/nonexistent/mpc.txt"), "{err}");
    let (code, err) = run(&["--level", "5", "--mpc", "builtin"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("levels below 11"), "{err}");
    // An empty --mpc is named as such (was "cannot read MPC parameter file : ...").
    let (code, err) = run(&["--depth", "2", "--mpc", ""]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("'--mpc <builtin|FILE|off>': empty"), "{err}");
    // --mpc-t with MPC off is refused, as mpc-t without mpc is in an engine spec.
    let (code, err) = run(&["--depth", "2", "--mpc", "off", "--mpc-t", "1.0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--mpc-t sets the confidence of MPC"), "{err}");
    // One range in every message: (0, 10], whether the value is 0, negative or too large.
    for t in ["0", "-1", "11", "inf"] {
        let (code, err) = run(&["--depth", "2", "--mpc", "builtin", "--mpc-t", t]);
        assert_eq!(code, Some(2), "--mpc-t {t}: {err}");
        assert!(
            err.contains("is not a number in (0, 10]"),
            "--mpc-t {t}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped parameter files load, equal the built-in tables, say how they were made (the
/// fit command with the evaluation it used and the self-play command of their data), and
/// `mpc = "builtin"` picks the one fitted with the engine's evaluation.
#[test]
fn shipped_mpc_files_load_and_say_how_they_were_made() {
    use tessera::games::othello::probcut::{MpcTable, shipped_for};
    for (file, fit, weights, deepest) in [
        (
            "tuning/othello-mpc.txt",
            FittedWith::Other,
            "builtin:patterns",
            10,
        ),
        (
            "tuning/othello-mpc2.txt",
            FittedWith::Patterns2,
            "builtin:patterns2",
            11,
        ),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let table = MpcTable::load(&path).unwrap();
        assert_eq!(table, *shipped_for(fit), "{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("tune othello --method mpc"), "{file}: {text}");
        assert!(text.contains(&format!("with {weights},")), "{file}: {text}");
        assert!(text.contains("selfplay othello"), "{file}: {text}");
        for d in 3..=deepest {
            assert!(
                table.entry(d, 30).is_some(),
                "{file}: no line for depth {d} at 30 empties"
            );
        }
    }
    // The default evaluation gets the table fitted with it; format 1 keeps its own.
    let default = Eval::default_patterns();
    assert_eq!(default.mpc_fit(), FittedWith::Patterns2);
    assert_eq!(
        Eval::with_patterns(patterns::shipped()).mpc_fit(),
        FittedWith::Other
    );
    let p = MpcParams::load("builtin", DEFAULT_T, default.mpc_fit()).unwrap();
    assert_eq!(*p.table, *shipped_for(FittedWith::Patterns2));
}

/// `tune othello --method mpc` searches with the evaluation the engines use by default
/// (`eval::DEFAULT_WEIGHTS`), so the fitted regressions match the engines that use them.
#[test]
fn the_mpc_fit_defaults_to_the_engines_evaluation() {
    use tessera::games::othello::eval::DEFAULT_WEIGHTS;
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tune", "--help"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    let at = help.find("--weights <FILE>").expect("a --weights option");
    let end = help[at + 2..]
        .find("\n      -")
        .map_or(help.len(), |i| at + 2 + i);
    let weights = &help[at..end];
    assert!(
        weights.contains(&format!("[default: {DEFAULT_WEIGHTS}]")),
        "{weights}"
    );
    assert!(
        help.contains(&format!("(default {DEFAULT_WEIGHTS},")),
        "{help}"
    );
}
