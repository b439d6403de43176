//! One game on the page: the start position, the moves played (passes included), the
//! moves undone (for redo), and who sits at each seat (a person or an engine). The rules
//! come from the game's code; every move a request names is checked against them.
//!
//! [`Table`] is the object-safe face the HTTP handlers use, so one session store holds
//! games of every kind.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::analyze::analyze_moves;
use crate::engine::{EngineSpec, Player, Protocol};
use crate::game::{Game, Seat};
use crate::play::history::History;
use crate::search::Limits;
use serde_json::{Value, json};

use super::http::ApiError;
use crate::engine::{Algorithm, Players};
use crate::present::counts_json;
use crate::present::{Present, score_short, score_text};

/// Highest level offered on the page (Othello level N solves exactly from 2N empties).
pub const MAX_LEVEL: u32 = 12;

/// Time a hint searches, milliseconds.
pub const HINT_MS: u64 = 700;

/// Deepest analysis level before the analysis stops by itself.
pub const MAX_ANALYSIS_LEVEL: u32 = 30;

/// A search run off the session lock: given a stop flag and a sink for updates.
pub type Job = Box<dyn FnOnce(Arc<AtomicBool>, &mut dyn FnMut(Value)) + Send>;

/// A game on the page, whatever the game.
pub trait Table: Send {
    /// The game id (`othello`).
    fn game(&self) -> &'static str;
    /// The whole state for the page (position, legal moves with their clicks, counts,
    /// result, record, ...).
    fn state(&self) -> Value;
    /// Plays a person's move given as text.
    ///
    /// # Errors
    /// 400 for a move that is malformed or illegal here, 409 when the game is over or an
    /// engine is to move.
    fn play(&mut self, mv: &str) -> Result<(), ApiError>;
    /// Lets the engine at the seat to move play (searching until `stop` is set or its
    /// limits end).
    ///
    /// # Errors
    /// 409 when a person is to move or the game is over; 500 for an engine failure.
    fn engine_move(&mut self, stop: Arc<AtomicBool>) -> Result<(), ApiError>;
    /// Takes back moves to the previous position where a person was to move.
    ///
    /// # Errors
    /// 409 when there is nothing to take back.
    fn undo(&mut self) -> Result<(), ApiError>;
    /// Replays undone moves up to the next position where a person is to move.
    ///
    /// # Errors
    /// 409 when nothing was undone.
    fn redo(&mut self) -> Result<(), ApiError>;
    /// The job suggesting a move for the side to move (the engine's choice in
    /// [`HINT_MS`]).
    ///
    /// # Errors
    /// 409 when the game is over.
    fn hint(&self) -> Result<Job, ApiError>;
    /// The job scoring every legal move, level by level from `from` (1 to start, the level
    /// after the last one shown to continue a stopped analysis; see [`analysis_job`]).
    ///
    /// # Errors
    /// 409 when the game is over, 400 for a game with more than two sides or a level out
    /// of 1..=[`MAX_ANALYSIS_LEVEL`].
    fn analysis(&self, from: u32) -> Result<Job, ApiError>;
}

/// A game the page can play: shown by [`Present`], its engines built by [`Players`].
pub trait WebGame: Present + Players {}

impl<G: Present + Players> WebGame for G {}

/// An engine at a seat: its player, its limits, and the name shown.
struct EngineSeat<G: Game> {
    label: String,
    player: Box<dyn Player<G>>,
    limits: Limits,
}

/// A session of game `G`: the game's [`History`] and who sits at each seat.
pub struct Session<G: WebGame> {
    history: History<G>,
    seats: Vec<Option<EngineSeat<G>>>,
}

/// The level-`n` engine of `G` and its limits: the engine spec `level = n` with a 16 MiB
/// table, built as every front end builds engines ([`Players::make_player`]).
fn level_engine<G: WebGame>(n: u32) -> Result<(Box<dyn Player<G>>, Limits), ApiError> {
    let spec = EngineSpec::from_inline(&format!("name=tessera,level={n},tt-mb=16"), G::ID)
        .map_err(|e| ApiError::bad(format!("engine settings: {e}")))?;
    let player = G::make_player(&spec).map_err(ApiError::bad)?;
    Ok((player, spec.limits()))
}

/// The built-in presets that play `G` (external programs are not offered).
#[must_use]
pub fn presets_for<G: Game>() -> Vec<String> {
    EngineSpec::known_presets()
        .into_iter()
        .filter(|n| {
            EngineSpec::resolve(n).is_ok_and(|s| s.game == G::ID && s.protocol == Protocol::Builtin)
        })
        .collect()
}

