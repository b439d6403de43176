//! The solved tiers together: every 5x5 position with at most one blank cube looked up
//! exactly (the full-board table and the one-blank tier table; the full boards alone when
//! the tier table is not at hand), the exact value of each of its moves, the move perfect
//! play makes, and random positions of the tiers with the value of every move, as a truth
//! set for `tessera accuracy quixo`.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::one_blank::OneBlankTable;
use super::position::{Move, Quixo};
use super::prove::{ProveLimits, Verdict, prove};
use super::retro::{Code, FullBoardTable, Value, decode};
use crate::game::{Game, Seat, legal_moves};

/// The full-board table and (when at hand) the one-blank tier table of the 5x5 board,
/// shared: engines of one run hold the same tables.
#[derive(Clone)]
pub struct SolvedTiers {
    full: Arc<FullBoardTable>,
    one: Option<Arc<OneBlankTable>>,
}

/// A move's exact result for the side making it: the value and, for a win or a loss, the
/// plies to the end counting the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value for the mover.
    pub value: Value,
    /// Plies to the end after it, the move included (`None` for a draw).
    pub plies: Option<u32>,
}

impl SolvedTiers {
    /// The two tables (the one-blank table must be of the 5x5 board).
    #[must_use]
    pub fn new(full: FullBoardTable, one: OneBlankTable) -> Self {
        Self::shared(Arc::new(full), Some(Arc::new(one)))
    }

    /// Shared tables: the full boards, and the one-blank tier (of the 5x5 board) if given.
    #[must_use]
    pub fn shared(full: Arc<FullBoardTable>, one: Option<Arc<OneBlankTable>>) -> Self {
        Self { full, one }
    }

    /// Whether the one-blank tier is among the tables.
    #[must_use]
    pub fn has_one_blank(&self) -> bool {
        self.one.is_some()
    }

    /// The side to move's and the other side's cubes.
    fn masks(pos: &Quixo) -> (u32, u32) {
        if pos.to_move() == Seat(0) {
            (pos.x(), pos.o())
        } else {
            (pos.o(), pos.x())
        }
    }

    /// The code of a 5x5 board with at most one blank, side to move first.
    fn code(&self, me: u32, opp: u32) -> Option<Code> {
        let full = (1u32 << 25) - 1;
        match (me | opp).count_ones() {
            25 => Some(self.full.code(me)),
            24 => self.one.as_ref()?.code(me, opp & full),
            _ => None,
        }
    }

    /// Whether `pos` lies in a tier these tables solve (5x5, no blank, or one blank when
    /// the one-blank table is at hand).
    #[must_use]
    pub fn covers(&self, pos: &Quixo) -> bool {
        let least = if self.one.is_some() { 24 } else { 25 };
        pos.size() == 5 && (pos.x() | pos.o()).count_ones() >= least
    }

    /// The exact value of `pos` for the side to move and the plies to the end (`None` for a
    /// draw); `None` outside the solved tiers.
    #[must_use]
    pub fn value(&self, pos: &Quixo) -> Option<(Value, Option<u32>)> {
        if !self.covers(pos) {
            return None;
        }
        let (me, opp) = Self::masks(pos);
        self.code(me, opp).map(decode)
    }

    /// Every legal move of `pos` with its exact value for the mover; `None` outside the
    /// solved tiers or for a finished game.
    #[must_use]
    pub fn move_values(&self, pos: &Quixo) -> Option<Vec<MoveValue>> {
        if !self.covers(pos) || pos.outcome().is_some() {
            return None;
        }
        legal_moves(pos)
            .into_iter()
            .map(|mv| {
                let child = pos.play(mv);
                let (v, d) = self.value(&child)?;
                let value = match v {
                    Value::Win => Value::Loss,
                    Value::Loss => Value::Win,
                    Value::Draw => Value::Draw,
                };
                Some(MoveValue {
                    mv,
                    value,
                    plies: d.map(|d| d + 1),
                })
            })
            .collect()
    }

