//! AFL entry point of the `records` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("records", data);
    });
}
