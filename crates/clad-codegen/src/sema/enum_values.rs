//! Enum values (§3.4), including the original's hex/verbatim text rendering and duplicate
//! keys, and the lookup of enum members inside verbatim expressions.

use super::{show_value, Sema, Symbol};
use crate::consteval;
use crate::diagnostics::Diagnostic;
use crate::ir::*;
use std::collections::HashSet;

impl Sema<'_> {
    /// Resolves a name inside a verbatim expression to an enum member value.
    pub(super) fn enum_member_value(
        &self,
        scope: usize,
        name: &str,
        current: Option<(DeclId, usize)>,
    ) -> Result<i128, String> {
        let value_of = |id: DeclId, member: &str, limit: Option<usize>| -> Option<i128> {
            let DeclKind::Enum(e) = &self.decls[id.0 as usize].kind else {
                return None;
            };
            let n = limit.unwrap_or(e.members.len());
            e.members[..n]
                .iter()
                .find(|m| m.name == member)
                .map(|m| m.value)
        };
        let assigned_limit = |id: DeclId| match current {
            Some((cur, upto)) if cur == id => Some(upto),
            Some((cur, _)) if id.0 > cur.0 => Some(0),
            _ => None,
        };
        match name.rsplit_once("::") {
            None => {
                if let Some((cur, upto)) = current {
                    if let Some(v) = value_of(cur, name, Some(upto)) {
                        return Ok(v);
                    }
                }
                // Members of plain (`no_cpp_class`) enums are visible in their namespace.
                let mut ns = Some(scope);
                while let Some(n) = ns {
                    if let Some(v) = self.plain_enum_member(n, name, &assigned_limit) {
                        return Ok(v);
                    }
                    ns = self.ns[n].parent;
                }
                Err(format!("unknown name `{name}`"))
            }
            Some((prefix, member)) => match self.lookup_from(scope, prefix) {
                Some(Symbol::Type(id)) => {
                    if !matches!(self.decls[id.0 as usize].kind, DeclKind::Enum(_)) {
                        return Err(format!("`{prefix}` is not an enum"));
                    }
                    if assigned_limit(id) == Some(0) {
                        return Err(format!(
                            "`{prefix}` is declared later; its values are not known here"
                        ));
                    }
                    value_of(id, member, assigned_limit(id))
                        .ok_or_else(|| format!("`{prefix}` has no member `{member}`"))
                }
                Some(Symbol::Namespace(ns)) => self
                    .plain_enum_member(ns, member, &assigned_limit)
                    .ok_or_else(|| format!("unknown name `{name}`")),
                None => Err(format!("unknown name `{name}`")),
            },
        }
    }

    fn plain_enum_member(
        &self,
        ns: usize,
        member: &str,
        limit: &dyn Fn(DeclId) -> Option<usize>,
    ) -> Option<i128> {
        let mut ids: Vec<DeclId> = self.ns[ns]
            .children
            .values()
            .filter_map(|s| match s {
                Symbol::Type(id) => Some(*id),
                Symbol::Namespace(_) => None,
            })
            .collect();
        ids.sort();
        ids.into_iter()
            .find_map(|id| match &self.decls[id.0 as usize].kind {
                DeclKind::Enum(e) if e.no_cpp_class => {
                    let n = limit(id).unwrap_or(e.members.len());
                    e.members[..n]
                        .iter()
                        .find(|m| m.name == member)
                        .map(|m| m.value)
                }
                _ => None,
            })
    }

    /// Spec §3.4, including the original's hex/verbatim text rendering and duplicate keys.
    pub(super) fn assign_enum_values(&mut self) {
        #[derive(PartialEq, Eq, Hash)]
        enum Key {
            Int(i128),
            Text(String),
        }
        for idx in 0..self.decls.len() {
            let id = DeclId(idx as u32);
            let DeclKind::Enum(e) = &self.decls[idx].kind else {
                continue;
            };
            let storage = e.storage;
            let count = e.members.len();
            let fqn = self.decls[idx].fqn();
            let scope = self.decl_ns[idx];
            let (min, max) = (storage.min().unwrap_or(0), storage.max().unwrap_or(0));
            let mut counter: i128 = 0;
            let mut base: Option<(String, i128)> = None;
            let mut seen: HashSet<Key> = HashSet::new();
            for i in 0..count {
                let (init, span, mname) = {
                    let DeclKind::Enum(e) = &self.decls[idx].kind else {
                        unreachable!()
                    };
                    (
                        e.members[i].initializer.clone(),
                        e.members[i].span,
                        e.members[i].name.clone(),
                    )
                };
                let mut dup_key = None;
                match &init {
                    Some(Literal::Int { value, hex: false }) => {
                        base = None;
                        counter = *value;
                    }
                    Some(Literal::Int { value, hex: true }) => {
                        base = Some((format!("{value:#x}"), *value));
                        counter = 0;
                        dup_key = Some(Key::Int(*value));
                    }
                    Some(Literal::Verbatim(text)) => {
                        let r = consteval::eval(text, &mut |n| {
                            self.enum_member_value(scope, n, Some((id, i)))
                        });
                        let v = match r {
                            Ok(ConstValue::Int(v)) => v,
                            Ok(ConstValue::Bool(b)) => i128::from(b),
                            Ok(other) => {
                                self.error(
                                    Diagnostic::error(
                                        span,
                                        format!("enum value of '{fqn}::{mname}' is not an integer"),
                                    )
                                    .with_label(format!("evaluates to {}", show_value(&other))),
                                );
                                0
                            }
                            Err(why) => {
                                self.error(
                                    Diagnostic::error(span, format!("cannot evaluate the verbatim value of '{fqn}::{mname}'"))
                                        .with_label(why)
                                        .with_note("verbatim enum values may use integer literals, + - * / % << >> & | ^ ~, parentheses, and members of enums declared earlier"),
                                );
                                0
                            }
                        };
                        base = Some((text.clone(), v));
                        counter = 0;
                    }
                    Some(Literal::Float(_)) | None => {}
                }
                let counter_out_of_range = counter < min || counter > max;
                if counter_out_of_range && !storage.is_float() {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "enum '{fqn}' has a value '{mname}' outside the range of '{}'",
                                storage.name()
                            ),
                        )
                        .with_label(format!("value {counter} does not fit {}", storage.name())),
                    );
                }
                let (display, value) = match &base {
                    Some((text, v)) => {
                        let t = if counter != 0 {
                            format!("{text} + {counter}")
                        } else {
                            text.clone()
                        };
                        (EnumValueText::Text(t), v.saturating_add(counter))
                    }
                    None => (EnumValueText::Int(counter), counter),
                };
                if base.is_some()
                    && (value < min || value > max)
                    && !storage.is_float()
                    && !counter_out_of_range
                {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!(
                                "enum member '{fqn}::{mname}' has the value {value}, which does not fit its storage type {}",
                                storage.name()
                            ),
                        )
                        .with_label("out of range")
                        .with_note("the original compiler does not check values given in hex or verbatim form; the generated code would not compile"),
                    );
                }
                let key = dup_key.unwrap_or(match &display {
                    EnumValueText::Int(v) => Key::Int(*v),
                    EnumValueText::Text(t) => Key::Text(t.clone()),
                });
                let is_duplicate = !seen.insert(key);
                let DeclKind::Enum(e) = &mut self.decls[idx].kind else {
                    unreachable!()
                };
                let m = &mut e.members[i];
                m.value = value;
                m.display = display;
                m.is_duplicate = is_duplicate;
                // Saturating: a literal near i128::MAX was already reported as out of range.
                counter = counter.saturating_add(1);
            }
        }
    }
}
