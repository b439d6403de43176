//! The tournament report, computed from game records alone (so `tournament report DIR`
//! re-prints it and `tournament merge` combines shards): per pairing W/D/L, pentanomial
//! counts, Elo with a 95 % error bar, normalized Elo, LOS and draw ratio; a rating list fitted
//! over all games (Bradley-Terry, Plackett-Luce for three seats) with bootstrap error bars
//! over blocks; each engine's time per move (see [`super::move_times`]); and the SPRT state.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use serde::Serialize;

use super::head_to_head::{Comparison, comparisons};
use super::move_times::{self, MoveTimes};
use super::record::GameRecord;
use super::seats::{SeatRow, by_seat};
use super::settings::Settings;
use super::stats::elo::{EloReport, Pentanomial, Trinomial, Wdl};
use super::stats::ratings::{Anchor, BootstrapOptions, FitOptions, GameResult, ResultSet};
use super::stats::sprt::SprtDecision;
use crate::game::Game;

pub use super::settings::SprtSettings;

/// One head-to-head pairing, from engine `a`'s view.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// First engine (the one whose view the numbers take).
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Games between them.
    pub games: u64,
    /// `a`'s wins, draws, losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// `a`'s losses.
    pub losses: u64,
    /// Complete colour-swapped pairs counted as `[LL, LD, WL+DD, WD, WW]` for `a`.
    pub pentanomial: [u64; 5],
    /// Mean score of `a` per game.
    pub score: f64,
    /// Elo difference (a - b), from the pentanomial pairs when there are any.
    pub elo: f64,
    /// 95 % error bar of `elo`: `(Elo(mu + z SE) - Elo(mu - z SE)) / 2`; infinite (JSON
    /// `null`) when `mu +- z SE` reaches 0 % or 100 %, when `elo` itself is infinite, or
    /// with a single unit (one colour-swapped pair, or one game), which has no variance.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// 95 % error bar of `nelo` (infinite, JSON `null`, when `nelo` is or with a single unit).
    pub nelo_error: f64,
    /// Likelihood of superiority of `a`, 0..1; NaN (JSON `null`, text `-`) with fewer than
    /// two units (colour-swapped pairs, or games without pairs).
    pub los: f64,
    /// Fraction of games drawn.
    pub draw_ratio: f64,
    /// Why `elo_error`, `nelo`, `nelo_error` or `los` is absent (JSON `null`, text `n/a`),
    /// when one is: see [`EloReport::absent_reason`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One row of the rating list.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    /// Engine name.
    pub name: String,
    /// Rating, Elo, relative to the anchor; `null` in JSON (with `interval_note`) for an
    /// engine without games (its fitted value would be the prior's alone).
    pub elo: f64,
    /// 95 % bootstrap interval (over blocks); `null` in JSON (with `interval_note`) when
    /// every resample gave the same fit, or the engine played no game.
    pub lower: f64,
    /// Upper end of the interval.
    pub upper: f64,
    /// Games played.
    pub games: u64,
    /// Mean points per game (1 win, 1/2 draw for two seats); `null` in JSON without games.
    pub score: f64,
    /// Why there is no interval (or no Elo and score), when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval_note: Option<String>,
    /// The engine's time per move over its own moves, forced passes left out, from the
    /// records' `move_stats` (see [`move_times::by_engine`]); `None` (JSON `null`, text `-`)
    /// without a timed move.
    pub time_per_move_ms: Option<MoveTimes>,
}

/// Why an engine's rating, interval and score are left out: it played no game (a shard
/// without its games, a folder with no finished game).
pub const NO_GAMES: &str = "no rating, interval or score: the engine played no game here";

/// Why a bootstrap interval is left out: every resample of the blocks gives the same data.
pub const DEGENERATE_INTERVAL: &str = "no interval: every bootstrap resample gave the same fit (one block, or every block with the same result), so resampling says nothing about the error";

