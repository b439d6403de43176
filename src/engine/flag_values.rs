//! Flag values from text, as the front ends take them (the command line's value parsers):
//! counts, depths, seeds, table sizes and engine numbers, each refused with a one-line
//! message that follows the flag's name.

/// an integer of at least 1.
pub fn at_least_one_u32(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(not_a_count(text, &e, "must be at least 1")),
    }
}

/// a search depth in plies, 1 to [`crate::search::Limits::MAX_DEPTH`]
/// (60: iterative deepening never goes deeper, so a larger depth would silently be 60 and
/// run as long as an unlimited search).
pub fn search_depth(text: &str) -> Result<u32, String> {
    let max = crate::search::Limits::MAX_DEPTH;
    let range = format!("must be in 1..={max} plies");
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} {range}")),
        Err(e) => Err(not_a_count(text, &e, &range)),
    }
}

/// an FFO problem number, any whole number (the suite's range is
/// checked where the problem is looked up); a negative or non-numeric one names the suite
/// ("-1 is not in 0..=4294967295" was clap's).
pub fn ffo_number(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| "not an FFO problem number (the built-in suite has 40..59)".to_string())
}

/// The message for `text` that did not parse as an unsigned count (`e`): `negative` for a
/// negative whole number (e.g. "-5"), else "not a whole number" with the reason.
fn not_a_count(text: &str, e: &std::num::ParseIntError, negative: &str) -> String {
    let t = text.trim();
    let digits = t.strip_prefix('+').unwrap_or(t);
    if t.parse::<i128>().is_ok_and(|n| n < 0)
        || (t.starts_with('-') && t.len() > 1 && t[1..].bytes().all(|b| b.is_ascii_digit()))
    {
        negative.to_string()
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // A whole number, only too large for the option ("99999999999999999999" read
        // "not a whole number (number too large to fit in target type)").
        format!("{t} is too large")
    } else {
        format!("not a whole number ({e})")
    }
}

/// an integer of at least 1.
///
/// Values above `i64::MAX` are refused here: engine settings travel as TOML integers
/// (signed 64-bit), and a larger count could only fail later with a confusing message.
pub fn at_least_one_u64(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) if n > i64::MAX as u64 => Err(format!("{n} is too large (at most {})", i64::MAX)),
        Ok(n) => Ok(n),
        Err(e) => Err(not_a_count(text, &e, "must be at least 1")),
    }
}

/// a random seed, 0 to `i64::MAX` (engine settings travel as TOML
/// integers, signed 64-bit).
pub fn seed(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n > i64::MAX as u64 => Err(format!("{n} is too large (at most {})", i64::MAX)),
        Ok(n) => Ok(n),
        Err(e) => Err(not_a_count(text, &e, "must be at least 0")),
    }
}

/// Largest transposition table accepted, MiB.
pub const MAX_TT_MIB: usize = 16 * 1024;

/// a table size in MiB, 1..=[`MAX_TT_MIB`].
pub fn tt_mib(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        // A trial allocation (fresh pages, untouched: cheap) so that a size this machine
        // cannot give is one error line now, not an abort once the work has begun.
        Ok(n) if (1..=MAX_TT_MIB).contains(&n) => {
            crate::search::TranspositionTable::try_new(n).map(|_| n)
        }
        Ok(n) => Err(format!("{n} MiB is outside 1..={MAX_TT_MIB}")),
        Err(e) => Err(not_a_count(
            text,
            &e,
            &format!("{} MiB is outside 1..={MAX_TT_MIB}", text.trim()),
        )),
    }
}

/// an MCTS parallelism (`root` or `tree`).
pub fn mcts_parallel(text: &str) -> Result<crate::search::mcts::Parallelism, String> {
    crate::search::mcts::Parallelism::parse(text.trim())
}

/// a finite number >= 0.
pub fn non_negative_f64(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a finite number >= 0")),
        Err(e) => Err(format!("not a number ({e})")),
    }
}

/// `--mpc`: refuses an empty value, which would be read as a file
/// named "".
pub fn mpc_source(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        Err("empty: give builtin, off or a parameter file".into())
    } else {
        Ok(text.to_string())
    }
}

/// a Multi-ProbCut confidence `t`, a number in (0, 10] (the range
/// `probcut::MpcParams::load` and engine specs accept).
pub fn mpc_confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 10.0 => Ok(x),
        Ok(x) => Err(format!("{x} is not a number in (0, 10]")),
        Err(e) => Err(format!("not a number ({e})")),
    }
}

/// `--exact-empties`: a number of empties 0..=64 or `auto`.
pub fn exact_empties(text: &str) -> Result<super::spec::ExactEmpties, String> {
    use super::spec::ExactEmpties;
    let t = text.trim();
    if t == "auto" {
        return Ok(ExactEmpties::Auto);
    }
    match t.parse::<u32>() {
        Ok(n) if n <= 64 => Ok(ExactEmpties::Upto(n)),
        Ok(n) => Err(format!("{n} is not in 0..=64 (or auto)")),
        Err(_) => Err(format!("'{t}' is not a number of empties 0..=64 or auto")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_parsers_reject_zero_and_junk() {
        assert!(at_least_one_u32("0").is_err());
        assert!(at_least_one_u32("x").is_err());
        assert_eq!(at_least_one_u32("3"), Ok(3));
        assert_eq!(
            at_least_one_u64("99999999999999999999").unwrap_err(),
            "99999999999999999999 is too large"
        );
        assert_eq!(
            at_least_one_u64("-99999999999999999999999999999999999999999").unwrap_err(),
            "must be at least 1"
        );
        assert!(
            at_least_one_u64("12x")
                .unwrap_err()
                .starts_with("not a whole number")
        );
        assert_eq!(ffo_number("41"), Ok(41));
        assert!(ffo_number("-1").unwrap_err().contains("40..59"));
        assert_eq!(search_depth("60"), Ok(60));
        assert_eq!(
            search_depth("61").unwrap_err(),
            "61 must be in 1..=60 plies"
        );
        assert!(search_depth("0").is_err());
        assert_eq!(search_depth("-3").unwrap_err(), "must be in 1..=60 plies");
        assert!(tt_mib("0").is_err());
        assert_eq!(tt_mib("16"), Ok(16));
    }
}
