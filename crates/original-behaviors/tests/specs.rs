//! The class tables against the facts they must agree with: the class list of the runtime's
//! catalog (`ORIGINAL_CLASSES`, 175 names), the user-intent union of `userIntent.clad`, the
//! base keys of OBC §1, and the catalog's own per-class reference keys and hard-coded IDs.

use std::collections::{BTreeMap, BTreeSet};

use original_behaviors::specs::types::{ClassData, KeyType, Need};
use original_behaviors::specs::{all, class, FAMILIES};

/// The 18 base keys of OBC §1 plus the two anonymous-instance keys: never class keys.
const BASE_KEYS: &[&str] = &[
    "behaviorID",
    "behaviorClass",
    "wantsToBeActivatedCondition",
    "wantsToCancelSelfCondition",
    "respondToUserIntents",
    "showActiveIntentFeedback",
    "autoShutOffIntentFeedback",
    "emotionEventOnActivated",
    "resetTimers",
    "anonymousBehaviors",
    "postBehaviorSuggestion",
    "associatedActiveFeature",
    "behaviorStatToIncrement",
    "tracksToLockWhileActivated",
    "alterStreamAfterWakeword",
    "pushTriggerWordResponse",
    "alwaysStreamline",
    "behaviorModifiers",
    "behaviorName",
    "debugLabel",
];

/// The catalog's source: the facts the tables must agree with, read as text so the test
/// also sees how each slice is written.
fn catalog_text() -> String {
    include_str!("../src/catalog.rs").to_owned()
}

/// The text of the slice literal that follows `marker` up to its closing `];`.
fn slice_after<'a>(text: &'a str, marker: &str) -> &'a str {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` not found"));
    let rest = &text[start + marker.len()..];
    let end = rest
        .find("\n];")
        .unwrap_or_else(|| panic!("no end of the slice after `{marker}`"));
    &rest[..end]
}

/// Every double-quoted string in `text`, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('"').skip(1).step_by(2).collect()
}

/// The names of `ORIGINAL_CLASSES` in the catalog.
fn catalog_classes() -> Vec<String> {
    let text = catalog_text();
    quoted(slice_after(
        &text,
        "pub const ORIGINAL_CLASSES: &[&str] = &[",
    ))
    .into_iter()
    .map(str::to_owned)
    .collect()
}

/// The member names of `union … UserIntent { … }` in userIntent.clad.
fn user_intents() -> BTreeSet<String> {
    let text = include_str!("../../../schemas/userIntent.clad");
    let start = text
        .find("UserIntent {")
        .filter(|&i| text[..i].trim_end().ends_with("dupes_allowed"))
        .expect("the UserIntent union");
    let body = &text[start + "UserIntent {".len()..];
    let body = &body[..body.find('}').expect("the end of the union")];
    body.lines()
        .map(|line| line.split("//").next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let member = line.trim_end_matches(',');
            let name = member
                .split_whitespace()
                .nth(1)
                .unwrap_or_else(|| panic!("a union line without a member name: {line}"));
            name.to_owned()
        })
        .collect()
}

#[test]
fn every_catalog_class_has_exactly_one_entry() {
    let catalog = catalog_classes();
    assert_eq!(catalog.len(), 175, "the catalog's class list changed size");
    let mut seen = BTreeMap::new();
    for c in all() {
        *seen.entry(c.name).or_insert(0) += 1;
    }
    let duplicates: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        duplicates.is_empty(),
        "classes listed twice: {duplicates:?}"
    );
    let table: BTreeSet<&str> = seen.keys().copied().collect();
    let wanted: BTreeSet<&str> = catalog.iter().map(String::as_str).collect();
    let missing: Vec<_> = wanted.difference(&table).collect();
    let extra: Vec<_> = table.difference(&wanted).collect();
    assert!(
        missing.is_empty(),
        "catalog classes without an entry: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "entries that are not catalog classes: {extra:?}"
    );
    assert_eq!(all().count(), 175);
}

