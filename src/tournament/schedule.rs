//! The schedule of a tournament: which engines meet, in which seats, on which opening.
//!
//! Fairness: every opening is played by a group of engines in every cyclic rotation of the
//! seats — a colour-swapped pair for two seats, a block of three for three seats. A block
//! is the unit of pentanomial statistics, bootstrap resampling and sharding.

use serde::{Deserialize, Serialize};

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of `seats` distinct engines meets.
    #[default]
    RoundRobin,
    /// The first engine meets every group of the others.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Global game index: `block * seats + rotation`. Also the game's id in records.
    pub index: usize,
    /// Block index: `round * groups + group`.
    pub block: usize,
    /// Round (selects the opening).
    pub round: usize,
    /// Rotation of the seats within the block, `0..seats`.
    pub rotation: usize,
    /// Engine index (into the tournament's engine list) for each seat.
    pub seats: Vec<usize>,
}

/// Groups of engine indices that meet: each group's engines share one game.
#[must_use]
pub fn groups(engines: usize, seats: usize, format: Format) -> Vec<Vec<usize>> {
    fn combinations(pool: &[usize], k: usize, out: &mut Vec<Vec<usize>>, cur: &mut Vec<usize>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for (i, &e) in pool.iter().enumerate() {
            cur.push(e);
            combinations(&pool[i + 1..], k, out, cur);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    match format {
        Format::RoundRobin => {
            let pool: Vec<usize> = (0..engines).collect();
            combinations(&pool, seats, &mut out, &mut Vec::new());
        }
        Format::Gauntlet => {
            let pool: Vec<usize> = (1..engines).collect();
            let mut rest = Vec::new();
            combinations(&pool, seats - 1, &mut rest, &mut Vec::new());
            for mut g in rest {
                g.insert(0, 0);
                out.push(g);
            }
        }
    }
    out
}

/// Every game of `rounds` rounds: for each round, each group plays one block (all seat
/// rotations on the round's opening). Ordered round by round, so a partial or stopped
/// tournament covers every group evenly.
#[must_use]
pub fn schedule(engines: usize, seats: usize, format: Format, rounds: usize) -> Vec<Slot> {
    let gs = groups(engines, seats, format);
    let mut slots = Vec::with_capacity(rounds * gs.len() * seats);
    for round in 0..rounds {
        for (g, group) in gs.iter().enumerate() {
            let block = round * gs.len() + g;
            for rotation in 0..seats {
                let seats_of: Vec<usize> =
                    (0..seats).map(|s| group[(s + rotation) % seats]).collect();
                slots.push(Slot {
                    index: block * seats + rotation,
                    block,
                    round,
                    rotation,
                    seats: seats_of,
                });
            }
        }
    }
    slots
}

/// A shard `I/N` (1-based `I`): the blocks whose index is `I-1` modulo `N`, so shards are
/// disjoint, cover the schedule, and keep blocks whole.
///
/// # Errors
/// Text that is not `I/N` with `1 <= I <= N`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad --shard '{text}': expected I/N with 1 <= I <= N, e.g. 2/8");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Whether `slot` belongs to shard `(i, n)`.
#[must_use]
pub fn in_shard(slot: &Slot, shard: Option<(usize, usize)>) -> bool {
    shard.is_none_or(|(i, n)| slot.block % n == i - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_swap_colours() {
        let s = schedule(3, 2, Format::RoundRobin, 2);
        // 3 pairs x 2 rotations x 2 rounds.
        assert_eq!(s.len(), 12);
        assert_eq!(s[0].seats, vec![0, 1]);
        assert_eq!(s[1].seats, vec![1, 0]);
        assert_eq!(s[2].seats, vec![0, 2]);
        assert!(s.iter().enumerate().all(|(i, x)| x.index == i));
        assert_eq!(s[6].round, 1);
    }

    #[test]
    fn three_seat_blocks_rotate_every_seat() {
        let s = schedule(3, 3, Format::RoundRobin, 1);
        let seats: Vec<_> = s.iter().map(|x| x.seats.clone()).collect();
        assert_eq!(seats, vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
    }

    #[test]
    fn gauntlet_and_shards() {
        let g = groups(4, 2, Format::Gauntlet);
        assert_eq!(g, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        let all = schedule(4, 2, Format::Gauntlet, 5);
        let mut seen = 0;
        for i in 1..=3 {
            let part: Vec<_> = all.iter().filter(|s| in_shard(s, Some((i, 3)))).collect();
            // Blocks stay whole: both games of a pair land in the same shard.
            assert!(part.len() % 2 == 0);
            seen += part.len();
        }
        assert_eq!(seen, all.len());
        assert_eq!(parse_shard("2/8"), Ok((2, 8)));
        assert!(
            parse_shard("0/8").is_err() && parse_shard("9/8").is_err() && parse_shard("x").is_err()
        );
    }
}
