//! Session configurations.
//!
//! [`peer`] builds a peer-mode configuration with explicit endpoints; [`from_file`] reads a
//! Zenoh JSON5 configuration file (any setting Zenoh has). [`open`] opens a session.
//!
//! Multicast scouting (peers finding each other on the LAN by UDP multicast) is a parameter:
//! tools and tests that name their endpoints turn it off, so nothing leaves the addresses
//! given. Without it two peers find each other only through `connect` endpoints (and gossip
//! over connections they already have).

use zenoh::{Config, Session, Wait};

use crate::Error;

/// A peer-mode configuration: listen on `listen`, connect to `connect` (Zenoh locators such
/// as `tcp/127.0.0.1:7447`), multicast scouting on or off. Connecting waits up to 10 s for
/// every `connect` endpoint when the session opens, then keeps retrying in the background.
pub fn peer(listen: &[&str], connect: &[&str], multicast_scouting: bool) -> Result<Config, Error> {
    let mut config = Config::default();
    let list = |eps: &[&str]| {
        let quoted: Vec<String> = eps.iter().map(|e| format!("{e:?}")).collect();
        format!("[{}]", quoted.join(","))
    };
    config.insert_json5("mode", r#""peer""#)?;
    config.insert_json5("listen/endpoints", &list(listen))?;
    config.insert_json5("connect/endpoints", &list(connect))?;
    config.insert_json5("connect/timeout_ms", "10000")?;
    config.insert_json5(
        "scouting/multicast/enabled",
        if multicast_scouting { "true" } else { "false" },
    )?;
    Ok(config)
}

/// Reads a Zenoh configuration file (JSON5).
pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Config, Error> {
    Ok(Config::from_file(path)?)
}

/// Opens a session (blocking until the listen endpoints are up and the connect endpoints
/// are reached or their timeout passed).
pub fn open(config: Config) -> Result<Session, Error> {
    Ok(zenoh::open(config).wait()?)
}