/// The seat player `name` names: `human`, `level-N` (1..=[`MAX_LEVEL`]) or a preset name.
fn seat_player<G: WebGame>(name: &str) -> Result<Option<EngineSeat<G>>, ApiError> {
    let name = name.trim();
    if name == "human" {
        return Ok(None);
    }
    if let Some(n) = name.strip_prefix("level-") {
        let level = n
            .parse::<u32>()
            .ok()
            .filter(|l| (1..=MAX_LEVEL).contains(l))
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "unknown engine '{name}': levels are level-1 .. level-{MAX_LEVEL}"
                ))
            })?;
        let (player, limits) = level_engine::<G>(level)?;
        return Ok(Some(EngineSeat {
            label: format!("tessera level {level}"),
            player,
            limits,
        }));
    }
    let unknown = || {
        ApiError::bad(format!(
            "unknown engine '{}' for {} (human, level-1 .. level-{MAX_LEVEL}, or a preset: {})",
            crate::game::shown(name),
            G::ID,
            presets_for::<G>().join(", ")
        ))
    };
    let well_formed = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !well_formed {
        return Err(unknown());
    }
    let spec = EngineSpec::resolve(name).map_err(|_| unknown())?;
    if spec.game != G::ID || spec.protocol != Protocol::Builtin {
        return Err(unknown());
    }
    // The page's levels stop at MAX_LEVEL: a deeper level (othello-level-60) searches for
    // minutes to hours per move with no time limit, holding the session.
    if let Some(level) = spec.level.filter(|&l| l > MAX_LEVEL) {
        return Err(ApiError::bad(format!(
            "engine '{name}' is level {level}: the page offers levels up to {MAX_LEVEL} (level-1 .. level-{MAX_LEVEL}, othello-level-1 .. othello-level-{MAX_LEVEL})"
        )));
    }
    let player = G::make_player(&spec).map_err(ApiError::bad)?;
    Ok(Some(EngineSeat {
        label: spec.name.clone(),
        player,
        limits: spec.limits(),
    }))
}

impl<G: WebGame> Session<G> {
    /// A session from `start` with `moves` already played, `players` naming each seat
    /// (`human`, `level-N` or a preset; missing seats are people).
    ///
    /// # Errors
    /// 400 for an illegal move in `moves`, too many seats or an unknown engine.
    pub fn new(start: G, moves: &[G::Move], players: &[String]) -> Result<Self, ApiError> {
        let n = start.seats();
        if players.len() > n {
            return Err(ApiError::bad(format!(
                "{} has {n} seats, {} players given",
                G::ID,
                players.len()
            )));
        }
        let mut seats = Vec::with_capacity(n);
        for i in 0..n {
            seats.push(match players.get(i) {
                Some(p) => seat_player::<G>(p)?,
                None => None,
            });
        }
        let humans = seats.iter().map(Option::is_none).collect();
        let history = History::new(start, moves, humans).map_err(ApiError::bad)?;
        Ok(Self { history, seats })
    }

    fn current(&self) -> &G {
        self.history.current()
    }

    fn over(&self) -> Option<String> {
        self.history.over()
    }

    fn human_at(&self, seat: Seat) -> bool {
        self.history.human_at(seat)
    }
}

