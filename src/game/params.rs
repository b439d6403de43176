//! Tunable parameters and the text weights file.
//!
//! A registry is a `&[Param]` (name, default, range, SPSA step) kept next to the code that
//! uses the values (Othello: [`crate::games::othello::eval::PARAMS`]). A weights file is
//! UTF-8 text:
//!
//! ```text
//! # tuned by: tessera tune othello --method texel --data d.txt --epochs 40
//! # data: 120000 positions, seed 1, 2026-11-29; Elo vs defaults: +12.3 +- 8.1
//! mobility_open 43 0 400
//! corner_open 361
//! ```
//!
//! - lines starting with `#` are comments (the header that says how the file was made);
//!   blank lines are ignored;
//! - every other line is `name value [min max]`: an integer value, and optionally the
//!   range it was tuned in (which must lie inside the registry's range, and the value inside
//!   it);
//! - names left out keep their defaults; a name given twice, an unknown name or a value out
//!   of range is an error naming the file and line.

use std::fmt::Write as _;

/// One tunable integer: its name, default, allowed range and SPSA step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Name used in weights files.
    pub name: &'static str,
    /// Default value (in the unit of the code that uses it).
    pub default: i32,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// Perturbation size for SPSA (the `c` of the schedule, in value units).
    pub step: i32,
}

/// Weights of one registry, as [`eval_weights!`](crate::eval_weights) declares them: what
/// an engine specification needs to build an evaluation (`EngineSpec::eval_weights` in the
/// engine layer), with the defaults from [`Default`].
pub trait WeightsFile: Default + Sized {
    /// Reads a weights file (text or JSON form, or a `builtin:` name).
    ///
    /// # Errors
    /// The file (and line), an unknown name or a value outside its range.
    fn load(path: &std::path::Path) -> Result<Self, String>;

    /// Weights from values in registry order.
    ///
    /// # Errors
    /// The wrong number of values, or one outside its parameter's range.
    fn from_values(values: Vec<i32>) -> Result<Self, String>;
}

/// The defaults of a registry, in registry order.
#[must_use]
pub fn defaults(registry: &[Param]) -> Vec<i32> {
    registry.iter().map(|p| p.default).collect()
}

/// Parses the text form (see the module docs) against `registry`; `origin` names the file
/// in errors. Returns the values in registry order (defaults where the file is silent) and
/// the header comment lines (without the leading `#` and one space).
///
/// # Errors
/// One line: `weights file ORIGIN line N: ...` for a malformed line, an unknown name
/// (listing the valid ones), a duplicate, or a value or range outside the registry's range.
pub fn parse_text(
    registry: &[Param],
    text: &str,
    origin: &str,
) -> Result<(Vec<i32>, Vec<String>), String> {
    let mut values = defaults(registry);
    let mut seen = vec![false; registry.len()];
    let mut header = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |msg: String| format!("weights file {origin} line {}: {msg}", i + 1);
        if line.is_empty() {
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            header.push(c.strip_prefix(' ').unwrap_or(c).to_string());
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(err(format!(
                "expected 'name value [min max]', got '{}'",
                crate::game::shown(line)
            )));
        }
        let name = fields[0];
        let k = registry
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| {
                let names: Vec<_> = registry.iter().map(|p| p.name).collect();
                err(format!(
                    "unknown weight '{}' (valid: {})",
                    crate::game::shown(name),
                    names.join(", ")
                ))
            })?;
        let p = &registry[k];
        let int = |s: &str, what: &str| {
            s.parse::<i32>().map_err(|_| {
                err(format!(
                    "{what} of '{name}' must be an integer, got '{}'",
                    crate::game::shown(s)
                ))
            })
        };
        let v = int(fields[1], "the value")?;
        let (lo, hi) = if fields.len() == 4 {
            (
                int(fields[2], "the minimum")?,
                int(fields[3], "the maximum")?,
            )
        } else {
            (p.min, p.max)
        };
        if lo > hi || lo < p.min || hi > p.max {
            return Err(err(format!(
                "range [{lo}, {hi}] of '{name}' is not inside [{}, {}]",
                p.min, p.max
            )));
        }
        if v < lo || v > hi {
            return Err(err(format!(
                "weight '{name}' = {v} is outside [{lo}, {hi}]"
            )));
        }
        if std::mem::replace(&mut seen[k], true) {
            return Err(err(format!("weight '{name}' is given twice")));
        }
        values[k] = v;
    }
    Ok((values, header))
}

