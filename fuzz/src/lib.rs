//! The fuzz targets: each takes arbitrary bytes and feeds them to one family of tessera's
//! parsers, which must answer `Ok` or `Err` — never panic, hang or loop — and, where a
//! parse succeeds, print text that parses back to the same thing. `src/bin/TARGET.rs` runs a
//! target under AFL (`scripts/fuzz`); the tests below run each over its corpus.

use std::io::Write;
use std::path::PathBuf;

use tessera::formats::ggf;
use tessera::game::Game;
use tessera::games::othello::{Position, obf};
use tessera::games::quixo::{Quixo, Quixo4p};
use tessera::games::talat::{Talat, Talat2p};
use tessera::protocol::nboard;
use tessera::wire::gtp::{self, GtpGame, ResponseReader};

/// The names of the targets, as `src/bin/NAME.rs` and `corpus/NAME/`.
pub const TARGETS: [&str; 9] = [
    "positions",
    "moves",
    "ggf",
    "obf",
    "openings",
    "nboard",
    "gtp",
    "tuning",
    "records",
];

/// Runs target `name` on `data`.
///
/// # Panics
/// On an unknown name, and wherever the code under test panics (the finding).
pub fn run(name: &str, data: &[u8]) {
    match name {
        "positions" => positions(data),
        "moves" => moves(data),
        "ggf" => ggf_text(data),
        "obf" => obf_lines(data),
        "openings" => openings(data),
        "nboard" => nboard_lines(data),
        "gtp" => gtp_lines(data),
        "tuning" => tuning(data),
        "records" => records(data),
        _ => panic!("no fuzz target {name}"),
    }
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Every game's position-or-moves parser (`--position`, `--moves`, openings lines); a
/// parsed position prints as text that parses back to the same position.
fn opening_of<G: Game>(t: &str) {
    if let Ok((root, moves)) = G::parse_opening(t) {
        let mut p = root.clone();
        for &m in &moves {
            assert!(
                p.is_legal(m),
                "{}: parse_opening returned an illegal move",
                G::ID
            );
            p = p.play(m);
        }
        let shown = root.to_string();
        let (again, none) = G::parse_opening(&shown)
            .unwrap_or_else(|e| panic!("{}: '{shown}' does not parse back: {e}", G::ID));
        assert!(none.is_empty());
        assert_eq!(again.to_string(), shown, "{}", G::ID);
    }
}

/// Position strings (and move sequences) of all five game ids.
pub fn positions(data: &[u8]) {
    let t = text(data);
    opening_of::<Position>(&t);
    opening_of::<Quixo>(&t);
    opening_of::<Quixo4p>(&t);
    opening_of::<Talat>(&t);
    opening_of::<Talat2p>(&t);
}

/// Moves of `t` parsed one by one from the start of `G` (legal ones played), as `play`
/// and the GTP/NBoard sessions parse a move.
fn moves_of<G: Game>(t: &str) {
    let mut p = G::start();
    for word in t.split_whitespace().take(200) {
        if p.outcome().is_some() {
            break;
        }
        if let Ok(m) = p.parse_move(word)
            && p.is_legal(m)
        {
            p = p.play(m);
        }
    }
}

/// Move lists of all five game ids, and Othello's compact transcripts.
pub fn moves(data: &[u8]) {
    let t = text(data);
    moves_of::<Position>(&t);
    moves_of::<Quixo>(&t);
    moves_of::<Quixo4p>(&t);
    moves_of::<Talat>(&t);
    moves_of::<Talat2p>(&t);
    let _ = Position::start().replay(&t);
    let _ = Position::from_transcript(&t);
}

/// GGF game records; a parsed game prints as GGF that parses back to the same moves.
pub fn ggf_text(data: &[u8]) {
    let t = text(data);
    if let Ok(games) = ggf::parse_games(&t) {
        for g in games {
            let again = ggf::parse_game(&g.to_ggf())
                .unwrap_or_else(|e| panic!("GGF does not parse back: {e}"));
            assert_eq!(again.move_list(), g.move_list());
        }
    }
    let _ = ggf::parse_move_value(&t);
}

/// OBF problem lines.
pub fn obf_lines(data: &[u8]) {
    for line in text(data).lines() {
        let _ = obf::parse_line(line);
    }
}

/// A scratch file of this process holding `data` (AFL runs one process per core).
fn scratch(name: &str, data: &[u8]) -> PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    let path = dir.join(format!("tessera-fuzz-{}-{name}", std::process::id()));
    let mut f = std::fs::File::create(&path).expect("scratch file");
    f.write_all(data).expect("scratch write");
    path
}

/// Openings files (`--openings FILE`) of every game id.
pub fn openings(data: &[u8]) {
    let path = scratch("openings", data);
    let _ = tessera::tournament::openings::read_file::<Position>(&path);
    let _ = tessera::tournament::openings::read_file::<Quixo>(&path);
    let _ = tessera::tournament::openings::read_file::<Quixo4p>(&path);
    let _ = tessera::tournament::openings::read_file::<Talat>(&path);
    let _ = tessera::tournament::openings::read_file::<Talat2p>(&path);
    let _ = std::fs::remove_file(&path);
}

/// NBoard command lines.
pub fn nboard_lines(data: &[u8]) {
    for line in text(data).lines() {
        let _ = nboard::parse_command(line);
    }
}

fn vertices<G: GtpGame>(args: &[String]) {
    for a in args {
        let _ = G::parse_vertex(a);
        let _ = G::seat_of_colour(a);
    }
}

/// GTP command lines (and their vertices and colours for each GTP game), and GTP responses
/// as an external program's answers are read.
pub fn gtp_lines(data: &[u8]) {
    let t = text(data);
    let mut reader = ResponseReader::new();
    for line in t.lines() {
        if let Some(c) = gtp::Command::parse(line) {
            vertices::<Position>(&c.args);
            vertices::<Quixo>(&c.args);
            vertices::<Quixo4p>(&c.args);
        }
        match reader.feed(line) {
            gtp::LineResult::More => {}
            _ => reader = ResponseReader::new(),
        }
    }
}

/// Self-play data files (`tune --data`).
pub fn tuning(data: &[u8]) {
    let path = scratch("tuning", data);
    let _ = tessera::tuning::selfplay::read(&path);
    let _ = std::fs::remove_file(&path);
}

/// The games.jsonl record reader (it may cut a torn last line, so on a scratch copy).
pub fn records(data: &[u8]) {
    let path = scratch("records", data);
    let _ = tessera::tournament::record::load(&path);
    let _ = std::fs::remove_file(&path);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target runs over its checked-in corpus without a panic.
    #[test]
    fn corpus_runs_clean() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        for name in TARGETS {
            let dir = root.join(name);
            let mut n = 0;
            for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
                let path = e.unwrap().path();
                run(name, &std::fs::read(&path).unwrap());
                n += 1;
            }
            assert!(n > 0, "no corpus for {name}");
        }
    }
}