/// Scores of every legal move of `pos`, level by level from `from` (level `n`: each reply searched
/// `n - 1` plies; Othello solves exactly from `2n` empties), each level sent to `emit`,
/// until every score is exact, [`MAX_ANALYSIS_LEVEL`] is reached, or `stop` is set.
fn analysis_job<G: WebGame>(pos: G, from: u32) -> Job {
    Box::new(move |stop: Arc<AtomicBool>, emit: &mut dyn FnMut(Value)| {
        let position = pos.to_string();
        for level in from..=MAX_ANALYSIS_LEVEL {
            let (mut player, mut limits) = match level_engine::<G>(level) {
                Ok(x) => x,
                Err(e) => {
                    emit(json!({ "position": position, "error": e.message }));
                    return;
                }
            };
            limits.stop = Some(stop.clone());
            let started = std::time::Instant::now();
            let result = analyze_moves(player.as_mut(), &pos, &limits);
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let scores = match result {
                Ok(s) => s,
                Err(e) => {
                    emit(json!({ "position": position, "error": e }));
                    return;
                }
            };
            let all_exact = scores.iter().all(|t| t.exact);
            let moves: Vec<Value> = scores
                .iter()
                .filter_map(|t| {
                    let mv = t.best_move?;
                    let text = mv.to_string();
                    // The line's positions, for stepping through it (stopping at a move
                    // the rules refuse, which a sound PV never holds).
                    let mut p = pos.clone();
                    let mut line = Vec::with_capacity(t.pv.len());
                    let mut line_clicks = Vec::with_capacity(t.pv.len());
                    for &m in &t.pv {
                        if p.outcome().is_some() || !p.is_legal(m) {
                            break;
                        }
                        p = p.play(m);
                        line.push(p.to_string());
                        line_clicks.push(G::clicks(&m.to_string()));
                    }
                    Some(json!({
                        "move": text,
                        "clicks": G::clicks(&text),
                        "score": t.score,
                        "short": score_short(t.score, t.unit),
                        "text": score_text(t.score, t.unit, t.exact),
                        "exact": t.exact,
                        "depth": t.depth,
                        "nodes": t.nodes,
                        "pv": t.pv.iter().take(line.len()).map(ToString::to_string).collect::<Vec<_>>(),
                        "pv_positions": line,
                        "pv_clicks": line_clicks,
                    }))
                })
                .collect();
            let done = all_exact || level == MAX_ANALYSIS_LEVEL;
            emit(json!({
                "position": position,
                "level": level,
                "seconds": started.elapsed().as_secs_f64(),
                "moves": moves,
                "done": done,
            }));
            if done {
                return;
            }
        }
    })
}

