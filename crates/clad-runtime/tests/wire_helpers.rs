//! Unit tests for the string, array, enum and union helpers and their error kinds.

use clad_runtime::wire::{
    self, FieldContext, PackError, PackErrorKind, Reader, SeqKind, UnpackError, UnpackErrorKind,
    Wire, Writer, NO_MAX,
};

fn pack_with(size: usize, f: impl FnOnce(&mut Writer<'_>) -> Result<(), PackError>) -> Vec<u8> {
    let mut buf = vec![0u8; size];
    let mut w = Writer::new(&mut buf);
    f(&mut w).unwrap();
    assert_eq!(w.position(), size, "size helper agrees with the writer");
    buf
}

fn pack_err(f: impl FnOnce(&mut Writer<'_>) -> Result<(), PackError>) -> PackError {
    let mut buf = vec![0u8; 1 << 17];
    let mut w = Writer::new(&mut buf);
    f(&mut w).unwrap_err()
}

fn read_all<T>(
    bytes: &[u8],
    f: impl FnOnce(&mut Reader<'_>) -> Result<T, UnpackError>,
) -> Result<T, UnpackError> {
    let mut r = Reader::new(bytes);
    let v = f(&mut r)?;
    r.finish("test")?;
    Ok(v)
}

// ---------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------

#[test]
fn strings_with_each_length_type() {
    let s = "hé";
    assert_eq!(wire::string_size::<u8>(s), 4);
    let b = pack_with(4, |w| wire::write_string::<u8>(w, s, NO_MAX));
    assert_eq!(b, [3, b'h', 0xc3, 0xa9]);
    assert_eq!(
        read_all(&b, |r| wire::read_string::<u8>(r, NO_MAX)).unwrap(),
        s
    );

    let b = pack_with(5, |w| wire::write_string::<u16>(w, s, 100));
    assert_eq!(b, [3, 0, b'h', 0xc3, 0xa9]);
    assert_eq!(
        read_all(&b, |r| wire::read_string::<u16>(r, 100)).unwrap(),
        s
    );

    let b = pack_with(7, |w| wire::write_string::<u32>(w, s, NO_MAX));
    assert_eq!(b, [3, 0, 0, 0, b'h', 0xc3, 0xa9]);
    assert_eq!(
        read_all(&b, |r| wire::read_string::<u32>(r, NO_MAX)).unwrap(),
        s
    );

    let b = pack_with(1, |w| wire::write_string::<u8>(w, "", NO_MAX));
    assert_eq!(b, [0]);
    assert_eq!(read_all(&b, |r| wire::read_string::<u8>(r, 0)).unwrap(), "");

    // Zero-copy variant.
    let b = [2, b'o', b'k', 9];
    let mut r = Reader::new(&b);
    let borrowed: &str = wire::read_str::<u8>(&mut r, NO_MAX).unwrap();
    assert_eq!(borrowed, "ok");
    assert_eq!(r.position(), 3);
}

#[test]
fn string_pack_limits() {
    // Exactly the length type maximum is fine.
    let max = "a".repeat(255);
    let b = pack_with(256, |w| wire::write_string::<u8>(w, &max, NO_MAX));
    assert_eq!(b[0], 255);

    // One more does not fit uint_8: never truncated.
    let long = "a".repeat(256);
    let err = pack_err(|w| wire::write_string::<u8>(w, &long, NO_MAX));
    assert_eq!(
        err.kind(),
        &PackErrorKind::LengthOverflow {
            what: SeqKind::String,
            len: 256,
            length_type: "uint_8",
            limit: 255
        }
    );
    // The length type wins even if the declared max is larger (string[uint_8:1000]).
    let err = pack_err(|w| wire::write_string::<u8>(w, &long, 1000));
    assert!(matches!(err.kind(), PackErrorKind::LengthOverflow { .. }));
    // Bytes, not characters, are counted: 128 two-byte characters are 256 bytes.
    let err = pack_err(|w| wire::write_string::<u8>(w, &"é".repeat(128), NO_MAX));
    assert!(matches!(
        err.kind(),
        PackErrorKind::LengthOverflow { len: 256, .. }
    ));

    let err = pack_err(|w| wire::write_string::<u16>(w, "abcdef", 5));
    assert_eq!(
        err.kind(),
        &PackErrorKind::AboveMax {
            what: SeqKind::String,
            len: 6,
            max: 5
        }
    );
    assert_eq!(err.offset(), 0);

    let big = "z".repeat(65_536);
    let err = pack_err(|w| wire::write_string::<u16>(w, &big, NO_MAX));
    assert!(matches!(
        err.kind(),
        PackErrorKind::LengthOverflow {
            length_type: "uint_16",
            limit: 65_535,
            ..
        }
    ));
}

#[test]
fn string_unpack_errors() {
    // Above the declared maximum: offset of the prefix.
    let err = read_all(&[0, 6, 0, b'a'], |r| {
        r.read_array::<1>()?;
        wire::read_string::<u16>(r, 5)
    })
    .unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::AboveMax {
            what: SeqKind::String,
            len: 6,
            max: 5
        }
    );
    assert_eq!(err.offset(), 1);

    // A huge length with little input fails before allocating.
    let err = read_all(&[0xff, 0xff, 0xff, 0xff, b'a'], |r| {
        wire::read_string::<u32>(r, NO_MAX)
    })
    .unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated {
            need: 0xffff_ffff,
            left: 1
        }
    );
    assert_eq!(err.offset(), 4);

    // Invalid UTF-8: offset of the first bad byte.
    let err = read_all(&[4, b'a', b'b', 0xc3, b'x'], |r| {
        wire::read_string::<u8>(r, NO_MAX)
    })
    .unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::InvalidUtf8 { valid_up_to: 2 });
    assert_eq!(err.offset(), 3);
    // Truncated multi-byte sequence at the end.
    let err = read_all(&[1, 0xe2], |r| wire::read_string::<u8>(r, NO_MAX)).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::InvalidUtf8 { valid_up_to: 0 });

    // Missing prefix.
    let err = read_all(&[1], |r| wire::read_string::<u16>(r, NO_MAX)).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 2, left: 1 });
}

