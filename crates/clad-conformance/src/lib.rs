//! Every conformance schema compiled through `clad_codegen::Builder` (see `build.rs`), one
//! module per schema file, our own edge-case schema ([`edge_cases`]), and the checks the tests
//! run on each generated type.
//!
//! The generated registry maps `(root, schema, CLAD type name)` to the generated Rust type;
//! [`visit`] calls a [`TypeVisitor`] with that type, so one generic function (for example
//! [`check_vector`]) runs on every type. [`SCHEMAS`] lists every compiled schema and its
//! messages, structures and unions.
//!
//! The conformance tree is any folder described by a `vectors/MANIFEST.json` ([`corpus`]):
//! `CLAD_CONFORMANCE_DIR` names it (default `../shared/conformance/message-buffers`),
//! `CLAD_CONFORMANCE_REQUIRE=1` makes its absence an error. [`golden::check_vectors`] runs its
//! vectors through a [`golden::Backend`]; [`golden::GeneratedBackend`] is the generated code.
//!
//! This crate's only normal dependencies are `clad-runtime`, serde and serde_json: that the
//! code generated for a whole conformance tree compiles and passes here proves that generated
//! code needs `clad-runtime` alone, never `robot-runtime`.

use clad_runtime::wire::{HasView, PackErrorKind, UnpackError, Wire, WireView};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

pub mod corpus;
pub mod golden;

include!(concat!(env!("OUT_DIR"), "/roots.rs"));

/// The manifest of the tree `build.rs` compiled ([`DATA_DIR`]); `None` when it had none.
/// Panics when the manifest became unreadable since the build.
pub fn built_manifest() -> Option<corpus::Manifest> {
    DATA_DIR
        .map(|d| corpus::Manifest::load(std::path::Path::new(d)).unwrap_or_else(|e| panic!("{e}")))
}

/// The generated code of the whole synthetic robot-shaped tree (130 files, see
/// `clad-codegen/benches/corpus`), compiled to prove it builds without warnings.
pub mod synthetic_tree {
    include!(concat!(env!("OUT_DIR"), "/synthetic_tree.rs"));
}

/// What every generated message, structure and union implements.
pub trait Generated: Wire + Serialize + DeserializeOwned + PartialEq + Debug + 'static {}

impl<T: Wire + Serialize + DeserializeOwned + PartialEq + Debug + 'static> Generated for T {}

/// A generic operation on one generated type, chosen at run time by [`visit`].
pub trait TypeVisitor {
    /// What the operation returns.
    type Output;
    /// Runs the operation on `T`.
    fn visit<T: Generated>(self) -> Self::Output;
}

/// A generic operation on one generated type that has a borrowed view, chosen at run time
/// by [`visit_view`].
pub trait ViewVisitor {
    /// What the operation returns.
    type Output;
    /// Runs the operation on `T` (and its view `T::View`).
    fn visit<T: Generated + HasView>(self) -> Self::Output;
}

/// One compiled schema file.
#[derive(Debug, Clone, Copy)]
pub struct SchemaInfo {
    /// Compile root under the conformance `schemas/` folder (`@edge` for our own schema).
    pub root: &'static str,
    /// Input name relative to the root.
    pub schema: &'static str,
    /// The generated module.
    pub module: &'static str,
    /// Its messages, structures and unions (including those of included files).
    pub types: &'static [TypeInfo],
}

/// One generated message, structure or union.
#[derive(Debug, Clone, Copy)]
pub struct TypeInfo {
    /// Fully qualified CLAD name.
    pub clad_name: &'static str,
    /// Rust path relative to the schema's module.
    pub rust_path: &'static str,
    /// `message`, `structure` or `union`.
    pub kind: &'static str,
    /// The file that declares it, relative to the compile root.
    pub file: &'static str,
}

/// The root name of our own edge-case schema in [`SCHEMAS`] and [`visit`].
pub const EDGE_ROOT: &str = "@edge";

// ----- golden vectors ----------------------------------------------------------------------

