//! The benchmark shapes have the packed sizes of the original robot's benchmark messages.

use robot_example::clad::bench::*;
use robot_example::samples;
use robot_runtime::wire::Wire;

fn check<T: Wire + PartialEq + std::fmt::Debug>(value: &T, size: usize) -> Vec<u8> {
    let bytes = value.pack().unwrap();
    assert_eq!(bytes.len(), size);
    assert_eq!(value.packed_size(), size);
    let mut buf = [0u8; 2048];
    assert_eq!(value.pack_into(&mut buf).unwrap(), size);
    assert_eq!(&buf[..size], &bytes[..]);
    assert_eq!(T::unpack(&bytes).unwrap(), *value);
    bytes
}

#[test]
fn numbers_is_32_fixed_bytes() {
    assert_eq!(Numbers::PACKED_SIZE, 32);
    assert_eq!(<Numbers as Wire>::FIXED_SIZE, Some(32));
    let bytes = check(&samples::numbers(), 32);
    // Little-endian, packed, in declaration order.
    assert_eq!(bytes[..4], [0x81, 42, 0x36, 0xf7]); // -2250 = 0xf736
    assert_eq!(bytes[4..8], 1_234_567u32.to_le_bytes());
    assert_eq!(bytes[24..], 0x00e2_0142_dead_beef_u64.to_le_bytes());
}

#[test]
fn ping_is_5_bytes() {
    assert_eq!(check(&samples::ping(), 5), [0, 4, 3, 2, 1]);
    assert_eq!(<Event as Wire>::FIXED_SIZE, None);
}

#[test]
fn device_info_is_70_bytes() {
    let bytes = check(&samples::device_info(), 70);
    assert_eq!(bytes[..10], *b"\x02\x0800e20142");
}

#[test]
fn robot_state_is_218_bytes() {
    let state = samples::robot_state();
    assert_eq!(state.sightings.len(), 6);
    assert_eq!(<RobotState as Wire>::MIN_SIZE, 140);
    let bytes = check(&state, 218);
    assert_eq!(bytes[139], 6); // the sightings count, after the 139 fixed bytes
                               // Every nested fixed-size structure is fixed-size.
    assert_eq!(PoseStruct3d::PACKED_SIZE, 28);
    assert_eq!(Vec3::PACKED_SIZE, 12);
    assert_eq!(BatteryState::PACKED_SIZE, 12);
    assert_eq!(ProxSensorData::PACKED_SIZE, 9);
    assert_eq!(ObjectSighting::PACKED_SIZE, 13);
}

/// Generated code checks a run of fixed-size members once; errors keep exact offsets.
#[test]
fn errors_in_fixed_size_runs() {
    use robot_runtime::wire::{PackErrorKind, UnpackErrorKind};

    // Input too short for the 139 fixed bytes of RobotState: reported at the run's start.
    let bytes = samples::robot_state().pack().unwrap();
    let err = RobotState::unpack(&bytes[..100]).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated {
            need: 139,
            left: 100
        }
    );
    assert_eq!(err.offset(), 0);

    // A bad enum inside the run is reported at its own byte, with its field path.
    let mut bad = bytes.clone();
    bad[116] = 9; // offTreadsState
    let err = RobotState::unpack(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid enum value at byte 116 while reading Bench::RobotState.offTreadsState: \
         9 is not a member of Bench::OffTreadsState"
    );
    // In a nested structure inside the run, and in a variable array after it.
    let mut bad = bytes.clone();
    bad[80 + 8] = 7; // battery.level (battery starts at byte 80)
    let err = RobotState::unpack(&bad).unwrap_err();
    assert_eq!(err.offset(), 88);
    assert_eq!(err.path().to_string(), "Bench::RobotState.battery.level");
    let mut bad = bytes.clone();
    bad[140 + 13 * 2 + 4] = 9; // sightings[2].objectType
    let err = RobotState::unpack(&bad).unwrap_err();
    assert_eq!(err.offset(), 170);
    assert_eq!(
        err.path().to_string(),
        "Bench::RobotState.sightings[2].objectType"
    );

    // A one-member structure has no run: the member itself reports.
    let err = Event::unpack(&[0, 1, 2]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated input at byte 1 while reading Bench::Event.ping.seq: need 4 bytes, 2 left"
    );

    // Packing into a short buffer.
    let mut buf = [0u8; 31];
    let err = samples::numbers().pack_into(&mut buf).unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::BufferTooSmall { need: 32, left: 31 }
    );
    // A union member of fixed size is checked together with its tag.
    let mut buf = [0u8; 4];
    let err = samples::ping().pack_into(&mut buf).unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::BufferTooSmall { need: 5, left: 4 }
    );

    // Trailing bytes are still rejected (checked before the value is assembled).
    let mut long = samples::ping().pack().unwrap();
    long.push(0);
    let err = Event::unpack(&long).unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::TrailingBytes { left: 1, .. }
    ));
    assert_eq!(err.offset(), 5);
}

#[test]
fn mic_data_is_1292_fixed_bytes() {
    assert_eq!(MicData::PACKED_SIZE, 1292);
    let bytes = check(&samples::mic_data(), 1292);
    assert_eq!(bytes[12..14], samples::mic_data().data[0].to_le_bytes());
    assert_eq!(bytes[1290..], samples::mic_data().data[639].to_le_bytes());
}

#[test]
fn cloud_audio_is_1293_bytes() {
    let bytes = check(&samples::cloud_audio(), 1293);
    assert_eq!(bytes[..3], [0, 0x85, 0x02]); // tag 0, 645 samples
}

#[test]
fn observed_face_is_135_bytes() {
    let bytes = check(&samples::observed_face(), 135);
    assert_eq!(bytes[53..61], *b"\x07Lorenzo"); // after tag + 52 fixed bytes
}

#[test]
fn engine_robot_state_is_109_bytes() {
    assert_eq!(EngineRobotState::PACKED_SIZE, 108);
    let bytes = check(&samples::engine_robot_state(), 109);
    assert_eq!(bytes[0], EngineToGameTag::RobotState.value());
}

#[test]
fn located_objects_is_186_bytes() {
    assert_eq!(LocatedObjectState::PACKED_SIZE, 46);
    let bytes = check(&samples::located_objects(), 186);
    assert_eq!(
        bytes[..2],
        [EngineToGameTag::LocatedObjectStates.value(), 4]
    );
}
