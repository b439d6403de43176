//! `tessera accuracy` and `tessera validation-set`: truth sets with every move's exact
//! score, the measurement against them, their one-line errors, and Edax's OBF files as
//! Edax writes them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tessera::engine::accuracy::{self, Overrides};
use tessera::game::Game;
use tessera::games::othello::labels::exact_move_scores;
use tessera::games::othello::obf::read_problems;
use tessera::search::{Limits, TranspositionTable};

/// Eight positions at 8-12 empties, every move scored: `tessera validation-set othello
/// --empties 8-12 --count 8 --seed 3` (its first line says so).
const SMALL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/othello/accuracy-small.obf"
);
const HARD20: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/othello/edax-hard-20.obf"
);
const HARD25: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/othello/edax-hard-25.obf"
);

fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("the tessera binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh path in the temp folder.
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tessera-acc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn write(name: &str, body: &str) -> PathBuf {
    let p = temp(name);
    std::fs::write(&p, body).unwrap();
    p
}

/// Exit code 2 and exactly one `error: ...` line on stderr containing every `parts`.
fn refused(out: &Output, parts: &[&str]) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for p in parts {
        assert!(err.contains(p), "'{p}' not in: {err}");
    }
}

#[test]
fn small_set_labels_are_the_solvers() {
    let problems = read_problems(Path::new(SMALL)).unwrap();
    assert_eq!(problems.len(), 8);
    let tt = TranspositionTable::new(4);
    for (line, p) in &problems {
        let truth = exact_move_scores(&p.position, &tt, &Limits::default(), 1).unwrap();
        let mut want = truth.scores.clone();
        let mut got = p.scores.clone();
        want.sort_by_key(|&(m, _)| m.to_string());
        got.sort_by_key(|&(m, _)| m.to_string());
        assert_eq!(got, want, "line {line}");
    }
}

#[test]
fn edax_sets_read_whole_with_every_move_scored() {
    for (path, n, empties) in [(HARD20, 276, 20), (HARD25, 311, 25)] {
        let truth = accuracy::read_othello_truth(Path::new(path)).unwrap();
        assert_eq!(truth.len(), n, "{path}");
        assert!(truth.iter().all(|t| t.position.empties() == empties));
    }
}

#[test]
fn an_exact_engine_is_perfect_and_a_shallow_one_is_scored_by_the_truth() {
    // Depth 20 covers every position's empties: the engine solves exactly.
    let exact = accuracy::resolve_spec(
        "name=exact,exact-empties=20,tt-mb=4",
        "othello",
        Overrides {
            depth: Some(20),
            ..Overrides::default()
        },
    )
    .unwrap();
    let r = accuracy::measure_othello_file(Path::new(SMALL), &exact, None, |_| {}).unwrap();
    let s = r.overall.summary();
    assert_eq!(s.positions, 8);
    assert_eq!((s.best_move_pct, s.mean_loss, s.mae), (100.0, 0.0, 0.0));
    assert!(r.answers.iter().all(|a| a.exact));
    // A depth-1 search without solving: each answer's loss is the truth's, checked here
    // against the solver directly.
    let shallow = accuracy::resolve_spec(
        "name=shallow,exact-empties=0,tt-mb=1",
        "othello",
        Overrides {
            depth: Some(1),
            ..Overrides::default()
        },
    )
    .unwrap();
    let r = accuracy::measure_othello_file(Path::new(SMALL), &shallow, Some(5), |_| {}).unwrap();
    assert_eq!(r.answers.len(), 5);
    let problems = read_problems(Path::new(SMALL)).unwrap();
    let tt = TranspositionTable::new(4);
    for (a, (_, p)) in r.answers.iter().zip(&problems) {
        let mv = p.position.parse_move(&a.chosen).unwrap();
        let child = p.position.play(mv);
        let sol =
            tessera::games::othello::endgame::Solver::new(&tt, &Limits::default()).solve(&child);
        assert_eq!(a.chosen_score, -sol.score.unwrap(), "line {}", a.line);
        assert!(!a.exact && a.depth == 1);
    }
}

