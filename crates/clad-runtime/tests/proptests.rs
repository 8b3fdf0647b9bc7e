//! Property tests: round trips for scalars, strings and arrays, and "never panics" for
//! arbitrary input to a few hand-written composite types.

use clad_runtime::wire::{
    self, FieldContext, PackError, PackErrorKind, Reader, UnpackError, UnpackErrorKind, Wire,
    Writer, NO_MAX,
};
use proptest::collection::vec;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------

fn check_scalar<T: Wire + PartialEq + std::fmt::Debug>(
    v: T,
    le: &[u8],
) -> Result<(), TestCaseError> {
    let bytes = v.pack().unwrap();
    prop_assert_eq!(&bytes[..], le);
    prop_assert_eq!(T::unpack(&bytes).unwrap(), v);
    // Every strict prefix is truncated; an extra byte is trailing.
    for cut in 0..bytes.len() {
        let err = T::unpack(&bytes[..cut]).unwrap_err();
        prop_assert!(
            matches!(err.kind(), UnpackErrorKind::Truncated { .. }),
            "unexpected error kind: {:?}",
            err.kind()
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let trailing = T::unpack(&longer).unwrap_err();
    prop_assert!(
        matches!(
            trailing.kind(),
            UnpackErrorKind::TrailingBytes { left: 1, .. }
        ),
        "unexpected error kind: {:?}",
        trailing.kind()
    );
    Ok(())
}

proptest! {
    #[test]
    fn integers_round_trip(a: i8, b: i16, c: i32, d: i64, e: u8, f: u16, g: u32, h: u64) {
        check_scalar(a, &a.to_le_bytes())?;
        check_scalar(b, &b.to_le_bytes())?;
        check_scalar(c, &c.to_le_bytes())?;
        check_scalar(d, &d.to_le_bytes())?;
        check_scalar(e, &e.to_le_bytes())?;
        check_scalar(f, &f.to_le_bytes())?;
        check_scalar(g, &g.to_le_bytes())?;
        check_scalar(h, &h.to_le_bytes())?;
    }

    #[test]
    fn floats_round_trip_bit_exact(a: u32, b: u64) {
        let x = f32::from_bits(a);
        let y = f64::from_bits(b);
        prop_assert_eq!(x.pack().unwrap(), a.to_le_bytes());
        prop_assert_eq!(f32::unpack(&a.to_le_bytes()).unwrap().to_bits(), a);
        prop_assert_eq!(y.pack().unwrap(), b.to_le_bytes());
        prop_assert_eq!(f64::unpack(&b.to_le_bytes()).unwrap().to_bits(), b);
    }

    #[test]
    fn bools(v: bool, byte: u8) {
        check_scalar(v, &[u8::from(v)])?;
        prop_assert_eq!(bool::unpack(&[byte]).unwrap(), byte != 0);
    }

    #[test]
    fn fixed_arrays_round_trip(a: [i16; 5], b: [u64; 2], c: [[u8; 3]; 2]) {
        let mut le = Vec::new();
        for x in a { le.extend_from_slice(&x.to_le_bytes()); }
        check_scalar(a, &le)?;
        let mut le = Vec::new();
        for x in b { le.extend_from_slice(&x.to_le_bytes()); }
        check_scalar(b, &le)?;
        check_scalar(c, &c.concat())?;
    }
}

// ---------------------------------------------------------------------------------------
// Strings and arrays
// ---------------------------------------------------------------------------------------

fn pack_fn(
    size: usize,
    f: impl FnOnce(&mut Writer<'_>) -> Result<(), PackError>,
) -> Result<Vec<u8>, PackError> {
    let mut buf = vec![0u8; size];
    let mut w = Writer::new(&mut buf);
    f(&mut w)?;
    assert_eq!(w.position(), size);
    Ok(buf)
}

fn unpack_fn<T>(
    bytes: &[u8],
    f: impl FnOnce(&mut Reader<'_>) -> Result<T, UnpackError>,
) -> Result<T, UnpackError> {
    let mut r = Reader::new(bytes);
    let v = f(&mut r)?;
    r.finish("test")?;
    Ok(v)
}

proptest! {
    #[test]
    fn strings_round_trip(s in "\\PC{0,80}", max in 0u64..400) {
        let size = wire::string_size::<u8>(&s);
        let packed = pack_fn(size, |w| wire::write_string::<u8>(w, &s, max));
        let len = s.len() as u64;
        if len > 255 {
            let e = packed.unwrap_err();
            prop_assert!(matches!(e.kind(), PackErrorKind::LengthOverflow { .. }), "{:?}", e.kind());
        } else if len > max {
            let e = packed.unwrap_err();
            prop_assert!(matches!(e.kind(), PackErrorKind::AboveMax { .. }), "{:?}", e.kind());
        } else {
            let bytes = packed.unwrap();
            prop_assert_eq!(bytes[0] as usize, s.len());
            prop_assert_eq!(&bytes[1..], s.as_bytes());
            prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string::<u8>(r, max)).unwrap(), s.clone());
            // Every strict prefix fails.
            for cut in 0..bytes.len() {
                prop_assert!(unpack_fn(&bytes[..cut], |r| wire::read_string::<u8>(r, max)).is_err());
            }
        }
        let bytes = pack_fn(wire::string_size::<u16>(&s), |w| wire::write_string::<u16>(w, &s, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string::<u16>(r, NO_MAX)).unwrap(), s.clone());
        let bytes = pack_fn(wire::string_size::<u32>(&s), |w| wire::write_string::<u32>(w, &s, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string::<u32>(r, NO_MAX)).unwrap(), s);
    }

    #[test]
    fn long_strings_round_trip(s in "[a-zé😀]{200,300}") {
        let bytes = pack_fn(wire::string_size::<u16>(&s), |w| wire::write_string::<u16>(w, &s, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string::<u16>(r, NO_MAX)).unwrap(), s.clone());
        let too_long = pack_fn(wire::string_size::<u8>(&s), |w| wire::write_string::<u8>(w, &s, NO_MAX));
        prop_assert!(too_long.is_err());
    }

    #[test]
    fn vectors_round_trip(v in vec(any::<i32>(), 0..40), max in 0u64..50) {
        let size = wire::vec_size::<u8, i32>(&v);
        match pack_fn(size, |w| wire::write_vec::<u8, i32>(w, &v, max)) {
            Ok(bytes) => {
                prop_assert!(v.len() as u64 <= max);
                prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_vec::<u8, i32>(r, max)).unwrap(), v.clone());
                for cut in 0..bytes.len() {
                    prop_assert!(unpack_fn(&bytes[..cut], |r| wire::read_vec::<u8, i32>(r, max)).is_err());
                }
            }
            Err(e) => {
                prop_assert!(v.len() as u64 > max);
                prop_assert!(matches!(e.kind(), PackErrorKind::AboveMax { .. }), "{:?}", e.kind());
            }
        }
        let bytes = pack_fn(wire::vec_size::<u64, i32>(&v), |w| wire::write_vec::<u64, i32>(w, &v, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_vec::<u64, i32>(r, NO_MAX)).unwrap(), v);
    }

    #[test]
    fn byte_vectors_round_trip(v in vec(any::<u8>(), 0..300)) {
        let size = wire::vec_size::<u16, u8>(&v);
        let fast = pack_fn(size, |w| wire::write_byte_vec::<u16>(w, &v, NO_MAX)).unwrap();
        let slow = pack_fn(size, |w| wire::write_vec::<u16, u8>(w, &v, NO_MAX)).unwrap();
        prop_assert_eq!(&fast, &slow);
        prop_assert_eq!(unpack_fn(&fast, |r| wire::read_byte_vec::<u16>(r, NO_MAX)).unwrap(), v.clone());
        prop_assert_eq!(unpack_fn(&fast, |r| wire::read_vec::<u16, u8>(r, NO_MAX)).unwrap(), v);
    }

    #[test]
    fn string_vectors_round_trip(v in vec("\\PC{0,10}", 0..8), fixed in proptest::array::uniform3("\\PC{0,6}")) {
        let size = wire::string_vec_size::<u16, u8>(&v);
        let bytes = pack_fn(size, |w| wire::write_string_vec::<u16, u8>(w, &v, NO_MAX, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string_vec::<u16, u8>(r, NO_MAX, NO_MAX)).unwrap(), v);
        let size = wire::strings_size::<u16>(&fixed);
        let bytes = pack_fn(size, |w| wire::write_strings::<u16>(w, &fixed, NO_MAX)).unwrap();
        prop_assert_eq!(unpack_fn(&bytes, |r| wire::read_string_array::<u16, 3>(r, NO_MAX)).unwrap(), fixed);
    }
}