#[test]
fn no_class_lists_a_key_twice() {
    for c in all() {
        let mut names = BTreeSet::new();
        for k in c.keys {
            assert!(
                names.insert(k.name),
                "{}: key {} listed twice",
                c.name,
                k.name
            );
        }
    }
}

#[test]
fn no_base_key_is_a_class_key() {
    for c in all() {
        for k in c.keys {
            assert!(
                !BASE_KEYS.contains(&k.name),
                "{}: {} is a base key (OBC §1), not a class key",
                c.name,
                k.name
            );
        }
    }
}

#[test]
fn claimed_and_dropped_intents_are_union_members() {
    let union = user_intents();
    assert!(union.contains("set_timer") && union.contains("test_wire"));
    for c in all() {
        for intent in c.claims.iter().chain(c.drops) {
            assert!(
                union.contains(*intent),
                "{}: {intent} is not a member of the UserIntent union",
                c.name
            );
        }
        let claims: BTreeSet<_> = c.claims.iter().collect();
        assert_eq!(
            claims.len(),
            c.claims.len(),
            "{}: a claim listed twice",
            c.name
        );
        let drops: BTreeSet<_> = c.drops.iter().collect();
        assert_eq!(
            drops.len(),
            c.drops.len(),
            "{}: a drop listed twice",
            c.name
        );
    }
}

#[test]
fn keys_are_well_formed() {
    for c in all() {
        for k in c.keys {
            assert!(
                !k.name.is_empty() && !k.name.contains(char::is_whitespace),
                "{}: bad key name {:?}",
                c.name,
                k.name
            );
            if let Need::Optional(default) = k.need {
                assert!(
                    !default.is_empty(),
                    "{}.{}: empty default text",
                    c.name,
                    k.name
                );
            }
            if let KeyType::Enum(values) = k.ty {
                assert!(!values.is_empty(), "{}.{}: an empty enum", c.name, k.name);
            }
            // A key naming behaviors says how the names are looked up (OBC §6).
            if matches!(k.ty, KeyType::Id | KeyType::Ids) {
                assert!(
                    k.note.contains("A (own anonymous") || k.note.contains("G (global IDs only"),
                    "{}.{}: a behavior-ID key without its resolution in the note",
                    c.name,
                    k.name
                );
            }
        }
        assert!(!c.summary.is_empty(), "{}: no summary", c.name);
    }
}

#[test]
fn families_follow_the_spec_sections() {
    let count = |name: &str| {
        FAMILIES
            .iter()
            .find(|(family, _)| *family == name)
            .map(|(_, classes)| classes.len())
            .unwrap_or_else(|| panic!("no family {name}"))
    };
    // OCP §2.1 .. §2.10 and the OBC generic classes; the two fork classes neither spec
    // describes are in sensing (PetDetection) and cubes (ConnectToCubeAndThen).
    assert_eq!(count("physical"), 14);
    assert_eq!(count("sensing"), 16);
    assert_eq!(count("voice"), 28);
    assert_eq!(count("coordinators"), 21);
    assert_eq!(count("navigation"), 17);
    assert_eq!(count("faces"), 13);
    assert_eq!(count("cubes"), 15);
    assert_eq!(count("games"), 2);
    assert_eq!(count("dev"), 32);
    assert_eq!(count("generic"), 17);
}

/// One entry of the catalog's `REFERENCE_KEYS`: class, key pattern, resolution, required.
struct ReferenceKey {
    class: String,
    pattern: String,
    global: bool,
    required: bool,
}

