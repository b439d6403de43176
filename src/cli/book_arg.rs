//! The `--book builtin|FILE|none` option shared by bestmove, play, gtp and nboard (its own
//! file, so `cli/othello.rs` and `cli/book.rs` do not import each other).

use std::path::Path;
use std::sync::Arc;

use tessera::engine::book::Book;

use super::output::CliError;

/// The book `--book` names: `builtin` (the book compiled in), a file, or `none`. With no
/// flag: none (`bestmove` and `play` search unless asked; see [`playing_book_arg`]).
///
/// # Errors
/// An empty value, or an unreadable or malformed file.
pub fn book_arg(arg: Option<&str>) -> Result<Option<Arc<Book>>, CliError> {
    match arg {
        Some("builtin") => Ok(Some(Book::builtin())),
        None | Some("none") => Ok(None),
        Some("") => refuse_empty(arg).map(|()| None),
        Some(path) => Book::load(Path::new(path))
            .map(|b| Some(Arc::new(b)))
            .map_err(CliError::input),
    }
}

/// [`book_arg`] for `nboard`, which plays games for a GUI: with no flag, the built-in book
/// (`gtp` has the same default through its engine spec's `book`). Measured:
/// `othello-best-t100` through `gtp` with the built-in book against itself without, +79.5 ±
/// 46.3 Elo in 200 games (docs/book.md).
///
/// # Errors
/// As [`book_arg`].
pub fn playing_book_arg(arg: Option<&str>) -> Result<Option<Arc<Book>>, CliError> {
    book_arg(Some(arg.unwrap_or("builtin")))
}

/// Refuses `--book ""`, which would be read as a file named "" (every command that takes
/// `--book` says it the same way).
///
/// # Errors
/// An empty value.
pub fn refuse_empty(arg: Option<&str>) -> Result<(), CliError> {
    match arg {
        Some("") => Err(CliError::input(
            "--book is empty: give builtin, none or a book file",
        )),
        _ => Ok(()),
    }
}