/// Runs one vector through the generated type `ty` of `schema` (compiled in `root`): see
/// [`check_vector`]; for a type with a borrowed view, also [`check_view_agrees`]. `None` when the type does not exist.
pub fn check(
    root: &str,
    schema: &str,
    ty: &str,
    value: &serde_json::Value,
    hex: &[u8],
) -> Option<Result<(), String>> {
    struct CheckVector<'a>(&'a serde_json::Value, &'a [u8]);
    impl TypeVisitor for CheckVector<'_> {
        type Output = Result<(), String>;
        fn visit<T: Generated>(self) -> Self::Output {
            check_vector::<T>(self.0, self.1)
        }
    }
    let owned = visit(root, schema, ty, CheckVector(value, hex))?;
    Some(
        owned.and_then(|()| match check_view(root, schema, ty, hex) {
            Some(Err(e)) => Err(format!("view: {e}")),
            _ => Ok(()),
        }),
    )
}

/// One golden vector: CLAD-JSON `value` must pack to `hex` (and `packed_size`, `MIN_SIZE`,
/// `FIXED_SIZE`, `MAX_SIZE` agree with its length); `hex` must unpack to an equal value that packs to
/// `hex` again, while `hex` less its last byte or with one more byte must not unpack; that
/// value's JSON must read back to the same value and equal `value`.
pub fn check_vector<T: Generated>(value: &serde_json::Value, hex: &[u8]) -> Result<(), String> {
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
    if hex.len() < T::MIN_SIZE
        || T::FIXED_SIZE.is_some_and(|n| n != hex.len())
        || T::MAX_SIZE.is_some_and(|n| n < hex.len())
    {
        return Err(format!(
            "{} bytes, but MIN_SIZE is {}, FIXED_SIZE {:?} and MAX_SIZE {:?}",
            hex.len(),
            T::MIN_SIZE,
            T::FIXED_SIZE,
            T::MAX_SIZE
        ));
    }
    let unpacked = T::unpack(hex).map_err(|e| format!("unpack: {e}"))?;
    if unpacked != from_json {
        return Err(format!("unpack: got {unpacked:?}, want {from_json:?}"));
    }
    match unpacked.pack() {
        Ok(again) if again == hex => {}
        other => return Err(format!("unpack then pack: {other:?}")),
    }
    // Strict: one byte missing or one byte too many is an error.
    if let Some((_, short)) = hex.split_last() {
        if let Ok(v) = T::unpack(short) {
            return Err(format!("unpack of the bytes less the last one gave {v:?}"));
        }
    }
    let mut longer = hex.to_vec();
    longer.push(0);
    if let Ok(v) = T::unpack(&longer) {
        return Err(format!("unpack with a trailing byte gave {v:?}"));
    }
    let json = serde_json::to_value(&unpacked).map_err(|e| format!("value -> JSON: {e}"))?;
    let back: T = serde_json::from_value(json.clone()).map_err(|e| format!("JSON again: {e}"))?;
    if back != unpacked {
        return Err(format!("JSON round trip: got {back:?}, want {unpacked:?}"));
    }
    if &json != value {
        return Err(format!("canonical JSON: got {json}, want {value}"));
    }
    // `unpack_into` agrees with `unpack` on every prefix of the vector (errors), reading
    // into a value that each failed attempt may have left half-overwritten, and then on the
    // whole vector again.
    let mut reused: T =
        serde_json::from_value(value.clone()).map_err(|e| format!("JSON -> value: {e}"))?;
    for cut in 0..hex.len() {
        check_unpack_into(&mut reused, &hex[..cut])?;
    }
    check_unpack_into(&mut reused, hex)?;
    Ok(())
}

/// `reused.unpack_into(bytes)` agrees with `T::unpack(bytes)`: the same error (kind, offset,
/// field path), or both succeed and `reused` then packs to the same bytes as the unpacked
/// value (and equals it, unless a NaN is inside). After an error, `reused` must still be a
/// value that packs or fails to pack with a typed error (never a panic).
pub fn check_unpack_into<T: Generated>(reused: &mut T, bytes: &[u8]) -> Result<(), String> {
    let fresh = T::unpack(bytes);
    match (fresh, reused.unpack_into(bytes)) {
        (Err(a), Err(b)) if a == b => {
            let _ = reused.pack();
            Ok(())
        }
        (Err(a), Err(b)) => Err(format!(
            "unpack_into of {}: error \"{b}\", unpack \"{a}\"",
            to_hex(bytes)
        )),
        (Ok(v), Err(e)) => Err(format!(
            "only unpack_into fails on {} ({e}); unpack gives {v:?}",
            to_hex(bytes)
        )),
        (Err(e), Ok(())) => Err(format!(
            "only unpack fails on {} ({e}); unpack_into gives {reused:?}",
            to_hex(bytes)
        )),
        (Ok(v), Ok(())) => {
            let (a, b) = (v.pack(), reused.pack());
            #[allow(clippy::eq_op)]
            let no_nan = v == v;
            if a.as_ref().ok() != b.as_ref().ok() || (no_nan && v != *reused) {
                return Err(format!(
                    "unpack_into of {} gives {reused:?}, unpack {v:?}",
                    to_hex(bytes)
                ));
            }
            Ok(())
        }
    }
}

