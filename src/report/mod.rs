//! Self-contained HTML pages: `tournament report DIR --html FILE` and `fairness ... --html
//! FILE`. One static file, no network: CSS, SVG charts and the game viewer's script are
//! inline, and the games' positions (replayed from the records with the rules code) are
//! embedded as JSON, so the script only draws.
//!
//! Every number a table shows carries `data-key` (its path in the report JSON, e.g.
//! `ratings.0.elo`) and `data-value` (the full-precision value), so a test can compare the
//! page with `report.json`.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

use crate::present::Present;
use crate::tournament::fairness::Summary;
use crate::tournament::record::GameRecord;
use crate::tournament::report::{Pairing, Rating, Report, SprtState};
use crate::tournament::seats::SeatRow;

mod move_times;
mod replay;

pub use crate::tournament::seat_names::{name_seats, named_report};
pub use replay::replay;

const CSS: &str = include_str!("page.css");
const BOARD_JS: &str = include_str!("board.js");
const VIEWER_JS: &str = include_str!("viewer.js");

/// [`tournament_page`] of a folder read by [`crate::tournament::folder::read`], for its
/// game.
///
/// # Errors
/// As [`tournament_page`].
pub fn folder_page(
    dir: &Path,
    folder: &crate::tournament::folder::Folder,
) -> Result<String, ReportError> {
    fn page<G: Present>(
        dir: &Path,
        folder: &crate::tournament::folder::Folder,
    ) -> Result<String, ReportError> {
        tournament_page::<G>(dir, &folder.settings, &folder.records)
    }
    crate::for_game!(folder.game, page(dir, folder))
}

/// The HTML page of a tournament folder `dir` with its `settings` and finished `records`:
/// the report with named seats, LLR history, charts and the game viewer.
///
/// # Errors
/// No finished games, a record of another game, or a game the rules refuse.
pub fn tournament_page<G: Present>(
    dir: &Path,
    settings: &crate::tournament::settings::Settings,
    records: &[GameRecord],
) -> Result<String, ReportError> {
    if records.is_empty() {
        return Err(ReportError::Input(format!(
            "{} holds no finished games: nothing to show",
            dir.display()
        )));
    }
    if let Some(r) = records.iter().find(|r| r.game != G::ID) {
        return Err(ReportError::Input(format!(
            "{}: game {} is a record of {}, but the tournament is {}",
            dir.display(),
            r.id,
            r.game,
            G::ID
        )));
    }
    let rep = named_report::<G>(settings, records);
    let llr = crate::tournament::report::llr_history(settings, records);
    report_page::<G>(&dir.display().to_string(), &rep, records, &llr)
}

