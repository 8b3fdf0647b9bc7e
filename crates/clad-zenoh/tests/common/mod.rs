//! Shared by the integration tests: the generated types and a pair of peer sessions on the
//! loopback interface.

#![allow(dead_code)]

use std::time::Duration;

use clad_zenoh::{config, zenoh::Session};

/// `cloud.clad`, `userIntent.clad` with the intent map, `hri.clad` (see build.rs).
#[allow(clippy::all, missing_docs)]
pub mod clad {
    include!(concat!(env!("OUT_DIR"), "/clad.rs"));
}

/// `cloud_v2.clad`: another version of `CloudMic::Message`.
#[allow(clippy::all, missing_docs)]
pub mod v2 {
    include!(concat!(env!("OUT_DIR"), "/clad_v2.rs"));
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    l.local_addr().expect("local address").port()
}

/// Two peer sessions connected over `tcp/127.0.0.1:<port>`, multicast scouting off: the
/// first listens, the second connects to it. Nothing else is listened on or dialled.
pub fn pair() -> (Session, Session) {
    for _ in 0..5 {
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let Ok(a) = config::peer(&[&ep], &[], false).and_then(config::open) else {
            continue; // the port was taken in between: another one
        };
        let b = config::peer(&[], &[&ep], false)
            .and_then(config::open)
            .expect("second session connects");
        return (a, b);
    }
    panic!("no free loopback port");
}

/// How long a test waits for one expected sample before failing.
pub const WAIT: Duration = Duration::from_secs(10);
