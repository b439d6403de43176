//! Levels everywhere: `level = N` in engine presets and inline specs (tournament, selfplay,
//! gtp, fairness), the `othello-level-N` preset family and `gtp --level`, with the meaning
//! of `bestmove --level N`: midgame depth N and, in Othello, exact solving from
//! `min(2N, 24)` empties with no depth limit there (Edax's `-l N`).

use std::path::PathBuf;
use std::process::{Command, Output};

use tessera::engine::EngineSpec;
use tessera::engine::spec::ExactEmpties::Upto;
use tessera::games::othello::Position;

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

/// FFO #40 (tests/data/othello/ffo-40-59.txt): Black to move, 20 empties, exact +38 by a2.
const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tessera runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-levels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Exit code 2 and one `error:` line naming each needle.
fn input_error(args: &[&str], needles: &[&str]) {
    let out = tessera(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "tessera {args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    for n in needles {
        assert!(stderr.contains(n), "tessera {args:?}: no '{n}' in {stderr}");
    }
}

#[test]
fn a_level_sets_the_depth_and_the_exact_solve() {
    let s = EngineSpec::from_inline("name=l5,level=5", "othello").unwrap();
    assert_eq!(
        (s.level, s.depth, s.exact_empties),
        (Some(5), Some(5), Some(Upto(10)))
    );
    assert_eq!(s.limits().depth, Some(5));
    // Level 12 and above solve from 24 empties, the cap.
    let s = EngineSpec::from_inline("name=l30,level=30", "othello").unwrap();
    assert_eq!((s.depth, s.exact_empties), (Some(30), Some(Upto(24))));
    // Games without an exact solver take the depth only.
    let s = EngineSpec::from_inline("name=q,level=3", "quixo").unwrap();
    assert_eq!((s.depth, s.exact_empties), (Some(3), None));
    let s = EngineSpec::from_inline("name=t,level=2", "talat").unwrap();
    assert_eq!((s.algo.name(), s.depth), ("brs-plus", Some(2)));
    // A preset file takes the same field, and the spec round-trips through tournament.json.
    let s =
        EngineSpec::from_toml("name = \"p\"\ngame = \"othello\"\nlevel = 8\n", "p.toml").unwrap();
    assert_eq!((s.depth, s.exact_empties), (Some(8), Some(Upto(16))));
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<EngineSpec>(&json).unwrap(), s);
    // Specs without a level serialise as before (old tournament folders still resume).
    let old = EngineSpec::resolve("othello-ab-d2").unwrap();
    assert!(!serde_json::to_string(&old).unwrap().contains("level"));
}

