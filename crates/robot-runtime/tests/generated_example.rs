//! The hand-written "generated" types of the `wire` module documentation, plus the spec's
//! `Foo` test message (§4.3), implemented exactly the way the code generator will, and
//! checked against known bytes and error messages.

use robot_runtime::wire::{
    self, FieldContext, PackError, PackErrorKind, Reader, UnpackError, UnpackErrorKind, Wire,
    Writer,
};

// ---------------------------------------------------------------------------------------
// The module-doc example: enum Color, union Shape, message Robot.
// ---------------------------------------------------------------------------------------

// enum uint_8 Color { Red = 1, Green, Blue }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Color {
    Red = 1,
    Green = 2,
    Blue = 3,
}

impl Color {
    pub const fn from_repr(v: u8) -> Option<Self> {
        match v {
            1 => Some(Self::Red),
            2 => Some(Self::Green),
            3 => Some(Self::Blue),
            _ => None,
        }
    }
}

impl Wire for Color {
    const TYPE_NAME: &'static str = "Color";
    const FIXED_SIZE: Option<usize> = Some(1);
    const MIN_SIZE: usize = 1;
    #[inline]
    fn packed_size(&self) -> usize {
        1
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        (*self as u8).write_to(w)
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        wire::read_enum(r, Self::TYPE_NAME, Self::from_repr)
    }
}

// union Shape { Color color = 0, uint_16 side = 5 }
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Color(Color),
    Side(u16),
}

impl Wire for Shape {
    const TYPE_NAME: &'static str = "Shape";
    const FIXED_SIZE: Option<usize> =
        wire::union_fixed_size(&[<Color as Wire>::FIXED_SIZE, <u16 as Wire>::FIXED_SIZE]);
    const MIN_SIZE: usize =
        wire::union_min_size(&[<Color as Wire>::MIN_SIZE, <u16 as Wire>::MIN_SIZE]);
    #[inline]
    fn packed_size(&self) -> usize {
        1 + match self {
            Self::Color(v) => v.packed_size(),
            Self::Side(v) => v.packed_size(),
        }
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        match self {
            Self::Color(v) => {
                w.write_tag(0)?;
                v.write_to(w).in_field(Self::TYPE_NAME, "color")
            }
            Self::Side(v) => {
                w.write_tag(5)?;
                v.write_to(w).in_field(Self::TYPE_NAME, "side")
            }
        }
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        match r.read_tag(Self::TYPE_NAME)? {
            0 => r.read().map(Self::Color).in_field(Self::TYPE_NAME, "color"),
            5 => r.read().map(Self::Side).in_field(Self::TYPE_NAME, "side"),
            tag => Err(r.unknown_tag(Self::TYPE_NAME, tag)),
        }
    }
}

// message Robot { uint_32 id, string[uint_16:100] name, Shape shape }
#[derive(Clone, Debug, PartialEq)]
pub struct Robot {
    pub id: u32,
    pub name: String,
    pub shape: Shape,
}

impl Wire for Robot {
    const TYPE_NAME: &'static str = "Robot";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize =
        <u32 as Wire>::MIN_SIZE + <u16 as Wire>::MIN_SIZE + <Shape as Wire>::MIN_SIZE;
    #[inline]
    fn packed_size(&self) -> usize {
        self.id.packed_size() + wire::string_size::<u16>(&self.name) + self.shape.packed_size()
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.id.write_to(w).in_field(Self::TYPE_NAME, "id")?;
        wire::write_string::<u16>(w, &self.name, 100).in_field(Self::TYPE_NAME, "name")?;
        self.shape.write_to(w).in_field(Self::TYPE_NAME, "shape")
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            id: r.read().in_field(Self::TYPE_NAME, "id")?,
            name: wire::read_string::<u16>(r, 100).in_field(Self::TYPE_NAME, "name")?,
            shape: r.read().in_field(Self::TYPE_NAME, "shape")?,
        })
    }
}

fn robot() -> Robot {
    Robot {
        id: 7,
        name: "vec".into(),
        shape: Shape::Color(Color::Blue),
    }
}

#[test]
fn robot_packs_known_bytes_and_round_trips() {
    let r = robot();
    let bytes = r.pack().unwrap();
    assert_eq!(bytes, [7, 0, 0, 0, 3, 0, b'v', b'e', b'c', 0, 3]);
    assert_eq!(r.packed_size(), bytes.len());
    assert_eq!(Robot::unpack(&bytes).unwrap(), r);

    let side = Robot {
        shape: Shape::Side(0x1234),
        ..r
    };
    let bytes = side.pack().unwrap();
    assert_eq!(bytes, [7, 0, 0, 0, 3, 0, b'v', b'e', b'c', 5, 0x34, 0x12]);
    assert_eq!(Robot::unpack(&bytes).unwrap(), side);
}

