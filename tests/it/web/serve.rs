//! `tessera serve` over HTTP: the built binary is started on a free port and spoken to with
//! plain HTTP/1.1 requests (std's TcpStream; no client crate). Legal play in every game,
//! engine replies, undo/redo, and the refusals: an illegal move, a malformed position, an
//! unknown preset, a move for another game than the session's, each a 4xx with a one-line
//! JSON error. The real-browser test is `web::browser`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `tessera serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `tessera serve --port 0` with `extra` arguments and reads the URL it prints.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tessera serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(
            line.contains("listening on http://127.0.0.1:") && line.contains("this machine only"),
            "{line}"
        );
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap()
            .to_string();
        Server { child, addr }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// One request: the status and the body.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.unwrap_or("");
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = out
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    /// A POST of `body` as JSON; the status and the JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.request("POST", path, Some(&body.to_string()));
        (
            status,
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")),
        )
    }

    /// A GET; the status and the JSON answer.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, text) = self.request("GET", path, None);
        (
            status,
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")),
        )
    }

    /// A POST that must succeed.
    pub fn ok(&self, path: &str, body: &Value) -> Value {
        let (status, v) = self.post(path, body);
        assert_eq!(status, 200, "{path} {body}: {v}");
        v
    }
}

/// Checks a refusal: status `status` and a one-line error containing `needle`.
fn refused(answer: (u16, Value), status: u16, needle: &str) {
    let (code, v) = answer;
    assert_eq!(code, status, "{v}");
    let msg = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {v}"));
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains(needle), "'{msg}' lacks '{needle}'");
}

/// Plays the session to its end: the person's seats take their first legal move, the
/// engines answer; returns the final state.
fn play_out(s: &Server, mut state: Value, max_plies: usize) -> Value {
    let id = state["id"].clone();
    let game = state["game"].clone();
    for _ in 0..max_plies {
        if state["over"] == true {
            return state;
        }
        state = if state["human_to_move"] == true {
            let mv = state["legal"][0]["move"].clone();
            s.ok("/api/move", &json!({ "id": id, "game": game, "move": mv }))
        } else {
            s.ok("/api/engine", &json!({ "id": id, "game": game }))
        };
    }
    state
}

#[test]
fn every_game_plays_against_the_engine_with_undo_and_redo() {
    let s = Server::start(&[]);
    let (status, games) = s.get("/api/games");
    assert_eq!(status, 200);
    let ids: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["othello", "quixo", "quixo-4p", "talat", "talat-2p"]);
    for game in ids {
        let seats = games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game)
            .unwrap()["seats"]
            .as_array()
            .unwrap()
            .len();
        let mut players = vec!["human"];
        players.extend(std::iter::repeat_n("level-1", seats - 1));
        let st = s.ok("/api/new", &json!({ "game": game, "players": players }));
        assert_eq!(st["ply"], 0);
        assert_eq!(st["human_to_move"], true, "{game}");
        let legal = st["legal"].as_array().unwrap();
        assert!(!legal.is_empty());
        // Every legal move has the clicks that make it.
        assert!(
            legal
                .iter()
                .all(|m| !m["clicks"].as_array().unwrap().is_empty()),
            "{game}"
        );
        let id = st["id"].clone();
        let mv = legal[0]["move"].clone();
        let after = s.ok("/api/move", &json!({ "id": id, "game": game, "move": mv }));
        assert_eq!(after["ply"], 1);
        assert_eq!(after["moves"][0], mv);
        assert_eq!(after["last"], legal[0]["clicks"]);
        // The engines answer until the person is to move again.
        let mut st = after;
        while st["human_to_move"] == false && st["over"] == false {
            st = s.ok("/api/engine", &json!({ "id": id, "game": game }));
        }
        let plies = st["ply"].as_u64().unwrap();
        assert!(plies >= seats as u64, "{game}: {st}");
        // Undo goes back to the person's turn before, redo forward again.
        let back = s.ok("/api/undo", &json!({ "id": id, "game": game }));
        assert_eq!(back["ply"], 0, "{game}");
        assert_eq!(back["human_to_move"], true);
        assert_eq!(back["can_redo"], true);
        let fwd = s.ok("/api/redo", &json!({ "id": id, "game": game }));
        assert_eq!(fwd["ply"], plies, "{game}");
        assert_eq!(fwd["position"], st["position"]);
    }
}

