//! The commands of `tessera quixo-tier`: the one-blank tier built in one piece (retrograde,
//! [`super::one_blank`]) or in chunks of value-iteration rounds ([`super::tier_rounds`]),
//! every result a checked tier file ([`super::tier_file`]) written through a rename.
//!
//! The 4x4 board has the same commands (`size` 4): its full boards come from the 4x4
//! retrograde solution, and its one-blank tier (66,048 canonical boards) builds in a moment,
//! so a whole chunked run can be tried and compared on a laptop.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::one_blank::{OneBlankTable, OneBlankTier};
use super::retro::{Code, Counts, FullBoardTable, NextTier, SmallBoardTable, UNKNOWN};
use super::table_cache;
use super::tier_file::{
    FINAL, TierFileError, TierPart, chunk_path, merge_chunks, read_part, round_path, write_part,
};
use super::tier_rounds::{chunk_range, converged, finish, longest_distance, round_chunk};

/// The solved full boards a one-blank tier reads: the 5x5 full-board table, or the full 4x4
/// boards' codes from the 4x4 solution (indexed by the side to move's mask).
pub enum FullBoards {
    /// The 5x5 full-board table.
    Five(FullBoardTable),
    /// The 2^16 full 4x4 boards.
    Four(Vec<Code>),
}

impl NextTier for FullBoards {
    #[inline(always)]
    fn locate(&self, me: u32, _opp: u32) -> usize {
        me as usize
    }
    fn codes(&self) -> &[Code] {
        match self {
            Self::Five(t) => t.codes(),
            Self::Four(c) => c,
        }
    }
}

impl FullBoards {
    /// The full boards of side `size`: 4 (solved now, a few seconds) or 5 (the cached table
    /// `table`, else the default cache file, built and saved when missing; progress lines go
    /// to `notes`).
    ///
    /// # Errors
    /// Another size, a table file that is not ours, a build failure: one line.
    pub fn obtain(
        size: u8,
        table: Option<&Path>,
        threads: usize,
        notes: &mut dyn FnMut(&str),
    ) -> Result<Self, String> {
        match size {
            4 => {
                let small = SmallBoardTable::solve(4, threads)?;
                Ok(Self::Four(
                    (0..1u32 << 16)
                        .map(|me| small.code(me, 0xffff & !me))
                        .collect(),
                ))
            }
            5 => match table_cache::obtain(table, threads, true, notes) {
                Ok(Some((t, _))) => Ok(Self::Five(t)),
                Ok(None) => Err("no full-board table could be had".into()),
                Err(e) => Err(format!("--table {e}")),
            },
            _ => Err(format!("tier tables exist for sizes 4 and 5, not {size}")),
        }
    }
}

/// What a tier build reports.
#[derive(Clone, Debug)]
pub struct TierReport {
    /// Board side.
    pub size: u8,
    /// Canonical boards in the tier.
    pub boards: usize,
    /// Wins, losses and draws for the side to move over every board of the tier (each
    /// canonical board once per image).
    pub counts: Counts,
    /// Longest distance of a forced result, plies.
    pub longest: u32,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The file written.
    pub file: PathBuf,
}

fn io_err(e: TierFileError) -> String {
    e.to_string()
}

/// Builds the one-blank tier in one piece (retrograde) and writes it to `out`.
///
/// # Errors
/// A thread pool that cannot start, an unwritable `out`: one line.
pub fn solve_one_piece(
    size: u8,
    full: &FullBoards,
    threads: usize,
    out: &Path,
) -> Result<TierReport, String> {
    let started = Instant::now();
    let (table, counts) = OneBlankTable::solve_with(size, full, threads)?;
    let part = TierPart {
        size,
        blanks: 1,
        round: FINAL,
        total: table.codes().len() as u64,
        start: 0,
        codes: table.codes().to_vec(),
    };
    write_part(&part, out).map_err(io_err)?;
    Ok(TierReport {
        size,
        boards: table.codes().len(),
        counts,
        longest: longest_distance(table.codes()),
        seconds: started.elapsed().as_secs_f64(),
        file: out.to_path_buf(),
    })
}

