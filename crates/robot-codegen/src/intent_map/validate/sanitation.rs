//! The `sanitation` of a cloud entry's parameters: each substitution checked against the
//! member's payload field it fills.

//! Checks a parsed `user_intent_map.json` against the schema and builds the model.

use super::super::SanitationStep;
use clad_codegen::ir::{Builtin, Field, Type, UnionMember};
use clad_codegen::Diagnostic;

use robot_runtime::suggest::closest;

use std::ops::Range;

use super::{article, Payload, Side, Validator};

impl<'s> Validator<'s> {
    /// Compiles one side's substitutions and numerics into sanitation steps (sorted by `from`).
    pub(super) fn sanitation(
        &mut self,
        side: &Side<'_>,
        has_intent: bool,
        member: Option<&'s UnionMember>,
    ) -> Vec<SanitationStep> {
        let payload = member.map(|m| self.payload(m));
        let name = side.name;
        for key in [side.subs, side.numerics].into_iter().flatten() {
            if !has_intent {
                let span = self.span(&key.key_span);
                let k = &key.key;
                self.error(
                    span,
                    format!("\"{k}\" has no effect without \"{name}_intent\""),
                    format!("this entry has no {name} intent"),
                );
            }
        }

        // Substitutions: (from, from span, to, to span).
        let mut subs: Vec<(&str, Range<usize>, &str, Range<usize>)> = Vec::new();
        if let Some(m) = side.subs {
            let what = format!("\"{}\"", m.key);
            if let Some(pairs) = self.object(&m.value, &what) {
                for p in pairs {
                    if subs.iter().any(|s| s.0 == p.key) {
                        continue; // a duplicate key, reported by the parser
                    }
                    let what = format!("the target of \"{}\" in {what}", p.key);
                    if let Some(to) = self.string(&p.value, &what) {
                        subs.push((&p.key, p.key_span.clone(), to, p.value.span.clone()));
                    }
                }
            }
        }
        let mut steps: Vec<SanitationStep> = Vec::new();
        for (i, (from, _, to, to_span)) in subs.iter().enumerate() {
            let to_s = self.span(to_span);
            let mut ok = true;
            if to.is_empty() {
                self.error(
                    to_s,
                    "empty substitution target",
                    "a field name is required",
                );
                ok = false;
            } else if from == to {
                self.push(
                    Diagnostic::warning(to_s, format!("substitution of \"{from}\" to itself"))
                        .with_label("this rename has no effect")
                        .with_note("the original logs a \"no-op substitution\" warning for it on every intent"),
                );
            } else if let Some((_, _, _, first)) = subs[..i].iter().find(|s| s.2 == *to) {
                let first = self.span(first);
                let d = self.error(
                    to_s,
                    format!("two parameters are renamed to \"{to}\""),
                    format!("\"{from}\" renamed to \"{to}\" here"),
                );
                d.secondary.push((first, "and here".to_owned()));
                d.notes.push(
                    "when both arrive, the second rename finds the target taken and the original \
                     drops that parameter"
                        .to_owned(),
                );
                ok = false;
            } else if let Some((_, src_span, _, _)) = subs.iter().find(|s| s.0 == *to) {
                let src = self.span(src_span);
                let d = self.error(
                    to_s,
                    format!("\"{from}\" is renamed to \"{to}\", which is itself renamed"),
                    "target is another incoming parameter",
                );
                d.secondary.push((src, format!("\"{to}\" is renamed here")));
                d.notes.push(
                    "when both arrive, the rename finds the target taken and the original drops \
                     the parameter"
                        .to_owned(),
                );
                ok = false;
            }
            if ok && from != to {
                if let Some(p) = &payload {
                    self.check_field(p, to, to_span, "substitution target");
                }
            }
            steps.push(SanitationStep {
                from: (*from).to_owned(),
                to: (from != to).then(|| (*to).to_owned()),
                numeric: false,
            });
        }

        if let Some(m) = side.numerics {
            let what = format!("\"{}\"", m.key);
            let list = self.array(&m.value, &what).unwrap_or(&[]);
            let mut seen: Vec<(&str, &Range<usize>)> = Vec::new();
            for n in list {
                let Some(name) = self.string(n, &format!("an element of {what}")) else {
                    continue;
                };
                let span = self.span(&n.span);
                if let Some((_, first)) = seen.iter().find(|(s, _)| *s == name) {
                    let first = self.span(first);
                    let d = self.error(
                        span,
                        format!("\"{name}\" is listed twice in {what}"),
                        "listed again here",
                    );
                    d.secondary.push((first, "first listed here".to_owned()));
                    continue;
                }
                seen.push((name, &n.span));
                let target = if let Some(step) = steps.iter_mut().find(|s| s.from == name) {
                    step.numeric = true;
                    step.to.clone().unwrap_or_else(|| name.to_owned())
                } else if let Some((src, ..)) = subs.iter().find(|s| s.2 == name) {
                    let d = self.error(
                        span,
                        format!("\"{name}\" in {what} is a substitution target"),
                        format!("write the incoming name \"{src}\""),
                    );
                    d.notes.push(
                        "numerics name a parameter as it arrives (before substitution); the \
                         original looks conversions up by incoming name, so this one would never \
                         run"
                        .to_owned(),
                    );
                    continue;
                } else {
                    steps.push(SanitationStep {
                        from: name.to_owned(),
                        to: None,
                        numeric: true,
                    });
                    name.to_owned()
                };
                if let Some(p) = &payload {
                    let before = self.diags.len();
                    let field = self.check_field(p, &target, &n.span, "numeric conversion of");
                    if field.is_none() && target == name && self.diags.len() > before {
                        if let Some(d) = self.diags.last_mut() {
                            d.notes.push(format!(
                                "to fill a field from a parameter of another name, rename it: \
                                 \"{}_substitutions\": {{ \"{name}\": \"<field>\" }}",
                                side.name
                            ));
                        }
                    }
                    if let Some(field) = field {
                        let numeric = matches!(field.ty, Type::Builtin(b) if b != Builtin::Bool);
                        if !numeric {
                            let ty = self.type_desc(&field.ty);
                            let pname = p.name.clone();
                            let fspan = field.span;
                            let renamed = if target == name {
                                String::new()
                            } else {
                                format!(" (renamed to `{target}`)")
                            };
                            let d = self.error(
                                span,
                                format!(
                                    "\"{name}\"{renamed} is converted to a number, but `{pname}.{target}` is {} {ty}",
                                    article(&ty)
                                ),
                                "numeric conversion of a non-numeric field",
                            );
                            d.secondary.push((fspan, format!("declared as {ty} here")));
                            d.notes.push(format!(
                                "only integer and float fields take numbers: remove it from {what}"
                            ));
                        }
                    }
                }
            }
        }
        steps.sort_by(|a, b| a.from.cmp(&b.from));
        steps
    }

