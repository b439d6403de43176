//! The Othello opening book: positions with a searched value for every legal move, grown
//! best-first from the start, stored compactly, and a [`BookPlayer`] that plays from it.
//!
//! **Entries.** One entry per class of symmetric positions (the canonical form of
//! [`crate::games::othello::symmetry`]): the search depth and, for every legal move, its
//! value for the side to move in centi-discs. A value is the score of [`analyze_moves`] at
//! the book depth (made even at the leaves by [`parity_depth`]), or, once the position after
//! the move is in the book too, minus that position's backed-up value (negamax over the book).
//!
//! **Growth** (a best-first drop-out expansion, after Lincke's drop-out expansion and the
//! deviation idea of Edax's book learning): from the start, the cost of reaching a position
//! is the sum over its line of each move's error (how much worse than the best move of its
//! position, in centi-discs) plus `ply_cost` per ply. The position not yet in the book with
//! the lowest cost (and at most `max_plies` plies deep) is analysed and added, values are
//! backed up, and so on: best lines grow deep, good alternatives are kept, bad moves stop.
//!
//! **File** (little-endian): the magic `TSBOOK1\n`, the entry count (u32), then per entry,
//! sorted by position: player discs (u64), opponent discs (u64), depth (u8), move count
//! (u8), and per move its square in the canonical frame (u8; 64 = pass) and value (i16).
//! About 18 + 3 x moves bytes per position.

use std::collections::{BinaryHeap, HashMap};
use std::path::Path;
use std::sync::Arc;

use super::analyze::analyze_moves;
use super::{EngineSpec, Player, Thought};
use crate::game::{Game, MoveCode};
use crate::games::othello::symmetry::{apply_square, canonical, unapply_square};
use crate::games::othello::{Move, Position};
use crate::search::Limits;

const MAGIC: &[u8; 8] = b"TSBOOK1\n";

/// The largest book value, centi-discs: a 64-disc win.
const MAX_VALUE: i32 = 6400;

/// The book shipped with tessera (`books/othello.book`), compiled into the binary.
const BUILTIN: &[u8] = include_bytes!("../../books/othello.book");

/// One book position: the depth of its analysis and every move's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Search depth of the analysis (plies, the move included).
    pub depth: u8,
    /// (move code in the canonical frame, value for the side to move in centi-discs).
    pub moves: Vec<(u8, i16)>,
}

/// A book move of a position: the move (in the position's own frame), its value for the
/// side to move in centi-discs, and the depth behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The move.
    pub mv: Move,
    /// Value for the side to move, centi-discs.
    pub score: i32,
    /// Depth of the analysis.
    pub depth: u32,
}

/// An Othello opening book (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: HashMap<(u64, u64), BookEntry>,
}

fn code_of(mv: Move, sym: u8) -> u8 {
    match mv.square() {
        Some(sq) => apply_square(sq.index() as u8, sym),
        None => 64,
    }
}