/// The catalog's `REFERENCE_KEYS`, read from its source text: a class name is a string
/// followed by `, &[`; a key is the string in `rk("…", A|G)`, required when wrapped in
/// `required(`.
fn catalog_reference_keys() -> Vec<ReferenceKey> {
    let text = catalog_text();
    let body = slice_after(
        &text,
        "pub const REFERENCE_KEYS: &[(&str, &[ReferenceKey])] = &[",
    );
    let mut out = Vec::new();
    let mut class = String::new();
    let mut rest = body;
    while let Some(q) = rest.find('"') {
        let before = &rest[..q];
        let after = &rest[q + 1..];
        let end = after.find('"').expect("an unterminated string");
        let value = &after[..end];
        let tail = after[end + 1..].trim_start();
        if before.ends_with("rk(") {
            let resolution = tail.trim_start_matches(',').trim_start();
            out.push(ReferenceKey {
                class: class.clone(),
                pattern: value.to_owned(),
                global: resolution.starts_with('G'),
                required: before.ends_with("required(rk("),
            });
        } else if tail.starts_with(',') && tail[1..].trim_start().starts_with("&[") {
            class = value.to_owned();
        }
        rest = &after[end + 1..];
    }
    out
}

#[test]
fn reference_keys_of_the_catalog_are_in_the_table() {
    let refs = catalog_reference_keys();
    assert!(
        refs.len() >= 40,
        "parsed only {} reference keys",
        refs.len()
    );
    for r in &refs {
        let c: &ClassData =
            class(&r.class).unwrap_or_else(|| panic!("catalog class {} not in the table", r.class));
        let top = r.pattern.split(['[', '.']).next().unwrap_or_default();
        let key = c.keys.iter().find(|k| k.name == top).unwrap_or_else(|| {
            panic!(
                "{}: the catalog's reference key {} is missing",
                r.class, r.pattern
            )
        });
        let expected_ty = if r.pattern.ends_with("[]") {
            KeyType::Ids
        } else if r.pattern.contains("[].") {
            KeyType::Array
        } else {
            KeyType::Id
        };
        assert_eq!(key.ty, expected_ty, "{}.{}: type", r.class, r.pattern);
        if r.required {
            assert_eq!(
                key.need,
                Need::Required,
                "{}.{}: required in the catalog",
                r.class,
                r.pattern
            );
        }
        if !r.pattern.contains("[].") {
            let wanted = if r.global {
                "G (global IDs only"
            } else {
                "A (own anonymous"
            };
            assert!(
                key.note.contains(wanted),
                "{}.{}: resolution should be {wanted}",
                r.class,
                r.pattern
            );
        }
    }
}

#[test]
fn hard_coded_ids_of_the_catalog_are_in_the_table() {
    let text = catalog_text();
    let body = slice_after(
        &text,
        "pub const HARD_CODED_IDS: &[(&str, Role, &[&str])] = &[",
    );
    let mut checked = 0;
    let mut rest = body;
    while let Some(open) = rest.find('(') {
        let close = rest[open..]
            .find(')')
            .map(|c| open + c)
            .expect("an entry's end");
        let entry = &rest[open..=close];
        let strings = quoted(entry);
        if let Some((name, ids)) = strings.split_first() {
            let c = class(name).unwrap_or_else(|| panic!("catalog class {name} not in the table"));
            for id in ids {
                assert!(
                    c.hard_coded.contains(id),
                    "{name}: the catalog's hard-coded ID {id} is missing"
                );
                checked += 1;
            }
        }
        rest = &rest[close + 1..];
    }
    assert!(checked >= 20, "checked only {checked} hard-coded IDs");
}

#[test]
fn every_key_type_has_a_sample_and_a_wrong_value_of_another_kind() {
    let kind = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    };
    let mut checked = 0;
    for c in all() {
        for k in c.keys {
            let sample = k.ty.sample("Idle");
            match k.ty.wrong() {
                Some(wrong) => assert_ne!(
                    kind(&sample),
                    kind(&wrong),
                    "{}.{}: the wrong value is of the sample's kind",
                    c.name,
                    k.name
                ),
                None => assert_eq!(k.ty, KeyType::Any, "{}.{}", c.name, k.name),
            }
            if matches!(k.ty, KeyType::Id | KeyType::Ids) {
                assert!(sample.to_string().contains("Idle"), "{}.{}", c.name, k.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "checked only {checked} keys");
}
