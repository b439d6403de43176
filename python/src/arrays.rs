//! Rust vectors as numpy arrays of a given shape, and numpy arguments checked into slices.

use numpy::ndarray::{Array, IxDyn};
use numpy::{Element, IntoPyArray, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::errors::{type_error, value_error};

/// `values` as an array of `shape` (C-order).
pub fn array<'py, T: Element>(
    py: Python<'py>,
    values: Vec<T>,
    shape: &[usize],
) -> Bound<'py, PyArrayDyn<T>> {
    Array::from_shape_vec(IxDyn(shape), values)
        .expect("the values fill the shape")
        .into_pyarray(py)
}

/// `obj` (a numpy integer array or a sequence of ints) as `n` `i64` values.
///
/// # Errors
/// `TypeError` for a non-integer dtype, `ValueError` for another shape.
pub fn int64_vector(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<i64>> {
    let np = obj.py().import("numpy")?;
    let arr = np.call_method1("asarray", (obj,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    let dtype: String = arr.getattr("dtype")?.str()?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(type_error(format!(
            "{what} must be integers (an int64 array of shape ({n},)), got dtype {dtype}"
        )));
    }
    if kind == "u" {
        // uint64 values above int64's range would wrap to negative numbers.
        let max = arr.call_method0("max")?;
        if max.gt(i64::MAX)? {
            return Err(value_error(format!(
                "{what} must be integers in int64's range, got {max}"
            )));
        }
    }
    let arr = arr.call_method1("astype", ("int64",))?;
    let arr = arr
        .cast::<PyArrayDyn<i64>>()
        .map_err(|e| type_error(e.to_string()))?;
    let shape = arr.shape().to_vec();
    if shape != [n] {
        return Err(value_error(format!(
            "{what} must have shape ({n},), got {shape:?}"
        )));
    }
    // `astype` made a new C-contiguous array.
    let values = arr.readonly().as_slice().map_err(value_error)?.to_vec();
    Ok(values)
}
