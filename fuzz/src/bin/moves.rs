//! AFL entry point of the `moves` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("moves", data);
    });
}
