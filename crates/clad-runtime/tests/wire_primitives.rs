//! Unit tests for the builtin scalars, fixed arrays, `Box`, the cursors and the error
//! plumbing.

use clad_runtime::wire::{
    FieldContext, FieldPath, PackError, PackErrorKind, PathSegment, Reader, UnpackError,
    UnpackErrorKind, Wire, Writer,
};

fn roundtrip<T: Wire + PartialEq + std::fmt::Debug>(value: T, expected: &[u8]) {
    let bytes = value.pack().unwrap();
    assert_eq!(bytes, expected, "{value:?}");
    assert_eq!(value.packed_size(), expected.len());
    assert_eq!(T::unpack(&bytes).unwrap(), value);
}

#[test]
fn integers_are_little_endian_twos_complement() {
    roundtrip(0x7fi8, &[0x7f]);
    roundtrip(-5i8, &[0xfb]);
    roundtrip(i8::MIN, &[0x80]);
    roundtrip(203u8, &[0xcb]);
    roundtrip(32000i16, &[0x00, 0x7d]);
    roundtrip(-2i16, &[0xfe, 0xff]);
    roundtrip(0xBEEFu16, &[0xef, 0xbe]);
    roundtrip(-1i32, &[0xff; 4]);
    roundtrip(0x0102_0304i32, &[4, 3, 2, 1]);
    roundtrip(0xFFFF_FFFFu32, &[0xff; 4]);
    roundtrip(0x0102_0304u32, &[4, 3, 2, 1]);
    roundtrip(i64::MIN, &[0, 0, 0, 0, 0, 0, 0, 0x80]);
    roundtrip(0x0102_0304_0506_0708i64, &[8, 7, 6, 5, 4, 3, 2, 1]);
    roundtrip(u64::MAX, &[0xff; 8]);
    roundtrip(0x0102_0304_0506_0708u64, &[8, 7, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn scalar_constants() {
    macro_rules! check {
        ($($t:ty => $name:literal, $size:literal;)*) => {$(
            assert_eq!(<$t as Wire>::TYPE_NAME, $name);
            assert_eq!(<$t as Wire>::FIXED_SIZE, Some($size));
            assert_eq!(<$t as Wire>::MIN_SIZE, $size);
        )*};
    }
    check! {
        bool => "bool", 1; i8 => "int_8", 1; i16 => "int_16", 2; i32 => "int_32", 4;
        i64 => "int_64", 8; u8 => "uint_8", 1; u16 => "uint_16", 2; u32 => "uint_32", 4;
        u64 => "uint_64", 8; f32 => "float_32", 4; f64 => "float_64", 8;
    }
}

#[test]
fn bool_writes_0_1_and_reads_any_nonzero_as_true() {
    roundtrip(true, &[1]);
    roundtrip(false, &[0]);
    for b in 1..=255u8 {
        assert!(bool::unpack(&[b]).unwrap());
    }
    assert!(!bool::unpack(&[0]).unwrap());
}

#[test]
fn floats_are_bit_exact() {
    roundtrip(1.5f32, &[0x00, 0x00, 0xc0, 0x3f]);
    roundtrip(-1.0f64, &[0, 0, 0, 0, 0, 0, 0xf0, 0xbf]);
    // -0.0 keeps its sign bit.
    assert_eq!((-0.0f32).pack().unwrap(), [0, 0, 0, 0x80]);
    assert_eq!(
        f32::unpack(&[0, 0, 0, 0x80]).unwrap().to_bits(),
        0x8000_0000
    );
    // NaN payloads (quiet, signalling, negative) survive both directions.
    for bits in [0x7fc0_0001u32, 0x7f80_0001, 0xffc1_2345, 0x7fff_ffff] {
        let v = f32::from_bits(bits);
        let bytes = v.pack().unwrap();
        assert_eq!(bytes, bits.to_le_bytes());
        assert_eq!(f32::unpack(&bytes).unwrap().to_bits(), bits);
    }
    for bits in [
        0x7ff8_0000_0000_0001u64,
        0x7ff0_0000_0000_0001,
        0xfff8_dead_beef_0000,
    ] {
        let v = f64::from_bits(bits);
        let bytes = v.pack().unwrap();
        assert_eq!(bytes, bits.to_le_bytes());
        assert_eq!(f64::unpack(&bytes).unwrap().to_bits(), bits);
    }
    roundtrip(f32::INFINITY, &[0, 0, 0x80, 0x7f]);
    roundtrip(f64::NEG_INFINITY, &[0, 0, 0, 0, 0, 0, 0xf0, 0xff]);
}

#[test]
fn truncated_scalars_report_need_and_left() {
    let err = u32::unpack(&[1, 2]).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 4, left: 2 });
    assert_eq!(err.offset(), 0);
    assert!(err.path().is_empty());
    assert_eq!(
        err.to_string(),
        "truncated input at byte 0: need 4 bytes, 2 left"
    );
    let err = bool::unpack(&[]).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 1, left: 0 });
    let err = f64::unpack(&[0; 7]).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 8, left: 7 });

    let mut r = Reader::new(&[1, 2, 3]);
    assert_eq!(r.read::<u16>().unwrap(), 0x0201);
    let err = r.read::<u16>().unwrap_err();
    assert_eq!(err.offset(), 2);
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 2, left: 1 });
}

