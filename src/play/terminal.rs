//! The terminal's game (`tessera play`): a [`History`] with an engine at the seats people
//! do not sit at, and the commands people type between moves (`undo`, `redo`, `hint`,
//! `analyze`, `moves`, `help`, `quit`). Every method returns the text to show, so the
//! command line only reads lines and prints.

use super::history::History;
use crate::engine::Player;
use crate::engine::analyze::analyze_moves;
use crate::game::Seat;
use crate::present::{Present, score_text};
use crate::search::Limits;

/// What a line typed at the move prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// An empty line.
    Empty,
    /// `quit`, `exit`, `q`.
    Quit,
    /// `help`, `?`, `h`.
    Help,
    /// `moves`: the legal moves.
    Moves,
    /// `undo`, `u`: back to the previous position where a person was to move.
    Undo,
    /// `redo`, `r`: forward again after an undo.
    Redo,
    /// `hint`: the engine's move for the side to move.
    Hint,
    /// `analyze`, `analyse`, `a`: every legal move scored by the engine.
    Analyze,
    /// Anything else: a move.
    Move(&'a str),
}

/// The commands, for help texts.
pub const COMMANDS: &str = "Commands: moves (the legal moves), undo, redo, hint (the \
    engine's move), analyze (every legal move scored), help, quit.";

/// What `line` asks for (commands are case-insensitive).
#[must_use]
pub fn command(line: &str) -> Command<'_> {
    let line = line.trim();
    match line.to_ascii_lowercase().as_str() {
        "" => Command::Empty,
        "quit" | "exit" | "q" => Command::Quit,
        "help" | "?" | "h" => Command::Help,
        "moves" | "m" => Command::Moves,
        "undo" | "u" => Command::Undo,
        "redo" | "r" => Command::Redo,
        "hint" => Command::Hint,
        "analyze" | "analyse" | "a" => Command::Analyze,
        _ => Command::Move(line),
    }
}

/// A game in the terminal (see the module documentation).
pub struct Terminal<G: Present> {
    /// The game so far.
    pub history: History<G>,
    engine: Box<dyn Player<G>>,
    limits: Limits,
}

impl<G: Present> Terminal<G> {
    /// A game from `start`, people at the seats of the mask `humans` (bit `i`: seat `i`),
    /// `engine` searching with `limits` at the others and for hints and analyses.
    #[must_use]
    pub fn new(start: G, humans: u32, engine: Box<dyn Player<G>>, limits: Limits) -> Self {
        let seats = (0..start.seats()).map(|i| humans >> i & 1 == 1).collect();
        let history = History::new(start, &[], seats).expect("no moves to check");
        Self {
            history,
            engine,
            limits,
        }
    }

    /// `legal moves: d3 c4 f5 e6`.
    #[must_use]
    pub fn legal_list(&self) -> String {
        let list: Vec<String> = crate::game::legal_moves(self.history.current())
            .iter()
            .map(ToString::to_string)
            .collect();
        format!("legal moves: {}", list.join(" "))
    }

    /// The name of the seat to move.
    #[must_use]
    pub fn to_move_name(&self) -> String {
        let pos = self.history.current();
        pos.seat_name(pos.to_move())
    }

    /// The end of the game for people (`game over: ...`), `None` while it goes on.
    #[must_use]
    pub fn game_over(&self) -> Option<String> {
        let pos = self.history.current();
        pos.result_text()
            .or_else(|| self.history.over().map(|o| format!("game over: {o}")))
    }

    /// The moves so far as a transcript.
    #[must_use]
    pub fn transcript(&self) -> String {
        format!("moves: {}", G::transcript(self.history.moves()))
    }

    /// Plays the move `text` names for the person to move: `Black (X) plays f5`.
    ///
    /// # Errors
    /// A malformed or illegal move, in one short line that points to `moves`.
    pub fn play_text(&mut self, text: &str) -> Result<String, String> {
        let name = self.to_move_name();
        let mv = self
            .history
            .current()
            .parse_move(text)
            .map_err(|e| format!("{e}; `moves` lists the legal moves"))?;
        self.history.play(mv);
        Ok(format!("{name} plays {mv}"))
    }

