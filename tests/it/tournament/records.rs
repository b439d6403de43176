//! Records you can trust, end to end through the `tessera` binary: `tournament
//! report` only reads (a torn, an unterminated and a clean `games.jsonl` keep their bytes),
//! a complete last line without its newline counts, a torn one is named and skipped, only a
//! resuming run (which holds the lock) repairs the tail and says so, bytes that are not
//! UTF-8 are refused with the line, and every record that does not follow from the
//! tournament's settings and the rules, or whose per-move fields miss moves or hold a time
//! that is no duration, is refused with `games.jsonl:LINE:` and exit 2 — and no record the
//! runner itself writes is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-records-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Four games of Othello between depth-1 and depth-2 alpha-beta (two rounds of a pair).
const SMALL: &[&str] = &["--engines", "othello-ab-d1,othello-ab-d2", "--rounds", "2"];

fn tournament(args: &[&str], out: &Path) -> Output {
    bin()
        .args(["tournament", "othello", "--no-progress", "--json", "--out"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

fn report(dir: &Path) -> Output {
    bin()
        .args(["tournament", "report", "--json"])
        .arg(dir)
        .output()
        .unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A one-line error with exit code 2.
fn refused(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn report_never_changes_the_records_and_a_resume_repairs_the_tail_saying_so() {
    let dir = tmp("tail");
    json(&tournament(SMALL, &dir));
    let path = dir.join("games.jsonl");
    let clean = bytes(&path);
    assert_eq!(clean.iter().filter(|&&b| b == b'\n').count(), 4);
    // Clean: four games, the file unchanged.
    let v = json(&report(&dir));
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(bytes(&path), clean);

    // The last newline gone (the issue's `truncate -s -1`): the last record is whole and
    // counts; the file is not touched.
    let unterminated = clean[..clean.len() - 1].to_vec();
    std::fs::write(&path, &unterminated).unwrap();
    let o = report(&dir);
    let v = json(&o);
    assert_eq!(v["games"], 4, "{v}");
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(bytes(&path), unterminated, "report changed the file");
    // A resume (holding the lock) adds the newline, says so, and plays nothing.
    let o = tournament(SMALL, &dir);
    let v = json(&o);
    assert_eq!(v["played"], 0, "{v}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("added the newline"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(bytes(&path), clean);

    // A last line cut in the middle: named and skipped, the file untouched.
    let cut = clean.len() - 100;
    let torn = clean[..cut].to_vec();
    std::fs::write(&path, &torn).unwrap();
    let o = report(&dir);
    let v = json(&o);
    assert_eq!(v["games"], 3, "{v}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.jsonl:4:") && err.contains("cut short"),
        "{err}"
    );
    assert_eq!(bytes(&path), torn, "report changed the file");
    // Export reads the same way and changes nothing either.
    let o = bin()
        .args(["tournament", "export"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    assert_eq!(bytes(&path), torn, "export changed the file");
    // The resume removes the torn line, says so, and plays that game again.
    let o = tournament(SMALL, &dir);
    let v = json(&o);
    assert_eq!(
        (v["played"].as_u64(), v["resumed"].as_u64()),
        (Some(1), Some(3))
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("games.jsonl:4:") && err.contains("removed the last line"),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count(), 4);
    assert_eq!(json(&report(&dir))["games"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bytes_that_are_not_utf8_are_refused_with_their_line() {
    let dir = tmp("utf8");
    json(&tournament(SMALL, &dir));
    let path = dir.join("games.jsonl");
    let mut b = bytes(&path);
    let second = b.iter().position(|&c| c == b'\n').unwrap() + 1;
    b[second + 30] = 0xff;
    std::fs::write(&path, &b).unwrap();
    let err = refused(&report(&dir));
    assert!(
        err.contains("games.jsonl:2:") && err.contains("UTF-8"),
        "{err}"
    );
    assert_eq!(bytes(&path), b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A change to one record.
type Edit = dyn Fn(&mut serde_json::Value);

/// Applies each edit to line `line` of a fresh copy of `lines`, and expects `report` (and a
/// resume) to refuse it naming `games.jsonl:LINE:` and `what`.
fn expect_refused(
    dir: &Path,
    args: &[&str],
    lines: &[String],
    cases: Vec<(usize, Box<Edit>, &str)>,
) {
    let path = dir.join("games.jsonl");
    for (line, f, what) in &cases {
        let mut v: serde_json::Value = serde_json::from_str(&lines[line - 1]).unwrap();
        f(&mut v);
        let mut out = lines.to_vec();
        out[line - 1] = serde_json::to_string(&v).unwrap();
        let edited = out.join("\n") + "\n";
        std::fs::write(&path, &edited).unwrap();
        let err = refused(&report(dir));
        assert!(
            err.contains(&format!("games.jsonl:{line}:")) && err.contains(what),
            "expected '{what}': {err}"
        );
        let err = refused(&tournament(args, dir));
        assert!(err.contains(&format!("games.jsonl:{line}:")), "{err}");
        // The GGF export reads the records through the same check.
        let err = refused(
            &bin()
                .args(["tournament", "export"])
                .arg(dir)
                .output()
                .unwrap(),
        );
        assert!(
            err.contains(&format!("games.jsonl:{line}:")),
            "export: {err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    json(&report(dir));
}

/// The seat to move after the first `k` recorded moves of an Othello record (passes are
/// recorded, so seats alternate; the start's last character is the side to move).
fn to_move_after(v: &serde_json::Value, k: usize) -> usize {
    let first = usize::from(!v["start"].as_str().unwrap().ends_with('X'));
    (first + k) % 2
}

/// Cuts a record's moves to 10 and makes it a forfeit by the seat then to move.
fn forfeit(v: &mut serde_json::Value, reason: &str) {
    for key in ["moves", "move_ms", "move_stats"] {
        if let Some(a) = v[key].as_array_mut() {
            a.truncate(10);
        }
    }
    let loser = to_move_after(v, 10);
    let mut ranks = [1, 1];
    ranks[loser] = 2;
    let mut points = [1.0, 1.0];
    points[loser] = 0.0;
    v["ranks"] = serde_json::json!(ranks);
    v["points"] = serde_json::json!(points);
    v["scores"] = serde_json::json!([]);
    v["reason"] = reason.into();
    v["detail"] = "edited".into();
}

#[test]
fn records_that_do_not_follow_from_the_settings_and_the_rules_are_refused() {
    let dir = tmp("edits");
    json(&tournament(SMALL, &dir));
    let lines: Vec<String> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let swap = |v: &mut serde_json::Value| {
        let e = v["engines"].as_array_mut().unwrap();
        e.reverse();
    };
    let cases: Vec<(usize, Box<Edit>, &str)> = vec![
        // The engines reversed: the other engine would win the game.
        (1, Box::new(swap), "schedule"),
        // A self-game.
        (
            2,
            Box::new(|v| v["engines"] = serde_json::json!(["othello-ab-d2", "othello-ab-d2"])),
            "schedule",
        ),
        // Another pair's block.
        (3, Box::new(|v| v["block"] = 13.into()), "block"),
        // An id outside the schedule (a 31st game of 30).
        (
            4,
            Box::new(|v| v["id"] = 99999.into()),
            "outside the schedule",
        ),
        // Forfeits a built-in engine cannot produce.
        (1, Box::new(|v| forfeit(v, "engine-error")), "built in"),
        (2, Box::new(|v| forfeit(v, "illegal-move")), "built in"),
        // A time forfeit without a clock.
        (
            3,
            Box::new(|v| {
                forfeit(v, "time-forfeit");
                v["overrun_ms"] = 5.into();
            }),
            "no clock",
        ),
        // Adjudications the tournament did not enable.
        (
            4,
            Box::new(|v| {
                forfeit(v, "adjudicated-resign");
            }),
            "--adjudicate resign",
        ),
        (
            1,
            Box::new(|v| {
                for key in ["moves", "move_ms", "move_stats"] {
                    v[key].as_array_mut().unwrap().truncate(20);
                }
                v["reason"] = "adjudicated-exact".into();
                v["scores"] = serde_json::json!([40, 24]);
                v["ranks"] = serde_json::json!([1, 2]);
                v["points"] = serde_json::json!([1.0, 0.0]);
            }),
            "--adjudicate exact",
        ),
    ];
    expect_refused(&dir, SMALL, &lines, cases);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_exact_adjudication_is_solved_again() {
    let dir = tmp("exact");
    let args = [
        "--engines",
        "othello-ab-d1,othello-ab-d2",
        "--rounds",
        "1",
        "--adjudicate",
        "exact=10",
    ];
    let v = json(&tournament(&args, &dir));
    assert_eq!(v["reasons"]["adjudicated-exact"], 2, "{v}");
    let lines: Vec<String> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    // A solved draw reversed is the same record: use a decided game.
    let line = 1 + lines
        .iter()
        .position(|l| !l.contains("\"ranks\":[1,1]"))
        .expect("a decided game");
    let reverse = |v: &mut serde_json::Value| {
        for key in ["scores", "points", "ranks"] {
            v[key].as_array_mut().unwrap().reverse();
        }
    };
    expect_refused(
        &dir,
        &args,
        &lines,
        vec![(line, Box::new(reverse), "solves to scores")],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of a tournament's `games.jsonl`.
fn lines_of(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// Defect (newcomer check): the per-move fields were not checked, so one edited move time
/// reached the report: `move_stats` seconds of 1e308 printed a mean of `inf` (and `null`
/// where the report schema wants a number), -5 s dropped the move silently, `move_stats`
/// shorter than `moves` dropped the whole game silently, and a `move_ms` near 2^64
/// overflowed the HTML page's sum. Each is refused with its line, field and value, exit 2;
/// records without per-move fields (written before they existed) still count.
#[test]
fn per_move_times_that_are_not_durations_or_miss_moves_are_refused() {
    let dir = tmp("per-move");
    json(&tournament(SMALL, &dir));
    let lines = lines_of(&dir);
    let seconds = |k: usize, s: serde_json::Value| -> Box<Edit> {
        Box::new(move |v| v["move_stats"][k]["seconds"] = s.clone())
    };
    let cut = |key: &'static str, n: usize| -> Box<Edit> {
        Box::new(move |v| v[key].as_array_mut().unwrap().truncate(n))
    };
    let cases: Vec<(usize, Box<Edit>, &str)> = vec![
        (
            1,
            seconds(3, serde_json::json!(1e308)),
            "move_stats[3].seconds is 1e+308",
        ),
        (
            2,
            seconds(3, serde_json::json!(-5)),
            "move_stats[3].seconds is -5",
        ),
        (
            3,
            seconds(0, serde_json::json!(10_000_001)),
            "move_stats[0].seconds is 10000001",
        ),
        (4, cut("move_stats", 5), "move_stats has 5 entries for"),
        (
            1,
            Box::new(|v| {
                let a = v["move_stats"].as_array_mut().unwrap();
                a.push(a[0].clone());
            }),
            "move_stats has",
        ),
        (2, cut("move_ms", 7), "move_ms has 7 entries for"),
        (
            3,
            Box::new(|v| v["move_ms"][2] = u64::MAX.into()),
            "move_ms[2] is 18446744073709551615",
        ),
        (
            4,
            Box::new(|v| v["seconds"] = 1e308.into()),
            "seconds is 1e+308",
        ),
    ];
    expect_refused(&dir, SMALL, &lines, cases);
    // At the bound, and with no per-move fields at all (records from before they existed),
    // the records count; the latter give no time per move (`null`).
    let path = dir.join("games.jsonl");
    let mut edited = lines.clone();
    let mut v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    v["move_stats"][0]["seconds"] = 1e7.into();
    v["move_ms"][0] = 10_000_000_000u64.into();
    edited[0] = serde_json::to_string(&v).unwrap();
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
    let r = json(&report(&dir));
    assert!(
        r["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["time_per_move_ms"]["max"] == 1e10),
        "{r}"
    );
    let old: Vec<String> = lines
        .iter()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("move_stats");
            o.remove("move_ms");
            serde_json::to_string(&v).unwrap()
        })
        .collect();
    std::fs::write(&path, old.join("\n") + "\n").unwrap();
    let r = json(&report(&dir));
    for e in r["ratings"].as_array().unwrap() {
        assert!(e["time_per_move_ms"].is_null(), "{r}");
    }
    // A clocked run: `clock_ms` has one entry per move too.
    let clocked = tmp("per-move-clock");
    let args = [SMALL, &["--tc", "60"]].concat();
    json(&tournament(&args, &clocked));
    let lines = lines_of(&clocked);
    expect_refused(
        &clocked,
        &args,
        &lines,
        vec![(2, cut("clock_ms", 3), "clock_ms has 3 entries for")],
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&clocked);
}

/// A GTP engine for [`the_runner_writes_only_records_that_pass_the_checks`]: relays every
/// command to `$1 gtp othello --depth 1` (tessera as an external program) and its answer
/// back, except that from its 4th `genmove` on it does what `$2` says: `slow` sleeps 1.2 s
/// first (a time forfeit under `st=0.5`), `crash` exits (an engine error), `illegal`
/// answers a1 (an illegal move that early); any other word relays everything.
const GTP_PROXY: &str = r#"coproc T { exec "$1" gtp othello --depth 1; }
n=0
while IFS= read -r line; do
  case "$line" in
    genmove*)
      n=$((n + 1))
      if [ "$n" -ge 4 ]; then
        case "$2" in
          slow) sleep 1.2 ;;
          crash) exit 1 ;;
          illegal) printf '= a1\n\n'; continue ;;
        esac
      fi ;;
  esac
  printf '%s\n' "$line" >&"${T[1]}"
  while IFS= read -r answer <&"${T[0]}"; do
    printf '%s\n' "$answer"
    [ -z "$answer" ] && break
  done
  case "$line" in quit*) exit 0 ;; esac
done
"#;

/// The per-move rules refuse nothing the runner itself writes: a quick tournament of each
/// kind (Othello with passes, clocks and every adjudication, the ply cap, Quixo repetitions
/// and proofs, four-player Quixo with its passes, three- and two-player Talat, an external
/// GTP program playing out, losing on time, crashing and playing an illegal move) writes
/// `move_stats` and `move_ms` with one entry per move (and `clock_ms` with clocks), every
/// time a duration, and `tournament report` accepts every record. Every reason occurs.
#[test]
fn the_runner_writes_only_records_that_pass_the_checks() {
    let dir = tmp("runner-kinds");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("proxy.sh");
    std::fs::write(&script, GTP_PROXY).unwrap();
    let ext = |mode: &str, clock: &str| {
        format!(
            "name=ext,protocol=gtp,command=bash {} {} {mode}{clock}",
            script.display(),
            env!("CARGO_BIN_EXE_tessera")
        )
    };
    let d12 = "--engines othello-ab-d1,othello-ab-d2";
    let (d1, d2) = ("--engine name=a,depth=1", "--engine name=b,depth=2");
    let builtin = [
        ("othello", format!("{d12} --rounds 2")),
        ("othello", format!("{d12} --rounds 1 --adjudicate exact=12")),
        (
            "othello",
            format!("{d12} --rounds 2 --adjudicate resign=300,2 --tc 60"),
        ),
        (
            "othello",
            format!("{d12} --rounds 1 --adjudicate draw=5000,2"),
        ),
        ("othello", format!("{d12} --rounds 1 --max-plies 10")),
        (
            "quixo",
            "--engines quixo-ab-d2,quixo-ab-d4 --rounds 3".into(),
        ),
        (
            "quixo",
            format!("{d1} {d2} --rounds 1 --adjudicate exact=3"),
        ),
        ("quixo-4p", format!("{d1} {d2} --rounds 1")),
        ("talat-2p", format!("{d1} {d2} --rounds 1")),
        (
            "talat",
            "--engine name=a,algo=brs,depth=1 --engine name=b,algo=paranoid,depth=1 \
             --engine name=c,algo=maxn,depth=1 --rounds 1"
                .into(),
        ),
    ];
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let external = [
        ("relay", ""),
        ("slow", ",st=0.5"),
        ("crash", ""),
        ("illegal", ""),
    ];
    let runs: Vec<(&str, Vec<String>)> = builtin
        .iter()
        .map(|(g, a)| (*g, words(a)))
        .chain(external.map(|(mode, clock)| {
            let mut a = words("--engines othello-ab-d1 --rounds 1 --engine");
            a.push(ext(mode, clock));
            ("othello", a)
        }))
        .collect();
    let mut reasons = std::collections::BTreeSet::new();
    let mut passes = std::collections::BTreeMap::<&str, usize>::new();
    for (k, (game, args)) in runs.iter().enumerate() {
        let out = dir.join(format!("{k}-{game}"));
        let o = bin()
            .args(["tournament", game, "--no-progress", "--out"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{game} {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        for line in lines_of(&out) {
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            let len = |key: &str| v[key].as_array().map_or(0, Vec::len);
            let moves = len("moves");
            assert_eq!(len("move_stats"), moves, "{line}");
            assert_eq!(len("move_ms"), moves, "{line}");
            let clocked = args.iter().any(|a| a == "--tc" || a.contains(",st="));
            assert_eq!(len("clock_ms"), if clocked { moves } else { 0 }, "{line}");
            for s in v["move_stats"].as_array().unwrap() {
                let t = s["seconds"].as_f64().unwrap();
                assert!((0.0..10.0).contains(&t), "{line}");
            }
            reasons.insert(v["reason"].as_str().unwrap().to_string());
            let p = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| *m == "pass");
            *passes.entry(game).or_default() += p.count();
        }
        let r = bin()
            .args(["tournament", "report", "--json"])
            .arg(&out)
            .output()
            .unwrap();
        json(&r);
    }
    let all = [
        "normal",
        "ply-cap",
        "repetition",
        "illegal-move",
        "engine-error",
        "time-forfeit",
        "adjudicated-exact",
        "adjudicated-resign",
        "adjudicated-draw",
    ];
    assert_eq!(reasons, all.map(String::from).into(), "{passes:?}");
    assert!(
        passes["othello"] > 0 && passes["quixo-4p"] > 0,
        "{passes:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
