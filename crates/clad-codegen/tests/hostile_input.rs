//! Hostile schemas: deep nesting, long include chains, huge enums and clashing names are
//! bounded (a documented limit with a clear error, or linear time), never a stack overflow,
//! a hang or a panic. These run on the test harness's threads (2 MiB stacks), so a recursion
//! that is not bounded fails here as it would in a build script.
//!
//! Sizes are chosen so the linear code finishes in well under a second even unoptimised,
//! while the quadratic or cubic code it replaces took minutes on them; no test measures time.

use clad_codegen::rust::{Emitter, RustOptions};
use clad_codegen::{compile, MemoryLoader, MAX_NESTING};

/// The Rust code generated for the schema `text`.
fn generate(text: String) -> String {
    let mut loader = MemoryLoader::new().file("input.clad", text);
    let out = compile(&mut loader, "input.clad");
    let rendered = out.render();
    let schema = out.schema.unwrap_or_else(|| panic!("{rendered}"));
    let units = [schema];
    let opts = RustOptions::default();
    let emitter = Emitter::new(&units, &opts).expect("emits");
    emitter.code()
}

/// `depth` nested namespaces around one message.
fn nested_namespaces(depth: usize) -> String {
    let mut s = String::new();
    for i in 0..depth {
        s.push_str(&format!("namespace N{i} {{\n"));
    }
    s.push_str("message M { uint_8 x }\n");
    for _ in 0..depth {
        s.push_str("}\n");
    }
    s
}

#[test]
fn ten_thousand_nested_namespaces_are_one_error_not_a_stack_overflow() {
    let text = nested_namespaces(10_000);
    let mut loader = MemoryLoader::new().file("deep.clad", text);
    let out = compile(&mut loader, "deep.clad");
    assert!(out.schema.is_none());
    let errors: Vec<&str> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        errors,
        [format!("blocks nested more than {MAX_NESTING} deep")],
        "{}",
        out.render()
    );
    let rendered = out.render();
    assert!(rendered.contains("deep.clad:65:1"), "{rendered}");
}

#[test]
fn namespaces_at_the_limit_compile_and_generate() {
    let mut loader = MemoryLoader::new().file("deep.clad", nested_namespaces(MAX_NESTING));
    let out = compile(&mut loader, "deep.clad");
    let rendered = out.render();
    let schema = out.schema.unwrap_or_else(|| panic!("{rendered}"));
    let fqn: Vec<String> = (0..MAX_NESTING).map(|i| format!("N{i}")).collect();
    let fqn = format!("{}::M", fqn.join("::"));
    assert!(schema.lookup(&fqn).is_some());
    // The emitter's module tree, the describe output and the hashes handle it too.
    let code = generate(nested_namespaces(MAX_NESTING));
    assert!(code.contains("pub mod n63 {"), "{code}");
    assert!(clad_codegen::describe::describe_json(&schema).contains("N63"));
}

#[test]
fn a_ten_thousand_file_include_chain_stops_at_the_limit_with_one_error() {
    let mut loader = MemoryLoader::new();
    for i in 0..10_000 {
        let next = if i + 1 < 10_000 {
            format!("#include \"f{}.clad\"\n", i + 1)
        } else {
            String::new()
        };
        loader = loader.file(format!("f{i}.clad"), format!("{next}message M{i} {{ }}\n"));
    }
    let out = compile(&mut loader, "f0.clad");
    assert!(out.schema.is_none());
    let errors: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(errors.len(), 1, "{}", out.render());
    assert!(
        errors[0].starts_with("#include nested too deeply"),
        "{}",
        out.render()
    );
    // Only the files up to the limit were read.
    assert!(
        out.sources.len() <= MAX_NESTING + 1,
        "{}",
        out.sources.len()
    );
}

#[test]
fn deeply_nested_string_length_types_are_an_error() {
    let mut t = String::from("message M { string");
    for _ in 0..100_000 {
        t.push_str("[string");
    }
    t.push_str(" s }\n");
    let mut loader = MemoryLoader::new().file("s.clad", t);
    let out = compile(&mut loader, "s.clad");
    assert!(out.schema.is_none());
    assert!(
        out.render()
            .contains("string length types nested too deeply"),
        "{}",
        out.render()
    );
}

/// An enum with `n` members, every fourth one a duplicate value (an alias).
fn big_enum(n: usize) -> String {
    let mut s = String::from("enum uint_32 Big {\n");
    for i in 0..n {
        if i % 4 == 3 {
            s.push_str(&format!("  M{i} = {},\n", i - 1));
        } else {
            s.push_str(&format!("  M{i} = {i},\n"));
        }
    }
    s.push_str("}\nmessage Uses { Big b }\n");
    s
}