#[test]
fn robot_constants() {
    assert_eq!(<Shape as Wire>::FIXED_SIZE, None); // members of size 1 and 2
    assert_eq!(<Shape as Wire>::MIN_SIZE, 2);
    assert_eq!(<Robot as Wire>::MIN_SIZE, 4 + 2 + 2);
}

#[test]
fn robot_error_messages() {
    let bytes = robot().pack().unwrap();
    let err = Robot::unpack(&bytes[..8]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated input at byte 6 while reading Robot.name: need 3 bytes, 2 left"
    );
    assert_eq!(err.path().innermost_field(), Some(("Robot", "name")));

    let err = Robot::unpack(&[7, 0, 0, 0, 0, 0, 0, 9]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid enum value at byte 7 while reading Robot.shape.color: 9 is not a member of Color"
    );
    assert_eq!(err.path().innermost_field(), Some(("Shape", "color")));

    let err = Robot::unpack(&[7, 0, 0, 0, 0, 0, 4]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown union tag at byte 6 while reading Robot.shape: 4 is not a member tag of Shape"
    );

    let err = Robot::unpack(&[7, 0, 0, 0, 0, 0, 0xff]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid union tag at byte 6 while reading Robot.shape: tag 255 (INVALID) for Shape"
    );

    let err = Robot::unpack(&[7, 0, 0, 0, 101, 0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "length above declared maximum at byte 4 while reading Robot.name: \
         string of 101 bytes, declared maximum is 100"
    );

    let mut extra = bytes.clone();
    extra.push(0);
    let err = Robot::unpack(&extra).unwrap_err();
    assert_eq!(
        err.to_string(),
        "trailing bytes at byte 11: 1 unread bytes after a complete Robot"
    );
    assert_eq!(Robot::unpack_prefix(&extra).unwrap(), (robot(), 11));

    let long = Robot {
        name: "x".repeat(101),
        ..robot()
    };
    let err = long.pack().unwrap_err();
    assert_eq!(
        err.to_string(),
        "length above declared maximum at byte 4 while packing Robot.name: \
         string of 101 bytes, declared maximum is 100"
    );

    let mut small = [0u8; 8];
    let err = robot().pack_into(&mut small).unwrap_err();
    assert_eq!(
        err.to_string(),
        "output buffer too small at byte 6 while packing Robot.name: need 3 bytes, 2 left"
    );
    let mut small = [0u8; 9];
    let err = robot().pack_into(&mut small).unwrap_err();
    assert_eq!(
        err.to_string(),
        "output buffer too small at byte 9 while packing Robot.shape: need 1 bytes, 0 left"
    );
}

// ---------------------------------------------------------------------------------------
// Spec §4.3: Foo { bool isFoo, int_8 myByte, uint_8 byteTwo, int_16 myShort,
// float_32 myFloat, uint_32 myNormal, AnkiTypes::AnkiEnum myFoo, string myString }
// ---------------------------------------------------------------------------------------

// enum int_8 AnkiTypes::AnkiEnum { e1 = 0x0f, e2, e3, myReallySilly_EnumVal, d1 = 5, d2, d3 }
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum AnkiEnum {
    e1 = 0x0f,
    e2 = 0x10,
    e3 = 0x11,
    myReallySilly_EnumVal = 0x12,
    d1 = 5,
    d2 = 6,
    d3 = 7,
}

impl AnkiEnum {
    pub const fn from_repr(v: i8) -> Option<Self> {
        match v {
            0x0f => Some(Self::e1),
            0x10 => Some(Self::e2),
            0x11 => Some(Self::e3),
            0x12 => Some(Self::myReallySilly_EnumVal),
            5 => Some(Self::d1),
            6 => Some(Self::d2),
            7 => Some(Self::d3),
            _ => None,
        }
    }
}

impl Wire for AnkiEnum {
    const TYPE_NAME: &'static str = "AnkiTypes::AnkiEnum";
    const FIXED_SIZE: Option<usize> = Some(1);
    const MIN_SIZE: usize = 1;
    #[inline]
    fn packed_size(&self) -> usize {
        1
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        (*self as i8).write_to(w)
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        wire::read_enum(r, Self::TYPE_NAME, Self::from_repr)
    }
}

#[allow(non_snake_case)]
#[derive(Clone, Debug, PartialEq)]
pub struct Foo {
    pub isFoo: bool,
    pub myByte: i8,
    pub byteTwo: u8,
    pub myShort: i16,
    pub myFloat: f32,
    pub myNormal: u32,
    pub myFoo: AnkiEnum,
    pub myString: String,
}

impl Wire for Foo {
    const TYPE_NAME: &'static str = "Foo";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = <bool as Wire>::MIN_SIZE
        + <i8 as Wire>::MIN_SIZE
        + <u8 as Wire>::MIN_SIZE
        + <i16 as Wire>::MIN_SIZE
        + <f32 as Wire>::MIN_SIZE
        + <u32 as Wire>::MIN_SIZE
        + <AnkiEnum as Wire>::MIN_SIZE
        + <u8 as Wire>::MIN_SIZE;
    #[inline]
    fn packed_size(&self) -> usize {
        self.isFoo.packed_size()
            + self.myByte.packed_size()
            + self.byteTwo.packed_size()
            + self.myShort.packed_size()
            + self.myFloat.packed_size()
            + self.myNormal.packed_size()
            + self.myFoo.packed_size()
            + wire::string_size::<u8>(&self.myString)
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.isFoo.write_to(w).in_field(Self::TYPE_NAME, "isFoo")?;
        self.myByte
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myByte")?;
        self.byteTwo
            .write_to(w)
            .in_field(Self::TYPE_NAME, "byteTwo")?;
        self.myShort
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myShort")?;
        self.myFloat
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myFloat")?;
        self.myNormal
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myNormal")?;
        self.myFoo.write_to(w).in_field(Self::TYPE_NAME, "myFoo")?;
        wire::write_string::<u8>(w, &self.myString, wire::NO_MAX)
            .in_field(Self::TYPE_NAME, "myString")
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            isFoo: r.read().in_field(Self::TYPE_NAME, "isFoo")?,
            myByte: r.read().in_field(Self::TYPE_NAME, "myByte")?,
            byteTwo: r.read().in_field(Self::TYPE_NAME, "byteTwo")?,
            myShort: r.read().in_field(Self::TYPE_NAME, "myShort")?,
            myFloat: r.read().in_field(Self::TYPE_NAME, "myFloat")?,
            myNormal: r.read().in_field(Self::TYPE_NAME, "myNormal")?,
            myFoo: r.read().in_field(Self::TYPE_NAME, "myFoo")?,
            myString: wire::read_string::<u8>(r, wire::NO_MAX)
                .in_field(Self::TYPE_NAME, "myString")?,
        })
    }
}

