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
