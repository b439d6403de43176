//! Iterative deepening stopped inside an iteration: the unfinished iteration's better root
//! move counts. A hand-made two-ply tree whose answer is worked out below, searched under
//! every node limit that stops the second iteration somewhere.

use std::fmt;
use std::str::FromStr;

use tessera::game::{BySeat, Game, MoveCode, MoveError, MoveList, Outcome, PositionError, Seat};
use tessera::search::{Evaluator, Limits, Score, SearchResult, TranspositionTable, search};

/// A tree with three moves (0, 1, 2) at each of its first two plies; the game ends after
/// four plies. Static values, from the root mover's side (seat 0):
///
/// | after | value | after | values of the replies 0, 1, 2 |
/// |---|---|---|---|
/// | A = 0 | 10 | A | -20, 30, 30 |
/// | B = 1 | 5 | B | 8, 9, 7 |
/// | C = 2 | 0 | C | -5, -6, 3 |
///
/// Depth 1 plays A (10); depth 2 sees the opponent's best replies, A -20, B 7, C -6, and
/// plays B (7). The second iteration searches A first (the table's move), then B, which
/// beats A, then C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pick {
    /// The moves so far, one base-3 digit each, first move lowest.
    path: u32,
    len: u8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Choice(u8);

const A: Choice = Choice(0);
const B: Choice = Choice(1);
const C: Choice = Choice(2);

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", ["A", "B", "C"][usize::from(self.0)])
    }
}

impl MoveCode for Choice {
    fn code(self) -> u16 {
        u16::from(self.0)
    }
    fn from_code(code: u16) -> Self {
        Choice(code as u8)
    }
}

impl Pick {
    fn digit(&self, i: u32) -> u32 {
        self.path / 3u32.pow(i) % 3
    }

    /// The static value from seat 0's side (the table above; deeper plies keep the
    /// second ply's value).
    fn value(&self) -> Score {
        const FIRST: [Score; 3] = [10, 5, 0];
        const SECOND: [[Score; 3]; 3] = [[-20, 30, 30], [8, 9, 7], [-5, -6, 3]];
        match self.len {
            0 => 0,
            1 => FIRST[self.digit(0) as usize],
            _ => SECOND[self.digit(0) as usize][self.digit(1) as usize],
        }
    }
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path, self.len)
    }
}

impl FromStr for Pick {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        let bad = || PositionError::Shape(format!("bad pick '{s}'"));
        let (p, l) = s.split_once(' ').ok_or_else(bad)?;
        Ok(Pick {
            path: p.parse().map_err(|_| bad())?,
            len: l.parse().map_err(|_| bad())?,
        })
    }
}

impl Game for Pick {
    type Move = Choice;
    type Moves = MoveList<Choice, 3>;
    const ID: &'static str = "pick";
    const MOVE_CODES: usize = 3;

    fn start() -> Self {
        Pick { path: 0, len: 0 }
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Seat {
        Seat(self.len % 2)
    }
    fn generate_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.len < 4 {
            for k in 0..3 {
                moves.push(Choice(k));
            }
        }
    }
    fn play(&self, mv: Choice) -> Self {
        Pick {
            path: self.path + u32::from(mv.0) * 3u32.pow(u32::from(self.len)),
            len: self.len + 1,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.len >= 4).then(|| {
            let v = self.value();
            Outcome::new(BySeat::from_slice(&[v, -v]))
        })
    }
    fn key(&self) -> u64 {
        u64::from(self.path) << 8 | u64::from(self.len)
    }
    fn parse_move(&self, text: &str) -> Result<Choice, MoveError> {
        match text {
            "A" => Ok(A),
            "B" => Ok(B),
            "C" => Ok(C),
            _ => Err(MoveError::malformed(text, format!("bad move '{text}'"))),
        }
    }
}

/// [`Pick::value`] from the side to move's view.
struct PickEval;

impl Evaluator<Pick> for PickEval {
    fn evaluate(&self, pos: &Pick) -> Score {
        if pos.len.is_multiple_of(2) {
            pos.value()
        } else {
            -pos.value()
        }
    }
    fn terminal(&self, pos: &Pick, _outcome: &Outcome) -> Score {
        self.evaluate(pos)
    }
}

fn search_pick(limits: &Limits) -> (SearchResult<Choice>, Vec<u32>) {
    let tt = TranspositionTable::new(1);
    let mut finished = Vec::new();
    let r = search(&Pick::start(), &PickEval, &tt, limits, |i| {
        finished.push(i.depth);
    });
    (r, finished)
}

#[test]
fn the_toy_tree_has_the_worked_out_answers() {
    let (r1, _) = search_pick(&Limits::depth(1));
    assert_eq!((r1.best_move, r1.score), (Some(A), 10));
    let (r2, _) = search_pick(&Limits::depth(2));
    assert_eq!((r2.best_move, r2.score), (Some(B), 7));
    assert_eq!(r2.pv.len(), 2);
    assert_eq!(r2.pv[0], B);
}

#[test]
fn an_unfinished_iteration_that_proves_a_better_root_move_answers_with_it() {
    let (full, _) = search_pick(&Limits::depth(2));
    let mut seen_b_unfinished = false;
    let mut last_depth_1_move = None;
    // Every node limit from the first iteration's end to the second's: the second
    // iteration stops after A, inside B, after B, inside C.
    for n in 1..=full.nodes + 1 {
        let limits = Limits {
            depth: Some(2),
            nodes: Some(n),
            ..Limits::default()
        };
        let (r, finished) = search_pick(&limits);
        match r.depth {
            2 => assert_eq!((r.best_move, r.score), (Some(B), 7), "{n} nodes"),
            1 => {
                assert_eq!(finished, [1], "{n} nodes");
                // Either the first iteration's answer, or B with its exact depth-2
                // score once the second iteration has proved B better than A; never C
                // and never a score from a search cut short.
                match r.best_move {
                    Some(A) => {
                        assert_eq!(r.score, 10, "{n} nodes");
                        assert_ne!(last_depth_1_move, Some(B), "{n} nodes: back to A");
                    }
                    Some(B) => {
                        assert_eq!(r.score, 7, "{n} nodes");
                        assert_eq!(r.pv.first(), Some(&B), "{n} nodes");
                        seen_b_unfinished = true;
                    }
                    other => panic!("{n} nodes: {other:?}"),
                }
                last_depth_1_move = r.best_move;
            }
            _ => {}
        }
    }
    assert!(
        seen_b_unfinished,
        "no node limit answered with the unfinished iteration's better move"
    );
}
