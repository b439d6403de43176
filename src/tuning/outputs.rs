//! The files a tuning run writes, checked before any work: folders made, outputs writable,
//! and no output (or checkpoint) on top of an input, so a long fit never fails at its end
//! or overwrites its own data.

use std::path::{Path, PathBuf};

use super::error::TuneError;

/// The checkpoint of a run writing `out` when none is named: `out` with the extension
/// `.ckpt`.
#[must_use]
pub fn default_checkpoint(out: &Path) -> PathBuf {
    out.with_extension("ckpt")
}

/// Creates the folder `path` is to be written in, if it has one and it is missing.
///
/// # Errors
/// [`TuneError::CreateFolder`] naming the folder.
pub fn create_parent(path: &Path) -> Result<(), TuneError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|e| TuneError::CreateFolder {
                dir: dir.to_path_buf(),
                message: e.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// Checks before any work that `path` can be written: not a folder, and openable for
/// writing. An existing file is left as it is; a missing one is created and removed again,
/// so a run that fails later leaves nothing behind.
///
/// # Errors
/// [`TuneError::Write`] naming the path.
pub fn check_writable(path: &Path) -> Result<(), TuneError> {
    let write = |message: String| TuneError::Write {
        path: path.to_path_buf(),
        message,
    };
    if path.is_dir() {
        return Err(write("it is a folder".to_string()));
    }
    crate::game::files::probe_writable(path).map_err(|e| write(e.to_string()))
}

/// Whether `a` and `b` name the same file (the same text, or the same file once resolved).
fn same(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// Prepares the outputs of a fit reading `data` and writing `out` with its `checkpoint`
/// (named, else [`default_checkpoint`]): makes the folders of `out` and of a named
/// checkpoint, refuses an output, checkpoint or checkpoint temporary file on top of a data
/// file and a checkpoint that is the output, and checks that `out` can be written.
///
/// # Errors
/// [`TuneError::CreateFolder`], [`TuneError::OverwritesData`],
/// [`TuneError::CheckpointIsOutput`] or [`TuneError::Write`].
pub fn check_outputs(
    data: &[PathBuf],
    out: &Path,
    checkpoint: Option<&Path>,
) -> Result<(), TuneError> {
    // The output's folder (which also holds the default checkpoint) is made up front, so a
    // missing folder is not found only after the first epoch.
    for path in [Some(out), checkpoint].into_iter().flatten() {
        create_parent(path)?;
    }
    let ckpt = checkpoint.map_or_else(|| default_checkpoint(out), Path::to_path_buf);
    if let Some(d) = data
        .iter()
        .find(|d| same(d, out) || same(d, &ckpt) || same(d, &super::checkpoint::temp_path(&ckpt)))
    {
        return Err(TuneError::OverwritesData(d.clone()));
    }
    if same(out, &ckpt) {
        return Err(TuneError::CheckpointIsOutput(ckpt));
    }
    check_writable(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_on_top_of_inputs_are_refused() {
        let dir = std::env::temp_dir().join(format!("tessera-outputs-{}", std::process::id()));
        let data = dir.join("d.txt");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&data, "x").unwrap();
        let out = dir.join("sub/w.txt");
        check_outputs(std::slice::from_ref(&data), &out, None).unwrap();
        assert!(dir.join("sub").is_dir(), "the output's folder is made");
        assert!(!out.exists(), "the writability check leaves nothing behind");
        assert_eq!(
            check_outputs(std::slice::from_ref(&data), &data, None),
            Err(TuneError::OverwritesData(data.clone()))
        );
        // The checkpoint's temporary file would land on the data.
        let ckpt = dir.join("d");
        std::fs::rename(&data, dir.join("d.tmp")).unwrap();
        let moved = dir.join("d.tmp");
        assert_eq!(
            check_outputs(std::slice::from_ref(&moved), &out, Some(&ckpt)),
            Err(TuneError::OverwritesData(moved.clone()))
        );
        let e = check_outputs(&[], &out, Some(&out)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the checkpoint {} is the output file: name another with --checkpoint",
                out.display()
            )
        );
        let e = check_writable(&dir).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot write {}: it is a folder", dir.display())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