fn move_of(code: u8, sym: u8) -> Move {
    if code >= 64 {
        Move::PASS
    } else {
        Move::from_code(u16::from(unapply_square(code, sym)))
    }
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The book compiled into the binary.
    ///
    /// # Panics
    /// Never for the shipped file (a test reads it).
    #[must_use]
    pub fn builtin() -> Arc<Book> {
        static BOOK: std::sync::OnceLock<Arc<Book>> = std::sync::OnceLock::new();
        BOOK.get_or_init(|| Arc::new(Book::from_bytes(BUILTIN).expect("the shipped book reads")))
            .clone()
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `pos` (any symmetric image), with the symmetry to its canonical frame.
    fn entry(&self, pos: &Position) -> Option<(&BookEntry, u8)> {
        let (key, sym) = canonical(pos.player(), pos.opponent());
        self.entries.get(&key).map(|e| (e, sym))
    }

    /// Whether `pos` is in the book.
    #[must_use]
    pub fn contains(&self, pos: &Position) -> bool {
        self.entry(pos).is_some()
    }

    /// The depth of `pos`'s analysis, `None` when it is not in the book.
    #[must_use]
    pub fn depth_of(&self, pos: &Position) -> Option<u32> {
        self.entry(pos).map(|(e, _)| u32::from(e.depth))
    }

    /// Learns a game (NBoard's `learn`, after Edax's book learning): every unfinished
    /// position of the line `moves` from `start` with more than `min_empties` empty squares
    /// (closer to the end the engine solves exactly, so a book entry adds nothing) that the
    /// book lacks, or knows only from a shallower analysis, is analysed with `engine` to
    /// `depth` and added, and the values are backed up. `stop` ends the work between (or
    /// during) analyses; a position whose analysis was cut short is not added. Returns the
    /// number of positions added or deepened.
    ///
    /// # Errors
    /// A move of the line that is illegal where it is played (nothing is learned then), or
    /// the engine's failure.
    pub fn learn(
        &mut self,
        engine: &mut dyn Player<Position>,
        start: &Position,
        moves: &[Move],
        depth: u32,
        min_empties: u32,
        stop: Option<&Arc<std::sync::atomic::AtomicBool>>,
    ) -> Result<usize, String> {
        let mut line = Vec::with_capacity(moves.len() + 1);
        let mut pos = *start;
        for (ply, &mv) in moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(format!("ply {}: {mv} is not legal in {pos}", ply + 1));
            }
            line.push(pos);
            pos = pos.play(mv);
        }
        line.push(pos);
        let stopped = || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let limits = Limits {
            depth: Some(depth),
            stop: stop.cloned(),
            ..Limits::default()
        };
        let mut learned = 0;
        for p in line {
            if stopped() {
                break;
            }
            let depth = parity_depth(&p, depth);
            if p.outcome().is_some()
                || p.empties() <= min_empties
                || self.depth_of(&p).is_some_and(|d| d >= depth)
            {
                continue;
            }
            let limits = Limits {
                depth: Some(depth),
                ..limits.clone()
            };
            let thoughts = analyze_moves(engine, &p, &limits)?;
            if stopped() {
                break;
            }
            self.insert(&p, &thoughts, depth);
            learned += 1;
        }
        Ok(learned)
    }

    /// Every move of `pos` with its value, best first (ties: the lower square first);
    /// empty when `pos` is not in the book.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Vec<Suggestion> {
        let Some((entry, sym)) = self.entry(pos) else {
            return Vec::new();
        };
        let mut out: Vec<Suggestion> = entry
            .moves
            .iter()
            .map(|&(code, score)| Suggestion {
                mv: move_of(code, sym),
                score: i32::from(score),
                depth: u32::from(entry.depth),
            })
            .collect();
        out.sort_by_key(|s| (std::cmp::Reverse(s.score), s.mv));
        out
    }

    /// Adds (or replaces) `pos` with the analysis `thoughts` (one per legal move, as
    /// [`analyze_moves`] returns them) at `depth`, then backs the values up to the start.
    pub fn insert(&mut self, pos: &Position, thoughts: &[Thought<Move>], depth: u32) {
        let (key, sym) = canonical(pos.player(), pos.opponent());
        let moves = thoughts
            .iter()
            .filter_map(|t| {
                let mv = t.best_move?;
                let score = t.score.clamp(-6400, 6400) as i16;
                Some((code_of(mv, sym), score))
            })
            .collect();
        self.entries.insert(
            key,
            BookEntry {
                depth: depth.min(255) as u8,
                moves,
            },
        );
        self.backup();
    }

    /// Recomputes every value whose move leads into the book: minus the value of the
    /// position it leads to (negamax over the book; the book is acyclic since every move
    /// but a pass adds a disc and two passes end the game).
    pub fn backup(&mut self) {
        let mut memo: HashMap<(u64, u64), i16> = HashMap::new();
        let keys: Vec<(u64, u64)> = self.entries.keys().copied().collect();
        for key in keys {
            self.value_of(key, &mut memo);
        }
    }

    /// The backed-up value of the canonical position `key` (in the book), updating its
    /// moves' values.
    fn value_of(&mut self, key: (u64, u64), memo: &mut HashMap<(u64, u64), i16>) -> i16 {
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let pos = position_of(key);
        let moves = self.entries[&key].moves.clone();
        let mut updated = Vec::with_capacity(moves.len());
        for (code, score) in moves {
            let child = pos.play(move_of(code, 0));
            let (ckey, _) = canonical(child.player(), child.opponent());
            let value = if child.outcome().is_none() && self.entries.contains_key(&ckey) {
                -self.value_of(ckey, memo)
            } else {
                score
            };
            updated.push((code, value));
        }
        let best = updated.iter().map(|&(_, v)| v).max().unwrap_or(0);
        if let Some(e) = self.entries.get_mut(&key) {
            e.moves = updated;
        }
        memo.insert(key, best);
        best
    }

    /// The position not in the book to analyse next (see the module documentation): the
    /// lowest line cost, at most `max_plies` plies from the start; `None` when none is left.
    #[must_use]
    pub fn next_to_expand(&self, ply_cost: i32, max_plies: u32) -> Option<Position> {
        let root = Position::start();
        if !self.contains(&root) {
            return Some(root);
        }
        // Dijkstra over lines: (cost, plies, index of the position), edge costs >= ply_cost.
        let mut heap = BinaryHeap::new();
        let mut done: std::collections::HashSet<(u64, u64)> = std::collections::HashSet::new();
        let mut positions = vec![root];
        heap.push(std::cmp::Reverse((0i64, 0u32, 0usize)));
        while let Some(std::cmp::Reverse((cost, plies, index))) = heap.pop() {
            let pos = positions[index];
            let (key, _) = canonical(pos.player(), pos.opponent());
            if !done.insert(key) {
                continue;
            }
            let suggestions = self.probe(&pos);
            if suggestions.is_empty() {
                return Some(pos);
            }
            if plies >= max_plies {
                continue;
            }
            let best = suggestions[0].score;
            for s in suggestions {
                let child = pos.play(s.mv);
                if child.outcome().is_some() {
                    continue;
                }
                let c = cost + i64::from(best - s.score) + i64::from(ply_cost);
                heap.push(std::cmp::Reverse((c, plies + 1, positions.len())));
                positions.push(child);
            }
        }
        None
    }

    /// Analyses the next position (see [`Book::next_to_expand`]) with `engine` to `depth`
    /// and adds it; returns it, or `None` when nothing is left to expand.
    ///
    /// # Errors
    /// The engine's failure.
    pub fn expand(
        &mut self,
        engine: &mut dyn Player<Position>,
        depth: u32,
        ply_cost: i32,
        max_plies: u32,
    ) -> Result<Option<Position>, String> {
        let Some(pos) = self.next_to_expand(ply_cost, max_plies) else {
            return Ok(None);
        };
        let depth = parity_depth(&pos, depth);
        let thoughts = analyze_moves(engine, &pos, &Limits::depth(depth))?;
        self.insert(&pos, &thoughts, depth);
        Ok(Some(pos))
    }

    /// The book in its file form (see the module documentation).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut keys: Vec<&(u64, u64)> = self.entries.keys().collect();
        keys.sort();
        let mut out = Vec::with_capacity(12 + self.entries.len() * 50);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for key in keys {
            let e = &self.entries[key];
            out.extend_from_slice(&key.0.to_le_bytes());
            out.extend_from_slice(&key.1.to_le_bytes());
            out.push(e.depth);
            out.push(e.moves.len() as u8);
            for &(code, value) in &e.moves {
                out.push(code);
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out
    }

    /// Reads the file form.
    ///
    /// # Errors
    /// A wrong magic or an empty file, a cut-short file, overlapping discs, a finished game,
    /// an entry without exactly its position's legal moves (each once; a pass only where
    /// there is no move) or with a move code over 64, a value beyond ±6400 centi-discs, a
    /// position stored twice, or bytes after the last entry. Entries are counted from 1.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader { bytes, at: 0 };
        if bytes.is_empty() {
            return Err("the file is empty, not a tessera book".into());
        }
        // A short file that is not the start of the magic is another file, not a cut one.
        if !bytes.starts_with(MAGIC) && !MAGIC.starts_with(bytes) {
            return Err("not a tessera book (the file does not start with TSBOOK1)".into());
        }
        r.take(8)?;
        let count = u32::from_le_bytes(r.take(4)?.try_into().expect("4 bytes"));
        // The count is the file's word: reserve no more than its bytes can hold (an entry
        // is at least 18 bytes), so a corrupt count is a cut-short file, not a huge allocation.
        let mut entries = HashMap::with_capacity((count as usize).min(bytes.len() / 18));
        // Entries are numbered from 1 in messages.
        for i in 1..=count {
            let player = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
            let opponent = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
            if player & opponent != 0 {
                return Err(format!("book entry {i}: the two colours overlap"));
            }
            let depth = r.take(1)?[0];
            let n = r.take(1)?[0];
            let pos = position_of((player, opponent));
            let legal = pos.legal_placements();
            if legal == 0 && pos.is_game_over() {
                return Err(format!("book entry {i}: the game is over in its position"));
            }
            // An entry holds every legal move's value (a pass where there is no move).
            let want = legal.count_ones().max(1);
            if u32::from(n) != want {
                return Err(format!(
                    "book entry {i}: {n} moves, but its position has {want} (an entry values every move)"
                ));
            }
            let mut moves = Vec::with_capacity(usize::from(n));
            let mut seen = 0u128;
            for _ in 0..n {
                let code = r.take(1)?[0];
                if code > 64 {
                    return Err(format!("book entry {i}: move code {code} is not a square"));
                }
                // The canonical key and the codes share one frame: each move must be legal
                // there (a pass only when there is no other move), once.
                let legal_here = if code == 64 {
                    legal == 0
                } else {
                    legal >> code & 1 == 1
                };
                if !legal_here || seen >> code & 1 == 1 {
                    let what = if legal_here {
                        "twice"
                    } else {
                        "an illegal move"
                    };
                    return Err(format!(
                        "book entry {i}: move code {code} is {what} in its position"
                    ));
                }
                seen |= 1 << code;
                let value = i16::from_le_bytes(r.take(2)?.try_into().expect("2 bytes"));
                if i32::from(value).abs() > MAX_VALUE {
                    return Err(format!(
                        "book entry {i}: value {value} is beyond +-{MAX_VALUE} centi-discs"
                    ));
                }
                moves.push((code, value));
            }
            if entries
                .insert((player, opponent), BookEntry { depth, moves })
                .is_some()
            {
                return Err(format!("book entry {i}: its position is in the book twice"));
            }
        }
        if r.at != bytes.len() {
            let extra = bytes.len() - r.at;
            let unit = if extra == 1 { "byte" } else { "bytes" };
            return Err(format!("{extra} {unit} after the last book entry"));
        }
        Ok(Self { entries })
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// An unreadable or malformed file, naming it.
    pub fn load(path: &Path) -> Result<Self, String> {
        let bytes = crate::game::files::read_bytes(path, "book", 1 << 30)?;
        Self::from_bytes(&bytes).map_err(|e| format!("book {}: {e}", path.display()))
    }

    /// Writes the book to `path` (through a temporary file and a rename, so an interrupted
    /// write leaves the old book).
    ///
    /// # Errors
    /// An unwritable path.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("book.tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write book {}: {e}", path.display()))
    }
}

