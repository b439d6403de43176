//! Multi-ProbCut parameters of the Othello midgame search: per depth and game phase
//! (a range of empties), the shallow depth and the regression `deep = a x shallow + b`
//! with its residual's standard deviation `sigma` (centi-discs), fitted by
//! `tessera tune othello --method mpc` (see `docs/mpc.md`). The search takes them through
//! [`crate::search::Evaluator::probcut`]; [`MpcParams`] adds the confidence `t`.
//!
//! # File format (text, `tuning/othello-mpc.txt`)
//!
//! The line [`MAGIC`], `#` header lines (how the file was made), then one line per depth
//! and phase: eight whitespace-separated fields
//! `depth shallow empties_min empties_max a b sigma samples`, e.g.
//! `8 4 21 28 0.981 -3.2 215.4 940`. Depths are 2..=[`MAX_DEPTH`], `shallow < depth`,
//! empties 1..=60 with `min <= max`, `a > 0`, `sigma >= 0`; two lines may not cover the
//! same depth and number of empties. Blank lines are skipped. Every error names the file
//! and the line (and the field).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use super::position::Position;
use crate::search::ProbCut;

/// First line of an MPC parameter file.
pub const MAGIC: &str = "tessera-othello-mpc 1";

/// Deepest node depth a parameter file may name, plies.
pub const MAX_DEPTH: u32 = 30;

/// Default confidence `t`: a cut needs the shallow score `t` standard deviations past the
/// bound (1.5: about 93 % of cuts, one-sided, would agree with the deep search).
pub const DEFAULT_T: f32 = 1.5;

/// One regression: a depth pair over a range of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpcEntry {
    /// Depth of the node (the deep search), plies.
    pub depth: u32,
    /// Depth of the shallow search, plies.
    pub shallow: u32,
    /// Fewest empties this line covers.
    pub empties_min: u32,
    /// Most empties this line covers.
    pub empties_max: u32,
    /// Slope.
    pub a: f32,
    /// Intercept, centi-discs.
    pub b: f32,
    /// Residual standard deviation, centi-discs.
    pub sigma: f32,
    /// Positions the fit used.
    pub samples: u64,
}

/// A parameter file: its entries and, per depth and empties, the entry that applies.
#[derive(Clone, Debug, PartialEq)]
pub struct MpcTable {
    entries: Vec<MpcEntry>,
    header: Vec<String>,
    /// `index[depth][empties]`: position in `entries` + 1, or 0 for none.
    index: Vec<[u16; 65]>,
}

impl MpcTable {
    /// A table of these entries with these header lines (without their `# `).
    ///
    /// # Errors
    /// An entry out of range or two covering the same depth and empties, named by its
    /// position in `entries` (1-based).
    pub fn new(entries: Vec<MpcEntry>, header: Vec<String>) -> Result<Self, String> {
        let index = build_index(&entries, |i| format!("entry {}", i + 1))?;
        Ok(Self {
            entries,
            header,
            index,
        })
    }

    /// The entries, in file order.
    #[must_use]
    pub fn entries(&self) -> &[MpcEntry] {
        &self.entries
    }

    /// The entry for a node searched to `depth` plies with `empties` empty squares.
    #[must_use]
    pub fn entry(&self, depth: u32, empties: u32) -> Option<&MpcEntry> {
        let row = self.index.get(depth as usize)?;
        match *row.get(empties as usize)? {
            0 => None,
            i => Some(&self.entries[usize::from(i) - 1]),
        }
    }

