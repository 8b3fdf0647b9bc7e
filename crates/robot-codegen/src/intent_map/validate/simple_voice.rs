//! The `simple_voice_responses` section: its shape and each entry, against the simple
//! voice member's payload.

//! Checks a parsed `user_intent_map.json` against the schema and builds the model.

use super::super::SimpleVoiceEntry;
use crate::json::{Member, Node};
use clad_codegen::ir::{Builtin, DeclKind, Type};
use clad_codegen::Diagnostic;
use robot_runtime::intent::members::SIMPLE_VOICE_RESPONSE as SIMPLE_VOICE_TAG;

use robot_runtime::suggest::closest;

use super::{
    misspelled, SimpleShape, Validator, ACTIVE_FEATURE, ANIM_GROUP, DEFAULT_ACTIVE_FEATURE,
    DISABLE_WAKEWORD_TURN, EMOTION_EVENT, RESPONSE_FIELDS, SIMPLE_KEYS,
};

impl<'s> Validator<'s> {
    /// Checks that the union can hold simple voice responses (once, for a non-empty section).
    pub(super) fn simple_shape(&mut self, section: &Member) -> Option<SimpleShape<'s>> {
        self.members?;
        let Some(tag) = self.member(SIMPLE_VOICE_TAG) else {
            let span = self.span(&section.key_span);
            let union = self.union_name.clone();
            let d = self.error(
                span,
                format!("`{union}` has no member \"{SIMPLE_VOICE_TAG}\""),
                "simple voice responses need it",
            );
            d.notes.push(format!(
                "add a member `{SIMPLE_VOICE_TAG}` whose payload has the fields anim_group, \
                 emotion_event, active_feature and disable_wakeword_turn"
            ));
            return None;
        };
        let payload = self.payload(tag);
        let mut active_features = None;
        let mut problems = Vec::new();
        for (field, want) in RESPONSE_FIELDS {
            let ty = payload
                .fields
                .iter()
                .find(|f| f.name == field)
                .map(|f| &f.ty);
            let fits = match ty {
                None => false,
                Some(Type::Enum(id)) if field == ACTIVE_FEATURE => {
                    let decl = self.schema.decl(*id);
                    if let DeclKind::Enum(e) = &decl.kind {
                        active_features = Some((
                            decl.fqn(),
                            e.members.iter().map(|m| m.name.as_str()).collect(),
                        ));
                    }
                    true
                }
                Some(ty) if field == DISABLE_WAKEWORD_TURN => *ty == Type::Builtin(Builtin::Bool),
                Some(ty) => matches!(ty, Type::String { .. }),
            };
            if !fits {
                problems.push(format!("`{field}` ({want})"));
            }
        }
        if !problems.is_empty() {
            let name = payload.name.clone();
            let d = Diagnostic::error(
                tag.span,
                format!(
                    "the payload of \"{SIMPLE_VOICE_TAG}\" cannot hold a simple voice response"
                ),
            )
            .with_label(format!("`{name}` needs {}", problems.join(", ")))
            .with_secondary(
                self.span(&section.key_span),
                "simple voice responses are declared here",
            );
            self.push(d);
            return None;
        }
        Some(SimpleShape {
            payload,
            active_features,
        })
    }

    pub(super) fn simple_voice(
        &mut self,
        node: &Node,
        shape: &SimpleShape<'s>,
    ) -> Option<SimpleVoiceEntry> {
        let members = self.object(node, "a simple_voice_responses entry")?;
        self.unknown_keys(members, SIMPLE_KEYS, "a simple_voice_responses entry");
        let get = |k: &str| members.iter().find(|m| m.key == k);
        let mut ok = true;

        let cloud_intent = match get("cloud_intent") {
            None if misspelled(members, SIMPLE_KEYS, "cloud_intent") => None,
            None => {
                let span = self.start(node);
                self.error(
                    span,
                    "simple voice response without \"cloud_intent\"",
                    "this entry needs a \"cloud_intent\"",
                );
                None
            }
            Some(m) => self
                .string(&m.value, "\"cloud_intent\"")
                .filter(|s| self.claim("cloud", s, &m.value)),
        };
        let feature_gate = get("feature_gate").and_then(|m| self.feature_gate(&m.value));

        let mut out = SimpleVoiceEntry {
            cloud_intent: cloud_intent.unwrap_or_default().to_owned(),
            anim_group: String::new(),
            emotion_event: String::new(),
            active_feature: DEFAULT_ACTIVE_FEATURE.to_owned(),
            disable_wakeword_turn: false,
            feature_gate: feature_gate.map(str::to_owned),
        };
        let Some(response) = get("response") else {
            if misspelled(members, SIMPLE_KEYS, "response") {
                return None;
            }
            let span = self.start(node);
            self.error(
                span,
                "simple voice response without \"response\"",
                "this entry needs a \"response\" object",
            );
            return None;
        };
        let fields = self.object(&response.value, "\"response\"")?;
        let known: Vec<&str> = RESPONSE_FIELDS.iter().map(|(f, _)| *f).collect();
        let place = format!("a simple voice response (`{}`)", shape.payload.name);
        self.unknown_keys(fields, &known, &place);
        let mut active_feature_node = None;
        for f in fields {
            let what = format!("\"{}\"", f.key);
            match f.key.as_str() {
                k if k == ANIM_GROUP => match self.string(&f.value, &what) {
                    Some(s) => out.anim_group = s.to_owned(),
                    None => ok = false,
                },
                k if k == EMOTION_EVENT => match self.string(&f.value, &what) {
                    Some(s) => out.emotion_event = s.to_owned(),
                    None => ok = false,
                },
                k if k == ACTIVE_FEATURE => match self.string(&f.value, &what) {
                    Some(s) => {
                        out.active_feature = s.to_owned();
                        active_feature_node = Some(&f.value);
                    }
                    None => ok = false,
                },
                k if k == DISABLE_WAKEWORD_TURN => match self.bool(&f.value, &what) {
                    Some(b) => out.disable_wakeword_turn = b,
                    None => ok = false,
                },
                _ => {}
            }
        }
        let missing = !fields.iter().any(|f| f.key == ANIM_GROUP);
        if (missing && !misspelled(fields, &known, ANIM_GROUP))
            || (ok && !missing && out.anim_group.is_empty())
        {
            let span = self.span(&response.value.span);
            let d = self.error(
                span,
                "simple voice response without an animation group",
                "\"anim_group\" missing or empty",
            );
            d.notes
                .push("the response plays this animation group; it is required".to_owned());
            ok = false;
        }
        ok &= !missing;
        if let Some((fqn, names)) = &shape.active_features {
            if !names.contains(&out.active_feature.as_str()) {
                let suggestion = closest(&out.active_feature, names.iter().copied());
                let (span, message) = match active_feature_node {
                    Some(n) => (
                        self.span(&n.span),
                        format!("unknown active feature \"{}\"", out.active_feature),
                    ),
                    None => (
                        self.span(&response.value.span),
                        format!(
                            "the default active feature \"{DEFAULT_ACTIVE_FEATURE}\" is not a member of `{fqn}`"
                        ),
                    ),
                };
                let d = self.error(span, message, format!("not a member of `{fqn}`"));
                if let Some(s) = suggestion {
                    d.notes.push(format!("did you mean \"{s}\"?"));
                }
                ok = false;
            }
        }
        (ok && cloud_intent.is_some()).then_some(out)
    }
}
