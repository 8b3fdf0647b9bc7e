//! The validated map as Rust: one `pub static` of `robot_runtime::intent::StaticIntentMap`
//! (the crate is [`IntentMapModel::runtime_path`]).
//!
//! The static refers to the union's generated `<Name>Tag` enum by a path relative to the root
//! of the generated file (`self::anki::vector::UserIntentTag`), so it must be emitted into the
//! same file as the union (the builder appends extension items there). The tag enum's path
//! and variant names are read from the build's naming table ([`Names`]), the one the union
//! itself is written from.

use super::{IntentEntry, IntentMapModel, SanitationStep, SimpleVoiceEntry};
use clad_codegen::rust::code::{str_lit, Code};
use clad_codegen::rust::{checked_path, Names, UnionTag};
use clad_codegen::Diagnostic;

/// The Rust code of the static `model.static_name`, for the generated file whose naming
/// table is `names` (it must emit the map's union).
pub fn generate(model: &IntentMapModel, names: Names<'_>) -> Result<String, Vec<Diagnostic>> {
    let rt = checked_path("intent-map runtime path", &model.runtime_path)?;
    check_ident("intent map static", &model.static_name)?;
    let tags = TagPaths::new(names, &model.union)?;
    let tag_path = &tags.path;

    let mut c = Code::new();
    c.doc(&format!(
        "The user-intent map compiled from `{}` for `{}`: {}, {}, {}.",
        model.file,
        model.union,
        count(model.cloud.len(), "cloud intent"),
        count(model.app.len(), "app intent"),
        count(model.simple_voice.len(), "simple voice response"),
    ));
    emit!(
        c,
        "
        ///
        /// Tables are sorted by intent string (byte order); look entries up with
        /// `cloud()`, `app()` and `simple_voice_response()`.
        pub static {}: {rt}::intent::StaticIntentMap<{tag_path}> = {{
            #[allow(unused_imports)]
            use {rt}::intent::{{MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap}};
            #[allow(unused_imports)]
            use ::core::option::Option::{{None, Some}};
            use {tag_path} as Tag;
            StaticIntentMap {{",
        model.static_name
    );
    for (field, entries) in [("cloud", &model.cloud), ("app", &model.app)] {
        emit!(c, "{field}: &[");
        for e in entries {
            entry(&mut c, &tags, e)?;
        }
        c.line("],");
    }
    c.line("simple_voice: &[");
    for s in &model.simple_voice {
        simple_voice(&mut c, s);
    }
    c.line("],");
    let simple_tag = match &model.simple_voice_tag {
        Some(t) => format!("Some(Tag::{})", tags.variant(&t.name)?),
        None => "None".to_owned(),
    };
    emit!(
        c,
        "
                simple_voice_tag: {simple_tag},
                unmatched: Tag::{},
            }}
        }};",
        tags.variant(&model.unmatched.name)?
    );
    Ok(c.finish())
}

fn entry(c: &mut Code, tags: &TagPaths, e: &IntentEntry) -> Result<(), Vec<Diagnostic>> {
    emit!(
        c,
        "
        MapEntry {{
            intent: {},
            tag: Tag::{},",
        str_lit(&e.intent),
        tags.variant(&e.tag.name)?
    );
    if e.sanitation.is_empty() {
        c.line("sanitation: &[],");
    } else {
        c.line("sanitation: &[");
        for s in &e.sanitation {
            step(c, s);
        }
        c.line("],");
    }
    emit!(
        c,
        "
            feature_gate: {},
        }},",
        option_str(e.feature_gate.as_deref())
    );
    Ok(())
}

fn step(c: &mut Code, s: &SanitationStep) {
    emit!(
        c,
        "Sanitation {{ from: {}, to: {}, numeric: {} }},",
        str_lit(&s.from),
        option_str(s.to.as_deref()),
        s.numeric
    );
}

fn simple_voice(c: &mut Code, s: &SimpleVoiceEntry) {
    let SimpleVoiceEntry {
        cloud_intent,
        anim_group,
        emotion_event,
        active_feature,
        disable_wakeword_turn,
        feature_gate,
    } = s;
    emit!(
        c,
        "
        SimpleVoiceResponse {{
            cloud_intent: {},
            anim_group: {},
            emotion_event: {},
            active_feature: {},
            disable_wakeword_turn: {disable_wakeword_turn},
            feature_gate: {},
        }},",
        str_lit(cloud_intent),
        str_lit(anim_group),
        str_lit(emotion_event),
        str_lit(active_feature),
        option_str(feature_gate.as_deref())
    );
}

/// `1 app intent`, `3 app intents`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn option_str(s: Option<&str>) -> String {
    match s {
        Some(s) => format!("Some({})", str_lit(s)),
        None => "None".to_owned(),
    }
}

/// An error unless `name` is a Rust identifier (`what` names it in the message).
pub(crate) fn check_ident(what: &str, name: &str) -> Result<(), Vec<Diagnostic>> {
    match syn::parse_str::<syn::Ident>(name) {
        Ok(_) => Ok(()),
        Err(_) => Err(vec![Diagnostic::error_global(format!(
            "invalid name for the {what}: `{name}`"
        ))]),
    }
}

/// The union's tag enum path and variant names, read from the build's naming table.
pub(crate) struct TagPaths<'a> {
    /// `self::anki::vector::UserIntentTag`.
    pub(crate) path: String,
    tag: UnionTag<'a>,
}

impl<'a> TagPaths<'a> {
    pub(crate) fn new(names: Names<'a>, union: &str) -> Result<Self, Vec<Diagnostic>> {
        let tag = names.union_tag(union).ok_or_else(|| {
            vec![Diagnostic::error_global(format!(
                "the union `{union}` of the intent map is not emitted by this build"
            ))
            .with_note("add the schema file that declares it to the same build")]
        })?;
        Ok(TagPaths {
            path: tag.path.clone(),
            tag,
        })
    }

    pub(crate) fn variant(&self, member: &str) -> Result<&'a str, Vec<Diagnostic>> {
        self.tag.variant(member).ok_or_else(|| {
            vec![Diagnostic::error_global(format!(
                "internal error: no tag variant for union member `{member}`"
            ))]
        })
    }
}