/// The previous round's codes for round `round` (all unknown before round 1), checked
/// against the tier.
fn previous(dir: &Path, round: u32, size: u8, tier: &OneBlankTier) -> Result<Vec<Code>, String> {
    if round == 1 {
        return Ok(vec![UNKNOWN; tier.len()]);
    }
    let path = round_path(dir, round - 1);
    let prev = read_part(&path).map_err(|e| match e {
        TierFileError::Io(..) => format!(
            "{}: round {} is not merged yet (run the merge of round {} first)",
            path.display(),
            round - 1,
            round - 1
        ),
        e => e.to_string(),
    })?;
    if prev.size != size || !prev.is_whole() || prev.total as usize != tier.len() {
        return Err(format!(
            "{}: not the whole {size}x{size} one-blank tier ({} of {} boards, size {})",
            path.display(),
            prev.codes.len(),
            tier.len(),
            prev.size
        ));
    }
    if prev.round != round - 1 {
        return Err(format!(
            "{}: holds round {}, not {}",
            path.display(),
            prev.round,
            round - 1
        ));
    }
    Ok(prev.codes)
}

/// Chunk `I/N` as `quixo-tier chunk --chunk` writes it: `(i, n)` with `i < n` (chunks are
/// numbered from 0).
///
/// # Errors
/// Text that is not `I/N`, `N` = 0, `I >= N`: one line.
pub fn parse_chunk(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .ok_or_else(|| format!("--chunk '{text}' is not I/N"))?;
    if n == 0 || i >= n {
        return Err(format!("chunk {i} of {n}: chunks are numbered 0 to N-1"));
    }
    Ok((i, n))
}

/// Computes chunk `i` of `n` of value-iteration round `round` (>= 1) from `DIR/round-(R-1).qxt`
/// and writes `DIR/round-R-chunk-I-of-N.qxt`; returns the file.
///
/// # Errors
/// A bad chunk number, a missing or damaged previous round, an unwritable folder: one line.
pub fn build_chunk(
    size: u8,
    full: &FullBoards,
    dir: &Path,
    round: u32,
    i: usize,
    n: usize,
) -> Result<PathBuf, String> {
    if n == 0 || i >= n {
        return Err(format!("chunk {i} of {n}: chunks are numbered 0 to N-1"));
    }
    if round == 0 {
        return Err("rounds are numbered from 1".into());
    }
    let tier = OneBlankTier::new(size);
    let prev = previous(dir, round, size, &tier)?;
    let range = chunk_range(tier.len(), i, n);
    let start = range.start as u64;
    let codes = round_chunk(size, &tier, &prev, full, round, range);
    let out = chunk_path(dir, round, i, n);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_part(
        &TierPart {
            size,
            blanks: 1,
            round,
            total: tier.len() as u64,
            start,
            codes,
        },
        &out,
    )
    .map_err(io_err)?;
    Ok(out)
}

/// What a merge found.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// The round merged.
    pub round: u32,
    /// Boards resolved so far.
    pub resolved: u64,
    /// Boards this round resolved.
    pub new: u64,
    /// The tier is finished: this round changed nothing and every full board's distance
    /// was reached. The finished table is then written too.
    pub done: Option<TierReport>,
    /// The round's table.
    pub file: PathBuf,
}

/// Merges the `n` chunks of round `round` in `dir` into `DIR/round-R.qxt` (every chunk
/// checked: present, same tier and round, covering the tier once); when the round changed
/// nothing and every full board's distance has been reached, also writes the finished table
/// to `out` (draws for the boards never resolved).
///
/// # Errors
/// A missing or inconsistent chunk, a damaged previous round, an unwritable file: one line.
pub fn merge_round(
    size: u8,
    full: &FullBoards,
    dir: &Path,
    round: u32,
    n: usize,
    out: &Path,
) -> Result<MergeReport, String> {
    let started = Instant::now();
    let tier = OneBlankTier::new(size);
    let merged = merge_chunks(dir, round, n).map_err(io_err)?;
    if merged.size != size || merged.total as usize != tier.len() {
        return Err(format!(
            "the chunks of round {round} are of another tier (size {}, {} boards; expected size {size}, {} boards)",
            merged.size,
            merged.total,
            tier.len()
        ));
    }
    let prev = previous(dir, round, size, &tier)?;
    let resolved = merged.codes.iter().filter(|&&c| c != UNKNOWN).count() as u64;
    let before = prev.iter().filter(|&&c| c != UNKNOWN).count() as u64;
    let file = round_path(dir, round);
    write_part(&merged, &file).map_err(io_err)?;
    let done = if converged(&prev, &merged.codes, round, longest_distance(full.codes())) {
        let codes = finish(merged.codes);
        let counts = tier.counts(&codes);
        let part = TierPart {
            size,
            blanks: 1,
            round: FINAL,
            total: codes.len() as u64,
            start: 0,
            codes,
        };
        write_part(&part, out).map_err(io_err)?;
        Some(TierReport {
            size,
            boards: part.codes.len(),
            counts,
            longest: longest_distance(&part.codes),
            seconds: started.elapsed().as_secs_f64(),
            file: out.to_path_buf(),
        })
    } else {
        None
    };
    Ok(MergeReport {
        round,
        resolved,
        new: resolved - before,
        done,
        file,
    })
}