/// The analysis depth the book uses for `pos` when asked for `depth`: `depth`, or
/// `depth + 1` so that every search ends with an even number of empty squares.
///
/// Othello evaluations swing with the parity of the search depth (tessera's pattern
/// evaluation after f5d6c3: -1.23, +0.49, -1.63 discs at depths 6, 7, 8), and negamax over the
/// book compares a move whose child is in the book (its value from searches one ply
/// deeper) with moves valued by the position's own analysis. With every search ending at
/// the same parity of empties (the same side to move, passes aside), those values are
/// comparable.
#[must_use]
pub fn parity_depth(pos: &Position, depth: u32) -> u32 {
    depth + (pos.empties() + depth) % 2
}

/// The position of a canonical key (the side to move's colour does not matter to the book).
fn position_of(key: (u64, u64)) -> Position {
    use crate::games::othello::Color;
    Position::from_colors(key.0, key.1, Color::Black).expect("book discs do not overlap")
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at + n;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or("the book file is cut short")?;
        self.at = end;
        Ok(slice)
    }
}

/// `player` wrapped in the opening book its spec names (`book = "builtin"` or a file; see
/// [`EngineSpec::book_source`]), or `player` itself when the spec has none.
///
/// # Errors
/// A book file that cannot be read or is not a tessera book (named in the message).
pub fn with_spec_book(
    spec: &EngineSpec,
    player: Box<dyn Player<Position>>,
) -> Result<Box<dyn Player<Position>>, String> {
    Ok(match spec.book_source() {
        None => player,
        Some("builtin") => Box::new(BookPlayer::new(player, Book::builtin())),
        Some(path) => Box::new(BookPlayer::new(
            player,
            Arc::new(Book::load(Path::new(path))?),
        )),
    })
}

