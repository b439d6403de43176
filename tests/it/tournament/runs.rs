//! End-to-end tournament tests through the `tessera` binary: resume after a kill, shards and
//! merge, determinism across concurrency, SPRT stop, ranking of stronger presets, bad input.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// id -> (engines, moves) of every record in DIR/games.jsonl; panics on duplicate ids and
/// on any line that is not a record.
fn records(dir: &Path) -> HashMap<u64, (Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    parse_records(&text)
}

/// As [`records`] for a file whose writer was killed: a last line without its newline is
/// a record the kill cut short (the kernel may stop a write between pages on SIGKILL) and
/// is left out, as `tessera tournament` drops it on resume; every complete line must parse.
fn records_after_kill(dir: &Path) -> HashMap<u64, (Vec<String>, Vec<String>)> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let complete = text.rfind('\n').map_or("", |end| &text[..=end]);
    parse_records(complete)
}

fn parse_records(text: &str) -> HashMap<u64, (Vec<String>, Vec<String>)> {
    let mut out = HashMap::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let id = v["id"].as_u64().unwrap();
        let engines = v["engines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect();
        let moves = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .collect();
        assert!(
            out.insert(id, (engines, moves)).is_none(),
            "game {id} recorded twice"
        );
    }
    out
}

fn tournament(args: &[&str], out: &Path) -> std::process::Output {
    bin()
        .args(["tournament", "othello", "--no-progress", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

const BASE: &[&str] = &[
    "--engines",
    "othello-ab-d1,othello-ab-d2,othello-ab-d3",
    "--rounds",
    "8",
    "--seed",
    "7",
];

#[test]
fn interrupted_tournament_resumes_without_loss_or_duplicates() {
    // Reference: the same tournament uninterrupted, at another concurrency.
    let full = tmp("full");
    let o = tournament(&[BASE, &["--concurrency", "2"]].concat(), &full);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reference = records(&full);
    assert_eq!(
        reference.len(),
        3 * 2 * 8,
        "3 pairings x 2 colours x 8 rounds"
    );

    // Slow it down so the kill lands mid-run: a deeper engine pair, concurrency 1.
    let dir = tmp("resume");
    let mut child = bin()
        .args([
            "tournament",
            "othello",
            "--no-progress",
            "--concurrency",
            "1",
            "--out",
        ])
        .arg(&dir)
        .args(BASE)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = dir.join("games.jsonl");
    let t = Instant::now();
    loop {
        let n = std::fs::read_to_string(&games)
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if n >= 5 || t.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let before = records_after_kill(&dir).len();
    assert!(before >= 5, "the run was killed before 5 games ({before})");
    assert!(
        before < reference.len(),
        "the kill came after the run finished: nothing to resume"
    );

    // Simulate a record torn by the kill: it must be dropped and its game replayed.
    let mut text = std::fs::read_to_string(&games).unwrap();
    text.push_str("{\"id\": 99, \"truncated");
    std::fs::write(&games, text).unwrap();

    let o = tournament(&[BASE, &["--concurrency", "2", "--json"]].concat(), &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let after = records(&dir);
    assert_eq!(after.len(), reference.len(), "every game once");
    assert_eq!(v["resumed"].as_u64().unwrap() as usize, before);
    assert_eq!(
        v["played"].as_u64().unwrap() as usize + before,
        reference.len()
    );
    assert_eq!(
        after, reference,
        "resumed games equal the uninterrupted ones"
    );
    assert_eq!(v["games"].as_u64().unwrap() as usize, reference.len());

    // A resumed run with different settings is refused.
    let o = tournament(
        &["--engines", "othello-ab-d1,othello-ab-d2", "--rounds", "8"],
        &dir,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("different tournament"));
}

#[test]
fn shards_merge_into_the_full_tournament() {
    let full = tmp("shard-full");
    assert!(tournament(BASE, &full).status.success());
    let mut dirs = Vec::new();
    for i in 1..=3 {
        let d = tmp(&format!("shard-{i}"));
        let o = tournament(&[BASE, &["--shard", &format!("{i}/3")]].concat(), &d);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dirs.push(d);
    }
    let ids: Vec<HashSet<u64>> = dirs
        .iter()
        .map(|d| records(d).keys().copied().collect())
        .collect();
    assert!(
        ids[0].is_disjoint(&ids[1]) && ids[1].is_disjoint(&ids[2]) && ids[0].is_disjoint(&ids[2])
    );
    let merged = tmp("merged");
    let o = bin()
        .args(["tournament", "merge"])
        .args(&dirs)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(records(&merged), records(&full));
    // The report of the merged directory equals the full run's but for the measured times
    // per move (each engine's move count stays).
    let a = bin()
        .args(["tournament", "report", "--json"])
        .arg(&merged)
        .output()
        .unwrap();
    let b = bin()
        .args(["tournament", "report", "--json"])
        .arg(&full)
        .output()
        .unwrap();
    assert!(a.status.success());
    let json = |o: &std::process::Output| {
        crate::common::without_times_json(serde_json::from_slice(&o.stdout).unwrap())
    };
    assert_eq!(json(&a), json(&b));
}

#[test]
fn stronger_presets_rank_higher_with_error_bars_excluding_zero() {
    let dir = tmp("strength");
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1,othello-ab-d2,othello-ab-d4",
            "--rounds",
            "12",
            "--json",
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ratings = v["ratings"].as_array().unwrap();
    let names: Vec<&str> = ratings
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["othello-ab-d4", "othello-ab-d2", "othello-ab-d1"],
        "{v}"
    );
    // Pool mean 0: the best is above it and the worst below it, with intervals excluding 0.
    assert!(ratings[0]["lower"].as_f64().unwrap() > 0.0, "{v}");
    assert!(ratings[2]["upper"].as_f64().unwrap() < 0.0, "{v}");
    // d1 vs d4 head to head: d4 clearly better.
    let p = v["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["a"] == "othello-ab-d1" && p["b"] == "othello-ab-d4")
        .unwrap();
    assert_eq!(p["games"], 24);
    assert!(p["los"].as_f64().unwrap() < 0.01, "{p}");
    assert!(
        std::fs::read_to_string(dir.join("report.json"))
            .unwrap()
            .contains("othello-ab-d4")
    );
}

#[test]
fn sprt_stops_early_on_a_clear_difference() {
    let dir = tmp("sprt");
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d4,othello-ab-d1",
            "--rounds",
            "200",
            "--sprt",
            "elo0=0,elo1=20",
            "--json",
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["sprt"]["decision"], "H1 accepted", "{v}");
    assert!(v["games"].as_u64().unwrap() < 400, "stopped early: {v}");
    assert!(v["sprt"]["llr"].as_f64().unwrap() >= v["sprt"]["upper"].as_f64().unwrap());
}

#[test]
fn bad_tournament_input_is_one_line_and_exit_2() {
    let dir = tmp("bad");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--engines", "othello-ab-d1,nope"],
            "unknown engine 'nope'",
        ),
        (
            &["--engines", "othello-ab-d1", "--engine", "name=x,dpth=3"],
            "unknown field 'dpth'",
        ),
        // --engine without '=' names a preset, as in selfplay and gtp (it was refused as
        // "not key=value" even when the preset exists).
        (
            &["--engines", "othello-ab-d1", "--engine", "nope"],
            "unknown engine 'nope'",
        ),
        (&["--engines", "othello-ab-d1"], "at least 2 engines"),
        (&["--engines", "othello-ab-d1,othello-ab-d1"], "used twice"),
        (
            &[
                "--engines",
                "othello-ab-d1,othello-ab-d2,othello-ab-d3",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "exactly two",
        ),
        (
            &[
                "--engines",
                "othello-ab-d1,othello-ab-d2",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo0",
        ),
        (
            &["--engines", "othello-ab-d1,othello-ab-d2", "--shard", "4/3"],
            "--shard",
        ),
        (
            &[
                "--engines",
                "othello-ab-d1,othello-ab-d2",
                "--openings",
                "/no/such/file",
            ],
            "cannot read openings",
        ),
        (
            &["--engines", "othello-ab-d1,othello-ab-d2", "--anchor", "zz"],
            "anchor 'zz'",
        ),
    ];
    for (args, expect) in cases {
        let o = tournament(args, &dir);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(expect),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    let o = bin()
        .args(["tournament", "report", "/no/such/dir"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn openings_file_lines_are_played_in_both_colours() {
    let dir = tmp("openings");
    let file = dir.with_extension("txt");
    std::fs::write(&file, "# two openings\nf5d6c3\n\nf5f6e6f4\n").unwrap();
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "2",
            "--openings",
            file.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let openings: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["opening"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(openings.iter().filter(|o| *o == "f5d6c3").count(), 2);
    assert_eq!(openings.iter().filter(|o| *o == "f5f6e6f4").count(), 2);
    std::fs::write(&file, "f5d6zz\n").unwrap();
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--openings",
            file.to_str().unwrap(),
        ],
        &tmp("openings2"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1"));
}

#[test]
fn tournament_against_gtp_rhino_from_random_openings() {
    // The real external engine (Debian package grhino; .ci/run installs it).
    if !Path::new("/usr/games/gtp-rhino").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "gtp-rhino is missing under CI"
        );
        eprintln!("SKIPPED: /usr/games/gtp-rhino is not installed (apt-get install grhino)");
        return;
    }
    let dir = tmp("rhino");
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d2,othello-gtp-rhino",
            "--rounds",
            "2",
            "--json",
        ],
        &dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Random 8-ply openings reach the external engine as move history: every game ends by
    // the rules, none by an engine error.
    assert_eq!(v["reasons"]["normal"], 4, "{v}");
    assert_eq!(v["games"], 4);
}

#[test]
fn more_rounds_extend_a_finished_tournament_and_duplicate_lines_are_ignored() {
    let dir = tmp("extend");
    let args = |rounds: &'static str| -> Vec<&'static str> {
        vec![
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            rounds,
            "--json",
        ]
    };
    let o = tournament(&args("2"), &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A line copied twice (by hand or a bad merge) counts once.
    let path = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let first = text.lines().next().unwrap().to_string();
    std::fs::write(&path, format!("{text}{first}\n")).unwrap();
    let o = tournament(&args("3"), &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resumed"], 4);
    assert_eq!(v["played"], 2);
    assert_eq!(v["games"], 6);
    // The extended tournament equals one run with 3 rounds from the start.
    let fresh = tmp("extend-fresh");
    assert!(tournament(&args("3"), &fresh).status.success());
    assert_eq!(records(&fresh).len(), 6);
    let mut extended = records(&fresh);
    extended.retain(|_, _| true);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut ids = HashSet::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        ids.insert(v["id"].as_u64().unwrap());
    }
    assert_eq!(ids, extended.keys().copied().collect::<HashSet<_>>());
}

#[test]
fn gtp_engines_refuse_position_only_openings_before_any_game() {
    let dir = tmp("gtp-positions");
    let file = dir.with_extension("openings");
    std::fs::write(
        &file,
        "---------------------------OX------XXX-------------------------- O\n",
    )
    .unwrap();
    let engine = format!(
        "name=self,protocol=gtp,command={} gtp othello --depth 1",
        env!("CARGO_BIN_EXE_tessera")
    );
    let o = tournament(
        &[
            "--engines",
            "othello-ab-d1",
            "--engine",
            &engine,
            "--openings",
            file.to_str().unwrap(),
        ],
        &dir,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("position-only opening"), "{err}");
    assert!(!dir.join("games.jsonl").exists());
}

#[test]
fn ctrl_c_finishes_games_in_progress_and_saves_them() {
    let dir = tmp("sigint");
    let child = bin()
        .args([
            "tournament",
            "othello",
            "--no-progress",
            "--concurrency",
            "2",
            "--out",
        ])
        .arg(&dir)
        .args([
            "--engines",
            "othello-ab-d3,othello-ab-d4",
            "--rounds",
            "400",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let games = dir.join("games.jsonl");
    let t = Instant::now();
    while std::fs::read_to_string(&games)
        .map(|s| s.lines().count())
        .unwrap_or(0)
        < 3
        && t.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("interrupted:") && stdout.contains("run the same command to resume"),
        "{stdout}"
    );
    let saved = records(&dir).len();
    assert!((3..1600).contains(&saved), "{saved}");
}

/// Quixo has no rule ending cycles: a game whose position (with the seat to move) occurs a
/// third time is recorded as a draw by repetition — and only then. Replaying each record
/// checks it: the final position of a "repetition" game is its third occurrence, and no
/// other game repeats a position three times.
#[test]
fn quixo_games_end_in_a_draw_on_the_third_repetition() {
    use tessera::game::Game;
    use tessera::games::quixo::Quixo;
    let out = tmp("quixo-repetition");
    let status = bin()
        .args(["tournament", "quixo", "--no-progress", "--out"])
        .arg(&out)
        .args([
            "--engines",
            "quixo-ab-d2,quixo-ab-d4",
            "--rounds",
            "6",
            "--concurrency",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let text = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let mut repetitions = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut pos: Quixo = v["start"].as_str().unwrap().parse().unwrap();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        *seen.entry(pos.key()).or_default() += 1;
        let mut max_seen = 1;
        for m in v["moves"].as_array().unwrap() {
            let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
            pos = pos.play(mv);
            let c = seen.entry(pos.key()).or_default();
            *c += 1;
            max_seen = max_seen.max(*c);
        }
        match v["reason"].as_str().unwrap() {
            "repetition" => {
                repetitions += 1;
                assert_eq!(seen[&pos.key()], 3, "{line}");
                assert_eq!(v["points"], serde_json::json!([0.5, 0.5]));
            }
            "normal" => {
                assert!(pos.outcome().is_some(), "{line}");
                assert!(max_seen < 3, "{line}");
            }
            other => panic!("unexpected reason {other}: {line}"),
        }
    }
    // Deterministic engines at fixed depth cycle often (25 of 40 games at 20 rounds).
    assert!(repetitions > 0, "no game ended by repetition: {text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// One colour-swapped pair split 1-1 has an Elo of exactly +0 (not the "-0.0" of
/// `-400 log10(1)`) and no error bar, LOS or rating interval: a single pair has no
/// variance, so the report gives `± n/a` / `n/a` in text (with the reason below the table)
/// and `null` in JSON instead of claiming "± 0" or "LOS 100 %".
#[test]
fn one_pair_has_no_error_bar_and_an_even_score_is_plus_zero() {
    let dir = tmp("one-pair");
    let out = bin()
        .args([
            "tournament",
            "othello",
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "1",
            "--random-plies",
            "8",
            "--seed",
            "3",
            "--no-progress",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let p = &report["pairings"][0];
    assert_eq!(p["games"], 2);
    let (w, l) = (p["wins"].as_u64().unwrap(), p["losses"].as_u64().unwrap());
    assert_eq!(p["elo_error"], serde_json::Value::Null, "{p}");
    assert_eq!(p["nelo_error"], serde_json::Value::Null, "{p}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("± 0.0") && !text.contains("±   0.0"),
        "{text}"
    );
    // Depth-limited engines are deterministic: seed 3's opening gives a 1-1 pair.
    assert_eq!((w, l), (1, 1), "{p}");
    assert_eq!(
        p["elo"].as_f64().unwrap().to_bits(),
        0.0f64.to_bits(),
        "{p}"
    );
    assert!(text.contains("+0.0 ±   n/a"), "{text}");
    assert!(!text.contains("inf"), "{text}");
    assert!(!text.contains("-0.0"), "{text}");
    // Nor a likelihood of superiority (it printed 100.0 % after one won pair), nor a
    // rating interval (the bootstrap over one block printed "[+176, +176]").
    assert_eq!(p["los"], serde_json::Value::Null, "{p}");
    let row = text
        .lines()
        .find(|l| l.starts_with("othello-ab-d1 "))
        .unwrap();
    assert!(row.contains("n/a            n/a  "), "{row}");
    assert!(
        text.contains("one unit (a pair, or a game) has no variance"),
        "{text}"
    );
    assert!(!text.contains("NaN"), "{text}");
    let rating = text
        .lines()
        .find(|l| l.contains("   1 othello-ab-d"))
        .unwrap();
    assert!(!rating.contains('['), "{rating}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `tessera tournament othello` with `args` into `dir`; the report as text and JSON
/// (report.json), checked against its schema.
fn run_report(dir: &Path, args: &[&str]) -> (String, serde_json::Value) {
    let out = tournament(args, dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    crate::tournament::schemas::assert_valid("report.schema.json", &report, "report.json");
    (String::from_utf8_lossy(&out.stdout).into_owned(), report)
}

/// Two identical engines over 2 rounds (every colour-swapped pair won and lost
/// once: no variance) printed "+0.0 ± 0.0" and LOS 50.0 %: a spread of 0 measured from no
/// spread at all. The error bar, normalized Elo and LOS are absent, with the reason.
#[test]
fn identical_engines_get_no_zero_width_error_bar() {
    let dir = tmp("identical");
    let (text, report) = run_report(
        &dir,
        &[
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--rounds",
            "2",
        ],
    );
    let p = &report["pairings"][0];
    assert_eq!(p["pentanomial"], serde_json::json!([0, 0, 2, 0, 0]), "{p}");
    assert_eq!(p["elo"], 0.0);
    for k in ["elo_error", "nelo", "nelo_error", "los"] {
        assert_eq!(p[k], serde_json::Value::Null, "{k}: {p}");
    }
    assert!(p["note"].as_str().unwrap().contains("no variance"), "{p}");
    let row = text.lines().find(|l| l.starts_with("a ")).unwrap();
    assert!(row.contains("+0.0 ±   n/a"), "{row}");
    assert!(!row.contains("± 0.0") && !row.contains("±   0.0"), "{row}");
    assert!(!row.contains("50.0%"), "{row}");
    assert!(text.contains("a vs b: no error bar"), "{text}");
    assert!(!text.contains("[+0, +0]"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A report of a folder with no finished game printed "[+0, +0]" and "0.0%"
/// for every engine, and a shard without an engine's games listed it as
/// "+0.0 [+0, +0] 0 games". An engine without games has no rating, interval or score.
#[test]
fn engines_without_games_have_no_rating_interval_or_score() {
    let dir = tmp("no-games");
    let (_, report) = run_report(
        &dir,
        &[
            "--engines",
            "othello-ab-d1,othello-ab-d2,othello-ab-d3",
            "--rounds",
            "1",
            "--shard",
            "1/3",
        ],
    );
    let ratings = report["ratings"].as_array().unwrap();
    let idle: Vec<&serde_json::Value> = ratings.iter().filter(|r| r["games"] == 0).collect();
    assert_eq!(idle.len(), 1, "{ratings:?}");
    for k in ["elo", "lower", "upper", "score"] {
        assert_eq!(idle[0][k], serde_json::Value::Null, "{k}: {:?}", idle[0]);
    }
    assert!(
        idle[0]["interval_note"]
            .as_str()
            .unwrap()
            .contains("played no game")
    );
    // Listed last, after the rated engines.
    assert_eq!(ratings.last().unwrap()["games"], 0);
    // The same folder emptied of its games: every engine without numbers, exit 0.
    std::fs::write(dir.join("games.jsonl"), "").unwrap();
    let out = bin()
        .args(["tournament", "report"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("0 games of othello"), "{text}");
    assert!(!text.contains("[+0, +0]"), "{text}");
    assert!(!text.contains("0.0%"), "{text}");
    for e in ["othello-ab-d1", "othello-ab-d2", "othello-ab-d3"] {
        let row = text
            .lines()
            .find(|l| l.contains(&format!(" {e} ")))
            .unwrap();
        assert!(row.contains("n/a"), "{row}");
    }
    assert!(text.contains("played no game"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The HTML head-to-head printed "Elo +∞" for d6 against d2 where report.json has
/// a finite Elo with `elo_error: null` (pairs 3/0/0/1/0 from d2's view: Elo -254.7, its
/// 95 % interval reaching 0 %). A missing error bar is "± —" with the reason as the cell's
/// title; ∞ appears only for an infinite Elo.
#[test]
fn html_shows_a_missing_error_bar_as_absent_not_infinite() {
    let dir = tmp("html-bar");
    let (_, report) = run_report(
        &dir,
        &[
            "--engines",
            "othello-ab-d2,othello-ab-d6",
            "--rounds",
            "4",
            "--seed",
            "6",
        ],
    );
    let p = &report["pairings"][0];
    assert_eq!(p["pentanomial"], serde_json::json!([3, 0, 0, 1, 0]), "{p}");
    let elo = p["elo"].as_f64().unwrap();
    assert!(elo.is_finite() && elo < 0.0, "{p}");
    assert_eq!(p["elo_error"], serde_json::Value::Null, "{p}");
    let page = dir.join("page.html");
    let out = bin()
        .args(["tournament", "report"])
        .arg(&dir)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains('∞'), "an infinite number in the page");
    assert!(html.contains("Elo -255 ± —"), "row d2");
    assert!(html.contains("Elo +255 ± —"), "row d6");
    assert!(html.contains("title=\"othello-ab-d2 vs othello-ab-d6: no error bar"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// With hypotheses symmetric about 0 and every pair drawn (or split) the LLR is
/// 0 by symmetry and no bound is ever reached; the run ends at its game limit, and the
/// report says why "continue" is no decision.
#[test]
fn sprt_without_a_decision_says_why() {
    let dir = tmp("sprt-symmetric");
    let (text, report) = run_report(
        &dir,
        &[
            "--engine",
            "name=a,depth=1",
            "--engine",
            "name=b,depth=1",
            "--rounds",
            "3",
            "--sprt",
            "elo0=-300,elo1=300",
        ],
    );
    let s = &report["sprt"];
    assert_eq!(report["games"], 6);
    assert_eq!(s["decision"], "continue");
    assert!(s["llr"].as_f64().unwrap().abs() < 1e-4, "{s}");
    let note = s["note"].as_str().unwrap();
    assert!(note.contains("symmetric about 0"), "{note}");
    assert!(note.contains("the schedule ended"), "{note}");
    assert!(
        text.contains("-> continue\n  every complete pair scored 1/2"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of the text report's "Time per move" table: engine -> the other columns.
fn time_rows(text: &str) -> HashMap<String, Vec<String>> {
    let mut lines = text
        .lines()
        .skip_while(|l| *l != "Time per move (ms; passes excluded)");
    assert!(lines.next().is_some(), "no time table in:\n{text}");
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["engine", "moves", "mean", "median", "p90", "max"]);
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let mut cells = l.split_whitespace().map(String::from);
            (cells.next().unwrap(), cells.collect())
        })
        .collect()
}

/// Each engine's time per move (passes excluded) is in the text report, in report.json and
/// in `tournament report DIR`; its move count and mean agree with what this test finds in
/// games.jsonl itself: Othello seats alternate every move (a pass is a move), the start's
/// last field says who moves first (`X`: Black, seat 0).
#[test]
fn the_report_gives_each_engines_time_per_move() {
    let dir = tmp("time-per-move");
    let (text, report) = run_report(
        &dir,
        &[
            "--engines",
            "othello-ab-d1,othello-ab-d2",
            "--rounds",
            "3",
            "--random-plies",
            "8",
            "--seed",
            "5",
        ],
    );
    let mut counted: HashMap<String, (u64, f64, f64)> = HashMap::new();
    let records = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    for line in records.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let first = usize::from(!g["start"].as_str().unwrap().ends_with('X'));
        let moves = g["moves"].as_array().unwrap();
        let stats = g["move_stats"].as_array().unwrap();
        assert_eq!(moves.len(), stats.len());
        for (k, (m, st)) in moves.iter().zip(stats).enumerate() {
            if m == "pass" {
                continue;
            }
            let engine = g["engines"][(first + k) % 2].as_str().unwrap();
            let ms = 1000.0 * st["seconds"].as_f64().unwrap();
            let e = counted.entry(engine.to_string()).or_default();
            e.0 += 1;
            e.1 += ms;
            e.2 = e.2.max(ms);
        }
    }
    let rows = time_rows(&text);
    assert_eq!(rows.len(), 2, "{text}");
    for r in report["ratings"].as_array().unwrap() {
        let name = r["name"].as_str().unwrap();
        let t = &r["time_per_move_ms"];
        let (moves, total, max) = counted[name];
        assert!(moves > 20, "{name}: {moves} moves");
        assert_eq!(t["moves"].as_u64().unwrap(), moves, "{name}: {t}");
        let f = |k: &str| t[k].as_f64().unwrap();
        assert!(
            (f("mean") - total / moves as f64).abs() < 1e-6,
            "{name}: {t}"
        );
        assert!((f("max") - max).abs() < 1e-6, "{name}: {t}");
        assert!(f("mean") <= f("max") && f("median") <= f("p90") && f("p90") <= f("max"));
        assert!(f("median") > 0.0, "{name}: {t}");
        let row = &rows[name];
        assert_eq!(row[0], moves.to_string(), "{text}");
        assert_eq!(row[1], format!("{:.1}", f("mean")), "{text}");
        assert_eq!(row[4], format!("{:.1}", f("max")), "{text}");
    }
    // `tournament report DIR` re-prints the same table from the records.
    let again = bin()
        .args(["tournament", "report"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(again.status.success());
    assert_eq!(time_rows(&String::from_utf8_lossy(&again.stdout)), rows);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--engine` takes a preset's name (or `.toml` path) as `selfplay --engine` and
/// `gtp --engine` do; it is ordered after every `--engines` preset.
#[test]
fn engine_flag_takes_a_preset_name() {
    let dir = tmp("engine-preset");
    let out = tournament(
        &[
            "--engine",
            "othello-ab-d2",
            "--engine",
            "name=d1,depth=1",
            "--rounds",
            "1",
        ],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recs = records(&dir);
    assert_eq!(recs.len(), 2);
    for (engines, _) in recs.values() {
        let mut e = engines.clone();
        e.sort();
        assert_eq!(e, ["d1", "othello-ab-d2"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_never_overwrites_the_folders_own_files() {
    let dir = tmp("html-own-files");
    let out = tournament(
        &["--engines", "othello-ab-d1,othello-ab-d2", "--rounds", "1"],
        &dir,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["games.jsonl", "tournament.json"] {
        let file = dir.join(name);
        let before = std::fs::read(&file).unwrap();
        let o = bin()
            .args(["tournament", "report"])
            .arg(&dir)
            .arg("--html")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("which the page shows; give a new file name"),
            "{err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), before, "{name} untouched");
    }
    // A link to a record file is replaced by the page, never written through (the page
    // is written beside it and renamed).
    let link = std::env::temp_dir().join(format!("tessera-test-{}-link.html", std::process::id()));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(dir.join("games.jsonl"), &link).unwrap();
    let records = std::fs::read(dir.join("games.jsonl")).unwrap();
    let o = bin()
        .args(["tournament", "report"])
        .arg(&dir)
        .arg("--html")
        .arg(&link)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(dir.join("games.jsonl")).unwrap(), records);
    assert!(
        !std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let _ = std::fs::remove_file(&link);
    // A page inside the folder is fine, and so is writing it again.
    for _ in 0..2 {
        let o = bin()
            .args(["tournament", "report"])
            .arg(&dir)
            .arg("--html")
            .arg(dir.join("report.html"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
