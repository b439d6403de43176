//! The `--book builtin|FILE|none` option shared by bestmove, play, gtp and nboard (its own
//! file, so `cli/othello.rs` and `cli/book.rs` do not import each other).

use std::path::Path;
use std::sync::Arc;

use tessera::engine::book::Book;

use super::output::CliError;

/// The book `--book` names: `builtin` (the book compiled in), a file, or `none`. With no
/// flag: none. The built-in book did not gain strength in self-play at 100 ms/move
/// (docs/book.md), so searching is the default.
///
/// # Errors
/// An unreadable or malformed file.
pub fn book_arg(arg: Option<&str>) -> Result<Option<Arc<Book>>, CliError> {
    match arg {
        Some("builtin") => Ok(Some(Book::builtin())),
        None | Some("none") => Ok(None),
        Some(path) => Book::load(Path::new(path))
            .map(|b| Some(Arc::new(b)))
            .map_err(CliError::input),
    }
}