/// A player that plays the book's best move where the book knows the position, and asks
/// the engine it wraps everywhere else.
pub struct BookPlayer {
    inner: Box<dyn Player<Position>>,
    book: Arc<Book>,
    name: String,
}

impl BookPlayer {
    /// `inner` with `book`.
    #[must_use]
    pub fn new(inner: Box<dyn Player<Position>>, book: Arc<Book>) -> Self {
        let name = inner.name().to_string();
        Self { inner, book, name }
    }
}

impl Player<Position> for BookPlayer {
    fn set_progress(&mut self, progress: super::ProgressFn<Move>) {
        self.inner.set_progress(progress);
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.inner.new_game();
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Thought<Move>, String> {
        match self.book.probe(pos).first() {
            Some(s) => Ok(Thought {
                best_move: Some(s.mv),
                score: s.score,
                exact: false,
                depth: s.depth,
                nodes: 0,
                elapsed: std::time::Duration::ZERO,
                pv: vec![s.mv],
                unit: crate::games::othello::SCORE_UNIT,
            }),
            None => self.inner.choose(pos, limits),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello as oth;

    fn engine() -> impl Player<Position> {
        crate::engine::othello::alphabeta_engine("t", oth::eval::Weights::default(), 1, 0)
    }

    #[test]
    fn a_small_book_grows_best_first_and_round_trips() {
        let mut book = Book::new();
        let mut e = engine();
        for _ in 0..6 {
            assert!(book.expand(&mut e, 2, 100, 10).unwrap().is_some());
        }
        assert_eq!(book.len(), 6);
        // The start's four moves are one class: its entry has 4 moves of one value, and
        // the second position added is that class.
        let start = book.probe(&Position::start());
        assert_eq!(start.len(), 4);
        assert!(start.iter().all(|s| s.score == start[0].score));
        let f5 = Position::start().play(Move::parse("f5").unwrap());
        let d3 = Position::start().play(Move::parse("d3").unwrap());
        assert!(book.contains(&f5) && book.contains(&d3));
        // The start's value is minus the value of the position after a first move.
        assert_eq!(start[0].score, -book.probe(&f5)[0].score);
        // Symmetric positions get symmetric moves: after d3 the book's moves are legal.
        for s in book.probe(&d3) {
            assert!(d3.is_legal(s.mv), "{}", s.mv);
        }
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Book::from_bytes(b"garbage!").is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Book::from_bytes(&longer).is_err());
        // A corrupt entry count is a cut-short file, not a 400 GB allocation (review defect).
        let mut huge = b"TSBOOK1\n".to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            Book::from_bytes(&huge).unwrap_err(),
            "the book file is cut short"
        );
    }

    #[test]
    fn a_book_with_impossible_moves_or_values_is_refused() {
        let good = Book::builtin().to_bytes();
        assert_eq!(Book::from_bytes(&good).unwrap(), *Book::builtin());
        // Entry 0 starts at byte 12: discs (16 bytes), depth, move count, then (code, value).
        let player = u64::from_le_bytes(good[12..20].try_into().unwrap());
        assert!(good[29] >= 2, "the first entry has two moves");
        let (first, second, value) = (30, 33, 31..33);
        // A move onto one of the mover's own discs: illegal.
        let mut b = good.clone();
        b[first] = player.trailing_zeros() as u8;
        let e = Book::from_bytes(&b).unwrap_err();
        assert!(
            e.starts_with("book entry 1: move code") && e.contains("illegal"),
            "{e}"
        );
        // A pass where there are moves.
        b[first] = 64;
        assert!(Book::from_bytes(&b).unwrap_err().contains("illegal"));
        // The same move twice.
        let mut b = good.clone();
        b[second] = b[first];
        assert!(Book::from_bytes(&b).unwrap_err().contains("twice"));
        // A value beyond a 64-disc win (it read as a forced win in 1000 plies).
        let mut b = good.clone();
        b[value].copy_from_slice(&30000i16.to_le_bytes());
        assert!(Book::from_bytes(&b).unwrap_err().contains("value 30000"));
        // An entry without every legal move (here with none).
        let mut b = good.clone();
        b[29] = 0;
        let e = Book::from_bytes(&b).unwrap_err();
        assert!(
            e.starts_with("book entry 1: 0 moves, but its position has"),
            "{e}"
        );
        // One position twice (the first entry copied into a two-entry book).
        let len = 18 + 3 * usize::from(good[29]);
        let mut b = good[..8].to_vec();
        b.extend_from_slice(&2u32.to_le_bytes());
        b.extend_from_slice(&good[12..12 + len]);
        b.extend_from_slice(&good[12..12 + len]);
        let e = Book::from_bytes(&b).unwrap_err();
        assert_eq!(e, "book entry 2: its position is in the book twice");
        let mut b = good.clone();
        b.push(0);
        let e = Book::from_bytes(&b).unwrap_err();
        assert_eq!(e, "1 byte after the last book entry");
        // Files that are not books at all, however short, say so; a cut magic is cut short.
        assert!(Book::from_bytes(b"").unwrap_err().contains("empty"));
        assert!(
            Book::from_bytes(b"hello\n")
                .unwrap_err()
                .contains("not a tessera book")
        );
        assert_eq!(
            Book::from_bytes(b"TSBO").unwrap_err(),
            "the book file is cut short"
        );
    }

    #[test]
    fn the_book_player_plays_the_best_book_move_then_searches() {
        let mut book = Book::new();
        let mut e = engine();
        book.expand(&mut e, 2, 100, 10).unwrap();
        let mut p = BookPlayer::new(Box::new(engine()), Arc::new(book));
        let t = p.choose(&Position::start(), &Limits::depth(1)).unwrap();
        assert_eq!(t.nodes, 0, "from the book");
        assert!(Position::start().is_legal(t.best_move.unwrap()));
        let after = Position::from_transcript("f5d6").unwrap();
        let t = p.choose(&after, &Limits::depth(2)).unwrap();
        assert!(t.nodes > 0, "searched");
    }

    #[test]
    fn learning_a_game_adds_its_midgame_positions_and_backs_them_up() {
        let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4", "f4"]
            .iter()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        let mut book = Book::new();
        let mut e = engine();
        let start = Position::start();
        // 7 positions on the line (the start and after each move), all with 54+ empties.
        assert_eq!(book.learn(&mut e, &start, &moves, 3, 20, None).unwrap(), 7);
        assert_eq!(book.len(), 7);
        let mut pos = start;
        for &mv in &moves {
            // Depth 3 or 4: every analysis ends with an even number of empties.
            let d = book.depth_of(&pos).unwrap();
            assert_eq!(d, parity_depth(&pos, 3));
            assert!(d == 3 || d == 4);
            assert_eq!((pos.empties() - d) % 2, 0);
            let here = book.probe(&pos);
            let child = pos.play(mv);
            // Negamax over the book: the move played is worth minus its child's value.
            let played = here.iter().find(|s| s.mv == mv).unwrap();
            assert_eq!(played.score, -book.probe(&child)[0].score, "{pos} {mv}");
            pos = child;
        }
        // Learning it again at the same depth adds nothing; deeper replaces every entry.
        assert_eq!(book.learn(&mut e, &start, &moves, 3, 20, None).unwrap(), 0);
        assert_eq!(book.learn(&mut e, &start, &moves, 5, 20, None).unwrap(), 7);
        assert_eq!(book.depth_of(&start), Some(6));
        // Positions with min_empties or fewer are left to the exact solver.
        let mut late = Book::new();
        assert_eq!(late.learn(&mut e, &start, &moves, 2, 57, None).unwrap(), 3);
        // A stop before the first analysis learns nothing; an illegal line is refused.
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let mut none = Book::new();
        assert_eq!(
            none.learn(&mut e, &start, &moves, 3, 20, Some(&stop))
                .unwrap(),
            0
        );
        assert!(none.is_empty());
        let bad = [Move::parse("a1").unwrap()];
        let err = none.learn(&mut e, &start, &bad, 3, 20, None).unwrap_err();
        assert!(err.contains("a1"), "{err}");
    }

    #[test]
    fn the_shipped_book_reads_and_its_moves_are_legal() {
        let book = Book::builtin();
        assert!(!book.is_empty());
        let start = book.probe(&Position::start());
        assert_eq!(start.len(), 4);
        for (key, entry) in &book.entries {
            let pos = position_of(*key);
            for &(code, _) in &entry.moves {
                assert!(pos.is_legal(move_of(code, 0)), "{pos} {code}");
            }
        }
    }
}
