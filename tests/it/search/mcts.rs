//! MCTS: legal moves, determinism, threads, MCTS-Solver against the exact endgame solver,
//! the memory budget, a tournament through the binary, and multi-seat toy games (3 seats;
//! 4 seats in two teams) built on the `Game` trait here.

use std::fmt;
use std::process::Command;
use std::str::FromStr;

use tessera::engine::mcts::{MCTS_UNIT, OthelloCornersFirst};
use tessera::engine::{MctsEngine, Player};
use tessera::game::{Game, MoveCode, MoveError, MoveList, Outcome, PositionError, Seat};
use tessera::games::othello::{Move, Position, endgame::Solver};
use tessera::search::mcts::{
    MctsConfig, Parallelism, PlayoutPolicy, Proven, RewardMode, UniformPlayout, mcts, mcts_reusing,
};
use tessera::search::{Limits, TranspositionTable};

use crate::common;
use common::{Rng, moves_of};

/// Random play from the start until `empties` squares are empty and the game is not over.
fn random_position(rng: &mut Rng, empties: u32) -> Option<Position> {
    common::random_position(rng, empties).filter(|p| p.outcome().is_none())
}

pub(crate) fn random_positions(seed: u64, n: usize, lo: u32, hi: u32) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut e = lo;
    while out.len() < n {
        if let Some(p) = random_position(&mut rng, e) {
            out.push(p);
            e = if e >= hi { lo } else { e + 1 };
        }
    }
    out
}

fn cfg(iterations: u64, seed: u64) -> MctsConfig {
    MctsConfig {
        iterations: Some(iterations),
        seed,
        ..MctsConfig::default()
    }
}

/// Exact final disc difference for the side to move.
fn exact(pos: &Position) -> i32 {
    let tt = TranspositionTable::new(4);
    Solver::new(&tt, &Limits::default())
        .solve(pos)
        .score
        .unwrap()
}

fn proven_of(score: i32) -> Proven {
    match score.signum() {
        1 => Proven::Win,
        0 => Proven::Draw,
        _ => Proven::Loss,
    }
}

#[test]
fn legal_moves_from_many_random_positions() {
    for (i, pos) in random_positions(0x3C75_0001, 80, 6, 56).iter().enumerate() {
        let r = mcts(
            pos,
            &cfg(300, i as u64),
            &UniformPlayout,
            &Limits::default(),
        );
        let mv = r.best_move.expect("a move in an unfinished game");
        assert!(pos.is_legal(mv), "illegal {mv} in {pos}");
        assert!(r.iterations >= 1 && r.iterations <= 300, "{}", r.iterations);
        assert!((0.0..=1.0).contains(&r.value));
        assert_eq!(r.pv.first(), Some(&mv));
        let visits: u64 = r.root.iter().map(|c| c.visits).sum();
        assert!(visits <= r.iterations);
        // The corners-first playout policy also gives legal moves.
        let r = mcts(
            pos,
            &cfg(200, i as u64),
            &OthelloCornersFirst,
            &Limits::default(),
        );
        assert!(pos.is_legal(r.best_move.unwrap()));
    }
}

#[test]
fn one_thread_is_deterministic_for_a_seed() {
    for pos in random_positions(0xDE7_0002, 8, 30, 50) {
        let a = mcts(&pos, &cfg(2000, 42), &UniformPlayout, &Limits::default());
        let b = mcts(&pos, &cfg(2000, 42), &UniformPlayout, &Limits::default());
        assert_eq!(a.best_move, b.best_move);
        assert_eq!(a.pv, b.pv);
        assert_eq!(a.value.to_bits(), b.value.to_bits());
        let va: Vec<u64> = a.root.iter().map(|c| c.visits).collect();
        let vb: Vec<u64> = b.root.iter().map(|c| c.visits).collect();
        assert_eq!(va, vb);
    }
    // Through the engine too.
    let mut e1 = MctsEngine::<Position>::new("a", cfg(1500, 7));
    let mut e2 = MctsEngine::<Position>::new("b", cfg(1500, 7));
    let pos = Position::start();
    let (t1, t2) = (
        e1.choose(&pos, &Limits::default()).unwrap(),
        e2.choose(&pos, &Limits::default()).unwrap(),
    );
    assert_eq!(
        (t1.best_move, t1.score, &t1.pv),
        (t2.best_move, t2.score, &t2.pv)
    );
    assert_eq!((t1.nodes, t1.unit), (1500, MCTS_UNIT));
}