// ----- borrowed views ------------------------------------------------------------------------

/// Decodes `bytes` as the view of the generated type `ty` of `schema` and checks it against
/// the owned decode ([`check_view_agrees`]). `None` when the type has no view.
pub fn check_view(root: &str, schema: &str, ty: &str, bytes: &[u8]) -> Option<Result<(), String>> {
    struct Check<'a>(&'a [u8]);
    impl ViewVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<T: Generated + HasView>(self) -> Self::Output {
            check_view_agrees::<T>(self.0)
        }
    }
    visit_view(root, schema, ty, Check(bytes))
}

/// The view decode of any `bytes` agrees with the owned decode: both fail with the same
/// error (kind, offset and field path), or both succeed, `view.into_owned()` packs to the
/// same bytes as the owned value, the owned value's `view()` equals the decoded view (unless
/// it holds a NaN, which is compared through the bytes), and `unpack_view_prefix` reads the
/// same bytes back when junk follows.
pub fn check_view_agrees<T: Generated + HasView>(bytes: &[u8]) -> Result<(), String> {
    let owned = T::unpack(bytes);
    let view = <T::View<'_> as WireView>::unpack_view(bytes);
    let (owned, view) = match (owned, view) {
        (Err(a), Err(b)) if a == b => return Ok(()),
        (Err(a), Err(b)) => return Err(format!("errors differ: owned \"{a}\", view \"{b}\"")),
        (Ok(o), Err(e)) => return Err(format!("only the view fails ({e}); owned {o:?}")),
        (Err(e), Ok(_)) => return Err(format!("only the owned decode fails ({e})")),
        (Ok(o), Ok(v)) => (o, v),
    };
    let own_bytes = owned.pack().map_err(|e| format!("owned pack: {e}"))?;
    let view_bytes = view
        .into_owned()
        .pack()
        .map_err(|e| format!("into_owned pack: {e}"))?;
    if view_bytes != own_bytes {
        return Err(format!(
            "into_owned packs to {}, owned to {}",
            to_hex(&view_bytes),
            to_hex(&own_bytes)
        ));
    }
    // `==` is exact unless a NaN is inside (then `owned != owned`).
    #[allow(clippy::eq_op)]
    let no_nan = owned == owned;
    if no_nan {
        let again = <T::View<'_> as WireView>::unpack_view(bytes).map_err(|e| e.to_string())?;
        if owned.view() != again {
            return Err(format!(
                "owned.view() {:?} differs from the decoded view {again:?}",
                owned.view()
            ));
        }
        if owned.view().into_owned() != owned {
            return Err(format!("view().into_owned() of {owned:?} differs"));
        }
    }
    let mut longer = bytes.to_vec();
    longer.extend_from_slice(&[0x5A, 0xFF]);
    let read = <T::View<'_> as WireView>::unpack_view_prefix(&longer).map(|(_, n)| n);
    match read {
        Ok(n) if n == bytes.len() => Ok(()),
        other => Err(format!("unpack_view_prefix: {other:?}")),
    }
}

// ----- round trips of arbitrary values -----------------------------------------------------

/// Which round-trip properties to check (see [`roundtrip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundTrip {
    /// The value has no NaN: compare decoded values with `PartialEq` ([`check_roundtrip`]).
    Exact,
    /// The value may hold NaN or infinities (as `"NaN"`, `"Infinity"`, `"-Infinity"`):
    /// compare bytes and JSON instead ([`check_roundtrip_special_floats`]).
    SpecialFloats,
}