/// The SPRT state.
#[derive(Clone, Debug, Serialize)]
pub struct SprtState {
    /// Settings.
    pub settings: SprtSettings,
    /// Log-likelihood ratio of the complete pairs.
    pub llr: f64,
    /// Lower bound ln(beta / (1 - alpha)).
    pub lower: f64,
    /// Upper bound ln((1 - beta) / alpha).
    pub upper: f64,
    /// `H0 accepted`, `H1 accepted` or `continue`.
    pub decision: String,
    /// Why a `continue` is final or cannot change, when it is (see [`sprt_note`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Why an SPRT left at `continue` is no decision: the LLR of complete pairs that are all
/// in the middle cell (drawn, or one win and one loss) is exactly 0 when the hypotheses are
/// symmetric about 0 (`elo0 = -elo1`: the sample's score 1/2 is as likely under both), so
/// no number of such pairs reaches a bound; and a finished schedule (`finished`) stops the
/// run at its game limit (`--rounds`, `--games`) without a decision. `None` otherwise.
#[must_use]
pub fn sprt_note(settings: &SprtSettings, penta: &Pentanomial, finished: bool) -> Option<String> {
    let cells = penta.cells();
    let symmetric_stuck = penta.pairs() > 0
        && cells[2] == penta.pairs()
        && (settings.elo0 + settings.elo1).abs() < 1e-12;
    let mut parts = Vec::new();
    if symmetric_stuck {
        parts.push(format!(
            "every complete pair scored 1/2 and the hypotheses are symmetric about 0 \
             (elo0 {}, elo1 {}): the LLR is 0 by symmetry and such pairs never reach a bound",
            settings.elo0, settings.elo1
        ));
    }
    if finished {
        parts.push(
            "the schedule ended before the LLR reached a bound: no decision (more games, \
             with --rounds or --games, or narrower bounds can decide)"
                .to_string(),
        );
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Game id.
    pub game: String,
    /// Games counted.
    pub games: usize,
    /// Games that differ from every other: the same engines in the same seats playing the
    /// same moves from the same opening count once. Fewer than `games` when openings were
    /// reused (more rounds than a file's openings): the error bars treat every game as
    /// independent, so they are then too narrow.
    pub distinct_games: usize,
    /// Games per end reason.
    pub reasons: BTreeMap<String, usize>,
    /// Head-to-head results (two-seat games).
    pub pairings: Vec<Pairing>,
    /// Rating list, best first.
    pub ratings: Vec<Rating>,
    /// What the ratings are anchored at.
    pub anchor: String,
    /// SPRT state, when an SPRT was asked for.
    pub sprt: Option<SprtState>,
    /// Results by seat over every game (team games: by side), see [`super::seats`].
    pub seats: Vec<SeatRow>,
    /// Games of three or more sides: for each pair of engines, who finished ahead of whom
    /// (see [`super::head_to_head`]); empty for two-sided games.
    pub head_to_head: Vec<Comparison>,
}

fn wdl(points: f64) -> Wdl {
    if points > 0.75 {
        Wdl::Win
    } else if points < 0.25 {
        Wdl::Loss
    } else {
        Wdl::Draw
    }
}

/// Head-to-head numbers of `a` against `b` over two-seat records.
fn pairing(a: &str, b: &str, records: &[GameRecord]) -> (Pairing, Pentanomial) {
    let mut tri = Trinomial::default();
    let mut blocks: HashMap<usize, Vec<Wdl>> = HashMap::new();
    for r in records.iter().filter(|r| r.engines.len() == 2) {
        let seat = match (r.engines[0].as_str(), r.engines[1].as_str()) {
            (x, y) if x == a && y == b => 0,
            (x, y) if x == b && y == a => 1,
            _ => continue,
        };
        let res = wdl(r.points[seat]);
        tri.add(res);
        blocks.entry(r.block).or_default().push(res);
    }
    let mut penta = Pentanomial::default();
    for games in blocks.values().filter(|g| g.len() == 2) {
        penta.add_pair(games[0], games[1]);
    }
    let rep: EloReport = if penta.pairs() > 0 {
        penta.report()
    } else {
        tri.report()
    };
    let (w, d, l) = (tri.wins, tri.draws, tri.losses);
    // A spread is known only from two units or more that differ (see `EloReport::absent_reason`).
    let spread = rep.has_spread();
    let p = Pairing {
        a: a.into(),
        b: b.into(),
        games: tri.games(),
        wins: w,
        draws: d,
        losses: l,
        pentanomial: penta.cells(),
        score: if tri.games() > 0 {
            (w as f64 + 0.5 * d as f64) / tri.games() as f64
        } else {
            0.5
        },
        elo: rep.elo,
        // An infinite Elo has no finite error bar; nor has a single unit (one pair, or one
        // game without pairs) or units that all had the same result: their variance is 0
        // by construction, and "± 0" would claim certainty. Absent: NaN, JSON null, with
        // the reason in `note`.
        elo_error: if rep.elo.is_finite() && spread && rep.elo_error.is_finite() {
            rep.elo_error
        } else {
            f64::NAN
        },
        // Normalized Elo divides by the spread: undefined without one (infinite when one
        // side won everything).
        nelo: if spread || !rep.elo.is_finite() {
            rep.nelo
        } else {
            f64::NAN
        },
        nelo_error: if rep.nelo.is_finite() && spread {
            rep.nelo_error
        } else {
            f64::NAN
        },
        // One unit is no evidence either way: LOS would read 100 % (or 0 %) after one won
        // (or lost) pair, and 50 % after drawn pairs with no spread. Undefined (NaN; JSON
        // `null`, text `n/a`) until there is a spread; an infinite Elo's LOS is kept.
        los: if spread || (rep.units >= 2.0 && !rep.elo.is_finite()) {
            rep.los
        } else {
            f64::NAN
        },
        draw_ratio: tri.draw_ratio(),
        note: rep.absent_reason(),
    };
    (p, penta)
}

/// The SPRT state of engine 0 against engine 1, if an SPRT was asked for.
fn sprt_state(settings: &Settings, records: &[GameRecord]) -> Option<SprtState> {
    let s = settings.sprt.as_ref()?;
    let sprt = s.sprt().ok()?;
    let (_, penta) = pairing(
        &settings.engines[0].name,
        &settings.engines[1].name,
        records,
    );
    let llr = sprt.llr_pentanomial(&penta);
    let decision = match sprt.decide(llr) {
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::Continue => "continue",
    };
    let finished = records.len() >= scheduled_games(settings, records);
    Some(SprtState {
        settings: s.clone(),
        llr,
        lower: sprt.lower_bound(),
        upper: sprt.upper_bound(),
        decision: decision.into(),
        note: if decision == "continue" {
            sprt_note(s, &penta, finished)
        } else {
            None
        },
    })
}

/// The games the schedule of `settings` plays in all (every shard), by the side count of
/// `records` (two without records): a team game's record lists one engine per seat, but
/// the schedule pairs sides (teams), as the runner does.
fn scheduled_games(settings: &Settings, records: &[GameRecord]) -> usize {
    let seats = records.first().map_or(2, |r| r.sides_view().engines.len());
    super::schedule::groups(settings.engines.len(), seats, settings.format).len()
        * settings.rounds
        * seats
}

/// The SPRT's log-likelihood ratio after each of the first games (by id), at most 400
/// points evenly spaced over the games (the last point is all games); empty without an
/// SPRT.
#[must_use]
pub fn llr_history(settings: &Settings, records: &[GameRecord]) -> Vec<f64> {
    if settings.sprt.is_none() || records.is_empty() {
        return Vec::new();
    }
    let mut sorted = sides_view(records);
    sorted.sort_by_key(|r| r.id);
    let n = sorted.len();
    let points = n.min(400);
    (1..=points)
        .filter_map(|k| {
            let upto = (k * n).div_ceil(points);
            sprt_state(settings, &sorted[..upto]).map(|s| s.llr)
        })
        .collect()
}

/// Whether the SPRT has reached a bound.
#[must_use]
pub fn sprt_decided(settings: &Settings, records: &[GameRecord]) -> bool {
    let records = &sides_view(records)[..];
    sprt_state(settings, records).is_some_and(|s| s.decision != "continue")
}

/// Virtual draws per player in the rating fit (see [`FitOptions::prior_draws`]).
pub const PRIOR_DRAWS: f64 = 1.0;

fn fit_ratings<const S: usize>(
    names: &[String],
    anchor: Option<&str>,
    records: &[GameRecord],
    seed: u64,
) -> Vec<Rating> {
    let mut set: ResultSet<S> = ResultSet::with_players(names.iter().cloned());
    let mut blocks: BTreeMap<usize, Vec<GameResult<S>>> = BTreeMap::new();
    let mut games = vec![0u64; names.len()];
    let mut points = vec![0f64; names.len()];
    for r in records.iter().filter(|r| r.engines.len() == S) {
        let mut players = [0usize; S];
        let mut places = [0u8; S];
        let mut ok = true;
        for k in 0..S {
            match set.player(&r.engines[k]) {
                Some(id) => players[k] = id,
                None => ok = false,
            }
            places[k] = r.ranks[k].min(255) as u8;
        }
        if !ok {
            continue;
        }
        for k in 0..S {
            games[players[k]] += 1;
            points[players[k]] += r.points[k];
        }
        blocks
            .entry(r.block)
            .or_default()
            .push(GameResult::new(players, places));
    }
    for (_, b) in blocks {
        // Records come from our own schedule, so blocks are well-formed; skip any that is not.
        let _ = set.add_block(b);
    }
    let anchor = anchor
        .and_then(|a| set.player(a))
        .map_or(Anchor::Mean, Anchor::Player);
    // One virtual draw against a rating-0 opponent per player keeps ratings finite when an
    // engine won or lost every game (perfect separation has no finite maximum).
    let fit = FitOptions {
        anchor,
        prior_draws: PRIOR_DRAWS,
        ..FitOptions::default()
    };
    let boot = set.bootstrap(
        &fit,
        &BootstrapOptions {
            replicates: 400,
            seed,
            confidence: 0.95,
        },
    );
    // Equal up to rounding: refits of the same data differ in the last bits (one pair
    // printed "[+176, +176]").
    let degenerate = |i: usize| (boot.upper[i] - boot.lower[i]).abs() < 1e-6;
    let mut rows: Vec<Rating> = (0..names.len())
        .map(|i| {
            // An engine without games has only the prior's rating and a zero-width
            // interval: no numbers at all, and why. A bootstrap whose resamples are all
            // equal has a zero-width interval, which would claim certainty; no interval,
            // and why.
            let note = if games[i] == 0 {
                Some(NO_GAMES)
            } else if degenerate(i) {
                Some(DEGENERATE_INTERVAL)
            } else {
                None
            };
            let played = games[i] > 0;
            Rating {
                name: names[i].clone(),
                elo: if played {
                    boot.fit.ratings[i]
                } else {
                    f64::NAN
                },
                lower: if note.is_some() {
                    f64::NAN
                } else {
                    boot.lower[i]
                },
                upper: if note.is_some() {
                    f64::NAN
                } else {
                    boot.upper[i]
                },
                interval_note: note.map(String::from),
                games: games[i],
                score: if played {
                    points[i] / games[i] as f64
                } else {
                    f64::NAN
                },
                time_per_move_ms: None,
            }
        })
        .collect();
    // Best first; engines without a rating last, in the settings' order.
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    rows.sort_by_key(|r| r.elo.is_nan());
    rows
}

/// The records as their sides saw them (team games collapsed to one entry per team).
fn sides_view(records: &[GameRecord]) -> Vec<GameRecord> {
    records
        .iter()
        .map(|r| r.sides_view().into_owned())
        .collect()
}

/// Builds the report of `records` (of game `G`, whose rules find each move's engine for the
/// time per move) under `settings`.
#[must_use]
pub fn build<G: Game>(settings: &Settings, records: &[GameRecord]) -> Report {
    // Times per seat, before team games are collapsed to one engine per side.
    let times = move_times::by_engine::<G>(records);
    let sides = sides_view(records);
    let records = &sides[..];
    let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
    let mut reasons = BTreeMap::new();
    for r in records {
        let key = serde_json::to_value(r.reason)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        *reasons.entry(key).or_insert(0) += 1;
    }
    let seats = records.first().map_or(2, |r| r.engines.len());
    let mut pairings = Vec::new();
    if seats == 2 {
        for i in 0..names.len() {
            for j in i + 1..names.len() {
                let (p, _) = pairing(&names[i], &names[j], records);
                if p.games > 0 {
                    pairings.push(p);
                }
            }
        }
    }
    let anchor = settings.anchor.as_deref();
    let mut ratings = match seats {
        3 => fit_ratings::<3>(&names, anchor, records, settings.seed),
        4 => fit_ratings::<4>(&names, anchor, records, settings.seed),
        _ => fit_ratings::<2>(&names, anchor, records, settings.seed),
    };
    for r in &mut ratings {
        r.time_per_move_ms = times.get(&r.name).copied();
    }
    Report {
        game: settings.game.clone(),
        games: records.len(),
        distinct_games: distinct_games(records),
        reasons,
        pairings,
        ratings,
        anchor: anchor.map_or("pool mean = 0".into(), |a| format!("{a} = 0")),
        sprt: sprt_state(settings, records),
        seats: by_seat(records),
        head_to_head: if seats >= 3 {
            comparisons(&names, records)
        } else {
            Vec::new()
        },
    }
}

/// The number of games of `records` that differ from every other in engines (by seat),
/// opening, start position or moves.
#[must_use]
pub fn distinct_games(records: &[GameRecord]) -> usize {
    use std::hash::{Hash, Hasher};
    let keys: std::collections::HashSet<u64> = records
        .iter()
        .map(|r| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&r.engines, &r.opening, &r.start, &r.moves).hash(&mut h);
            h.finish()
        })
        .collect();
    keys.len()
}

