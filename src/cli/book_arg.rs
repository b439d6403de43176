//! The `--book FILE|none` option shared by bestmove, play, gtp and nboard (its own file, so
//! `cli/othello.rs` and `cli/book.rs` do not import each other).

use std::path::Path;
use std::sync::Arc;

use tessera::engine::book::Book;

use super::output::CliError;

/// The book `--book` names: `none`, a file, or (no flag) the built-in one.
///
/// # Errors
/// An unreadable or malformed file.
pub fn book_arg(arg: Option<&str>) -> Result<Option<Arc<Book>>, CliError> {
    match arg {
        None | Some("builtin") => Ok(Some(Book::builtin())),
        Some("none") => Ok(None),
        Some(path) => Book::load(Path::new(path))
            .map(|b| Some(Arc::new(b)))
            .map_err(CliError::input),
    }
}
