//! Front-end benchmarks: `#include` expansion, lexing, parsing, name resolution, enum values,
//! union tags and autounion expansion, size metrics and version hashes — everything
//! `clad_codegen::compile` does. No code generation, no disk I/O: every schema is read into
//! memory before timing starts and served by a `MemoryLoader`.
//!
//! * `conformance/all`: every schema of `../shared/conformance/message-buffers` listed in
//!   `vectors/MANIFEST.json`, compiled one after another (skipped with a message when the
//!   folder is absent; `CLAD_CONFORMANCE_DIR` overrides its location).
//! * `synthetic/largest_root`: the largest translation unit of the synthetic robot-shaped
//!   corpus (`benches/corpus`): `messageEngineToGame.clad`, ~40 includes and an autounion.
//! * `synthetic/all_files`: every file of the synthetic corpus (about 130), one after another,
//!   each as its own translation unit (as the real build compiles them).
//!
//! * `codegen/synthetic_tree`: Rust generation (the formatted file `build.rs` writes) for
//!   every file of the synthetic corpus at once, from already compiled schemas;
//!   `codegen/synthetic_tree_tokens` also lexes that text into a `proc_macro2::TokenStream`
//!   (what `include_clad!` returns; outside a proc macro proc-macro2 lexes it itself).
//!
//! Run with `cargo bench -p clad-codegen --bench frontend`; see BENCHMARKS.md.

mod corpus;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clad_codegen::{compile, Compilation, MemoryLoader};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Bytes and lines of every source a compilation read (includes counted once per unit).
fn source_size(out: &Compilation) -> (u64, u64) {
    out.sources.files().fold((0, 0), |(b, l), (_, f)| {
        (b + f.text.len() as u64, l + f.text.lines().count() as u64)
    })
}

// ---------------------------------------------------------------------------------------------
// Conformance schemas

struct ConformanceCase {
    root: String,
    schema: String,
    expect_ok: bool,
}

fn conformance_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("CLAD_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/conformance/message-buffers"),
    };
    dir.join("vectors/MANIFEST.json").is_file().then_some(dir)
}

/// Every file under `dir`, keyed by its `/`-separated path relative to `base`.
fn read_tree(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_tree(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "clad") {
            let rel = path.strip_prefix(base).expect("under base");
            let key = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&path).expect("readable schema");
            out.insert(key, text);
        }
    }
}

/// The manifest's cases and one in-memory loader per compile root.
fn conformance() -> Option<(Vec<ConformanceCase>, BTreeMap<String, MemoryLoader>)> {
    let dir = conformance_dir()?;
    let text = std::fs::read_to_string(dir.join("vectors/MANIFEST.json")).ok()?;
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("manifest json");
    let cases: Vec<ConformanceCase> = manifest["files"]
        .as_array()
        .expect("files[]")
        .iter()
        .map(|f| ConformanceCase {
            root: f["root"].as_str().expect("root").to_owned(),
            schema: f["schema"].as_str().expect("schema").to_owned(),
            expect_ok: f["status"].as_str() == Some("ok"),
        })
        .collect();
    let mut loaders = BTreeMap::new();
    for case in &cases {
        if loaders.contains_key(&case.root) {
            continue;
        }
        let root_dir = dir.join("schemas").join(&case.root);
        let mut files = BTreeMap::new();
        read_tree(&root_dir, &root_dir, &mut files);
        let loader = files
            .into_iter()
            .fold(MemoryLoader::new(), |l, (p, t)| l.file(p, t));
        loaders.insert(case.root.clone(), loader);
    }
    Some((cases, loaders))
}

