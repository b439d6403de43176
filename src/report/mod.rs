//! Self-contained HTML pages: `tournament report DIR --html FILE` and `fairness ... --html
//! FILE`. One static file, no network: CSS, SVG charts and the game viewer's script are
//! inline, and the games' positions (replayed from the records with the rules code) are
//! embedded as JSON, so the script only draws.
//!
//! Every number a table shows carries `data-key` (its path in the report JSON, e.g.
//! `ratings.0.elo`) and `data-value` (the full-precision value), so a test can compare the
//! page with `report.json`.
//!
//! - [`tournament_page`](fn@tournament_page): a tournament folder's page, from the typed
//!   [`Report`](crate::tournament::report::Report);
//! - [`fairness_page`](fn@fairness_page): a fairness run's page, from its
//!   [`Summary`](crate::tournament::fairness::Summary);
//! - `cells`, `charts`: table cells carrying their JSON key and value, and the SVG charts;
//! - [`replay`](fn@replay) and `move_times`: the games for the viewer, the time per move.

use std::path::Path;

use serde_json::Value;

use crate::present::Present;
use crate::tournament::record::GameRecord;

mod cells;
mod charts;
mod fairness_page;
mod move_times;
mod replay;
mod tournament_page;

pub use crate::tournament::seat_names::{name_seats, named_report};
pub use fairness_page::fairness_page;
pub use replay::replay;
pub use tournament_page::{folder_page, report_page, tournament_page};

const CSS: &str = include_str!("page.css");
const BOARD_JS: &str = include_str!("board.js");
const VIEWER_JS: &str = include_str!("viewer.js");

/// Why a page could not be made or written.
#[derive(Debug)]
pub enum ReportError {
    /// The records cannot be shown: a game the rules refuse, times that do not add up
    /// (the message names the game and what is wrong).
    Input(String),
    /// The page could not be written to `path`.
    Write {
        /// The page's file.
        path: std::path::PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(msg) => f.write_str(msg),
            Self::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for ReportError {}

/// Most games the viewer embeds (the first ones by id); the page says when there are more.
pub const MAX_VIEWER_GAMES: usize = 400;

/// Checks before any work that a page can be written to `path` (`--html`): not a folder,
/// not one of the files of `records` (the tournament or fairness folder the page shows:
/// an existing file under it that is not a page, such as its `games.jsonl`), its folder
/// exists, and the file opens for writing (a missing file is created and removed again,
/// so a run that fails later leaves nothing behind).
///
/// # Errors
/// [`ReportError::Input`] naming `--html`, the path and what is wrong.
pub fn check_target(path: &Path, records: Option<&Path>) -> Result<(), ReportError> {
    let bad = |why: String| {
        Err(ReportError::Input(format!(
            "--html {}: {why}",
            path.display()
        )))
    };
    if path.is_dir() {
        return bad(format!(
            "is a folder; give a file name, e.g. {}",
            path.join("report.html").display()
        ));
    }
    let page = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
    if let Some(dir) = records
        && !page
        && path.is_file()
        && let (Ok(file), Ok(dir)) = (path.canonicalize(), dir.canonicalize())
        && file.starts_with(&dir)
    {
        return bad(format!(
            "is a file of {}, which the page shows; give a new file name, e.g. {}",
            dir.display(),
            dir.join("report.html").display()
        ));
    }
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        return bad(format!("folder {} does not exist", parent.display()));
    }
    crate::game::files::probe_writable(path)
        .map_err(|e| ReportError::Input(format!("cannot write {}: {e}", path.display())))
}

/// Writes the page.
///
/// # Errors
/// The file cannot be written.
pub fn write_page(path: &Path, page: &str) -> Result<(), ReportError> {
    // Written beside the target and renamed over it: a link at `path` (to a record file,
    // say) is replaced by the page, never written through, and a reader never sees half
    // a page.
    let err = |error| ReportError::Write {
        path: path.to_path_buf(),
        error,
    };
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_os_string());
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(&name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    std::fs::write(&tmp, page).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e)
    })
}

/// `s` with `& < > " '` escaped for HTML text and attribute values.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: `<` written as `\u003c`, so no
/// `</script>` can end the block early (only strings can hold `<`).
fn script_json(v: &Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// The page's frame: head with CSS, the body, the games' JSON and the viewer script.
fn page(title: &str, body: &str, games: &Value) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{CSS}</style></head><body>\n<h1>{t}</h1>\n{body}\n\
         <script type=\"application/json\" id=\"games-data\">{games}</script>\n\
         <script>{BOARD_JS}</script>\n<script>{VIEWER_JS}</script>\n</body></html>\n",
        t = escape(title),
        games = script_json(games)
    )
}

/// The game viewer's markup.
fn viewer_section(shown: usize, total: usize) -> String {
    let more = if total > shown {
        format!(
            "<p class=\"note\">The viewer holds the first {shown} of {total} games (by id).</p>"
        )
    } else {
        String::new()
    };
    format!(
        "<h2 id=\"viewer-h\">Game viewer</h2>{more}\
         <div><select id=\"game-select\"></select></div>\
         <div class=\"controls\"><button id=\"first\">|&lt;</button><button id=\"prev\">&lt;</button>\
         <button id=\"next\">&gt;</button><button id=\"last\">&gt;|</button> \
         <input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\"> <span id=\"ply-info\"></span></div>\
         <div id=\"ply-counts\" class=\"note\"></div>\
         <div id=\"viewer\"><div id=\"board\"></div><div id=\"movelist\"></div></div>\
         <div id=\"shown\" hidden></div>"
    )
}

/// The viewer's data for `records` (at most [`MAX_VIEWER_GAMES`], by id; `label` prefixes
/// each title, e.g. the fairness row; `key` is what `#game=KEY` selects, unique on the
/// page): each game replayed by [`replay`] (every ply from the game's start, the opening's
/// moves first; the position, last move, legal moves and counts at each ply; the result in
/// words).
///
/// # Errors
/// A record of another game or one whose moves do not replay.
fn viewer_games<G: Present>(
    records: &[(String, String, &GameRecord)],
) -> Result<Vec<Value>, ReportError> {
    let mut out = Vec::new();
    for (label, key, r) in records.iter().take(MAX_VIEWER_GAMES) {
        let mut game = replay::<G>(r).map_err(ReportError::Input)?;
        let places: Vec<String> = r.ranks.iter().map(ToString::to_string).collect();
        game["title"] = Value::String(format!(
            "{label}#{key} {} — places {}",
            r.engines.join(" vs "),
            places.join("-")
        ));
        game["key"] = Value::String(key.clone());
        out.push(game);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_given_for_the_page_gets_a_file_name_suggested_once() {
        let dir = std::env::temp_dir().join(format!("tessera-check-target-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A trailing separator does not double in the suggestion.
        let given = format!("{}/", dir.display());
        let e = check_target(Path::new(&given), None)
            .unwrap_err()
            .to_string();
        let want = dir.join("report.html").display().to_string();
        assert!(e.contains(&format!("e.g. {want}")), "{e}");
        assert!(!e.contains("//report.html"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn escaping_and_script_json() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let v = serde_json::json!({"s": "</script><b>"});
        assert!(!script_json(&v).contains("</script"));
        assert_eq!(serde_json::from_str::<Value>(&script_json(&v)).unwrap(), v);
    }
}
