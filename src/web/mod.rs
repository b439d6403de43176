//! The web application (`tessera serve`): a local web page to play, analyse and watch every game. One blocking
//! HTTP server (`tiny_http`), a thread per request, the page's assets embedded in the
//! binary (no network).
//!
//! The JSON API (every answer JSON; errors `{"error": "one line"}` with a 4xx status):
//!
//! | request | does |
//! |---|---|
//! | `GET /api/games` | the games, their seats, presets and levels; the watched folders |
//! | `POST /api/new {game, start?, ggf?, players}` | a new session: `{id, state}` |
//! | `GET /api/state?id=N` | the session's state |
//! | `POST /api/move {id, game, move}` | a person's move |
//! | `POST /api/engine {id, game}` | the engine at the seat to move plays |
//! | `POST /api/undo`, `/api/redo {id, game}` | back to / forward to a person's turn |
//! | `POST /api/hint {id, game}` | the engine's suggestion (a short search) |
//! | `POST /api/analyze {id, game, on, from?}` | starts (or stops) scoring every legal move, level by level from `from` (default 1; a stopped analysis continues from the next level) |
//! | `GET /api/analysis?id=N` | `{running, latest}`: whether an analysis searches, its latest update |
//! | `GET /api/events?id=N` | server-sent events: `analysis` updates; closing it stops the session's searches |
//! | `GET /api/watch?dir=K&since=N` | games of watched folder K from record N on, replayed |
//!
//! Every request naming a session also names its game: a request for another game than the
//! one being played is refused (409).

mod http;
mod session;
mod watch;

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Method, Request, Server};

use http::{ApiError, ApiResult, answer, asset, json_body, opt_str, req_str, session_id};
use session::{Store, Table, describe, new_table};

const PAGE: &str = include_str!("page.html");
const APP_JS: &str = include_str!("app.js");
const BOARD_JS: &str = include_str!("../report/board.js");
const CSS: &str = include_str!("page.css");

/// Most requests handled at once (more get 503).
const MAX_IN_FLIGHT: usize = 64;

/// Per session: the page's event streams and the stop flags of its searches.
#[derive(Default)]
struct Live {
    /// One sender per open event stream.
    streams: Vec<(u64, Sender<String>)>,
    /// Stops the session's searches when its last event stream closes.
    page_stop: Arc<AtomicBool>,
    /// Stops the running analysis.
    analysis_stop: Option<Arc<AtomicBool>>,
    /// The latest analysis update.
    analysis: Option<Value>,
    /// Whether an analysis thread of the session is searching.
    analysis_running: Arc<AtomicBool>,
    /// When a request last named the session (a page polling, or any API call).
    seen: Option<std::time::Instant>,
}

/// An analysis with no event stream open stops when no request has named its session for
/// this long: a client that started it through the API and went away (no page, no
/// polling of `/api/analysis`) does not leave it searching for ever.
pub const ANALYSIS_IDLE: Duration = Duration::from_secs(5);

/// Notes that a request named session `id` (see [`ANALYSIS_IDLE`]).
fn touch(app: &App, id: u64) {
    let mut live = app.live.lock().expect("live lock");
    live.entry(id).or_default().seen = Some(std::time::Instant::now());
}

/// Stops the analysis flagged by `stop` once session `id` has no event stream and no
/// request for [`ANALYSIS_IDLE`]; returns when the analysis (`running`) ends.
fn idle_watchdog(app: Arc<App>, id: u64, stop: Arc<AtomicBool>, running: Arc<AtomicBool>) {
    while running.load(Ordering::SeqCst) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(200));
        let live = app.live.lock().expect("live lock");
        let idle = live.get(&id).is_none_or(|l| {
            l.streams.is_empty() && l.seen.is_none_or(|t| t.elapsed() > ANALYSIS_IDLE)
        });
        if idle {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The server's state.
struct App {
    store: Mutex<Store>,
    live: Mutex<HashMap<u64, Live>>,
    watch: Vec<PathBuf>,
    next_stream: AtomicUsize,
}

/// What the server serves: where it listens and which tournament folders it shows.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address and port to listen on (port 0: any free port).
    pub addr: std::net::SocketAddr,
    /// Tournament folders (each with a `games.jsonl`) the Watch tab replays and follows.
    pub watch: Vec<PathBuf>,
}