// ---------------------------------------------------------------------------------------
// Variable arrays
// ---------------------------------------------------------------------------------------

#[test]
fn variable_arrays() {
    let v = vec![1i16, -2, 3];
    assert_eq!(wire::vec_size::<u8, i16>(&v), 7);
    let b = pack_with(7, |w| wire::write_vec::<u8, i16>(w, &v, NO_MAX));
    assert_eq!(b, [3, 1, 0, 0xfe, 0xff, 3, 0]);
    assert_eq!(
        read_all(&b, |r| wire::read_vec::<u8, i16>(r, 3)).unwrap(),
        v
    );

    // Spec §4.3 od434 { uint_64 vehiclesPlayed[uint_64] }.
    let v = vec![1u64, 0x0102_0304_0506_0708];
    let b = pack_with(24, |w| wire::write_vec::<u64, u64>(w, &v, NO_MAX));
    assert_eq!(
        b,
        [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1]
    );
    assert_eq!(
        read_all(&b, |r| wire::read_vec::<u64, u64>(r, NO_MAX)).unwrap(),
        v
    );

    let empty: Vec<u32> = vec![];
    let b = pack_with(2, |w| wire::write_vec::<u16, u32>(w, &empty, 0));
    assert_eq!(b, [0, 0]);
    assert_eq!(
        read_all(&b, |r| wire::read_vec::<u16, u32>(r, 0)).unwrap(),
        empty
    );

    // Variable-size elements (strings inside fixed arrays of structs, etc.) are summed.
    let nested = vec![[1u8, 2], [3, 4]];
    assert_eq!(wire::vec_size::<u32, [u8; 2]>(&nested), 8);
}

