//! [`SpecError`]: why an engine description (a preset name, a `.toml` preset, an inline
//! `key=value` spec) could not be turned into an [`super::EngineSpec`].

use crate::game::files::FileError;
use std::fmt;

/// Why an engine description was refused, by kind; `Display` is the one-line message the
/// command line prints.
///
/// The kinds that come from one field's check keep the message that check words (it names
/// the field and the value), beside the field; errors inside a preset file, an inline spec
/// or a named engine are wrapped in [`SpecError::InPreset`], [`SpecError::InInline`] or
/// [`SpecError::InEngine`], which add the prefix naming it; [`SpecError::root`] looks
/// through them.
///
/// ```
/// use tessera::engine::spec::{EngineSpec, SpecError};
///
/// let e = EngineSpec::from_inline("depth=0", "othello").unwrap_err();
/// assert!(matches!(e.root(), SpecError::BadValue { key: Some(k), .. } if k == "depth"));
/// assert_eq!(
///     e.to_string(),
///     "inline engine 'depth=0': depth must be in 1..=60 plies, got 0"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecError {
    /// A name that is no preset (built in, in `engines/`, or of the `othello-level-N`
    /// family), or an empty name. Examples: `unknown engine 'nosuch' (known presets: ...;
    /// or give a path to a .toml file)`; `the engine name is empty (`tessera engines` lists
    /// the presets)`.
    UnknownEngine {
        /// The name as given.
        name: String,
        /// The one-line message (it lists the known presets, or says the name is empty).
        message: String,
    },
    /// A path to a file that is not a `.toml` preset, or to a folder. Examples: `engine
    /// 'notes.txt' is a file but not a .toml preset (give a preset name, a path ending in
    /// .toml, or an inline spec such as name=a,depth=6)`; `engine 'engines' is a folder,
    /// not a preset (give a preset name (`tessera engines` lists them), ...)`.
    NotAPreset {
        /// The path as given.
        path: String,
        /// Whether the path is a folder.
        folder: bool,
    },
    /// A preset file that cannot be read (missing, a folder, too large, not UTF-8).
    /// Example: `cannot read engine preset x.toml: No such file or directory (os error 2)`.
    File(FileError),
    /// Text that is not TOML (in a preset file, at `line` from 1) or an inline part that is
    /// not `key=value`. Example: `engine preset a.toml line 2: duplicate key `depth``.
    Syntax {
        /// The line of a preset file, when the parser knows it.
        line: Option<usize>,
        /// The parser's message.
        message: String,
    },
    /// A key that is no field of an engine spec. Example: `unknown field 'dpeth' (valid
    /// fields: ...)`.
    UnknownKey {
        /// The key as given.
        key: String,
        /// The one-line message (it lists the valid fields).
        message: String,
    },
    /// A required key left out. Example: `missing field `name``.
    MissingKey {
        /// The key.
        key: String,
        /// The one-line message.
        message: String,
    },
    /// A key given twice in an inline spec. Example: `depth is given twice`.
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// A value of the wrong type or out of range for its key. Example: `depth must be in
    /// 1..=60 plies, got 0`.
    BadValue {
        /// The key, when one key is at fault.
        key: Option<String>,
        /// The one-line message naming the key and the value.
        message: String,
    },
    /// Settings that do not go together, or a setting without one it needs. Example: `give
    /// tc (a game clock) or st (a time per move), not both`.
    Conflict {
        /// The one-line message naming the settings.
        message: String,
    },
    /// A game id tessera does not know. Example: `unknown game 'chess' (games: othello,
    /// quixo, quixo-4p, talat, talat-2p)`.
    UnknownGame {
        /// The id as given.
        game: String,
    },
    /// An engine of another game than the one asked for. Example: `engine 'q' plays quixo,
    /// not othello`.
    WrongGame {
        /// The engine's name.
        engine: String,
        /// The game it plays.
        plays: String,
        /// The game asked for.
        wanted: String,
    },
    /// An error in a preset file; `Display` prefixes `engine preset ORIGIN: ` (`engine
    /// preset ORIGIN line N: ` for a syntax error with a line).
    InPreset {
        /// The preset's file or name.
        origin: String,
        /// What is wrong in it.
        source: Box<SpecError>,
    },
    /// An error in an inline spec; `Display` prefixes `inline engine 'TEXT': `.
    InInline {
        /// The inline spec as given.
        text: String,
        /// What is wrong in it.
        source: Box<SpecError>,
    },
    /// An error changing a named engine (a level it cannot take); `Display` prefixes
    /// `engine 'NAME': `.
    InEngine {
        /// The engine's name.
        name: String,
        /// What is wrong.
        source: Box<SpecError>,
    },
}

impl SpecError {
    /// The failure itself, under any [`SpecError::InPreset`], [`SpecError::InInline`] or
    /// [`SpecError::InEngine`] context, for matching on its kind.
    #[must_use]
    pub fn root(&self) -> &SpecError {
        match self {
            Self::InPreset { source, .. }
            | Self::InInline { source, .. }
            | Self::InEngine { source, .. } => source.root(),
            other => other,
        }
    }

    /// A [`SpecError::BadValue`] of `key`.
    pub(crate) fn bad(key: &str, message: impl Into<String>) -> Self {
        Self::BadValue {
            key: Some(key.to_string()),
            message: message.into(),
        }
    }

    /// A [`SpecError::Conflict`].
    pub(crate) fn conflict(message: impl Into<String>) -> Self {
        Self::Conflict {
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownEngine { message, .. }
            | Self::Syntax { message, .. }
            | Self::UnknownKey { message, .. }
            | Self::MissingKey { message, .. }
            | Self::BadValue { message, .. }
            | Self::Conflict { message } => f.write_str(message),
            Self::NotAPreset {
                path,
                folder: false,
            } => write!(
                f,
                "engine '{path}' is a file but not a .toml preset (give a preset name, a path \
                 ending in .toml, or an inline spec such as name=a,depth=6)"
            ),
            Self::NotAPreset { path, folder: true } => write!(
                f,
                "engine '{path}' is a folder, not a preset (give a preset name (`tessera \
                 engines` lists them), a path ending in .toml, or an inline spec such as \
                 name=a,depth=6)"
            ),
            Self::File(e) => e.fmt(f),
            Self::DuplicateKey { key } => write!(f, "{key} is given twice"),
            Self::UnknownGame { game } => crate::games::UnknownGame(game.clone()).fmt(f),
            Self::WrongGame {
                engine,
                plays,
                wanted,
            } => write!(f, "engine '{engine}' plays {plays}, not {wanted}"),
            Self::InPreset { origin, source } => match source.as_ref() {
                Self::Syntax {
                    line: Some(l),
                    message,
                } => write!(f, "engine preset {origin} line {l}: {message}"),
                other => write!(f, "engine preset {origin}: {other}"),
            },
            Self::InInline { text, source } => write!(f, "inline engine '{text}': {source}"),
            Self::InEngine { name, source } => write!(f, "engine '{name}': {source}"),
        }
    }
}

impl std::error::Error for SpecError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::File(e) => Some(e),
            Self::InPreset { source, .. }
            | Self::InInline { source, .. }
            | Self::InEngine { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl From<FileError> for SpecError {
    fn from(e: FileError) -> Self {
        Self::File(e)
    }
}

impl From<SpecError> for String {
    fn from(e: SpecError) -> String {
        e.to_string()
    }
}
