//! [`AnyGame`]: one game of any id chosen at run time, driven by text (moves and positions
//! as the command line writes them) or by actions, with undo: what a scripting language or
//! a learning loop needs without naming the position type.

use crate::game::{MoveError, PositionError};
use crate::games::GameId;

use super::EnvGame;
use super::action;
use super::returns;

/// The operations of [`AnyGame`] over one position type (object-safe).
trait Dyn: Send + Sync {
    fn id(&self) -> GameId;
    fn seats(&self) -> usize;
    fn position(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(), MoveError>;
    fn play_action(&mut self, action: i64) -> Result<(), MoveError>;
    fn undo(&mut self) -> bool;
    fn plies(&self) -> usize;
    fn is_over(&self) -> bool;
    fn to_move(&self) -> usize;
    fn returns(&self) -> Option<Vec<f64>>;
    fn scores(&self) -> Option<Vec<i32>>;
    fn obs_shape(&self) -> &'static [usize];
    fn observe(&self, out: &mut [f32]);
    fn action_size(&self) -> usize;
    fn legal_mask(&self, out: &mut [bool]);
    fn move_to_action(&self, text: &str) -> Result<usize, MoveError>;
    fn action_to_move(&self, action: i64) -> Result<String, MoveError>;
    fn boxed_clone(&self) -> Box<dyn Dyn>;
}

/// A position and the positions before it (for undo).
#[derive(Clone)]
struct Session<G: EnvGame> {
    pos: G,
    history: Vec<G>,
}

impl<G: EnvGame> Dyn for Session<G> {
    fn id(&self) -> GameId {
        G::ID.parse().expect("every game's ID is a GameId")
    }
    fn seats(&self) -> usize {
        self.pos.seats()
    }
    fn position(&self) -> String {
        self.pos.to_string()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = G::Moves::default();
        self.pos.generate_moves(&mut moves);
        moves.iter().map(ToString::to_string).collect()
    }
    fn play(&mut self, text: &str) -> Result<(), MoveError> {
        let mv = self.pos.parse_move(text)?;
        self.history.push(self.pos.clone());
        self.pos = self.pos.play(mv);
        Ok(())
    }
    fn play_action(&mut self, a: i64) -> Result<(), MoveError> {
        let mv = action::legal_move_of(&self.pos, a)?;
        self.history.push(self.pos.clone());
        self.pos = self.pos.play(mv);
        Ok(())
    }
    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(p) => {
                self.pos = p;
                true
            }
            None => false,
        }
    }
    fn plies(&self) -> usize {
        self.history.len()
    }
    fn is_over(&self) -> bool {
        self.pos.outcome().is_some()
    }
    fn to_move(&self) -> usize {
        self.pos.to_move().index()
    }
    fn returns(&self) -> Option<Vec<f64>> {
        let outcome = self.pos.outcome()?;
        let mut out = vec![0.0; self.pos.seats()];
        returns::points(&self.pos, Some(&outcome), &mut out);
        Some(out)
    }
    fn scores(&self) -> Option<Vec<i32>> {
        let outcome = self.pos.outcome()?;
        Some(outcome.scores.as_slice().to_vec())
    }
    fn obs_shape(&self) -> &'static [usize] {
        G::SHAPE
    }
    fn observe(&self, out: &mut [f32]) {
        self.pos.observe(out);
    }
    fn action_size(&self) -> usize {
        action::action_size::<G>()
    }
    fn legal_mask(&self, out: &mut [bool]) {
        action::legal_mask(&self.pos, out);
    }
    fn move_to_action(&self, text: &str) -> Result<usize, MoveError> {
        Ok(action::action_of::<G>(self.pos.parse_move(text)?))
    }
    fn action_to_move(&self, a: i64) -> Result<String, MoveError> {
        Ok(action::legal_move_of(&self.pos, a)?.to_string())
    }
    fn boxed_clone(&self) -> Box<dyn Dyn> {
        Box::new(self.clone())
    }
}

fn session<G: EnvGame>(position: Option<&str>) -> Result<Box<dyn Dyn>, PositionError> {
    let pos = match position {
        Some(text) => text.parse::<G>()?,
        None => G::start(),
    };
    Ok(Box::new(Session {
        pos,
        history: Vec::new(),
    }))
}

/// A game of any id: a position, the moves' history for [`AnyGame::undo`], and the
/// game's observation planes and action space (see [`super::observe`], [`super::action`]).
///
/// ```
/// use tessera::env::AnyGame;
///
/// let mut g = AnyGame::new("othello".parse()?, None)?;
/// assert_eq!(g.legal_moves(), ["d3", "c4", "f5", "e6"]);
/// g.play("f5")?;
/// assert_eq!(g.to_move(), 1);
/// assert!(g.play("a1").is_err());
/// g.undo();
/// assert_eq!(g.position(), AnyGame::new("othello".parse()?, None)?.position());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct AnyGame {
    inner: Box<dyn Dyn>,
}

