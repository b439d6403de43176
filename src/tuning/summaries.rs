//! Each tuning run's summary for people (the line `tessera tune` and `tessera selfplay`
//! print at the end) and for programs (one JSON object, `--json`); `out` is the file the
//! run wrote.

use std::path::Path;

use serde_json::{Value, json};

use super::mpc::{self, PHASES};
use super::mpc_run::MpcSummary;
use super::patterns_run::PatternsSummary;
use super::selfplay_merge::MergeSummary;
use super::selfplay_run::SelfplaySummary;
use super::spsa_run::SpsaSummary;
use super::texel_run::TexelSummary;
use super::wthor_import::WthorSummary;

impl SelfplaySummary {
    /// The counts, the seconds and the file as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        let s = &self.games;
        json!({
            "games": s.games,
            "positions": s.positions,
            "unique": s.unique,
            "exact": s.exact,
            "repetitions": s.repetitions,
            "cut": s.cut,
            "seconds": self.seconds,
            "out": out.display().to_string(),
        })
    }

    /// What was played and written, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        let s = &self.games;
        format!(
            "{} games ({} drawn by repetition, {} cut at the ply cap), {} positions, {} distinct \
             written to {} ({} with exact labels) in {:.1} s",
            s.games,
            s.repetitions,
            s.cut,
            s.positions,
            s.unique,
            out.display(),
            s.exact,
            self.seconds
        )
    }
}

impl MergeSummary {
    /// The shards and positions merged, as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        json!({
            "shards": self.shards,
            "unique": self.unique,
            "out": out.display().to_string(),
        })
    }

    /// What was merged, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        format!(
            "{} shards merged: {} distinct positions written to {}",
            self.shards,
            self.unique,
            out.display()
        )
    }
}

impl WthorSummary {
    /// The games and positions read and written, as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        json!({
            "games": self.games,
            "unfinished": self.unfinished,
            "positions": self.positions,
            "unique": self.unique,
            "exact": self.exact,
            "seconds": self.seconds,
            "out": out.display().to_string(),
        })
    }

    /// What was read and written, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        format!(
            "{} WTHOR games ({} stopped before the end), {} positions, {} distinct written to {} \
             ({} with exact labels) in {:.1} s",
            self.games,
            self.unfinished,
            self.positions,
            self.unique,
            out.display(),
            self.exact,
            self.seconds
        )
    }
}

impl SpsaSummary {
    /// The iterations and the values written, by parameter name, as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        let map: serde_json::Map<String, Value> = self
            .names
            .iter()
            .zip(&self.values)
            .map(|(p, &v)| ((*p).to_string(), json!(v)))
            .collect();
        json!({
            "iterations": self.iterations,
            "values": map,
            "out": out.display().to_string(),
        })
    }

    /// The values reached and the mean result, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        format!(
            "wrote {}: {} after {} iterations (mean result of + in this run's iterations {:+.3})",
            out.display(),
            self.theta_text(),
            self.iterations,
            self.mean_result
        )
    }
}

impl TexelSummary {
    /// The fit's figures as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        json!({
            "epochs": self.epochs,
            "k": self.k,
            "loss_defaults": self.loss_defaults,
            "loss": self.loss,
            "positions": self.positions,
            "rows": self.rows,
            "out": out.display().to_string(),
        })
    }

    /// The loss before and after, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        format!(
            "wrote {} (loss {:.6} -> {:.6})",
            out.display(),
            self.loss_defaults,
            self.loss
        )
    }
}

impl PatternsSummary {
    /// The fit's figures as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        json!({
            "epochs": self.epochs,
            "train_rmse": self.train_rmse,
            "validation_rmse": self.validation_rmse,
            "train": self.train,
            "validation": self.validation,
            "out": out.display().to_string(),
        })
    }

    /// The held-out error reached, in one line.
    #[must_use]
    pub fn line(&self, out: &Path) -> String {
        format!(
            "wrote {} (validation rmse {:.3} discs after {} epochs)",
            out.display(),
            self.validation_rmse,
            self.epochs
        )
    }
}

impl MpcSummary {
    /// Every fitted entry as one JSON object.
    #[must_use]
    pub fn to_json(&self, out: &Path) -> Value {
        let entries: Vec<Value> = self
            .table
            .entries()
            .iter()
            .map(|e| {
                json!({
                    "depth": e.depth, "shallow": e.shallow,
                    "empties_min": e.empties_min, "empties_max": e.empties_max,
                    "a": e.a, "b": e.b, "sigma": e.sigma, "samples": e.samples,
                })
            })
            .collect();
        json!({
            "out": out.display().to_string(),
            "positions": self.positions,
            "seconds": self.seconds,
            "entries": entries,
        })
    }

    /// The fit for people: what was searched, then the residual sigma (centi-discs) per
    /// depth (rows, up to `depth`) and phase (columns), then the file written.
    #[must_use]
    pub fn lines(&self, depth: u32, out: &Path) -> Vec<String> {
        let mut lines = vec![format!(
            "searched {} positions to depth {depth} in {:.0} s; sigma (centi-discs) by depth and phase:",
            self.positions, self.seconds
        )];
        let mut line = "depth shallow".to_string();
        for (lo, hi) in PHASES {
            line.push_str(&format!(" {lo:>4}-{hi:<3}"));
        }
        lines.push(line);
        for d in mpc::MIN_DEPTH..=depth {
            let mut line = format!("{d:>5} {:>7}", mpc::shallow_depth(d));
            for (lo, _) in PHASES {
                match self.table.entry(d, lo) {
                    Some(e) => line.push_str(&format!(" {:>8.0}", e.sigma)),
                    None => line.push_str("        -"),
                }
            }
            lines.push(line);
        }
        lines.push(format!("wrote {}", out.display()));
        lines
    }
}

/// The line `tessera validation-set` prints after labelling a position: the count done of
/// the shard's `total`, its empties, best score, moves and solver nodes, and the seconds
/// since the run started.
#[must_use]
pub fn label_line(
    (done, total): (usize, usize),
    pos: &crate::games::othello::Position,
    scores: &crate::games::othello::labels::MoveScores,
    seconds: f64,
) -> String {
    format!(
        "{done}/{total}  {} empties  best {:+}  {} moves  {} nodes  {:.0} s",
        pos.empties(),
        scores.best_score().unwrap_or(0),
        scores.scores.len(),
        scores.nodes,
        seconds
    )
}

impl super::validation::LabelSummary {
    /// What the run did, in one line (`seconds`: its wall time).
    #[must_use]
    pub fn line(&self, out: &Path, seconds: f64) -> String {
        format!(
            "{}: {} of {} positions labelled ({} before this run, {} now), {} nodes, {}nodes/s, {seconds:.1} s",
            out.display(),
            self.already + self.labelled,
            self.shard_positions,
            self.already,
            self.labelled,
            self.nodes,
            crate::present::si(crate::present::rate(self.nodes, seconds))
        )
    }
}
