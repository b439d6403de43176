//! The 5x5 full-board table file: a valid file is loaded and trusted, anything else
//! (corrupt, foreign, another version, truncated, impossible codes) is refused with the
//! reason, and `solve quixo` rebuilds it, saves it, reloads it, and falls back to memory
//! with a warning when it cannot be written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tessera::games::quixo::geometry::geometry_of;
use tessera::games::quixo::retro::DRAW;
use tessera::games::quixo::table_file::{
    ENTRIES, FORMAT_VERSION, MAGIC, TableFileError, fnv1a64, load_table, read_table, save_table,
    write_table,
};

/// The example: a full board, X to move wins in 3 plies (a push that leaves O
/// no move that avoids giving X a line); the proving search finds the same without the
/// table (`solve_without_a_buildable_table_still_proves_by_search`).
const WIN_IN_3: &str = "XOOOO/OXXOX/OXXXX/XXXOO/XOOOO X";

/// A well-formed table that is not the solved one: the rules' codes on boards with a
/// line (won or lost in 0), draws elsewhere. Enough to test the file format cheaply.
fn synthetic_codes() -> Vec<u8> {
    let g = geometry_of(5);
    (0..ENTRIES as u32)
        .map(|me| {
            if g.has_line(me) {
                1
            } else if g.has_line(g.full & !me) {
                0
            } else {
                DRAW
            }
        })
        .collect()
}

fn file_bytes(version: u32, codes: &[u8]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend_from_slice(&version.to_le_bytes());
    b.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    b.extend_from_slice(&fnv1a64(codes).to_le_bytes());
    b.extend_from_slice(codes);
    b
}

#[test]
fn a_valid_file_round_trips_and_every_defect_is_named() {
    let codes = synthetic_codes();
    let good = file_bytes(FORMAT_VERSION, &codes);
    let table = read_table(&mut good.as_slice()).expect("a valid file loads");
    assert_eq!(table.codes(), codes.as_slice());
    let mut again = Vec::new();
    write_table(&table, &mut again).unwrap();
    assert_eq!(
        again, good,
        "write_table writes the layout read_table reads"
    );

    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 0x40;
    assert!(matches!(
        read_table(&mut flipped.as_slice()),
        Err(TableFileError::Checksum)
    ));

    let mut foreign = good.clone();
    foreign[..4].copy_from_slice(b"\x7fELF");
    assert!(matches!(
        read_table(&mut foreign.as_slice()),
        Err(TableFileError::Foreign)
    ));
    assert!(matches!(
        read_table(&mut &b"hello"[..]),
        Err(TableFileError::Foreign)
    ));

    let old = file_bytes(FORMAT_VERSION + 1, &codes);
    assert!(matches!(
        read_table(&mut old.as_slice()),
        Err(TableFileError::Version(v)) if v == FORMAT_VERSION + 1
    ));

    let short = &good[..good.len() - 1];
    assert!(matches!(
        read_table(&mut &short[..]),
        Err(TableFileError::Length { .. })
    ));
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        read_table(&mut long.as_slice()),
        Err(TableFileError::Length { .. })
    ));

    // A consistent checksum over impossible codes: board 0 (the other side holds all 25
    // cells, so it has a line) must be lost in 0, and 254 is the solver's "unknown".
    let g = geometry_of(5);
    let mut bad = codes.clone();
    bad[0] = 1;
    assert!(matches!(
        read_table(&mut file_bytes(FORMAT_VERSION, &bad).as_slice()),
        Err(TableFileError::BadCode(0))
    ));
    let mut bad = codes;
    let open = (0..ENTRIES as u32)
        .find(|&me| !g.has_line(me) && !g.has_line(g.full & !me))
        .unwrap();
    bad[open as usize] = 254;
    assert!(matches!(
        read_table(&mut file_bytes(FORMAT_VERSION, &bad).as_slice()),
        Err(TableFileError::BadCode(i)) if i == open
    ));
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-qtable-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `tessera solve quixo --position WIN_IN_3 --json EXTRA...` with the cache under
/// `cache`.
fn solve(cache: &Path, extra: &[&str]) -> (Output, Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["solve", "quixo", "--position", WIN_IN_3, "--json"])
        .args(extra)
        .env("XDG_CACHE_HOME", cache)
        .output()
        .expect("tessera runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout {:?}, stderr {stderr}", out.stdout));
    (out, v, stderr)
}