/// Why a page could not be made or written.
#[derive(Debug)]
pub enum ReportError {
    /// The records cannot be shown: a game the rules refuse, times that do not add up
    /// (the message names the game and what is wrong).
    Input(String),
    /// The page could not be written to `path`.
    Write {
        /// The page's file.
        path: std::path::PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(msg) => f.write_str(msg),
            Self::Write { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for ReportError {}

/// Most games the viewer embeds (the first ones by id); the page says when there are more.
pub const MAX_VIEWER_GAMES: usize = 400;

/// Checks before any work that a page can be written to `path` (`--html`): not a folder,
/// its folder exists, and the file opens for writing (a missing file is created and removed
/// again, so a run that fails later leaves nothing behind).
///
/// # Errors
/// [`ReportError::Input`] naming `--html`, the path and what is wrong.
pub fn check_target(path: &Path) -> Result<(), ReportError> {
    let bad = |why: String| {
        Err(ReportError::Input(format!(
            "--html {}: {why}",
            path.display()
        )))
    };
    if path.is_dir() {
        return bad(format!(
            "is a folder; give a file name, e.g. {}/report.html",
            path.display()
        ));
    }
    if let Some(parent) = path.parent()
        && !parent.as_os_str().is_empty()
        && !parent.is_dir()
    {
        return bad(format!("folder {} does not exist", parent.display()));
    }
    let existed = path.exists();
    if let Err(e) = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        return Err(ReportError::Input(format!(
            "cannot write {}: {e}",
            path.display()
        )));
    }
    if !existed {
        std::fs::remove_file(path).ok();
    }
    Ok(())
}

/// Writes the page.
///
/// # Errors
/// The file cannot be written.
pub fn write_page(path: &Path, page: &str) -> Result<(), ReportError> {
    std::fs::write(path, page).map_err(|e| ReportError::Write {
        path: path.to_path_buf(),
        error: e,
    })
}

/// `s` with `& < > " '` escaped for HTML text and attribute values.
#[must_use]
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: `<` written as `\u003c`, so no
/// `</script>` can end the block early (only strings can hold `<`).
fn script_json(v: &Value) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// A number a table shows, as the report's JSON holds it: its value and its exact JSON text
/// (`data-value`), or `None` where the JSON has `null` (a NaN or infinite float, or an
/// absent optional number).
trait JsonNumber {
    /// The value and its JSON text.
    fn json(&self) -> Option<(f64, String)>;
}

impl JsonNumber for f64 {
    fn json(&self) -> Option<(f64, String)> {
        // serde_json writes a finite float as this `Number` does and a non-finite one as null.
        serde_json::Number::from_f64(*self).map(|n| (*self, n.to_string()))
    }
}

impl JsonNumber for u64 {
    fn json(&self) -> Option<(f64, String)> {
        Some((*self as f64, self.to_string()))
    }
}

impl JsonNumber for usize {
    fn json(&self) -> Option<(f64, String)> {
        Some((*self as f64, self.to_string()))
    }
}

impl<T: JsonNumber> JsonNumber for Option<T> {
    fn json(&self) -> Option<(f64, String)> {
        self.as_ref().and_then(JsonNumber::json)
    }
}

/// `x` when the report's JSON holds it as a number (finite), `None` where it holds `null`.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// A table cell showing `x` (`scale` 100 for percent) with `decimals`, carrying `key` (its
/// path in the report JSON) and its exact JSON value.
fn num(key: &str, x: &dyn JsonNumber, scale: f64, decimals: usize) -> String {
    num_or_why(key, x, scale, decimals, None)
}

/// As [`num`], and an absent number (JSON `null`) shows "—" with `why` as its title.
fn num_or_why(
    key: &str,
    x: &dyn JsonNumber,
    scale: f64,
    decimals: usize,
    why: Option<&str>,
) -> String {
    match x.json() {
        Some((f, text)) => format!(
            "<td data-key=\"{}\" data-value=\"{text}\">{:.*}</td>",
            escape(key),
            decimals,
            f * scale
        ),
        None => format!(
            "<td data-key=\"{}\" title=\"{}\">—</td>",
            escape(key),
            escape(why.unwrap_or("not available"))
        ),
    }
}

/// An Elo cell: the number, or ±∞ when the Elo is infinite (JSON `null` with a score of
/// 100 % or 0 %, the only case in which a report's Elo is `null`).
fn infinite_or_num(key: &str, elo: f64, score: f64) -> String {
    match (finite(elo), finite(score)) {
        (None, Some(s)) if s > 0.5 => format!("<td data-key=\"{}\">+∞</td>", escape(key)),
        (None, Some(s)) if s < 0.5 => format!("<td data-key=\"{}\">−∞</td>", escape(key)),
        _ => num(key, &elo, 1.0, 1),
    }
}

/// A text cell (left-aligned).
fn txt(s: &str) -> String {
    format!("<td class=\"l\">{}</td>", escape(s))
}

/// The page's frame: head with CSS, the body, the games' JSON and the viewer script.
fn page(title: &str, body: &str, games: &Value) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{CSS}</style></head><body>\n<h1>{t}</h1>\n{body}\n\
         <script type=\"application/json\" id=\"games-data\">{games}</script>\n\
         <script>{BOARD_JS}</script>\n<script>{VIEWER_JS}</script>\n</body></html>\n",
        t = escape(title),
        games = script_json(games)
    )
}

/// The game viewer's markup.
fn viewer_section(shown: usize, total: usize) -> String {
    let more = if total > shown {
        format!(
            "<p class=\"note\">The viewer holds the first {shown} of {total} games (by id).</p>"
        )
    } else {
        String::new()
    };
    format!(
        "<h2 id=\"viewer-h\">Game viewer</h2>{more}\
         <div><select id=\"game-select\"></select></div>\
         <div class=\"controls\"><button id=\"first\">|&lt;</button><button id=\"prev\">&lt;</button>\
         <button id=\"next\">&gt;</button><button id=\"last\">&gt;|</button> \
         <input type=\"range\" id=\"slider\" min=\"0\" max=\"0\" value=\"0\"> <span id=\"ply-info\"></span></div>\
         <div id=\"ply-counts\" class=\"note\"></div>\
         <div id=\"viewer\"><div id=\"board\"></div><div id=\"movelist\"></div></div>\
         <div id=\"shown\" hidden></div>"
    )
}

