//! `tessera quixo-tier`: the one-blank tier table's files refused with one line and exit 2
//! (missing, foreign, truncated, corrupt, unfinished), and a bad chunk number. The tables
//! themselves are checked by the library tests (`games::quixo::one_blank`, `tier_rounds`,
//! `tier_build`, `tier_file`).

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::common::refused;

fn tessera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .output()
        .expect("run tessera")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-it-quixo-tier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A well-formed tier file of `codes` (the layout of `tier_file`), round `round`.
fn tier_bytes(round: u32, total: u64, codes: &[u8]) -> Vec<u8> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in codes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut b = b"tessera-qx-tier\n".to_vec();
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&[4, 1, 0, 0]);
    b.extend_from_slice(&round.to_le_bytes());
    b.extend_from_slice(&total.to_le_bytes());
    b.extend_from_slice(&0u64.to_le_bytes());
    b.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    b.extend_from_slice(&h.to_le_bytes());
    b.extend_from_slice(codes);
    b
}

#[test]
fn bad_tier_files_are_refused_in_one_line() {
    let missing = temp("missing.qxt");
    refused(
        &tessera(&["quixo-tier", "stats", missing.to_str().unwrap()]),
        &["missing.qxt"],
    );
    // A device is refused by its kind, never read into memory.
    refused(
        &tessera(&["quixo-tier", "stats", "/dev/zero"]),
        &["not a regular file"],
    );
    refused(
        &tessera(&["accuracy", "quixo", "/dev/zero"]),
        &["not a regular file"],
    );
    let foreign = temp("notes.qxt");
    std::fs::write(&foreign, "some notes\n").unwrap();
    refused(
        &tessera(&["quixo-tier", "stats", foreign.to_str().unwrap()]),
        &["bad magic"],
    );
    let good = tier_bytes(u32::MAX, 3, &[1, 0, 255]);
    let cut = temp("cut.qxt");
    std::fs::write(&cut, &good[..good.len() - 1]).unwrap();
    refused(
        &tessera(&["quixo-tier", "stats", cut.to_str().unwrap()]),
        &["wrong length"],
    );
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() = 3;
    let corrupt = temp("corrupt.qxt");
    std::fs::write(&corrupt, &flipped).unwrap();
    refused(
        &tessera(&["quixo-tier", "stats", corrupt.to_str().unwrap()]),
        &["checksum mismatch"],
    );
    // A round's table is not a finished one; a finished one of the wrong size is refused too.
    let round = temp("round.qxt");
    std::fs::write(&round, tier_bytes(3, 3, &[1, 0, 254])).unwrap();
    refused(
        &tessera(&["quixo-tier", "stats", round.to_str().unwrap()]),
        &["not a finished one-blank tier table (round 3"],
    );
    let small = temp("small.qxt");
    std::fs::write(&small, &good).unwrap();
    refused(
        &tessera(&["quixo-tier", "stats", small.to_str().unwrap()]),
        &["the number of codes is not the 4x4 one-blank tier's"],
    );
    // A chunk number out of range, a chunk with no previous round.
    let dir = temp("rounds");
    let d = dir.to_str().unwrap();
    refused(
        &tessera(&[
            "quixo-tier",
            "chunk",
            "--size",
            "4",
            "--round",
            "1",
            "--chunk",
            "3/3",
            "--dir",
            d,
        ]),
        &["chunk 3 of 3"],
    );
    refused(
        &tessera(&[
            "quixo-tier",
            "chunk",
            "--size",
            "4",
            "--round",
            "1",
            "--chunk",
            "x",
            "--dir",
            d,
        ]),
        &["--chunk 'x' is not I/N"],
    );
    refused(
        &tessera(&[
            "quixo-tier",
            "merge",
            "--size",
            "4",
            "--round",
            "1",
            "--chunks",
            "2",
            "--dir",
            d,
            "--out",
            "t.qxt",
        ]),
        &["chunk 0 of 2 of round 1 is missing"],
    );
    let _ = std::fs::remove_dir_all(temp("x").parent().unwrap());
}
