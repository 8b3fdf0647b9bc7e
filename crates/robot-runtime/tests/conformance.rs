//! Runs the reference compiler's conformance vectors
//! (`../shared/conformance/message-buffers/vectors`) for a few schemas through types written
//! in the shape the code generator will emit (stamped out by the small macros below, which
//! expand to exactly the documented call pattern), checking both the wire format and
//! CLAD-JSON:
//!
//! 1. CLAD-JSON `value` → Rust value → pack → must equal `hex`;
//! 2. unpack `hex` → equal value, packs to the same bytes, converts back to `value`.
//!
//! Covered: `Foo.clad`, `Bar.clad`, `SimpleTest.clad`, `ExplicitUnion.clad`,
//! `JsonSerialization.clad` (every type they declare).

use std::fmt::Debug;
use std::path::PathBuf;

use robot_runtime::wire::{
    self, FieldContext, PackError, Reader, UnpackError, Wire, Writer, NO_MAX,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------
// Stand-ins for generated code
// ---------------------------------------------------------------------------------------

macro_rules! clad_enum {
    ($name:ident = $clad:literal : $repr:ident { $($v:ident = $val:literal),* $(,)? }) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[repr($repr)]
        pub enum $name { $($v = $val),* }

        impl $name {
            pub const fn from_repr(x: $repr) -> Option<Self> {
                $(if x == $val { return Some(Self::$v); })*
                None
            }
        }

        impl Wire for $name {
            const TYPE_NAME: &'static str = $clad;
            const FIXED_SIZE: Option<usize> = <$repr as Wire>::FIXED_SIZE;
            const MIN_SIZE: usize = <$repr as Wire>::MIN_SIZE;
            #[inline]
            fn packed_size(&self) -> usize {
                <$repr as Wire>::MIN_SIZE
            }
            #[inline]
            fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
                (*self as $repr).write_to(w)
            }
            #[inline]
            fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
                wire::read_enum(r, Self::TYPE_NAME, Self::from_repr)
            }
        }
    };
}

// Member kinds: `plain` (any Wire type incl. [T; N]), `string[L, max]`,
// `vec[L, T, max]`, `strvec[L, SL, max, smax]`, `strarr[SL, N, smax]`.
macro_rules! m_fixed {
    ($ty:ty; plain) => {
        <$ty as Wire>::FIXED_SIZE
    };
    ($ty:ty; $kind:ident [$($arg:tt)*]) => {
        None
    };
}
macro_rules! m_min {
    ($ty:ty; plain) => {
        <$ty as Wire>::MIN_SIZE
    };
    ($ty:ty; string [$l:ty, $max:expr]) => {
        <$l as Wire>::MIN_SIZE
    };
    ($ty:ty; vec [$l:ty, $t:ty, $max:expr]) => {
        <$l as Wire>::MIN_SIZE
    };
    ($ty:ty; strvec [$l:ty, $sl:ty, $max:expr, $smax:expr]) => {
        <$l as Wire>::MIN_SIZE
    };
    ($ty:ty; strarr [$sl:ty, $n:expr, $smax:expr]) => {
        $n * <$sl as Wire>::MIN_SIZE
    };
}
macro_rules! m_size {
    ($v:expr; plain) => {
        $v.packed_size()
    };
    ($v:expr; string [$l:ty, $max:expr]) => {
        wire::string_size::<$l>(&$v)
    };
    ($v:expr; vec [$l:ty, $t:ty, $max:expr]) => {
        wire::vec_size::<$l, $t>(&$v)
    };
    ($v:expr; strvec [$l:ty, $sl:ty, $max:expr, $smax:expr]) => {
        wire::string_vec_size::<$l, $sl>(&$v)
    };
    ($v:expr; strarr [$sl:ty, $n:expr, $smax:expr]) => {
        wire::strings_size::<$sl>(&$v)
    };
}
macro_rules! m_write {
    ($w:ident, $v:expr; plain) => {
        $v.write_to($w)
    };
    ($w:ident, $v:expr; string [$l:ty, $max:expr]) => {
        wire::write_string::<$l>($w, &$v, $max)
    };
    ($w:ident, $v:expr; vec [$l:ty, $t:ty, $max:expr]) => {
        wire::write_vec::<$l, $t>($w, &$v, $max)
    };
    ($w:ident, $v:expr; strvec [$l:ty, $sl:ty, $max:expr, $smax:expr]) => {
        wire::write_string_vec::<$l, $sl>($w, &$v, $max, $smax)
    };
    ($w:ident, $v:expr; strarr [$sl:ty, $n:expr, $smax:expr]) => {
        wire::write_strings::<$sl>($w, &$v, $smax)
    };
}
macro_rules! m_read {
    ($r:ident; plain) => {
        $r.read()
    };
    ($r:ident; string [$l:ty, $max:expr]) => {
        wire::read_string::<$l>($r, $max)
    };
    ($r:ident; vec [$l:ty, $t:ty, $max:expr]) => {
        wire::read_vec::<$l, $t>($r, $max)
    };
    ($r:ident; strvec [$l:ty, $sl:ty, $max:expr, $smax:expr]) => {
        wire::read_string_vec::<$l, $sl>($r, $max, $smax)
    };
    ($r:ident; strarr [$sl:ty, $n:expr, $smax:expr]) => {
        wire::read_string_array::<$sl, $n>($r, $smax)
    };
}