    /// Reports `name` when it is not a field of the payload; returns the field.
    pub(super) fn check_field(
        &mut self,
        p: &Payload<'s>,
        name: &str,
        at: &Range<usize>,
        what: &str,
    ) -> Option<&'s Field> {
        if let Some(f) = p.fields.iter().find(|f| f.name == name) {
            return Some(f);
        }
        let span = self.span(at);
        let pname = p.name.clone();
        let suggestion = closest(name, p.fields.iter().map(|f| f.name.as_str()));
        let fields: Vec<&str> = p.fields.iter().map(|f| f.name.as_str()).collect();
        let message = if what == "substitution target" {
            format!("substitution target \"{name}\" is not a field of `{pname}`")
        } else {
            format!("{what} \"{name}\", which is not a field of `{pname}`")
        };
        let label = match suggestion {
            Some(s) => format!("did you mean \"{s}\"?"),
            None => "no such field".to_owned(),
        };
        let d = self.error(span, message, label);
        match p.decl {
            Some(decl) => d
                .secondary
                .push((decl.span, format!("`{pname}` declared here"))),
            None => d.notes.push(format!(
                "the payload is `{pname}`, not a structure: parameters cannot fill it"
            )),
        }
        if p.decl.is_some() {
            d.notes.push(if fields.is_empty() {
                format!("`{pname}` has no fields")
            } else {
                format!("fields of `{pname}`: {}", fields.join(", "))
            });
        }
        None
    }
}