/// The viewer's data for `records` (at most [`MAX_VIEWER_GAMES`], by id; `label` prefixes
/// each title, e.g. the fairness row; `key` is what `#game=KEY` selects, unique on the
/// page): each game replayed by [`replay`] (every ply from the game's start, the opening's
/// moves first; the position, last move, legal moves and counts at each ply; the result in
/// words).
///
/// # Errors
/// A record of another game or one whose moves do not replay.
fn viewer_games<G: Present>(
    records: &[(String, String, &GameRecord)],
) -> Result<Vec<Value>, ReportError> {
    let mut out = Vec::new();
    for (label, key, r) in records.iter().take(MAX_VIEWER_GAMES) {
        let mut game = replay::<G>(r).map_err(ReportError::Input)?;
        let places: Vec<String> = r.ranks.iter().map(ToString::to_string).collect();
        game["title"] = Value::String(format!(
            "{label}#{key} {} — places {}",
            r.engines.join(" vs "),
            places.join("-")
        ));
        game["key"] = Value::String(key.clone());
        out.push(game);
    }
    Ok(out)
}

/// An SVG chart of intervals: one row per item (`label`, value, lower, upper) on a shared
/// axis from `lo` to `hi`, with a reference line at `mark` (e.g. 0 Elo or 50 %).
fn interval_chart(
    items: &[(String, f64, f64, f64)],
    lo: f64,
    hi: f64,
    mark: f64,
    unit: &str,
) -> String {
    let longest = items.iter().map(|i| i.0.chars().count()).max().unwrap_or(0) as f64;
    let left = (longest * 6.5 + 16.0).clamp(120.0, 420.0);
    let (w, row) = (left + 460.0, 22.0);
    let h = row * items.len() as f64 + 40.0;
    let span = if hi > lo { hi - lo } else { 1.0 };
    let x = |v: f64| left + (v.clamp(lo, hi) - lo) / span * (w - left - 20.0);
    let mut s = format!("<svg class=\"chart\" width=\"{w}\" height=\"{h}\" role=\"img\">");
    let _ = write!(
        s,
        "<line x1=\"{m}\" y1=\"10\" x2=\"{m}\" y2=\"{b}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
        m = x(mark),
        b = h - 24.0
    );
    for (i, (label, v, l, u)) in items.iter().enumerate() {
        let y = 20.0 + row * i as f64;
        let _ = write!(
            s,
            "<text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{name}</text>",
            lx = left - 8.0,
            ty = y + 4.0,
            name = escape(label),
        );
        // An absent interval (NaN) draws no bar, an absent value no point.
        if l.is_finite() && u.is_finite() {
            let _ = write!(
                s,
                "<line x1=\"{a}\" y1=\"{y}\" x2=\"{b}\" y2=\"{y}\" stroke=\"#1565c0\" stroke-width=\"2\"/>\
                 <line x1=\"{a}\" y1=\"{y0}\" x2=\"{a}\" y2=\"{y1}\" stroke=\"#1565c0\"/>\
                 <line x1=\"{b}\" y1=\"{y0}\" x2=\"{b}\" y2=\"{y1}\" stroke=\"#1565c0\"/>",
                a = x(*l),
                b = x(*u),
                y0 = y - 5.0,
                y1 = y + 5.0
            );
        }
        if v.is_finite() {
            let _ = write!(
                s,
                "<circle cx=\"{c}\" cy=\"{y}\" r=\"4\" fill=\"#c62828\"/>",
                c = x(*v)
            );
        }
    }
    let _ = write!(
        s,
        "<text x=\"{a}\" y=\"{t}\">{lo:.0}{unit}</text><text x=\"{b}\" y=\"{t}\" text-anchor=\"end\">{hi:.0}{unit}</text></svg>",
        a = left,
        b = w - 20.0,
        t = h - 8.0
    );
    s
}

