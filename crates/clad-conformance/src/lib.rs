//! Every conformance schema compiled through `clad_codegen::Builder` (see `build.rs`), one
//! module per compile root, and the checks the vector tests run on each generated type.

use robot_runtime::wire::Wire;
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

include!(concat!(env!("OUT_DIR"), "/roots.rs"));

/// One golden vector: CLAD-JSON `value` must pack to `hex`; `hex` must unpack to an equal
/// value; that value's JSON must read back to the same value and equal `value`.
pub fn check_vector<T>(value: &serde_json::Value, hex: &[u8]) -> Result<(), String>
where
    T: Wire + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let from_json: T =
        serde_json::from_value(value.clone()).map_err(|e| format!("JSON -> value: {e}"))?;
    let packed = from_json.pack().map_err(|e| format!("pack: {e}"))?;
    if packed != hex {
        return Err(format!(
            "pack: got {}, want {}",
            to_hex(&packed),
            to_hex(hex)
        ));
    }
    if from_json.packed_size() != hex.len() {
        return Err(format!(
            "packed_size {} != {}",
            from_json.packed_size(),
            hex.len()
        ));
    }
    let unpacked = T::unpack(hex).map_err(|e| format!("unpack: {e}"))?;
    if unpacked != from_json {
        return Err(format!("unpack: got {unpacked:?}, want {from_json:?}"));
    }
    let json = serde_json::to_value(&unpacked).map_err(|e| format!("value -> JSON: {e}"))?;
    let back: T = serde_json::from_value(json.clone()).map_err(|e| format!("JSON again: {e}"))?;
    if back != unpacked {
        return Err(format!("JSON round trip: got {back:?}, want {unpacked:?}"));
    }
    if &json != value {
        return Err(format!("canonical JSON: got {json}, want {value}"));
    }
    Ok(())
}

/// Unpacks arbitrary bytes; any result is fine, a panic is not. Successful unpacks must
/// re-pack to the same bytes.
pub fn fuzz_unpack<T: Wire + Debug>(bytes: &[u8]) {
    if let Ok(v) = T::unpack(bytes) {
        match v.pack() {
            Ok(again) => assert_eq!(again, bytes, "{v:?} re-packs differently"),
            Err(e) => panic!("{v:?} unpacked but does not pack: {e}"),
        }
    }
}

/// Lowercase hex.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses lowercase hex.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}