/// Checks `values` against `registry`: one value per parameter, each inside its range.
///
/// # Errors
/// The count or the first value out of range, named.
pub fn check_values(registry: &[Param], values: &[i32]) -> Result<(), String> {
    if values.len() != registry.len() {
        return Err(format!(
            "{} weight values, expected {}",
            values.len(),
            registry.len()
        ));
    }
    for (p, &v) in registry.iter().zip(values) {
        if v < p.min || v > p.max {
            return Err(format!(
                "weight '{}' = {v} is outside [{}, {}]",
                p.name, p.min, p.max
            ));
        }
    }
    Ok(())
}

/// The text form of `values` (registry order): the `header` lines as `# ` comments, then
/// `name value min max` for every parameter, names padded to one column.
#[must_use]
pub fn to_text(registry: &[Param], values: &[i32], header: &[String]) -> String {
    let mut s = String::new();
    for h in header {
        let _ = writeln!(s, "# {h}");
    }
    let width = registry.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for (p, v) in registry.iter().zip(values) {
        let _ = writeln!(s, "{:width$} {v} {} {}", p.name, p.min, p.max);
    }
    s
}

/// Whether `bytes` (a file, or its start) begin with the first line of a tuning checkpoint,
/// `NAME-checkpoint VERSION` (what `tessera tune` writes to `--checkpoint`:
/// `tessera-pattern-fit-checkpoint 2`, `texel-checkpoint 2`, `spsa-checkpoint 2`), so that
/// one given as a weights file is named as such.
#[must_use]
pub fn is_checkpoint(bytes: &[u8]) -> bool {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let Some(at) = first.iter().position(|&b| b == b' ') else {
        return false;
    };
    let (name, version) = (&first[..at], &first[at + 1..]);
    name.strip_suffix(b"-checkpoint")
        .is_some_and(|n| !n.is_empty() && n.iter().all(|&b| b.is_ascii_lowercase() || b == b'-'))
        && !version.is_empty()
        && version.iter().all(u8::is_ascii_digit)
}

/// The error for a tuning checkpoint (see [`is_checkpoint`]) at `path` given as a weights
/// file: one line saying what it is and where it belongs.
#[must_use]
pub fn checkpoint_error(path: &std::path::Path) -> String {
    let p = path.display();
    format!(
        "{p} is a tuning checkpoint, not a weights file (to continue its fit, run the same \
         `tessera tune` command with --checkpoint {p}; the fitted weights are the fit's --out file)"
    )
}

/// The largest weights file read: 256 MiB (pattern weights are a few MB).
pub const MAX_WEIGHTS_FILE: u64 = 256 * super::files::MIB;

