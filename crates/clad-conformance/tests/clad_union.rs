//! Generated unions implement `clad_runtime::union::CladUnion`, so runtime components can
//! handle any schema's union generically.

use clad_runtime::union::CladUnion;

fn names<U: CladUnion>() -> Vec<(&'static str, u8, bool)> {
    U::TAGS
        .iter()
        .map(|t| (U::tag_name(*t), U::tag_value(*t), U::payload_is_struct(*t)))
        .collect()
}

/// Names a type of the reference corpus: its body is compiled only when that corpus was
/// built; otherwise the test is ignored.
#[test]
#[cfg_attr(
    not(conformance_reference),
    ignore = "needs the reference conformance corpus: ../shared/conformance/message-buffers or CLAD_CONFORMANCE_DIR (see the README)"
)]
fn generated_unions_are_generic_clad_unions() {
    #[cfg(not(conformance_reference))]
    panic!("the reference conformance corpus was not built (see the README)");
    #[cfg(conformance_reference)]
    reference_corpus_union();
}

#[cfg(conformance_reference)]
fn reference_corpus_union() {
    use clad_conformance::top_simple_test::cat::MyMessage;
    assert_eq!(<MyMessage as CladUnion>::NAME, "Cat::MyMessage");
    assert_eq!(
        names::<MyMessage>(),
        [
            ("myFoo", 31, true),
            ("myBar", 1, true),
            ("myDog", 2, true),
            ("mySoManyStrings", 0, true),
            ("myOD432", 254, true),
        ]
    );
    let tag = MyMessage::tag_from_name("myDog").unwrap();
    let v = MyMessage::default_for(tag);
    assert_eq!(CladUnion::tag(&v), tag);
    assert_eq!(MyMessage::tag_from_name("nope"), None);
}

/// Our edge-case union: every payload kind, a renamed tag enum (`ShapeTag_2`), payloads
/// that are fixed arrays longer than 32 elements (no `Default`).
#[test]
fn edge_case_union_is_a_generic_clad_union() {
    use clad_conformance::edge_cases::edge::{Circle, Shape, ShapeTag_2};
    assert_eq!(<Shape as CladUnion>::NAME, "Edge::Shape");
    assert_eq!(
        names::<Shape>(),
        [
            ("circle", 3, true),
            ("side", 4, false),
            ("color", 10, false),
            ("ratio", 11, false),
            ("label", 0, false),
            ("bytes", 1, false),
            ("big", 2, false),
            ("inner", 100, false),
            ("me", 200, true),
            ("empty", 201, true),
            ("weights", 202, false),
        ]
    );
    for &tag in <Shape as CladUnion>::TAGS {
        let v = Shape::default_for(tag);
        assert_eq!(CladUnion::tag(&v), tag);
        assert_eq!(Shape::tag_from_name(Shape::tag_name(tag)), Some(tag));
    }
    assert_eq!(Shape::default_for(ShapeTag_2::Big), Shape::Big([0; 40]));
    assert_eq!(
        Shape::default_for(ShapeTag_2::Weights),
        Shape::Weights([0.0; 35])
    );
    assert_eq!(
        Shape::default_for(ShapeTag_2::Circle),
        Shape::Circle(Circle::default())
    );
}

/// The names of the fields of member `tag`'s payload structure, as CLAD-JSON writes them.
fn field_names<U: CladUnion + serde::Serialize>(tag: U::Tag) -> Vec<String> {
    match serde_json::to_value(U::default_for(tag)).expect("serializes") {
        serde_json::Value::Object(map) => map.keys().filter(|k| *k != "type").cloned().collect(),
        other => panic!("a structure member serializes as an object, not {other}"),
    }
}

/// The member built from `fields` by `struct_member_from_text` and by
/// `deserialize_struct_member` over serde's map of the same names and texts, each as
/// `Debug` text (an error as its message); `None` for the first when it leaves the member
/// to serde.
fn built_both_ways<U: CladUnion + std::fmt::Debug>(
    tag: U::Tag,
    fields: &[(String, String)],
) -> (Option<String>, String) {
    use serde::de::value::{Error, MapDeserializer};
    use std::borrow::Cow;
    let pairs = || {
        fields
            .iter()
            .map(|(name, text)| (name.as_str(), Cow::Borrowed(text.as_str())))
    };
    let show = |built: Result<U, Error>| match built {
        Ok(member) => format!("{member:?}"),
        Err(e) => format!("error: {e}"),
    };
    let direct = U::struct_member_from_text::<_, Error>(tag, pairs()).map(show);
    let via_serde = U::deserialize_struct_member(tag, MapDeserializer::<_, Error>::new(pairs()))
        .expect("a structure member");
    (direct, show(via_serde))
}

