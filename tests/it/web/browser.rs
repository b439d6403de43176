//! `tessera serve` in a real browser: headless Chromium (Debian's `chromium`) driven over
//! the Chrome DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON messages ended
//! by NUL on file descriptors 3 and 4; no WebDriver, no client crate). The page is clicked
//! as a person would (the board's cells and the buttons), and the page's own state is read
//! back:
//!
//! - an Othello game against an engine to its end, with one undo;
//! - a Quixo game to a win (the winning line marked);
//! - a Talat setup (27 placements) and the first moves;
//! - an analysis that reaches exact scores, and stepping through its best line.
//!
//! A failure saves a screenshot to `target/serve-browser/<test>.png`. With
//! `TESSERA_SCREENSHOTS=DIR` set, each game's board is saved to `DIR/serve-<game>.png`
//! (the pictures of docs/serve.md). Under CI (`CI=true`, as `.ci/run` sets) a missing
//! `chromium` fails the test; elsewhere the test says so and passes.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::serve::Server;

const CHROMIUM: &str = "chromium";

/// A headless Chromium with one page, driven over the DevTools pipe.
struct Browser {
    child: Child,
    to_browser: File,
    from_browser: Receiver<Value>,
    next_id: u64,
    session: String,
    profile: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A pipe with both ends close-on-exec: (read, write).
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0i32; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`, which we then own.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2 failed");
    // SAFETY: both descriptors were just created and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

/// One headless Chromium at a time: the tests run in parallel with the rest of the suite
/// on small machines, and each browser takes a few hundred MB.
pub static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Whether chromium can run here; under CI its absence is a failure.
pub fn chromium_available() -> bool {
    let found = Command::new(CHROMIUM)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if !found {
        assert!(
            !ci,
            "{CHROMIUM} is missing under CI: install it with `apt-get install -y chromium` (.ci/run does)"
        );
        eprintln!(
            "\n!!!!!!!! SKIPPED: {CHROMIUM} is not installed, so the browser test of `tessera serve` \
             did not run. Install it with `apt-get install chromium` (under CI=true this test \
             fails instead). !!!!!!!!\n"
        );
    }
    found
}

impl Browser {
    fn launch() -> Browser {
        let profile = std::env::temp_dir().join(format!(
            "tessera-chromium-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        let (cmd_read, cmd_write) = pipe();
        let (resp_read, resp_write) = pipe();
        let (cmd_fd, resp_fd) = (cmd_read.into_raw_fd(), resp_write.into_raw_fd());
        let mut command = Command::new(CHROMIUM);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1250,1000",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec. The
        // descriptors are first copied above 10, so that neither 3 nor 4 is overwritten
        // before it is copied, and the close-on-exec flag is cleared explicitly (dup2 onto
        // the same number would keep it).
        unsafe {
            command.pre_exec(move || {
                let high_cmd = libc::fcntl(cmd_fd, libc::F_DUPFD, 10);
                let high_resp = libc::fcntl(resp_fd, libc::F_DUPFD, 10);
                if high_cmd < 0
                    || high_resp < 0
                    || libc::dup2(high_cmd, 3) < 0
                    || libc::dup2(high_resp, 4) < 0
                    || libc::fcntl(3, libc::F_SETFD, 0) < 0
                    || libc::fcntl(4, libc::F_SETFD, 0) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(high_cmd);
                libc::close(high_resp);
                Ok(())
            });
        }
        let child = command.spawn().expect("start chromium");
        // The child has its copies; close ours.
        // SAFETY: the descriptors came from into_raw_fd above and are closed once.
        unsafe {
            drop(OwnedFd::from_raw_fd(cmd_fd));
            drop(OwnedFd::from_raw_fd(resp_fd));
        }
        let (tx, rx) = channel();
        let reader = File::from(resp_read);
        std::thread::spawn(move || {
            let mut r = BufReader::new(reader);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf)
                            && tx.send(v).is_err()
                        {
                            return;
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to_browser: File::from(cmd_write),
            from_browser: rx,
            next_id: 0,
            session: String::new(),
            profile,
        };
        let target = b.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b.call("Page.enable", json!({}));
        b
    }

    /// Sends a command (to the page's session once attached) and waits for its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = msg.to_string().into_bytes();
        bytes.push(0);
        self.to_browser
            .write_all(&bytes)
            .expect("write to chromium");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .from_browser
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("chromium did not answer {method}"));
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    /// Evaluates `js` in the page (awaiting a promise) and returns its value.
    fn eval(&mut self, js: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": js, "awaitPromise": true, "returnByValue": true }),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{js}: {e}");
        }
        r["result"]["value"].clone()
    }

    fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
    }

    /// Waits until `js` is true in the page.
    fn wait_for(&mut self, js: &str, what: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while self.eval(&format!("!!({js})")) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Saves a PNG of the page.
    fn screenshot(&mut self, path: &std::path::Path) {
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64_decode(r["data"].as_str().unwrap_or_default());
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, png);
    }

    /// The page's session state (`window.tessera.state()`).
    fn state(&mut self) -> Value {
        self.eval("window.tessera.state()")
    }

    /// Clicks the element showing token `t` (a board cell or a choice button).
    fn click_token(&mut self, t: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector('#board [data-token=\"{t}\"], #choices [data-token=\"{t}\"]'); \
             if (!e) return false; e.dispatchEvent(new MouseEvent('click', {{ bubbles: true }})); return true; }})()"
        );
        assert_eq!(self.eval(&js), json!(true), "no element for token {t}");
    }

    fn click(&mut self, id: &str) {
        let js = format!("document.getElementById('{id}').click(), true");
        self.eval(&js);
    }

    /// Waits until the page is idle: a person to move or the game over, no request out.
    fn wait_turn(&mut self, what: &str) {
        self.wait_for(
            "window.tessera.state() && (window.tessera.state().human_to_move || window.tessera.state().over) \
             && document.getElementById('error').hidden",
            what,
            60,
        );
    }

    /// Plays the first legal move of the person to move by clicking its tokens.
    fn play_first_legal(&mut self) {
        let st = self.state();
        let clicks: Vec<String> = st["legal"][0]["clicks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        let ply = st["ply"].as_u64().unwrap();
        for c in &clicks {
            self.click_token(c);
        }
        self.wait_for(
            &format!("window.tessera.state().ply > {ply}"),
            "the move to be played",
            30,
        );
    }

    /// Starts a new game from the setup form.
    fn new_game(&mut self, game: &str, players: &[&str], start: &str) {
        let mut js = format!(
            "(() => {{ const g = document.getElementById('game'); g.value = '{game}'; g.onchange(); "
        );
        for (i, p) in players.iter().enumerate() {
            js.push_str(&format!(
                "document.getElementById('seat-{i}').value = '{p}'; "
            ));
        }
        js.push_str(&format!(
            "document.getElementById('start').value = {}; return true; }})()",
            json!(start)
        ));
        self.eval(&js);
        let before = self.eval("window.tessera.state() ? window.tessera.state().id : 0");
        self.click("new");
        self.wait_for(
            &format!(
                "window.tessera.state() && window.tessera.state().id !== {before} && window.tessera.state().game === '{game}'"
            ),
            "the new game",
            30,
        );
    }
}

/// Standard base64 (the screenshot's PNG).
fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.bytes().filter_map(val) {
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Runs `scenario` with a fresh server and browser; on a panic, saves a screenshot to
/// `target/serve-browser/<name>.png` and fails.
fn run(name: &str, server_args: &[&str], scenario: impl FnOnce(&mut Browser, &Server)) {
    if !chromium_available() {
        return;
    }
    let _one = ONE_BROWSER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let server = Server::start(server_args);
    let mut b = Browser::launch();
    b.goto(&server.url("/"));
    b.wait_for("window.tessera && window.tessera.state()", "the page", 30);
    let started = Instant::now();
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario(&mut b, &server)));
    eprintln!(
        "web::browser {name}: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("target/serve-browser")
            .join(format!("{name}.png"));
        b.screenshot(&path);
        eprintln!("screenshot of the failure: {}", path.display());
        std::panic::resume_unwind(e);
    }
}

/// Saves the board picture for the docs when `TESSERA_SCREENSHOTS` names a folder.
fn docs_picture(b: &mut Browser, game: &str) {
    if let Ok(dir) = std::env::var("TESSERA_SCREENSHOTS") {
        b.screenshot(&PathBuf::from(dir).join(format!("serve-{game}.png")));
    }
}

#[test]
fn othello_game_against_the_engine_with_one_undo() {
    run("othello", &[], |b, _| {
        b.new_game("othello", &["human", "level-1"], "");
        b.wait_turn("Black's first turn");
        // Legal-move dots on the board: the four opening moves.
        assert_eq!(
            b.eval("document.querySelectorAll('#board .dot').length"),
            json!(4)
        );
        b.play_first_legal();
        b.wait_turn("the engine's reply");
        b.play_first_legal();
        b.wait_turn("the engine's second reply");
        assert_eq!(b.state()["ply"], 4);
        // The last move is marked.
        assert_eq!(
            b.eval("document.querySelectorAll('#board .last').length"),
            json!(1)
        );
        b.click("undo");
        b.wait_for("window.tessera.state().ply === 2", "the undo", 30);
        assert_eq!(b.state()["human_to_move"], true);
        // A hint: written beside the board and outlined on it.
        b.click("hint");
        b.wait_for(
            "document.getElementById('hint-text').textContent.startsWith('Hint: ')",
            "the hint",
            30,
        );
        assert_eq!(
            b.eval("document.querySelectorAll('#board .hint').length"),
            json!(1)
        );
        let mut turns = 0;
        while b.state()["over"] != true {
            b.play_first_legal();
            b.wait_turn("the engine's reply");
            turns += 1;
            assert!(turns < 70, "the game does not end");
        }
        let result = b.eval("document.getElementById('result').textContent");
        let result = result.as_str().unwrap();
        assert!(
            result.contains(" wins. ") || result.starts_with("Draw"),
            "{result}"
        );
        assert!(
            result.contains("Black (X)") && result.contains("White (O)"),
            "{result}"
        );
        // The disc counts are shown, and the GGF record.
        let counts = b.eval("document.getElementById('counts').textContent");
        assert!(counts.as_str().unwrap().contains("empty"), "{counts}");
        let ggf = b.eval("document.getElementById('record-ggf').value");
        assert!(ggf.as_str().unwrap().starts_with("(;GM[Othello]"), "{ggf}");
    });
}

#[test]
fn quixo_game_to_a_win_and_errors_shown_on_the_page() {
    run("quixo", &[], |b, _| {
        b.new_game(
            "quixo",
            &["human", "level-1"],
            "XXXX./O..../O..../...../..... X",
        );
        b.wait_turn("X's turn");
        // A bad start position: the error is shown on the page, the game stays.
        b.eval("document.getElementById('start').value = 'XXXXXXX'; true");
        b.click("new");
        b.wait_for("!document.getElementById('error').hidden", "the error", 10);
        let err = b.eval("document.getElementById('error').textContent");
        assert!(
            err.as_str().unwrap().contains("bad start position"),
            "{err}"
        );
        assert_eq!(b.state()["position"], "XXXX./O..../O..../...../..... X");
        docs_picture_quixo_selection(b);
        // e5 is taken and pushed in at e1: row 1 is X's.
        b.click_token("e5");
        b.wait_for(
            "document.querySelector('#board .selected')",
            "the selection",
            10,
        );
        b.click_token("e1");
        b.wait_for("window.tessera.state().over", "the win", 30);
        let st = b.state();
        assert!(st["result"].as_str().unwrap().starts_with("X wins"), "{st}");
        assert_eq!(
            b.eval("document.querySelectorAll('#board .mark').length"),
            json!(5)
        );
        docs_picture(b, "quixo");
    });
}

/// The docs' Quixo picture shows a cube picked and its push targets.
fn docs_picture_quixo_selection(b: &mut Browser) {
    if std::env::var("TESSERA_SCREENSHOTS").is_ok() {
        b.click_token("a1");
        docs_picture(b, "quixo-pick");
        b.click_token("a1");
    }
}

#[test]
fn talat_setup_and_first_moves() {
    run("talat", &[], |b, _| {
        b.new_game("talat", &["human", "level-1", "level-1"], "");
        b.wait_turn("White's first placement");
        // The tray offers the nine towers; a tower picked, then a square of a start row.
        let kinds = b.eval(
            "[...document.querySelectorAll('#board [data-token]')].filter(e => /^[TSH][123]$/.test(e.dataset.token)).length",
        );
        assert_eq!(kinds, json!(9));
        for _ in 0..9 {
            b.play_first_legal();
            b.wait_turn("the other players' placements");
        }
        let st = b.state();
        assert_eq!(st["ply"], 27, "{st}");
        assert!(
            st["position"].as_str().unwrap().contains("phase:play"),
            "{st}"
        );
        for _ in 0..2 {
            b.play_first_legal();
            b.wait_turn("the other players' moves");
        }
        assert!(b.state()["ply"].as_u64().unwrap() >= 33);
        docs_picture(b, "talat");
    });
}

#[test]
fn analysis_reaches_an_exact_score_and_steps_through_the_line() {
    run("analysis", &[], |b, _| {
        // FFO #40 (20 empties) and eight plies on: 12 empties, exact in about a second.
        b.new_game(
            "othello",
            &["human", "human"],
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        );
        b.wait_turn("Black's turn");
        while b.state()["ply"].as_u64().unwrap() < 8 {
            b.play_first_legal();
            b.wait_turn("the next turn");
        }
        b.click("analyze");
        b.wait_for(
            "window.tessera.analysis() && window.tessera.analysis().done",
            "an exact analysis",
            60,
        );
        let a = b.eval("window.tessera.analysis()");
        let moves = a["moves"].as_array().unwrap();
        assert!(moves.iter().all(|m| m["exact"] == true), "{a}");
        assert!(
            !moves.is_empty()
                && moves
                    .windows(2)
                    .all(|w| w[0]["score"].as_i64().unwrap() >= w[1]["score"].as_i64().unwrap())
        );
        // The scores are on the board and in the list, marked exact.
        assert!(
            b.eval("document.querySelectorAll('#board text.score.exact').length")
                .as_u64()
                >= Some(1)
        );
        let cell = b.eval("document.querySelector('#analysis td.exact').textContent");
        assert!(cell.as_str().unwrap().contains("exact"), "{cell}");
        docs_picture(b, "othello-analysis");
        // Step through the best line: the board shows the position after each move.
        b.eval("document.querySelector('#analysis tr[data-move]').click(), true");
        b.wait_for(
            "!document.getElementById('pv-bar').hidden",
            "the line view",
            10,
        );
        let first = b.eval("document.querySelector('#board svg').dataset.position");
        assert_eq!(first, moves[0]["pv_positions"][0]);
        b.click("pv-next");
        let second = b.eval("document.querySelector('#board svg').dataset.position");
        if moves[0]["pv_positions"].as_array().unwrap().len() > 1 {
            assert_eq!(second, moves[0]["pv_positions"][1]);
        }
        b.click("pv-exit");
        let back = b.eval("document.querySelector('#board svg').dataset.position");
        assert_eq!(back, b.state()["position"]);
    });
}

#[test]
fn every_game_draws_its_board_and_takes_clicks() {
    run("boards", &[], |b, _| {
        for (game, players, cells) in [
            ("othello", &["human", "level-1"][..], 64),
            (
                "quixo-4p",
                &["human", "level-1", "level-1", "level-1"][..],
                25,
            ),
            ("talat-2p", &["human", "level-1"][..], 75),
        ] {
            b.new_game(game, players, "");
            b.wait_turn("the person's turn");
            let n = b.eval(
                "[...document.querySelectorAll('#board rect[data-token]')].filter(e => /^([A-Z]{2}:)?[a-h][1-8]$/.test(e.dataset.token)).length",
            );
            assert_eq!(n, json!(cells), "{game}");
            for _ in 0..2 {
                b.play_first_legal();
                b.wait_turn("the engines' moves");
            }
            // The last move is marked on the board.
            assert!(
                b.eval("document.querySelectorAll('#board .last').length")
                    .as_u64()
                    >= Some(1),
                "{game}"
            );
            docs_picture(b, game);
        }
    });
}
