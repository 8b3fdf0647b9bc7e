//! Generated unions implement `robot_runtime::union::CladUnion`, so runtime components can
//! handle any schema's union generically.

use robot_runtime::union::CladUnion;

fn names<U: CladUnion>() -> Vec<(&'static str, u8, bool)> {
    U::TAGS
        .iter()
        .map(|t| (U::tag_name(*t), U::tag_value(*t), U::payload_is_struct(*t)))
        .collect()
}

#[test]
fn generated_unions_are_generic_clad_unions() {
    if !clad_conformance::AVAILABLE {
        eprintln!("SKIPPED: conformance data not found");
        return;
    }
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