#[test]
fn accuracy_command_prints_the_table_and_json() {
    let out = tessera(&[
        "accuracy",
        "othello",
        SMALL,
        "--engine",
        "name=exact,exact-empties=20,tt-mb=4",
        "--depth",
        "20",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let all = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("all"))
        .unwrap();
    assert!(all.contains("100.0 %") && all.contains("0.00"), "{all}");
    let out = tessera(&[
        "accuracy", "othello", HARD20, "--depth", "2", "--limit", "3", "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["engine"], "othello-best-t100");
    assert_eq!(v["depth"], 2);
    assert_eq!(v["time_ms"], Value::Null);
    assert_eq!(v["overall"]["positions"], 3);
    assert_eq!(v["by_empties"]["20"]["positions"], 3);
    assert_eq!(v["positions"].as_array().unwrap().len(), 3);
}

#[test]
fn unusable_truth_sets_get_one_line_errors() {
    let small = std::fs::read_to_string(SMALL).unwrap();
    let lines: Vec<&str> = small.lines().collect();
    // A move without its score (line 3 of the file: the header comment is line 1).
    let cut = lines[2].replace(" F8:-2;", "");
    let f = write("cut.obf", &format!("{}\n{}\n{cut}\n", lines[0], lines[1]));
    let out = tessera(&["accuracy", "othello", f.to_str().unwrap(), "--depth", "1"]);
    refused(&out, &[f.to_str().unwrap(), "line 3", "no score for f8"]);
    // A malformed line.
    let f = write(
        "bad.obf",
        &format!("{}\n{}; A9:+2;\n", lines[1], &lines[2][..66]),
    );
    let out = tessera(&["accuracy", "othello", f.to_str().unwrap(), "--depth", "1"]);
    refused(&out, &["line 2", "A9"]);
    // No file, an empty one, one with comments only.
    let missing = temp("missing.obf");
    let out = tessera(&["accuracy", "othello", missing.to_str().unwrap()]);
    refused(&out, &[missing.to_str().unwrap()]);
    for (name, body) in [("empty.obf", ""), ("comments.obf", "% nothing\n\n")] {
        let f = write(name, body);
        let out = tessera(&["accuracy", "othello", f.to_str().unwrap()]);
        refused(&out, &[f.to_str().unwrap(), "holds no position"]);
    }
    // Another game (Talat has no truth set; Quixo's is a tier table, not an OBF file), an
    // unknown engine.
    refused(
        &tessera(&["accuracy", "talat", SMALL]),
        &["othello", "quixo", "only"],
    );
    refused(
        &tessera(&["accuracy", "quixo", SMALL]),
        &[SMALL, "not a tessera Quixo tier file (bad magic)"],
    );
    refused(
        &tessera(&["accuracy", "othello", SMALL, "--engine", "no-such-engine"]),
        &["unknown engine 'no-such-engine'"],
    );
}

#[test]
fn solve_reads_edax_files_as_edax_writes_them() {
    // The first three positions of Edax's hard-20 set, each line ending with '--:-127'.
    let hard20 = std::fs::read_to_string(HARD20).unwrap();
    let head: Vec<&str> = hard20.lines().take(3).collect();
    assert!(head.iter().all(|l| l.ends_with("--:-127;")));
    let f = write("hard20-head.obf", &(head.join("\n") + "\n"));
    let out = tessera(&["solve", "othello", "--obf", f.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["totals"]["matched"], 3, "{v}");
}

#[test]
fn validation_set_resumes_shards_and_refuses_another_runs_file() {
    let args = |out: &Path, shard: Option<&str>| {
        let mut a: Vec<String> = [
            "validation-set",
            "othello",
            "--empties",
            "8-10",
            "--count",
            "6",
            "--seed",
            "5",
            "--tt-mb",
            "4",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(out.to_str().unwrap().to_string());
        if let Some(s) = shard {
            a.extend(["--shard".to_string(), s.to_string()]);
        }
        a
    };
    let run = |a: &[String]| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = tessera(&a);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let whole = temp("whole.obf");
    run(&args(&whole, None));
    let full = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(full.lines().count(), 7, "{full}");
    assert_eq!(
        full.lines().next().unwrap(),
        "% tessera validation-set othello --empties 8-10 --count 6 --seed 5"
    );
    // A second run has nothing left to do.
    let again = run(&args(&whole, None));
    assert!(again.contains("(6 before this run, 0 now)"), "{again}");
    // A run killed while writing: the unfinished last line is dropped and solved again.
    let cut = &full[..full.len() - 20];
    std::fs::write(&whole, cut).unwrap();
    let redo = run(&args(&whole, None));
    assert!(redo.contains("(5 before this run, 1 now)"), "{redo}");
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), full);
    // Two shards hold the same lines between them.
    let (s1, s2) = (temp("s1.obf"), temp("s2.obf"));
    run(&args(&s1, Some("1/2")));
    run(&args(&s2, Some("2/2")));
    let mut union: Vec<String> = [&s1, &s2]
        .iter()
        .flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .skip(1)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut lines: Vec<String> = full.lines().skip(1).map(str::to_string).collect();
    union.sort();
    lines.sort();
    assert_eq!(union, lines);
    // Another run's file is refused, naming both first lines.
    let a: Vec<String> = args(&s1, None);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    refused(&tessera(&a), &["written by another run", "--shard 1/2"]);
    refused(
        &tessera(&[
            "validation-set",
            "othello",
            "--empties",
            "24-20",
            "--count",
            "3",
            "--out",
            whole.to_str().unwrap(),
        ]),
        &["LO <= HI"],
    );
}

/// `validation-set --out` and `openings --out` create a missing folder, as `selfplay`,
/// `tune` and `tournament` do with theirs (docs/tuning.md); a folder that cannot be made
/// (a file in the way) is refused in one line before any work.
#[test]
fn out_files_in_missing_folders_are_created_as_selfplay_does() {
    let root = temp("missing-out-folder");
    let _ = std::fs::remove_dir_all(&root);
    let obf = root.join("a/b/v.obf");
    let out = tessera(&[
        "validation-set",
        "othello",
        "--empties",
        "8-8",
        "--count",
        "1",
        "--seed",
        "1",
        "--tt-mb",
        "4",
        "--out",
        obf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&obf).unwrap().lines().count(), 2);
    let suite = root.join("c/d/o.txt");
    let out = tessera(&[
        "openings",
        "othello",
        "--plies",
        "2",
        "--count",
        "1",
        "--depth",
        "1",
        "--out",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(suite.is_file());
    // A file where a folder should be.
    let blocker = root.join("file");
    std::fs::write(&blocker, "").unwrap();
    let under = blocker.join("v.obf");
    let under = under.to_str().unwrap();
    let out = tessera(&[
        "validation-set",
        "othello",
        "--empties",
        "8-8",
        "--count",
        "1",
        "--out",
        under,
    ]);
    refused(&out, &["cannot create", "file"]);
    let out = tessera(&[
        "openings", "othello", "--plies", "2", "--count", "1", "--out", under,
    ]);
    refused(&out, &["cannot create", "file"]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// The shipped subset of the validation set (`tests/data/othello/validation-20-22.obf`, its
/// first lines name the command): a few of its labels against the solver, the best and the
/// worst move of two positions at 20 empties.
#[test]
fn shipped_validation_labels_are_the_solvers() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/othello/validation-20-22.obf"
    ));
    let truth = accuracy::read_othello_truth(path).unwrap();
    assert!(truth.len() >= 10);
    assert!(
        truth
            .iter()
            .all(|t| (20..=22).contains(&t.position.empties()))
    );
    let tt = TranspositionTable::new(16);
    let mut checked = 0;
    for t in truth.iter().filter(|t| t.position.empties() == 20).take(2) {
        let best = t.scores.iter().max_by_key(|&&(_, s)| s).unwrap();
        let worst = t.scores.iter().min_by_key(|&&(_, s)| s).unwrap();
        for &(mv, score) in [best, worst] {
            let child = t.position.play(mv);
            let sol = tessera::games::othello::endgame::Solver::new(&tt, &Limits::default())
                .solve(&child);
            assert_eq!(-sol.score.unwrap(), score, "line {} {mv}", t.line);
            checked += 1;
        }
    }
    assert_eq!(checked, 4);
}
