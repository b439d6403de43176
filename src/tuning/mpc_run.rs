//! A Multi-ProbCut fit ([`run`]): Othello positions from self-play data searched by
//! iterative deepening, and the deep score regressed on the shallow one per depth pair and
//! phase ([`super::mpc`] holds the searches and the regression); writes the parameter file.

use std::path::PathBuf;
use std::time::Instant;

use super::error::TuneError;
use super::mpc;
use super::progress::Progress;
use super::selfplay;
use crate::games::othello::Position;
use crate::games::othello::eval::Eval;
use crate::games::othello::probcut::MpcTable;

/// An MPC fit's settings.
#[derive(Clone, Debug)]
pub struct MpcConfig {
    /// Self-play data files (`tessera selfplay othello`).
    pub data: Vec<PathBuf>,
    /// The parameter file written.
    pub out: PathBuf,
    /// At most this many positions are searched, spread evenly over the data.
    pub positions: usize,
    /// Deepest search, plies (parameters for depths 3 up to it).
    pub depth: u32,
    /// The evaluation the searches use: a weights file or `builtin:` name.
    pub weights: PathBuf,
    /// Worker threads.
    pub threads: usize,
}

/// What an MPC fit did.
#[derive(Clone, Debug)]
pub struct MpcSummary {
    /// Positions searched.
    pub positions: usize,
    /// Wall time of the searches, seconds.
    pub seconds: f64,
    /// The fitted parameters (as written).
    pub table: MpcTable,
}

/// Searches the positions of `cfg.data` (13..=60 empties, duplicates dropped, at most
/// `cfg.positions` spread evenly) to `cfg.depth` plies and writes the fitted table to
/// `cfg.out`; `progress` sees each finished search.
///
/// # Errors
/// No data, unreadable or malformed data or weights, too few positions for any fit, an
/// unwritable output ([`TuneError::WriteResult`]: the searches are done).
pub fn run(cfg: &MpcConfig, progress: &dyn Progress) -> Result<MpcSummary, TuneError> {
    if cfg.data.is_empty() {
        return Err(TuneError::NoData(
            "--data FILE is required for --method mpc (from `tessera selfplay othello`)",
        ));
    }
    let eval = Eval::load(&cfg.weights).map_err(TuneError::Weights)?;
    let (positions, read) = pick_positions(&cfg.data, cfg.positions)?;
    let started = Instant::now();
    progress.start("position", positions.len() as u64, 0);
    let records = mpc::collect(&positions, &eval, cfg.depth, cfg.threads, &|n| {
        progress.position(n as u64);
    });
    progress.finish();
    let secs = started.elapsed().as_secs_f64();
    let names: Vec<String> = cfg.data.iter().map(|p| p.display().to_string()).collect();
    let header = vec![
        "Othello Multi-ProbCut parameters: deep score = a x shallow score + b, residual sigma (centi-discs), per depth pair and empties".to_string(),
        format!("command: {}", super::command_line()),
        format!(
            "data: {} ({read} distinct positions with 13..=60 empties; {} of them, evenly spread, searched)",
            names.join(", "),
            positions.len()
        ),
        format!(
            "searches: iterative deepening to depth {} with {}, 16 MiB table, no MPC; {:.0} s on {} thread(s)",
            cfg.depth,
            cfg.weights.display(),
            secs,
            cfg.threads
        ),
        format!("date: {}", super::utc_date()),
    ];
    let table = mpc::fit_table(&records, cfg.depth, header).map_err(TuneError::Data)?;
    std::fs::write(&cfg.out, table.to_text()).map_err(|e| TuneError::WriteResult {
        path: cfg.out.clone(),
        message: e.to_string(),
    })?;
    Ok(MpcSummary {
        positions: positions.len(),
        seconds: secs,
        table,
    })
}

/// The positions to search: the data's distinct positions with 13..=60 empties, at most
/// `most` of them spread evenly over the files; and how many there were.
fn pick_positions(data: &[PathBuf], most: usize) -> Result<(Vec<Position>, usize), TuneError> {
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    for path in data {
        for (line, s) in selfplay::read_numbered(path).map_err(TuneError::Data)? {
            let pos: Position = s.position.parse().map_err(|e| TuneError::DataLine {
                path: path.clone(),
                line,
                message: format!("not an Othello position: {e}"),
            })?;
            if (13..=60).contains(&pos.empties()) && seen.insert(s.position) {
                all.push(pos);
            }
        }
    }
    if all.is_empty() {
        return Err(TuneError::EmptyData(
            "the data files hold no Othello position with 13 or more empties",
        ));
    }
    let n = most.min(all.len());
    let picked = (0..n).map(|i| all[i * all.len() / n]).collect();
    Ok((picked, all.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_distinct_spread_and_of_13_or_more_empties() {
        let dir = std::env::temp_dir().join(format!("tessera-mpc-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = Position::start().to_string();
        let late = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX---- X";
        let f = dir.join("d.txt");
        std::fs::write(&f, format!("{start}\t0\t-\n{start}\t2\t-\n{late}\t4\t-\n")).unwrap();
        let (picked, read) = pick_positions(std::slice::from_ref(&f), 10).unwrap();
        assert_eq!(
            (picked.len(), read),
            (1, 1),
            "the repeat and the 4-empties position go"
        );
        std::fs::write(&f, format!("{late}\t4\t-\n")).unwrap();
        assert_eq!(
            pick_positions(std::slice::from_ref(&f), 10)
                .unwrap_err()
                .to_string(),
            "the data files hold no Othello position with 13 or more empties"
        );
        std::fs::write(&f, "Q\t4\t-\n").unwrap();
        let e = pick_positions(std::slice::from_ref(&f), 10)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "data file {} line 1: not an Othello position: ",
                f.display()
            )),
            "{e}"
        );
        let cfg = MpcConfig {
            data: Vec::new(),
            out: dir.join("m.txt"),
            positions: 1,
            depth: 3,
            weights: crate::games::othello::eval::DEFAULT_WEIGHTS.into(),
            threads: 1,
        };
        assert!(matches!(
            run(&cfg, &crate::tuning::progress::Silent),
            Err(TuneError::NoData(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