impl<G: WebGame> Table for Session<G> {
    fn game(&self) -> &'static str {
        G::ID
    }

    fn state(&self) -> Value {
        let pos = self.current();
        let over = self.over();
        let legal: Vec<Value> = if over.is_some() {
            Vec::new()
        } else {
            crate::game::legal_moves(pos)
                .iter()
                .map(|m| {
                    let t = m.to_string();
                    json!({ "move": t, "clicks": G::clicks(&t) })
                })
                .collect()
        };
        let last = self
            .history
            .moves()
            .iter()
            .rev()
            .map(ToString::to_string)
            .find(|t| !G::clicks(t).is_empty())
            .map_or_else(Vec::new, |t| G::clicks(&t));
        let seats: Vec<Value> = (0..pos.seats())
            .map(|i| {
                json!({
                    "name": pos.seat_name(Seat(i as u8)),
                    "player": self.seats[i].as_ref().map_or("human", |e| e.label.as_str()),
                })
            })
            .collect();
        let counts = counts_json(pos);
        json!({
            "game": G::ID,
            "position": pos.to_string(),
            "start": self.history.start().to_string(),
            "ply": self.history.moves().len(),
            "moves": self.history.moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
            "to_move": pos.to_move().index(),
            "to_move_name": pos.seat_name(pos.to_move()),
            "seats": seats,
            "human_to_move": over.is_none() && self.human_at(pos.to_move()),
            "legal": legal,
            "last": last,
            "counts": counts,
            "over": over.is_some(),
            "result": over,
            "marks": if over.is_some() { pos.marks() } else { Vec::new() },
            "note": self.history.pass_note(),
            "record": G::transcript(self.history.moves()),
            "ggf": G::ggf(self.history.start(), self.history.moves()),
            "can_undo": self.history.undo_target().is_some(),
            "can_redo": self.history.can_redo(),
            "analysable": G::ALGORITHMS.contains(&Algorithm::Alphabeta),
            "unit": G::SCORE_UNIT,
        })
    }

    fn play(&mut self, text: &str) -> Result<(), ApiError> {
        if let Some(r) = self.over() {
            return Err(ApiError::conflict(format!("the game is over ({r})")));
        }
        let pos = self.current().clone();
        if !self.human_at(pos.to_move()) {
            return Err(ApiError::conflict(format!(
                "{} is played by the engine; wait for its move",
                pos.seat_name(pos.to_move())
            )));
        }
        let mv = pos
            .parse_move(text)
            .map_err(|e| ApiError::bad(e.to_string()))?;
        self.history.play(mv);
        Ok(())
    }

    fn engine_move(&mut self, stop: Arc<AtomicBool>) -> Result<(), ApiError> {
        if let Some(r) = self.over() {
            return Err(ApiError::conflict(format!("the game is over ({r})")));
        }
        let pos = self.current().clone();
        let seat = pos.to_move().index();
        let Some(engine) = self.seats[seat].as_mut() else {
            return Err(ApiError::conflict(format!(
                "{} is played by a person",
                pos.seat_name(pos.to_move())
            )));
        };
        let mut limits = engine.limits.clone();
        limits.stop = Some(stop.clone());
        let thought = engine
            .player
            .choose_in_game(self.history.start(), self.history.moves(), &pos, &limits)
            .map_err(|e| ApiError::with(500, format!("engine failure: {e}")))?;
        if stop.load(Ordering::Relaxed) {
            return Err(ApiError::conflict("the engine's search was stopped"));
        }
        let mv = thought
            .best_move
            .filter(|&m| pos.is_legal(m))
            .ok_or_else(|| {
                ApiError::with(500, format!("the engine returned no legal move in {pos}"))
            })?;
        self.history.play_engine(mv);
        Ok(())
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        self.history.undo().map(|_| ()).map_err(ApiError::conflict)
    }

    fn redo(&mut self) -> Result<(), ApiError> {
        self.history.redo().map(|_| ()).map_err(ApiError::conflict)
    }

    fn hint(&self) -> Result<Job, ApiError> {
        if let Some(r) = self.over() {
            return Err(ApiError::conflict(format!("the game is over ({r})")));
        }
        let pos = self.current().clone();
        let mut spec = EngineSpec::front_end_default(G::ID).map_err(ApiError::bad)?;
        spec.time_ms = Some(HINT_MS);
        spec.tt_mb = 16;
        let mut player = G::make_player(&spec).map_err(ApiError::bad)?;
        let limits = spec.limits();
        Ok(Box::new(move |stop, emit| {
            let mut limits = limits;
            limits.stop = Some(stop);
            match player.choose(&pos, &limits) {
                Ok(t) => {
                    let text = t.best_move.map(|m| m.to_string()).unwrap_or_default();
                    emit(json!({
                        "position": pos.to_string(),
                        "move": text,
                        "clicks": G::clicks(&text),
                        "text": score_text(t.score, t.unit, t.exact),
                        "depth": t.depth,
                        "pv": t.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    }));
                }
                Err(e) => emit(json!({ "position": pos.to_string(), "error": e })),
            }
        }))
    }

    fn analysis(&self, from: u32) -> Result<Job, ApiError> {
        if !(1..=MAX_ANALYSIS_LEVEL).contains(&from) {
            return Err(ApiError::bad(format!(
                "analysis level {from} is out of 1..={MAX_ANALYSIS_LEVEL}"
            )));
        }
        if let Some(r) = self.over() {
            return Err(ApiError::conflict(format!("the game is over ({r})")));
        }
        if !G::ALGORITHMS.contains(&Algorithm::Alphabeta) {
            return Err(ApiError::bad(format!(
                "per-move analysis needs a two-sided game; {} has three sides",
                G::ID
            )));
        }
        Ok(analysis_job(self.current().clone(), from))
    }
}

/// A session shared between request threads.
pub type Shared = Arc<std::sync::Mutex<Box<dyn Table>>>;

/// Keeps the sessions: numbered from 1, at most [`MAX_SESSIONS`] (the least recently
/// used one is dropped for a new one).
#[derive(Default)]
pub struct Store {
    next: u64,
    tick: u64,
    /// Per id: the tick of its last use and the session.
    tables: HashMap<u64, (u64, Shared)>,
}

/// Most sessions kept at once.
pub const MAX_SESSIONS: usize = 64;

impl Store {
    /// Adds `table`, returning its id.
    pub fn add(&mut self, table: Box<dyn Table>) -> u64 {
        if self.tables.len() >= MAX_SESSIONS
            && let Some((&old, _)) = self.tables.iter().min_by_key(|(_, (t, _))| *t)
        {
            self.tables.remove(&old);
        }
        self.next += 1;
        self.tick += 1;
        self.tables.insert(
            self.next,
            (self.tick, Arc::new(std::sync::Mutex::new(table))),
        );
        self.next
    }

    /// The session `id`.
    ///
    /// # Errors
    /// 404 for an unknown id.
    pub fn get(&mut self, id: u64) -> Result<Shared, ApiError> {
        self.tick += 1;
        let tick = self.tick;
        let (t, table) = self.tables.get_mut(&id).ok_or_else(|| {
            ApiError::not_found(format!("no game session {id} (start a new game)"))
        })?;
        *t = tick;
        Ok(table.clone())
    }
}