#[test]
fn trailing_bytes_are_rejected_by_unpack_only() {
    let err = u16::unpack(&[1, 2, 3]).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::TrailingBytes {
            type_name: "uint_16",
            left: 1
        }
    );
    assert_eq!(err.offset(), 2);
    assert_eq!(
        err.to_string(),
        "trailing bytes at byte 2: 1 unread bytes after a complete uint_16"
    );
    assert_eq!(u16::unpack_prefix(&[1, 2, 3]).unwrap(), (0x0201, 2));
}

#[test]
fn reader_cursor() {
    let data = [1u8, 2, 3, 4, 5, 6];
    let mut r = Reader::new(&data);
    assert_eq!(r.position(), 0);
    assert_eq!(r.remaining(), 6);
    assert_eq!(r.read_array::<2>().unwrap(), [1, 2]);
    assert_eq!(r.read_bytes(3).unwrap(), &[3, 4, 5]);
    assert_eq!(r.position(), 5);
    assert_eq!(r.remaining_bytes(), &[6]);
    let err = r.read_bytes(2).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 2, left: 1 });
    assert_eq!(err.offset(), 5);
    assert!(r.finish("X").is_err());
    assert_eq!(r.read_bytes(1).unwrap(), &[6]);
    assert!(r.is_empty());
    assert!(r.finish("X").is_ok());
    assert_eq!(r.read_bytes(0).unwrap(), &[] as &[u8]);
}

#[test]
fn writer_cursor() {
    let mut buf = [0u8; 5];
    let mut w = Writer::new(&mut buf);
    w.write(&0x0201u16).unwrap();
    w.write_tag(9).unwrap();
    assert_eq!(w.position(), 3);
    assert_eq!(w.remaining(), 2);
    let err = w.write_bytes(&[1, 2, 3]).unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::BufferTooSmall { need: 3, left: 2 }
    );
    assert_eq!(err.offset(), 3);
    let err = w.write_array([0u8; 4]).unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::BufferTooSmall { need: 4, left: 2 }
    );
    w.write_bytes(&[7, 8]).unwrap();
    assert_eq!(w.remaining(), 0);
    assert_eq!(buf, [1, 2, 9, 7, 8]);
}

#[test]
fn pack_into_exact_and_too_small() {
    let mut buf = [0u8; 4];
    assert_eq!(0xAABBCCDDu32.pack_into(&mut buf).unwrap(), 4);
    assert_eq!(buf, [0xdd, 0xcc, 0xbb, 0xaa]);
    let mut small = [0u8; 3];
    let err = 1u32.pack_into(&mut small).unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::BufferTooSmall { need: 4, left: 3 }
    );
    assert_eq!(
        err.to_string(),
        "output buffer too small at byte 0: need 4 bytes, 3 left"
    );
    let mut out = vec![1, 2];
    assert_eq!(0x0403u16.pack_append(&mut out).unwrap(), 2);
    assert_eq!(out, [1, 2, 3, 4]);
}

