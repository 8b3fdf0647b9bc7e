//! Verbatim expressions (fixed-array lengths, defaults) evaluated once enum values are known
//! (with [`crate::consteval`]), and the type check of evaluated defaults.

use super::{show_value, Fixup, Sema};
use crate::consteval;
use crate::diagnostics::Diagnostic;
use crate::ir::*;

impl Sema<'_> {
    pub(super) fn run_fixups(&mut self) {
        let fixups = std::mem::take(&mut self.fixups);
        for (fixup, span) in fixups {
            let (decl, field) = match fixup {
                Fixup::ArrayLength { decl, field } | Fixup::Default { decl, field } => {
                    (decl, field)
                }
            };
            let scope = self.decl_ns[decl.0 as usize];
            let DeclKind::Struct(s) = &self.decls[decl.0 as usize].kind else {
                continue;
            };
            let f = &s.fields[field];
            match fixup {
                Fixup::ArrayLength { .. } => {
                    let Type::FixedArray {
                        len: FixedLen::Verbatim { text, .. },
                        ..
                    } = &f.ty
                    else {
                        continue;
                    };
                    let text = text.clone();
                    let r = consteval::eval(&text, &mut |n| self.enum_member_value(scope, n, None));
                    let value = match r {
                        Ok(v) => match v {
                            ConstValue::Int(i) if i >= 0 && i <= i128::from(u32::MAX) => {
                                Some(i as u64)
                            }
                            other => {
                                self.error(
                                    Diagnostic::error(
                                        span,
                                        format!(
                                            "verbatim array length `{}` is not a usable length",
                                            text.trim()
                                        ),
                                    )
                                    .with_label(format!(
                                        "evaluates to {}; a length must be between 0 and {}",
                                        show_value(&other),
                                        u32::MAX
                                    )),
                                );
                                None
                            }
                        },
                        Err(why) => {
                            self.error(
                                Diagnostic::error(span, format!("cannot evaluate the verbatim array length `{}`", text.trim()))
                                    .with_label(why)
                                    .with_note("verbatim lengths may use integer literals, arithmetic and enum members declared earlier"),
                            );
                            None
                        }
                    };
                    if let Some(value) = value {
                        if let DeclKind::Struct(s) = &mut self.decls[decl.0 as usize].kind {
                            if let Type::FixedArray {
                                len: FixedLen::Verbatim { value: v, .. },
                                ..
                            } = &mut s.fields[field].ty
                            {
                                *v = value;
                            }
                        }
                    }
                }
                Fixup::Default { .. } => {
                    let Some(Constant {
                        literal: Literal::Verbatim(text),
                        ..
                    }) = &f.default
                    else {
                        continue;
                    };
                    let (text, ty, fname) = (text.clone(), f.ty.clone(), f.name.clone());
                    let r = consteval::eval(&text, &mut |n| self.enum_member_value(scope, n, None));
                    let checked = r.and_then(|v| self.check_default_type(&ty, v));
                    match checked {
                        Ok(v) => {
                            if let DeclKind::Struct(s) = &mut self.decls[decl.0 as usize].kind {
                                if let Some(d) = &mut s.fields[field].default {
                                    d.value = v;
                                }
                            }
                        }
                        Err(why) => self.error(
                            Diagnostic::error(
                                span,
                                format!("cannot use the verbatim default of '{fname}'"),
                            )
                            .with_label(why),
                        ),
                    }
                }
            }
        }
    }

    /// Checks an evaluated verbatim default against the member type.
    pub(super) fn check_default_type(
        &self,
        ty: &Type,
        v: ConstValue,
    ) -> Result<ConstValue, String> {
        match (ty, v) {
            (Type::Builtin(Builtin::Bool), ConstValue::Bool(b)) => Ok(ConstValue::Bool(b)),
            (Type::Builtin(Builtin::Bool), ConstValue::Int(i)) if i == 0 || i == 1 => {
                Ok(ConstValue::Bool(i == 1))
            }
            (Type::Builtin(b), v) if b.is_float() => match v {
                ConstValue::Float(f) => Ok(ConstValue::Float(f)),
                ConstValue::Int(i) => Ok(ConstValue::Float(i as f64)),
                other => Err(format!("expected a number, got {}", show_value(&other))),
            },
            (Type::Builtin(b), ConstValue::Int(i)) => {
                if i < b.min().unwrap_or(0) || i > b.max().unwrap_or(0) {
                    Err(format!("{i} does not fit {}", b.name()))
                } else {
                    Ok(ConstValue::Int(i))
                }
            }
            (Type::Enum(id), ConstValue::Int(i)) => {
                let DeclKind::Enum(e) = &self.decls[id.0 as usize].kind else {
                    return Err("not an enum".into());
                };
                if e.members.iter().any(|m| m.value == i) {
                    Ok(ConstValue::Int(i))
                } else {
                    Err(format!(
                        "{i} is not a value of enum {}",
                        self.decls[id.0 as usize].name
                    ))
                }
            }
            (Type::String { max, .. }, ConstValue::Str(s)) => {
                if s.len() as u64 > *max {
                    Err(format!(
                        "the string is longer than the maximum of {max} bytes"
                    ))
                } else {
                    Ok(ConstValue::Str(s))
                }
            }
            (ty, v) => Err(format!(
                "a {} member cannot take the value {}",
                self.type_name(ty),
                show_value(&v)
            )),
        }
    }
}