/// Every round, every chunk and every merge in sequence, as a job array would run them:
/// the one-machine form of the chunked build. Returns the last merge's report.
///
/// # Errors
/// As [`build_chunk`] and [`merge_round`].
pub fn run_rounds(
    size: u8,
    full: &FullBoards,
    dir: &Path,
    n: usize,
    out: &Path,
    progress: &mut dyn FnMut(&MergeReport),
) -> Result<MergeReport, String> {
    let mut round = 1;
    loop {
        for i in 0..n {
            build_chunk(size, full, dir, round, i, n)?;
        }
        let r = merge_round(size, full, dir, round, n, out)?;
        progress(&r);
        if r.done.is_some() {
            return Ok(r);
        }
        round += 1;
    }
}

/// Counts of a finished tier file.
///
/// # Errors
/// A missing, damaged or unfinished file, or one of another tier: one line.
pub fn read_final(path: &Path) -> Result<(OneBlankTable, Counts), String> {
    let part = read_part(path).map_err(io_err)?;
    if part.round != FINAL || !part.is_whole() || part.blanks != 1 {
        return Err(format!(
            "{}: not a finished one-blank tier table (round {}, {} of {} boards)",
            path.display(),
            if part.round == FINAL {
                "final".to_string()
            } else {
                part.round.to_string()
            },
            part.codes.len(),
            part.total
        ));
    }
    let size = part.size;
    let table = OneBlankTable::from_codes(size, part.codes).ok_or_else(|| {
        format!(
            "{}: the number of codes is not the {size}x{size} one-blank tier's",
            path.display()
        )
    })?;
    let counts = table.tier().counts(table.codes());
    Ok((table, counts))
}

/// Cross-checks a finished 5x5 tier file against the proving search on `count` random
/// positions ([`super::solved_tiers::SolvedTiers::cross_check`]): `(checked, proven)`.
///
/// # Errors
/// A bad file, a 4x4 table, or the first disagreement: one line.
pub fn check_file(
    path: &Path,
    full: FullBoardTable,
    count: usize,
    seed: u64,
    max_plies: u32,
) -> Result<(usize, usize), String> {
    let (one, _) = read_final(path)?;
    if one.tier().classes() != 6 {
        return Err(format!(
            "{}: a 4x4 tier table; the check is for 5x5",
            path.display()
        ));
    }
    super::solved_tiers::SolvedTiers::new(full, one).cross_check(count, seed, max_plies)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole chunked path through files (3 chunks per round) writes the same finished
    /// table as the one-piece build, and a missing chunk stops the merge.
    #[test]
    fn chunked_files_equal_the_one_piece_file() {
        let dir = std::env::temp_dir().join(format!("tessera-tier-build-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let full = FullBoards::obtain(4, None, 2, &mut |_| {}).unwrap();
        let one = solve_one_piece(4, &full, 2, &dir.join("one.qxt")).unwrap();
        let last = run_rounds(
            4,
            &full,
            &dir.join("rounds"),
            3,
            &dir.join("chunked.qxt"),
            &mut |_| {},
        )
        .unwrap();
        let done = last.done.unwrap();
        assert_eq!(
            std::fs::read(dir.join("one.qxt")).unwrap(),
            std::fs::read(dir.join("chunked.qxt")).unwrap()
        );
        assert_eq!((done.counts, done.longest), (one.counts, one.longest));
        assert_eq!(
            done.counts.wins + done.counts.losses + done.counts.draws,
            16 << 15
        );
        let (_, counts) = read_final(&dir.join("chunked.qxt")).unwrap();
        assert_eq!(counts, one.counts);
        std::fs::remove_file(chunk_path(&dir.join("rounds"), 2, 1, 3)).unwrap();
        let e = merge_round(4, &full, &dir.join("rounds"), 2, 3, &dir.join("x.qxt")).unwrap_err();
        assert!(e.starts_with("chunk 1 of 3 of round 2 is missing"), "{e}");
        let e = build_chunk(4, &full, &dir.join("empty"), 2, 0, 3).unwrap_err();
        assert!(e.contains("round 1 is not merged yet"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
