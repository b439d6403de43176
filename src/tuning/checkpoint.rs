//! Writing a fit's checkpoint: the one writer every tuner's checkpoint goes through
//! (SPSA, Texel and pattern fits), so none can leave a half-written file behind.

use std::path::{Path, PathBuf};

/// The temporary file [`write()`] writes first: the checkpoint's whole name with `.tmp`
/// appended (`fit.ckpt` -> `fit.ckpt.tmp`), so it never replaces only the extension and lands
/// on another file of the same stem (a data file `fit.tmp`, say). Callers that protect their
/// inputs check this path too.
#[must_use]
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `bytes` to `path` atomically: to [`temp_path`] first, then renamed over `path`, so
/// an interrupted run leaves the previous checkpoint intact.
///
/// # Errors
/// `cannot write checkpoint PATH: ...` when the file cannot be written or renamed.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temp_path(path);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write checkpoint {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_file_keeps_the_whole_name() {
        assert_eq!(temp_path(Path::new("d/q.ckpt")), Path::new("d/q.ckpt.tmp"));
        assert_eq!(temp_path(Path::new("q")), Path::new("q.tmp"));
        // Another file with the checkpoint's stem is not touched by a write.
        let dir = std::env::temp_dir().join(format!("tessera-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("q.tmp");
        std::fs::write(&data, b"data").unwrap();
        write(&dir.join("q.ckpt"), b"checkpoint").unwrap();
        assert_eq!(std::fs::read(&data).unwrap(), b"data");
        assert_eq!(std::fs::read(dir.join("q.ckpt")).unwrap(), b"checkpoint");
        assert!(!temp_path(&dir.join("q.ckpt")).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
