//! Search limits (depth, nodes, time) and the stop check that enforces them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::time::GameClock;

/// When to stop searching. Unset fields are unlimited; with nothing set the search runs
/// to [`Limits::MAX_DEPTH`].
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Node budget (nodes = positions visited, counted once each).
    pub nodes: Option<u64>,
    /// Wall-clock budget in milliseconds.
    pub time_ms: Option<u64>,
    /// Raised by another thread to stop the search (e.g. a GUI or a tournament timeout).
    pub stop: Option<Arc<AtomicBool>>,
    /// The seat's game clock, when the game is played on one: engines turn it into a time
    /// budget for the move with [`Limits::for_move`] (external engines are sent it).
    pub clock: Option<GameClock>,
}

impl Limits {
    /// Iterative deepening never goes past this many plies.
    pub const MAX_DEPTH: u32 = 60;

    /// A depth limit only.
    #[must_use]
    pub fn depth(d: u32) -> Self {
        Self {
            depth: Some(d),
            ..Self::default()
        }
    }

    /// A time limit only, in milliseconds.
    #[must_use]
    pub fn time_ms(ms: u64) -> Self {
        Self {
            time_ms: Some(ms),
            ..Self::default()
        }
    }

    /// These limits for one move: a game clock becomes a time budget
    /// ([`GameClock::budget_ms`]), the smaller of it and `time_ms` when both are set, and
    /// is then dropped. Every built-in engine calls it first.
    #[must_use]
    pub fn for_move(&self) -> Self {
        self.for_move_within(None)
    }

    /// [`Limits::for_move`] for an engine that knows it has at most `moves_left` moves of
    /// its own still to play (Othello: half the empties, rounded up): the clock is split
    /// by [`GameClock::budget_ms_within`].
    #[must_use]
    pub fn for_move_within(&self, moves_left: Option<u32>) -> Self {
        let mut l = self.clone();
        if let Some(c) = l.clock.take() {
            let b = c.budget_ms_within(moves_left);
            l.time_ms = Some(l.time_ms.map_or(b, |t| t.min(b)));
        }
        l
    }

    /// The deepest iteration to start.
    #[must_use]
    pub fn max_depth(&self) -> u32 {
        self.depth
            .unwrap_or(Self::MAX_DEPTH)
            .clamp(1, Self::MAX_DEPTH)
    }
}

/// Checks the limits during a search; cheap to call at every node (it looks at the clock
/// once every 1024 nodes).
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    next_check: u64,
}

impl Clock {
    /// Starts the clock for `limits` now.
    #[must_use]
    pub fn start(limits: &Limits) -> Self {
        let start = Instant::now();
        Self {
            start,
            deadline: limits.time_ms.map(|ms| start + Duration::from_millis(ms)),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            stop: limits.stop.clone(),
            stopped: false,
            next_check: 0,
        }
    }

    /// A copy for a helper thread's search with its own node count from 0: the same start,
    /// deadline, node limit and stop flag, and the clock read at its first check.
    #[must_use]
    pub fn fork(&self) -> Self {
        Self {
            next_check: 0,
            ..self.clone()
        }
    }

    /// Whether the search must stop, given `nodes` searched so far. Once true, stays true.
    #[inline]
    pub fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.node_limit {
            self.stopped = true;
        } else if nodes >= self.next_check {
            // Callers may count many nodes between calls (a solver's unchecked leaves), so
            // the clock is read once 1024 nodes have passed, not on multiples of 1024.
            self.next_check = nodes + 1024;
            self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        self.stopped
    }

    /// Whether a stop has been decided.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Fraction of the time budget used (0 with no time limit).
    #[must_use]
    pub fn time_used(&self) -> f64 {
        match self.deadline {
            Some(d) => {
                let total = (d - self.start).as_secs_f64().max(1e-9);
                self.start.elapsed().as_secs_f64() / total
            }
            None => 0.0,
        }
    }

    /// Time since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
