//! `tessera play`: a game in the terminal. The board is drawn with coordinates, the legal
//! moves are listed, the human's moves are read line by line from stdin (bad input gets a
//! message and a new prompt), the engine's moves are shown with their score.

use std::io::{BufRead, Read};
use std::process::ExitCode;

use clap::Args;
use tessera::game::Seat;

use super::games::{CliGame, legal_moves};
use super::output::{CliError, prompt, say, score_text};
use super::{EngineArgs, GameId, PositionArgs};

/// The engine's time per move when no limit is given, milliseconds.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// Arguments of `tessera play`.
#[derive(Args, Debug)]
#[command(
    about = "Play a game in the terminal against the engine (moves are read from stdin)",
    long_about = "Play a game in the terminal. The board is drawn with coordinates (Othello: \
                  a..h left to right, 1..8 top to bottom; * marks the legal moves), the legal \
                  moves are listed, and you type a move such as f5. Also: 'help', 'quit'. A \
                  forced pass is played for you. End of input (Ctrl-D) leaves the game (exit \
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

/// One line of stdin without its line end; `None` at end of input. Invalid UTF-8 is
/// replaced rather than fatal (it is then reported as a bad move).
///
/// # Errors
/// Unreadable stdin, or a line longer than [`tessera::game::files::MAX_LINE`] (no move is;
/// `/dev/zero` as input would otherwise fill memory).
fn read_line(input: &mut impl BufRead) -> Result<Option<String>, CliError> {
    let max = tessera::game::files::MAX_LINE;
    let mut buf = Vec::new();
    let n = input
        .by_ref()
        .take(max + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| CliError::failure(format!("cannot read stdin: {e}")))?;
    if n == 0 {
        return Ok(None);
    }
    if n as u64 > max {
        return Err(CliError::input(format!(
            "a line of stdin is longer than {}: not a move",
            tessera::game::files::size_text(max)
        )));
    }
    Ok(Some(String::from_utf8_lossy(&buf).trim().to_string()))
}

/// The seats `--human` names, as a mask over seat numbers.
///
/// # Errors
/// A name that is no seat of this game, listing the valid names.
fn human_seats<G: CliGame>(pos: &G, text: &str) -> Result<u32, CliError> {
    let all = (1u32 << pos.seats()) - 1;
    match text.trim().to_ascii_lowercase().as_str() {
        "none" => return Ok(0),
        "all" | "both" => return Ok(all),
        _ => {}
    }
    let mut mask = 0;
    for part in text.split(',') {
        let seat = pos.seat_by_name(part).ok_or_else(|| {
            let names: Vec<String> = (0..pos.seats())
                .map(|i| format!("{i} = {}", pos.seat_name(Seat(i as u8))))
                .collect();
            CliError::input(format!(
                "--human: '{}' is not a seat of {} (seats: {}; or none, all)",
                tessera::game::shown(part),
                G::ID,
                names.join(", ")
            ))
        })?;
        mask |= 1 << seat.0;
    }
    Ok(mask)
}

fn play<G: CliGame>(args: &PlayArgs) -> Result<ExitCode, CliError> {
    let engine_args = args.engine.for_game::<G>()?;
    let start = G::load(&args.position, args.engine.seed())?.position;
    let humans = human_seats(&start, &args.human)?;
    let limits = engine_args.limits(DEFAULT_TIME_MS);
    let mut engine = engine_args.engine::<G>(false)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();

    let seat_list = |mask: u32| {
        (0..start.seats())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| start.seat_name(Seat(i as u8)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = (1u32 << start.seats()) - 1;
    say(match humans {
        0 => "tessera plays every seat.".to_string(),
        m if m == all => format!("People play every seat: {}.", seat_list(m)),
        m => format!(
            "You play {} against tessera ({}).",
            seat_list(m),
            seat_list(all & !m)
        ),
    });
    if humans != 0 {
        say(G::MOVE_HELP);
    }

    let first = start.clone();
    let mut pos = start;
    let mut played: Vec<G::Move> = Vec::new();
    // Games that draw by threefold repetition (Quixo) count positions; every game stops
    // as a draw at the tournament ply cap, so engine-only games always end.
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    loop {
        say("");
        say(pos.diagram());
        if let Some(result) = pos.result_text() {
            say(result);
            say(format!("moves: {}", G::transcript(&played)));
            return Ok(ExitCode::SUCCESS);
        }
        let repeated = G::REPETITION_DRAWS && {
            let count = seen.entry(pos.key()).or_default();
            *count += 1;
            *count >= 3
        };
        if repeated || played.len() as u64 >= G::DEFAULT_MAX_PLIES {
            say(if repeated {
                "game over: a draw (the position occurred for the third time with the same side to move)".to_string()
            } else {
                format!(
                    "game over: a draw ({} plies played, the ply cap)",
                    played.len()
                )
            });
            say(format!("moves: {}", G::transcript(&played)));
            return Ok(ExitCode::SUCCESS);
        }
        let seat = pos.to_move();
        let name = pos.seat_name(seat);
        let legal = legal_moves(&pos);
        if let [only] = legal[..]
            && pos.is_pass(only)
        {
            say(format!("{name} has no legal move and passes."));
            pos = pos.play(only);
            played.push(only);
            continue;
        }
        if humans >> seat.0 & 1 == 1 {
            let list = legal
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            say(format!("legal moves: {list}"));
            loop {
                prompt(format!("{name} move> "));
                let Some(line) = read_line(&mut input)? else {
                    say("");
                    say("end of input: leaving the game.");
                    return Ok(ExitCode::SUCCESS);
                };
                match line.to_ascii_lowercase().as_str() {
                    "" => continue,
                    "quit" | "exit" | "q" => {
                        say("quit: leaving the game.");
                        say(format!("moves: {}", G::transcript(&played)));
                        return Ok(ExitCode::SUCCESS);
                    }
                    "help" | "?" | "h" => {
                        say(G::MOVE_HELP);
                        say(format!("legal moves: {list}"));
                        continue;
                    }
                    _ => {}
                }
                match pos.parse_move(&line) {
                    Ok(mv) => {
                        say(format!("{name} plays {mv}"));
                        pos = pos.play(mv);
                        played.push(mv);
                        break;
                    }
                    Err(e) => say(format!("{e}. Legal moves: {list}. Try again.")),
                }
            }
        } else {
            let thought = engine
                .choose_in_game(&first, &played, &pos, &limits)
                .map_err(CliError::failure)?;
            let mv = thought
                .best_move
                .filter(|&m| pos.is_legal(m))
                .ok_or_else(|| {
                    CliError::failure(format!("the engine returned no legal move in {pos}"))
                })?;
            say(format!(
                "{name} (tessera) plays {mv}: score {} for {name}, depth {}, {} nodes, {:.2} s",
                score_text(thought.score, thought.unit, thought.exact),
                thought.depth,
                thought.nodes,
                thought.elapsed.as_secs_f64()
            ));
            pos = pos.play(mv);
            played.push(mv);
        }
    }
}