    /// The file text: [`MAGIC`], the header lines, the column names, one line per entry.
    #[must_use]
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut s = format!("{MAGIC}\n");
        for h in &self.header {
            let _ = writeln!(s, "# {h}");
        }
        s.push_str("# depth shallow empties_min empties_max a b sigma samples\n");
        for e in &self.entries {
            let _ = writeln!(
                s,
                "{} {} {} {} {:.4} {:.2} {:.2} {}",
                e.depth, e.shallow, e.empties_min, e.empties_max, e.a, e.b, e.sigma, e.samples
            );
        }
        s
    }

    /// Parses [`MpcTable::to_text`]'s format; `origin` names the file in errors.
    ///
    /// # Errors
    /// One line naming `origin`, the line and the field: a missing or wrong first line,
    /// a line without eight fields, a field that is not a number or out of range, or a
    /// depth and empties covered twice.
    pub fn from_text(text: &str, origin: &str) -> Result<Self, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.trim_end() == MAGIC => {}
            _ => {
                return Err(format!(
                    "MPC parameter file {origin} line 1: first line is not '{MAGIC}'"
                ));
            }
        }
        let mut header = Vec::new();
        let mut entries = Vec::new();
        let mut line_of = Vec::new();
        for (i, raw) in lines {
            let at = |m: String| format!("MPC parameter file {origin} line {}: {m}", i + 1);
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(h) = line.strip_prefix('#') {
                let h = h.trim();
                if h != "depth shallow empties_min empties_max a b sigma samples" {
                    header.push(h.to_string());
                }
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 8 {
                return Err(at(format!(
                    "{} fields, expected 8 (depth shallow empties_min empties_max a b sigma samples)",
                    f.len()
                )));
            }
            let int = |k: usize, name: &str| {
                f[k].parse::<u32>()
                    .map_err(|_| at(format!("{name} '{}' is not a whole number", f[k])))
            };
            let real = |k: usize, name: &str| match f[k].parse::<f64>() {
                // Parsed as f64 first: a finite value beyond f32's range (1e300) is out of
                // range, not "not a finite number".
                Ok(x) if x.is_finite() && (x as f32).is_finite() => Ok(x as f32),
                Ok(x) if x.is_finite() => Err(at(format!(
                    "{name} '{}' is out of range (at most {:e} in size)",
                    f[k],
                    f32::MAX
                ))),
                _ => Err(at(format!("{name} '{}' is not a finite number", f[k]))),
            };
            let e = MpcEntry {
                depth: int(0, "depth")?,
                shallow: int(1, "shallow")?,
                empties_min: int(2, "empties_min")?,
                empties_max: int(3, "empties_max")?,
                a: real(4, "a")?,
                b: real(5, "b")?,
                sigma: real(6, "sigma")?,
                samples: f[7]
                    .parse::<u64>()
                    .map_err(|_| at(format!("samples '{}' is not a whole number", f[7])))?,
            };
            entries.push(e);
            line_of.push(i + 1);
        }
        if entries.is_empty() {
            return Err(format!(
                "MPC parameter file {origin}: no parameter lines after the header"
            ));
        }
        let index = build_index(&entries, |i| format!("line {}", line_of[i]))
            .map_err(|m| format!("MPC parameter file {origin} {m}"))?;
        Ok(Self {
            entries,
            header,
            index,
        })
    }

    /// Reads a parameter file.
    ///
    /// # Errors
    /// An unreadable file, or as [`MpcTable::from_text`].
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = crate::game::pinned::read_text(path, "MPC parameter file", 1 << 20)?;
        Self::from_text(&text, &path.display().to_string())
    }
}

/// `index[depth][empties]` of `entries` (position + 1, 0 for none), after checking each;
/// errors start with `label(i)` of the entry at fault.
fn build_index(
    entries: &[MpcEntry],
    label: impl Fn(usize) -> String,
) -> Result<Vec<[u16; 65]>, String> {
    let mut index = vec![[0u16; 65]; MAX_DEPTH as usize + 1];
    for (i, e) in entries.iter().enumerate() {
        check_entry(e).map_err(|m| format!("{}: {m}", label(i)))?;
        let id = u16::try_from(i + 1).map_err(|_| format!("{}: too many lines", label(i)))?;
        for empties in e.empties_min..=e.empties_max {
            let slot = &mut index[e.depth as usize][empties as usize];
            if *slot != 0 {
                return Err(format!(
                    "{}: depth {} with {empties} empties is already covered by {}",
                    label(i),
                    e.depth,
                    label(usize::from(*slot) - 1)
                ));
            }
            *slot = id;
        }
    }
    Ok(index)
}

