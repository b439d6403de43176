//! AFL entry point of the `nboard` fuzz target (see `tessera_fuzz::run`).

fn main() {
    afl::fuzz!(|data: &[u8]| {
        tessera_fuzz::run("nboard", data);
    });
}
