//! The one reader of a tournament folder (`DIR/tournament.json` and `DIR/games.jsonl`):
//! the settings, and every record checked against them ([`super::validate`], exact
//! adjudications re-solved). `tournament report`, `export`, `merge`, the HTML page and the
//! web page's Watch tab all read folders through [`read`], so no reader accepts a record
//! another refuses; a resume checks the same way before it plays.

use std::path::Path;

use super::record::{self, GameRecord};
use super::settings::Settings;
use crate::game::Game;
use crate::games::GameId;

/// A tournament folder's settings and checked records.
#[derive(Clone, Debug)]
pub struct Folder {
    /// The settings (`tournament.json`).
    pub settings: Settings,
    /// The game of the tournament.
    pub game: GameId,
    /// The records in file order, each checked.
    pub records: Vec<GameRecord>,
    /// A note for people when the last line of `games.jsonl` is cut short (a run stopped
    /// while writing it: that line is not counted), or the openings file is missing or
    /// changed (the records were checked against each other: see
    /// [`super::validate::check_records`]).
    pub note: Option<String>,
}

/// Reads and checks the folder `dir`.
///
/// # Errors
/// One line: a file in place of the folder (naming what a tournament's own files are and
/// the folder to give), no `tournament.json` (not a tournament folder), a settings file that is too
/// large, not JSON or names an unknown game, an unreadable records file, or the first
/// record that does not follow from the settings and the rules (`FILE:LINE: game ID: ...`).
pub fn read(dir: &Path) -> Result<Folder, String> {
    if dir.is_file() {
        return Err(not_a_folder(dir));
    }
    let path = dir.join("tournament.json");
    if !path.is_file() {
        return Err(format!(
            "{} is not a tournament directory (no {})",
            dir.display(),
            path.display()
        ));
    }
    let text = crate::game::files::read_text(
        &path,
        "tournament settings file",
        super::runner::MAX_SETTINGS_FILE,
    )?;
    let settings: Settings = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a tournament settings file: {e}", path.display()))?;
    let game: GameId = settings.game.parse().map_err(|_| {
        format!(
            "{} names an unknown game '{}'",
            path.display(),
            crate::game::shown(&settings.game)
        )
    })?;
    let records_path = dir.join("games.jsonl");
    let loaded = record::load_numbered(&records_path)?;
    let torn = loaded.note(&records_path);
    let openings = crate::for_game!(game, check(&settings, &records_path, &loaded.records))?;
    let note = match (torn, openings) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    };
    Ok(Folder {
        settings,
        game,
        records: loaded.records.into_iter().map(|(_, r)| r).collect(),
        note,
    })
}

/// Every record checked against `settings`, exact adjudications re-solved with the game's
/// solver.
fn check<G: Game + 'static>(
    settings: &Settings,
    path: &Path,
    records: &[(usize, GameRecord)],
) -> Result<Option<String>, String> {
    let exact = super::adjudicate::exact_solver::<G>();
    super::validate::check_records::<G>(settings, path, records, exact.as_ref())
}

/// The message for a file given where a tournament folder is expected: what the file is
/// when it is one of a tournament's own files (then its folder is the one to give).
fn not_a_folder(file: &Path) -> String {
    let what = match file.file_name().and_then(|f| f.to_str()) {
        Some("tournament.json") => "the settings file of a tournament",
        Some("games.jsonl") => "the records file of a tournament",
        Some("report.json") => "the report of a tournament",
        _ => {
            return format!(
                "{} is a file, not a tournament folder (give the folder holding \
                 tournament.json and games.jsonl)",
                file.display()
            );
        }
    };
    let folder = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    format!(
        "{} is {what}, not its folder: give the folder, {}",
        file.display(),
        folder.display()
    )
}

#[cfg(test)]
mod tests {
    use super::read;

    /// A tournament's own file given for its folder is named for what it is, with the
    /// folder to give; any other file is called a file.
    #[test]
    fn a_file_in_place_of_the_folder_is_named() {
        let dir = std::env::temp_dir().join(format!("tessera-folder-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = |name: &str| {
            let path = dir.join(name);
            std::fs::write(&path, "{}\n").unwrap();
            read(&path).err().unwrap()
        };
        let d = dir.display();
        assert_eq!(
            err("tournament.json"),
            format!(
                "{d}/tournament.json is the settings file of a tournament, not its folder: give \
                 the folder, {d}"
            )
        );
        assert_eq!(
            err("games.jsonl"),
            format!(
                "{d}/games.jsonl is the records file of a tournament, not its folder: give the \
                 folder, {d}"
            )
        );
        assert!(err("report.json").contains("is the report of a tournament, not its folder"));
        assert_eq!(
            err("notes.txt"),
            format!(
                "{d}/notes.txt is a file, not a tournament folder (give the folder holding \
                 tournament.json and games.jsonl)"
            )
        );
        // A bare file name: its folder is the working directory.
        assert!(
            super::not_a_folder(std::path::Path::new("tournament.json"))
                .ends_with("not its folder: give the folder, .")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