/// A line chart of one or more series over games (x = game number), with a zero line.
fn line_chart(series: &[(&str, &str, Vec<f64>)], extra: &[(f64, &str)]) -> String {
    let (w, h, pad) = (640.0, 220.0, 36.0);
    let n = series.iter().map(|s| s.2.len()).max().unwrap_or(0).max(2);
    let mut lo = 0f64;
    let mut hi = 0f64;
    for (_, _, v) in series {
        for &y in v {
            lo = lo.min(y);
            hi = hi.max(y);
        }
    }
    for &(y, _) in extra {
        lo = lo.min(y);
        hi = hi.max(y);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let x = |i: usize| pad + i as f64 / (n - 1) as f64 * (w - 2.0 * pad);
    let y = |v: f64| h - pad - (v - lo) / (hi - lo) * (h - 2.0 * pad);
    let mut s = format!("<svg class=\"chart\" width=\"{w}\" height=\"{h}\" role=\"img\">");
    let _ = write!(
        s,
        "<line x1=\"{pad}\" y1=\"{z}\" x2=\"{r}\" y2=\"{z}\" stroke=\"#999\"/>",
        z = y(0.0),
        r = w - pad
    );
    for &(v, label) in extra {
        let _ = write!(
            s,
            "<line x1=\"{pad}\" y1=\"{z}\" x2=\"{r}\" y2=\"{z}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{r}\" y=\"{t}\" text-anchor=\"end\">{}</text>",
            escape(label),
            z = y(v),
            r = w - pad,
            t = y(v) - 3.0
        );
    }
    for (k, (name, colour, v)) in series.iter().enumerate() {
        let pts: Vec<String> = v
            .iter()
            .enumerate()
            .map(|(i, &p)| format!("{:.1},{:.1}", x(i), y(p)))
            .collect();
        let _ = write!(
            s,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\
             <text x=\"{tx}\" y=\"{ty}\" fill=\"{colour}\">{}</text>",
            pts.join(" "),
            escape(name),
            tx = pad + 4.0,
            ty = 14.0 + 14.0 * k as f64
        );
    }
    let _ = write!(
        s,
        "<text x=\"{pad}\" y=\"{b}\">game 1</text><text x=\"{r}\" y=\"{b}\" text-anchor=\"end\">game {n}</text>\
         <text x=\"4\" y=\"{t}\">{hi:.1}</text><text x=\"4\" y=\"{bb}\">{lo:.1}</text></svg>",
        b = h - 8.0,
        r = w - pad,
        t = pad,
        bb = h - pad
    );
    s
}

/// The per-seat table and chart of `seats`, whose cells' keys start with `prefix` (their
/// path in the report JSON, e.g. `seats`).
fn seats_section(seats: &[SeatRow], prefix: &str) -> String {
    let mut s = String::from(
        "<table><tr><th class=\"l\">seat</th><th>games</th><th>score %</th><th>95 % low</th><th>95 % high</th>\
         <th>win %</th><th>draw %</th><th>loss %</th><th>win 95 % (Wilson)</th></tr>",
    );
    let mut items = Vec::new();
    for (i, r) in seats.iter().enumerate() {
        let p = format!("{prefix}.{i}");
        let _ = write!(
            s,
            "<tr>{}{}{}{}{}{}{}{}<td>{:.1} – {:.1}</td></tr>",
            txt(&r.name),
            num(&format!("{p}.games"), &r.games, 1.0, 0),
            num(&format!("{p}.score.value"), &r.score.value, 100.0, 1),
            num(&format!("{p}.score.lower"), &r.score.lower, 100.0, 1),
            num(&format!("{p}.score.upper"), &r.score.upper, 100.0, 1),
            num(&format!("{p}.win.value"), &r.win.value, 100.0, 1),
            num(&format!("{p}.draw.value"), &r.draw.value, 100.0, 1),
            num(&format!("{p}.loss.value"), &r.loss.value, 100.0, 1),
            100.0 * finite(r.win.lower).unwrap_or(0.0),
            100.0 * finite(r.win.upper).unwrap_or(0.0)
        );
        let f = |x: f64| 100.0 * finite(x).unwrap_or(0.5);
        items.push((
            r.name.clone(),
            f(r.score.value),
            f(r.score.lower),
            f(r.score.upper),
        ));
    }
    s.push_str("</table>");
    s.push_str(&interval_chart(&items, 0.0, 100.0, 50.0, " %"));
    s
}

/// The page of a tournament: `report` is the report (as `report.json`), `records` the
/// games, `llr` the LLR after each game when an SPRT ran.
///
/// # Errors
/// Records of another game, or moves that do not replay.
pub fn report_page<G: Present>(
    dir: &str,
    report: &Report,
    records: &[GameRecord],
    llr: &[f64],
) -> Result<String, ReportError> {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} games of <b>{}</b> from <code>{}</code>. Every number below is from the records \
         (the same as <code>report.json</code>).</p>",
        report.games,
        escape(G::ID),
        escape(dir)
    );
    // Rating list.
    body.push_str("<h2>Rating list</h2>");
    let _ = write!(
        body,
        "<p class=\"note\">Maximum likelihood, {}; 95 % bootstrap intervals over blocks.</p>",
        escape(&report.anchor)
    );
    let ratings = &report.ratings;
    let mut items = Vec::new();
    body.push_str("<table><tr><th>rank</th><th class=\"l\">engine</th><th>Elo</th><th>95 % low</th><th>95 % high</th><th>games</th><th>score %</th></tr>");
    let mut notes = Vec::new();
    for (i, r) in ratings.iter().enumerate() {
        let p = format!("ratings.{i}");
        let why = r.interval_note.as_deref();
        let _ = write!(
            body,
            "<tr><td>{}</td>{}{}{}{}{}{}</tr>",
            i + 1,
            txt(&r.name),
            num_or_why(&format!("{p}.elo"), &r.elo, 1.0, 1, why),
            num_or_why(&format!("{p}.lower"), &r.lower, 1.0, 0, why),
            num_or_why(&format!("{p}.upper"), &r.upper, 1.0, 0, why),
            num(&format!("{p}.games"), &r.games, 1.0, 0),
            num_or_why(&format!("{p}.score"), &r.score, 100.0, 1, why)
        );
        // Absent numbers stay absent in the chart: no bar, no point.
        let f = |x: f64| finite(x).unwrap_or(f64::NAN);
        if let Some(why) = why {
            notes.push(format!("{}: {why}", escape(&r.name)));
        }
        items.push((r.name.clone(), f(r.elo), f(r.lower), f(r.upper)));
    }
    body.push_str("</table>");
    for n in &notes {
        let _ = write!(body, "<p class=\"note\">{n}</p>");
    }
    let finite = |x: &f64| x.is_finite();
    let lo = items
        .iter()
        .flat_map(|i| [i.1, i.2])
        .filter(finite)
        .fold(0.0, f64::min);
    let hi = items
        .iter()
        .flat_map(|i| [i.1, i.3])
        .filter(finite)
        .fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.05).max(10.0);
    body.push_str(&interval_chart(&items, lo - pad, hi + pad, 0.0, ""));
    // Head-to-head matrix.
    let pairings = &report.pairings;
    if !pairings.is_empty() {
        body.push_str(&pairings_section(ratings, pairings));
    }
    // Score (and LLR) over the games played.
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.id);
    if let Some(first) = ratings.first().map(|r| r.name.as_str()) {
        let mut series = Vec::new();
        let mut total = 0.0;
        let mut margin = Vec::new();
        for r in &sorted {
            let view = r.sides_view();
            if let Some(k) = view.engines.iter().position(|e| e == first) {
                total += view.points[k] - 0.5;
            }
            margin.push(total);
        }
        series.push((
            "points above 1/2 of the top-rated engine",
            "#1565c0",
            margin,
        ));
        body.push_str("<h2>Score over the games played</h2>");
        body.push_str(&line_chart(&series, &[]));
    }
    if !llr.is_empty() {
        body.push_str(&sprt_section(report.sprt.as_ref(), llr));
    }
    // Results by seat.
    let _ = write!(
        body,
        "<h2>Results by seat</h2><p class=\"note\">All engines together; score = mean points ({}), 95 % Wilson interval over blocks; win = sole first place.</p>",
        escape(&crate::tournament::fairness::points_rule(
            report.seats.len()
        ))
    );
    body.push_str(&seats_section(&report.seats, "seats"));
    // Time per move.
    let mut names: Vec<String> = ratings.iter().map(|r| r.name.clone()).collect();
    names.sort();
    body.push_str(&move_times::section::<G>(records, &names).map_err(ReportError::Input)?);
    // Termination reasons.
    body.push_str(
        "<h2>How the games ended</h2><table><tr><th class=\"l\">reason</th><th>games</th></tr>",
    );
    for (k, n) in &report.reasons {
        let _ = write!(
            body,
            "<tr>{}{}</tr>",
            txt(k),
            num(&format!("reasons.{k}"), n, 1.0, 0)
        );
    }
    body.push_str("</table>");
    // `#game=ID` on a tournament page: record ids are unique in one folder.
    let labelled: Vec<(String, String, &GameRecord)> = sorted
        .iter()
        .map(|r| (String::new(), r.id.to_string(), *r))
        .collect();
    let games = viewer_games::<G>(&labelled)?;
    body.push_str(&viewer_section(games.len(), sorted.len()));
    let data = serde_json::json!({ "game": G::ID, "games": games });
    Ok(page(
        &format!("tessera tournament report: {}", G::ID),
        &body,
        &data,
    ))
}

