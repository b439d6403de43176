//! AFL entry point of the `tuning` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("tuning", data);
    });
}
