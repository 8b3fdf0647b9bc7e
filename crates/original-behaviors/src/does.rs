//! What a class does once active and how it ends, as data ([`Does`]), at the level
//! original-class-predicates.md gives ("Does" / "Ends"): animations and speech as timed
//! actions, delegation to named behaviors, waits, loops, running while the class predicate
//! holds, or forever. [`Program`] is the compiled form a table-driven class runs: a flat list
//! of [`Op`]s stepped on activation and after each delegation ends.
//!
//! **Keys by path.** Wherever a variant names a class key, the name may be a dotted path
//! into nested objects (`"normal.requestAnimTrigger"`, `"params.s2_WaitAnimTrigger"`).
//! [`Does::Repeat`] and [`Does::IfKey`] are decided when the program is compiled (from the
//! instance's keys); [`Does::If`] is decided when the step is reached (from the robot
//! state), so a class can take the branch its original takes at that point.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::predicate::Test;

/// An animation a class plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anim {
    /// This trigger.
    Trigger(&'static str),
    /// The trigger the class key names (absent or empty: skipped).
    Key(&'static str),
    /// Each trigger of the array the class key holds, in order (absent: skipped).
    EachOf(&'static str),
    /// The trigger the key names, else this one.
    KeyOr(&'static str, &'static str),
    /// For each string of the array the key holds, in order, the trigger this table maps
    /// it to (strings the table does not list are skipped; absent key: nothing).
    EachMapped(&'static str, &'static [(&'static str, &'static str)]),
}

/// How many times a [`Does::Repeat`] runs its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// This many.
    Fixed(u32),
    /// The class key's whole number (absent or not a number >= 0: the fallback).
    Key(&'static str, u32),
}

/// The most passes a [`Does::Repeat`] unrolls (a larger key value is clamped).
pub const MAX_REPEAT: u32 = 32;

/// A behavior a class delegates to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ref {
    /// A behavior ID its code names.
    Id(&'static str),
    /// The behavior the class key names (absent: skipped).
    Key(&'static str),
}

/// A length of time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dur {
    /// Seconds.
    Secs(f64),
    /// The class key, in seconds (absent: the fallback).
    KeySecs(&'static str, f64),
    /// The class key, in milliseconds (absent: the fallback, in seconds).
    KeyMs(&'static str, f64),
}

/// What a class does (see the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Does {
    /// Nothing: it ends in the tick it starts (the original's AD-end with nothing
    /// delegated).
    Nothing,
    /// Plays an animation (a timed action from the robot's duration table).
    Anim(Anim),
    /// Says a text (TTS as a timed action): a fixed text.
    Say(&'static str),
    /// Delegates the first of these that wants to run, and waits for it to end; none
    /// wants: goes on.
    Delegate(&'static [Ref]),
    /// Waits.
    Wait(Dur),
    /// One after the other.
    Seq(&'static [Does]),
    /// Over and over, until cancelled (or the class predicate turns false inside
    /// [`WhileHolds`](Self::WhileHolds)).
    Loop(&'static Does),
    /// Runs its part while the class predicate holds, checked every update; when it turns
    /// false the class ends (delegates cancelled).
    WhileHolds(&'static Does),
    /// Stays active, doing nothing more, until cancelled by its parent or its
    /// `wantsToCancelSelfCondition`.
    Forever,
    /// The class's procedural work that the robot does not model step by step (driving to
    /// a pose, turning to a face, searching, docking): one timed action named after the
    /// class (`ActionRequest::StandIn`; its length from the robot's duration table).
    Work,
    /// Its part this many times, one after the other (unrolled when compiled, at most
    /// [`MAX_REPEAT`]).
    Repeat(Count, &'static Does),
    /// The first part when the class key is set and "true" (true, a non-zero number, a
    /// non-empty string, array or object), else the second; decided when compiled.
    IfKey(&'static str, &'static Does, &'static Does),
    /// The first part when the test holds at the moment the step is reached, else the
    /// second.
    If(Check, &'static Does, &'static Does),
}

/// One step of a [`Program`].
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Play this animation, continue when it ends.
    Play(String),
    /// Say this text, continue when it ends.
    Say(String),
    /// Delegate the first of these behavior names that wants to run (resolved by the
    /// class), continue when it ends; none wants: continue at once.
    Delegate(Vec<String>),
    /// Wait, continue after.
    Wait(Duration),
    /// Continue at this step.
    Jump(usize),
    /// From here the class predicate must hold.
    GuardOn,
    /// From here it need not.
    GuardOff,
    /// Stay active doing nothing.
    Idle,
    /// Run the class's procedural work as one timed action, continue when it ends.
    Work,
    /// Continue at the next step when the test holds now, else at this step.
    Branch(Check, usize),
    /// End (cancel self).
    End,
}

/// A test a [`Does::If`] / [`Op::Branch`] asks (compared by identity).
#[derive(Clone, Copy, Debug)]
pub struct Check(pub &'static Test);

impl PartialEq for Check {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

/// A compiled [`Does`]: steps with the keys' values filled in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// The steps.
    pub ops: Vec<Op>,
}

/// The value at `path` (a key, or a dotted path into nested objects) of the class keys.
pub fn lookup<'a>(keys: &'a Map<String, Value>, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut v = keys.get(parts.next()?)?;
    for p in parts {
        v = v.as_object()?.get(p)?;
    }
    Some(v)
}

fn key_str<'a>(keys: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    lookup(keys, key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// True when the value at `path` is set and "true": true, a non-zero number, a non-empty
/// string, array or object.
pub fn key_truthy(keys: &Map<String, Value>, path: &str) -> bool {
    match lookup(keys, path) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(Value::Null) | None => false,
    }
}

impl Count {
    /// The count with the class keys' values.
    pub fn resolve(self, keys: &Map<String, Value>) -> u32 {
        let n = match self {
            Count::Fixed(n) => n,
            Count::Key(k, d) => lookup(keys, k)
                .and_then(Value::as_f64)
                .filter(|x| x.is_finite() && *x >= 0.0)
                .map(|x| x.min(f64::from(u32::MAX)) as u32)
                .unwrap_or(d),
        };
        n.min(MAX_REPEAT)
    }
}

impl Dur {
    /// The length with the class keys' values.
    pub fn resolve(self, keys: &Map<String, Value>) -> Duration {
        let secs = match self {
            Dur::Secs(s) => s,
            Dur::KeySecs(k, d) => lookup(keys, k).and_then(Value::as_f64).unwrap_or(d),
            Dur::KeyMs(k, d) => lookup(keys, k)
                .and_then(Value::as_f64)
                .map(|ms| ms / 1000.0)
                .unwrap_or(d),
        };
        if secs.is_finite() && secs > 0.0 {
            Duration::from_secs_f64(secs.min(1.0e9))
        } else {
            Duration::ZERO
        }
    }
}

impl Program {
    /// `does` compiled with the class keys' values, ending with [`Op::End`].
    pub fn compile(does: &Does, keys: &Map<String, Value>) -> Program {
        let mut p = Program::default();
        p.push(does, keys);
        p.ops.push(Op::End);
        p
    }

    fn push(&mut self, does: &Does, keys: &Map<String, Value>) {
        match *does {
            Does::Nothing => {}
            Does::Anim(a) => match a {
                Anim::Trigger(t) => self.ops.push(Op::Play(t.to_owned())),
                Anim::Key(k) => {
                    if let Some(t) = key_str(keys, k) {
                        self.ops.push(Op::Play(t.to_owned()));
                    }
                }
                Anim::KeyOr(k, d) => {
                    self.ops
                        .push(Op::Play(key_str(keys, k).unwrap_or(d).to_owned()));
                }
                Anim::EachMapped(k, map) => {
                    if let Some(Value::Array(a)) = lookup(keys, k) {
                        for v in a.iter().filter_map(Value::as_str) {
                            if let Some((_, t)) = map.iter().find(|(from, _)| *from == v) {
                                self.ops.push(Op::Play((*t).to_owned()));
                            }
                        }
                    }
                }
                Anim::EachOf(k) => {
                    if let Some(Value::Array(a)) = lookup(keys, k) {
                        for t in a.iter().filter_map(Value::as_str) {
                            if !t.trim().is_empty() {
                                self.ops.push(Op::Play(t.to_owned()));
                            }
                        }
                    }
                }
            },
            Does::Say(t) => self.ops.push(Op::Say(t.to_owned())),
            Does::Delegate(refs) => {
                let names: Vec<String> = refs
                    .iter()
                    .filter_map(|r| match *r {
                        Ref::Id(id) => Some(id.to_owned()),
                        Ref::Key(k) => key_str(keys, k).map(str::to_owned),
                    })
                    .collect();
                if !names.is_empty() {
                    self.ops.push(Op::Delegate(names));
                }
            }
            Does::Wait(d) => {
                let d = d.resolve(keys);
                if !d.is_zero() {
                    self.ops.push(Op::Wait(d));
                }
            }
            Does::Seq(parts) => parts.iter().for_each(|p| self.push(p, keys)),
            Does::Loop(body) => {
                let start = self.ops.len();
                self.push(body, keys);
                if self.ops[start..].iter().any(Op::waits) {
                    self.ops.push(Op::Jump(start));
                } else {
                    // A loop over nothing that takes time: stay active instead of spinning.
                    self.ops.truncate(start);
                    self.ops.push(Op::Idle);
                }
            }
            Does::WhileHolds(body) => {
                self.ops.push(Op::GuardOn);
                self.push(body, keys);
                self.ops.push(Op::GuardOff);
            }
            Does::Forever => self.ops.push(Op::Idle),
            Does::Work => self.ops.push(Op::Work),
            Does::Repeat(n, body) => {
                for _ in 0..n.resolve(keys) {
                    self.push(body, keys);
                }
            }
            Does::IfKey(k, then, otherwise) => {
                if key_truthy(keys, k) {
                    self.push(then, keys);
                } else {
                    self.push(otherwise, keys);
                }
            }
            Does::If(test, then, otherwise) => {
                let branch = self.ops.len();
                self.ops.push(Op::Branch(test, 0));
                self.push(then, keys);
                let jump = self.ops.len();
                self.ops.push(Op::Jump(0));
                let else_at = self.ops.len();
                self.push(otherwise, keys);
                let end = self.ops.len();
                self.ops[branch] = Op::Branch(test, else_at);
                self.ops[jump] = Op::Jump(end);
            }
        }
    }

    /// The behavior names the program delegates to (to resolve and declare).
    pub fn delegate_names(&self) -> impl Iterator<Item = &str> {
        self.ops
            .iter()
            .flat_map(|op| match op {
                Op::Delegate(names) => names.as_slice(),
                _ => &[],
            })
            .map(String::as_str)
    }
}

impl Op {
    /// True for a step that takes time (an action, a delegation, idling).
    pub fn waits(&self) -> bool {
        matches!(
            self,
            Op::Play(_) | Op::Say(_) | Op::Delegate(_) | Op::Wait(_) | Op::Idle | Op::Work
        )
    }
}

/// The text of `does`, for tables and tools.
pub fn text(does: &Does) -> String {
    match *does {
        Does::Nothing => "nothing".into(),
        Does::Anim(Anim::Trigger(t)) => format!("plays {t}"),
        Does::Anim(Anim::Key(k)) => format!("plays `{k}`"),
        Does::Anim(Anim::KeyOr(k, d)) => format!("plays `{k}` (default {d})"),
        Does::Anim(Anim::EachOf(k)) => format!("plays each of `{k}`"),
        Does::Anim(Anim::EachMapped(k, _)) => format!("plays the animation of each of `{k}`"),
        Does::Say(t) => format!("says \"{t}\""),
        Does::Delegate(refs) => format!(
            "delegates {}",
            refs.iter()
                .map(|r| match r {
                    Ref::Id(id) => (*id).to_owned(),
                    Ref::Key(k) => format!("`{k}`"),
                })
                .collect::<Vec<_>>()
                .join(" or ")
        ),
        Does::Wait(Dur::Secs(s)) => format!("waits {s} s"),
        Does::Wait(Dur::KeySecs(k, _)) | Does::Wait(Dur::KeyMs(k, _)) => format!("waits `{k}`"),
        Does::Seq(parts) => parts.iter().map(text).collect::<Vec<_>>().join(", then "),
        Does::Loop(body) => format!("repeats ({})", text(body)),
        Does::WhileHolds(body) => format!("while its predicate holds: {}", text(body)),
        Does::Forever => "stays until cancelled".into(),
        Does::Work => "does its work (a timed action)".into(),
        Does::Repeat(Count::Fixed(n), body) => format!("{n} times ({})", text(body)),
        Does::Repeat(Count::Key(k, _), body) => format!("`{k}` times ({})", text(body)),
        Does::IfKey(k, a, b) => format!("if `{k}`: {}; else: {}", text(a), text(b)),
        Does::If(t, a, b) => format!("if {}: {}; else: {}", t.0.text, text(a), text(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn keys_fill_the_program_and_absent_ones_are_skipped() {
        const D: Does = Does::Seq(&[
            Does::Anim(Anim::Key("getIn")),
            Does::Anim(Anim::Key("missing")),
            Does::Anim(Anim::EachOf("anims")),
            Does::Delegate(&[Ref::Key("nope"), Ref::Id("StuckOnEdge")]),
            Does::Wait(Dur::KeyMs("wait_ms", 1.0)),
        ]);
        let p = Program::compile(
            &D,
            &keys(json!({"getIn": "A", "anims": ["B", "C"], "wait_ms": 500})),
        );
        assert_eq!(
            p.ops,
            [
                Op::Play("A".into()),
                Op::Play("B".into()),
                Op::Play("C".into()),
                Op::Delegate(vec!["StuckOnEdge".into()]),
                Op::Wait(Duration::from_millis(500)),
                Op::End
            ]
        );
    }

    #[test]
    fn paths_counts_and_key_branches_are_decided_when_compiled() {
        const D: Does = Does::Seq(&[
            Does::Anim(Anim::Key("normal.request")),
            Does::Repeat(Count::Key("params.n", 1), &Does::Anim(Anim::Trigger("L"))),
            Does::IfKey("skip", &Does::Nothing, &Does::Anim(Anim::Trigger("React"))),
            Does::Anim(Anim::EachMapped(
                "cues",
                &[("straight", "S"), ("left", "Left")],
            )),
            Does::Wait(Dur::KeySecs("normal.idle_s", 0.0)),
        ]);
        let p = Program::compile(
            &D,
            &keys(
                json!({"normal": {"request": "R", "idle_s": 2}, "params": {"n": 2},
                "skip": false, "cues": ["left", "face", "straight"]}),
            ),
        );
        assert_eq!(
            p.ops,
            [
                Op::Play("R".into()),
                Op::Play("L".into()),
                Op::Play("L".into()),
                Op::Play("React".into()),
                Op::Play("Left".into()),
                Op::Play("S".into()),
                Op::Wait(Duration::from_secs(2)),
                Op::End
            ]
        );
        let p = Program::compile(&D, &keys(json!({"skip": true, "params": {"n": 1e12}})));
        assert_eq!(p.ops.len(), MAX_REPEAT as usize + 1, "{:?}", p.ops);
    }

    #[test]
    fn a_runtime_branch_jumps_over_the_part_not_taken() {
        use crate::predicate::{PredCx, Test};
        const T: Test = Test {
            text: "t",
            reads: &[],
            eval: |_: &PredCx<'_>| true,
            until: None,
        };
        const D: Does = Does::Seq(&[
            Does::If(Check(&T), &Does::Anim(Anim::Trigger("A")), &Does::Work),
            Does::Anim(Anim::Trigger("B")),
        ]);
        let p = Program::compile(&D, &Map::new());
        assert_eq!(
            p.ops,
            [
                Op::Branch(Check(&T), 3),
                Op::Play("A".into()),
                Op::Jump(4),
                Op::Work,
                Op::Play("B".into()),
                Op::End
            ]
        );
    }

    #[test]
    fn a_loop_over_nothing_idles_instead_of_spinning() {
        const D: Does = Does::Loop(&Does::Anim(Anim::Key("absent")));
        assert_eq!(Program::compile(&D, &Map::new()).ops, [Op::Idle, Op::End]);
        const L: Does = Does::Loop(&Does::Anim(Anim::Trigger("X")));
        assert_eq!(
            Program::compile(&L, &Map::new()).ops,
            [Op::Play("X".into()), Op::Jump(0), Op::End]
        );
    }
}