#[test]
fn an_enum_with_sixty_thousand_members_generates_in_linear_time() {
    // 40,000 members took 3.2 s (optimised) and 1,000,000 more than 600 s before: quadratic
    // in the emitter. Unoptimised and linear, 60,000 take about a second.
    let n = 60_000;
    let code = &generate(big_enum(n));
    assert!(code.contains(&format!("M{} = {},", n - 2, n - 2)));
    // Aliases become constants of the variant with their value.
    assert!(code.contains("pub const M3: Self = Self::M2;"), "aliases");
    assert!(code.contains("\"M7\" => ::core::option::Option::Some(Self::M6),"));
}

#[test]
fn many_names_that_convert_to_one_identifier_get_suffixes_in_linear_time() {
    // `a_a_..._a` with one or two underscores at each of 12 places: 4,096 names, all
    // `a_a_..._a` in snake case. Each gets the next free suffix at once (it was a search from
    // `_2` every time: quadratic).
    let words = 13;
    let n = 1usize << (words - 1);
    let mut s = String::from("structure S {\n");
    for mask in 0..n {
        let mut name = String::from("a");
        for w in 0..words - 1 {
            name.push_str(if mask >> w & 1 == 1 { "__a" } else { "_a" });
        }
        s.push_str(&format!("  uint_8 {name},\n"));
    }
    s.push_str("}\n");
    let code = generate(s);
    let base = vec!["a"; words].join("_");
    assert!(code.contains(&format!("pub {base}: u8,")));
    assert!(
        code.contains(&format!("pub {base}_{n}: u8,")),
        "suffixes up to _{n}"
    );
}

/// Structures `S0` … `S{n-1}`, each holding the one before.
fn struct_chain(n: usize) -> String {
    let mut s = String::from("structure S0 { uint_8 a }\n");
    for i in 1..n {
        s.push_str(&format!("structure S{i} {{ S{} inner }}\n", i - 1));
    }
    s
}

#[test]
fn a_ten_thousand_deep_chain_of_types_is_one_error() {
    let mut loader = MemoryLoader::new().file("chain.clad", struct_chain(10_000));
    let out = compile(&mut loader, "chain.clad");
    assert!(out.schema.is_none());
    let errors: Vec<&str> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.as_str())
        .collect();
    let limit = clad_codegen::MAX_TYPE_DEPTH;
    assert_eq!(
        errors,
        [format!(
            "type 'S{limit}' nests types more than {limit} deep"
        )]
    );
}

#[test]
fn a_chain_of_types_at_the_limit_encodes_and_decodes() {
    let limit = clad_codegen::MAX_TYPE_DEPTH;
    let mut loader = MemoryLoader::new().file("chain.clad", struct_chain(limit));
    let out = compile(&mut loader, "chain.clad");
    let rendered = out.render();
    let schema = out.schema.unwrap_or_else(|| panic!("{rendered}"));
    let top = format!("S{}", limit - 1);
    let value = clad_codegen::dynamic::decode(&schema, &top, &[7]).expect("decodes");
    assert_eq!(
        clad_codegen::dynamic::encode_strict(&schema, &top, &value).unwrap(),
        [7]
    );
    assert!(generate(struct_chain(limit)).contains(&format!("pub struct {top} {{")));
}

#[test]
fn a_hundred_thousand_unknown_types_are_each_reported_in_linear_time() {
    // Each unknown type looked for a declaration of its name in a scan of every declaration
    // before it: 100,000 took 14.3 s (optimised), growing fourfold per doubling. Looked up by
    // name now (0.56 s optimised); here, unoptimised, every one is found (the first 200 are
    // shown, the rest counted) and the note for a name that exists in another namespace is
    // still given.
    let n = 100_000;
    let mut text =
        String::from("namespace A { message Known {} }\nmessage UsesKnown { Known k }\n");
    for i in 0..n {
        text.push_str(&format!("message M{i} {{ Unknown{i} f }}\n"));
    }
    let mut loader = MemoryLoader::new().file("unknown.clad", text);
    let out = compile(&mut loader, "unknown.clad");
    let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 201);
    assert_eq!(errors[0].message, "unknown type: Known");
    assert_eq!(
        errors[0].notes,
        ["a type with this name exists as `A::Known`; qualify the name or check the namespace"]
    );
    assert_eq!(errors[199].message, "unknown type: Unknown198");
    assert!(errors[199].notes.is_empty());
    assert_eq!(
        errors[200].message,
        format!("{} more diagnostics were not shown", n + 1 - 200)
    );
}
