//! `include_clad!` used directly by this crate's tests (paths relative to this crate's
//! `CARGO_MANIFEST_DIR`).

use clad_runtime::wire::Wire;

mod clad {
    clad_macros::include_clad!("robot.clad", include_dirs = ["tests/schemas"]);
}

use clad::robot::{Command, Mood, SayText, Stop};
use clad::shared::Voice;

#[test]
fn generated_types_pack_unpack_and_round_trip_json() {
    let say = SayText {
        voice: Voice::Robot,
        text: "beep".to_owned(),
        mood: Mood::Sad,
        durations: vec![7; 3],
        position: [1, -2, 3],
    };
    let bytes = say.pack().unwrap();
    // voice (int_16), text (uint_8 length + bytes), mood (uint_8), durations (uint_8 count +
    // 3 × uint_16), position (3 × int_32).
    assert_eq!(bytes.len(), 2 + 1 + 4 + 1 + 1 + 6 + 12);
    assert_eq!(SayText::unpack(&bytes).unwrap(), say);

    for cmd in [Command::Say(say), Command::Stop(Stop {})] {
        assert_eq!(Command::unpack(&cmd.pack().unwrap()).unwrap(), cmd);
        let json = serde_json::to_value(&cmd).unwrap();
        assert_eq!(json["type"], cmd.name());
        assert_eq!(serde_json::from_value::<Command>(json).unwrap(), cmd);
    }
}

#[test]
fn same_values_and_hashes_as_the_schema_says() {
    assert_eq!(Mood::ALL.map(Mood::value), [0, 5, 6]);
    assert_eq!(Voice::ALL.map(Voice::value), [-1, 0, 0x10]);
    assert_eq!(SayText::NAME, "Robot::SayText");
    assert_eq!(SayText::VERSION_HASH_STR.len(), 32);
    assert_eq!(clad::ROBOT_FILE_HASH.len(), 32);
    assert_ne!(clad::ROBOT_FILE_HASH, clad::SHARED_FILE_HASH);
}

mod clad_views {
    clad_macros::include_clad!(
        "robot.clad",
        include_dirs = ["tests/schemas"],
        views = ["Robot::Command"],
    );
}

#[test]
fn views_decode_without_copying_the_strings() {
    use clad_runtime::wire::WireView;
    use clad_views::robot::{Command, CommandView, SayText, SayTextView};

    let cmd = Command::Say(SayText {
        text: "beep".to_owned(),
        durations: vec![1, 2],
        ..Default::default()
    });
    let bytes = cmd.pack().unwrap();
    let view = CommandView::unpack_view(&bytes).unwrap();
    let CommandView::Say(SayTextView { text, .. }) = view else {
        panic!("{view:?}");
    };
    // The string points into the packed bytes.
    let at = bytes.windows(4).position(|w| w == b"beep").unwrap();
    assert_eq!(text.as_ptr(), bytes[at..].as_ptr());
    assert_eq!(view, cmd.view());
    assert_eq!(view.tag(), cmd.tag());
    assert_eq!(view.into_owned(), cmd);
}
