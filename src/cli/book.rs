//! `tessera book build othello` and `tessera book show othello`: grow, store and inspect
//! the opening book ([`tessera::engine::book`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Subcommand};
use tessera::engine::book::Book;
use tessera::engine::book_build::{self, BookBuildError, BuildConfig};
use tessera::games::othello::Position;

use super::games::CliGame;
use super::output::{CliError, print_json, say};
use super::{GameId, PositionArgs};

/// Arguments of `tessera book`.
#[derive(Args, Debug)]
#[command(
    about = "Build or show the Othello opening book",
    long_about = "Build or show the Othello opening book. `book build` grows a book from the \
                  start position best-first: each step analyses the not-yet-booked position \
                  with the cheapest line (the sum of its moves' losses against the best move \
                  of their position, plus --ply-cost per ply) by searching every move to \
                  --depth, adds it and backs the values up by negamax. The file is written \
                  after every position, so an interrupted build keeps its work, and an existing \
                  --out is extended. `book show` prints a position's book moves and values.\n\n\
                  gtp and nboard play from the built-in book (books/othello.book, compiled \
                  in) unless --book none or --book FILE (it gained +79.5 +- 46.3 Elo at 100 \
                  ms/move, see docs/book.md); bestmove and play search unless given --book \
                  builtin or --book FILE.",
    after_help = "Examples:\n  tessera book build othello --depth 10 --positions 300 --out my.book\n  \
                  tessera book show othello\n  tessera book show othello --moves f5d6 --book my.book"
)]
pub struct BookArgs {
    #[command(subcommand)]
    action: BookAction,
}

#[derive(Subcommand, Debug)]
enum BookAction {
    /// Grow a book by best-first expansion from the start position
    Build(BuildArgs),
    /// Print the book moves of a position with their values
    Show(ShowArgs),
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// The game (othello)
    #[arg(value_parser = super::GameIdParser)]
    game: GameId,
    /// Book file to write (extended when it exists)
    #[arg(long, value_name = "FILE", default_value = "othello.book")]
    out: PathBuf,
    /// Search depth of each move's analysis, plies (the move included)
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(2..=40))]
    depth: u32,
    /// Positions to add in this run
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    positions: u64,
    /// Cost of one ply of a line, centi-discs (larger: a broader, shallower book)
    #[arg(long, value_name = "C", default_value_t = 100,
          value_parser = clap::value_parser!(i32).range(1..=6400))]
    ply_cost: i32,
    /// Deepest book position, plies from the start
    #[arg(long, value_name = "N", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..=60))]
    max_plies: u32,
    /// Transposition table size, MiB
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = super::output::tt_mib)]
    tt_mb: usize,
}

#[derive(Args, Debug)]
struct ShowArgs {
    /// The game (othello)
    #[arg(value_parser = super::GameIdParser)]
    game: GameId,
    #[command(flatten)]
    position: PositionArgs,
    /// Book file [default: the built-in book]
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Print one JSON object
    #[arg(long)]
    json: bool,
}

/// Runs `tessera book`.
///
/// # Errors
/// A game other than Othello, an unreadable or unwritable book, bad position flags.
pub fn run(args: &BookArgs) -> Result<ExitCode, CliError> {
    match &args.action {
        BookAction::Build(b) => {
            othello_only(b.game)?;
            build(b)
        }
        BookAction::Show(s) => {
            othello_only(s.game)?;
            show(s)
        }
    }
}

fn othello_only(game: GameId) -> Result<(), CliError> {
    if game == GameId::Othello {
        Ok(())
    } else {
        Err(CliError::input("the opening book is for othello"))
    }
}

fn build(args: &BuildArgs) -> Result<ExitCode, CliError> {
    let cfg = BuildConfig {
        out: args.out.clone(),
        depth: args.depth,
        positions: args.positions,
        ply_cost: args.ply_cost,
        max_plies: args.max_plies,
        tt_mb: args.tt_mb,
    };
    book_build::build(&cfg, &mut |line| say(line)).map_err(|e| match e {
        BookBuildError::Search(m) => CliError::failure(m),
        e => CliError::input(e.to_string()),
    })?;
    Ok(ExitCode::SUCCESS)
}

fn show(args: &ShowArgs) -> Result<ExitCode, CliError> {
    let book = match &args.book {
        Some(p) => Arc::new(Book::load(p).map_err(CliError::input)?),
        None => Book::builtin(),
    };
    let pos = <Position as CliGame>::load(&args.position, 0)?.position;
    if args.json {
        print_json(&book_build::show_json(&book, &pos));
    } else {
        book_build::show_lines(&book, &pos)
            .into_iter()
            .for_each(say);
    }
    Ok(ExitCode::SUCCESS)
}
