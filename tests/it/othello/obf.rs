//! `tessera solve othello --obf FILE`: Edax-style problem batches, their per-line error
//! entries, the `--time-ms` budget of a batch, and `--threads`.

use std::process::{Command, Output};

use serde_json::Value;

/// FFO #40 (Black to move, 20 empties): exact +38, best a2 (FFO suite).
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
/// FFO #45 (24 empties): seconds of work, far more than the time budget below allows.
const FFO45: &str = "---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO-- X";
/// FFO #51 (27 empties, White to move, +6).
const FFO51: &str = "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O";

/// Hand-worked: every square Black except White's g8 and the empty h8, Black to move.
/// Black plays h8 and flips g8: 64 Black discs, score +64.
fn one_empty() -> String {
    let mut b: Vec<char> = "X".repeat(64).chars().collect();
    b[62] = 'O';
    b[63] = '-';
    format!("{} X", b.into_iter().collect::<String>())
}

fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("the tessera binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `lines` to a fresh file named `name` in the temp folder.
fn obf_file(name: &str, lines: &[String]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("tessera-obf-{}-{name}", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").expect("temp file written");
    path
}

fn json(out: &Output) -> Value {
    let stdout = text(&out.stdout);
    assert_eq!(stdout.trim().lines().count(), 1, "one JSON line: {stdout}");
    serde_json::from_str(stdout.trim()).expect("stdout is JSON")
}

#[test]
fn batch_solves_and_compares_with_the_file() {
    let lines = vec![
        "% FFO #40 and a hand-worked one-empty position".to_string(),
        format!("{FFO40}; A2:+38;"),
        format!("{}; H8:+64;", one_empty()),
        // The same position with a wrong file score: reported as differing.
        format!("{}; H8:+62;", one_empty()),
        // No annotation: solved, nothing to compare.
        one_empty(),
    ];
    let path = obf_file("good.obf", &lines);
    let p = path.to_str().unwrap();
    let out = tessera(&["solve", "othello", "--obf", p, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    let probs = v["problems"].as_array().unwrap();
    assert_eq!(probs.len(), 4);
    assert_eq!(probs[0]["line"], 2);
    assert_eq!(probs[0]["score"], 38);
    assert_eq!(probs[0]["move"], "a2");
    assert_eq!(probs[0]["matches"], true);
    assert!(probs[0]["nodes"].as_u64().unwrap() > 1000);
    assert_eq!(probs[1]["score"], 64);
    assert_eq!(probs[1]["move"], "h8");
    assert_eq!(probs[1]["matches"], true);
    assert_eq!(probs[2]["score"], 64);
    assert_eq!(probs[2]["file_score"], 62);
    assert_eq!(probs[2]["matches"], false);
    assert!(probs[3]["matches"].is_null());
    let t = &v["totals"];
    assert_eq!(t["solved"], 4);
    assert_eq!(t["matched"], 2);
    assert_eq!(t["differ"], 1);
    assert_eq!(t["unannotated"], 1);
    assert_eq!(t["errors"], 0);
    let nodes: u64 = probs.iter().map(|e| e["nodes"].as_u64().unwrap()).sum();
    assert_eq!(t["nodes"].as_u64(), Some(nodes));

    // The text form: a header, one line per problem, two total lines.
    // Zero or too many threads: refused with exit 2, nothing solved.
    for bad in ["0", "257"] {
        let out = tessera(&["solve", "othello", "--obf", p, "--threads", bad]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("--threads"),
            "{}",
            text(&out.stderr)
        );
        assert!(text(&out.stdout).is_empty());
    }
    let out = tessera(&["solve", "othello", "--obf", p, "--threads", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let rows: Vec<&str> = s.lines().collect();
    assert_eq!(rows.len(), 2 + 4 + 2, "{s}");
    assert!(rows[2].contains("+38") && rows[2].contains("a2") && rows[2].ends_with("yes"));
    assert!(rows[4].ends_with("NO"), "{s}");
    assert!(rows[6].starts_with("total: 4 solved (2 match the file, 1 differ"));
    assert!(rows[7].contains("nodes/s"));
    std::fs::remove_file(path).ok();
}

#[test]
fn bad_lines_get_error_entries_and_the_batch_goes_on() {
    let good = format!("{}; H8:+64", one_empty());
    let lines = vec![
        good.clone(),
        format!("{} X", &FFO40[..60]),     // line 2: short board
        format!("{} Z", &FFO40[..64]),     // line 3: bad side
        format!("{} X", "XO".repeat(32)),  // line 4: no empty square
        format!("-{} O", "X".repeat(63)),  // line 5: nobody can move
        format!("{}; H8+64", one_empty()), // line 6: bad annotation
        good,                              // line 7
    ];
    let path = obf_file("bad.obf", &lines);
    let p = path.to_str().unwrap();
    let out = tessera(&["solve", "othello", "--obf", p, "--json"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let v = json(&out);
    let probs = v["problems"].as_array().unwrap();
    assert_eq!(probs.len(), 7);
    assert_eq!(probs[0]["score"], 64);
    assert_eq!(probs[6]["score"], 64);
    assert_eq!(probs[6]["line"], 7);
    let err = |i: usize| probs[i]["error"].as_str().unwrap().to_string();
    assert!(err(1).contains("64"), "{}", err(1));
    assert!(err(2).contains("side to move"), "{}", err(2));
    assert!(err(3).contains("no empty square"), "{}", err(3));
    assert!(err(4).contains("game is over"), "{}", err(4));
    assert!(err(5).contains("MOVE:SCORE"), "{}", err(5));
    assert_eq!(v["totals"]["errors"], 5);
    assert_eq!(v["totals"]["solved"], 2);

    // Text: the error entries name their line numbers.
    let out = tessera(&["solve", "othello", "--obf", p]);
    assert_eq!(out.status.code(), Some(2));
    let s = text(&out.stdout);
    for n in 2..=6 {
        assert!(s.contains(&format!("error: line {n}: ")), "line {n}: {s}");
    }
    std::fs::remove_file(path).ok();
}

#[test]
fn missing_or_empty_file_is_one_error_line() {
    let out = tessera(&["solve", "othello", "--obf", "/no/such/dir/x.obf"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot read OBF file /no/such/dir/x.obf"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let path = obf_file("empty.obf", &["% only a comment".to_string()]);
    let out = tessera(&["solve", "othello", "--obf", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no problem lines"));
    std::fs::remove_file(path).ok();

    // --obf with a position is a usage error.
    let out = tessera(&["solve", "othello", "--obf", "x.obf", "--ffo", "40"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn time_budget_stops_the_batch_and_keeps_solved_lines() {
    let lines = vec![
        format!("{}; H8:+64", one_empty()),
        FFO45.to_string(),
        format!("{}; H8:+64", one_empty()),
    ];
    let path = obf_file("time.obf", &lines);
    let p = path.to_str().unwrap();
    // FFO #45 needs many seconds of CPU; a 16 MiB table clears in far less than the
    // budget, so the batch gets to it and stops in it.
    let args = [
        "solve",
        "othello",
        "--obf",
        p,
        "--tt-mb",
        "16",
        "--time-ms",
        "1500",
    ];
    let out = tessera(&[&args[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v = json(&out);
    let probs = v["problems"].as_array().unwrap();
    assert_eq!(probs[0]["score"], 64);
    assert_eq!(probs[1]["stopped"], true);
    assert_eq!(probs[2]["not_tried"], true);
    assert_eq!(v["totals"]["solved"], 1);
    assert_eq!(v["totals"]["stopped"], 1);
    assert_eq!(v["totals"]["not_tried"], 1);

    let out = tessera(&args);
    assert_eq!(out.status.code(), Some(1));
    let s = text(&out.stdout);
    assert!(s.contains("stopped by --time-ms"), "{s}");
    assert!(s.contains("1 stopped, 1 not tried"), "{s}");
    // The not-tried line has its own row, as in the JSON (it had none in the text).
    assert!(
        s.contains("    3 not tried: --time-ms ran out before it"),
        "{s}"
    );
    std::fs::remove_file(path).ok();
}

/// Without `--tt-mb` the batch's table is the single-position default for its largest
/// problem: 64 MiB when every problem has at most 26 empties (it was always 256, whose
/// huge pages could cost the kernel seconds), 256 above; `--tt-mb` wins.
#[test]
fn the_table_size_follows_the_largest_problem_unless_given() {
    let small = obf_file("tt-small.obf", &[format!("{}; H8:+64", one_empty())]);
    let large = obf_file(
        "tt-large.obf",
        &[format!("{}; H8:+64", one_empty()), FFO51.to_string()],
    );
    let medium = obf_file(
        "tt-medium.obf",
        &[format!("{}; H8:+64", one_empty()), FFO45.to_string()],
    );
    for (path, extra, want, code) in [
        (&small, &[][..], 64, 0),
        (&medium, &["--time-ms", "1"][..], 64, 1),
        (&large, &["--time-ms", "1"][..], 256, 1),
        (&small, &["--tt-mb", "8"][..], 8, 0),
    ] {
        let p = path.to_str().unwrap();
        let out = tessera(&[&["solve", "othello", "--obf", p, "--json"][..], extra].concat());
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        assert_eq!(json(&out)["tt_mb"], want, "{p} {extra:?}");
    }
    let _ = std::fs::remove_file(&small);
    let _ = std::fs::remove_file(&large);
    let _ = std::fs::remove_file(&medium);
}

/// A byte-order mark before line 1 is not part of the board, and a line that is not UTF-8
/// (a Latin-1 comment) is that line's error: the batch still solves the others.
#[test]
fn a_byte_order_mark_is_skipped_and_a_non_utf8_line_is_its_own_error() {
    let good = format!("{}; H8:+64", one_empty());
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(good.as_bytes());
    bytes.extend_from_slice(b"\n% caf\xE9 (Latin-1)\n");
    bytes.extend_from_slice(good.as_bytes());
    bytes.push(b'\n');
    let path = std::env::temp_dir().join(format!("tessera-obf-{}-bom.obf", std::process::id()));
    std::fs::write(&path, &bytes).expect("temp file written");
    let out = tessera(&[
        "solve",
        "othello",
        "--obf",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let v = json(&out);
    let probs = v["problems"].as_array().unwrap();
    assert_eq!(probs.len(), 3, "{v}");
    assert_eq!(
        (probs[0]["line"].clone(), probs[0]["score"].clone()),
        (1.into(), 64.into())
    );
    assert_eq!(probs[1]["line"], 2);
    assert!(
        probs[1]["error"].as_str().unwrap().contains("not UTF-8"),
        "{}",
        probs[1]
    );
    assert_eq!(probs[2]["score"], 64);
    std::fs::remove_file(path).ok();
}

/// Each problem gets a fresh table inside the batch's budget: after a 1-empty problem a
/// large table is not cleared page by page before the next (2 GiB once took 20 system
/// CPU-s, outside `--time-ms`), so FFO #40 still fits a generous budget.
#[test]
fn a_large_table_is_not_cleared_between_problems() {
    let lines = vec![
        format!("{}; H8:+64", one_empty()),
        format!("{FFO40}; A2:+38;"),
    ];
    let path = obf_file("fresh.obf", &lines);
    let p = path.to_str().unwrap();
    let out = tessera(&["solve", "othello", "--obf", p, "--tt-mb", "1024", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    assert_eq!(v["problems"][1]["score"], 38);
    // Wall time of the batch against the solves' own time: no hidden clearing pass (a
    // clear of 1 GiB writes every page: seconds on this class of machine).
    let wall = v["totals"]["wall_seconds"].as_f64().unwrap();
    let solving = v["totals"]["seconds"].as_f64().unwrap();
    assert!(
        wall < solving + 1.0,
        "batch wall {wall} s against {solving} s of solving"
    );
    std::fs::remove_file(path).ok();
}

/// A binary file given as `--obf` is one error line naming the file (it printed one error
/// per line before), and so is a text file none of whose lines is a problem.
#[test]
fn a_binary_or_foreign_file_is_one_error_line() {
    let dir = std::env::temp_dir();
    let binary = dir.join(format!("tessera-obf-{}-binary.obf", std::process::id()));
    // Every byte value ten times over, as in a weights file or an image.
    let bytes: Vec<u8> = (0..2560).map(|i| (i % 256) as u8).collect();
    std::fs::write(&binary, bytes).unwrap();
    let out = tessera(&["solve", "othello", "--obf", binary.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "error: OBF file {} is not a text OBF file",
            binary.display()
        )) && err.contains("NUL"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let foreign = dir.join(format!("tessera-obf-{}-foreign.obf", std::process::id()));
    std::fs::write(&foreign, "hello\nworld\nthree lines\n").unwrap();
    let out = tessera(&["solve", "othello", "--obf", foreign.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("holds no problem that parses: line 1: ")
            && err.contains("3 of its 3 lines fail"),
        "{err}"
    );
    std::fs::remove_file(binary).ok();
    std::fs::remove_file(foreign).ok();
}
