//! AFL entry point of the `gtp` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("gtp", data);
    });
}
