//! `tessera play`: a game in the terminal. The board is drawn with coordinates, the legal
//! moves are listed, the human's moves and commands are read line by line from stdin (bad
//! input gets a one-line message and a new prompt), the engine's moves are shown with their
//! score. The game and its commands are [`tessera::play::terminal::Terminal`]'s; this file
//! reads and prints.

use std::process::ExitCode;

use clap::Args;

use tessera::play::seats::{SeatsError, human_seats, read_line, seating_line};
use tessera::play::terminal::{COMMANDS, Command, Terminal, command};

use super::games::CliGame;
use super::output::{CliError, prompt, say};
use super::{EngineArgs, GameId, PositionArgs};

/// The engine's time per move when no limit is given, milliseconds.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// Arguments of `tessera play`.
#[derive(Args, Debug)]
#[command(
    about = "Play a game in the terminal against the engine (moves are read from stdin)",
    long_about = "Play a game in the terminal. The board is drawn with coordinates (Othello: \
                  a..h left to right, 1..8 top to bottom; * marks the legal moves), the legal \
                  moves are listed, and you type a move such as f5. Also: 'moves' (the legal \
                  moves), 'undo' (back to your previous move), 'redo', 'hint' (the engine's \
                  move), 'analyze' (every legal move scored by the engine; two-sided games), \
                  'help', 'quit'. A forced pass is played for you. End of input (Ctrl-D) leaves the game (exit \
                  code 0).\n\n--human names the seats people sit at: seat names or numbers \
                  (Othello: black or x or 0, white or o or 1), comma-separated; 'none' lets the \
                  engine play every seat, 'all' (or 'both') seats people everywhere.\n\nThe \
                  engine thinks --time-ms 1000 per move unless --depth, --time-ms or --nodes is \
                  given.",
    after_help = "Examples:\n  tessera play othello\n  tessera play othello --human white --depth 6\n  \
                  tessera play othello --human none --time-ms 200"
)]
pub struct PlayArgs {
    /// The game
    #[arg(value_parser = super::GameIdParser)]
    pub game: GameId,
    /// Seats played by people: names or numbers, comma-separated, or none / all (both)
    #[arg(long, value_name = "SEATS", default_value = "0")]
    pub human: String,
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
    tessera::for_game!(args.game, play(args))
}

impl From<SeatsError> for CliError {
    /// Unreadable input exits 1, bad input 2.
    fn from(e: SeatsError) -> Self {
        match e {
            SeatsError::Read(_) => CliError::failure(e.to_string()),
            e => CliError::input(e.to_string()),
        }
    }
}

fn play<G: CliGame>(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let engine_args = args.engine.for_game::<G>()?;
    let start = G::load(&args.position, args.engine.seed())?.position;
    let humans = human_seats(&start, &args.human)?;
    let limits = engine_args.limits(DEFAULT_TIME_MS);
    let engine = engine_args.engine::<G>()?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();

    say(seating_line(&start, humans));
    if humans != 0 {
        say(G::MOVE_HELP);
        say(COMMANDS);
    }
    let mut game = Terminal::new(start, humans, engine, limits);
    // After a move, an undo or a redo the board is drawn again.
    let mut show = true;
    loop {
        if show {
            say("");
            say(game.history.current().diagram());
            let note = game.history.pass_note();
            if !note.is_empty() {
                say(note);
            }
        }
        show = true;
        if let Some(over) = game.game_over() {
            say(over);
            say(game.transcript());
            if humans == 0 {
                return Ok(ExitCode::SUCCESS);
            }
            say("undo takes moves back; anything else leaves.");
            match read_line(&mut input)?.as_deref().map(command) {
                Some(Command::Undo) => say(game.undo().unwrap_or_else(|e| e)),
                _ => return Ok(ExitCode::SUCCESS),
            }
            continue;
        }
        if !game.human_to_move() {
            say(game.engine_move().map_err(CliError::failure)?);
            continue;
        }
        let name = game.to_move_name();
        say(game.legal_list());
        loop {
            prompt(format!("{name} move> "));
            let Some(line) = read_line(&mut input)? else {
                say("");
                say("end of input: leaving the game.");
                return Ok(ExitCode::SUCCESS);
            };
            match command(&line) {
                Command::Empty => continue,
                Command::Quit => {
                    say("quit: leaving the game.");
                    say(game.transcript());
                    return Ok(ExitCode::SUCCESS);
                }
                Command::Help => {
                    say(G::MOVE_HELP);
                    say(COMMANDS);
                }
                Command::Moves => say(game.legal_list()),
                Command::Hint => say(game.hint().unwrap_or_else(|e| format!("hint: {e}"))),
                Command::Analyze => match game.analyze() {
                    Ok(lines) => lines.into_iter().for_each(say),
                    Err(e) => say(format!("analyze: {e}")),
                },
                Command::Undo | Command::Redo => {
                    let done = if command(&line) == Command::Undo {
                        game.undo()
                    } else {
                        game.redo()
                    };
                    match done {
                        Ok(text) => {
                            say(text);
                            break;
                        }
                        Err(e) => say(e),
                    }
                }
                Command::Move(text) => match game.play_text(text) {
                    Ok(played) => {
                        say(played);
                        break;
                    }
                    Err(e) => say(e),
                },
            }
        }
    }
}
