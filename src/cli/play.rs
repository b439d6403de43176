//! `tessera play`: a game in the terminal. The board is drawn with coordinates, the legal
//! moves are listed, the human's moves are read line by line from stdin (bad input gets a
//! message and a new prompt), the engine's moves are shown with their score.

use std::io::BufRead;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use tessera::engine::Player;
use tessera::game::Game;
use tessera::games::othello::{self as oth, Color, Move, Position};

use super::bestmove::load_weights;
use super::output::{CliError, prompt, say, score_text};
use super::{EngineArgs, GameId, PositionArgs, othello};

/// The engine's time per move when no limit is given, milliseconds.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// Who types the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Human {
    /// The human plays Black (moves first), the engine White.
    Black,
    /// The human plays White, the engine Black.
    White,
    /// The engine plays both sides (a demo; stdin is not read).
    None,
    /// Two humans at one keyboard; the engine only keeps the board.
    Both,
}

/// Arguments of `tessera play`.
#[derive(Args, Debug)]
#[command(
    about = "Play a game in the terminal against the engine (moves are read from stdin)",
    long_about = "Play a game in the terminal. The board is drawn with coordinates (a..h left \
                  to right, 1..8 top to bottom; * marks the legal moves), the legal moves are \
                  listed, and you type a move such as f5. Also: 'pass' (done for you when you \
                  have no move), 'help', 'quit'. End of input (Ctrl-D) leaves the game \
                  (exit code 0).\n\nThe engine thinks --time-ms 1000 per move unless --depth, \
                  --time-ms or --nodes is given.",
    after_help = "Examples:\n  tessera play othello\n  tessera play othello --human white --depth 6\n  \
                  tessera play othello --human none --time-ms 200"
)]
pub struct PlayArgs {
    /// The game
    pub game: GameId,
    /// Which side you play: black, white, none (engine vs engine) or both (two humans)
    #[arg(long, value_enum, default_value_t = Human::Black)]
    pub human: Human,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs `tessera play`.
///
/// # Errors
/// Bad input on the command line, unreadable stdin, or an engine failure.
pub fn run(args: &PlayArgs) -> Result<ExitCode, CliError> {
    match args.game {
        GameId::Othello => othello_play(args),
    }
}

/// One line of stdin without its line end; `None` at end of input. Invalid UTF-8 is
/// replaced rather than fatal (it is then reported as a bad move).
fn read_line(input: &mut impl BufRead) -> Result<Option<String>, CliError> {
    let mut buf = Vec::new();
    let n = input
        .read_until(b'\n', &mut buf)
        .map_err(|e| CliError::failure(format!("cannot read stdin: {e}")))?;
    if n == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
}

fn is_human(human: Human, side: Color) -> bool {
    match human {
        Human::Black => side == Color::Black,
        Human::White => side == Color::White,
        Human::None => false,
        Human::Both => true,
    }
}

fn legal_list(pos: &Position) -> String {
    let mut moves = <Position as Game>::Moves::default();
    pos.generate_moves(&mut moves);
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn transcript_text(moves: &[Move]) -> String {
    moves
        .iter()
        .filter(|m| !m.is_pass())
        .map(ToString::to_string)
        .collect()
}

const HELP: &str = "Type a square such as f5 (column a..h, row 1..8), 'pass' when you have \
                    no move, 'help' for this text, or 'quit' to leave.";

fn othello_play(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let start = othello::load(&args.position)?.position;
    let weights = load_weights(&args.engine)?;
    args.engine.check()?;
    let limits = args.engine.limits(DEFAULT_TIME_MS);
    let mut engine: Box<dyn Player<oth::Position>> = if args.engine.algo == super::Algo::Mcts {
        oth::mcts_engine(&super::bestmove::mcts_spec(&args.engine)?)
    } else {
        Box::new(
            oth::alphabeta_engine(
                "tessera",
                weights,
                args.engine.tt_mb,
                args.engine.exact_empties,
            )
            .with_threads(args.engine.threads as usize),
        )
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();

    say(match args.human {
        Human::Black => "You play Black (X) against tessera (White, O).",
        Human::White => "You play White (O) against tessera (Black, X).",
        Human::None => "tessera plays both sides.",
        Human::Both => "Two players: Black (X) and White (O) take turns at the keyboard.",
    });
    if args.human != Human::None {
        say(HELP);
    }

    let mut pos = start;
    let mut played: Vec<Move> = Vec::new();
    loop {
        say("");
        say(pos.diagram());
        if let Some(result) = othello::result_text(&pos) {
            say(result);
            say(format!("moves: {}", transcript_text(&played)));
            return Ok(ExitCode::SUCCESS);
        }
        let side = pos.side();
        if pos.legal_placements() == 0 {
            say(format!(
                "{} has no legal move and passes.",
                othello::color_name(side)
            ));
            pos = pos.play(Move::PASS);
            played.push(Move::PASS);
            continue;
        }
        if is_human(args.human, side) {
            let legal = legal_list(&pos);
            say(format!("legal moves: {legal}"));
            loop {
                prompt(format!("{} move> ", othello::color_name(side)));
                let Some(line) = read_line(&mut input)? else {
                    say("");
                    say("end of input: leaving the game.");
                    return Ok(ExitCode::SUCCESS);
                };
                match line.to_ascii_lowercase().as_str() {
                    "" => continue,
                    "quit" | "exit" | "q" => {
                        say("quit: leaving the game.");
                        say(format!("moves: {}", transcript_text(&played)));
                        return Ok(ExitCode::SUCCESS);
                    }
                    "help" | "?" | "h" => {
                        say(HELP);
                        say(format!("legal moves: {legal}"));
                        continue;
                    }
                    _ => {}
                }
                match pos.parse_move(&line) {
                    Ok(mv) => {
                        say(format!("{} plays {mv}", othello::color_name(side)));
                        pos = pos.play(mv);
                        played.push(mv);
                        break;
                    }
                    Err(e) => say(format!("{e}. Legal moves: {legal}. Try again.")),
                }
            }
        } else {
            let thought = engine.choose(&pos, &limits).map_err(CliError::failure)?;
            let mv = thought
                .best_move
                .filter(|&m| pos.is_legal(m))
                .ok_or_else(|| {
                    CliError::failure(format!("the engine returned no legal move in {pos}"))
                })?;
            say(format!(
                "{} (tessera) plays {mv}: score {} for {}, depth {}, {} nodes, {:.2} s",
                othello::color_name(side),
                score_text(thought.score, thought.unit, thought.exact),
                othello::color_name(side),
                thought.depth,
                thought.nodes,
                thought.elapsed.as_secs_f64()
            ));
            pos = pos.play(mv);
            played.push(mv);
        }
    }
}
