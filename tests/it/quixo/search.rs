//! Quixo through the shared search: mate distances of the alpha-beta on `cases.txt`
//! tactics, repetition scored as a draw (the opt-in `Game::REPETITION_DRAWS`, on a toy
//! cycle game with and without it), evaluation symmetry, and the engines of both game ids.

use std::fmt;
use std::str::FromStr;

use tessera::engine::EngineSpec;
use tessera::engine::quixo::make_player;
use tessera::game::{BySeat, Game, MoveCode, MoveError, MoveList, Outcome, PositionError, Seat};
use tessera::games::quixo::eval::{Eval, Weights};
use tessera::games::quixo::{Quixo, Quixo4p};
use tessera::search::{Evaluator, Limits, Score, TranspositionTable, WIN, search};

fn q(text: &str) -> Quixo {
    text.parse().unwrap()
}

fn ab(pos: &Quixo, depth: u32) -> (Score, String) {
    let tt = TranspositionTable::new(4);
    let r = search(pos, &Eval::default(), &tt, &Limits::depth(depth), |_| {});
    (r.score, r.best_move.unwrap().to_string())
}

#[test]
fn alphabeta_finds_mate_distances_of_the_cases() {
    // cases.txt win-in-3-1: WIN, dtw 3, best move c5-e5.
    let (s, m) = ab(&q("OO..X/....X/..OOO/...OX/XX.XO X"), 5);
    assert_eq!((s, m.as_str()), (WIN - 3, "c5-e5"));
    // win-in-1-column: WIN in 1.
    assert_eq!(ab(&q("..O../X.O../X..../X..../X..O. X"), 3).0, WIN - 1);
    // loss-in-2-1: LOSS in 2.
    assert_eq!(ab(&q("X.OOX/O.OX./X..OX/XO..X/XO.XX O"), 4).0, -(WIN - 2));
    // full-every-move-loses: LOSS in 1.
    assert_eq!(ab(&q("OOOOX/OXXXO/OXOOO/OXOOO/XOOOO X"), 2).0, -(WIN - 1));
}

#[test]
fn evaluation_is_symmetric_and_antisymmetric() {
    let e = Eval::default();
    let pos = q("XO.OX/O.X.O/XX.OO/.OX.X/OX.XO X");
    let n = 5u32;
    let map = |m: u32, t: u32| -> u32 {
        (0..n * n)
            .filter(|c| m >> c & 1 == 1)
            .map(|c| {
                let (mut a, mut b) = (c / n, c % n);
                if t & 1 == 1 {
                    (a, b) = (b, a);
                }
                if t & 2 == 2 {
                    a = n - 1 - a;
                }
                if t & 4 == 4 {
                    b = n - 1 - b;
                }
                1 << (a * n + b)
            })
            .sum()
    };
    let base = e.evaluate(&pos);
    for t in 0..8 {
        let p = Quixo::from_masks(5, map(pos.x(), t), map(pos.o(), t), 0, 0).unwrap();
        assert_eq!(e.evaluate(&p), base, "symmetry {t}");
    }
    // Swapping colours and the side to move gives the same score.
    let swapped = Quixo::from_masks(5, pos.o(), pos.x(), 0, 1).unwrap();
    assert_eq!(e.evaluate(&swapped), base);
    // Weights round-trip through their JSON form; unknown names are refused.
    let w = Weights::default();
    assert_eq!(Weights::from_json(&w.to_json()).unwrap(), w);
    assert!(
        Weights::from_json("{\"nope\": 1}")
            .unwrap_err()
            .contains("unknown weight")
    );
    assert!(Weights::load(std::path::Path::new("tuning/quixo-baseline.json")).is_ok());
}

/// A toy game: two seats pass the turn back and forth forever ("wait"), or the mover
/// resigns. Every unfinished position evaluates +50 for the side to move, so without
/// repetition detection the score depends on the depth's parity; with it, the root
/// recurs two plies down and scores 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cycle<const REP: bool> {
    seat: u8,
    resigned: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Act(u8);