#[test]
fn a_full_othello_game_ends_with_a_readable_result_and_a_ggf_record() {
    let s = Server::start(&[]);
    let st = s.ok(
        "/api/new",
        &json!({ "game": "othello", "players": ["level-1", "othello-ab-d1"] }),
    );
    let end = play_out(&s, st, 130);
    assert_eq!(end["over"], true, "{end}");
    let result = end["result"].as_str().unwrap();
    assert!(
        result.contains(" wins. ") || result.starts_with("Draw"),
        "{result}"
    );
    // Disc counts: the two colours and the empties make 64.
    let total: i64 = end["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 64);
    let ggf = end["ggf"].as_str().unwrap();
    assert!(
        ggf.starts_with("(;GM[Othello]") && ggf.ends_with(";)"),
        "{ggf}"
    );
    // The GGF record starts a new game at the same final position.
    let again = s.ok("/api/new", &json!({ "game": "othello", "ggf": ggf }));
    assert_eq!(again["position"], end["position"]);
    assert_eq!(again["over"], true);
    // So does the move list.
    let again = s.ok(
        "/api/new",
        &json!({ "game": "othello", "start": end["record"] }),
    );
    assert_eq!(again["position"], end["position"]);
}

/// FFO #40: Black to move, 20 empties, +38 with the line a2 b1 c1 (White passes) b6.
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

#[test]
fn passes_are_played_for_the_seat_with_no_move_and_noted() {
    let s = Server::start(&[]);
    let st = s.ok(
        "/api/new",
        &json!({ "game": "othello", "start": FFO40, "players": ["human", "human"] }),
    );
    let id = st["id"].clone();
    for mv in ["a2", "b1"] {
        s.ok(
            "/api/move",
            &json!({ "id": id, "game": "othello", "move": mv }),
        );
    }
    let after = s.ok(
        "/api/move",
        &json!({ "id": id, "game": "othello", "move": "c1" }),
    );
    assert_eq!(after["over"], false);
    assert_eq!(after["to_move"], 0, "{after}");
    assert_eq!(after["moves"][3], "pass", "{after}");
    assert_eq!(after["ply"], 4);
    assert!(
        after["note"]
            .as_str()
            .unwrap()
            .contains("White (O) had no legal move and passed"),
        "{after}"
    );
    // Undo takes back the pass with the move before it.
    let back = s.ok("/api/undo", &json!({ "id": id, "game": "othello" }));
    assert_eq!(back["ply"], 2, "{back}");
}

#[test]
fn bad_requests_get_a_4xx_and_a_one_line_error() {
    let s = Server::start(&[]);
    let st = s.ok(
        "/api/new",
        &json!({ "game": "quixo", "players": ["human", "human"] }),
    );
    let id = st["id"].clone();
    // An id that is not a session number is named as such, not as missing.
    refused(s.get("/api/state?id=abc"), 400, "'abc' is not a session id");
    refused(s.get("/api/state?id=-1"), 400, "'-1' is not a session id");
    refused(
        s.get("/api/state"),
        400,
        "'id' (the session number) is missing",
    );
    refused(
        s.post("/api/undo", &json!({ "id": "abc", "game": "quixo" })),
        400,
        "field 'id': \"abc\" is not a session id",
    );
    // A boolean must be one.
    refused(
        s.post(
            "/api/analyze",
            &json!({ "id": id, "game": "quixo", "on": "yes" }),
        ),
        400,
        "field 'on' must be true or false, got \"yes\"",
    );
    refused(
        s.post(
            "/api/move",
            &json!({ "id": id, "game": "quixo", "move": "c3-c1" }),
        ),
        400,
        "c3",
    );
    refused(
        s.post(
            "/api/move",
            &json!({ "id": id, "game": "quixo", "move": "zz" }),
        ),
        400,
        "zz",
    );
    refused(
        s.post(
            "/api/move",
            &json!({ "id": id, "game": "othello", "move": "f5" }),
        ),
        409,
        "plays quixo, not othello",
    );
    refused(
        s.post(
            "/api/move",
            &json!({ "id": 999, "game": "quixo", "move": "a1-e1" }),
        ),
        404,
        "no game session 999",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "quixo", "start": "XXXXXX/..... X" }),
        ),
        400,
        "bad start position",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "othello", "players": ["human", "no-such-engine"] }),
        ),
        400,
        "unknown engine 'no-such-engine'",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "othello", "players": ["human", "quixo-ab-d2"] }),
        ),
        400,
        "unknown engine 'quixo-ab-d2'",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "othello", "players": ["human", "level-99"] }),
        ),
        400,
        "levels are level-1",
    );
    // The othello-level-N presets go to 60; the page stops at its own highest level (a
    // level-60 engine would search for hours with no time limit, holding the session).
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "othello", "players": ["othello-level-60", "human"] }),
        ),
        400,
        "the page offers levels up to 12",
    );
    refused(
        s.post("/api/new", &json!({ "game": "chess" })),
        400,
        "unknown game 'chess'",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "quixo", "ggf": "(;GM[Othello];)" }),
        ),
        400,
        "GGF records are Othello games",
    );
    refused(
        s.post(
            "/api/new",
            &json!({ "game": "othello", "ggf": "(;GM[Othello]B[zz];)" }),
        ),
        400,
        "bad GGF game",
    );
    // Not JSON, too large, unknown paths and methods.
    let (code, body) = s.request("POST", "/api/move", Some("{nope"));
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("not JSON"), "{body}");
    let big = format!(
        "{{\"game\":\"othello\",\"start\":\"{}\"}}",
        "a".repeat(300_000)
    );
    let (code, body) = s.request("POST", "/api/new", Some(&big));
    assert_eq!(code, 413, "{body}");
    let (code, _) = s.request("GET", "/api/nothing", None);
    assert_eq!(code, 405);
    let (code, _) = s.request("GET", "/nothing", None);
    assert_eq!(code, 404);
    // An engine move when a person is to move, and a move on a finished game.
    refused(
        s.post("/api/engine", &json!({ "id": id, "game": "quixo" })),
        409,
        "played by a person",
    );
    let won = s.ok(
        "/api/new",
        &json!({ "game": "quixo", "start": "XXXXX/O..../O..../...../..... O", "players": ["human", "human"] }),
    );
    assert_eq!(won["over"], true);
    assert!(
        won["result"].as_str().unwrap().starts_with("X wins"),
        "{won}"
    );
    refused(
        s.post(
            "/api/move",
            &json!({ "id": won["id"], "game": "quixo", "move": "b5-b1" }),
        ),
        409,
        "the game is over",
    );
    // Analysis: three-player Talat has no per-move score; levels out of range.
    let talat = s.ok(
        "/api/new",
        &json!({ "game": "talat", "players": ["human", "human", "human"] }),
    );
    refused(
        s.post(
            "/api/analyze",
            &json!({ "id": talat["id"], "game": "talat", "on": true }),
        ),
        400,
        "two-sided",
    );
    refused(
        s.post(
            "/api/analyze",
            &json!({ "id": id, "game": "quixo", "on": true, "from": 0 }),
        ),
        400,
        "out of 1..=30",
    );
    refused(
        s.post(
            "/api/analyze",
            &json!({ "id": id, "game": "quixo", "on": true, "from": "x" }),
        ),
        400,
        "'from' must be",
    );
    // The server is still up after all of it.
    assert_eq!(s.get("/api/games").0, 200);
}