#[test]
fn byte_vectors_match_generic_vectors() {
    let bytes: Vec<u8> = (0..=255).collect();
    assert_eq!(wire::vec_size::<u16, u8>(&bytes), 258);
    let fast = pack_with(258, |w| wire::write_byte_vec::<u16>(w, &bytes, NO_MAX));
    let slow = pack_with(258, |w| wire::write_vec::<u16, u8>(w, &bytes, NO_MAX));
    assert_eq!(fast, slow);
    assert_eq!(
        read_all(&fast, |r| wire::read_byte_vec::<u16>(r, NO_MAX)).unwrap(),
        bytes
    );
    let err = pack_err(|w| wire::write_byte_vec::<u8>(w, &bytes, NO_MAX));
    assert!(matches!(
        err.kind(),
        PackErrorKind::LengthOverflow { len: 256, .. }
    ));
    let err = read_all(&[5, 1, 2], |r| wire::read_byte_vec::<u8>(r, NO_MAX)).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 5, left: 2 });
    let err = read_all(&[5, 1, 2, 3, 4, 5], |r| wire::read_byte_vec::<u8>(r, 4)).unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::AboveMax { len: 5, max: 4, .. }
    ));
}

#[test]
fn variable_array_pack_limits() {
    let v = vec![0u8; 256];
    let err = pack_err(|w| wire::write_vec::<u8, u8>(w, &v, NO_MAX));
    assert_eq!(
        err.kind(),
        &PackErrorKind::LengthOverflow {
            what: SeqKind::Array,
            len: 256,
            length_type: "uint_8",
            limit: 255
        }
    );
    let err = pack_err(|w| wire::write_vec::<u8, u8>(w, &v[..11], 10));
    assert_eq!(
        err.kind(),
        &PackErrorKind::AboveMax {
            what: SeqKind::Array,
            len: 11,
            max: 10
        }
    );
}

#[test]
fn variable_array_unpack_errors() {
    // Above max.
    let err = read_all(&[3, 1, 2, 3], |r| wire::read_vec::<u8, u8>(r, 2)).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::AboveMax {
            what: SeqKind::Array,
            len: 3,
            max: 2
        }
    );
    assert_eq!(err.offset(), 0);

    // The count times the element's minimum size must fit in the remaining input; checked
    // before allocating.
    let err = read_all(&[0xff, 0xff, 0xff, 0xff, 0, 0], |r| {
        wire::read_vec::<u32, u32>(r, NO_MAX)
    })
    .unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated {
            need: 0xffff_ffff * 4,
            left: 2
        }
    );
    assert_eq!(err.offset(), 4);

    // A count whose byte size overflows u64 saturates.
    let mut b = vec![0xff; 8];
    b.push(0);
    let err = read_all(&b, |r| wire::read_vec::<u64, u64>(r, NO_MAX)).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated {
            need: u64::MAX,
            left: 1
        }
    );

    // Element errors carry the element index.
    let err = read_all(&[3, 1, 0, 2, 0, 3], |r| {
        wire::read_vec::<u8, u16>(r, NO_MAX).in_field("T", "xs")
    })
    .unwrap_err();
    // 3 elements * 2 bytes = 6 > 5 left: rejected up front.
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::Truncated { need: 6, left: 5 }
    ));

    let err = read_all(&[2, 0, 0, 1, 0xff, 7], |r| {
        wire::read_vec::<u8, Pair>(r, NO_MAX).in_field("T", "xs")
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated input at byte 5 while reading T.xs[1].b: need 2 bytes, 1 left"
    );
}

/// A two-field structure used as an array element.
#[derive(Debug, PartialEq)]
struct Pair {
    a: u8,
    b: u16,
}

impl Wire for Pair {
    const TYPE_NAME: &'static str = "Pair";
    const FIXED_SIZE: Option<usize> =
        wire::struct_fixed_size(&[<u8 as Wire>::FIXED_SIZE, <u16 as Wire>::FIXED_SIZE]);
    const MIN_SIZE: usize = 1; // deliberately weaker than the real 3
    fn packed_size(&self) -> usize {
        3
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.a.write_to(w).in_field(Self::TYPE_NAME, "a")?;
        self.b.write_to(w).in_field(Self::TYPE_NAME, "b")
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Pair {
            a: r.read().in_field(Self::TYPE_NAME, "a")?,
            b: r.read().in_field(Self::TYPE_NAME, "b")?,
        })
    }
}