fn check_entry(e: &MpcEntry) -> Result<(), String> {
    if !(2..=MAX_DEPTH).contains(&e.depth) {
        return Err(format!("depth {} is outside 2..={MAX_DEPTH}", e.depth));
    }
    if e.shallow >= e.depth {
        return Err(format!(
            "shallow {} is not below depth {}",
            e.shallow, e.depth
        ));
    }
    if !(1..=60).contains(&e.empties_min) || !(e.empties_min..=60).contains(&e.empties_max) {
        return Err(format!(
            "empties {}-{} is not a range within 1..=60",
            e.empties_min, e.empties_max
        ));
    }
    if !(e.a.is_finite() && e.a > 0.0) {
        return Err(format!("a {} is not a number > 0", e.a));
    }
    if !e.b.is_finite() {
        return Err(format!("b {} is not finite", e.b));
    }
    if !(e.sigma.is_finite() && e.sigma >= 0.0) {
        return Err(format!("sigma {} is not a number >= 0", e.sigma));
    }
    Ok(())
}

/// The shipped parameters fitted with the format-1 pattern evaluation
/// (`tuning/othello-mpc.txt`), compiled into the binary.
static SHIPPED_TEXT: &str = include_str!("../../../tuning/othello-mpc.txt");

/// The shipped parameters fitted with the format-2 pattern evaluation, the default one
/// (`tuning/othello-mpc2.txt`), compiled into the binary.
static SHIPPED2_TEXT: &str = include_str!("../../../tuning/othello-mpc2.txt");

/// Which evaluation a built-in parameter table was fitted with: the regression of deep on
/// shallow scores depends on the evaluation that produced the scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FittedWith {
    /// The format-2 pattern evaluation (`builtin:patterns2`, the default): `tuning/othello-mpc2.txt`.
    Patterns2,
    /// Any other evaluation (the table was fitted with `builtin:patterns`, format 1):
    /// `tuning/othello-mpc.txt`.
    Other,
}

/// The shipped parameter table for an evaluation (`builtin`), parsed once.
///
/// # Panics
/// Never for the shipped files (a test parses both).
#[must_use]
pub fn shipped_for(eval: FittedWith) -> Arc<MpcTable> {
    static TABLE: OnceLock<Arc<MpcTable>> = OnceLock::new();
    static TABLE2: OnceLock<Arc<MpcTable>> = OnceLock::new();
    let (cell, text, name) = match eval {
        FittedWith::Other => (&TABLE, SHIPPED_TEXT, "tuning/othello-mpc.txt"),
        FittedWith::Patterns2 => (&TABLE2, SHIPPED2_TEXT, "tuning/othello-mpc2.txt"),
    };
    Arc::clone(cell.get_or_init(|| {
        Arc::new(MpcTable::from_text(text, name).expect("the shipped MPC parameters parse"))
    }))
}

/// What the evaluation needs for Multi-ProbCut: a table and the confidence `t`.
#[derive(Clone, Debug)]
pub struct MpcParams {
    /// The regressions.
    pub table: Arc<MpcTable>,
    /// Confidence: the margin is `t x sigma`.
    pub t: f32,
}

impl MpcParams {
    /// The table named by `source`: `builtin` (the shipped file fitted with the
    /// evaluation the engine uses, [`shipped_for`]) or a file path, with confidence `t`.
    ///
    /// # Errors
    /// As [`MpcTable::load`]; a `t` that is not a number in `(0, 10]`.
    pub fn load(source: &str, t: f32, eval: FittedWith) -> Result<Self, String> {
        if !(t.is_finite() && t > 0.0 && t <= 10.0) {
            return Err(format!("mpc-t must be a number in (0, 10], got {t}"));
        }
        let table = if source == "builtin" {
            shipped_for(eval)
        } else {
            Arc::new(MpcTable::load(Path::new(source))?)
        };
        Ok(Self { table, t })
    }