macro_rules! clad_struct {
    ($name:ident = $clad:literal {
        $( $(#[$attr:meta])* $field:ident : $ty:ty => $kind:ident $([$($arg:tt)*])? ),* $(,)?
    }) => {
        #[allow(non_snake_case, non_camel_case_types)]
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name { $( $(#[$attr])* pub $field: $ty, )* }

        impl Wire for $name {
            const TYPE_NAME: &'static str = $clad;
            const FIXED_SIZE: Option<usize> =
                wire::struct_fixed_size(&[$(m_fixed!($ty; $kind $([$($arg)*])?)),*]);
            const MIN_SIZE: usize = 0 $(+ m_min!($ty; $kind $([$($arg)*])?))*;
            #[inline]
            fn packed_size(&self) -> usize {
                0 $(+ m_size!(self.$field; $kind $([$($arg)*])?))*
            }
            #[inline]
            #[allow(unused_variables)]
            fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
                $( m_write!(w, self.$field; $kind $([$($arg)*])?)
                    .in_field(Self::TYPE_NAME, stringify!($field))?; )*
                Ok(())
            }
            #[inline]
            #[allow(unused_variables)]
            fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
                Ok(Self { $(
                    $field: m_read!(r; $kind $([$($arg)*])?)
                        .in_field(Self::TYPE_NAME, stringify!($field))?,
                )* })
            }
        }
    };
}

macro_rules! clad_union {
    ($name:ident = $clad:literal {
        $( $(#[$attr:meta])* $member:ident ($ty:ty) = $tag:literal ),* $(,)?
    }) => {
        #[allow(non_camel_case_types, clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type")]
        pub enum $name { $( $(#[$attr])* $member($ty), )* }

        impl Wire for $name {
            const TYPE_NAME: &'static str = $clad;
            const FIXED_SIZE: Option<usize> =
                wire::union_fixed_size(&[$(<$ty as Wire>::FIXED_SIZE),*]);
            const MIN_SIZE: usize = wire::union_min_size(&[$(<$ty as Wire>::MIN_SIZE),*]);
            #[inline]
            fn packed_size(&self) -> usize {
                1 + match self { $(Self::$member(v) => v.packed_size(),)* }
            }
            #[inline]
            fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
                match self { $(
                    Self::$member(v) => {
                        w.write_tag($tag)?;
                        v.write_to(w).in_field(Self::TYPE_NAME, stringify!($member))
                    }
                )* }
            }
            #[inline]
            fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
                match r.read_tag(Self::TYPE_NAME)? {
                    $($tag => r.read().map(Self::$member).in_field(Self::TYPE_NAME, stringify!($member)),)*
                    tag => Err(r.unknown_tag(Self::TYPE_NAME, tag)),
                }
            }
        }
    };
}

// ---------------------------------------------------------------------------------------
// aligned/AnkiEnum.clad, Foo.clad, Bar.clad
// ---------------------------------------------------------------------------------------

clad_enum!(AnkiEnum = "AnkiTypes::AnkiEnum": i8 {
    e1 = 0x0f, e2 = 0x10, e3 = 0x11, myReallySilly_EnumVal = 0x12, d1 = 5, d2 = 6, d3 = 7,
});

clad_struct!(Foo = "Foo" {
    isFoo: bool => plain,
    myByte: i8 => plain,
    byteTwo: u8 => plain,
    myShort: i16 => plain,
    #[serde(with = "robot_runtime::json::f32")]
    myFloat: f32 => plain,
    myNormal: u32 => plain,
    myFoo: AnkiEnum => plain,
    myString: String => string[u8, NO_MAX],
});

clad_struct!(Bar = "Bar" {
    boolBuff: Vec<bool> => vec[u16, bool, NO_MAX],
    byteBuff: Vec<i8> => vec[u16, i8, NO_MAX],
    shortBuff: Vec<i16> => vec[u8, i16, NO_MAX],
    enumBuff: Vec<AnkiEnum> => vec[u8, AnkiEnum, NO_MAX],
    #[serde(with = "robot_runtime::json::f64")]
    doubleBuff: Vec<f64> => vec[u8, f64, NO_MAX],
    myLongerString: String => string[u16, NO_MAX],
    fixedBuff: [i16; 20] => plain,
    fixedBoolBuff: [bool; 10] => plain,
    fixedEnumBuff: [AnkiEnum; 2] => plain,
});

// ---------------------------------------------------------------------------------------
// SimpleTest.clad
// ---------------------------------------------------------------------------------------

clad_struct!(Dog = "Baz::Dog" { a: AnkiEnum => plain, b: i8 => plain });
clad_struct!(Poodle = "Baz::Poodle" { a: AnkiEnum => plain, b: AnkiEnum => plain });

clad_enum!(LEDColor = "LEDColor": u32 { CurrentColor = 0xffffffff, Color1 = 0x7 });

clad_struct!(SoManyStrings = "SoManyStrings" {
    varStringBuff: Vec<String> => strvec[u16, u8, NO_MAX, NO_MAX],
    fixedStringBuff: [String; 3] => strarr[u8, 3, NO_MAX],
    anotherVarStringBuff: Vec<String> => strvec[u8, u16, NO_MAX, NO_MAX],
    anotherFixedStringBuff: [String; 2] => strarr[u8, 2, NO_MAX],
});

clad_struct!(od432 = "od432" {
    aFoo: Foo => plain,
    otherByte: i8 => plain,
    color: LEDColor => plain,
});

clad_struct!(od433 = "od433" {
    a: Vec<Foo> => vec[u16, Foo, NO_MAX],
    b: [Foo; 2] => plain,
    otherByte: i8 => plain,
});

clad_struct!(od434 = "od434" { vehiclesPlayed: Vec<u64> => vec[u64, u64, NO_MAX] });

clad_struct!(Trip = "Trip" { destination: String => string[u8, NO_MAX], price: i32 => plain });
clad_struct!(od217One = "od217One" { plans: Trip => plain, count: i16 => plain });
clad_struct!(od217Two = "od217Two" {
    employeeId: i32 => plain,
    travels: Vec<Trip> => vec[u16, Trip, NO_MAX],
});

clad_union!(MyMessage = "Cat::MyMessage" {
    myFoo(Foo) = 31,
    myBar(Bar) = 1,
    myDog(Dog) = 2,
    mySoManyStrings(SoManyStrings) = 0,
    myOD432(od432) = 254,
});

clad_struct!(HasDefaultConstructor = "Constructor::HasDefaultConstructor" {
    #[serde(with = "robot_runtime::json::f32")]
    foo: f32 => plain,
    bar: i32 => plain,
});
clad_struct!(HasNoDefaultConstructor = "Constructor::HasNoDefaultConstructor" {
    #[serde(with = "robot_runtime::json::f32")]
    foo: f32 => plain,
    bar: i32 => plain,
});
clad_struct!(HasNoDefaultConstructorString = "Constructor::HasNoDefaultConstructorString" {
    s: String => string[u8, NO_MAX],
});
clad_struct!(NoDefaultConstructorComplex = "Constructor::NoDefaultConstructorComplex" {
    c: HasDefaultConstructor => plain,
    s: String => string[u8, NO_MAX],
    arr: [u8; 20] => plain,
});
clad_struct!(NestedString = "Constructor::NestedString" { x: HasNoDefaultConstructorString => plain });
clad_struct!(MessageWithStruct = "Constructor::MessageWithStruct" {
    c1234: HasNoDefaultConstructor => plain,
    i: i32 => plain,
    #[serde(with = "robot_runtime::json::f32")]
    f: f32 => plain,
    c4321: HasDefaultConstructor => plain,
});
clad_struct!(OtherMessageWithStruct = "Constructor::OtherMessageWithStruct" {
    complex: NoDefaultConstructorComplex => plain,
    c: HasDefaultConstructor => plain,
});
clad_struct!(NestedNoDefaults = "Constructor::NestedNoDefaults" {
    c: NoDefaultConstructorComplex => plain,
    c1: HasDefaultConstructor => plain,
    arr: [u8; 20] => plain,
    c2: HasNoDefaultConstructor => plain,
    s: String => string[u8, NO_MAX],
});
clad_struct!(SuperComplex = "Constructor::SuperComplex" {
    n: NestedNoDefaults => plain,
    d: HasDefaultConstructor => plain,
    c: NoDefaultConstructorComplex => plain,
});
clad_struct!(Nest1 = "Constructor::Nest1" { c: HasNoDefaultConstructor => plain });
clad_struct!(Nest2 = "Constructor::Nest2" { c: Nest1 => plain });
clad_struct!(Nest3 = "Constructor::Nest3" { c: Nest2 => plain });

// uint_8 arr8[verbatim ArrSize::sizeTen], uint_16 arr16[verbatim ArrSize::sizeTwenty]
clad_struct!(ArraysS = "Arrays::s" { arr8: [u8; 10] => plain, arr16: [u16; 20] => plain });
clad_struct!(ArraysM = "Arrays::m" { arr8: [u8; 10] => plain, arr16: [u16; 20] => plain });

// ---------------------------------------------------------------------------------------
// ExplicitUnion.clad
// ---------------------------------------------------------------------------------------

clad_struct!(AnInt = "AnInt" { value: u32 => plain });
clad_struct!(ABool = "ABool" { value: bool => plain });
clad_struct!(AFloat = "AFloat" {
    #[serde(with = "robot_runtime::json::f32")]
    value: f32 => plain,
});
clad_struct!(AListOfDoubles = "AListOfDoubles" {
    #[serde(with = "robot_runtime::json::f64")]
    values: Vec<f64> => vec[u8, f64, NO_MAX],
});
clad_struct!(AFixedListOfBytes = "AFixedListOfBytes" { values: [u8; 4] => plain });

clad_union!(ExplicitlyTaggedUnion = "ExplicitlyTaggedUnion" {
    anInt(AnInt) = 0x01,
    aFloat(AFloat) = 0x02,
    aBool(ABool) = 0x03,
    dList(AListOfDoubles) = 0x80,
    bList(AFixedListOfBytes) = 0x81,
});

// ---------------------------------------------------------------------------------------
// JsonSerialization.clad
// ---------------------------------------------------------------------------------------

clad_union!(testUnionPrimitive = "JsonSerialization::testUnionPrimitive" {
    #[serde(with = "robot_runtime::json::value")]
    testBool(bool) = 0,
    #[serde(with = "robot_runtime::json::value")]
    testUint8(u8) = 1,
    #[serde(with = "robot_runtime::json::float_value")]
    testFloat32(f32) = 2,
});

clad_struct!(testStruct1 = "JsonSerialization::testStruct1" { test: bool => plain });
clad_struct!(testStruct2 = "JsonSerialization::testStruct2" { test: u32 => plain });
clad_struct!(testStruct3 = "JsonSerialization::testStruct3" { test: String => string[u8, NO_MAX] });

clad_union!(testUnionStructures = "JsonSerialization::testUnionStructures" {
    testStruct1(testStruct1) = 0,
    testStruct2(testStruct2) = 1,
    testStruct3(testStruct3) = 2,
});

clad_enum!(testEnum = "JsonSerialization::testEnum": u8 { Zero = 0, One = 1, Two = 2, Five = 5 });

clad_struct!(testStructure_Enums = "JsonSerialization::testStructure_Enums" {
    enumVal: testEnum => plain,
});
clad_struct!(testNestedStructure = "JsonSerialization::testNestedStructure" {
    #[serde(with = "robot_runtime::json::f64")]
    testDouble: f64 => plain,
    testUint64: u64 => plain,
    testStruct1: testStruct1 => plain,
    testStruct2: testStruct2 => plain,
    testStruct3: testStruct3 => plain,
});
clad_struct!(testStructure_BasicTypes = "JsonSerialization::testStructure_BasicTypes" {
    testBool: bool => plain,
    testString: String => string[u8, NO_MAX],
    testShort: i16 => plain,
    #[serde(with = "robot_runtime::json::f32")]
    testFloat: f32 => plain,
});
clad_struct!(testStructure_Lists = "JsonSerialization::testStructure_Lists" {
    testList: Vec<u16> => vec[u8, u16, NO_MAX],
});
clad_struct!(testStructure_ListOfEnums = "JsonSerialization::testStructure_ListOfEnums" {
    vals: Vec<testEnum> => vec[u8, testEnum, NO_MAX],
});
clad_struct!(testStructure_Nested = "JsonSerialization::testStructure_Nested" {
    testNestedStructure: testNestedStructure => plain,
});
clad_struct!(testStructure_Unions = "JsonSerialization::testStructure_Unions" {
    testUnionPrimitive: testUnionPrimitive => plain,
    testUnionStructures: testUnionStructures => plain,
});
clad_struct!(testStructure_PartialJson = "JsonSerialization::testStructure_PartialJson" {
    testBool: bool => plain,
    unreadValue: String => string[u8, NO_MAX],
});
clad_struct!(testStructure_NoDefault = "JsonSerialization::testStructure_NoDefault" {
    test: String => string[u8, NO_MAX],
});
clad_struct!(testStructure_NestedNoDefault = "JsonSerialization::testStructure_NestedNoDefault" {
    testBool: bool => plain,
    testInt: i16 => plain,
    testStruct: testStructure_NoDefault => plain,
});
clad_union!(testUnion_NestedNoDefault = "JsonSerialization::testUnion_NestedNoDefault" {
    t1(testStruct1) = 0,
    a(testStructure_NoDefault) = 1,
    t2(testStruct2) = 2,
    t3(testStruct3) = 3,
});
clad_struct!(testStructure_WithLists = "JsonSerialization::testStructure_WithLists" {
    boolVal: bool => plain,
    #[serde(with = "robot_runtime::json::f32")]
    floatVal: f32 => plain,
    intVal: u16 => plain,
    enumVal: testEnum => plain,
    unionVal: testUnionStructures => plain,
    boolValList: Vec<bool> => vec[u8, bool, NO_MAX],
    #[serde(with = "robot_runtime::json::f32")]
    floatValList: Vec<f32> => vec[u8, f32, NO_MAX],
    intValList: Vec<u16> => vec[u8, u16, NO_MAX],
    enumValList: Vec<testEnum> => vec[u8, testEnum, NO_MAX],
    unionValList: Vec<testUnionStructures> => vec[u8, testUnionStructures, NO_MAX],
});

// ---------------------------------------------------------------------------------------
// Driver
// ---------------------------------------------------------------------------------------

fn vectors_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CLAD_CONFORMANCE_VECTORS") {
        return Some(PathBuf::from(dir));
    }
    let manifest = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok()?;
    let dir = manifest.join("../../../shared/conformance/message-buffers/vectors");
    dir.is_dir().then_some(dir)
}

fn from_hex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn check<T>(what: &str, value: &serde_json::Value, hex: &str)
where
    T: Wire + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = from_hex(hex);

    // Encode from CLAD-JSON.
    let from_json: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("{what}: CLAD-JSON does not deserialize: {e}"));
    let packed = from_json
        .pack()
        .unwrap_or_else(|e| panic!("{what}: pack failed: {e}"));
    assert_eq!(to_hex(&packed), hex, "{what}: encoding");
    assert_eq!(from_json.packed_size(), bytes.len(), "{what}: packed_size");
    if let Some(size) = T::FIXED_SIZE {
        assert_eq!(size, bytes.len(), "{what}: FIXED_SIZE");
    }
    assert!(T::MIN_SIZE <= bytes.len(), "{what}: MIN_SIZE");

    // Decode.
    let unpacked = T::unpack(&bytes).unwrap_or_else(|e| panic!("{what}: unpack failed: {e}"));
    assert_eq!(unpacked, from_json, "{what}: decoded value");
    assert_eq!(unpacked.pack().unwrap(), bytes, "{what}: re-encoding");
    let json = serde_json::to_value(&unpacked).unwrap();
    assert_eq!(&json, value, "{what}: CLAD-JSON of the decoded value");

    // Strictness on this real data: a missing last byte and an extra byte both fail.
    if !bytes.is_empty() {
        assert!(
            T::unpack(&bytes[..bytes.len() - 1]).is_err(),
            "{what}: truncated"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(T::unpack(&longer).is_err(), "{what}: trailing byte");
}

macro_rules! dispatch {
    ($ty_name:expr, $what:expr, $value:expr, $hex:expr; $($clad:literal => $rust:ty),* $(,)?) => {
        match $ty_name {
            $($clad => check::<$rust>($what, $value, $hex),)*
            other => panic!("{}: no Rust type for {other}", $what),
        }
    };
}

#[test]
fn conformance_vectors() {
    let Some(dir) = vectors_dir() else {
        eprintln!("SKIPPED: conformance vectors not found (set CLAD_CONFORMANCE_VECTORS)");
        return;
    };
    let mut checked = 0;
    for file in [
        "Foo.jsonl",
        "Bar.jsonl",
        "SimpleTest.jsonl",
        "ExplicitUnion.jsonl",
        "JsonSerialization.jsonl",
    ] {
        let text = std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("reading {file}: {e}"));
        for (n, line) in text.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let ty = v["type"].as_str().unwrap();
            let hex = v["hex"].as_str().unwrap();
            let what = format!("{file}:{} {ty}", n + 1);
            dispatch!(ty, &what, &v["value"], hex;
                "Foo" => Foo,
                "Bar" => Bar,
                "Baz::Dog" => Dog,
                "Baz::Poodle" => Poodle,
                "SoManyStrings" => SoManyStrings,
                "od432" => od432,
                "od433" => od433,
                "od434" => od434,
                "Trip" => Trip,
                "od217One" => od217One,
                "od217Two" => od217Two,
                "Cat::MyMessage" => MyMessage,
                "Constructor::HasDefaultConstructor" => HasDefaultConstructor,
                "Constructor::HasNoDefaultConstructor" => HasNoDefaultConstructor,
                "Constructor::HasNoDefaultConstructorString" => HasNoDefaultConstructorString,
                "Constructor::NoDefaultConstructorComplex" => NoDefaultConstructorComplex,
                "Constructor::NestedString" => NestedString,
                "Constructor::MessageWithStruct" => MessageWithStruct,
                "Constructor::OtherMessageWithStruct" => OtherMessageWithStruct,
                "Constructor::NestedNoDefaults" => NestedNoDefaults,
                "Constructor::SuperComplex" => SuperComplex,
                "Constructor::Nest1" => Nest1,
                "Constructor::Nest2" => Nest2,
                "Constructor::Nest3" => Nest3,
                "Arrays::s" => ArraysS,
                "Arrays::m" => ArraysM,
                "AnInt" => AnInt,
                "ABool" => ABool,
                "AFloat" => AFloat,
                "AListOfDoubles" => AListOfDoubles,
                "AFixedListOfBytes" => AFixedListOfBytes,
                "ExplicitlyTaggedUnion" => ExplicitlyTaggedUnion,
                "JsonSerialization::testUnionPrimitive" => testUnionPrimitive,
                "JsonSerialization::testStruct1" => testStruct1,
                "JsonSerialization::testStruct2" => testStruct2,
                "JsonSerialization::testStruct3" => testStruct3,
                "JsonSerialization::testUnionStructures" => testUnionStructures,
                "JsonSerialization::testStructure_Enums" => testStructure_Enums,
                "JsonSerialization::testNestedStructure" => testNestedStructure,
                "JsonSerialization::testStructure_BasicTypes" => testStructure_BasicTypes,
                "JsonSerialization::testStructure_Lists" => testStructure_Lists,
                "JsonSerialization::testStructure_ListOfEnums" => testStructure_ListOfEnums,
                "JsonSerialization::testStructure_Nested" => testStructure_Nested,
                "JsonSerialization::testStructure_Unions" => testStructure_Unions,
                "JsonSerialization::testStructure_PartialJson" => testStructure_PartialJson,
                "JsonSerialization::testStructure_NoDefault" => testStructure_NoDefault,
                "JsonSerialization::testStructure_NestedNoDefault" => testStructure_NestedNoDefault,
                "JsonSerialization::testUnion_NestedNoDefault" => testUnion_NestedNoDefault,
                "JsonSerialization::testStructure_WithLists" => testStructure_WithLists,
            );
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        4 + 4 + 96 + 23 + 64,
        "every vector of the five files"
    );
}

#[test]
fn spec_union_vectors() {
    // Spec §4.3: Cat::MyMessage holding Baz::Dog{a=d1(5), b=-2} → 02 05 fe.
    let m = MyMessage::myDog(Dog {
        a: AnkiEnum::d1,
        b: -2,
    });
    assert_eq!(m.pack().unwrap(), [0x02, 0x05, 0xfe]);
    let err = MyMessage::unpack(&[0x03, 0x05, 0xfe]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown union tag at byte 0: 3 is not a member tag of Cat::MyMessage"
    );
    let err = MyMessage::unpack(&[0x02, 0x08, 0xfe]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid enum value at byte 1 while reading Cat::MyMessage.myDog.a: \
         8 is not a member of AnkiTypes::AnkiEnum"
    );
    assert_eq!(<ExplicitlyTaggedUnion as Wire>::MIN_SIZE, 2);
    assert_eq!(<Dog as Wire>::FIXED_SIZE, Some(2));
    assert_eq!(<ArraysS as Wire>::FIXED_SIZE, Some(50));
    assert_eq!(<od433 as Wire>::FIXED_SIZE, None);
}