#[test]
fn fixed_arrays() {
    roundtrip([1u16, 2, 3], &[1, 0, 2, 0, 3, 0]);
    roundtrip([true, false], &[1, 0]);
    roundtrip([0u8; 0], &[]);
    assert_eq!(<[u16; 3] as Wire>::FIXED_SIZE, Some(6));
    assert_eq!(<[u16; 3] as Wire>::MIN_SIZE, 6);
    assert_eq!(<[u16; 0] as Wire>::FIXED_SIZE, Some(0));
    assert_eq!(<[[i8; 2]; 3] as Wire>::FIXED_SIZE, Some(6));

    let err = <[u16; 3]>::unpack(&[1, 0, 2, 0, 3]).unwrap_err();
    assert_eq!(err.offset(), 4);
    assert_eq!(
        err.path().segments().collect::<Vec<_>>(),
        [PathSegment::Index(2)]
    );
    assert_eq!(
        err.to_string(),
        "truncated input at byte 4 while reading [2]: need 2 bytes, 1 left"
    );
    let err = <[u8; 2]>::unpack(&[1, 2, 3]).unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::TrailingBytes { left: 1, .. }
    ));
}

#[test]
fn boxed_values_encode_like_the_value() {
    roundtrip(Box::new(0x0102u16), &[2, 1]);
    assert_eq!(<Box<u64> as Wire>::FIXED_SIZE, Some(8));
    assert_eq!(<Box<u64> as Wire>::TYPE_NAME, "uint_64");
}

#[test]
fn errors_are_one_pointer_wide() {
    use std::mem::size_of;
    assert_eq!(size_of::<UnpackError>(), size_of::<usize>());
    assert_eq!(size_of::<PackError>(), size_of::<usize>());
    assert_eq!(size_of::<Result<(), PackError>>(), size_of::<usize>());
    assert!(size_of::<Result<u32, UnpackError>>() <= 2 * size_of::<usize>());
}

#[test]
fn field_paths_render_outermost_first() {
    let err = UnpackError::new(UnpackErrorKind::Truncated { need: 3, left: 0 }, 40)
        .in_field("Inner", "name")
        .in_index(3)
        .in_field("Outer", "items")
        .in_field("Top", "outer");
    assert_eq!(err.path().to_string(), "Top.outer.items[3].name");
    assert_eq!(err.path().len(), 4);
    assert_eq!(err.path().innermost_field(), Some(("Inner", "name")));
    assert_eq!(
        err.path().segments().next(),
        Some(PathSegment::Field {
            type_name: "Top",
            field: "outer"
        })
    );
    assert_eq!(
        err.to_string(),
        "truncated input at byte 40 while reading Top.outer.items[3].name: need 3 bytes, 0 left"
    );
    assert!(FieldPath::default().is_empty());

    // FieldContext leaves Ok values alone and labels errors.
    let ok: Result<u8, UnpackError> = Ok(1);
    assert_eq!(ok.in_field("T", "f").in_index(0).unwrap(), 1);
    let bad: Result<u8, PackError> = Err(PackError::invalid_union("U", 2));
    let bad = bad.in_field("T", "f").unwrap_err();
    assert_eq!(
        bad.to_string(),
        "cannot pack an empty union at byte 2 while packing T.f: U holds no member (tag INVALID)"
    );
}