// ---------------------------------------------------------------------------------------
// Composite types, written the way the code generator writes them
// ---------------------------------------------------------------------------------------

// enum int_16 Mode { Idle = -1, Run = 0, Stop = 7 }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i16)]
enum Mode {
    Idle = -1,
    Run = 0,
    Stop = 7,
}

impl Mode {
    const fn from_repr(v: i16) -> Option<Self> {
        match v {
            -1 => Some(Self::Idle),
            0 => Some(Self::Run),
            7 => Some(Self::Stop),
            _ => None,
        }
    }
}

impl Wire for Mode {
    const TYPE_NAME: &'static str = "Mode";
    const FIXED_SIZE: Option<usize> = Some(2);
    const MIN_SIZE: usize = 2;
    fn packed_size(&self) -> usize {
        2
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        (*self as i16).write_to(w)
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        wire::read_enum(r, Self::TYPE_NAME, Self::from_repr)
    }
}

// structure Sample { Mode mode, float_32 values[uint_8:16], string[uint_16:40] label,
//                    int_16 xyz[3], string[uint_8:10] tags[uint_8:4] }
// No bool, so any accepted input re-encodes to the same bytes.
#[derive(Clone, Debug, PartialEq)]
struct Sample {
    mode: Mode,
    values: Vec<f32>,
    label: String,
    xyz: [i16; 3],
    tags: Vec<String>,
}