fn assert_win_in_3(v: &Value) {
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["plies"], 3, "{v}");
}

#[test]
fn solve_without_a_buildable_table_still_proves_by_search() {
    // --time-ms under a minute forbids building; a foreign file in the cache location is
    // reported and not used.
    let cache = scratch("foreign");
    let path = cache
        .join("tessera")
        .join(format!("quixo-full5-v{FORMAT_VERSION}.bin"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"#!/bin/sh\necho not a table\n").unwrap();
    let (out, v, stderr) = solve(&cache, &["--time-ms", "30000"]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("not a tessera Quixo full-board table") && stderr.contains("not used"),
        "{stderr}"
    );
    // Not building is said, not silent.
    assert!(
        stderr.contains("does not build") && stderr.contains("search alone"),
        "{stderr}"
    );
    assert_eq!(v["table"], Value::Null);
    assert_win_in_3(&v);
    // An empty file is called that (it fails the magic check too).
    std::fs::write(&path, b"").unwrap();
    let (out, _, stderr) = solve(&cache, &["--time-ms", "30000"]);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("empty file; not used"), "{stderr}");
    // The help names the default file of this format version.
    let help = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["solve", "--help"])
        .output()
        .expect("tessera runs");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(&format!("quixo-full5-v{FORMAT_VERSION}.bin")),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// `solve quixo` of the win in 3 with `--table table`: asserts the refusal (exit 2, one