#[test]
fn bad_levels_are_refused_naming_the_field() {
    for (spec, needle) in [
        ("name=x,level=0", "level must be in 1..=60, got 0"),
        ("name=x,level=61", "level must be in 1..=60, got 61"),
        ("name=x,level=ten", "level must be a whole number"),
        // Was serde's "invalid value: integer `-1`, expected u32".
        ("name=x,level=-1", "level cannot be negative, got -1"),
        ("name=x,threads=-2", "threads cannot be negative, got -2"),
        // Zero budgets, refused as bestmove refuses --time-ms 0 (they were accepted).
        ("name=x,time-ms=0", "time-ms must be at least 1, got 0"),
        ("name=x,nodes=0", "nodes must be at least 1, got 0"),
        ("name=x,algo=mcts,time-ms=0", "time-ms must be at least 1"),
        ("name=x,level=5,depth=6", "give level or depth"),
        (
            "name=x,level=5,exact-empties=12",
            "give level or exact-empties",
        ),
        ("name=x,algo=mcts,level=3", "level is for the built-in"),
        (
            "name=x,level=3,protocol=gtp,command=/bin/true",
            "level is for the built-in",
        ),
    ] {
        let e = EngineSpec::from_inline(spec, "othello").unwrap_err();
        assert!(e.contains(needle), "{spec}: {e}");
    }
    let e = EngineSpec::from_inline("name=x,level=3,exact-empties=6", "quixo").unwrap_err();
    assert!(e.contains("give level or exact-empties"), "{e}");
    let e = EngineSpec::from_toml("name = \"p\"\ngame = \"othello\"\nlevel = 0\n", "p.toml")
        .unwrap_err();
    assert!(e.starts_with("engine preset p.toml: level must be"), "{e}");
    let e = EngineSpec::from_toml("name = \"p\"\ngame = \"othello\"\ntime-ms = 0\n", "p.toml")
        .unwrap_err();
    assert!(e.contains("time-ms must be at least 1"), "{e}");
    // The level family takes only the canonical spelling (the same engine under two names
    // would pass the check that each name is used once).
    for name in ["othello-level-03", "othello-level-+3", "othello-level-3 "] {
        let e = EngineSpec::resolve(name).unwrap_err();
        assert!(
            e.contains("the level presets are othello-level-1"),
            "{name}: {e}"
        );
    }
    assert!(EngineSpec::resolve("othello-level-3").is_ok());
    // A preset file's bad field is named (serde names only the expected type), a negative
    // integer is said as inline, and a syntax error gives its line.
    let toml = |body: &str| {
        EngineSpec::from_toml(
            &format!("name = \"p\"\ngame = \"othello\"\n{body}"),
            "p.toml",
        )
        .unwrap_err()
    };
    let e = toml("depth = \"two\"\n");
    assert!(
        e.starts_with("engine preset p.toml: depth: invalid type"),
        "{e}"
    );
    assert!(e.ends_with("expected a whole number"), "{e}");
    let e = toml("mpc-t = \"x\"\n");
    assert!(
        e.starts_with("engine preset p.toml: mpc-t: invalid type"),
        "{e}"
    );
    let e = toml("depth = 3\ndepth = 4\n");
    assert!(e.contains("line 4: duplicate key `depth`"), "{e}");
    let e = toml("weights = 5\n");
    assert!(
        e.starts_with("engine preset p.toml: weights: invalid type"),
        "{e}"
    );
    let e = toml("depth = -3\n");
    assert_eq!(e, "engine preset p.toml: depth cannot be negative, got -3");
    // An unknown field: the field and the valid fields once (serde's own list, with the
    // underscore spellings, was printed before ours).
    let e = toml("speed = 3\n");
    assert!(
        e.starts_with("engine preset p.toml: unknown field `speed` (valid fields: name,"),
        "{e}"
    );
    assert!(!e.contains("expected one of"), "{e}");
    let e = toml("tt-mb 4\n");
    assert!(e.starts_with("engine preset p.toml line 3: "), "{e}");
}

#[test]
fn the_level_preset_family() {
    let s = EngineSpec::resolve("othello-level-10").unwrap();
    assert_eq!(
        (s.name.as_str(), s.level, s.depth, s.exact_empties, s.tt_mb),
        ("othello-level-10", Some(10), Some(10), Some(Upto(20)), 64)
    );
    for bad in ["othello-level-0", "othello-level-61", "othello-level-x"] {
        let e = EngineSpec::resolve(bad).unwrap_err();
        assert!(
            e.contains("othello-level-1 .. othello-level-60"),
            "{bad}: {e}"
        );
    }
    let e = EngineSpec::resolve("no-such-engine").unwrap_err();
    assert!(e.contains("othello-level-1 .. othello-level-60"), "{e}");
}

#[test]
fn a_level_engine_solves_from_twice_its_depth() {
    let pos: Position = FFO_40.parse().unwrap();
    // Level 10 solves 20 empties: exact +38 (FFO), whatever the depth limit of 10.
    let spec = EngineSpec::resolve("othello-level-10").unwrap();
    let mut p = tessera::engine::othello::make_player(&spec).unwrap();
    let t = p.choose(&pos, &spec.limits()).unwrap();
    assert!(t.exact, "level 10 at 20 empties is an exact solve");
    assert_eq!(t.score, 3800);
    // Level 9 solves from 18 empties only: a depth-9 search, not exact.
    let spec = EngineSpec::from_inline("name=l9,level=9,tt-mb=16", "othello").unwrap();
    let mut p = tessera::engine::othello::make_player(&spec).unwrap();
    let t = p.choose(&pos, &spec.limits()).unwrap();
    assert!(!t.exact);
    assert_eq!(t.depth, 9);
}

