// A schema with an enum, a message with a string and arrays, a union, namespaces and an
// #include, compiled by include_clad! and used: construct, pack, unpack, JSON round trip.
use clad_runtime::wire::Wire;

mod clad {
    clad_macros::include_clad!("robot.clad", include_dirs = ["tests/schemas"]);
}

// The runtime path option: generated code reaches the runtime through a re-export.
mod rt {
    pub use clad_runtime::*;
}
mod clad_rt {
    clad_macros::include_clad!(
        "tests/schemas/shared.clad",
        runtime = "crate::rt",
    );
}

use clad::robot::{Command, Mood, SayText, Stop};
use clad::shared::Voice;

fn main() {
    let say = SayText {
        voice: Voice::Whisper,
        text: "hello".to_owned(),
        mood: Mood::Curious,
        durations: vec![1, 2, 300],
        position: [-1, 0, 7],
    };
    let bytes = say.pack().unwrap();
    assert_eq!(bytes.len(), say.packed_size());
    assert_eq!(SayText::unpack(&bytes).unwrap(), say);

    let cmd = Command::from(say.clone());
    let bytes = cmd.pack().unwrap();
    assert_eq!(bytes[0], 0, "tag of `say`");
    assert_eq!(Command::unpack(&bytes).unwrap(), cmd);
    assert_eq!(Command::Stop(Stop {}).pack().unwrap(), [1]);

    let json = serde_json::to_string(&cmd).unwrap();
    let back: Command = serde_json::from_str(&json).unwrap();
    assert_eq!(back, cmd);

    assert_eq!(Mood::Sad.value(), 5);
    assert_eq!(Voice::Default.value(), -1);
    assert_eq!(clad_rt::shared::Voice::Whisper.value(), 0x10);
    assert_eq!(clad::ROBOT_FILE_HASH.len(), 32);
    // The constant is named after the file, however its path was spelled.
    assert_eq!(clad_rt::SHARED_FILE_HASH, clad::SHARED_FILE_HASH);
}