impl Wire for Sample {
    const TYPE_NAME: &'static str = "Sample";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = <Mode as Wire>::MIN_SIZE + 1 + 2 + <[i16; 3] as Wire>::MIN_SIZE + 1;
    fn packed_size(&self) -> usize {
        self.mode.packed_size()
            + wire::vec_size::<u8, f32>(&self.values)
            + wire::string_size::<u16>(&self.label)
            + self.xyz.packed_size()
            + wire::string_vec_size::<u8, u8>(&self.tags)
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.mode.write_to(w).in_field(Self::TYPE_NAME, "mode")?;
        wire::write_vec::<u8, f32>(w, &self.values, 16).in_field(Self::TYPE_NAME, "values")?;
        wire::write_string::<u16>(w, &self.label, 40).in_field(Self::TYPE_NAME, "label")?;
        self.xyz.write_to(w).in_field(Self::TYPE_NAME, "xyz")?;
        wire::write_string_vec::<u8, u8>(w, &self.tags, 4, 10).in_field(Self::TYPE_NAME, "tags")
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            mode: r.read().in_field(Self::TYPE_NAME, "mode")?,
            values: wire::read_vec::<u8, f32>(r, 16).in_field(Self::TYPE_NAME, "values")?,
            label: wire::read_string::<u16>(r, 40).in_field(Self::TYPE_NAME, "label")?,
            xyz: r.read().in_field(Self::TYPE_NAME, "xyz")?,
            tags: wire::read_string_vec::<u8, u8>(r, 4, 10).in_field(Self::TYPE_NAME, "tags")?,
        })
    }
}

