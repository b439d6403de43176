//! The engine presets a user can name (`tessera engines`): each one's game, what it plays
//! (algorithm and limit) and the first sentence of its file's comment, as a fastchess or
//! Edax user looks up the engines on offer.

use std::path::Path;

use serde::Serialize;

use super::EngineSpec;
use crate::search::Limits;

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
    /// For a family of presets named by a number (the levels `othello-level-N`), the names
    /// it stands for; `name` is then a description (`othello-level-1 .. othello-level-60`),
    /// not a name `--engine` takes. Absent from the JSON of a single preset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<PresetFamily>,
}

/// The names of a preset family: `prefix` followed by a whole number in `min..=max`, in
/// plain decimal (`othello-level-7`, not `othello-level-07`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PresetFamily {
    /// The text before the number (`othello-level-`).
    pub prefix: String,
    /// The smallest number (1).
    pub min: u32,
    /// The largest number (60).
    pub max: u32,
}

/// The presets for `game` (every game when `None`), sorted by name: the built-in ones and
/// those of `engines/` in the working directory, plus one line for the level family
/// `othello-level-1 .. othello-level-60` (with its [`PresetFamily`]).
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
            family: None,
        });
    }
    if game.is_none_or(|g| g == "othello") {
        let family = PresetFamily {
            prefix: "othello-level-".into(),
            min: 1,
            max: Limits::MAX_DEPTH,
        };
        out.push(PresetInfo {
            name: format!("{p}{} .. {p}{}", family.min, family.max, p = family.prefix),
            game: "othello".into(),
            settings: "alphabeta, level N".into(),
            about: "Strength level N as Edax's -l N: depth N, exact from 2N empties (at most 24)."
                .into(),
            family: Some(family),
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

    /// Every listed name is one `--engine` takes, except the level family's line, whose
    /// `family` gives the names it stands for (in the JSON too; single presets have no
    /// `family` key).
    #[test]
    fn the_level_family_says_which_names_it_stands_for() {
        let all = presets(None).unwrap();
        for p in all.iter().filter(|p| p.family.is_none()) {
            assert!(EngineSpec::resolve(&p.name).is_ok(), "{}", p.name);
        }
        let levels: Vec<_> = all.iter().filter(|p| p.family.is_some()).collect();
        assert_eq!(levels.len(), 1);
        let f = levels[0].family.as_ref().unwrap();
        assert_eq!((f.prefix.as_str(), f.min, f.max), ("othello-level-", 1, 60));
        assert_eq!(levels[0].name, "othello-level-1 .. othello-level-60");
        assert!(EngineSpec::resolve(&levels[0].name).is_err());
        for n in [f.min, f.max] {
            let spec = EngineSpec::resolve(&format!("{}{n}", f.prefix)).unwrap();
            assert_eq!((spec.game.as_str(), spec.level), ("othello", Some(n)));
        }
        for n in [f.min - 1, f.max + 1] {
            assert!(EngineSpec::resolve(&format!("{}{n}", f.prefix)).is_err());
        }
        let json = serde_json::to_value(&all).unwrap();
        let rows = json.as_array().unwrap();
        assert_eq!(rows.iter().filter(|r| r.get("family").is_some()).count(), 1);
        assert_eq!(
            rows.last().unwrap()["family"],
            serde_json::json!({"prefix": "othello-level-", "min": 1, "max": 60})
        );
        assert!(
            presets(Some("quixo"))
                .unwrap()
                .iter()
                .all(|p| p.family.is_none())
        );
    }

    #[test]
    fn first_sentences_end_at_the_first_full_stop() {
        assert_eq!(first_sentence("# One. Two.\n# Three\nname = \"x\""), "One.");
        assert_eq!(first_sentence("# No stop\n# here\n"), "No stop here");
        assert_eq!(first_sentence("name = \"x\""), "");
    }
}