/// Why the server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// A folder to watch is not a folder.
    NotAFolder(PathBuf),
    /// The address cannot be listened on.
    Listen {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// What the system said.
        error: String,
    },
    /// The server has no IP address to give (it listens on something else).
    NoAddress,
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAFolder(dir) => write!(f, "{}: not a folder", dir.display()),
            Self::Listen { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            Self::NoAddress => f.write_str("the server has no IP address"),
        }
    }
}

impl std::error::Error for ServeError {}

/// A bound web server: [`WebServer::url`] says where it is, [`WebServer::run`] serves.
pub struct WebServer {
    server: Server,
    local: std::net::SocketAddr,
    app: Arc<App>,
}

impl WebServer {
    /// Listens on `config.addr`.
    ///
    /// # Errors
    /// A watched folder that does not exist, or an address that cannot be listened on.
    pub fn bind(config: ServeConfig) -> Result<Self, ServeError> {
        if let Some(dir) = config.watch.iter().find(|d| !d.is_dir()) {
            return Err(ServeError::NotAFolder(dir.clone()));
        }
        let server = Server::http(config.addr).map_err(|e| ServeError::Listen {
            addr: config.addr,
            error: e.to_string(),
        })?;
        let local = server.server_addr().to_ip().ok_or(ServeError::NoAddress)?;
        let app = Arc::new(App {
            store: Mutex::new(Store::default()),
            live: Mutex::new(HashMap::new()),
            watch: config.watch,
            next_stream: AtomicUsize::new(1),
        });
        Ok(Self { server, local, app })
    }

    /// The address the server listens on (the port chosen when 0 was asked for).
    #[must_use]
    pub fn local_addr(&self) -> std::net::SocketAddr {
        self.local
    }

    /// The page's address, `http://ADDR:PORT/`.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.local)
    }

    /// Serves requests, a thread each (at most 64 at once; more get 503),
    /// until the process ends.
    pub fn run(self) {
        let in_flight = Arc::new(AtomicUsize::new(0));
        for req in self.server.incoming_requests() {
            if in_flight.load(Ordering::SeqCst) >= MAX_IN_FLIGHT {
                answer(req, Err(ApiError::with(503, "too many requests at once")));
                continue;
            }
            in_flight.fetch_add(1, Ordering::SeqCst);
            let app = self.app.clone();
            let count = in_flight.clone();
            std::thread::spawn(move || {
                handle(&app, req);
                count.fetch_sub(1, Ordering::SeqCst);
            });
        }
    }
}