    /// Lets the engine play the seat to move: `White (O) (tessera) plays d6: score ...`.
    ///
    /// # Errors
    /// The engine failed or returned no legal move.
    pub fn engine_move(&mut self) -> Result<String, String> {
        let name = self.to_move_name();
        let pos = self.history.current().clone();
        let thought = self.engine.choose_in_game(
            self.history.start(),
            self.history.moves(),
            &pos,
            &self.limits,
        )?;
        let mv = thought
            .best_move
            .filter(|&m| pos.is_legal(m))
            .ok_or_else(|| format!("the engine returned no legal move in {pos}"))?;
        self.history.play_engine(mv);
        Ok(format!(
            "{name} (tessera) plays {mv}: score {} for {name}, depth {}, {} nodes, {:.2} s",
            score_text(thought.score, thought.unit, thought.exact),
            thought.depth,
            thought.nodes,
            thought.elapsed.as_secs_f64()
        ))
    }

    /// `undo`: `took back 2 moves`.
    ///
    /// # Errors
    /// `nothing to undo`.
    pub fn undo(&mut self) -> Result<String, String> {
        let n = self.history.undo()?;
        Ok(format!(
            "took back {n} move{}",
            if n == 1 { "" } else { "s" }
        ))
    }

    /// `redo`: `replayed 2 moves`.
    ///
    /// # Errors
    /// `nothing to redo`.
    pub fn redo(&mut self) -> Result<String, String> {
        let n = self.history.redo()?;
        Ok(format!(
            "replayed {n} move{}",
            if n == 1 { "" } else { "s" }
        ))
    }

    /// `hint`: the engine's move for the side to move, with its score and line.
    ///
    /// # Errors
    /// The game is over, or the engine failed.
    pub fn hint(&mut self) -> Result<String, String> {
        if let Some(over) = self.history.over() {
            return Err(format!("the game is over ({over})"));
        }
        let pos = self.history.current().clone();
        let name = pos.seat_name(pos.to_move());
        let t = self.engine.choose_in_game(
            self.history.start(),
            self.history.moves(),
            &pos,
            &self.limits,
        )?;
        let mv = t.best_move.ok_or("the engine has no move to suggest")?;
        let line: Vec<String> = t.pv.iter().map(ToString::to_string).collect();
        Ok(format!(
            "hint: {mv} (score {} for {name}, depth {}; line {})",
            score_text(t.score, t.unit, t.exact),
            t.depth,
            if line.is_empty() {
                mv.to_string()
            } else {
                line.join(" ")
            }
        ))
    }

    /// `analyze`: every legal move scored by the engine for the side to move, best first,
    /// one line each.
    ///
    /// # Errors
    /// The game is over, a game of more than two sides (the scores of one move for three
    /// players are not one number), or the engine failed.
    pub fn analyze(&mut self) -> Result<Vec<String>, String> {
        if let Some(over) = self.history.over() {
            return Err(format!("the game is over ({over})"));
        }
        let pos = self.history.current().clone();
        let scores = analyze_moves(self.engine.as_mut(), &pos, &self.limits)?;
        let name = pos.seat_name(pos.to_move());
        let mut out = vec![format!("moves of {name}, best first (score for {name}):")];
        for t in &scores {
            let Some(mv) = t.best_move else { continue };
            let line: Vec<String> = t.pv.iter().map(ToString::to_string).collect();
            out.push(format!(
                "  {mv:<10} {:<22} depth {:<3} {}",
                score_text(t.score, t.unit, t.exact),
                t.depth,
                line.join(" ")
            ));
        }
        Ok(out)
    }

    /// Whether a person is to move (the game going on).
    #[must_use]
    pub fn human_to_move(&self) -> bool {
        self.history.human_decides()
    }

    /// The seat to move.
    #[must_use]
    pub fn to_move(&self) -> Seat {
        self.history.current().to_move()
    }
}