/// Reads the CLAD-JSON `value` as the generated type `ty` of `schema` and checks its wire
/// and JSON round trips (and, for a type with a borrowed view, [`check_view_agrees`] on its
/// bytes). `None` when the type does not exist.
pub fn roundtrip(
    root: &str,
    schema: &str,
    ty: &str,
    value: &serde_json::Value,
    mode: RoundTrip,
) -> Option<Result<(), String>> {
    struct Check<'a>(&'a serde_json::Value, RoundTrip);
    impl TypeVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<T: Generated>(self) -> Self::Output {
            match self.1 {
                RoundTrip::Exact => check_roundtrip::<T>(self.0),
                RoundTrip::SpecialFloats => check_roundtrip_special_floats::<T>(self.0),
            }
        }
    }
    let owned = visit(root, schema, ty, Check(value, mode))?;
    Some(owned.and_then(|()| {
        // The same bytes through the borrowed view, for types that have one.
        let bytes = pack_json(root, schema, ty, value).unwrap_or_else(|| Ok(Vec::new()))?;
        match check_view(root, schema, ty, &bytes) {
            Some(Err(e)) => Err(format!("view: {e}")),
            _ => Ok(()),
        }
    }))
}

/// Packs `x` every way the runtime offers and checks that they agree with `pack`, with
/// `packed_size` and with the size constants. Returns the bytes.
fn pack_all_ways<T: Generated>(x: &T) -> Result<Vec<u8>, String> {
    let bytes = x.pack().map_err(|e| format!("pack: {e}"))?;
    let len = bytes.len();
    if x.packed_size() != len {
        return Err(format!(
            "packed_size {} != pack().len() {len}",
            x.packed_size()
        ));
    }
    if len < T::MIN_SIZE {
        return Err(format!("{len} bytes < MIN_SIZE {}", T::MIN_SIZE));
    }
    if let Some(n) = T::FIXED_SIZE {
        if n != len {
            return Err(format!("{len} bytes but FIXED_SIZE is {n}"));
        }
    }
    if let Some(n) = T::MAX_SIZE {
        if len > n {
            return Err(format!("{len} bytes but MAX_SIZE is {n}"));
        }
    }
    let mut buf = vec![0xA5; len + 3];
    match x.pack_into(&mut buf) {
        Ok(n) if n == len && buf[..n] == bytes[..] => {}
        Ok(n) => return Err(format!("pack_into wrote {}", to_hex(&buf[..n]))),
        Err(e) => return Err(format!("pack_into: {e}")),
    }
    if len > 0 {
        let mut small = vec![0; len - 1];
        match x.pack_into(&mut small) {
            Err(e) if matches!(e.kind(), PackErrorKind::BufferTooSmall { .. }) => {}
            other => return Err(format!("pack_into a too small buffer: {other:?}")),
        }
    }
    let mut appended = vec![1, 2];
    match x.pack_append(&mut appended) {
        Ok(n) if n == len && appended[..2] == [1, 2] && appended[2..] == bytes[..] => {}
        other => return Err(format!("pack_append: {other:?}, {}", to_hex(&appended))),
    }
    Ok(bytes)
}

/// Unpacks `bytes` with `unpack` and with `unpack_prefix` (followed by junk) and checks
/// that both read everything.
fn unpack_all_ways<T: Generated>(bytes: &[u8]) -> Result<T, String> {
    let y = T::unpack(bytes).map_err(|e| format!("unpack {}: {e}", to_hex(bytes)))?;
    let mut longer = bytes.to_vec();
    longer.extend_from_slice(&[0x5A, 0xFF, 0x00]);
    match T::unpack_prefix(&longer) {
        Ok((_, n)) if n == bytes.len() => {}
        other => return Err(format!("unpack_prefix: {other:?}")),
    }
    match T::unpack(&longer) {
        Err(e) if e.offset() == bytes.len() => {}
        other => return Err(format!("unpack with trailing bytes: {other:?}")),
    }
    Ok(y)
}