// union Payload { Sample sample = 0, string name = 3, uint_64 ids[uint_16], Mode mode = 200 }
#[derive(Clone, Debug, PartialEq)]
enum Payload {
    Sample(Sample),
    Name(String),
    Ids(Vec<u64>),
    Mode(Mode),
}

impl Wire for Payload {
    const TYPE_NAME: &'static str = "Payload";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize =
        wire::union_min_size(&[<Sample as Wire>::MIN_SIZE, 1, 2, <Mode as Wire>::MIN_SIZE]);
    fn packed_size(&self) -> usize {
        1 + match self {
            Self::Sample(v) => v.packed_size(),
            Self::Name(v) => wire::string_size::<u8>(v),
            Self::Ids(v) => wire::vec_size::<u16, u64>(v),
            Self::Mode(v) => v.packed_size(),
        }
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        match self {
            Self::Sample(v) => {
                w.write_tag(0)?;
                v.write_to(w).in_field(Self::TYPE_NAME, "sample")
            }
            Self::Name(v) => {
                w.write_tag(3)?;
                wire::write_string::<u8>(w, v, NO_MAX).in_field(Self::TYPE_NAME, "name")
            }
            Self::Ids(v) => {
                w.write_tag(4)?;
                wire::write_vec::<u16, u64>(w, v, NO_MAX).in_field(Self::TYPE_NAME, "ids")
            }
            Self::Mode(v) => {
                w.write_tag(200)?;
                v.write_to(w).in_field(Self::TYPE_NAME, "mode")
            }
        }
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        match r.read_tag(Self::TYPE_NAME)? {
            0 => r
                .read()
                .map(Self::Sample)
                .in_field(Self::TYPE_NAME, "sample"),
            3 => wire::read_string::<u8>(r, NO_MAX)
                .map(Self::Name)
                .in_field(Self::TYPE_NAME, "name"),
            4 => wire::read_vec::<u16, u64>(r, NO_MAX)
                .map(Self::Ids)
                .in_field(Self::TYPE_NAME, "ids"),
            200 => r.read().map(Self::Mode).in_field(Self::TYPE_NAME, "mode"),
            tag => Err(r.unknown_tag(Self::TYPE_NAME, tag)),
        }
    }
}

// message Envelope { bool urgent, uint_32 seq, Payload payload, Payload history[uint_8:3],
//                    Sample samples[2], string names[2] }
#[derive(Clone, Debug, PartialEq)]
struct Envelope {
    urgent: bool,
    seq: u32,
    payload: Payload,
    history: Vec<Payload>,
    samples: [Sample; 2],
    names: [String; 2],
}

impl Wire for Envelope {
    const TYPE_NAME: &'static str = "Envelope";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize =
        1 + 4 + <Payload as Wire>::MIN_SIZE + 1 + <[Sample; 2] as Wire>::MIN_SIZE + 2;
    fn packed_size(&self) -> usize {
        self.urgent.packed_size()
            + self.seq.packed_size()
            + self.payload.packed_size()
            + wire::vec_size::<u8, Payload>(&self.history)
            + self.samples.packed_size()
            + wire::strings_size::<u8>(&self.names)
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.urgent
            .write_to(w)
            .in_field(Self::TYPE_NAME, "urgent")?;
        self.seq.write_to(w).in_field(Self::TYPE_NAME, "seq")?;
        self.payload
            .write_to(w)
            .in_field(Self::TYPE_NAME, "payload")?;
        wire::write_vec::<u8, Payload>(w, &self.history, 3).in_field(Self::TYPE_NAME, "history")?;
        self.samples
            .write_to(w)
            .in_field(Self::TYPE_NAME, "samples")?;
        wire::write_strings::<u8>(w, &self.names, NO_MAX).in_field(Self::TYPE_NAME, "names")
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            urgent: r.read().in_field(Self::TYPE_NAME, "urgent")?,
            seq: r.read().in_field(Self::TYPE_NAME, "seq")?,
            payload: r.read().in_field(Self::TYPE_NAME, "payload")?,
            history: wire::read_vec::<u8, Payload>(r, 3).in_field(Self::TYPE_NAME, "history")?,
            samples: r.read().in_field(Self::TYPE_NAME, "samples")?,
            names: wire::read_string_array::<u8, 2>(r, NO_MAX)
                .in_field(Self::TYPE_NAME, "names")?,
        })
    }
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Idle), Just(Mode::Run), Just(Mode::Stop)]
}

