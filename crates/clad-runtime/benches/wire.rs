//! Pack/unpack throughput of a spec-style message and a float-heavy message.

use clad_runtime::wire::{self, FieldContext, PackError, Reader, UnpackError, Wire, Writer};
use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// `message Foo { bool isFoo, int_8 myByte, uint_8 byteTwo, int_16 myShort,
/// float_32 myFloat, uint_32 myNormal, string myString }`
#[derive(Debug, PartialEq)]
struct Foo {
    is_foo: bool,
    my_byte: i8,
    byte_two: u8,
    my_short: i16,
    my_float: f32,
    my_normal: u32,
    my_string: String,
}

impl Wire for Foo {
    const TYPE_NAME: &'static str = "Foo";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = 1 + 1 + 1 + 2 + 4 + 4 + 1;
    #[inline]
    fn packed_size(&self) -> usize {
        self.is_foo.packed_size()
            + self.my_byte.packed_size()
            + self.byte_two.packed_size()
            + self.my_short.packed_size()
            + self.my_float.packed_size()
            + self.my_normal.packed_size()
            + wire::string_size::<u8>(&self.my_string)
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.is_foo.write_to(w).in_field(Self::TYPE_NAME, "isFoo")?;
        self.my_byte
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myByte")?;
        self.byte_two
            .write_to(w)
            .in_field(Self::TYPE_NAME, "byteTwo")?;
        self.my_short
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myShort")?;
        self.my_float
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myFloat")?;
        self.my_normal
            .write_to(w)
            .in_field(Self::TYPE_NAME, "myNormal")?;
        wire::write_string::<u8>(w, &self.my_string, wire::NO_MAX)
            .in_field(Self::TYPE_NAME, "myString")
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            is_foo: r.read().in_field(Self::TYPE_NAME, "isFoo")?,
            my_byte: r.read().in_field(Self::TYPE_NAME, "myByte")?,
            byte_two: r.read().in_field(Self::TYPE_NAME, "byteTwo")?,
            my_short: r.read().in_field(Self::TYPE_NAME, "myShort")?,
            my_float: r.read().in_field(Self::TYPE_NAME, "myFloat")?,
            my_normal: r.read().in_field(Self::TYPE_NAME, "myNormal")?,
            my_string: wire::read_string::<u8>(r, wire::NO_MAX)
                .in_field(Self::TYPE_NAME, "myString")?,
        })
    }
}

/// `message Scan { uint_32 seq, float_32 ranges[uint_16:1024] }`
struct Scan {
    seq: u32,
    ranges: Vec<f32>,
}

impl Wire for Scan {
    const TYPE_NAME: &'static str = "Scan";
    const FIXED_SIZE: Option<usize> = None;
    const MIN_SIZE: usize = 4 + 2;
    #[inline]
    fn packed_size(&self) -> usize {
        self.seq.packed_size() + wire::vec_size::<u16, f32>(&self.ranges)
    }
    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        self.seq.write_to(w).in_field(Self::TYPE_NAME, "seq")?;
        wire::write_vec::<u16, f32>(w, &self.ranges, 1024).in_field(Self::TYPE_NAME, "ranges")
    }
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        Ok(Self {
            seq: r.read().in_field(Self::TYPE_NAME, "seq")?,
            ranges: wire::read_vec::<u16, f32>(r, 1024).in_field(Self::TYPE_NAME, "ranges")?,
        })
    }
}

fn bench(c: &mut Criterion) {
    let msg = Foo {
        is_foo: true,
        my_byte: -5,
        byte_two: 203,
        my_short: 32000,
        my_float: 1.5,
        my_normal: u32::MAX,
        my_string: "hi".into(),
    };
    let foo_bytes = msg.pack().unwrap();
    let mut group = c.benchmark_group("foo");
    group.throughput(Throughput::Bytes(foo_bytes.len() as u64));
    group.bench_function("pack", |b| b.iter(|| black_box(&msg).pack().unwrap()));
    let mut buf = [0u8; 64];
    group.bench_function("pack_into", |b| {
        b.iter(|| black_box(&msg).pack_into(&mut buf).unwrap())
    });
    group.bench_function("unpack", |b| {
        b.iter(|| Foo::unpack(black_box(&foo_bytes)).unwrap())
    });
    group.finish();

    let scan = Scan {
        seq: 1,
        ranges: (0..1024).map(|i| i as f32 * 0.25).collect(),
    };
    let scan_bytes = scan.pack().unwrap();
    let mut group = c.benchmark_group("scan");
    group.throughput(Throughput::Bytes(scan_bytes.len() as u64));
    group.bench_function("pack", |b| b.iter(|| black_box(&scan).pack().unwrap()));
    group.bench_function("unpack", |b| {
        b.iter(|| Scan::unpack(black_box(&scan_bytes)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