fn handle(app: &Arc<App>, mut req: Request) {
    let url = req.url().to_string();
    let path = url.split('?').next().unwrap_or_default().to_string();
    let method = req.method().clone();
    match (&method, path.as_str()) {
        (Method::Get, "/") => asset(req, PAGE, "text/html; charset=utf-8"),
        (Method::Get, "/app.js") => asset(req, APP_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/board.js") => asset(req, BOARD_JS, "text/javascript; charset=utf-8"),
        (Method::Get, "/page.css") => asset(req, CSS, "text/css; charset=utf-8"),
        (Method::Get, "/api/events") => events(app, req, &url),
        (Method::Get, "/api/games") => answer(req, Ok(games_list(app))),
        (Method::Get, "/api/state") => {
            let r = url_id(&url).and_then(|id| {
                let state = with_table(app, id, None, |t| Ok(t.state()))?;
                touch(app, id);
                Ok(state)
            });
            answer(req, r.map(|s| with_id(s, url_id(&url).unwrap_or(0))));
        }
        (Method::Get, "/api/analysis") => {
            let r = url_id(&url).and_then(|id| {
                app.store.lock().expect("store lock").get(id)?;
                touch(app, id);
                let live = app.live.lock().expect("live lock");
                Ok(live.get(&id).map_or_else(
                    || json!({ "running": false, "latest": null }),
                    |l| {
                        json!({
                            "running": l.analysis_running.load(Ordering::SeqCst),
                            "latest": l.analysis.clone(),
                        })
                    },
                ))
            });
            answer(req, r);
        }
        (Method::Get, "/api/watch") => answer(req, watch::list(&app.watch, &url)),
        (Method::Post, p) if p.starts_with("/api/") => {
            let r = json_body(&mut req).and_then(|body| post(app, p, &body));
            answer(req, r);
        }
        (_, p) if p.starts_with("/api/") => answer(
            req,
            Err(ApiError::with(
                405,
                format!("{method} {p}: no such request"),
            )),
        ),
        _ => answer(
            req,
            Err(ApiError::not_found(format!("{path}: no such page"))),
        ),
    }
}

fn url_id(url: &str) -> Result<u64, ApiError> {
    http::query_session_id(url)
}

fn with_id(mut state: Value, id: u64) -> Value {
    state["id"] = json!(id);
    state
}

/// Runs `f` on session `id` (checking that it plays `game` when given).
fn with_table<T>(
    app: &App,
    id: u64,
    game: Option<&str>,
    f: impl FnOnce(&mut dyn Table) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let table = app.store.lock().expect("store lock").get(id)?;
    let mut t = table
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(g) = game
        && g != t.game()
    {
        return Err(ApiError::conflict(format!(
            "session {id} plays {}, not {}",
            t.game(),
            crate::game::shown(g)
        )));
    }
    f(t.as_mut())
}

fn games_list(app: &App) -> Value {
    let games: Vec<Value> = [
        crate::games::GameId::Othello,
        crate::games::GameId::Quixo,
        crate::games::GameId::Quixo4p,
        crate::games::GameId::Talat,
        crate::games::GameId::Talat2p,
    ]
    .into_iter()
    .map(|id| crate::for_game!(id, describe()))
    .collect();
    let watch: Vec<String> = app.watch.iter().map(|d| d.display().to_string()).collect();
    json!({ "games": games, "watch": watch })
}

fn game_id(text: &str) -> Result<crate::games::GameId, ApiError> {
    text.parse::<crate::games::GameId>().map_err(|_| {
        ApiError::bad(format!(
            "unknown game '{}' (othello, quixo, quixo-4p, talat, talat-2p)",
            crate::game::shown(text)
        ))
    })
}

/// Stops the session's running analysis, if any.
fn stop_analysis(app: &App, id: u64) {
    let mut live = app.live.lock().expect("live lock");
    if let Some(l) = live.get_mut(&id) {
        if let Some(s) = l.analysis_stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        l.analysis = None;
    }
}

/// The flag that stops the session's searches when its page goes away.
fn page_stop(app: &App, id: u64) -> Arc<AtomicBool> {
    let mut live = app.live.lock().expect("live lock");
    live.entry(id).or_default().page_stop.clone()
}

/// Sends `event` with `data` to every open stream of session `id`.
fn broadcast(app: &App, id: u64, event: &str, data: &Value) {
    let text = format!("event: {event}\ndata: {data}\n\n");
    let live = app.live.lock().expect("live lock");
    if let Some(l) = live.get(&id) {
        for (_, tx) in &l.streams {
            let _ = tx.send(text.clone());
        }
    }
}

fn post(app: &Arc<App>, path: &str, body: &Value) -> ApiResult {
    if path == "/api/new" {
        let game = game_id(req_str(body, "game")?)?;
        let players: Vec<String> = match body.get("players") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|p| {
                    p.as_str()
                        .map(String::from)
                        .ok_or_else(|| ApiError::bad("'players' must be a list of strings"))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(ApiError::bad("'players' must be a list of strings")),
        };
        let start = opt_str(body, "start")?;
        let ggf = opt_str(body, "ggf")?;
        let table = crate::for_game!(game, new_table(start, ggf, &players))?;
        let state = table.state();
        let id = app.store.lock().expect("store lock").add(table);
        return Ok(with_id(state, id));
    }
    let id = session_id(body)?;
    let game = req_str(body, "game")?;
    let state = |t: &mut dyn Table| Ok(with_id(t.state(), id));
    match path {
        "/api/move" => {
            let mv = req_str(body, "move")?;
            let r = with_table(app, id, Some(game), |t| {
                t.play(mv)?;
                state(t)
            });
            stop_analysis(app, id);
            r
        }
        "/api/engine" => {
            stop_analysis(app, id);
            let stop = page_stop(app, id);
            with_table(app, id, Some(game), |t| {
                t.engine_move(stop)?;
                state(t)
            })
        }
        "/api/undo" | "/api/redo" => {
            stop_analysis(app, id);
            with_table(app, id, Some(game), |t| {
                if path == "/api/undo" {
                    t.undo()?;
                } else {
                    t.redo()?;
                }
                state(t)
            })
        }
        "/api/hint" => {
            let job = with_table(app, id, Some(game), |t| t.hint())?;
            let mut out = Value::Null;
            job(page_stop(app, id), &mut |v| out = v);
            if let Some(e) = out.get("error").and_then(Value::as_str) {
                return Err(ApiError::with(500, e.to_string()));
            }
            Ok(out)
        }
        "/api/analyze" => {
            let on = http::opt_bool(body, "on", true)?;
            stop_analysis(app, id);
            if !on {
                return Ok(json!({ "analysis": "stopped" }));
            }
            let from = match body.get("from") {
                None | Some(Value::Null) => 1,
                Some(v) => v
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| ApiError::bad("'from' must be an analysis level (a number)"))?,
            };
            let job = with_table(app, id, Some(game), |t| t.analysis(from))?;
            let stop = Arc::new(AtomicBool::new(false));
            let running = Arc::new(AtomicBool::new(true));
            {
                let mut live = app.live.lock().expect("live lock");
                let l = live.entry(id).or_default();
                l.analysis_stop = Some(stop.clone());
                l.analysis_running = running.clone();
                // A page gone before the analysis starts: nothing to run for.
                if l.page_stop.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            touch(app, id);
            {
                let (app, stop, running) = (app.clone(), stop.clone(), running.clone());
                std::thread::spawn(move || idle_watchdog(app, id, stop, running));
            }
            let app = app.clone();
            std::thread::spawn(move || {
                let app = app.as_ref();
                let own = stop.clone();
                job(stop, &mut |v| {
                    if own.load(Ordering::Relaxed) {
                        return;
                    }
                    {
                        let mut live = app.live.lock().expect("live lock");
                        if let Some(l) = live.get_mut(&id) {
                            l.analysis = Some(v.clone());
                        }
                    }
                    broadcast(app, id, "analysis", &v);
                });
                running.store(false, Ordering::SeqCst);
            });
            Ok(json!({ "analysis": "started" }))
        }
        _ => Err(ApiError::not_found(format!("POST {path}: no such request"))),
    }
}

/// Serves the session's event stream until the page closes it; then, if it was the
/// session's last stream, stops its searches.
fn events(app: &App, req: Request, url: &str) {
    let id = match url_id(url).and_then(|id| {
        app.store.lock().expect("store lock").get(id)?;
        Ok(id)
    }) {
        Ok(id) => id,
        Err(e) => return answer(req, Err(e)),
    };
    let (tx, rx): (Sender<String>, Receiver<String>) = channel();
    let stream = app.next_stream.fetch_add(1, Ordering::SeqCst) as u64;
    {
        let mut live = app.live.lock().expect("live lock");
        let l = live.entry(id).or_default();
        if l.streams.is_empty() {
            l.page_stop = Arc::new(AtomicBool::new(false));
        }
        l.streams.push((stream, tx));
    }
    let mut w = req.into_writer();
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                Connection: close\r\n\r\n: tessera events\n\n";
    let mut ok = w
        .write_all(head.as_bytes())
        .and_then(|()| w.flush())
        .is_ok();
    while ok {
        let msg = match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => ": ping\n\n".to_string(),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        ok = w.write_all(msg.as_bytes()).and_then(|()| w.flush()).is_ok();
    }
    let mut live = app.live.lock().expect("live lock");
    if let Some(l) = live.get_mut(&id) {
        l.streams.retain(|(s, _)| *s != stream);
        if l.streams.is_empty() {
            l.page_stop.store(true, Ordering::Relaxed);
            if let Some(s) = l.analysis_stop.take() {
                s.store(true, Ordering::Relaxed);
            }
        }
    }
}
