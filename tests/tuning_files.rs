//! The weight files shipped in `tuning/` load and mean what they say.

use tessera::games::othello::eval::{PARAMS, Weights};

#[test]
fn othello_baseline_weights_file_equals_the_built_in_defaults() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tuning/othello-baseline.json");
    let w = Weights::load(&path).unwrap();
    assert_eq!(w, Weights::default());
    assert_eq!(w.0.len(), PARAMS.len());
    // The file is exactly what `to_json` writes, so it can be regenerated.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.trim_end(), Weights::default().to_json());
}

#[test]
fn othello_pattern_weights_file_loads_says_how_it_was_made_and_plays_sensibly() {
    use tessera::games::othello::Position;
    use tessera::games::othello::eval::Eval;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tuning/othello-patterns.bin");
    let e = Eval::load(&path).unwrap();
    let pw = e.patterns().expect("a pattern weights file");
    let header = pw.header().join("\n");
    for what in [
        "tessera selfplay othello",
        "tessera tune othello",
        "Elo",
        "seed",
    ] {
        assert!(header.contains(what), "header lacks '{what}':\n{header}");
    }
    // The start position is close to even; owning all four corners is a big lead.
    let start = Position::start();
    assert!(e.score(start.player(), start.opponent()).abs() < 300);
    // On the FFO positions (20-30 empties) the evaluation predicts the exact result's
    // sign far more often than chance and closer than the baseline evaluation.
    let base = Eval::default();
    let (mut agree, mut err, mut base_err) = (0, 0i64, 0i64);
    let text = include_str!("data/othello/ffo-40-59.txt");
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let pos: Position = format!("{} {}", f[1], f[2]).parse().unwrap();
        let exact: i64 = f[3].parse().unwrap();
        let v = i64::from(e.score(pos.player(), pos.opponent()));
        let b = i64::from(base.score(pos.player(), pos.opponent()));
        agree += i32::from((v > 0) == (exact > 0) || exact == 0);
        err += (v - 100 * exact).abs();
        base_err += (b - 100 * exact).abs();
    }
    assert!(agree >= 15, "{agree} of 20");
    assert!(err < base_err, "{err} vs {base_err}");
}

#[test]
fn othello_texel_weights_file_loads_and_says_how_it_was_made() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tuning/othello-texel.txt");
    let w = Weights::load(&path).unwrap();
    assert_ne!(w, Weights::default());
    let text = std::fs::read_to_string(&path).unwrap();
    for what in [
        "tessera tune othello --method texel",
        "selfplay",
        "Elo",
        "seed",
    ] {
        assert!(text.contains(what), "header lacks '{what}'");
    }
    // Every weight is written, with its range.
    let lines = text.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(lines, PARAMS.len());
}
