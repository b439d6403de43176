//! `odd-even = "mean"`: the engine reports the mean of its last two iterations' scores
//! (the odd-even effect), the same move; `last` (the default of inline specs) the last
//! iteration's. `othello-best-t100`, the front ends' default and the levels use `mean`.

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

fn tessera(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("tessera runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const POSITION: &str = "-X-O-X----OOXX---OOXXXO---OOXXX--OOOXXXX-XOOXXOO--XXOOOO--XXXXXX X";
const ENGINE: &str = "name=x,algo=alphabeta,tt-mb=16,exact-empties=0,weights=builtin:patterns2";

/// (score of each `info depth` line, final centi-disc score, best move) of `bestmove`.
fn run(extra: &str, depth: &str) -> (Vec<i64>, i64, String) {
    let engine = format!("{ENGINE}{extra}");
    let out = tessera(&[
        "bestmove",
        "othello",
        "--position",
        POSITION,
        "--engine",
        &engine,
        "--depth",
        depth,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let mut infos = Vec::new();
    let (mut score, mut best) = (None, None);
    for line in stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"info") && words.get(1) == Some(&"depth") {
            let s: f64 = words[4].parse().unwrap();
            infos.push((s * 100.0).round() as i64);
        }
        if let Some(rest) = line.strip_prefix("score") {
            let c = rest.split("centi-discs ").nth(1).unwrap();
            score = Some(c.split(')').next().unwrap().parse::<i64>().unwrap());
        }
        if let Some(rest) = line.strip_prefix("best move") {
            best = Some(rest.trim().to_string());
        }
    }
    (infos, score.expect(&stdout), best.expect(&stdout))
}

#[test]
fn mean_reports_the_mean_of_the_last_two_iterations_and_the_same_move() {
    for depth in ["9", "10"] {
        let (infos, last, mv) = run("", depth);
        let (infos_mean, mean, mv_mean) = run(",odd-even=mean", depth);
        assert_eq!(infos, infos_mean, "the iterations are the same search");
        assert_eq!(mv, mv_mean);
        let n = infos.len();
        assert_eq!(last, infos[n - 1]);
        assert_eq!(mean, (infos[n - 2] + infos[n - 1]) / 2, "{infos:?}");
        // The position's scores swing by about 2 discs between odd and even depths.
        assert_ne!(mean, last);
    }
    let (infos, last, _) = run(",odd-even=last", "9");
    assert_eq!(last, infos[infos.len() - 1]);
}

#[test]
fn odd_even_is_refused_off_othello_alphabeta_and_with_other_values() {
    for (engine, wanted) in [
        (
            "name=x,odd-even=meen",
            "odd-even must be last or mean, got 'meen'",
        ),
        (
            "name=x,algo=mcts,odd-even=mean",
            "odd-even is for othello's built-in alphabeta",
        ),
    ] {
        let out = tessera(&["bestmove", "othello", "--engine", engine, "--depth", "2"]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains(wanted), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}
