//! The validated map as Rust: one `pub static` of `robot_runtime::intent::StaticIntentMap`.
//!
//! The static refers to the union's generated `<Name>Tag` enum by a path relative to the root
//! of the generated file (`self::anki::vector::UserIntentTag`), so it must be emitted into the
//! same file as the union (the builder does this). Type and variant names come from
//! [`crate::rust::generated_types`] and [`crate::rust::names`], the emitter's own naming rules.

use super::{IntentEntry, IntentMapModel, SanitationStep, SimpleVoiceEntry};
use crate::diagnostics::Diagnostic;
use crate::ir::{DeclKind, Schema};
use crate::rust::code::{emit, str_lit, Code};
use crate::rust::names::{Case, Scope};
use crate::rust::{self, RustOptions};
use proc_macro2::TokenStream;

/// The Rust code of the static `model.static_name`, for a file that also holds the code
/// [`crate::rust::generate`] emits for `units`: the union's unit and every unit it includes,
/// as the builder compiles them (the same units [`crate::rust::generate`] needs). The
/// builder appends it to the union's file.
pub fn generate(
    model: &IntentMapModel,
    units: &[Schema],
    opts: &RustOptions,
) -> Result<String, Vec<Diagnostic>> {
    let rt = rust::checked_path(&opts.intent_runtime_path)?;
    if syn::parse_str::<syn::Ident>(&model.static_name).is_err() {
        return Err(vec![Diagnostic::error_global(format!(
            "invalid name for the intent map static: `{}`",
            model.static_name
        ))]);
    }
    let tags = TagPaths::new(units, &model.union)?;
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
    units: &[Schema],
    opts: &RustOptions,
) -> Result<TokenStream, Vec<Diagnostic>> {
    generate(model, units, opts)?.parse().map_err(|e| {
        vec![Diagnostic::error_global(format!(
            "internal error: the generated intent map does not lex: {e}"
        ))]
    })
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

/// The union's tag enum path and variant names, as the Rust emitter assigns them.
pub(super) struct TagPaths {
    /// `self::anki::vector::UserIntentTag`.
    pub(super) path: String,
    /// Member name → variant identifier text, in member order.
    variants: Vec<(String, String)>,
}

impl TagPaths {
    pub(super) fn new(units: &[Schema], union: &str) -> Result<Self, Vec<Diagnostic>> {
        let not_emitted = || {
            vec![Diagnostic::error_global(format!(
                "the union `{union}` of the intent map is not emitted by this build"
            ))
            .with_note("add the schema file that declares it to the same build")]
        };
        let types = rust::generated_types(units);
        let ty = types
            .iter()
            .find(|t| t.clad_name == union && t.kind == "union")
            .ok_or_else(not_emitted)?;
        let (module, _) = ty
            .rust_path
            .rsplit_once("::")
            .unwrap_or(("", &ty.rust_path));
        // The emitter names a union's tag enum after every type of its module, in output
        // order, then every union's tag in order (see `rust::context`).
        let in_module = |t: &&crate::builder::GeneratedType| {
            t.rust_path.rsplit_once("::").map_or("", |(m, _)| m) == module
        };
        let taken: Vec<&str> = types
            .iter()
            .filter(in_module)
            .map(|t| last_segment(&t.rust_path))
            .collect();
        let mut scope = Scope::with_reserved(&taken);
        let mut tag_ident = None;
        for t in types.iter().filter(in_module).filter(|t| t.kind == "union") {
            let base = last_segment(&t.rust_path).trim_end_matches('_');
            let ident = scope.assign(&format!("{base}Tag"), Case::Camel);
            if t.clad_name == union {
                tag_ident = Some(ident);
                break;
            }
        }
        let tag_ident = tag_ident.ok_or_else(not_emitted)?;
        let mut path = String::from("self::");
        for segment in module.split("::").filter(|s| !s.is_empty()) {
            path.push_str(segment);
            path.push_str("::");
        }
        path.push_str(&tag_ident);

        let members = units
            .iter()
            .find_map(|u| {
                u.own_decls()
                    .find(|(_, d)| d.fqn() == union)
                    .and_then(|(_, d)| match &d.kind {
                        DeclKind::Union(un) => Some(&un.members),
                        _ => None,
                    })
            })
            .ok_or_else(not_emitted)?;
        let mut scope = Scope::new();
        let variants = members
            .iter()
            .map(|m| (m.name.clone(), scope.assign(&m.name, Case::Camel)))
            .collect();
        Ok(TagPaths { path, variants })
    }

    pub(super) fn variant(&self, member: &str) -> Result<&str, Vec<Diagnostic>> {
        self.variants
            .iter()
            .find(|(m, _)| m == member)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| {
                vec![Diagnostic::error_global(format!(
                    "internal error: no tag variant for union member `{member}`"
                ))]
            })
    }
}

/// The identifier at the end of a Rust path, without `r#`.
fn last_segment(path: &str) -> &str {
    let last = path.rsplit("::").next().unwrap_or(path);
    last.strip_prefix("r#").unwrap_or(last)
}