    /// The probe for a node of `pos` searched to `depth` plies: none where the search
    /// would reach the end of the game (`depth >= empties`) or the table has no entry.
    #[inline]
    #[must_use]
    pub fn probe(&self, pos: &Position, depth: u32) -> Option<ProbCut> {
        let empties = pos.empties();
        if depth >= empties {
            return None;
        }
        let e = self.table.entry(depth, empties)?;
        Some(ProbCut {
            shallow: e.shallow,
            a: e.a,
            b: e.b,
            margin: self.t * e.sigma,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u32, lo: u32, hi: u32) -> MpcEntry {
        MpcEntry {
            depth,
            shallow: depth / 2,
            empties_min: lo,
            empties_max: hi,
            a: 0.95,
            b: -12.5,
            sigma: 210.25,
            samples: 300,
        }
    }

    #[test]
    fn text_round_trip_and_lookup() {
        let t = MpcTable::new(
            vec![entry(4, 20, 29), entry(4, 30, 60), entry(8, 20, 40)],
            vec!["made by a test".into()],
        )
        .unwrap();
        let text = t.to_text();
        assert!(text.starts_with(MAGIC), "{text}");
        let back = MpcTable::from_text(&text, "x.txt").unwrap();
        assert_eq!(back, t);
        assert_eq!(t.entry(4, 25).unwrap().empties_max, 29);
        assert_eq!(t.entry(4, 31).unwrap().empties_min, 30);
        assert!(t.entry(4, 19).is_none());
        assert!(t.entry(5, 25).is_none());
        assert!(t.entry(99, 25).is_none());
    }

    #[test]
    fn bad_files_name_the_file_line_and_field() {
        let cases = [
            ("nope\n", "x.txt line 1: first line is not"),
            (
                "tessera-othello-mpc 1\n# h\n4 2 20 29 0.9 1 100\n",
                "x.txt line 3: 7 fields",
            ),
            (
                "tessera-othello-mpc 1\n4 2 20 29 zero 1 100 5\n",
                "x.txt line 2: a 'zero' is not a finite number",
            ),
            (
                "tessera-othello-mpc 1\n4 2 20 29 -1 1 100 5\n",
                "x.txt line 2: a -1 is not a number > 0",
            ),
            (
                "tessera-othello-mpc 1\n4 4 20 29 1 1 100 5\n",
                "x.txt line 2: shallow 4 is not below depth 4",
            ),
            (
                "tessera-othello-mpc 1\n4 2 30 20 1 1 100 5\n",
                "x.txt line 2: empties 30-20",
            ),
            (
                "tessera-othello-mpc 1\n4 2 20 29 1 1 nan 5\n",
                "x.txt line 2: sigma 'nan' is not a finite number",
            ),
            (
                "tessera-othello-mpc 1\n4 2 20 29 1e300 1 100 5\n",
                "x.txt line 2: a '1e300' is out of range",
            ),
            (
                "tessera-othello-mpc 1\n4 2 20 29 1 1 100 5\n\n4 2 29 40 1 1 100 5\n",
                "x.txt line 4: depth 4 with 29 empties is already covered by line 2",
            ),
            (
                "tessera-othello-mpc 1\n# only a header\n",
                "x.txt: no parameter lines",
            ),
        ];
        for (text, want) in cases {
            let e = MpcTable::from_text(text, "x.txt").unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn the_shipped_table_parses_and_covers_the_midgame() {
        let t = shipped_for(FittedWith::Other);
        assert!(t.entry(6, 30).is_some());
        assert!(t.entries().iter().all(|e| e.samples >= 30));
    }

    #[test]
    fn no_probe_where_the_search_reaches_the_end() {
        let p = MpcParams {
            table: Arc::new(MpcTable::new(vec![entry(8, 1, 60)], vec![]).unwrap()),
            t: 2.0,
        };
        let start = Position::start(); // 60 empties
        let pc = p.probe(&start, 8).unwrap();
        assert_eq!(pc.shallow, 4);
        assert!((pc.margin - 420.5).abs() < 1e-3);
        let few: Position = format!("{}OOO---- X", "X".repeat(57)).parse().unwrap();
        assert_eq!(few.empties(), 4);
        assert!(p.probe(&few, 8).is_none());
        assert!(MpcParams::load("builtin", 0.0, FittedWith::Other).is_err());
    }
}