impl Clone for AnyGame {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.boxed_clone(),
        }
    }
}

impl std::fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnyGame({} {})", self.id(), self.position())
    }
}

impl AnyGame {
    /// A game of `id` from `position` (the game's one-line position text), or from the start
    /// position (for `talat-2p`, the Djinn's setup is then the first moves).
    ///
    /// # Errors
    /// A malformed position: the game's one-line message.
    pub fn new(id: GameId, position: Option<&str>) -> Result<Self, PositionError> {
        Ok(Self {
            inner: crate::for_game!(id, session(position))?,
        })
    }

    /// The game id.
    #[must_use]
    pub fn id(&self) -> GameId {
        self.inner.id()
    }

    /// Number of seats.
    #[must_use]
    pub fn seats(&self) -> usize {
        self.inner.seats()
    }

    /// The position in the game's one-line form (accepted back by [`AnyGame::new`]).
    #[must_use]
    pub fn position(&self) -> String {
        self.inner.position()
    }

    /// The legal moves in the game's notation, in generation order (none when the game is
    /// over; a forced pass is the one move `pass`).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// Plays the move `text`.
    ///
    /// # Errors
    /// A malformed or illegal move: the game's one-line message; the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), MoveError> {
        self.inner.play(text)
    }

    /// Plays the move of `action` (see [`super::action`]).
    ///
    /// # Errors
    /// An action outside the action space or not legal here; the game is unchanged.
    pub fn play_action(&mut self, action: i64) -> Result<(), MoveError> {
        self.inner.play_action(action)
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// Moves played since the game was created.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.inner.plies()
    }

    /// Whether the game is over by the rules.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The seat to move (`0..seats`).
    #[must_use]
    pub fn to_move(&self) -> usize {
        self.inner.to_move()
    }

    /// Each seat's points as tournaments score them (see [`super::returns`]) once the
    /// game is over; `None` before.
    #[must_use]
    pub fn returns(&self) -> Option<Vec<f64>> {
        self.inner.returns()
    }

    /// Each seat's final score in the game's unit (Othello: discs, empties to the winner)
    /// once the game is over; `None` before.
    #[must_use]
    pub fn scores(&self) -> Option<Vec<i32>> {
        self.inner.scores()
    }

    /// The shape of [`AnyGame::observe`]'s tensor.
    #[must_use]
    pub fn obs_shape(&self) -> &'static [usize] {
        self.inner.obs_shape()
    }

    /// Writes the observation planes into `out` (length: the product of the shape).
    ///
    /// # Panics
    /// If `out` has another length.
    pub fn observe(&self, out: &mut [f32]) {
        self.inner.observe(out);
    }

    /// Number of actions of the game's action space.
    #[must_use]
    pub fn action_size(&self) -> usize {
        self.inner.action_size()
    }

    /// Writes the legal mask into `out` (length [`AnyGame::action_size`]).
    ///
    /// # Panics
    /// If `out` has another length.
    pub fn legal_mask(&self, out: &mut [bool]) {
        self.inner.legal_mask(out);
    }

    /// The action of the legal move `text`.
    ///
    /// # Errors
    /// A malformed or illegal move.
    pub fn move_to_action(&self, text: &str) -> Result<usize, MoveError> {
        self.inner.move_to_action(text)
    }

    /// The move (text) of `action`, legal here.
    ///
    /// # Errors
    /// An action outside the action space or not legal here.
    pub fn action_to_move(&self, action: i64) -> Result<String, MoveError> {
        self.inner.action_to_move(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_plays_to_the_end_and_undoes_to_the_start() {
        for id in GameId::ALL {
            let mut g = AnyGame::new(id, None).unwrap();
            let start = g.position();
            let mut i = 0;
            while !g.is_over() && g.plies() < 400 {
                let moves = g.legal_moves();
                g.play(&moves[(i * 5) % moves.len()]).unwrap();
                i += 1;
            }
            if g.is_over() {
                let r = g.returns().unwrap();
                assert_eq!(r.len(), id.seats());
                assert!(r.iter().all(|v| (0.0..=1.0).contains(v)));
            }
            let back = AnyGame::new(id, Some(&g.position())).unwrap();
            assert_eq!(back.position(), g.position(), "{id}");
            while g.undo() {}
            assert_eq!(g.position(), start);
        }
    }

    #[test]
    fn errors_are_the_games_messages() {
        use crate::game::Game;
        use crate::games::othello::Position;
        let mut g = AnyGame::new(GameId::Othello, None).unwrap();
        for bad in ["z9", "a1", ""] {
            let want = Position::start().parse_move(bad).unwrap_err();
            assert_eq!(g.play(bad).unwrap_err(), want);
        }
        assert_eq!(g.plies(), 0);
        let want = "nonsense"
            .parse::<crate::games::quixo::Quixo>()
            .unwrap_err();
        assert_eq!(
            AnyGame::new(GameId::Quixo, Some("nonsense")).unwrap_err(),
            want
        );
    }
}
