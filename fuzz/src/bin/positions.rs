//! AFL entry point of the `positions` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("positions", data);
    });
}
