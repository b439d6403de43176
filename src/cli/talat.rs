//! Talat specifics of the command line (`talat` and `talat-2p`): none beyond the defaults.

use tessera::games::talat::{Talat, Talat2p};

use super::games::CliGame;

impl CliGame for Talat {}

impl CliGame for Talat2p {}