#[test]
fn several_threads_give_legal_moves() {
    for (i, pos) in random_positions(0x7A2E_0003, 12, 8, 56).iter().enumerate() {
        let c = MctsConfig {
            threads: 3,
            ..cfg(900, i as u64)
        };
        let r = mcts(pos, &c, &UniformPlayout, &Limits::default());
        assert!(pos.is_legal(r.best_move.unwrap()), "{pos}");
        assert!(r.iterations <= 900 && r.iterations >= 3);
        assert!(r.nodes_used <= r.node_capacity);
    }
}

#[test]
fn time_limit_and_stop_flag_end_the_search() {
    let pos = Position::start();
    let c = MctsConfig::default();
    let t = std::time::Instant::now();
    let r = mcts(&pos, &c, &UniformPlayout, &Limits::time_ms(50));
    assert!(t.elapsed().as_millis() < 1000, "{:?}", t.elapsed());
    assert!(pos.is_legal(r.best_move.unwrap()) && r.iterations > 0);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    let r = mcts(&pos, &c, &UniformPlayout, &limits);
    assert!(r.iterations <= 64, "{}", r.iterations);
    assert!(pos.is_legal(r.best_move.unwrap()));
}

#[test]
fn solver_proves_small_endgames_and_keeps_the_result() {
    let c = MctsConfig {
        max_nodes: MctsConfig::nodes_for_mib(64, Parallelism::Root),
        ..cfg(400_000, 1)
    };
    for pos in random_positions(0x5017_0004, 40, 1, 8) {
        let truth = exact(&pos);
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert_eq!(r.proven, Some(proven_of(truth)), "{pos}: exact {truth}");
        let mv = r.best_move.unwrap();
        let after = pos.play(mv);
        let kept = if after.to_move() == pos.to_move() {
            exact(&after)
        } else {
            -exact(&after)
        };
        assert_eq!(
            kept.signum(),
            truth.signum(),
            "{pos}: {mv} gives {kept}, exact {truth}"
        );
        assert!(r.nodes_used <= r.node_capacity);
    }
}

/// The moves of `pos` that keep a win for the side to move.
pub(crate) fn winning_moves(pos: &Position) -> Vec<Move> {
    moves_of(pos)
        .into_iter()
        .filter(|&m| {
            let after = pos.play(m);
            let v = exact(&after);
            if after.to_move() == pos.to_move() {
                v > 0
            } else {
                v < 0
            }
        })
        .collect()
}

#[test]
fn finds_the_single_winning_move() {
    let mut found = 0;
    for pos in random_positions(0x0001_0005, 400, 6, 9) {
        if moves_of(&pos).len() < 3 {
            continue;
        }
        let wins = winning_moves(&pos);
        if wins.len() != 1 {
            continue;
        }
        let c = MctsConfig {
            max_nodes: MctsConfig::nodes_for_mib(64, Parallelism::Root),
            ..cfg(300_000, 3)
        };
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert_eq!(r.best_move, Some(wins[0]), "{pos}");
        assert_eq!(r.proven, Some(Proven::Win), "{pos}");
        found += 1;
        if found == 6 {
            break;
        }
    }
    assert!(
        found >= 3,
        "too few single-winning-move positions ({found})"
    );
}

#[test]
fn memory_budget_is_respected() {
    let pos = Position::start();
    for (max_nodes, threads) in [(50, 1), (500, 1), (5000, 1), (600, 2)] {
        let c = MctsConfig {
            max_nodes,
            threads,
            ..cfg(20_000, 9)
        };
        let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
        assert!(r.node_capacity <= max_nodes.max(threads * 5));
        assert!(
            r.nodes_used <= r.node_capacity,
            "{} > {}",
            r.nodes_used,
            r.node_capacity
        );
        assert!(
            r.nodes_used * 2 > r.node_capacity,
            "the tree should fill its arena"
        );
        assert_eq!(
            r.iterations, 20_000,
            "iterations go on when the arena is full"
        );
        assert!(pos.is_legal(r.best_move.unwrap()));
    }
}