#[test]
fn every_kind_displays_summary_and_detail() {
    use clad_runtime::wire::SeqKind;
    let kinds = [
        (
            UnpackErrorKind::Truncated { need: 5, left: 3 },
            "truncated input: need 5 bytes, 3 left",
        ),
        (
            UnpackErrorKind::TrailingBytes {
                type_name: "Foo",
                left: 2,
            },
            "trailing bytes: 2 unread bytes after a complete Foo",
        ),
        (
            UnpackErrorKind::UnknownTag {
                type_name: "U",
                tag: 7,
            },
            "unknown union tag: 7 is not a member tag of U",
        ),
        (
            UnpackErrorKind::InvalidTag { type_name: "U" },
            "invalid union tag: tag 255 (INVALID) for U",
        ),
        (
            UnpackErrorKind::AboveMax {
                what: SeqKind::Array,
                len: 11,
                max: 10,
            },
            "length above declared maximum: array of 11 elements, declared maximum is 10",
        ),
        (
            UnpackErrorKind::InvalidEnum {
                type_name: "E",
                value: -3,
            },
            "invalid enum value: -3 is not a member of E",
        ),
        (
            UnpackErrorKind::InvalidUtf8 { valid_up_to: 0 },
            "invalid UTF-8: string is valid UTF-8 only up to its byte 0",
        ),
        (
            UnpackErrorKind::TooManyElements {
                count: 70000,
                limit: 65536,
            },
            "too many zero-sized elements: 70000 elements, limit is 65536",
        ),
        (
            UnpackErrorKind::Invalid { message: "custom" },
            "invalid value: custom",
        ),
    ];
    for (kind, text) in kinds {
        assert_eq!(kind.to_string(), text);
        let err = UnpackError::new(kind.clone(), 9).in_field("T", "f");
        assert_eq!(
            err.to_string(),
            format!(
                "{} at byte 9 while reading T.f: {}",
                kind.summary(),
                text.split_once(": ").unwrap().1
            )
        );
    }

    let kinds = [
        (
            PackErrorKind::LengthOverflow {
                what: SeqKind::Array,
                len: 256,
                length_type: "uint_8",
                limit: 255,
            },
            "length does not fit its length type: array of 256 elements, uint_8 allows at most 255",
        ),
        (
            PackErrorKind::AboveMax {
                what: SeqKind::String,
                len: 5,
                max: 4,
            },
            "length above declared maximum: string of 5 bytes, declared maximum is 4",
        ),
        (
            PackErrorKind::BufferTooSmall { need: 2, left: 1 },
            "output buffer too small: need 2 bytes, 1 left",
        ),
        (
            PackErrorKind::InvalidUnion { type_name: "U" },
            "cannot pack an empty union: U holds no member (tag INVALID)",
        ),
        (
            PackErrorKind::TooManyElements {
                count: 70000,
                limit: 65536,
            },
            "too many zero-sized elements: 70000 elements, limit is 65536",
        ),
        (
            PackErrorKind::SizeMismatch {
                expected: 3,
                written: 2,
            },
            "packed size mismatch: packed_size() announced 3 bytes but 2 were written",
        ),
        (
            PackErrorKind::Invalid { message: "custom" },
            "invalid value: custom",
        ),
    ];
    for (kind, text) in kinds {
        assert_eq!(kind.to_string(), text);
        let err = PackError::new(kind.clone(), 1).in_field("T", "f");
        assert_eq!(
            err.to_string(),
            format!(
                "{} at byte 1 while packing T.f: {}",
                kind.summary(),
                text.split_once(": ").unwrap().1
            )
        );
    }
}

/// A deliberately wrong implementation: `packed_size` disagrees with `write_to`.
struct Liar;

impl Wire for Liar {
    const TYPE_NAME: &'static str = "Liar";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = 0;
    fn packed_size(&self) -> usize {
        3
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        w.write_array([1, 2])
    }
    fn read_from(_: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Liar)
    }
}

#[test]
fn size_mismatch_is_reported_not_hidden() {
    let err = Liar.pack().unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::SizeMismatch {
            expected: 3,
            written: 2
        }
    );
    let mut out = vec![9];
    assert!(Liar.pack_append(&mut out).is_err());
    assert_eq!(out, [9], "pack_append restores the vector on error");
}