fn bench_conformance(c: &mut Criterion) {
    let Some((cases, mut loaders)) = conformance() else {
        eprintln!(
            "conformance/all SKIPPED: ../shared/conformance/message-buffers not found (set \
             CLAD_CONFORMANCE_DIR)"
        );
        return;
    };
    // Check once, outside the timing, that each schema compiles (or fails) as the manifest
    // says: a benchmark of unexpected errors would measure the wrong thing.
    let (mut bytes, mut lines, mut decls) = (0, 0, 0);
    for case in &cases {
        let loader = loaders.get_mut(&case.root).expect("loader");
        let out = compile(loader, &case.schema);
        assert_eq!(
            !out.has_errors(),
            case.expect_ok,
            "{}/{}:\n{}",
            case.root,
            case.schema,
            out.render()
        );
        let (b, l) = source_size(&out);
        bytes += b;
        lines += l;
        decls += out.schema.as_ref().map_or(0, |s| s.decls.len());
    }
    eprintln!(
        "conformance/all: {} compilations, {lines} source lines ({bytes} bytes) read, {decls} \
         declarations",
        cases.len()
    );
    let mut g = c.benchmark_group("conformance");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("all", |b| {
        b.iter(|| {
            for case in &cases {
                let loader = loaders.get_mut(&case.root).expect("loader");
                black_box(compile(loader, black_box(&case.schema)));
            }
        })
    });
    g.finish();
}

// ---------------------------------------------------------------------------------------------
// Synthetic corpus

fn bench_synthetic(c: &mut Criterion) {
    let corpus = corpus::corpus();
    let mut loader = corpus::loader_for(&corpus.files);
    let s = &corpus.stats;
    eprintln!(
        "synthetic corpus: {} files, {} lines, {} declarations ({} enums, {} messages, {} \
         structures, {} unions, {} autounions, {} enum concepts), {} #include lines",
        s.files,
        s.lines,
        s.declarations(),
        s.enums,
        s.messages,
        s.structures,
        s.unions,
        s.autounions,
        s.enum_concepts,
        s.includes
    );

    let root = corpus::largest_root();
    let out = compile(&mut loader, root);
    assert!(!out.has_errors(), "{root}:\n{}", out.render());
    let (root_bytes, root_lines) = source_size(&out);
    let schema = out.schema.as_ref().expect("schema");
    eprintln!(
        "synthetic/largest_root: {root}: {} files, {root_lines} lines ({root_bytes} bytes), {} \
         declarations",
        out.sources.len(),
        schema.decls.len()
    );

    let (mut all_bytes, mut all_lines, mut all_decls) = (0, 0, 0);
    for (path, _) in &corpus.files {
        let out = compile(&mut loader, path);
        assert!(!out.has_errors(), "{path}:\n{}", out.render());
        let (b, l) = source_size(&out);
        all_bytes += b;
        all_lines += l;
        all_decls += out.schema.as_ref().map_or(0, |s| s.decls.len());
    }
    eprintln!(
        "synthetic/all_files: {} compilations, {all_lines} source lines ({all_bytes} bytes) \
         read, {all_decls} declarations",
        corpus.files.len()
    );

    let mut g = c.benchmark_group("synthetic");
    g.throughput(Throughput::Bytes(root_bytes));
    g.bench_function("largest_root", |b| {
        b.iter(|| black_box(compile(&mut loader, black_box(root))))
    });
    g.throughput(Throughput::Bytes(all_bytes));
    g.bench_function("all_files", |b| {
        b.iter(|| {
            for (path, _) in &corpus.files {
                black_box(compile(&mut loader, black_box(path)));
            }
        })
    });
    g.finish();
}

fn bench_codegen(c: &mut Criterion) {
    let corpus = corpus::corpus();
    let mut loader = corpus::loader_for(&corpus.files);
    let units: Vec<_> = corpus
        .files
        .iter()
        .map(|(path, _)| compile(&mut loader, path).schema.expect("corpus compiles"))
        .collect();
    let opts = clad_codegen::rust::RustOptions::default();
    let code = clad_codegen::rust::generate(&units, &opts).expect("corpus generates");
    eprintln!(
        "codegen/synthetic_tree: {} units -> {} lines ({} bytes) of Rust",
        units.len(),
        code.lines().count(),
        code.len()
    );
    let mut g = c.benchmark_group("codegen");
    g.bench_function("synthetic_tree", |b| {
        b.iter(|| black_box(clad_codegen::rust::generate(black_box(&units), &opts)))
    });
    g.bench_function("synthetic_tree_tokens", |b| {
        b.iter(|| {
            black_box(clad_codegen::rust::generate_tokens(
                black_box(&units),
                &opts,
            ))
        })
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_conformance, bench_synthetic, bench_codegen
}
criterion_main!(benches);