#[test]
fn margin_rewards_and_progressive_history_play_legal_moves() {
    for (i, pos) in random_positions(0x4A26_0006, 10, 10, 50).iter().enumerate() {
        let c = MctsConfig {
            reward: RewardMode::Margin { scale: 64 },
            history: 1.0,
            ..cfg(500, i as u64)
        };
        let r = mcts(pos, &c, &UniformPlayout, &Limits::default());
        assert!(pos.is_legal(r.best_move.unwrap()));
        assert!((0.0..=1.0).contains(&r.value));
    }
}

#[test]
fn tree_reuse_between_moves() {
    let start = Position::start();
    let mut keep = None;
    let c = cfg(5000, 11);
    let r1 = mcts_reusing(&start, &c, &UniformPlayout, &Limits::default(), &mut keep);
    assert!(
        keep.as_ref()
            .is_some_and(|k| k.len() == r1.nodes_used && k.len() > 1)
    );
    assert!(r1.pv.len() >= 2, "{:?}", r1.pv);
    // Two plies later (our move, the reply the tree liked best) the subtree is reused.
    let pos = start.play(r1.pv[0]).play(r1.pv[1]);
    let c2 = cfg(1000, 12);
    let r2 = mcts_reusing(&pos, &c2, &UniformPlayout, &Limits::default(), &mut keep);
    assert!(pos.is_legal(r2.best_move.unwrap()));
    assert_eq!(r2.iterations, 1000);
    let visits: u64 = r2.root.iter().map(|c| c.visits).sum();
    assert!(visits > 1000, "reused visits expected, got {visits}");
    assert!(r2.nodes_used <= r2.node_capacity);
    // A position the kept tree never reached starts afresh.
    let other = random_positions(0x0BAD_0007, 1, 40, 40).remove(0);
    let r3 = mcts_reusing(&other, &c2, &UniformPlayout, &Limits::default(), &mut keep);
    let visits: u64 = r3.root.iter().map(|c| c.visits).sum();
    assert!(visits <= 1000 && other.is_legal(r3.best_move.unwrap()));
    // Several threads keep nothing.
    let c4 = MctsConfig { threads: 2, ..c2 };
    let _ = mcts_reusing(&other, &c4, &UniformPlayout, &Limits::default(), &mut keep);
    assert!(keep.is_none());
}

#[test]
fn tree_reuse_in_a_small_arena_and_in_the_engine_is_deterministic() {
    // Self-play with two identical reusing engines: identical games; every move legal and
    // every kept tree within its arena.
    let c = MctsConfig {
        max_nodes: 400,
        ..cfg(800, 21)
    };
    let play = || {
        let mut a = MctsEngine::<Position>::new("a", c.clone());
        let mut b = MctsEngine::<Position>::new("b", c.clone());
        let mut pos = Position::start();
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let e = if moves.len() % 2 == 0 { &mut a } else { &mut b };
            let t = e.choose(&pos, &Limits::default()).unwrap();
            assert!(e.kept_nodes() <= 400);
            let mv = t.best_move.unwrap();
            assert!(pos.is_legal(mv), "{mv} in {pos}");
            pos = pos.play(mv);
            moves.push(mv);
        }
        moves
    };
    assert_eq!(play(), play());
}

