//! The validated map as Rust: one `pub static` of `robot_runtime::intent::StaticIntentMap`.
//!
//! The static refers to the union's generated `<Name>Tag` enum by a path relative to the root
//! of the generated file (`self::anki::vector::UserIntentTag`), so it must be emitted into the
//! same file as the union (the builder does this). Type and variant names come from
//! [`crate::rust::generated_types`] and [`crate::rust::names`], the emitter's own naming rules.

use super::{IntentEntry, IntentMapModel, SanitationStep, SimpleVoiceEntry};
use crate::diagnostics::Diagnostic;
use crate::ir::{DeclKind, Schema};
use crate::rust::names::{self, Case, Scope};
use crate::rust::{self, RustOptions};
use proc_macro2::TokenStream;
use quote::quote;

/// The Rust tokens of the static `model.static_name`, for a file that also holds the code
/// [`crate::rust::generate`] emits for `units`: the union's unit and every unit it includes,
/// as the builder compiles them (the same units [`crate::rust::generate`] needs).
pub fn generate_tokens(
    model: &IntentMapModel,
    units: &[Schema],
    opts: &RustOptions,
) -> Result<TokenStream, Vec<Diagnostic>> {
    let rt: syn::Path = syn::parse_str(&opts.runtime_path).map_err(|e| {
        vec![Diagnostic::error_global(format!(
            "invalid runtime path `{}`: {e}",
            opts.runtime_path
        ))]
    })?;
    let static_ident: syn::Ident = syn::parse_str(&model.static_name).map_err(|_| {
        vec![Diagnostic::error_global(format!(
            "invalid name for the intent map static: `{}`",
            model.static_name
        ))]
    })?;
    let tags = TagPaths::new(units, &model.union)?;
    let tag_path = &tags.path;

    let entry = |e: &IntentEntry| -> Result<TokenStream, Vec<Diagnostic>> {
        let intent = &e.intent;
        let tag = tags.variant(&e.tag.name)?;
        let steps = e.sanitation.iter().map(step);
        let gate = option_str(e.feature_gate.as_deref());
        Ok(quote! {
            MapEntry {
                intent: #intent,
                tag: Tag::#tag,
                sanitation: &[#(#steps),*],
                feature_gate: #gate,
            }
        })
    };
    let cloud = model
        .cloud
        .iter()
        .map(entry)
        .collect::<Result<Vec<_>, _>>()?;
    let app = model.app.iter().map(entry).collect::<Result<Vec<_>, _>>()?;
    let simple = model.simple_voice.iter().map(simple_voice);
    let simple_tag = match &model.simple_voice_tag {
        Some(t) => {
            let v = tags.variant(&t.name)?;
            quote!(Some(Tag::#v))
        }
        None => quote!(None),
    };
    let unmatched = tags.variant(&model.unmatched.name)?;

    let doc = format!(
        " The user-intent map compiled from `{}` for `{}`: {}, {}, {}.",
        model.file,
        model.union,
        count(model.cloud.len(), "cloud intent"),
        count(model.app.len(), "app intent"),
        count(model.simple_voice.len(), "simple voice response"),
    );
    Ok(quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = " Tables are sorted by intent string (byte order); look entries up with"]
        #[doc = " `cloud()`, `app()` and `simple_voice_response()`."]
        pub static #static_ident: #rt::intent::StaticIntentMap<#tag_path> = {
            #[allow(unused_imports)]
            use #rt::intent::{MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap};
            #[allow(unused_imports)]
            use ::core::option::Option::{None, Some};
            use #tag_path as Tag;
            StaticIntentMap {
                cloud: &[#(#cloud),*],
                app: &[#(#app),*],
                simple_voice: &[#(#simple),*],
                simple_voice_tag: #simple_tag,
                unmatched: Tag::#unmatched,
            }
        };
    })
}

/// A formatted Rust file holding only the static (for review and tests; the builder emits it
/// into the union's file).
pub fn generate(
    model: &IntentMapModel,
    units: &[Schema],
    opts: &RustOptions,
) -> Result<String, Vec<Diagnostic>> {
    let tokens = generate_tokens(model, units, opts)?;
    format_tokens(tokens)
}

/// Formats tokens as a file with prettyplease.
pub(crate) fn format_tokens(tokens: TokenStream) -> Result<String, Vec<Diagnostic>> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        vec![Diagnostic::error_global(format!(
            "internal error: generated intent map does not parse: {e}"
        ))]
    })?;
    Ok(prettyplease::unparse(&file))
}

fn step(s: &SanitationStep) -> TokenStream {
    let from = &s.from;
    let to = option_str(s.to.as_deref());
    let numeric = s.numeric;
    quote!(Sanitation { from: #from, to: #to, numeric: #numeric })
}

fn simple_voice(s: &SimpleVoiceEntry) -> TokenStream {
    let SimpleVoiceEntry {
        cloud_intent,
        anim_group,
        emotion_event,
        active_feature,
        disable_wakeword_turn,
        feature_gate,
    } = s;
    let gate = option_str(feature_gate.as_deref());
    quote! {
        SimpleVoiceResponse {
            cloud_intent: #cloud_intent,
            anim_group: #anim_group,
            emotion_event: #emotion_event,
            active_feature: #active_feature,
            disable_wakeword_turn: #disable_wakeword_turn,
            feature_gate: #gate,
        }
    }
}

/// `1 app intent`, `3 app intents`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(Some(#s)),
        None => quote!(None),
    }
}

/// The union's tag enum path and variant names, as the Rust emitter assigns them.
struct TagPaths {
    /// `self::anki::vector::UserIntentTag`.
    path: TokenStream,
    /// Member name → variant identifier text, in member order.
    variants: Vec<(String, String)>,
}

impl TagPaths {
    fn new(units: &[Schema], union: &str) -> Result<Self, Vec<Diagnostic>> {
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
        let segments = module
            .split("::")
            .filter(|s| !s.is_empty())
            .map(names::ident);
        let tag = names::ident(&tag_ident);
        let path = quote!(self :: #(#segments ::)* #tag);

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

    fn variant(&self, member: &str) -> Result<syn::Ident, Vec<Diagnostic>> {
        self.variants
            .iter()
            .find(|(m, _)| m == member)
            .map(|(_, v)| names::ident(v))
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
