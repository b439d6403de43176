//! `--engine` values that name no engine are refused with one line that says what the
//! value is: a folder (not "a file"), an empty name (not the whole preset list), a preset
//! or inline spec of a game tessera does not have (listing the games).

use std::process::Command;

/// Runs `tessera args` in `dir`; returns the exit code and stderr, trimmed.
fn tessera_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).trim().to_string(),
    )
}

/// A one-line error with exit code 2 equal to `expected`.
fn refused_with(dir: &std::path::Path, engine: &str, expected: &str) {
    let (code, err) = tessera_in(dir, &["bestmove", "othello", "--engine", engine]);
    assert_eq!(code, Some(2), "--engine {engine:?}: {err}");
    assert_eq!(err.lines().count(), 1, "--engine {engine:?}: {err}");
    assert_eq!(err, expected, "--engine {engine:?}");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_folder_given_as_an_engine_is_called_a_folder() {
    let dir = scratch("engine-folder");
    std::fs::create_dir_all(dir.join("engines")).unwrap();
    std::fs::create_dir_all(dir.join("presets.toml")).unwrap();
    let hint = "(give a preset name (`tessera engines` lists them), a path ending in .toml, \
                or an inline spec such as name=a,depth=6)";
    for name in ["engines", "engines/", "./engines", "presets.toml"] {
        refused_with(
            &dir,
            name,
            &format!("error: --engine: engine '{name}' is a folder, not a preset {hint}"),
        );
    }
    // A file that is no preset is still called a file.
    std::fs::write(dir.join("notes.txt"), "hello\n").unwrap();
    refused_with(
        &dir,
        "notes.txt",
        "error: --engine: engine 'notes.txt' is a file but not a .toml preset (give a preset \
         name, a path ending in .toml, or an inline spec such as name=a,depth=6)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_engine_name_is_called_empty() {
    let dir = std::env::temp_dir();
    for name in ["", "  "] {
        refused_with(
            &dir,
            name,
            "error: --engine: the engine name is empty (`tessera engines` lists the presets)",
        );
    }
}

#[test]
fn an_engine_of_an_unknown_game_lists_the_games() {
    let dir = scratch("engine-game");
    let games = "(games: othello, quixo, quixo-4p, talat, talat-2p)";
    refused_with(
        &dir,
        "name=a,game=chess",
        &format!("error: --engine name=a,game=chess: unknown game 'chess' {games}"),
    );
    std::fs::write(dir.join("chess.toml"), "name = \"a\"\ngame = \"chess\"\n").unwrap();
    refused_with(
        &dir,
        "chess.toml",
        &format!("error: --engine chess.toml: unknown game 'chess' {games}"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
