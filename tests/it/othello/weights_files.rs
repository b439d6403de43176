//! Damaged Othello pattern weights files given to an engine (`--weights`): each is refused
//! with one line naming the file and the honest cause, exit code 2 (the shipped files in
//! `tuning/`, cut or extended the way a bad copy or a hand edit would).

use std::path::{Path, PathBuf};

use tessera::games::othello::eval::Eval;

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-wfiles-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn shipped(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tuning")
            .join(name),
    )
    .unwrap()
}

/// `bestmove othello --weights FILE` fails with exit code 2 and one line holding the file's
/// name and every one of `what`; the library's [`Eval::load`] gives the same message.
fn refused(file: &Path, what: &[&str]) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["bestmove", "othello", "--depth", "1", "--weights"])
        .arg(file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{}: {err}", file.display());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&*file.display().to_string()), "{err}");
    for w in what {
        assert!(err.contains(w), "expected '{w}' in: {err}");
    }
    let lib = Eval::load(file).unwrap_err();
    assert!(err.contains(&lib), "library: {lib}\ncommand: {err}");
}

/// The index just after the `end` line that closes a weights file's header.
fn after_end(bytes: &[u8]) -> usize {
    bytes.windows(5).position(|w| w == b"\nend\n").unwrap() + 5
}

/// A format-2 file is a header and one zlib stream: bytes after the stream (a second file
/// appended, junk from a bad transfer) are refused, counted, instead of ignored.
#[test]
fn bytes_after_the_compressed_weights_are_refused() {
    let dir = folder("trailing");
    let good = shipped("othello-patterns2.bin");
    let mut junk = good.clone();
    junk.extend_from_slice(b"junk");
    let junk_file = dir.join("junk.bin");
    std::fs::write(&junk_file, &junk).unwrap();
    refused(
        &junk_file,
        &["4 bytes after the end of the compressed weights"],
    );
    // Two copies of the file joined: the second is all trailing bytes.
    let twice = dir.join("twice.bin");
    std::fs::write(&twice, [&good[..], &good[..]].concat()).unwrap();
    refused(
        &twice,
        &[&format!(
            "{} bytes after the end of the compressed weights",
            good.len()
        )],
    );
    // The shipped file itself ends where its stream does.
    let exact = dir.join("exact.bin");
    std::fs::write(&exact, &good).unwrap();
    assert!(Eval::load(&exact).unwrap().patterns2().is_some());
    std::fs::remove_dir_all(&dir).ok();
}

/// Without its `end` line the header runs into the weights: the message says the `end` line
/// is missing (naming the line where the weights start), for both formats, not that some
/// header line is not UTF-8.
#[test]
fn a_missing_end_line_is_named() {
    let dir = folder("noend");
    for name in ["othello-patterns.bin", "othello-patterns2.bin"] {
        let good = shipped(name);
        let end = after_end(&good);
        let header_lines = good[..end].iter().filter(|&&b| b == b'\n').count();
        let cut = dir.join(name);
        std::fs::write(&cut, [&good[..end - 4], &good[end..]].concat()).unwrap();
        // The weights start on the line that was after `end`, now one line earlier.
        refused(&cut, &["no 'end' line", &format!("line {header_lines} ")]);
        // A typo in `end` names the line and its text.
        let typo = dir.join(format!("typo-{name}"));
        std::fs::write(&typo, [&good[..end - 4], b"ned\n", &good[end..]].concat()).unwrap();
        refused(
            &typo,
            &["no 'end' line", &format!("line {header_lines} 'ned'")],
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A pattern file whose first line was overwritten is neither a pattern file nor a text
/// weights file: the message says both, with the magic lines this build reads.
#[test]
fn a_broken_magic_line_says_it_is_not_a_pattern_file() {
    let dir = folder("magic");
    for name in ["othello-patterns.bin", "othello-patterns2.bin"] {
        let good = shipped(name);
        let nl = good.iter().position(|&b| b == b'\n').unwrap();
        for (tag, first) in [
            ("x", &b"XXXXXXXXXXXXXXXXXXXXXXXXXX"[..]),
            ("bin", b"\x00\x13\xfe"),
        ] {
            let bad = dir.join(format!("{tag}-{name}"));
            std::fs::write(&bad, [first, &good[nl..]].concat()).unwrap();
            refused(
                &bad,
                &[
                    "not a tessera Othello pattern file",
                    "'tessera-othello-patterns 1'",
                    "'tessera-othello-patterns 2'",
                ],
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
