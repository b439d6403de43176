//! What defines a tournament's games ([`Settings`], saved as `DIR/tournament.json`) and its
//! SPRT early stop ([`SprtSettings`]): read by the runner and by the report.

use serde::{Deserialize, Serialize};

use super::adjudicate::Adjudication;
use super::openings::{OpeningSource, OpeningsOrder};
use super::schedule::Format;
use super::stats::sprt::{Sprt, SprtModel};
use crate::engine::EngineSpec;

/// Everything that defines a tournament's games. Saved as `DIR/tournament.json`; a resumed
/// run must give the same settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Game id.
    pub game: String,
    /// The engines, fully specified.
    pub engines: Vec<EngineSpec>,
    /// Who meets whom.
    pub format: Format,
    /// Rounds: each group plays one block (all seat rotations) per round.
    pub rounds: usize,
    /// Openings.
    pub openings: OpeningSource,
    /// The order of a file's openings (`--openings-order`; sequential by default).
    #[serde(default, skip_serializing_if = "OpeningsOrder::is_sequential")]
    pub openings_order: OpeningsOrder,
    /// Master seed.
    pub seed: u64,
    /// Games longer than this many plies end as draws.
    pub max_plies: usize,
    /// SPRT early stop (two engines only).
    pub sprt: Option<SprtSettings>,
    /// Anchor of the rating list: an engine name, or `None` for the pool mean.
    pub anchor: Option<String>,
    /// Adjudication rules (`--adjudicate`); none by default.
    #[serde(default, skip_serializing_if = "Adjudication::is_empty")]
    pub adjudicate: Adjudication,
}

/// SPRT settings as given on the command line (`elo0=0,elo1=10,alpha=0.05,beta=0.05`,
/// optionally `model=normalized|logistic`; normalized Elo by default, as fishtest).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSettings {
    /// H0, in the model's Elo unit.
    pub elo0: f64,
    /// H1, in the model's Elo unit.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
    /// `normalized` or `logistic`.
    pub model: String,
}

impl SprtSettings {
    /// Parses `elo0=..,elo1=..[,alpha=..][,beta=..][,model=..]` (alpha, beta default 0.05).
    ///
    /// # Errors
    /// A one-line message naming the bad key or value.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut s = Self {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: "normalized".into(),
        };
        let mut seen = Vec::new();
        for part in text.split(',').map(str::trim) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("bad --sprt part '{part}': expected key=value"))?;
            if seen.contains(&k.trim()) {
                return Err(format!("--sprt gives {} twice", k.trim()));
            }
            seen.push(k.trim());
            let num = || {
                v.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("bad --sprt value '{v}' for {k}"))
            };
            match k.trim() {
                "elo0" => s.elo0 = num()?,
                "elo1" => s.elo1 = num()?,
                "alpha" => s.alpha = num()?,
                "beta" => s.beta = num()?,
                "model" => s.model = v.trim().to_string(),
                other => {
                    return Err(format!(
                        "unknown --sprt key '{other}' (valid: elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        s.sprt()?;
        Ok(s)
    }

    /// The configured test.
    ///
    /// # Errors
    /// Missing or inconsistent bounds, rates outside (0, 1), or an unknown model.
    pub fn sprt(&self) -> Result<Sprt, String> {
        let model = match self.model.as_str() {
            "normalized" => SprtModel::Normalized,
            "logistic" => SprtModel::Logistic,
            m => {
                return Err(format!(
                    "unknown SPRT model '{m}' (valid: normalized, logistic)"
                ));
            }
        };
        if self.elo0.is_nan() || self.elo1.is_nan() {
            return Err("--sprt needs elo0 and elo1 as numbers (e.g. elo0=0,elo1=10)".into());
        }
        Sprt::new(self.alpha, self.beta, self.elo0, self.elo1, model).map_err(|e| e.0)
    }
}

/// Gives every engine without a clock of its own the tournament's clock (`--tc` as `tc`,
/// `--st` as `st` seconds per move), and every clocked engine without a margin the
/// tournament's `--timemargin` (`margin`, milliseconds).
///
/// # Errors
/// `st` not more than 0 and at most 86400 s, a margin over an hour, or a margin without
/// any clock.
pub fn apply_clock(
    engines: &mut [EngineSpec],
    tc: Option<crate::engine::TimeControl>,
    st: Option<f64>,
    margin: Option<u64>,
) -> Result<(), String> {
    if let Some(st) = st
        && !(st.is_finite() && st > 0.0 && st <= 86_400.0)
    {
        return Err(format!(
            "--st must be more than 0 and at most 86400 seconds, got {st}"
        ));
    }
    if margin.is_some_and(|m| m > 3_600_000) {
        return Err("--timemargin must be at most 3600000 ms".into());
    }
    if margin.is_some()
        && tc.is_none()
        && st.is_none()
        && engines.iter().all(|e| e.seat_clock().is_none())
    {
        return Err("--timemargin needs a clock (--tc, --st, or tc/st in an engine)".into());
    }
    for e in engines.iter_mut() {
        if e.tc.is_none() && e.st.is_none() {
            e.tc = tc;
            e.st = st;
        }
        if e.seat_clock().is_some() && e.timemargin.is_none() {
            e.timemargin = margin;
        }
    }
    Ok(())
}
