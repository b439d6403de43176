//! AFL entry point of the `ggf` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("ggf", data);
    });
}