/// One line for the progress bar: the running score of the first pairing, or the leader.
#[must_use]
pub fn progress_line(settings: &Settings, records: &[GameRecord]) -> String {
    let records = &sides_view(records)[..];
    if settings.engines.len() == 2 {
        let (p, _) = pairing(
            &settings.engines[0].name,
            &settings.engines[1].name,
            records,
        );
        let mut s = format!("{} vs {}: +{} ={} -{}", p.a, p.b, p.wins, p.draws, p.losses);
        if p.elo.is_finite() && p.elo_error.is_finite() {
            let _ = write!(s, "  Elo {:+.0} ± {:.0}", p.elo, p.elo_error);
        }
        if let Some(st) = sprt_state(settings, records) {
            let _ = write!(s, "  LLR {:.2} [{:.2}, {:.2}]", st.llr, st.lower, st.upper);
        }
        s
    } else {
        let mut points: HashMap<&str, (f64, u64)> = HashMap::new();
        for r in records {
            for (k, e) in r.engines.iter().enumerate() {
                let x = points.entry(e.as_str()).or_default();
                x.0 += r.points[k];
                x.1 += 1;
            }
        }
        let best = points.iter().max_by(|a, b| {
            (a.1.0 / a.1.1 as f64)
                .partial_cmp(&(b.1.0 / b.1.1 as f64))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        best.map_or(String::new(), |(n, (p, g))| {
            format!("leader {n} {:.1}%", 100.0 * p / *g as f64)
        })
    }
}

/// An Elo with its error bar for the text tables: `+inf`/`-inf` only for an infinite Elo,
/// `n/a` for an absent number (the reason is printed below the table).
fn elo_text(elo: f64, err: f64) -> String {
    if elo.is_nan() {
        "     n/a       ".into()
    } else if elo.is_finite() && err.is_finite() {
        format!("{elo:+7.1} ± {err:5.1}")
    } else if elo.is_finite() {
        format!("{elo:+7.1} ±   n/a")
    } else if elo > 0.0 {
        "   +inf        ".into()
    } else {
        "   -inf        ".into()
    }
}

/// The notes of the rows that have one, as `a vs b: note` lines.
fn notes<'a>(s: &mut String, rows: impl Iterator<Item = (&'a str, &'a str, Option<&'a String>)>) {
    for (a, b, note) in rows {
        if let Some(note) = note {
            let _ = writeln!(s, "  {a} vs {b}: {note}");
        }
    }
}