/// line) and returns stderr.
fn refused_table(cache: &Path, table: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["solve", "quixo", "--position", WIN_IN_3, "--table"])
        .arg(table)
        .env("XDG_CACHE_HOME", cache)
        .output()
        .expect("tessera runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn a_table_file_the_user_names_is_never_overwritten_unless_it_is_ours() {
    // `--table FILE` naming a document (a typo) or a table of a newer format: one error
    // line, exit 2, the file untouched, and no table built (building is allowed here).
    let cache = scratch("named");
    let doc = cache.join("notes.md");
    std::fs::write(&doc, b"# my notes\n").unwrap();
    let mut newer = MAGIC.to_vec();
    newer.extend_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    newer.extend_from_slice(&[0u8; 16]);
    let newer_file = cache.join("newer.bin");
    std::fs::write(&newer_file, &newer).unwrap();
    for (file, content, why) in [
        (
            &doc,
            b"# my notes\n".to_vec(),
            "not a tessera Quixo full-board table",
        ),
        (&newer_file, newer.clone(), "version"),
    ] {
        let stderr = refused_table(&cache, file);
        assert!(
            stderr.starts_with("error: --table")
                && stderr.contains(why)
                && stderr.contains("refusing to overwrite"),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read(file).unwrap(),
            content,
            "{} changed",
            file.display()
        );
    }
    // A directory is not a table file: refused before any build.
    let stderr = refused_table(&cache, &cache);
    assert!(stderr.contains("is a directory"), "{stderr}");
    assert!(!stderr.contains("building"), "{stderr}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// A FIFO (or device) is never opened as a table, which would block, nor replaced: named by
/// `--table` it is refused; at the cache's own name it is left alone. A symbolic link at the
/// cache's own name to someone else's file is not written through.
#[cfg(unix)]
#[test]
fn special_files_and_a_cache_link_to_a_document_are_left_alone() {
    let cache = scratch("special");
    let fifo = cache.join("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let stderr = refused_table(&cache, &fifo);
    assert!(stderr.contains("not a regular file"), "{stderr}");
    let own = cache
        .join("tessera")
        .join(format!("quixo-full5-v{FORMAT_VERSION}.bin"));
    std::fs::create_dir_all(own.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&fifo, &own).unwrap();
    let (out, v, stderr) = solve(&cache, &["--time-ms", "30000"]);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    assert_win_in_3(&v);
    std::fs::remove_file(&own).unwrap();
    let doc = cache.join("doc.md");
    std::fs::write(&doc, b"# precious\n").unwrap();
    std::os::unix::fs::symlink(&doc, &own).unwrap();
    let (out, v, stderr) = solve(&cache, &["--time-ms", "30000"]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("symbolic link") && stderr.contains("not overwritten"),
        "{stderr}"
    );
    assert_win_in_3(&v);
    assert_eq!(std::fs::read(&doc).unwrap(), b"# precious\n");
    let _ = std::fs::remove_dir_all(&cache);
}

/// Saving through a symbolic link replaces the file the link points to and keeps the link
/// (renaming over the link would leave a stale table behind it).
#[cfg(unix)]
#[test]
fn saving_through_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = scratch("symlink");
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("old.bin");
    std::fs::write(&target, file_bytes(0, &[1, 2, 3])).unwrap();
    let link = dir.join("link.bin");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let table = read_table(&mut file_bytes(FORMAT_VERSION, &synthetic_codes()).as_slice())
        .expect("a valid table");
    save_table(&table, &link).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(load_table(&target).unwrap().codes(), table.codes());
    assert_eq!(load_table(&link).unwrap().codes(), table.codes());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "builds the 2^25-board table twice: about a minute of CPU"]
fn a_corrupt_cache_is_rebuilt_then_loaded_and_an_unwritable_one_falls_back_to_memory() {
    let cache = scratch("cache");
    let path = cache
        .join("tessera")
        .join(format!("quixo-full5-v{FORMAT_VERSION}.bin"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut corrupt = file_bytes(FORMAT_VERSION, &synthetic_codes());
    corrupt[1000] ^= 1;
    std::fs::write(&path, &corrupt).unwrap();

    let (out, v, stderr) = solve(&cache, &[]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("checksum mismatch") && stderr.contains("rebuilding"),
        "{stderr}"
    );
    assert!(
        stderr.contains("building the 5x5 full-board table"),
        "{stderr}"
    );
    assert!(stderr.contains("; saved to"), "{stderr}");
    assert_eq!(v["table"]["source"], "built", "{v}");
    assert_eq!(v["table"]["file"], path.to_str().unwrap());
    assert_win_in_3(&v);
    assert_eq!(v["move"], "e2-a2");
    // The rebuilt file is valid and is now loaded, not rebuilt.
    let (out, v2, stderr) = solve(&cache, &[]);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("building"), "{stderr}");
    assert_eq!(v2["table"]["source"], "loaded", "{v2}");
    assert_eq!(
        (&v2["value"], &v2["plies"], &v2["move"]),
        (&v["value"], &v["plies"], &v["move"])
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len() as u64, 36 + ENTRIES);

    // A table path under a regular file cannot be created (whatever the user's rights):
    // the table is built, used from memory, and the user is warned.
    let blocker = cache.join("a-file");
    std::fs::write(&blocker, b"x").unwrap();
    let unwritable = blocker.join("t.bin");
    let (out, v, stderr) = solve(&cache, &["--table", unwritable.to_str().unwrap()]);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("cannot write the full-board table") && stderr.contains("memory"),
        "{stderr}"
    );
    // Nothing claims a save that did not happen.
    assert!(!stderr.contains("saved to"), "{stderr}");
    assert_eq!(v["table"]["source"], "memory", "{v}");
    assert_win_in_3(&v);
    let _ = std::fs::remove_dir_all(&cache);
}
