//! `DispatcherScoring` (§2.7).

use std::time::Duration;

use serde_json::Value;

use robot_runtime::behavior::{Behavior, BehaviorId, BuildCx, Ctx, KeyReader, View, Wakeup};
use robot_runtime::intent::IntentUnion;

use super::{entries, read_interrupt, Base, DispatchPolicy, Dispatcher};

/// A piecewise-linear curve `{nodes: [{x, y}, ...]}`, clamped at both ends.
#[derive(Clone, Debug, PartialEq)]
struct Curve(Vec<(f64, f64)>);

impl Curve {
    fn at(&self, x: f64) -> f64 {
        let n = &self.0;
        match n.len() {
            0 => 1.0,
            1 => n[0].1,
            _ => {
                if x <= n[0].0 {
                    return n[0].1;
                }
                for w in n.windows(2) {
                    let ((x0, y0), (x1, y1)) = (w[0], w[1]);
                    if x <= x1 {
                        let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 1.0 };
                        return y0 + (y1 - y0) * t;
                    }
                }
                n[n.len() - 1].1
            }
        }
    }
}

#[derive(Clone, Debug)]
struct ScoredChild {
    id: BehaviorId,
    flat: f64,
    repetition: Curve,
    activated: Curve,
    chosen_at: Option<Duration>,
    replaced_at: Option<Duration>,
}

/// `DispatcherScoring` (§2.7): the child with the highest score among those active or
/// wanting to run (it must beat 0, and every earlier candidate, by more than 1e-5). Score
/// = `flatScore` × the activated penalty (time since chosen) while it is the current
/// choice, else × the repetition penalty (time since it was replaced). `emotionScorers`
/// is not supported (its format is not specified).
#[derive(Clone, Debug)]
pub struct Scoring {
    children: Vec<ScoredChild>,
    current: Option<usize>,
}

impl DispatchPolicy for Scoring {
    /// Its scores change with time while it may interrupt: every tick then.
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        match base.scan_wakeup(view, |_| None) {
            Wakeup::Never => Wakeup::Never,
            _ => Wakeup::EveryTick,
        }
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if !ctx.is_active() {
            return;
        }
        if ctx.is_control_delegated() && !base.should_interrupt(ctx) {
            return;
        }
        let now = ctx.clock().now();
        let current = ctx.current_delegate();
        let mut best: Option<(usize, f64)> = None;
        for (i, c) in self.children.iter().enumerate() {
            let candidate = Some(c.id) == current || ctx.wants_to_activate(c.id);
            if !candidate {
                continue;
            }
            let since =
                |t: Option<Duration>| t.map_or(f64::MAX, |t| now.saturating_sub(t).as_secs_f64());
            let score = if self.current == Some(i) {
                c.flat * c.activated.at(since(c.chosen_at))
            } else {
                c.flat * c.repetition.at(since(c.replaced_at))
            };
            let beats = best.map_or(score > 1e-5, |(_, b)| score > b + 1e-5);
            if beats {
                best = Some((i, score));
            }
        }
        let Some((i, _)) = best else {
            return;
        };
        if self.current != Some(i) {
            if let Some(p) = self.current {
                self.children[p].replaced_at = Some(now);
            }
            self.children[i].chosen_at = Some(now);
            self.current = Some(i);
        }
        Base::switch_to(ctx, Some(self.children[i].id));
    }
}

fn read_curve<U: IntentUnion, E: 'static>(
    k: &mut KeyReader<'_>,
    cx: &mut BuildCx<'_, U, E>,
    key: &str,
) -> Option<Curve> {
    let mut s = cx.sink();
    let Some(o) = k.obj(&mut s, key) else {
        return if k.has(key) {
            None
        } else {
            Some(Curve(Vec::new()))
        };
    };
    let nodes = o.get("nodes").and_then(Value::as_array);
    let Some(nodes) = nodes else {
        k.bad(&mut s, key, "needs `nodes`: [{\"x\": .., \"y\": ..}, ...]");
        return None;
    };
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        let x = n.get("x").and_then(Value::as_f64);
        let y = n.get("y").and_then(Value::as_f64);
        match (x, y) {
            (Some(x), Some(y)) if out.last().is_none_or(|(px, _): &(f64, f64)| x >= *px) => {
                out.push((x, y))
            }
            _ => {
                k.bad(
                    &mut s,
                    key,
                    "nodes must be {\"x\": number, \"y\": number} with x ascending",
                );
                return None;
            }
        }
    }
    Some(Curve(out))
}

pub(crate) fn build_scoring<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let children = entries(
        cx,
        |k, cx, id| {
            let mut s = cx.sink();
            let Some(scoring) = k.obj(&mut s, "scoring") else {
                k.required(&mut s, "scoring");
                return None;
            };
            cx.nested_at(scoring, k.at("scoring"), |sk, cx| {
                let mut s = cx.sink();
                if sk.has("emotionScorers") {
                    sk.accept("emotionScorers");
                    sk.bad(&mut s, "emotionScorers", "mood scoring is not supported (its format is not specified); use `flatScore`");
                    return None;
                }
                let flat = sk.f64_or(&mut s, "flatScore", 0.0);
                let repetition = read_curve(sk, cx, "repetitionPenalty");
                let activated = read_curve(sk, cx, "activatedPenalty");
                Some(ScoredChild {
                    id,
                    flat,
                    repetition: repetition?,
                    activated: activated?,
                    chosen_at: None,
                    replaced_at: None,
                })
            })
        },
        "behaviorID",
        true,
    );
    let interrupt = read_interrupt(cx);
    let children = children?;
    let (interrupt, gentle) = interrupt?;
    Some(Box::new(Dispatcher::with(
        Base {
            children: children.iter().map(|c| c.id).collect(),
            interrupt,
            gentle,
        },
        Scoring {
            children,
            current: None,
        },
    )))
}