/// Arbitrary value, no NaN: `from_value` → `x`; `unpack(pack(x)) == x`;
/// `packed_size == pack().len()`; `from_value(to_value(x)) == x` (also through JSON text);
/// `to_value(x)` is the input again (canonical CLAD-JSON).
pub fn check_roundtrip<T: Generated>(value: &serde_json::Value) -> Result<(), String> {
    let x: T = serde_json::from_value(value.clone()).map_err(|e| format!("JSON -> value: {e}"))?;
    let bytes = pack_all_ways(&x)?;
    let y: T = unpack_all_ways(&bytes)?;
    if y != x {
        return Err(format!("unpack(pack(x)) = {y:?}, x = {x:?}"));
    }
    let json = serde_json::to_value(&x).map_err(|e| format!("value -> JSON: {e}"))?;
    let z: T = serde_json::from_value(json.clone()).map_err(|e| format!("JSON again: {e}"))?;
    if z != x {
        return Err(format!("from_value(to_value(x)) = {z:?}, x = {x:?}"));
    }
    if &json != value {
        return Err(format!("canonical JSON: got {json}, want {value}"));
    }
    let text = serde_json::to_string(&x).map_err(|e| format!("value -> JSON text: {e}"))?;
    let t: T = serde_json::from_str(&text).map_err(|e| format!("JSON text -> value: {e}"))?;
    if t != x {
        return Err(format!("JSON text round trip: got {t:?} from {text}"));
    }
    Ok(())
}

/// Arbitrary value that may hold NaN (so `PartialEq` cannot be used): the bytes of
/// `pack(unpack(pack(x)))` equal `pack(x)`, and the JSON of `x`, of the unpacked value and of
/// the JSON text round trip all equal the input.
pub fn check_roundtrip_special_floats<T: Generated>(
    value: &serde_json::Value,
) -> Result<(), String> {
    let x: T = serde_json::from_value(value.clone()).map_err(|e| format!("JSON -> value: {e}"))?;
    let bytes = pack_all_ways(&x)?;
    let y: T = unpack_all_ways(&bytes)?;
    let again = y.pack().map_err(|e| format!("pack again: {e}"))?;
    if again != bytes {
        return Err(format!(
            "pack(unpack(pack(x))) = {}, pack(x) = {}",
            to_hex(&again),
            to_hex(&bytes)
        ));
    }
    for (what, v) in [("x", &x), ("unpack(pack(x))", &y)] {
        let json = serde_json::to_value(v).map_err(|e| format!("{what} -> JSON: {e}"))?;
        if &json != value {
            return Err(format!("JSON of {what}: got {json}, want {value}"));
        }
    }
    let text = serde_json::to_string(&x).map_err(|e| format!("value -> JSON text: {e}"))?;
    let t: T = serde_json::from_str(&text).map_err(|e| format!("JSON text -> value: {e}"))?;
    if t.pack().map_err(|e| format!("pack after JSON text: {e}"))? != bytes {
        return Err(format!("JSON text round trip changed the bytes: {text}"));
    }
    Ok(())
}

// ----- arbitrary bytes ----------------------------------------------------------------------

/// Unpacks arbitrary bytes as the generated type `ty` of `schema` with [`fuzz_unpack`]
/// (panics only when a property is violated). `None` when the type does not exist.
pub fn fuzz(root: &str, schema: &str, ty: &str, bytes: &[u8]) -> Option<Result<(), UnpackError>> {
    struct Fuzz<'a>(&'a [u8]);
    impl TypeVisitor for Fuzz<'_> {
        type Output = Result<(), UnpackError>;
        fn visit<T: Generated>(self) -> Self::Output {
            fuzz_unpack::<T>(self.0)
        }
    }
    let result = visit(root, schema, ty, Fuzz(bytes))?;
    if let Some(Err(e)) = check_view(root, schema, ty, bytes) {
        panic!("borrowed view of {ty} from {}: {e}", to_hex(bytes));
    }
    Some(result)
}