/// The head-to-head matrix of the engines of `ratings` (rows and columns in rating order)
/// and the table and notes of `pairings` (two-seat games).
fn pairings_section(ratings: &[Rating], pairings: &[Pairing]) -> String {
    let mut body = String::new();
    let names: Vec<&str> = ratings.iter().map(|r| r.name.as_str()).collect();
    body.push_str("<h2>Head to head</h2><p class=\"note\">Row engine's score % against the column engine (games; Elo ± 95 %).</p><table><tr><th></th>");
    for n in &names {
        let _ = write!(body, "<th>{}</th>", escape(n));
    }
    body.push_str("</tr>");
    for &a in &names {
        let _ = write!(body, "<tr><th class=\"l\">{}</th>", escape(a));
        for &b in &names {
            let cell = pairings.iter().find_map(|p| {
                if p.a == a && p.b == b {
                    Some((p, false))
                } else if p.a == b && p.b == a {
                    Some((p, true))
                } else {
                    None
                }
            });
            match cell {
                None => body.push_str("<td></td>"),
                Some((p, flipped)) => {
                    let score = finite(p.score).unwrap_or(0.5);
                    let sign = if flipped { -1.0 } else { 1.0 };
                    let score = if flipped { 1.0 - score } else { score };
                    // Elo is absent (infinite) only when one side won every game; a finite
                    // Elo without an error bar (absent, with the reason in `note`) shows
                    // "± —", never ∞.
                    let elo = match (finite(p.elo), finite(p.elo_error)) {
                        (Some(e), Some(err)) => format!("{:+.0} ± {err:.0}", sign * e),
                        (Some(e), None) => format!("{:+.0} ± —", sign * e),
                        _ if score > 0.5 => "+∞".to_string(),
                        _ => "−∞".to_string(),
                    };
                    let why = p
                        .note
                        .as_deref()
                        .map_or(String::new(), |n| format!(": {}", escape(n)));
                    let _ = write!(
                        body,
                        "<td title=\"{a} vs {b}{why}\">{:.1} % ({} games; Elo {})</td>",
                        100.0 * score,
                        p.games,
                        escape(&elo),
                        a = escape(a),
                        b = escape(b)
                    );
                }
            }
        }
        body.push_str("</tr>");
    }
    body.push_str("</table><table><tr><th class=\"l\">engine</th><th class=\"l\">opponent</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score %</th><th>Elo</th><th>±</th><th>nElo</th><th>LOS %</th></tr>");
    for (i, p) in pairings.iter().enumerate() {
        let k = format!("pairings.{i}");
        let why = p.note.as_deref();
        let _ = write!(
            body,
            "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>",
            txt(&p.a),
            txt(&p.b),
            num(&format!("{k}.games"), &p.games, 1.0, 0),
            num(&format!("{k}.wins"), &p.wins, 1.0, 0),
            num(&format!("{k}.draws"), &p.draws, 1.0, 0),
            num(&format!("{k}.losses"), &p.losses, 1.0, 0),
            num(&format!("{k}.score"), &p.score, 100.0, 1),
            infinite_or_num(&format!("{k}.elo"), p.elo, p.score),
            num_or_why(&format!("{k}.elo_error"), &p.elo_error, 1.0, 1, why),
            num_or_why(&format!("{k}.nelo"), &p.nelo, 1.0, 1, why),
            num_or_why(&format!("{k}.los"), &p.los, 100.0, 1, why)
        );
    }
    body.push_str("</table>");
    for p in pairings {
        if let Some(n) = &p.note {
            let _ = write!(
                body,
                "<p class=\"note\">{} vs {}: {}</p>",
                escape(&p.a),
                escape(&p.b),
                escape(n)
            );
        }
    }
    body
}

