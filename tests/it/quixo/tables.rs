//! Quixo engines with `tables` (the solved tiers played from): a missing, corrupt or
//! misplaced table is one line and exit 2, naming the file and the command that builds it;
//! `auto` with no tables in the cache plays by search. The tables' moves themselves are
//! checked by the library tests (`engine::quixo_tables`) and, with the real full-board table,
//! by the ignored `full_board_table_moves_through_bestmove`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::refused;

/// A full 5x5 board won in 5 plies for X by d5-d1 alone (`quixo::solve`'s case).
const WIN_IN_5: &str = "XOOOO/OOXXX/OXXXX/XXXXO/OOOXO X";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tessera-it-quixo-tables-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tessera ARGS` with its cache folder (and home) at `cache`.
fn tessera(cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .env("HOME", cache)
        .output()
        .expect("run tessera")
}

fn bestmove(cache: &Path, engine: &str) -> Output {
    tessera(
        cache,
        &[
            "bestmove",
            "quixo",
            "--position",
            WIN_IN_5,
            "--engine",
            engine,
        ],
    )
}

#[test]
fn missing_and_bad_tables_are_refused_in_one_line() {
    let cache = scratch("missing");
    // on: the cache's full-board table is missing.
    let full = cache.join("tessera").join("quixo-full5-v1.bin");
    refused(
        &bestmove(&cache, "name=t,depth=1,tables=on"),
        &[
            "engine 't'",
            &format!("{}: no such file", full.display()),
            "tessera solve quixo --table",
        ],
    );
    // A folder: the full-board table there is not one (the tier file is there).
    let dir = cache.join("tables");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("quixo-full5-v1.bin"),
        b"#!/bin/sh\necho not a table\n",
    )
    .unwrap();
    std::fs::write(dir.join("quixo-tier1-v1.qxt"), b"tessera-qx-tier\n").unwrap();
    let engine = format!("name=t,depth=1,tables={}", dir.display());
    refused(
        &bestmove(&cache, &engine),
        &[
            "full-board table",
            "quixo-full5-v1.bin",
            "tessera solve quixo --table",
        ],
    );
    // A folder without the tier file: named before anything is read.
    std::fs::remove_file(dir.join("quixo-tier1-v1.qxt")).unwrap();
    refused(
        &bestmove(&cache, &engine),
        &[
            "one-blank tier table",
            "quixo-tier1-v1.qxt: no such file",
            "tessera quixo-tier solve --out",
        ],
    );
    // A tournament refuses it before any game, in one line too.
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "tournament",
            "quixo",
            "--engines",
            "quixo-ab-d2",
            "--engine",
        ])
        .arg("name=t,depth=1,tables=on")
        .args(["--rounds", "1", "--out"])
        .arg(cache.join("t"))
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    refused(&out, &["engine 't'", "quixo-full5-v1.bin: no such file"]);
    assert!(!cache.join("t").join("games.jsonl").exists());
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn tables_are_for_quixo_engines_and_auto_needs_none() {
    let cache = scratch("auto");
    for (game, engine, needle) in [
        ("quixo", "name=t,tables=", "tables is empty"),
        ("quixo-4p", "name=t,tables=on", "tables is for quixo"),
        ("othello", "name=t,tables=auto", "tables is for quixo"),
    ] {
        let out = tessera(
            &cache,
            &["bestmove", game, "--engine", engine, "--depth", "1"],
        );
        refused(&out, &[needle]);
    }
    // auto with an empty cache: the search plays, and no table is said to be used.
    let out = bestmove(&cache, "name=t,depth=1,tables=auto");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !text.contains("solved tier") && text.contains("best move"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
#[ignore = "builds the 5x5 full-board table (2^25 boards: seconds, ~100 MB)"]
fn full_board_table_moves_through_bestmove() {
    // `cargo test --release --test it quixo::tables:: -- --ignored`
    let cache = scratch("full");
    let table = cache.join("tessera").join("quixo-full5-v1.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["solve", "quixo", "--position", WIN_IN_5, "--table"])
        .arg(&table)
        .output()
        .unwrap();
    assert!(out.status.success() && table.is_file());
    // auto uses the full-board table alone (no tier file in the cache): the only winning
    // move, said to come from the table; a depth-1 search alone plays another move.
    let out = bestmove(&cache, "name=t,depth=1,tables=auto,weights=builtin:texel");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "info the position is in a solved tier (a full board): the table's move d5-d1"
        ) && text.contains("best move  d5-d1")
            && text.contains("forced win in 5 plies"),
        "{text}"
    );
    let out = bestmove(&cache, "name=t,depth=1,weights=builtin:texel");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("best move  d5-d1"), "{text}");
    let _ = std::fs::remove_dir_all(&cache);
}
