//! The engine presets a user can name (`tessera engines`): each one's game, what it plays
//! (algorithm and limit) and the first sentence of its file's comment, as a fastchess or
//! Edax user looks up the engines on offer.

use std::path::Path;

use serde::Serialize;

use super::EngineSpec;

/// One preset: its name, game, a short settings line and what its file says it is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresetInfo {
    /// The name to give `--engine` (`othello-best-t100`).
    pub name: String,
    /// The game id (`othello`).
    pub game: String,
    /// Algorithm and limit, e.g. `alphabeta, 100 ms/move`.
    pub settings: String,
    /// The first sentence of the preset file's leading comment (empty when it has none).
    pub about: String,
}

/// The presets for `game` (every game when `None`), sorted by name: the built-in ones and
/// those of `engines/` in the working directory, plus one line for the level family
/// `othello-level-1 .. othello-level-60`.
///
/// # Errors
/// A preset file in `engines/` that does not parse (named with its error).
pub fn presets(game: Option<&str>) -> Result<Vec<PresetInfo>, String> {
    let mut out = Vec::new();
    for name in EngineSpec::known_presets() {
        let spec = EngineSpec::resolve(&name)?;
        if game.is_some_and(|g| g != spec.game) {
            continue;
        }
        let local = Path::new("engines").join(format!("{name}.toml"));
        let text = match std::fs::read_to_string(&local) {
            Ok(t) => t,
            Err(_) => EngineSpec::builtin_preset_text(&name)
                .unwrap_or_default()
                .to_string(),
        };
        out.push(PresetInfo {
            name,
            game: spec.game.clone(),
            settings: settings_line(&spec),
            about: first_sentence(&text),
        });
    }
    if game.is_none_or(|g| g == "othello") {
        out.push(PresetInfo {
            name: "othello-level-1 .. othello-level-60".into(),
            game: "othello".into(),
            settings: "alphabeta, level N".into(),
            about: "Strength level N as Edax's -l N: depth N, exact from 2N empties (at most 24)."
                .into(),
        });
    }
    Ok(out)
}

/// `alphabeta, depth 4` / `mcts, 2000 iterations` / `gtp program`.
fn settings_line(spec: &EngineSpec) -> String {
    if spec.protocol == super::Protocol::Gtp {
        return "external GTP program".into();
    }
    let limit = if let Some(l) = spec.level {
        format!("level {l}")
    } else if let Some(t) = spec.time_ms {
        format!("{t} ms/move")
    } else if let Some(n) = spec.iterations {
        format!("{n} iterations")
    } else if let Some(n) = spec.nodes {
        format!("{n} nodes")
    } else if let Some(d) = spec.depth {
        format!("depth {d}")
    } else if spec.tc.is_some() || spec.st.is_some() {
        "clock".into()
    } else {
        "depth 6".into()
    };
    let threads = match spec.threads {
        Some(t) if t > 1 => format!(", {t} threads"),
        _ => String::new(),
    };
    format!("{}, {limit}{threads}", spec.algo.name())
}

/// The first sentence of the `#` comment lines at the top of a preset file.
fn first_sentence(text: &str) -> String {
    let comment: Vec<&str> = text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .map(|l| l.trim_start().trim_start_matches('#').trim())
        .collect();
    let joined = comment.join(" ");
    match joined.find(". ") {
        Some(i) => joined[..=i].to_string(),
        None => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_preset_is_listed_with_its_game() {
        let all = presets(None).unwrap();
        let best = all.iter().find(|p| p.name == "othello-best-t100").unwrap();
        assert_eq!(best.game, "othello");
        assert_eq!(best.settings, "alphabeta, 100 ms/move");
        assert!(
            best.about.starts_with("The strongest Othello engine"),
            "{}",
            best.about
        );
        let quixo = presets(Some("quixo")).unwrap();
        assert!(!quixo.is_empty());
        assert!(quixo.iter().all(|p| p.game == "quixo"));
        assert!(
            presets(Some("talat"))
                .unwrap()
                .iter()
                .any(|p| p.settings.starts_with("brs-plus"))
        );
    }

    /// The built-in presets' comments (`engines/*.toml`, compiled in) count plies in
    /// English: "1 ply", "2 plies".
    #[test]
    fn preset_comments_say_1_ply() {
        for name in EngineSpec::known_presets() {
            let Some(text) = EngineSpec::builtin_preset_text(&name) else {
                continue;
            };
            let words: Vec<&str> = text.split_whitespace().collect();
            for w in words.windows(2) {
                assert!(
                    !(w[0] == "1" && w[1].starts_with("plies")),
                    "{name}: '1 plies' in its comment"
                );
            }
        }
        assert!(
            EngineSpec::builtin_preset_text("othello-ab-d1")
                .unwrap()
                .contains("fixed depth of 1 ply ")
        );
    }

    #[test]
    fn first_sentences_end_at_the_first_full_stop() {
        assert_eq!(first_sentence("# One. Two.\n# Three\nname = \"x\""), "One.");
        assert_eq!(first_sentence("# No stop\n# here\n"), "No stop here");
        assert_eq!(first_sentence("name = \"x\""), "");
    }
}