/// The SPRT's chart of `llr` (the LLR after each game) between its bounds, and its state
/// (`None`: no SPRT state, every cell absent).
fn sprt_section(sprt: Option<&SprtState>, llr: &[f64]) -> String {
    let mut body = String::new();
    let bounds: Vec<(f64, String)> = sprt
        .map(|s| [("lower", s.lower), ("upper", s.upper)])
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| finite(v).map(|v| (v, format!("{k} bound"))))
        .collect();
    let extra: Vec<(f64, &str)> = bounds.iter().map(|(v, s)| (*v, s.as_str())).collect();
    body.push_str("<h2>SPRT: log-likelihood ratio over the games played</h2>");
    body.push_str(&line_chart(&[("LLR", "#c62828", llr.to_vec())], &extra));
    let _ = write!(
        body,
        "<table><tr><th>LLR</th><th>lower</th><th>upper</th><th class=\"l\">decision</th></tr><tr>{}{}{}{}</tr></table>",
        num("sprt.llr", &sprt.map(|s| s.llr), 1.0, 3),
        num("sprt.lower", &sprt.map(|s| s.lower), 1.0, 3),
        num("sprt.upper", &sprt.map(|s| s.upper), 1.0, 3),
        txt(sprt.map_or("", |s| s.decision.as_str()))
    );
    body
}