fn sample() -> impl Strategy<Value = Sample> {
    (
        mode(),
        vec(any::<u32>().prop_map(f32::from_bits), 0..5),
        "\\PC{0,10}",
        any::<[i16; 3]>(),
        vec("[a-z]{0,10}", 0..5),
    )
        .prop_map(|(mode, values, label, xyz, tags)| Sample {
            mode,
            values,
            label,
            xyz,
            tags,
        })
}

fn payload() -> impl Strategy<Value = Payload> {
    prop_oneof![
        sample().prop_map(Payload::Sample),
        "\\PC{0,12}".prop_map(Payload::Name),
        vec(any::<u64>(), 0..4).prop_map(Payload::Ids),
        mode().prop_map(Payload::Mode),
    ]
}

fn envelope() -> impl Strategy<Value = Envelope> {
    (
        any::<bool>(),
        any::<u32>(),
        payload(),
        vec(payload(), 0..3),
        [sample(), sample()],
        ["\\PC{0,5}", "\\PC{0,5}"],
    )
        .prop_map(|(urgent, seq, payload, history, samples, names)| Envelope {
            urgent,
            seq,
            payload,
            history,
            samples,
            names,
        })
}

/// Compares by encoding, so NaN floats compare by their bits.
fn same<T: Wire>(a: &T, b: &T) -> bool {
    a.pack().unwrap() == b.pack().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn composites_round_trip(env in envelope()) {
        let bytes = env.pack().unwrap();
        prop_assert_eq!(bytes.len(), env.packed_size());
        let back = Envelope::unpack(&bytes).unwrap();
        prop_assert!(same(&back, &env));
        let mut buf = vec![0u8; bytes.len()];
        prop_assert_eq!(env.pack_into(&mut buf).unwrap(), bytes.len());
        prop_assert_eq!(&buf, &bytes);
        if !bytes.is_empty() {
            let mut short = vec![0u8; bytes.len() - 1];
            prop_assert!(env.pack_into(&mut short).is_err());
        }
        // Every strict prefix fails (never panics).
        for cut in 0..bytes.len() {
            prop_assert!(Envelope::unpack(&bytes[..cut]).is_err());
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in vec(any::<u8>(), 0..200)) {
        let _ = Envelope::unpack(&bytes);
        let _ = Payload::unpack(&bytes);
        let _ = Mode::unpack(&bytes);
        if let Ok(s) = Sample::unpack(&bytes) {
            // No bool in Sample: accepted input is canonical.
            prop_assert_eq!(&s.pack().unwrap(), &bytes);
        }
        if let Ok(p) = Payload::unpack(&bytes) {
            prop_assert_eq!(&p.pack().unwrap(), &bytes);
        }
    }

    #[test]
    fn mutated_encodings_never_panic(
        env in envelope(),
        edits in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = env.pack().unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        match Envelope::unpack(&bytes) {
            Ok(v) => {
                // Anything accepted packs again (bools normalise to 0/1).
                let again = v.pack().unwrap();
                prop_assert_eq!(again.len(), bytes.len());
            }
            Err(e) => {
                prop_assert!(e.offset() <= bytes.len());
                let _ = e.to_string();
            }
        }
        let n = cut.index(bytes.len() + 1);
        let _ = Envelope::unpack(&bytes[..n]);
        let _ = Envelope::unpack_prefix(&bytes[..n]);
    }
}
