//! `unpack_into` gives what `unpack` gives, whatever the value held before, and reports
//! the same errors; after an error the value is still usable.

use robot_example::clad::bench::*;
use robot_example::samples;
use robot_runtime::wire::{UnpackErrorKind, Wire};

/// Every pair of (old value, new bytes): the result equals `unpack`.
#[test]
fn agrees_with_unpack_whatever_the_value_held() {
    let mut short_state = samples::robot_state();
    short_state.sightings.truncate(1);
    let mut short_audio = samples::cloud_audio();
    if let CloudAudio::Audio(a) = &mut short_audio {
        a.data.truncate(3);
    }
    let events = [
        samples::ping(),
        samples::device_info(),
        Event::Stop(Stop {}),
        Event::DeviceInfo(DeviceInfo {
            serial: "a much longer serial number than the sample's".into(),
            ..Default::default()
        }),
    ];
    for old in &events {
        for new in &events {
            let bytes = new.pack().unwrap();
            let mut value = old.clone();
            value.unpack_into(&bytes).unwrap();
            assert_eq!(&value, new, "{old:?} -> {new:?}");
        }
    }
    for (old, new) in [
        (samples::robot_state(), short_state.clone()),
        (short_state.clone(), samples::robot_state()),
    ] {
        let mut value = old;
        value.unpack_into(&new.pack().unwrap()).unwrap();
        assert_eq!(value, new);
    }
    for (old, new) in [
        (samples::cloud_audio(), short_audio.clone()),
        (short_audio.clone(), samples::cloud_audio()),
        (CloudAudio::Ping(Ping { seq: 1 }), samples::cloud_audio()),
        (samples::cloud_audio(), CloudAudio::Stop(Stop {})),
    ] {
        let mut value = old;
        value.unpack_into(&new.pack().unwrap()).unwrap();
        assert_eq!(value, new);
    }
    let mut mic = MicData::default();
    mic.unpack_into(&samples::mic_data().pack().unwrap())
        .unwrap();
    assert_eq!(mic, samples::mic_data());
    let mut face = Observation::Ping(Ping { seq: 9 });
    face.unpack_into(&samples::observed_face().pack().unwrap())
        .unwrap();
    assert_eq!(face, samples::observed_face());
}

/// Same errors as `unpack` (kind, offset, path), including trailing bytes; the value is
/// still valid afterwards and reads the next input correctly.
#[test]
fn same_errors_and_a_valid_value_after_them() {
    let good = samples::robot_state().pack().unwrap();
    let mut inputs: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
    let mut long = good.clone();
    long.push(0);
    inputs.push(long);
    let mut bad_enum = good.clone();
    bad_enum[140 + 13 * 2 + 4] = 9; // sightings[2].objectType
    inputs.push(bad_enum);
    let mut above_max = good.clone();
    above_max[139] = 17; // 17 sightings, declared maximum 16
    inputs.push(above_max);
    let mut value = samples::robot_state();
    for input in &inputs {
        let want = RobotState::unpack(input).unwrap_err();
        let got = value.unpack_into(input).unwrap_err();
        assert_eq!(got, want);
        assert_eq!(got.to_string(), want.to_string());
        // Still a value: it packs (its arrays within their maxima) and reads the next input.
        value.pack().unwrap();
    }
    value.unpack_into(&good).unwrap();
    assert_eq!(value, samples::robot_state());

    // A bulk-decoded number array is reported at its first byte, whole size as `need`.
    let mic = samples::mic_data().pack().unwrap();
    let mut value = samples::mic_data();
    let err = value.unpack_into(&mic[..100]).unwrap_err();
    assert_eq!(err, MicData::unpack(&mic[..100]).unwrap_err());
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated {
            need: 1292,
            left: 100
        }
    );
    let audio = samples::cloud_audio().pack().unwrap();
    let err = CloudAudio::unpack(&audio[..100]).unwrap_err();
    assert_eq!(err.to_string(), "truncated input at byte 3 while reading Bench::CloudAudio.audio.data: need 1290 bytes, 97 left");
    let mut value = samples::cloud_audio();
    assert_eq!(value.unpack_into(&audio[..100]).unwrap_err(), err);
    // Invalid UTF-8 in the face's name leaves the name as it was.
    let mut bytes = samples::observed_face().pack().unwrap();
    bytes[54] = 0xFF;
    let mut value = samples::observed_face();
    let err = value.unpack_into(&bytes).unwrap_err();
    assert_eq!(err, Observation::unpack(&bytes).unwrap_err());
    let Observation::RobotObservedFace(face) = &value else {
        panic!("member changed: {value:?}")
    };
    assert_eq!(face.name, "Lorenzo");
}
