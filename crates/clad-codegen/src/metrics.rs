//! Size and alignment metrics (spec §3.11).
//!
//! `alignment` enters union version hashes, so it must be exactly the original's; sizes are
//! exposed by `describe` and used by emitters (fixed-size constants, buffer bounds).

use crate::ir::{Decl, DeclId, DeclKind, FixedLen, Metrics, Schema, SizeExpr, Type};

/// Metrics of a type, reading message/union metrics through `compound`.
pub(crate) fn compute(
    ty: &Type,
    decls: &[Decl],
    compound: &mut dyn FnMut(DeclId) -> Metrics,
) -> Metrics {
    match ty {
        Type::Builtin(b) => scalar(b.size()),
        Type::Enum(id) => match &decls[id.0 as usize].kind {
            DeclKind::Enum(e) => scalar(e.storage.size()),
            _ => scalar(1),
        },
        Type::Struct(id) | Type::Union(id) => compound(*id),
        Type::String { length, max, .. } => {
            let elem = scalar(1);
            var_array(length.size(), *max, &elem)
        }
        Type::VarArray {
            elem, length, max, ..
        } => {
            let elem = compute(elem, decls, compound);
            var_array(length.size(), *max, &elem)
        }
        Type::FixedArray { elem, len } => {
            let e = compute(elem, decls, compound);
            match len {
                FixedLen::Literal(n) => Metrics {
                    min_size: e.min_size.times(u128::from(*n)),
                    max_size: e.max_size.times(u128::from(*n)),
                    alignment: if *n == 0 { 1 } else { e.alignment },
                    is_fixed_size: *n == 0 || e.is_fixed_size,
                },
                FixedLen::Verbatim { text, value } => {
                    let sym = |s: &SizeExpr| {
                        if s.terms.is_empty() {
                            SizeExpr {
                                constant: 0,
                                terms: vec![(text.clone(), *value, s.constant)],
                            }
                        } else {
                            SizeExpr::bytes(s.value().saturating_mul(u128::from(*value)))
                        }
                    };
                    Metrics {
                        min_size: sym(&e.min_size),
                        max_size: sym(&e.max_size),
                        alignment: e.alignment,
                        is_fixed_size: e.is_fixed_size,
                    }
                }
            }
        }
    }
}

fn scalar(size: u32) -> Metrics {
    Metrics {
        min_size: SizeExpr::bytes(size.into()),
        max_size: SizeExpr::bytes(size.into()),
        alignment: size,
        is_fixed_size: true,
    }
}

fn var_array(len_size: u32, max: u64, elem: &Metrics) -> Metrics {
    let mut max_size = SizeExpr::bytes(len_size.into());
    max_size.add(&elem.max_size.times(u128::from(max)));
    Metrics {
        min_size: SizeExpr::bytes(len_size.into()),
        max_size,
        alignment: if max == 0 {
            len_size
        } else {
            len_size.max(elem.alignment)
        },
        is_fixed_size: max == 0,
    }
}

/// Metrics of a message/structure from its members' metrics.
pub(crate) fn of_struct(members: &[Metrics]) -> Metrics {
    let mut min_size = SizeExpr::default();
    let mut max_size = SizeExpr::default();
    for m in members {
        min_size.add(&m.min_size);
        max_size.add(&m.max_size);
    }
    Metrics {
        min_size,
        max_size,
        alignment: members
            .iter()
            .map(|m| m.alignment)
            .max()
            .unwrap_or(1)
            .max(1),
        is_fixed_size: members.iter().all(|m| m.is_fixed_size),
    }
}

/// Metrics of a union from its members' metrics (the tag adds one byte).
pub(crate) fn of_union(members: &[Metrics]) -> Metrics {
    let tag = SizeExpr::bytes(1);
    let smallest = members.iter().min_by_key(|m| m.min_size.value());
    let largest = members.iter().max_by_key(|m| m.max_size.value());
    let with_tag = |s: Option<&SizeExpr>| {
        let mut t = tag.clone();
        if let Some(s) = s {
            t.add(s);
        }
        t
    };
    let first_max = members.first().map(|m| m.max_size.value());
    Metrics {
        min_size: with_tag(smallest.map(|m| &m.min_size)),
        max_size: with_tag(largest.map(|m| &m.max_size)),
        alignment: members
            .iter()
            .map(|m| m.alignment)
            .max()
            .unwrap_or(1)
            .max(1),
        is_fixed_size: members
            .iter()
            .all(|m| m.is_fixed_size && Some(m.max_size.value()) == first_max),
    }
}

impl Schema {
    /// Size metrics of any type (defined here, beside the computation, so that the IR does
    /// not depend on this module).
    pub fn type_metrics(&self, ty: &Type) -> Metrics {
        of_type(self, ty)
    }
}

/// Metrics of a type in a finished schema.
pub(crate) fn of_type(schema: &Schema, ty: &Type) -> Metrics {
    compute(ty, &schema.decls, &mut |id| {
        schema
            .decl(id)
            .metrics()
            .cloned()
            .unwrap_or_else(|| scalar(0))
    })
}