#[test]
fn tournament_against_alphabeta_completes() {
    let out = std::env::temp_dir().join(format!("tessera-mcts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tournament", "othello", "--no-progress", "--out"])
        .arg(&out)
        .args([
            "--engines",
            "othello-mcts-i2000,othello-ab-d1",
            "--rounds",
            "4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(text.contains("8 games of othello (normal 8)"), "{text}");
    let records = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 8);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bestmove_command_runs_mcts() {
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "bestmove",
            "othello",
            "--algo",
            "mcts",
            "--iterations",
            "3000",
        ])
        .args(["--threads", "2", "--seed", "5", "--c", "0.8", "--json"])
        // The opening book answers the start position before any search; this test is
        // about the MCTS search itself.
        .args(["--book", "none"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["unit"], MCTS_UNIT);
    assert_eq!(v["nodes"], 3000);
    let mv = v["move"].as_str().unwrap();
    assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{mv}");
}

/// The tree-parallel arena is not written before the search: a 1 GiB arena under a 1 ms
/// budget answers at once (it spent 1.2-2.4 s writing zeros inside the move's clock, and
/// forfeited tournament games on time) and the process stays small (only the pages of
/// the nodes it made are touched).
#[test]
fn a_large_tree_parallel_arena_costs_nothing_up_front() {
    let o = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["bestmove", "othello", "--algo", "mcts", "--book", "none"])
        .args([
            "--time-ms",
            "1",
            "--threads",
            "2",
            "--mcts-parallel",
            "tree",
        ])
        .args(["--tt-mb", "1024", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Generous for a loaded machine; the zero-writing arena took over a second.
    let seconds = v["seconds"].as_f64().unwrap();
    assert!(seconds < 0.5, "{seconds} s for a 1 ms budget");
}

// ---- Toy games on the Game trait --------------------------------------------------------

/// Take 1 or 2 tokens from a pile; whoever takes the last token wins (with teams: their
/// team wins). Seats move in rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Nim {
    pile: u8,
    seats: u8,
    to_move: u8,
    /// Seats 0 and 2 against 1 and 3.
    teams: bool,
    last: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Take(u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl MoveCode for Take {
    fn code(self) -> u16 {
        u16::from(self.0)
    }
    fn from_code(code: u16) -> Self {
        Take(code as u8)
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.pile, self.seats, self.to_move, self.teams
        )
    }
}

impl FromStr for Nim {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let bad = || PositionError(format!("bad nim '{s}'"));
        let v: Vec<&str> = s.split_whitespace().collect();
        if v.len() != 4 {
            return Err(bad());
        }
        Ok(Nim {
            pile: v[0].parse().map_err(|_| bad())?,
            seats: v[1].parse().map_err(|_| bad())?,
            to_move: v[2].parse().map_err(|_| bad())?,
            teams: v[3].parse().map_err(|_| bad())?,
            last: 0,
        })
    }
}

impl Game for Nim {
    type Move = Take;
    type Moves = MoveList<Take, 2>;
    const ID: &'static str = "nim";
    const MOVE_CODES: usize = 3;

    fn start() -> Self {
        Nim {
            pile: 7,
            seats: 3,
            to_move: 0,
            teams: false,
            last: 0,
        }
    }
    fn seats(&self) -> usize {
        usize::from(self.seats)
    }
    fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    fn team(&self, seat: Seat) -> u8 {
        if self.teams { seat.0 % 2 } else { seat.0 }
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        for k in 1..=2 {
            if k <= self.pile {
                moves.push(Take(k));
            }
        }
    }
    fn play(&self, mv: Take) -> Self {
        Nim {
            pile: self.pile - mv.0,
            to_move: (self.to_move + 1) % self.seats,
            last: self.to_move,
            ..*self
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.pile > 0 {
            return None;
        }
        let winner = self.team(Seat(self.last));
        let scores: Vec<i32> = (0..self.seats)
            .map(|s| i32::from(self.team(Seat(s)) == winner))
            .collect();
        Some(Outcome::new(tessera::game::BySeat::from_slice(&scores)))
    }
    fn key(&self) -> u64 {
        u64::from(self.pile) << 8 | u64::from(self.to_move)
    }
    fn parse_move(&self, text: &str) -> Result<Take, MoveError> {
        let m = Take(
            text.parse()
                .map_err(|_| MoveError(format!("bad move '{text}'")))?,
        );
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError(format!("illegal move '{text}'")))
        }
    }
}

/// A playout policy that always takes one token (to check the hook is used).
struct TakeOne;

impl PlayoutPolicy<Nim> for TakeOne {
    fn pick(&self, _pos: &Nim, _moves: &[Take], _rng: &mut rand::rngs::StdRng) -> usize {
        0
    }
}