/// An empty message: zero bytes on the wire.
#[derive(Debug, PartialEq, Clone)]
struct Empty {}

impl Wire for Empty {
    const TYPE_NAME: &'static str = "Empty";
    const FIXED_SIZE: Option<usize> = wire::struct_fixed_size(&[]);
    const MIN_SIZE: usize = 0;
    fn packed_size(&self) -> usize {
        0
    }
    fn write_to(&self, _: &mut Writer<'_>) -> Result<(), PackError> {
        Ok(())
    }
    fn read_from(_: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Empty {})
    }
}

#[test]
fn zero_sized_elements_are_limited() {
    assert_eq!(<Empty as Wire>::FIXED_SIZE, Some(0));
    let v = vec![Empty {}; 5];
    let b = pack_with(4, |w| wire::write_vec::<u32, Empty>(w, &v, NO_MAX));
    assert_eq!(b, [5, 0, 0, 0]);
    assert_eq!(
        read_all(&b, |r| wire::read_vec::<u32, Empty>(r, NO_MAX)).unwrap(),
        v
    );

    let limit = wire::MAX_ZERO_SIZED_ELEMENTS;
    let b = (limit as u32).to_le_bytes();
    assert_eq!(
        read_all(&b, |r| wire::read_vec::<u32, Empty>(r, NO_MAX))
            .unwrap()
            .len(),
        limit as usize
    );
    let b = (limit as u32 + 1).to_le_bytes();
    let err = read_all(&b, |r| wire::read_vec::<u32, Empty>(r, NO_MAX)).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::TooManyElements {
            count: limit + 1,
            limit
        }
    );
    let err = read_all(&u64::MAX.to_le_bytes(), |r| {
        wire::read_vec::<u64, Empty>(r, NO_MAX)
    })
    .unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::TooManyElements { .. }
    ));

    let v = vec![Empty {}; limit as usize + 1];
    let err = pack_err(|w| wire::write_vec::<u32, Empty>(w, &v, NO_MAX));
    assert!(matches!(err.kind(), PackErrorKind::TooManyElements { .. }));
}

// ---------------------------------------------------------------------------------------
// Arrays of strings: spec §4.3 SoManyStrings
// ---------------------------------------------------------------------------------------

// message SoManyStrings {
//   string varStringBuff[uint_16], string fixedStringBuff[3],
//   string[uint_16] anotherVarStringBuff[uint_8], string[uint_8] anotherFixedStringBuff[2] }
#[allow(non_snake_case)]
#[derive(Debug, PartialEq)]
struct SoManyStrings {
    varStringBuff: Vec<String>,
    fixedStringBuff: [String; 3],
    anotherVarStringBuff: Vec<String>,
    anotherFixedStringBuff: [String; 2],
}

impl Wire for SoManyStrings {
    const TYPE_NAME: &'static str = "SoManyStrings";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = 2 + 3 + 1 + 2;
    fn packed_size(&self) -> usize {
        wire::string_vec_size::<u16, u8>(&self.varStringBuff)
            + wire::strings_size::<u8>(&self.fixedStringBuff)
            + wire::string_vec_size::<u8, u16>(&self.anotherVarStringBuff)
            + wire::strings_size::<u8>(&self.anotherFixedStringBuff)
    }
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        wire::write_string_vec::<u16, u8>(w, &self.varStringBuff, NO_MAX, NO_MAX)
            .in_field(Self::TYPE_NAME, "varStringBuff")?;
        wire::write_strings::<u8>(w, &self.fixedStringBuff, NO_MAX)
            .in_field(Self::TYPE_NAME, "fixedStringBuff")?;
        wire::write_string_vec::<u8, u16>(w, &self.anotherVarStringBuff, NO_MAX, NO_MAX)
            .in_field(Self::TYPE_NAME, "anotherVarStringBuff")?;
        wire::write_strings::<u8>(w, &self.anotherFixedStringBuff, NO_MAX)
            .in_field(Self::TYPE_NAME, "anotherFixedStringBuff")
    }
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            varStringBuff: wire::read_string_vec::<u16, u8>(r, NO_MAX, NO_MAX)
                .in_field(Self::TYPE_NAME, "varStringBuff")?,
            fixedStringBuff: wire::read_string_array::<u8, 3>(r, NO_MAX)
                .in_field(Self::TYPE_NAME, "fixedStringBuff")?,
            anotherVarStringBuff: wire::read_string_vec::<u8, u16>(r, NO_MAX, NO_MAX)
                .in_field(Self::TYPE_NAME, "anotherVarStringBuff")?,
            anotherFixedStringBuff: wire::read_string_array::<u8, 2>(r, NO_MAX)
                .in_field(Self::TYPE_NAME, "anotherFixedStringBuff")?,
        })
    }
}

