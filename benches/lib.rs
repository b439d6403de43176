//! The `tessera-benches` package holds only criterion benchmarks (`othello.rs`, `quixo.rs`,
//! `talat.rs`, `multiplayer.rs`); this empty library is the package's required target.
//! Run them from the repository root with `cargo bench -p tessera-benches`.
