//! The Quixo one-blank tier builds for people (`tessera quixo-tier`): a finished table
//! ([`tier_lines`]), a merged round ([`merge_line`]), win/draw/loss counts
//! ([`counts_line`]).

use crate::games::quixo::retro::Counts;
use crate::games::quixo::tier_build::{MergeReport, TierReport};

/// The counts from the side to move's view, with their shares.
#[must_use]
pub fn counts_line(c: &Counts) -> String {
    let n = (c.wins + c.losses + c.draws).max(1) as f64;
    format!(
        "side to move: {} wins ({:.2} %), {} draws ({:.2} %), {} losses ({:.2} %)",
        c.wins,
        100.0 * c.wins as f64 / n,
        c.draws,
        100.0 * c.draws as f64 / n,
        c.losses,
        100.0 * c.losses as f64 / n
    )
}

/// A finished tier table: its boards, longest forced result, time and file, then the
/// counts.
#[must_use]
pub fn tier_lines(r: &TierReport) -> [String; 2] {
    [
        format!(
            "{n}x{n} one-blank tier: {} canonical boards, longest forced result {} plies, {:.1} s; wrote {}",
            r.boards,
            r.longest,
            r.seconds,
            r.file.display(),
            n = r.size
        ),
        counts_line(&r.counts),
    ]
}

/// A merged round: boards resolved, the new ones, the file, and `done` when the round
/// changed nothing.
#[must_use]
pub fn merge_line(r: &MergeReport) -> String {
    format!(
        "round {}: {} boards resolved ({} new); wrote {}{}",
        r.round,
        r.resolved,
        r.new,
        r.file.display(),
        if r.done.is_some() { "; done" } else { "" }
    )
}
