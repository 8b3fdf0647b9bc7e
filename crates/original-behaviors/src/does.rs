//! What a class does once active and how it ends, as data ([`Does`]), at the level
//! original-class-predicates.md gives ("Does" / "Ends"): animations and speech as timed
//! actions, delegation to named behaviors, waits, loops, running while the class predicate
//! holds, or forever. [`Program`] is the compiled form a table-driven class runs: a flat list
//! of [`Op`]s stepped on activation and after each delegation ends.

use std::time::Duration;

use serde_json::{Map, Value};

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
}

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
    /// End (cancel self).
    End,
}

/// A compiled [`Does`]: steps with the keys' values filled in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// The steps.
    pub ops: Vec<Op>,
}

fn key_str<'a>(keys: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    keys.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

impl Dur {
    /// The length with the class keys' values.
    pub fn resolve(self, keys: &Map<String, Value>) -> Duration {
        let secs = match self {
            Dur::Secs(s) => s,
            Dur::KeySecs(k, d) => keys.get(k).and_then(Value::as_f64).unwrap_or(d),
            Dur::KeyMs(k, d) => keys
                .get(k)
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
                Anim::EachOf(k) => {
                    if let Some(Value::Array(a)) = keys.get(k) {
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
            Op::Play(_) | Op::Say(_) | Op::Delegate(_) | Op::Wait(_) | Op::Idle
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