#[test]
fn three_seat_toy_game_takes_the_win() {
    let pos = Nim {
        pile: 2,
        seats: 3,
        to_move: 1,
        teams: false,
        last: 0,
    };
    let r = mcts(&pos, &cfg(500, 1), &UniformPlayout, &Limits::default());
    assert_eq!(r.best_move, Some(Take(2)));
    // Three teams: no solver, but the value of the win is learnt.
    assert_eq!(r.proven, None);
    assert!(r.value > 0.9, "{}", r.value);
    // From a larger pile, seat 0 (whose only other outcomes lose) takes the winning line
    // when seat 1 and seat 2 cannot stop it: pile 1 -> take it.
    let pos = Nim { pile: 1, ..pos };
    let r = mcts(&pos, &cfg(50, 1), &TakeOne, &Limits::default());
    assert_eq!(r.best_move, Some(Take(1)));
    // Every move is legal from every pile, for every seat to move.
    for pile in 1..12 {
        for to_move in 0..3 {
            let p = Nim {
                pile,
                to_move,
                ..pos
            };
            let r = mcts(
                &p,
                &cfg(300, u64::from(pile)),
                &UniformPlayout,
                &Limits::default(),
            );
            assert!(p.is_legal(r.best_move.unwrap()));
        }
    }
}

#[test]
fn three_seat_max_n_values_are_per_seat() {
    // Pile 3, seat 0 to move: taking 1 leaves 2 for seat 1 (who takes both and wins);
    // taking 2 leaves 1 for seat 1 (who takes it and wins): seat 0 loses either way, and
    // seat 1 wins, so seat 1's value at the root is high while seat 0's is low.
    let pos = Nim {
        pile: 3,
        seats: 3,
        to_move: 0,
        teams: false,
        last: 0,
    };
    let r = mcts(&pos, &cfg(3000, 2), &UniformPlayout, &Limits::default());
    // Seat 0's reward in a loss with the other two tied at the bottom... the winner is
    // seat 1, so seat 0 shares last place with seat 2: (0 + 0.5) / 2 = 0.25.
    assert!((r.value - 0.25).abs() < 0.05, "{}", r.value);
}

#[test]
fn four_seats_in_two_teams_help_the_team() {
    // Seats 0 and 2 against 1 and 3. Pile 4, seat 0 to move: taking 1 leaves 3 for seat 1,
    // after which seat 2 (seat 0's partner) takes the last token whatever seat 1 does;
    // taking 2 lets seat 1 take the last two. Seat 0 never takes the last token itself.
    let pos = Nim {
        pile: 4,
        seats: 4,
        to_move: 0,
        teams: true,
        last: 0,
    };
    let r = mcts(&pos, &cfg(2000, 4), &UniformPlayout, &Limits::default());
    assert_eq!(r.best_move, Some(Take(1)));
    // Two teams: the solver proves the team's win.
    assert_eq!(r.proven, Some(Proven::Win));
    // Without the solver, statistics alone find the same move.
    let c = MctsConfig {
        solver: false,
        ..cfg(3000, 4)
    };
    let r = mcts(&pos, &c, &UniformPlayout, &Limits::default());
    assert_eq!(r.best_move, Some(Take(1)));
    assert!(r.value > 0.6, "{}", r.value);
    // Pile 3 for seat 1 is a proven loss for its team (seats 1 and 3).
    let pos = Nim {
        pile: 3,
        to_move: 1,
        ..pos
    };
    let r = mcts(&pos, &cfg(2000, 4), &UniformPlayout, &Limits::default());
    assert_eq!(r.proven, Some(Proven::Loss));
    assert!(pos.is_legal(r.best_move.unwrap()));
}

/// Hot nodes' per-thread deltas all reach the shared statistics: on every node reachable
/// from the root the two seats' fixed-point reward sums equal its visits exactly, children
/// never have more visits than their parent, the root has one visit per simulation, and
/// nodes are hot only with several threads (the check runs inside the search layer's test
/// hook; the game is Othello's start position).
#[test]
fn hot_node_deltas_are_all_flushed_into_the_shared_statistics() {
    use tessera::search::{HOT_VISITS, check_flushed_statistics};
    for (threads, hot_visits) in [(1, u32::MAX), (2, 8), (2, HOT_VISITS), (3, 2)] {
        let what = format!("{threads} threads, hot at {hot_visits}");
        let (ran, root, checked, hot) =
            check_flushed_statistics(&Position::start(), threads, hot_visits, 20_000);
        assert_eq!(ran, 20_000, "{what}");
        assert_eq!(root, 20_000, "{what}: root");
        assert!(checked > 1000, "{what}: {checked} nodes");
        if threads == 1 {
            assert_eq!(hot, 0, "{what}: one thread keeps no node hot");
        } else {
            // The root and its 4 children, and nodes that crossed the threshold.
            assert!(hot > 5, "{what}: {hot} hot nodes");
        }
    }
}