fn foo() -> Foo {
    Foo {
        isFoo: true,
        myByte: -5,
        byteTwo: 203,
        myShort: 32000,
        myFloat: 1.5,
        myNormal: 0xFFFF_FFFF,
        myFoo: AnkiEnum::e3,
        myString: "hi".into(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn foo_packs_spec_vector() {
    let f = foo();
    assert_eq!(f.myFoo as i8, 17);
    let bytes = f.pack().unwrap();
    assert_eq!(hex(&bytes), "01fbcb007d0000c03fffffffff11026869");
    assert_eq!(f.packed_size(), 17);
    assert_eq!(Foo::unpack(&bytes).unwrap(), f);

    let mut buf = [0u8; 64];
    let n = f.pack_into(&mut buf).unwrap();
    assert_eq!(&buf[..n], &bytes[..]);

    let mut out = vec![0xAA];
    assert_eq!(f.pack_append(&mut out).unwrap(), 17);
    assert_eq!(out[0], 0xAA);
    assert_eq!(&out[1..], &bytes[..]);
}

#[test]
fn foo_errors_name_field_and_offset() {
    let bytes = foo().pack().unwrap();
    // Cut inside myString's bytes.
    let err = Foo::unpack(&bytes[..16]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated input at byte 15 while reading Foo.myString: need 2 bytes, 1 left"
    );
    assert_eq!(err.kind(), &UnpackErrorKind::Truncated { need: 2, left: 1 });
    assert_eq!(err.offset(), 15);

    // Cut inside myNormal.
    let err = Foo::unpack(&bytes[..11]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated input at byte 9 while reading Foo.myNormal: need 4 bytes, 2 left"
    );

    // A bad enum value.
    let mut bad = bytes.clone();
    bad[13] = 99;
    let err = Foo::unpack(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid enum value at byte 13 while reading Foo.myFoo: \
         99 is not a member of AnkiTypes::AnkiEnum"
    );

    // Invalid UTF-8 in the second byte of myString.
    let mut bad = bytes.clone();
    bad[16] = 0xff;
    let err = Foo::unpack(&bad).unwrap_err();
    assert_eq!(err.kind(), &UnpackErrorKind::InvalidUtf8 { valid_up_to: 1 });
    assert_eq!(err.offset(), 16);
    assert_eq!(
        err.to_string(),
        "invalid UTF-8 at byte 16 while reading Foo.myString: \
         string is valid UTF-8 only up to its byte 1"
    );

    // bool: any non-zero byte is true.
    let mut odd = bytes.clone();
    odd[0] = 0x80;
    assert!(Foo::unpack(&odd).unwrap().isFoo);

    // A string that does not fit uint_8.
    let long = Foo {
        myString: "é".repeat(128),
        ..foo()
    };
    let err = long.pack().unwrap_err();
    assert_eq!(
        err.kind(),
        &PackErrorKind::LengthOverflow {
            what: wire::SeqKind::String,
            len: 256,
            length_type: "uint_8",
            limit: 255,
        }
    );
    assert_eq!(
        err.to_string(),
        "length does not fit its length type at byte 14 while packing Foo.myString: \
         string of 256 bytes, uint_8 allows at most 255"
    );
}
