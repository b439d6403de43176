//! Importing WTHOR databases ([`import`]): the positions of human Othello games labelled
//! as self-play positions are (the game's result and, near the end, the exact value),
//! written in the self-play data format.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::TuneError;
use super::selfplay::{self, SolveFn};
use crate::formats::wthor::{self, GAME_BYTES, HEADER_BYTES, MAX_GAMES};
use crate::games::othello::Position;

/// A WTHOR import's settings.
#[derive(Clone, Debug)]
pub struct WthorConfig {
    /// The WTHOR files (`.wtb`), read in order.
    pub files: Vec<PathBuf>,
    /// Output data file (overwritten).
    pub out: PathBuf,
    /// Exact labels at this many empties or fewer (0: none).
    pub exact_empties: u32,
    /// Worker threads.
    pub threads: usize,
}

/// What an import wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WthorSummary {
    /// Games read.
    pub games: usize,
    /// Games stopped before the end (labelled with the recorded result).
    pub unfinished: usize,
    /// Positions seen.
    pub positions: usize,
    /// Distinct positions written.
    pub unique: usize,
    /// Of them, with exact labels.
    pub exact: usize,
    /// Wall time from the files read to the output written, seconds.
    pub seconds: f64,
}

/// Reads `path`: the header, then as many bytes as the game count it announces (at most
/// [`MAX_GAMES`] games) and one more, so that [`wthor::parse`] can tell a file cut short or
/// too long; a device such as `/dev/zero` is never read past that.
fn read_bounded(path: &Path) -> Result<Vec<u8>, TuneError> {
    let err = |e: std::io::Error| {
        TuneError::Data(format!("cannot read WTHOR file {}: {e}", path.display()))
    };
    let mut file = std::fs::File::open(path).map_err(err)?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(HEADER_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(err)?;
    let n1 = bytes
        .get(4..8)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    // A header announcing more than MAX_GAMES is refused by the parser from the header.
    if bytes.len() == HEADER_BYTES && n1 <= MAX_GAMES {
        let rest = u64::from(n1) * GAME_BYTES as u64 + 1;
        file.take(rest).read_to_end(&mut bytes).map_err(err)?;
    }
    Ok(bytes)
}

/// Reads the WTHOR files of `cfg` and writes their positions, labelled, to `cfg.out`.
///
/// # Errors
/// An unreadable, cut short or malformed WTHOR file (naming it, and the game and ply of a
/// bad move), an unwritable output.
pub fn import(cfg: &WthorConfig) -> Result<WthorSummary, TuneError> {
    let mut games = Vec::new();
    let mut sources = Vec::new();
    for path in &cfg.files {
        let bytes = read_bounded(path)?;
        let file = wthor::parse(&bytes, &path.display().to_string()).map_err(TuneError::Data)?;
        sources.push(format!(
            "{} ({} games of {}, made {:04}-{:02}-{:02})",
            path.display(),
            file.games.len(),
            file.year,
            file.created.0,
            file.created.1,
            file.created.2
        ));
        games.extend(file.games);
    }
    super::outputs::create_parent(&cfg.out)?;
    super::outputs::check_writable(&cfg.out)?;
    let exact = cfg.exact_empties;
    let solve = move |pos: &Position| super::othello::solve_label(pos, exact);
    let solve = (exact > 0).then_some(&solve as &SolveFn<Position>);
    let started = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|e| TuneError::Failed(format!("cannot start {} threads: {e}", cfg.threads)))?;
    let (samples, summary) = pool
        .install(|| super::wthor::samples(&games, solve))
        .map_err(TuneError::Data)?;
    let mut header = vec![
        format!("tessera selfplay data ({} positions)", summary.unique),
        format!("command: {}", super::command_line()),
    ];
    header.extend(sources.iter().map(|s| format!("wthor: {s}")));
    header.push(format!(
        "games {}, {} stopped before the end (labelled with the recorded result), date {}",
        summary.games,
        summary.cut,
        super::utc_date()
    ));
    let mut fields =
        "fields: position, final disc difference (empties to the winner) for the side to move, "
            .to_string();
    if solve.is_some() {
        header.push(format!("exact values at <= {exact} empties"));
        fields.push_str("exact value or -");
    } else {
        fields.push('-');
    }
    header.push(fields);
    std::fs::write(&cfg.out, selfplay::to_text(&samples, &header)).map_err(|e| {
        TuneError::Write {
            path: cfg.out.clone(),
            message: e.to_string(),
        }
    })?;
    Ok(WthorSummary {
        games: summary.games,
        unfinished: summary.cut,
        positions: summary.positions,
        unique: summary.unique,
        exact: summary.exact,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wthor_file_becomes_labelled_positions() {
        let dir = std::env::temp_dir().join(format!("tessera-wthor-import-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Header (made 2026-01-02, one game of 2025, 8x8), then one game: Black 40 discs,
        // moves f5 d6, stopped there.
        let mut bytes = vec![20, 26, 1, 2, 1, 0, 0, 0, 0, 0, 0xe9, 0x07, 8, 0, 0, 0];
        let mut game = vec![0u8; GAME_BYTES];
        game[6] = 40;
        game[8] = 56;
        game[9] = 64;
        bytes.extend(game);
        let wtb = dir.join("g.wtb");
        std::fs::write(&wtb, &bytes).unwrap();
        let cfg = WthorConfig {
            files: vec![wtb.clone()],
            out: dir.join("out/d.txt"),
            exact_empties: 0,
            threads: 1,
        };
        let s = import(&cfg).unwrap();
        assert_eq!((s.games, s.unfinished, s.exact), (1, 1, 0));
        assert!(s.unique >= 2, "{s:?}");
        let text = std::fs::read_to_string(&cfg.out).unwrap();
        assert!(
            text.contains(&format!(
                "# wthor: {} (1 games of 2025, made 2026-01-02)",
                wtb.display()
            )),
            "{text}"
        );
        // Cut short: one byte less than the header announces.
        std::fs::write(&wtb, &bytes[..bytes.len() - 1]).unwrap();
        let e = import(&cfg).unwrap_err();
        assert!(
            matches!(e, TuneError::Data(_)) && e.to_string().contains("cut short"),
            "{e}"
        );
        std::fs::remove_file(&wtb).unwrap();
        assert!(
            import(&cfg)
                .unwrap_err()
                .to_string()
                .starts_with(&format!("cannot read WTHOR file {}: ", wtb.display()))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