/// A new session of `G` from a request: `start` (a position or moves from the start),
/// or `ggf` (Othello), and `players` per seat.
///
/// # Errors
/// 400 for a malformed position, move list, record or engine name.
pub fn new_table<G: WebGame>(
    start: Option<&str>,
    ggf: Option<&str>,
    players: &[String],
) -> Result<Box<dyn Table>, ApiError> {
    let (pos, moves) = match (start.map(str::trim).filter(|s| !s.is_empty()), ggf) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad(
                "give a start position or a GGF game, not both",
            ));
        }
        (None, Some(text)) => {
            G::from_ggf(text).map_err(|e| ApiError::bad(format!("bad GGF game: {e}")))?
        }
        (Some(text), None) => G::parse_opening(text)
            .map_err(|e| ApiError::bad(format!("bad start position or move list: {e}")))?,
        (None, None) => (G::start(), Vec::new()),
    };
    Ok(Box::new(Session::new(pos, &moves, players)?))
}

/// What the page needs to set up a game of `G`: seat names, presets, levels, start.
#[must_use]
pub fn describe<G: WebGame>() -> Value {
    let start = G::start();
    json!({
        "id": G::ID,
        "seats": (0..start.seats()).map(|i| start.seat_name(Seat(i as u8))).collect::<Vec<_>>(),
        "presets": presets_for::<G>(),
        "levels": MAX_LEVEL,
        "start": start.to_string(),
        "help": G::CLICK_HELP,
        "analysable": G::ALGORITHMS.contains(&Algorithm::Alphabeta),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{othello, quixo};

    fn session<G: WebGame>(start: &str, players: &[&str]) -> Box<dyn Table> {
        let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
        new_table::<G>(Some(start), None, &players).unwrap()
    }

    #[test]
    fn undo_goes_back_to_the_person_and_redo_replays() {
        let mut t = session::<othello::Position>("f5", &["human", "level-1"]);
        // White (engine) to move after f5.
        assert_eq!(t.state()["human_to_move"], false);
        t.engine_move(Arc::new(AtomicBool::new(false))).unwrap();
        assert_eq!(t.state()["ply"], 2);
        t.play("c3")
            .or_else(|_| t.play("e6"))
            .or_else(|_| t.play("f4"))
            .unwrap();
        t.undo().unwrap();
        // Back to Black to move after two plies, then to ply 0.
        assert_eq!(t.state()["ply"], 2);
        t.undo().unwrap();
        assert_eq!(t.state()["ply"], 0);
        assert!(t.undo().is_err());
        t.redo().unwrap();
        assert_eq!(t.state()["ply"], 2);
    }

    #[test]
    fn passes_are_played_automatically() {
        // Black X to move, White has no move after Black's only move... use a known
        // position: White has discs only where Black can take the last of them.
        let mut t = session::<othello::Position>(
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- X",
            &["human", "human"],
        );
        t.play("g8").unwrap();
        let s = t.state();
        assert_eq!(s["over"], true, "{s}");
        assert!(
            s["result"].as_str().unwrap().starts_with("Black (X) wins"),
            "{s}"
        );
    }

    #[test]
    fn quixo_line_is_marked_and_the_winner_named() {
        let mut t = session::<quixo::Quixo>("XXXX./O..../O..../...../..... X", &["human", "human"]);
        assert_eq!(t.play("c3-c1").unwrap_err().status, 400);
        t.play("e5-e1").unwrap();
        let s = t.state();
        assert_eq!(s["over"], true, "{s}");
        assert_eq!(s["marks"].as_array().unwrap().len(), 5, "{s}");
    }

    #[test]
    fn bad_engines_and_moves_are_refused() {
        let players = vec!["nonsense".to_string()];
        let e = new_table::<othello::Position>(None, None, &players)
            .err()
            .unwrap();
        assert_eq!(e.status, 400);
        assert!(
            e.message.contains("unknown engine 'nonsense'"),
            "{}",
            e.message
        );
        let players = vec!["quixo-ab-d2".to_string()];
        assert!(new_table::<othello::Position>(None, None, &players).is_err());
        let players = vec!["../etc/passwd".to_string()];
        assert!(new_table::<othello::Position>(None, None, &players).is_err());
        let mut t = session::<othello::Position>("f5", &["human", "human"]);
        assert_eq!(t.play("a1").unwrap_err().status, 400);
    }
}
