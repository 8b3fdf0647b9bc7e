//! The validated map as Rust: one `pub static` of `robot_runtime::intent::StaticIntentMap`
//! (the crate is [`RustOptions::intent_runtime_path`]).
//!
//! The static refers to the union's generated `<Name>Tag` enum by a path relative to the root
//! of the generated file (`self::anki::vector::UserIntentTag`), so it must be emitted into the
//! same file as the union (the builder does this). The tag enum's path and variant names are
//! read from the [`Emitter`]'s naming table, the one the union itself is written from.

use super::{IntentEntry, IntentMapModel, SanitationStep, SimpleVoiceEntry};
use crate::diagnostics::Diagnostic;
use crate::rust::code::{emit, str_lit, Code};
#[cfg(doc)]
use crate::rust::RustOptions;
use crate::rust::{self, Emitter};
use proc_macro2::TokenStream;

/// The Rust code of the static `model.static_name`, for a file that also holds the code
/// `emitter` writes (which must emit the map's union). The builder appends it to that file.
pub fn generate(model: &IntentMapModel, emitter: &Emitter<'_>) -> Result<String, Vec<Diagnostic>> {
    let rt = rust::intent_map_runtime_path(emitter.options())?;
    if syn::parse_str::<syn::Ident>(&model.static_name).is_err() {
        return Err(vec![Diagnostic::error_global(format!(
            "invalid name for the intent map static: `{}`",
            model.static_name
        ))]);
    }
    let tags = TagPaths::new(emitter, &model.union)?;
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

/// [`generate`] as tokens (what `include_clad!` expands to).
pub fn generate_tokens(
    model: &IntentMapModel,
    emitter: &Emitter<'_>,
) -> Result<TokenStream, Vec<Diagnostic>> {
    rust::lex(&generate(model, emitter)?, "generated intent map")
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

/// The union's tag enum path and variant names, read from the emitter's naming table.
pub(super) struct TagPaths<'a> {
    /// `self::anki::vector::UserIntentTag`.
    pub(super) path: String,
    /// `(member name, variant identifier)`, in member order.
    variants: Vec<(&'a str, &'a str)>,
}

impl<'a> TagPaths<'a> {
    pub(super) fn new(emitter: &'a Emitter<'_>, union: &str) -> Result<Self, Vec<Diagnostic>> {
        let tag = emitter.union_tag(union).ok_or_else(|| {
            vec![Diagnostic::error_global(format!(
                "the union `{union}` of the intent map is not emitted by this build"
            ))
            .with_note("add the schema file that declares it to the same build")]
        })?;
        Ok(TagPaths {
            path: tag.path,
            variants: tag.variants,
        })
    }

    pub(super) fn variant(&self, member: &str) -> Result<&'a str, Vec<Diagnostic>> {
        self.variants
            .iter()
            .find(|(m, _)| *m == member)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                vec![Diagnostic::error_global(format!(
                    "internal error: no tag variant for union member `{member}`"
                ))]
            })
    }
}