fn s(x: &str) -> String {
    x.to_owned()
}

#[test]
fn so_many_strings_spec_vector() {
    let v = SoManyStrings {
        varStringBuff: vec![s("a"), s("bc")],
        fixedStringBuff: [s("x"), s(""), s("yz")],
        anotherVarStringBuff: vec![s("Q")],
        anotherFixedStringBuff: [s(""), s("w")],
    };
    let b = v.pack().unwrap();
    assert_eq!(
        b,
        [
            0x02, 0x00, 0x01, 0x61, 0x02, 0x62, 0x63, 0x01, 0x78, 0x00, 0x02, 0x79, 0x7a, 0x01,
            0x01, 0x00, 0x51, 0x00, 0x01, 0x77
        ]
    );
    assert_eq!(v.packed_size(), 20);
    assert_eq!(SoManyStrings::unpack(&b).unwrap(), v);

    // Bad UTF-8 in fixedStringBuff[2].
    let mut bad = b.clone();
    bad[12] = 0xff;
    let err = SoManyStrings::unpack(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid UTF-8 at byte 12 while reading SoManyStrings.fixedStringBuff[2]: \
         string is valid UTF-8 only up to its byte 1"
    );

    // A too-long element string names its index.
    let long = SoManyStrings {
        anotherFixedStringBuff: [s(""), "w".repeat(256)],
        ..v
    };
    let err = long.pack().unwrap_err();
    assert_eq!(
        err.to_string(),
        "length does not fit its length type at byte 18 while packing \
         SoManyStrings.anotherFixedStringBuff[1]: string of 256 bytes, uint_8 allows at most 255"
    );
}

#[test]
fn string_array_limits() {
    let items = [s("abc"), s("de")];
    let err = pack_err(|w| wire::write_string_vec::<u8, u8>(w, &items, 1, NO_MAX));
    assert!(matches!(
        err.kind(),
        PackErrorKind::AboveMax {
            what: SeqKind::Array,
            len: 2,
            max: 1
        }
    ));
    let err = pack_err(|w| wire::write_string_vec::<u8, u8>(w, &items, NO_MAX, 2));
    assert!(matches!(
        err.kind(),
        PackErrorKind::AboveMax {
            what: SeqKind::String,
            len: 3,
            max: 2
        }
    ));
    assert_eq!(err.path().to_string(), "[0]");
    // Works with &str slices too.
    let b = pack_with(5, |w| {
        wire::write_string_vec::<u8, u8>(w, &["a", "b"], NO_MAX, NO_MAX)
    });
    assert_eq!(b, [2, 1, b'a', 1, b'b']);
    assert_eq!(wire::string_vec_size::<u8, u8>(&["a", "b"]), 5);

    // Count larger than the input could hold (1 byte per string minimum).
    let err = read_all(&[200, 0, 0], |r| {
        wire::read_string_vec::<u8, u8>(r, NO_MAX, NO_MAX)
    })
    .unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::Truncated { need: 200, left: 2 }
    );
    let err = read_all(&[2, 3, 0, 0, 0], |r| {
        wire::read_string_vec::<u8, u16>(r, NO_MAX, 2)
    })
    .unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::AboveMax { len: 3, max: 2, .. }
    ));
    assert_eq!(err.path().to_string(), "[0]");
    assert_eq!(err.offset(), 1);
    let err = read_all(&[1, b'a', 5], |r| {
        wire::read_string_array::<u8, 3>(r, NO_MAX)
    })
    .unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::Truncated { need: 5, left: 0 }
    ));
    assert_eq!(err.path().to_string(), "[1]");
}