mod text_fields {
    use super::*;
    use clad_conformance::edge_cases::edge::{TextFields, TextFieldsTag};
    use proptest::prelude::*;

    /// A text a field may be given: numbers of every width and sign, floats and their
    /// spellings, booleans, enum value names (`Blue`, an alias, a wrong case), blanks,
    /// anything.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::sample::select(vec![
                "0", "1", "-1", "255", "256", "65535", "-32768", "42", "3.5", "-0.0", "1e3", "NaN",
                "inf", "true", "false", "1", "Blue", "Crimson", "blue", "", " ", "abcd", "abcde",
                "[1, 2]", "null",
            ])
            .prop_map(str::to_owned),
            "\\PC{0,6}",
        ]
    }

    /// Member `tag`'s field names, an unknown name now and then, each with a text; a name
    /// may come twice.
    fn fields(tag: TextFieldsTag) -> impl Strategy<Value = Vec<(String, String)>> {
        let mut names = field_names::<TextFields>(tag);
        names.push("unknown".into());
        names.push("Type".into());
        proptest::collection::vec((proptest::sample::select(names), text()), 0..6)
    }

    fn struct_tags() -> Vec<TextFieldsTag> {
        TextFields::TAGS
            .iter()
            .copied()
            .filter(|t| TextFields::payload_is_struct(*t))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// Every structure member, built from its fields' texts, is what serde builds from
        /// the same map, errors included.
        #[test]
        fn a_member_built_from_texts_is_what_serde_builds(
            (tag, fields) in proptest::sample::select(struct_tags())
                .prop_flat_map(|tag| (Just(tag), fields(tag)))
        ) {
            let (direct, via_serde) = built_both_ways::<TextFields>(tag, &fields);
            if tag == TextFieldsTag::Serde {
                prop_assert_eq!(direct, None);
            } else {
                prop_assert_eq!(direct, Some(via_serde), "{:?} {:?}", tag, fields);
            }
        }
    }

    #[test]
    fn string_and_renamed_fields_duplicates_and_a_serde_attribute() {
        let f = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
                .collect()
        };
        // A string taken as it is, a number read from its text, a keyword-named field.
        let (direct, via_serde) = built_both_ways::<TextFields>(
            TextFieldsTag::Limits,
            &f(&[("name", "abc"), ("text", "\"quoted\"")]),
        );
        assert_eq!(direct.as_deref(), Some(via_serde.as_str()));
        assert!(via_serde.contains("name: \"abc\""), "{via_serde}");
        let (direct, via_serde) =
            built_both_ways::<TextFields>(TextFieldsTag::Names, &f(&[("fn", "7"), ("Match", "x")]));
        assert_eq!(direct.as_deref(), Some(via_serde.as_str()));
        assert!(
            via_serde.starts_with("error: invalid type: string \"7\""),
            "{via_serde}"
        );
        // The same name twice: serde's error.
        let (direct, _) = built_both_ways::<TextFields>(
            TextFieldsTag::Attrs,
            &f(&[("label", "a"), ("label", "b")]),
        );
        assert_eq!(direct.as_deref(), Some("error: duplicate field `label`"));
        // The member whose field carries `#[serde(alias = "name")]` is left to serde, which
        // reads the alias.
        let (direct, via_serde) =
            built_both_ways::<TextFields>(TextFieldsTag::Serde, &f(&[("name", "aliased")]));
        assert_eq!(direct, None);
        assert!(via_serde.contains("aliased"), "{via_serde}");
        // Not a structure: left to the caller.
        assert!(
            TextFields::struct_member_from_text::<_, serde::de::value::Error>(
                TextFieldsTag::Plain,
                std::iter::empty()
            )
            .is_none()
        );
    }
}
