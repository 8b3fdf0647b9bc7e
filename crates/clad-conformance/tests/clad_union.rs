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