#[test]
fn analysis_reaches_exact_scores_and_stops_when_the_page_closes() {
    let s = Server::start(&[]);
    // FFO #40 after a2 b1: Black to move, 18 empties, c1 worth +38.
    let st = s.ok(
        "/api/new",
        &json!({ "game": "othello", "start": FFO40, "players": ["human", "human"] }),
    );
    let id = st["id"].clone();
    for mv in ["a2", "b1"] {
        s.ok(
            "/api/move",
            &json!({ "id": id, "game": "othello", "move": mv }),
        );
    }
    // Keep an event stream open, as the page does.
    let mut events = TcpStream::connect(&s.addr).unwrap();
    write!(
        events,
        "GET /api/events?id={id} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    s.ok(
        "/api/analyze",
        &json!({ "id": id, "game": "othello", "on": true }),
    );
    let started = Instant::now();
    let latest = loop {
        let (_, a) = s.get(&format!("/api/analysis?id={id}"));
        if a["latest"]["done"] == true {
            break a["latest"].clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no exact analysis: {a}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let moves = latest["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["exact"] == true), "{latest}");
    // c1 (then White passes) keeps +38, as the solver says.
    assert_eq!(moves[0]["move"], "c1", "{latest}");
    assert_eq!(moves[0]["score"], 3800);
    assert!(
        !moves.is_empty()
            && moves
                .windows(2)
                .all(|w| w[0]["score"].as_i64().unwrap() >= w[1]["score"].as_i64().unwrap())
    );
    // Its line steps through positions.
    assert_eq!(
        moves[0]["pv_positions"].as_array().unwrap().len(),
        moves[0]["pv"].as_array().unwrap().len()
    );

    // Continuing from a level: the first update on a fresh event stream is that level's.
    let fresh = TcpStream::connect(&s.addr).unwrap();
    write!(
        &fresh,
        "GET /api/events?id={id} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    fresh
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut fresh = BufReader::new(fresh);
    let mut line = String::new();
    fresh.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    s.ok(
        "/api/analyze",
        &json!({ "id": id, "game": "othello", "on": true, "from": 3 }),
    );
    let first: Value = loop {
        line.clear();
        assert!(
            fresh.read_line(&mut line).unwrap() > 0,
            "the event stream ended"
        );
        if let Some(data) = line.strip_prefix("data: ") {
            break serde_json::from_str(data).unwrap();
        }
    };
    assert_eq!(first["level"], 3, "{first}");
    s.ok(
        "/api/analyze",
        &json!({ "id": id, "game": "othello", "on": false }),
    );
    drop(fresh);

    // A long analysis (the start position, 30 levels) stops when the event stream closes.
    let st = s.ok(
        "/api/new",
        &json!({ "game": "othello", "players": ["human", "human"] }),
    );
    let id = st["id"].clone();
    let mut events = TcpStream::connect(&s.addr).unwrap();
    write!(
        events,
        "GET /api/events?id={id} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut head = [0u8; 64];
    events.read_exact(&mut head).unwrap();
    s.ok(
        "/api/analyze",
        &json!({ "id": id, "game": "othello", "on": true }),
    );
    std::thread::sleep(Duration::from_millis(1500));
    let (_, a) = s.get(&format!("/api/analysis?id={id}"));
    assert_eq!(a["running"], true, "{a}");
    drop(events);
    let closed = Instant::now();
    loop {
        let (_, a) = s.get(&format!("/api/analysis?id={id}"));
        if a["running"] == false {
            break;
        }
        assert!(
            closed.elapsed() < Duration::from_secs(10),
            "the analysis still runs after the page closed: {a}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn watch_replays_a_tournament_folder_and_follows_new_games() {
    let dir = std::env::temp_dir().join(format!("tessera-serve-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "tournament",
            "quixo",
            "--engines",
            "quixo-ab-d2,quixo-ab-d4",
            "--rounds",
            "1",
            "--random-plies",
            "4",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = Server::start(&["--watch", dir.to_str().unwrap()]);
    let (code, v) = s.get("/api/watch?dir=0");
    assert_eq!(code, 200, "{v}");
    let games = v["games"].as_array().unwrap();
    assert!(!games.is_empty());
    let g = &games[0];
    // The opening's moves come first, counted from ply 1.
    assert_eq!(g["opening"], 4, "{g}");
    assert_eq!(
        g["frames"].as_array().unwrap().len(),
        g["moves"].as_array().unwrap().len() + 1
    );
    assert_eq!(
        g["frames"][0]["position"],
        "...../...../...../...../..... X"
    );
    let n = v["total"].as_u64().unwrap();
    // Nothing new since the last count; games a resumed run appends appear.
    let (_, v2) = s.get(&format!("/api/watch?dir=0&since={n}"));
    assert_eq!(v2["games"].as_array().unwrap().len(), 0);
    let more = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "tournament",
            "quixo",
            "--engines",
            "quixo-ab-d2,quixo-ab-d4",
        ])
        .args(["--rounds", "2", "--random-plies", "4", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        more.status.success(),
        "{}",
        String::from_utf8_lossy(&more.stderr)
    );
    let (_, v3) = s.get(&format!("/api/watch?dir=0&since={n}"));
    assert_eq!(v3["games"].as_array().unwrap().len(), 2, "{v3}");
    // A record edited by hand is refused with the message `tournament report` gives.
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut rec: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    rec["id"] = json!(1000);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("games.jsonl"))
        .unwrap();
    writeln!(f, "{rec}").unwrap();
    let report = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["tournament", "report"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(2));
    let said = String::from_utf8_lossy(&report.stderr);
    let said = said.trim().strip_prefix("error: ").unwrap();
    assert!(
        said.ends_with(
            "game 1000: id 1000 is outside the schedule of 4 games (ids 0-3); the file was \
             edited or written by another tournament"
        ),
        "{said}"
    );
    let (code, v4) = s.get("/api/watch?dir=0&since=0");
    assert_eq!((code, v4["error"].as_str()), (422, Some(said)), "{v4}");
    refused(s.get("/api/watch?dir=7"), 400, "no watched folder 7");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An analysis started through the API with no page open (no event stream) and no client
/// polling stops on its own after `ANALYSIS_IDLE` (5 s).
#[test]
fn an_analysis_nobody_follows_stops_on_its_own() {
    let s = Server::start(&[]);
    let st = s.ok(
        "/api/new",
        &json!({ "game": "othello", "players": ["human", "human"] }),
    );
    let id = st["id"].clone();
    s.ok(
        "/api/analyze",
        &json!({ "id": id, "game": "othello", "on": true }),
    );
    let started = Instant::now();
    let (_, a) = s.get(&format!("/api/analysis?id={id}"));
    assert_eq!(a["running"], true, "{a}");
    // Polled: it keeps running past the idle time.
    while started.elapsed() < Duration::from_secs(7) {
        std::thread::sleep(Duration::from_secs(1));
        let (_, a) = s.get(&format!("/api/analysis?id={id}"));
        assert_eq!(a["running"], true, "stopped while polled: {a}");
    }
    // Not polled for longer than the idle time: stopped.
    std::thread::sleep(Duration::from_secs(7));
    let (_, a) = s.get(&format!("/api/analysis?id={id}"));
    assert_eq!(a["running"], false, "{a}");
}