impl fmt::Display for Act {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 == 0 { "wait" } else { "resign" })
    }
}
impl MoveCode for Act {
    fn code(self) -> u16 {
        u16::from(self.0)
    }
    fn from_code(c: u16) -> Self {
        Act(c as u8)
    }
}
impl<const REP: bool> fmt::Display for Cycle<REP> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.seat, self.resigned)
    }
}
impl<const REP: bool> FromStr for Cycle<REP> {
    type Err = PositionError;
    fn from_str(_: &str) -> Result<Self, PositionError> {
        Err(PositionError("no text form".into()))
    }
}
impl<const REP: bool> Game for Cycle<REP> {
    type Move = Act;
    type Moves = MoveList<Act, 2>;
    const ID: &'static str = "cycle";
    const MOVE_CODES: usize = 2;
    const REPETITION_DRAWS: bool = REP;
    fn start() -> Self {
        Self {
            seat: 0,
            resigned: false,
        }
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        Seat(self.seat)
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if !self.resigned {
            moves.push(Act(0));
            moves.push(Act(1));
        }
    }
    fn play(&self, mv: Act) -> Self {
        Self {
            seat: self.seat ^ 1,
            resigned: mv.0 == 1,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        self.resigned.then(|| {
            let mut s = BySeat::new(2);
            s[Seat(self.seat)] = 1; // the other seat resigned
            Outcome::new(s)
        })
    }
    fn key(&self) -> u64 {
        u64::from(self.seat) + 2 * u64::from(self.resigned)
    }
    fn parse_move(&self, _: &str) -> Result<Act, MoveError> {
        Err(MoveError("no text form".into()))
    }
}

struct Plus50;
impl<const REP: bool> Evaluator<Cycle<REP>> for Plus50 {
    fn evaluate(&self, _: &Cycle<REP>) -> Score {
        50
    }
    fn terminal(&self, p: &Cycle<REP>, o: &Outcome) -> Score {
        if o.score(p.to_move()) > 0 { WIN } else { -WIN }
    }
}

#[test]
fn repetition_is_a_draw_only_when_the_game_opts_in() {
    for depth in 2..=7 {
        let tt = TranspositionTable::new(1);
        let with = search(
            &Cycle::<true>::start(),
            &Plus50,
            &tt,
            &Limits::depth(depth),
            |_| {},
        );
        assert_eq!(with.score, 0, "depth {depth}");
        assert_eq!(with.best_move, Some(Act(0)));
        let tt = TranspositionTable::new(1);
        let without = search(
            &Cycle::<false>::start(),
            &Plus50,
            &tt,
            &Limits::depth(depth),
            |_| {},
        );
        assert_eq!(without.score.abs(), 50, "depth {depth}");
    }
}

/// An inline spec; a trailing `,playout=P` is set on the parsed spec directly, since the
/// shared spec validation (`src/engine/spec.rs`, owned by the CLI) does not list Quixo's
/// `wins` policy yet.
fn spec(text: &str, game: &str) -> EngineSpec {
    let (text, playout) = match text.split_once(",playout=") {
        Some((t, p)) => (t, Some(p.to_string())),
        None => (text, None),
    };
    let mut s = EngineSpec::from_inline(text, game).unwrap();
    s.playout = playout;
    s
}

#[test]
fn engines_of_both_game_ids_play_legal_moves() {
    let win_in_1 = q("..O../X.O../X..../X..../X..O. X");
    for s in [
        "name=ab,game=quixo,depth=3",
        "name=mc,game=quixo,algo=mcts,iterations=3000",
        "name=mw,game=quixo,algo=mcts,iterations=3000,playout=wins",
    ] {
        let sp = spec(s, "quixo");
        let mut p = make_player::<false>(&sp).unwrap();
        let t = p.choose(&win_in_1, &sp.limits()).unwrap();
        let m = t.best_move.unwrap();
        assert!(win_in_1.is_legal(m), "{s}: {m}");
        let after = win_in_1.play(m);
        assert_eq!(
            after.outcome().map(|o| o.score(Seat(0))),
            Some(1),
            "{s}: {m} does not win"
        );
    }
    for s in [
        "name=ab4,game=quixo-4p,depth=3",
        "name=mc4,game=quixo-4p,algo=mcts,iterations=500,playout=wins",
    ] {
        let sp = spec(s, "quixo-4p");
        let mut p = make_player::<true>(&sp).unwrap();
        let mut pos = Quixo4p::start();
        for _ in 0..12 {
            if pos.outcome().is_some() {
                break;
            }
            let m = p.choose(&pos, &sp.limits()).unwrap().best_move.unwrap();
            assert!(pos.is_legal(m), "{s}: {m} in {pos}");
            pos = pos.play(m);
        }
    }
    assert!(make_player::<false>(&spec("name=x,game=quixo-4p", "quixo")).is_err());
    assert!(make_player::<false>(&spec("name=x,game=quixo,playout=corners", "quixo")).is_err());
}