/// The table of each engine's time per move (rating list order; `-` without a timed move).
fn render_times(s: &mut String, report: &Report, w: usize) {
    let _ = writeln!(s, "\nTime per move (ms; passes excluded)");
    let _ = writeln!(
        s,
        "{:<w$} {:>7} {:>9} {:>9} {:>9} {:>9}",
        "engine", "moves", "mean", "median", "p90", "max"
    );
    for r in &report.ratings {
        let _ = match &r.time_per_move_ms {
            Some(t) => writeln!(
                s,
                "{:<w$} {:>7} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
                r.name, t.moves, t.mean, t.median, t.p90, t.max
            ),
            None => writeln!(
                s,
                "{:<w$} {:>7} {:>9} {:>9} {:>9} {:>9}",
                r.name, "-", "-", "-", "-", "-"
            ),
        };
    }
}

/// The report as text tables.
#[must_use]
pub fn render(report: &Report) -> String {
    let mut s = String::new();
    // Name columns as wide as the longest engine name (at least 20).
    let w = report
        .ratings
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(20);
    let reasons: Vec<String> = report
        .reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = if reasons.is_empty() {
        writeln!(s, "{} games of {}", report.games, report.game)
    } else {
        writeln!(
            s,
            "{} games of {} ({})",
            report.games,
            report.game,
            reasons.join(", ")
        )
    };
    if report.distinct_games < report.games {
        let _ = writeln!(
            s,
            "note: {} distinct games: {} repeat an earlier game move for move (openings \
             reused); the error bars below assume {} independent games and are too narrow",
            report.distinct_games,
            report.games - report.distinct_games,
            report.games
        );
    }
    if !report.pairings.is_empty() {
        let _ = writeln!(
            s,
            "\nHead to head (first engine's view; Elo from colour-swapped pairs, 95 % error bars)"
        );
        let _ = writeln!(
            s,
            "{:<w$} {:<w$} {:>5} {:>15} {:>26} {:>15} {:>15} {:>7} {:>6}",
            "engine",
            "opponent",
            "games",
            "+W =D -L",
            "pairs LL/LD/WL+DD/WD/WW",
            "Elo",
            "nElo",
            "LOS",
            "draws"
        );
        for p in &report.pairings {
            let wdl = format!("+{} ={} -{}", p.wins, p.draws, p.losses);
            let pen = p.pentanomial.map(|c| c.to_string()).join("/");
            let _ = writeln!(
                s,
                "{:<w$} {:<w$} {:>5} {:>15} {:>26} {:>15} {:>15} {:>7} {:>5.1}%",
                p.a,
                p.b,
                p.games,
                wdl,
                pen,
                elo_text(p.elo, p.elo_error),
                elo_text(p.nelo, p.nelo_error),
                if p.los.is_nan() {
                    "n/a".to_string()
                } else {
                    format!("{:.1}%", 100.0 * p.los)
                },
                100.0 * p.draw_ratio
            );
        }
        notes(
            &mut s,
            report
                .pairings
                .iter()
                .map(|p| (p.a.as_str(), p.b.as_str(), p.note.as_ref())),
        );
    }
    let _ = writeln!(
        s,
        "\nRating list (maximum likelihood with {PRIOR_DRAWS} virtual draw per engine, {}; 95 % bootstrap intervals over blocks)",
        report.anchor
    );
    let _ = writeln!(
        s,
        "{:>4} {:<w$} {:>8} {:>20} {:>6} {:>7}",
        "rank", "engine", "Elo", "95 % interval", "games", "score"
    );
    for (i, r) in report.ratings.iter().enumerate() {
        let interval = if r.lower.is_nan() {
            "n/a (see below)".to_string()
        } else {
            format!("[{:+.0}, {:+.0}]", r.lower, r.upper)
        };
        let (elo, score) = if r.games == 0 {
            ("n/a".to_string(), "n/a".to_string())
        } else {
            (format!("{:+.1}", r.elo), format!("{:.1}%", 100.0 * r.score))
        };
        let _ = writeln!(
            s,
            "{:>4} {:<w$} {:>8} {:>20} {:>6} {:>7}",
            i + 1,
            r.name,
            elo,
            interval,
            r.games,
            score
        );
    }
    for note in [NO_GAMES, DEGENERATE_INTERVAL] {
        let who: Vec<&str> = report
            .ratings
            .iter()
            .filter(|r| r.interval_note.as_deref() == Some(note))
            .map(|r| r.name.as_str())
            .collect();
        if !who.is_empty() {
            let _ = writeln!(s, "  {}: {note}", who.join(", "));
        }
    }
    render_times(&mut s, report, w);
    if !report.head_to_head.is_empty() {
        let _ = writeln!(
            s,
            "\nHead to head in shared games (first engine's view: games together, finished ahead / \
             behind / tied, Elo of those comparisons with a 95 % error bar)"
        );
        let _ = writeln!(
            s,
            "{:<w$} {:<w$} {:>5} {:>6} {:>6} {:>5} {:>7} {:>15}",
            "engine", "opponent", "games", "ahead", "behind", "tied", "score", "Elo"
        );
        for c in &report.head_to_head {
            let _ = writeln!(
                s,
                "{:<w$} {:<w$} {:>5} {:>6} {:>6} {:>5} {:>6.1}% {:>15}",
                c.a,
                c.b,
                c.games,
                c.a_ahead,
                c.b_ahead,
                c.tied,
                100.0 * c.score,
                elo_text(c.elo, c.elo_error)
            );
        }
        notes(
            &mut s,
            report
                .head_to_head
                .iter()
                .map(|c| (c.a.as_str(), c.b.as_str(), c.note.as_ref())),
        );
    }
    if !report.seats.is_empty() {
        let _ = writeln!(
            s,
            "\nResults by seat (all engines together; win = sole first place, draw = shared first; \
             score and shares with 95 % Wilson intervals, the score's over blocks)"
        );
        s.push_str(&super::seats::render(&report.seats));
    }
    if let Some(st) = &report.sprt {
        let _ = writeln!(
            s,
            "\nSPRT ({} Elo [{}, {}], alpha {}, beta {}): LLR {:.3}, bounds [{:.3}, {:.3}] -> {}",
            st.settings.model,
            st.settings.elo0,
            st.settings.elo1,
            st.settings.alpha,
            st.settings.beta,
            st.llr,
            st.lower,
            st.upper,
            st.decision
        );
        if let Some(note) = &st.note {
            let _ = writeln!(s, "  {note}");
        }
    }
    s
}