// ---------------------------------------------------------------------------------------
// Enums and unions
// ---------------------------------------------------------------------------------------

#[test]
fn enums_reject_non_members_with_their_value() {
    fn from_i16(v: i16) -> Option<i16> {
        (v == 1).then_some(v)
    }
    fn from_u64(v: u64) -> Option<u64> {
        (v == 1).then_some(v)
    }
    let mut r = Reader::new(&[1, 0, 0xfe, 0xff]);
    assert_eq!(wire::read_enum(&mut r, "E16", from_i16).unwrap(), 1);
    let err = wire::read_enum(&mut r, "E16", from_i16).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::InvalidEnum {
            type_name: "E16",
            value: -2
        }
    );
    assert_eq!(err.offset(), 2);

    let mut r = Reader::new(&[0xff; 8]);
    let err = wire::read_enum(&mut r, "E64", from_u64).unwrap_err();
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::InvalidEnum {
            type_name: "E64",
            value: u64::MAX.into()
        }
    );
    // Truncation inside an enum is a plain truncation.
    let mut r = Reader::new(&[1]);
    let err = wire::read_enum(&mut r, "E16", from_i16).unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::Truncated { need: 2, left: 1 }
    ));
}

#[test]
fn union_tags() {
    let mut r = Reader::new(&[3, 0xff, 9]);
    assert_eq!(r.read_tag("U").unwrap(), 3);
    let err = r.read_tag("U").unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::InvalidTag { type_name: "U" });
    assert_eq!(err.offset(), 1);
    assert_eq!(r.read_tag("U").unwrap(), 9);
    let err = r.unknown_tag("U", 9);
    assert_eq!(
        err.kind(),
        &UnpackErrorKind::UnknownTag {
            type_name: "U",
            tag: 9
        }
    );
    assert_eq!(err.offset(), 2);
    let err = UnpackError::unknown_tag("U", 4, 17);
    assert_eq!(err.offset(), 17);
    let err = r.read_tag("U").unwrap_err();
    assert!(matches!(
        err.kind(),
        UnpackErrorKind::Truncated { need: 1, left: 0 }
    ));
    assert_eq!(wire::INVALID_TAG, 0xff);
}

#[test]
fn size_constant_helpers() {
    assert_eq!(wire::struct_fixed_size(&[]), Some(0));
    assert_eq!(wire::struct_fixed_size(&[Some(1), Some(4)]), Some(5));
    assert_eq!(wire::struct_fixed_size(&[Some(1), None]), None);
    assert_eq!(wire::union_fixed_size(&[]), Some(1));
    assert_eq!(wire::union_fixed_size(&[Some(4), Some(4)]), Some(5));
    assert_eq!(wire::union_fixed_size(&[Some(4), Some(2)]), None);
    assert_eq!(wire::union_fixed_size(&[Some(4), None]), None);
    assert_eq!(wire::union_min_size(&[]), 1);
    assert_eq!(wire::union_min_size(&[4, 2, 8]), 3);
    const C: Option<usize> =
        wire::union_fixed_size(&[<u32 as Wire>::FIXED_SIZE, <f32 as Wire>::FIXED_SIZE]);
    assert_eq!(C, Some(5));
}

#[test]
fn write_len_building_block() {
    let mut buf = [0u8; 2];
    let mut w = Writer::new(&mut buf);
    wire::write_len::<u16>(&mut w, SeqKind::Array, 513, NO_MAX).unwrap();
    assert_eq!(buf, [1, 2]);
}