/// The page of a fairness run: `summary` is the run's summary (the command's JSON, field
/// for field), `records` the games of each row (in the order of `summary.rows`).
///
/// # Errors
/// Records of another game, or moves that do not replay.
pub fn fairness_page<G: Present>(
    summary: &Summary,
    records: &[Vec<GameRecord>],
) -> Result<String, ReportError> {
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>{} in every seat rotation. Score = mean points ({}; a fair seat scores 50 %), \
         95 % Wilson intervals over blocks; W/D/L = sole first / shared first / other place.</p>\
         {}<p class=\"verdict\">Verdict: {}</p>",
        escape(&summary.engine),
        escape(&summary.points),
        if summary.interrupted {
            "<p class=\"verdict\">INTERRUPTED: the rows below are partial.</p>"
        } else {
            ""
        },
        escape(&summary.verdict)
    );
    body.push_str("<h2>Results by seat</h2><table><tr><th class=\"l\">variant</th><th class=\"l\">openings</th><th class=\"l\">level</th><th>games</th><th>distinct</th><th class=\"l\">seat</th><th>score %</th><th>95 % low</th><th>95 % high</th><th>win %</th><th>draw %</th><th>loss %</th></tr>");
    let mut items = Vec::new();
    for (i, r) in summary.rows.iter().enumerate() {
        for (j, seat) in r.seats.iter().enumerate() {
            let p = format!("rows.{i}.seats.{j}");
            let head = if j == 0 {
                format!(
                    "<td class=\"l\" rowspan=\"{n}\">{}</td><td class=\"l\" rowspan=\"{n}\">{}</td><td class=\"l\" rowspan=\"{n}\">{}</td><td rowspan=\"{n}\" data-key=\"rows.{i}.games\" data-value=\"{}\">{}</td><td rowspan=\"{n}\">{}</td>",
                    escape(&r.variant),
                    escape(&r.openings),
                    escape(&r.level),
                    r.games,
                    r.games,
                    r.distinct,
                    n = r.seats.len()
                )
            } else {
                String::new()
            };
            let name = &seat.name;
            let _ = write!(
                body,
                "<tr>{head}{}{}{}{}{}{}{}</tr>",
                txt(name),
                num(&format!("{p}.score.value"), &seat.score.value, 100.0, 1),
                num(&format!("{p}.score.lower"), &seat.score.lower, 100.0, 1),
                num(&format!("{p}.score.upper"), &seat.score.upper, 100.0, 1),
                num(&format!("{p}.win.value"), &seat.win.value, 100.0, 1),
                num(&format!("{p}.draw.value"), &seat.draw.value, 100.0, 1),
                num(&format!("{p}.loss.value"), &seat.loss.value, 100.0, 1)
            );
            let f = |x: f64| 100.0 * finite(x).unwrap_or(0.5);
            items.push((
                format!("{} {} {}: {name}", r.variant, r.openings, r.level),
                f(seat.score.value),
                f(seat.score.lower),
                f(seat.score.upper),
            ));
        }
    }
    body.push_str("</table><p class=\"note\">Each seat's score with its 95 % interval; the dashed line is the fair 50 %. Rows of one distinct game (deterministic engines from the start position) show the wide interval of a single game and take no part in the trend or the verdict.</p>");
    body.push_str(&interval_chart(&items, 0.0, 100.0, 50.0, " %"));
    if !summary.trends.is_empty() {
        body.push_str("<h2>Trend with strength</h2><table><tr><th class=\"l\">variant</th><th class=\"l\">openings</th><th class=\"l\">seat</th><th class=\"l\">from</th><th>score %</th><th class=\"l\">to</th><th>score %</th><th>change</th><th>95 % low</th><th>95 % high</th><th class=\"l\">direction</th></tr>");
        for (i, t) in summary.trends.iter().enumerate() {
            let k = format!("trends.{i}");
            let _ = write!(
                body,
                "<tr>{}{}{}{}{}{}{}{}{}{}{}</tr>",
                txt(&t.variant),
                txt(&t.openings),
                txt(&t.name),
                txt(&t.from.0),
                num(&format!("{k}.from.1"), &t.from.1, 100.0, 1),
                txt(&t.to.0),
                num(&format!("{k}.to.1"), &t.to.1, 100.0, 1),
                num(&format!("{k}.change"), &t.change, 100.0, 1),
                num(&format!("{k}.lower"), &t.lower, 100.0, 1),
                num(&format!("{k}.upper"), &t.upper, 100.0, 1),
                txt(&t.direction)
            );
        }
        body.push_str("</table>");
    }
    if !summary.exact.is_empty() || !summary.notes.is_empty() {
        body.push_str("<h2>Exact results</h2><ul>");
        for e in &summary.exact {
            let _ = write!(
                body,
                "<li>Quixo {}: {}{} ({})</li>",
                escape(&e.board),
                escape(&e.value),
                e.plies.map_or(String::new(), |p| format!(" in {p} plies")),
                escape(&e.source)
            );
        }
        for n in &summary.notes {
            let _ = write!(body, "<li>{}</li>", escape(n));
        }
        body.push_str("</ul>");
    }
    let mut labelled = Vec::new();
    let mut total = 0;
    for (i, recs) in records.iter().enumerate() {
        let label = summary.rows.get(i).map_or_else(
            || " /  /  ".to_string(),
            |r| format!("{} / {} / {} ", r.variant, r.openings, r.level),
        );
        let mut sorted: Vec<&GameRecord> = recs.iter().collect();
        sorted.sort_by_key(|r| r.id);
        total += sorted.len();
        // A few games of every row, so each row is in the viewer.
        let per_row = (MAX_VIEWER_GAMES / records.len().max(1)).max(1);
        // Every row is a tournament of its own with ids from 0: `#game=ROW-ID` (row from 1,
        // as listed) names one game of the page.
        labelled.extend(
            sorted
                .into_iter()
                .take(per_row)
                .map(|g| (label.clone(), format!("{}-{}", i + 1, g.id), g)),
        );
    }
    let games = viewer_games::<G>(&labelled)?;
    body.push_str(&viewer_section(games.len(), total));
    let data = serde_json::json!({ "game": G::ID, "games": games });
    Ok(page(&format!("tessera fairness: {}", G::ID), &body, &data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_script_json() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let v = serde_json::json!({"s": "</script><b>"});
        assert!(!script_json(&v).contains("</script"));
        assert_eq!(serde_json::from_str::<Value>(&script_json(&v)).unwrap(), v);
        assert_eq!(
            num("a.0.b", &1.5, 100.0, 1),
            "<td data-key=\"a.0.b\" data-value=\"1.5\">150.0</td>"
        );
    }

    /// `data-value` is the number's text in `report.json`, so a test can compare the two:
    /// whole floats keep their `.0`, small ones their exponent, integers stay integers.
    #[test]
    fn cells_carry_the_json_text_of_their_number() {
        for x in [1.0, 100.0, 0.1 + 0.2, 1e-7, -3.25e21, 0.5] {
            let cell = num("k", &x, 1.0, 1);
            let json = serde_json::to_string(&x).unwrap();
            assert!(cell.contains(&format!("data-value=\"{json}\"")), "{cell}");
        }
        assert_eq!(
            num("g", &8u64, 1.0, 0),
            "<td data-key=\"g\" data-value=\"8\">8</td>"
        );
        // JSON null (NaN, infinite, absent) shows a dash with the reason.
        for x in [f64::NAN, f64::INFINITY] {
            assert_eq!(serde_json::to_string(&x).unwrap(), "null");
            assert_eq!(
                num_or_why("e", &x, 1.0, 1, Some("one pair")),
                "<td data-key=\"e\" title=\"one pair\">—</td>"
            );
        }
        assert_eq!(
            num("s", &None::<f64>, 1.0, 3),
            "<td data-key=\"s\" title=\"not available\">—</td>"
        );
        // An infinite Elo shows its sign from the score; a finite one its number.
        assert_eq!(
            infinite_or_num("p", f64::INFINITY, 1.0),
            "<td data-key=\"p\">+∞</td>"
        );
        assert_eq!(
            infinite_or_num("p", f64::NEG_INFINITY, 0.0),
            "<td data-key=\"p\">−∞</td>"
        );
        assert_eq!(
            infinite_or_num("p", -12.5, 0.4),
            "<td data-key=\"p\" data-value=\"-12.5\">-12.5</td>"
        );
    }
}
