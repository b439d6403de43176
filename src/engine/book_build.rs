//! Growing an opening book file best-first ([`build`], `tessera book build`) and showing a
//! position's book moves ([`show_lines`], [`show_json`], `tessera book show`).

use std::path::PathBuf;
use std::time::Instant;

use super::book::Book;
use crate::games::othello::{self as oth, Position, eval::Eval};
use crate::present::score_short;

/// Why a book build stopped; `Display` gives the one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BookBuildError {
    /// The book file cannot be read or written (bad input).
    File(String),
    /// A search failed during an expansion.
    Search(String),
}

impl std::fmt::Display for BookBuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::File(m) | Self::Search(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for BookBuildError {}

/// What a build does.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// The book file, extended when it exists and written after every position.
    pub out: PathBuf,
    /// Depth of each move's analysis, plies (the move included).
    pub depth: u32,
    /// Positions to add.
    pub positions: u64,
    /// Cost of one ply of a line, centi-discs.
    pub ply_cost: i32,
    /// Deepest book position, plies from the start.
    pub max_plies: u32,
    /// Transposition table size, MiB.
    pub tt_mb: usize,
}

/// Adds up to `cfg.positions` positions to the book file `cfg.out` by best-first
/// expansion ([`Book::expand`]), writing the file after each; `say` gets the lines for
/// people (the settings, one per position added, the totals).
///
/// # Errors
/// The book cannot be read or written (checked before any search), or a search fails.
pub fn build(cfg: &BuildConfig, say: &mut dyn FnMut(String)) -> Result<(), BookBuildError> {
    let mut book = if cfg.out.exists() {
        Book::load(&cfg.out).map_err(BookBuildError::File)?
    } else {
        Book::new()
    };
    // Fail on an unwritable file before any search.
    book.save(&cfg.out).map_err(BookBuildError::File)?;
    let mut engine = super::othello::alphabeta_engine_with(
        "tessera-book",
        Eval::default_patterns(),
        cfg.tt_mb,
        oth::DEFAULT_EXACT_EMPTIES,
    );
    let started = Instant::now();
    say(format!(
        "book build: {} positions in {}, depth {}, ply cost {}, max plies {}",
        book.len(),
        cfg.out.display(),
        cfg.depth,
        cfg.ply_cost,
        cfg.max_plies
    ));
    let mut added = 0;
    while added < cfg.positions {
        let Some(pos) = book
            .expand(&mut engine, cfg.depth, cfg.ply_cost, cfg.max_plies)
            .map_err(BookBuildError::Search)?
        else {
            say("nothing left to expand within --max-plies".into());
            break;
        };
        added += 1;
        book.save(&cfg.out).map_err(BookBuildError::File)?;
        let root = book.probe(&Position::start());
        say(format!(
            "{:>6} {:>8.1} s  {} empties  start value {}  {}",
            book.len(),
            started.elapsed().as_secs_f64(),
            pos.empties(),
            root.first()
                .map_or("-".into(), |s| score_short(s.score, oth::SCORE_UNIT)),
            pos
        ));
    }
    let bytes = book.to_bytes().len();
    say(format!(
        "book: {} positions, {bytes} bytes, {added} added in {:.1} s",
        book.len(),
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// The book moves of `pos` for people: the position, its diagram, then a line per book
/// move (move, value in discs, depth), or a line saying it is not in the book.
#[must_use]
pub fn show_lines(book: &Book, pos: &Position) -> Vec<String> {
    let moves = book.probe(pos);
    let mut lines = vec![format!("position {pos}"), pos.diagram()];
    if moves.is_empty() {
        lines.push(format!("not in the book ({} positions)", book.len()));
        return lines;
    }
    lines.push(format!("{:<6} {:>8} {:>6}", "move", "discs", "depth"));
    for s in &moves {
        lines.push(format!(
            "{:<6} {:>8} {:>6}",
            s.mv.to_string(),
            score_short(s.score, oth::SCORE_UNIT),
            s.depth
        ));
    }
    lines
}

/// The book moves of `pos` as one JSON object (`in_book`, `book_positions`, `unit`,
/// `moves`: move, score in centi-discs, depth).
#[must_use]
pub fn show_json(book: &Book, pos: &Position) -> serde_json::Value {
    let list: Vec<serde_json::Value> = book
        .probe(pos)
        .iter()
        .map(|s| serde_json::json!({"move": s.mv.to_string(), "score": s.score, "depth": s.depth}))
        .collect();
    serde_json::json!({
        "game": "othello",
        "position": pos.to_string(),
        "in_book": !list.is_empty(),
        "book_positions": book.len(),
        "unit": oth::SCORE_UNIT,
        "moves": list,
    })
}
