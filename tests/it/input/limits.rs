//! Values that used to be accepted although they mean nothing or never end are
//! refused with one line and exit code 2: a clock `--tc 1:75` (75 is not a seconds field),
//! `perft --depth 1000` (perft, like the searches, stops at 60 plies), and `solve quixo
//! --table DIR` for a position the full-board table cannot serve.

use std::process::Command;

fn tessera(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .unwrap()
}

/// A one-line error with exit code 2 that contains `what`.
fn refused(args: &[&str], what: &str) {
    let o = tessera(args);
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: expected '{what}' in {err}");
}

#[test]
fn a_clock_with_60_or_more_in_a_seconds_field_is_refused() {
    let dir = std::env::temp_dir().join(format!("tessera-limits-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    let engines = [
        "tournament",
        "othello",
        "--engines",
        "othello-ab-d1,othello-ab-d2",
    ];
    for tc in ["1:75", "1:60", "1:60:00", "0:5:60"] {
        refused(
            &[&engines[..], &["--tc", tc, "--out", out]].concat(),
            "must be less than 60",
        );
    }
    assert!(!dir.exists(), "a refused tournament wrote {out}");
    // 1:59.5 is a valid m:ss clock: 119.5 s.
    let o = tessera(
        &[
            &engines[..],
            &[
                "--tc",
                "1:59.5",
                "--rounds",
                "1",
                "--no-progress",
                "--out",
                out,
            ],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let settings = std::fs::read_to_string(dir.join("tournament.json")).unwrap();
    assert!(settings.contains("\"tc\": \"119.5\""), "{settings}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perft_stops_at_60_plies_as_the_searches_do() {
    refused(&["perft", "othello", "--depth", "1000"], "1..=60");
    refused(&["perft", "quixo", "--depth", "61"], "1..=60");
    let o = tessera(&["perft", "othello", "--depth", "2", "--json"]);
    assert!(o.status.success());
}

#[test]
fn a_table_that_the_position_does_not_use_is_refused() {
    let dir = std::env::temp_dir();
    let table = dir.to_str().unwrap();
    // 25 blank squares, at most 9 plies: the full-board table is out of reach.
    refused(
        &["solve", "quixo", "--table", table, "--moves", ""],
        "--table is not used",
    );
    // A finished game needs no table either.
    refused(
        &[
            "solve",
            "quixo",
            "--table",
            table,
            "--position",
            "XXXXX/...../...../...../..... O",
        ],
        "--table is not used",
    );
}

/// `solve quixo --size` (the library's `SolveSettings` checks, which the command line only
/// passes on) refuses the proving search's settings and a position beside it.
#[test]
fn a_whole_board_size_takes_no_setting_of_the_proving_search() {
    refused(
        &["solve", "quixo", "--size", "3", "--time-ms", "5"],
        "--time-ms limits the proving search of a position; --size always solves",
    );
    refused(
        &["solve", "quixo", "--size", "3", "--tt-mb", "8"],
        "--max-plies, --prover and --tt-mb are for the proving search",
    );
    refused(
        &["solve", "quixo", "--size", "3", "--moves", ""],
        "give either --size (solve a whole board size) or a position, not both",
    );
    refused(
        &["solve", "quixo"],
        "solve quixo needs --size 3|4 or a position",
    );
}