/// Reads a weights file for `registry`: the text form (see the module docs), or a JSON
/// object `{"name": value, ...}` when the file's first non-blank character is `{`. Values
/// in registry order, defaults where the file is silent.
///
/// # Errors
/// A one-line message naming the file (and for text files the line): an unreadable file,
/// a tuning checkpoint ([`is_checkpoint`]), a file that names no weight at all (empty, `{}`,
/// only comments: most likely the wrong file, which would silently mean "the defaults"), an
/// unknown name (listing the valid ones), a value outside its range.
pub fn load(registry: &[Param], path: &std::path::Path) -> Result<Vec<i32>, String> {
    let text = super::pinned::read_text(path, "weights file", MAX_WEIGHTS_FILE)?;
    if is_checkpoint(text.as_bytes()) {
        return Err(checkpoint_error(path));
    }
    let json = text.trim_start().starts_with('{');
    let names_none = if json {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&text)
            .is_ok_and(|m| m.is_empty())
    } else {
        text.lines()
            .map(str::trim)
            .all(|l| l.is_empty() || l.starts_with('#'))
    };
    if names_none {
        return Err(format!(
            "weights file {} holds no weights (expected `name value [min max]` lines or a \
             JSON object {{\"name\": value}}; leave out --weights for the built-in evaluation)",
            path.display()
        ));
    }
    if json {
        parse_json(registry, &text).map_err(|e| format!("weights file {}: {e}", path.display()))
    } else {
        parse_text(registry, &text, &path.display().to_string()).map(|(v, _)| v)
    }
}

/// Parses the JSON form `{"name": value, ...}` against `registry` (defaults where silent).
///
/// # Errors
/// Not a JSON object, an unknown name (listing the valid ones), a value that is not an
/// integer or lies outside its range.
pub fn parse_json(registry: &[Param], text: &str) -> Result<Vec<i32>, String> {
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| {
            format!(
                "not a JSON object of weights: {}",
                e.to_string().replace('\n', " ")
            )
        })?;
    let mut values = defaults(registry);
    for (k, v) in map {
        let i = registry.iter().position(|p| p.name == k).ok_or_else(|| {
            let names: Vec<_> = registry.iter().map(|p| p.name).collect();
            format!(
                "unknown weight '{}' (valid: {})",
                crate::game::shown(&k),
                names.join(", ")
            )
        })?;
        let p = &registry[i];
        let x = v.as_i64().ok_or_else(|| {
            format!(
                "weight '{}' must be an integer, got {}",
                crate::game::shown(&k),
                crate::game::shown(&v.to_string())
            )
        })?;
        if x < i64::from(p.min) || x > i64::from(p.max) {
            return Err(format!(
                "weight '{k}' = {x} is outside [{}, {}]",
                p.min, p.max
            ));
        }
        values[i] = x as i32;
    }
    Ok(values)
}

/// The JSON form of `values` (registry order), one weight per line.
#[must_use]
pub fn to_json(registry: &[Param], values: &[i32]) -> String {
    let mut s = String::from("{\n");
    for (i, (p, v)) in registry.iter().zip(values).enumerate() {
        let sep = if i + 1 < registry.len() { "," } else { "" };
        let _ = writeln!(s, "  \"{}\": {v}{sep}", p.name);
    }
    s.push('}');
    s
}

/// SPSA input: one `name, value, min, max, step, step / 20` line per parameter (the
/// OpenBench / fishtest spreadsheet order: c and the final learning-rate ratio `r_end`).
#[must_use]
pub fn spsa_input(registry: &[Param], values: &[i32]) -> String {
    let mut s = String::new();
    for (p, v) in registry.iter().zip(values) {
        let _ = writeln!(
            s,
            "{}, int, {v}, {}, {}, {}, 0.002",
            p.name, p.min, p.max, p.step
        );
    }
    s
}