#[test]
fn gtp_takes_a_level() {
    let out = crate::common::tessera_with_input(
        &["gtp", "othello", "--level", "2"],
        "name\ngenmove black\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let answers: Vec<&str> = stdout.split("\n\n").collect();
    // The first move of the game, one of Black's four.
    let mv = answers[1].trim().trim_start_matches("= ").to_lowercase();
    assert!(["d3", "c4", "f5", "e6"].contains(&mv.as_str()), "{stdout}");
    input_error(
        &["gtp", "othello", "--level", "2", "--depth", "3"],
        &["--depth"],
    );
    input_error(&["gtp", "othello", "--level", "61"], &["--level"]);
    input_error(
        &[
            "gtp",
            "othello",
            "--level",
            "2",
            "--engine",
            "othello-mcts-i2000",
        ],
        &["othello-mcts-i2000", "level is for the built-in"],
    );
}

#[test]
fn tournaments_and_fairness_take_levels() {
    let out = tmp("tournament");
    let o = out.to_str().unwrap();
    let run = tessera(&[
        "tournament",
        "othello",
        "--engines",
        "othello-level-1",
        "--engine",
        "name=l2,level=2",
        "--rounds",
        "1",
        "--random-plies",
        "4",
        "--no-progress",
        "--json",
        "--out",
        o,
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let settings = std::fs::read_to_string(out.join("tournament.json")).unwrap();
    assert!(
        settings.contains("\"level\":2") || settings.contains("\"level\": 2"),
        "{settings}"
    );
    let games = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(games.lines().count(), 2, "one colour-swapped pair");
    let _ = std::fs::remove_dir_all(&out);
    input_error(
        &[
            "tournament",
            "othello",
            "--engines",
            "othello-level-1",
            "--engine",
            "name=x,level=99",
            "--out",
            o,
        ],
        &["level must be in 1..=60, got 99"],
    );
    input_error(
        &[
            "tournament",
            "othello",
            "--engines",
            "othello-level-1,othello-level-99",
            "--out",
            o,
        ],
        &["othello-level-99"],
    );
    input_error(
        &["fairness", "othello", "--levels", "2,1", "--out", o],
        &["--levels 2,1", "must increase"],
    );
    input_error(
        &[
            "fairness", "othello", "--levels", "1", "--algo", "mcts", "--out", o,
        ],
        &["--times-ms"],
    );
    let fair = tmp("fairness");
    let run = tessera(&[
        "fairness",
        "othello",
        "--levels",
        "1,2",
        "--rounds",
        "1",
        "--no-progress",
        "--json",
        "--out",
        fair.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let levels: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["level 1", "level 2", "level 1", "level 2"]);
    let _ = std::fs::remove_dir_all(&fair);
    // Self-play data from a level engine.
    let data = tmp("selfplay.txt");
    let run = tessera(&[
        "selfplay",
        "othello",
        "--engine",
        "name=sp,level=2",
        "--games",
        "2",
        "--no-progress",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(
        lines.lines().filter(|l| !l.starts_with('#')).count() > 10,
        "{lines}"
    );
    let _ = std::fs::remove_file(&data);
    assert!(!out.exists(), "refused runs write nothing");
}

/// A level engine with no weights named plays the default evaluation, as `bestmove --level
/// N` does: the preset, an inline `level = N` and the command line search the same tree
/// (same move, score and node count). Level presets played the baseline evaluation before.
#[test]
fn a_level_engine_evaluates_as_bestmove_does() {
    use tessera::games::othello::eval::DEFAULT_WEIGHTS;
    let position = "---X------XX-O----OXOO--XOXOOO--XX-OO---X--OOO------O----------- O";
    let pos: Position = position.parse().unwrap();
    let out = tessera(&[
        "bestmove",
        "othello",
        "--level",
        "6",
        "--position",
        position,
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for spec in [
        EngineSpec::resolve("othello-level-6").unwrap(),
        EngineSpec::from_inline("name=l6,level=6", "othello").unwrap(),
    ] {
        assert_eq!(
            spec.weights.as_deref(),
            Some(std::path::Path::new(DEFAULT_WEIGHTS))
        );
        let mut p = tessera::engine::othello::make_player(&spec).unwrap();
        let t = p.choose(&pos, &spec.limits()).unwrap();
        assert_eq!(t.nodes, cli["nodes"].as_u64().unwrap(), "{}", spec.name);
        assert_eq!(
            i64::from(t.score),
            cli["score"].as_i64().unwrap(),
            "{}",
            spec.name
        );
        let mv = t.best_move.map(|m| m.to_string());
        assert_eq!(mv.as_deref(), cli["move"].as_str(), "{}", spec.name);
    }
    // Named weights stay as they are.
    let s = EngineSpec::from_inline("name=b,level=6,weights=builtin:baseline", "othello").unwrap();
    assert_eq!(
        s.weights.as_deref(),
        Some(std::path::Path::new("builtin:baseline"))
    );
}