    /// The move perfect play makes: the fastest win, else a drawing move, else the slowest
    /// loss (the first such move in move order); `None` outside the solved tiers or for a
    /// finished game.
    #[must_use]
    pub fn best_move(&self, pos: &Quixo) -> Option<MoveValue> {
        let rank = |m: &MoveValue| match (m.value, m.plies) {
            (Value::Win, Some(d)) => (2, -(d as i64)),
            (Value::Draw, _) => (1, 0),
            (_, d) => (0, i64::from(d.unwrap_or(0))),
        };
        let moves = self.move_values(pos)?;
        let best = moves.iter().map(rank).max()?;
        moves.into_iter().find(|m| rank(m) == best)
    }

    /// `count` random positions of the solved tiers (`seed`) with every legal move's exact
    /// value: half of them drawn from the full boards, half from the one-blank boards (all
    /// full boards without the one-blank table; blank
    /// cell, every cube and the side to move uniform), kept when the game is not over and the
    /// side to move does not lose (in a lost position every move keeps the value).
    #[must_use]
    pub fn random_positions(&self, count: usize, seed: u64) -> Vec<(Quixo, Vec<MoveValue>)> {
        let mut rng = StdRng::seed_from_u64(seed);
        let full = (1u32 << 25) - 1;
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let blank = if out.len() % 2 == 0 || self.one.is_none() {
                0
            } else {
                1u32 << rng.random_range(0..25u32)
            };
            let x = rng.random_range(0..=full) & !blank;
            let o = full & !x & !blank;
            let seat = rng.random_range(0..2u8);
            let Ok(pos) = Quixo::from_masks(5, x, o, 0, seat) else {
                continue;
            };
            let Some(moves) = self.move_values(&pos) else {
                continue;
            };
            if moves.iter().all(|m| m.value == Value::Loss) {
                continue;
            }
            out.push((pos, moves));
        }
        out
    }

    /// Checks `count` random non-terminal one-blank positions (`seed`) against the proving
    /// search ([`prove`], the full-board table for full boards, at most `max_plies` plies):
    /// a proven win or loss must be the table's value at the same distance, and a position
    /// the search finds no forced result for within `max_plies` must be a table draw or a
    /// result farther than that. Returns how many positions were checked and how many of
    /// them the search proved.
    ///
    /// # Errors
    /// No one-blank table; the first disagreement: the position, the search's verdict and
    /// the table's.
    pub fn cross_check(
        &self,
        count: usize,
        seed: u64,
        max_plies: u32,
    ) -> Result<(usize, usize), String> {
        if self.one.is_none() {
            return Err("no one-blank tier table to check".into());
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let full = (1u32 << 25) - 1;
        let limits = ProveLimits {
            max_plies,
            time_ms: None,
            tt_mb: 16,
        };
        let (mut checked, mut proven) = (0, 0);
        while checked < count {
            let blank = 1u32 << rng.random_range(0..25u32);
            let x = rng.random_range(0..=full) & !blank;
            let pos = Quixo::from_masks(5, x, full & !x & !blank, 0, rng.random_range(0..2u8))
                .map_err(String::from)?;
            if pos.outcome().is_some() {
                continue;
            }
            let Some((value, plies)) = self.value(&pos) else {
                continue;
            };
            let p = prove(&pos, &limits, Some(&*self.full));
            let agrees = match p.value {
                Verdict::Win => value == Value::Win && plies == p.plies,
                Verdict::Loss => value == Value::Loss && plies == p.plies,
                Verdict::Draw => value == Value::Draw,
                Verdict::Unproven => value == Value::Draw || plies.is_some_and(|d| d > max_plies),
            };
            if !agrees {
                return Err(format!(
                    "{pos}: the proving search says {:?} in {:?} plies, the table {value} in {plies:?}",
                    p.value, p.plies
                ));
            }
            checked += 1;
            proven += usize::from(matches!(p.value, Verdict::Win | Verdict::Loss));
        }
        Ok((checked, proven))
    }
}