/// Unpacks arbitrary bytes; an error is fine, a panic is not. A successful unpack must
/// re-pack to the same bytes, except that a `bool` byte other than 0 and 1 (read as `true`)
/// packs as 1, and the re-packed bytes must unpack and pack again identically. Its JSON must
/// read back.
pub fn fuzz_unpack<T: Generated>(bytes: &[u8]) -> Result<(), UnpackError> {
    let v = T::unpack(bytes)?;
    let packed = match v.pack() {
        Ok(p) => p,
        Err(e) => panic!(
            "{v:?} unpacked from {} but does not pack: {e}",
            to_hex(bytes)
        ),
    };
    assert_eq!(
        packed.len(),
        bytes.len(),
        "{v:?} unpacked from {} re-packs to {}",
        to_hex(bytes),
        to_hex(&packed)
    );
    assert_eq!(v.packed_size(), bytes.len(), "packed_size of {v:?}");
    for (i, (&a, &b)) in packed.iter().zip(bytes).enumerate() {
        assert!(
            a == b || (a == 1 && b > 1),
            "{v:?} unpacked from {} re-packs to {} (byte {i})",
            to_hex(bytes),
            to_hex(&packed)
        );
    }
    // Reading into the value: the same bytes, then every shorter prefix (errors), then the
    // same bytes again, must agree with `unpack`.
    let mut reused =
        T::unpack(bytes).unwrap_or_else(|e| panic!("second unpack of {v:?} fails: {e}"));
    let cuts = [
        bytes.len(),
        bytes.len() / 2,
        bytes.len().saturating_sub(1),
        0,
    ];
    for cut in cuts.into_iter().chain([bytes.len()]) {
        if let Err(e) = check_unpack_into(&mut reused, &bytes[..cut]) {
            panic!("{e}");
        }
    }
    let again =
        T::unpack(&packed).unwrap_or_else(|e| panic!("re-packed {v:?} does not unpack: {e}"));
    assert_eq!(
        again.pack().ok(),
        Some(packed),
        "{again:?} packs differently"
    );
    let json = serde_json::to_value(&v).unwrap_or_else(|e| panic!("{v:?} -> JSON: {e}"));
    if let Err(e) = serde_json::from_value::<T>(json.clone()) {
        panic!("JSON {json} of {v:?} does not read back: {e}");
    }
    Ok(())
}

/// Only unpacks `bytes` as the generated type `ty` of `schema` (no other work, so callers
/// can measure it). `None` when the type does not exist.
pub fn try_unpack(
    root: &str,
    schema: &str,
    ty: &str,
    bytes: &[u8],
) -> Option<Result<(), UnpackError>> {
    struct Unpack<'a>(&'a [u8]);
    impl TypeVisitor for Unpack<'_> {
        type Output = Result<(), UnpackError>;
        fn visit<T: Generated>(self) -> Self::Output {
            T::unpack(self.0).map(drop)
        }
    }
    visit(root, schema, ty, Unpack(bytes))
}

/// Reads CLAD-JSON `value` as the generated type `ty` of `schema` and packs it. `None` when
/// the type does not exist.
pub fn pack_json(
    root: &str,
    schema: &str,
    ty: &str,
    value: &serde_json::Value,
) -> Option<Result<Vec<u8>, String>> {
    struct Pack<'a>(&'a serde_json::Value);
    impl TypeVisitor for Pack<'_> {
        type Output = Result<Vec<u8>, String>;
        fn visit<T: Generated>(self) -> Self::Output {
            let x: T = serde_json::from_value(self.0.clone()).map_err(|e| e.to_string())?;
            x.pack().map_err(|e| e.to_string())
        }
    }
    visit(root, schema, ty, Pack(value))
}

/// The `Wire` constants of a generated type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireConsts {
    /// [`Wire::TYPE_NAME`].
    pub type_name: &'static str,
    /// [`Wire::MIN_SIZE`].
    pub min_size: usize,
    /// [`Wire::FIXED_SIZE`].
    pub fixed_size: Option<usize>,
    /// [`Wire::MAX_SIZE`].
    pub max_size: Option<usize>,
}

/// The `Wire` constants of the generated type `ty` of `schema`.
pub fn wire_consts(root: &str, schema: &str, ty: &str) -> Option<WireConsts> {
    struct Consts;
    impl TypeVisitor for Consts {
        type Output = WireConsts;
        fn visit<T: Generated>(self) -> WireConsts {
            WireConsts {
                type_name: T::TYPE_NAME,
                min_size: T::MIN_SIZE,
                fixed_size: T::FIXED_SIZE,
                max_size: T::MAX_SIZE,
            }
        }
    }
    visit(root, schema, ty, Consts)
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
