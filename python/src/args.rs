//! Integer arguments checked into range: a negative or oversized int (`depth=-1`,
//! `time_ms=2**70`) is `ValueError` naming the argument and its range, never PyO3's
//! `OverflowError`; a non-integer stays `TypeError`, and so is a bool (`True` is an int
//! to Python, but an action or a depth of `True` is a mistake, not 1).

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::{type_error, value_error};

/// `TypeError` naming `name` and the value when `obj` is a bool (`True`, `False`, numpy's
/// `bool_` too).
///
/// # Errors
/// "action must be an int, not a bool (got True)".
fn refuse_bool(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    let numpy_bool = || {
        obj.get_type()
            .name()
            .is_ok_and(|n| matches!(n.to_string_lossy().as_ref(), "bool" | "bool_"))
    };
    if obj.is_instance_of::<PyBool>() || numpy_bool() {
        return Err(type_error(format!(
            "{name} must be an int, not a bool (got {})",
            obj.str()?
        )));
    }
    Ok(())
}

/// Largest `n` of `VecEnv` and `random_playouts`: the games and their arrays must fit in
/// memory (`VecEnv("othello", 2**24)` already needs 8 GiB of observations).
pub const MAX_GAMES: u64 = 1 << 24;

/// Largest `time_ms` (engine settings travel as TOML integers, signed 64-bit).
pub const MAX_TIME_MS: u64 = i64::MAX as u64;

/// The range message of `name`: `in lo..=hi` (with `unit`), or `at least lo` when `hi` is
/// the type's limit (as the command line says of `--time-ms 0`).
fn range_message(name: &str, lo: u64, hi: u64, unit: &str, got: &str) -> String {
    if hi >= MAX_TIME_MS {
        if got.starts_with('-') || got.parse::<u64>().is_ok_and(|v| v < lo) {
            format!("{name} must be at least {lo}, got {got}")
        } else {
            format!("{name} must be at most {hi}, got {got}")
        }
    } else {
        format!("{name} must be in {lo}..={hi}{unit}, got {got}")
    }
}

/// The optional integer argument `name` in `lo..=hi`.
///
/// # Errors
/// `ValueError` ("depth must be in 1..=60 plies, got -1") outside the range, `TypeError`
/// for a non-integer or a bool.
pub fn opt_u64(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: u64,
    hi: u64,
    unit: &str,
) -> PyResult<Option<u64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    refuse_bool(obj, name)?;
    let out_of_range = |got: String| value_error(range_message(name, lo, hi, unit, &got));
    match obj.extract::<i128>() {
        Ok(v) if v >= i128::from(lo) && v <= i128::from(hi) => Ok(Some(v as u64)),
        Ok(v) => Err(out_of_range(v.to_string())),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(out_of_range(obj.str()?.to_string()))
        }
        Err(e) => Err(e),
    }
}

/// The integer argument `name` in `lo..=hi` (see [`opt_u64`]).
///
/// # Errors
/// As [`opt_u64`].
pub fn u64_in(obj: &Bound<'_, PyAny>, name: &str, lo: u64, hi: u64, unit: &str) -> PyResult<u64> {
    Ok(opt_u64(Some(obj), name, lo, hi, unit)?.expect("not None"))
}

/// `opt_u64` narrowed to `u32` (`hi` fits).
///
/// # Errors
/// As [`opt_u64`].
pub fn opt_u32(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: u32,
    hi: u32,
    unit: &str,
) -> PyResult<Option<u32>> {
    Ok(opt_u64(obj, name, lo.into(), hi.into(), unit)?.map(|v| v as u32))
}

/// An index argument `name` (an action, a game's row): `Ok(Ok(i))` for an `i64`,
/// `Ok(Err(text))` for an int beyond `i64` (out of every range: the caller names it in its
/// own message).
///
/// # Errors
/// `TypeError` for a non-integer or a bool.
pub fn index(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Result<i64, String>> {
    refuse_bool(obj, name)?;
    match obj.extract::<i64>() {
        Ok(v) => Ok(Ok(v)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Err(obj.str()?.to_string())),
        Err(e) => Err(e),
    }
}