/// Declares an evaluation's weights registry: `PARAMS` (the [`Param`]s, in order), a private
/// index enum `P`, and `Weights(pub Vec<i32>)` (defaults, text/JSON load and save through
/// this module, and `get(P)`). One invocation per game's evaluation; doc attributes given
/// first go on `PARAMS` (say the weights' unit there). `@builtin NAME => TEXT, ORIGIN;`
/// lines name weights files compiled into the binary, which the generated `Weights::load` takes for
/// the path `NAME` (`builtin:baseline`, the defaults, needs no line).
///
/// ```ignore
/// eval_weights! {
///     /// Centi-cubes per feature unit.
///     @builtin "builtin:texel" => include_str!("../../../tuning/quixo-texel.txt"), "tuning/quixo-texel.txt";
///     Line1 = "line_missing_1", 120, 0, 2000, 10;
/// }
/// ```
#[macro_export]
macro_rules! eval_weights {
    ($(#[$meta:meta])*
     $(@builtin $bname:literal => $btext:expr, $borigin:literal;)*
     $($idx:ident = $name:literal, $def:expr, $min:expr, $max:expr, $step:expr;)*) => {
        $(#[$meta])*
        pub const PARAMS: &[$crate::game::Param] = &[$($crate::game::Param {
            name: $name,
            default: $def,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        #[repr(usize)]
        #[derive(Clone, Copy)]
        enum P {
            $($idx),*
        }

        /// Evaluation weights, indexed like [`PARAMS`].
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Weights(pub Vec<i32>);

        impl Default for Weights {
            fn default() -> Self {
                Self($crate::game::params::defaults(PARAMS))
            }
        }

        impl Weights {
            /// Reads a weights file: the text form of [`crate::game::params`] (`name value
            /// [min max]` lines, `#` comments), or a JSON object `{"name": value, ...}`.
            /// Names not given keep their defaults. The path `builtin:baseline` gives the
            /// defaults and the names in [`Weights::BUILTIN`] the files compiled into the
            /// binary, so presets naming them run from any directory.
            ///
            /// # Errors
            /// As [`crate::game::params::load`]: the file (and line), an unknown name
            /// (listing the valid ones) or a value outside its range.
            pub fn load(path: &std::path::Path) -> Result<Self, String> {
                match path.to_str() {
                    Some("builtin:baseline") => return Ok(Self::default()),
                    $(Some($bname) => {
                        return Self::from_text($btext, concat!($borigin, " (embedded)"));
                    })*
                    Some(name) if name.starts_with("builtin:") => {
                        let mut valid = vec!["builtin:baseline"];
                        valid.extend(Self::BUILTIN.iter().map(|(n, _)| *n));
                        return Err(format!(
                            "unknown built-in weights '{}' (valid: {})",
                            $crate::game::shown(name),
                            valid.join(", ")
                        ));
                    }
                    _ => {}
                }
                $crate::game::params::load(PARAMS, path).map(Self)
            }

            /// Weights from values in registry order.
            ///
            /// # Errors
            /// The wrong number of values, or one outside its parameter's range.
            pub fn from_values(values: Vec<i32>) -> Result<Self, String> {
                $crate::game::params::check_values(PARAMS, &values)?;
                Ok(Self(values))
            }

            /// Names of the weights files compiled into the binary (besides
            /// `builtin:baseline`), with the repository file each one embeds.
            pub const BUILTIN: &'static [(&'static str, &'static str)] = &[$(($bname, $borigin)),*];

            /// Parses the text form; `origin` names the file in errors.
            ///
            /// # Errors
            /// As [`crate::game::params::parse_text`].
            pub fn from_text(text: &str, origin: &str) -> Result<Self, String> {
                $crate::game::params::parse_text(PARAMS, text, origin).map(|(v, _)| Self(v))
            }

            /// The text form with `header` comment lines (how the file was made).
            #[must_use]
            pub fn to_text(&self, header: &[String]) -> String {
                $crate::game::params::to_text(PARAMS, &self.0, header)
            }

            /// Parses the JSON form of [`Weights::load`].
            ///
            /// # Errors
            /// As [`crate::game::params::parse_json`].
            pub fn from_json(text: &str) -> Result<Self, String> {
                $crate::game::params::parse_json(PARAMS, text).map(Self)
            }

            /// The JSON form, one weight per line, in registry order.
            #[must_use]
            pub fn to_json(&self) -> String {
                $crate::game::params::to_json(PARAMS, &self.0)
            }

            #[inline(always)]
            #[allow(dead_code)]
            fn get(&self, p: P) -> i32 {
                self.0[p as usize]
            }
        }

        impl $crate::game::params::WeightsFile for Weights {
            fn load(path: &std::path::Path) -> Result<Self, String> {
                Weights::load(path)
            }

            fn from_values(values: Vec<i32>) -> Result<Self, String> {
                Weights::from_values(values)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first lines `tessera tune` writes to its checkpoints are recognised (the
    /// integration test `tuning::selfplay` checks files of real runs); weights lines, pattern
    /// files and near misses are not.
    #[test]
    fn checkpoints_are_told_by_their_first_line() {
        for yes in [
            &b"tessera-pattern-fit-checkpoint 2\nepoch 3 data 00 settings x\n\x00\xff"[..],
            b"texel-checkpoint 2\nrun x\n",
            b"spsa-checkpoint 12",
        ] {
            assert!(is_checkpoint(yes), "{}", String::from_utf8_lossy(yes));
        }
        // `load` names one given as a weights file (the text checkpoints would otherwise
        // fail on their first line as an unknown weight).
        let path = std::env::temp_dir().join(format!("tessera-ckpt-w-{}", std::process::id()));
        std::fs::write(&path, "texel-checkpoint 2\nrun x\nk 1e0\nepoch 3\n").unwrap();
        let e = load(REG, &path).unwrap_err();
        std::fs::remove_file(&path).ok();
        assert_eq!(e, checkpoint_error(&path));
        assert!(
            e.contains("is a tuning checkpoint, not a weights file"),
            "{e}"
        );
        for no in [
            &b"tessera-othello-patterns 2\n"[..],
            b"mobility_open 40\n",
            b"checkpoint 2\n",
            b"-checkpoint 2\n",
            b"texel-checkpoint\n",
            b"texel-checkpoint 2 x\n",
            b"Texel-checkpoint 2\n",
            b"",
        ] {
            assert!(!is_checkpoint(no), "{}", String::from_utf8_lossy(no));
        }
    }

    const REG: &[Param] = &[
        Param {
            name: "alpha",
            default: 10,
            min: 0,
            max: 100,
            step: 2,
        },
        Param {
            name: "beta_long_name",
            default: -5,
            min: -50,
            max: 0,
            step: 1,
        },
    ];

    #[test]
    fn text_round_trips_with_header() {
        let header = vec!["made by a test".to_string(), "seed 7".to_string()];
        let text = to_text(REG, &[42, -7], &header);
        assert!(text.starts_with("# made by a test\n# seed 7\n"), "{text}");
        let (v, h) = parse_text(REG, &text, "t.txt").unwrap();
        assert_eq!(v, vec![42, -7]);
        assert_eq!(h, header);
        // Names left out keep their defaults; blank lines and comments are skipped.
        let (v, _) = parse_text(REG, "\n# x\nbeta_long_name -1\n", "t.txt").unwrap();
        assert_eq!(v, vec![10, -1]);
    }

    #[test]
    fn bad_files_name_file_and_line() {
        let cases = [
            ("alpha 1\nnope 3\n", "line 2", "unknown weight 'nope'"),
            ("alpha x\n", "line 1", "must be an integer"),
            ("alpha 101\n", "line 1", "outside [0, 100]"),
            ("alpha 5 6 9\n", "line 1", "outside [6, 9]"),
            ("alpha 5 -1 9\n", "line 1", "not inside [0, 100]"),
            ("# h\nalpha 5\nalpha 6\n", "line 3", "given twice"),
            ("alpha\n", "line 1", "expected 'name value [min max]'"),
        ];
        for (text, line, what) in cases {
            let e = parse_text(REG, text, "w.txt").unwrap_err();
            assert!(
                e.starts_with("weights file w.txt ") && e.contains(line) && e.contains(what),
                "{text:?}: {e}"
            );
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn spsa_input_lists_every_parameter() {
        let s = spsa_input(REG, &[1, -2]);
        assert_eq!(s.lines().count(), 2);
        assert!(s.starts_with("alpha, int, 1, 0, 100, 2,"), "{s}");
    }
}
