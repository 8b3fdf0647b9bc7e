//! Class predicates as data: step 7 of `WantsToBeActivated` (original-class-predicates.md
//! §1.1), the class's own decision, taken after the gates, the JSON condition and the intent
//! condition. A [`Pred`] combines named [`Test`]s of the robot state with the intent
//! component and the stack; every test says what it reads ([`Read`]), so a predicate's
//! [`Watch`] is exact and the runner may keep its answer while nothing it read changed (the
//! cached tick stays valid). A class evaluates its predicate with [`Compiled::eval`] and
//! declares it with [`Compiled::watch`]; tools show it with [`Compiled::describe`].
//!
//! **Events heard in scope.** Many originals keep a flag that an event handler sets while the
//! class is in activatable scope (a cliff stop, a calibration starting, a renamed face); the
//! robot state keeps each event's time instead ([`Signals`](crate::robot_state::Signals)) and
//! a test asks [`PredCx::heard`]: did it happen since the later of the scope entry and the
//! last run? That is what the handler would have seen, with no code running while inactive.
//!
//! **Unmodelled inputs.** A test reading something the robot does not model uses a [`Read`]
//! with `modelled: false`; its `eval` must answer false (never silently true), and the class
//! reports the input at load as an info-level problem.

use std::fmt::Write as _;
use std::time::Duration;

use robot_runtime::behavior::{
    BehaviorId, ClassPredicate, Inputs, IntentUnion, LifecycleState, View, Wakeup, Watch,
};
use serde_json::{Map, Value};

use crate::access::RobotAccess;
use crate::robot_state::RobotState;

/// One input a predicate reads, as tools name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    /// Its name, with the scenario key that sets it where there is one.
    pub name: &'static str,
    /// Its input bits.
    pub bits: Inputs,
    /// False: the robot does not model it (the test reading it answers false).
    pub modelled: bool,
}

impl Read {
    /// A modelled input.
    pub const fn new(name: &'static str, bits: Inputs) -> Read {
        Read {
            name,
            bits,
            modelled: true,
        }
    }
    /// An input the robot does not model.
    pub const fn unmodelled(name: &'static str) -> Read {
        Read {
            name,
            bits: Inputs::NONE,
            modelled: false,
        }
    }
}

/// One named test of observable state: pure, reading only what `reads` says.
#[derive(Clone, Copy, Debug)]
pub struct Test {
    /// The test in words.
    pub text: &'static str,
    /// What it reads.
    pub reads: &'static [Read],
    /// The answer.
    pub eval: fn(&PredCx<'_>) -> bool,
    /// When the answer may change with no input (a time window closing or opening); None:
    /// only when an input changes.
    pub until: Option<fn(&PredCx<'_>) -> Wakeup>,
}

/// A class predicate (see the [module documentation](self)).
#[derive(Clone, Copy, Debug)]
pub enum Pred {
    /// The class adds nothing.
    True,
    /// A test of the robot state.
    Test(&'static Test),
    /// Every one holds (an empty list holds).
    All(&'static [Pred]),
    /// Some one holds.
    Any(&'static [Pred]),
    /// It does not hold.
    Not(&'static Pred),
    /// One of these user intents (CLAD member names) is pending.
    IntentPending(&'static [&'static str]),
    /// Some user intent is pending.
    AnyIntentPending,
    /// Some user intent is active.
    AnyIntentActive,
    /// The trigger word is pending.
    TriggerWordPending,
    /// The intent component's "unclaimed" flag is set.
    Unclaimed,
    /// A behavior of one of these classes is on the stack.
    ClassActive(&'static [&'static str]),
    /// A behavior with one of these IDs is on the stack.
    IdActive(&'static [&'static str]),
}

/// What a [`Test`] sees.
pub struct PredCx<'a> {
    /// The robot.
    pub robot: &'a RobotState,
    /// The time.
    pub now: Duration,
    /// When the behavior entered scope (None: out of scope).
    pub entered_scope: Option<Duration>,
    /// When it last stopped running (None: never ran).
    pub last_ran: Option<Duration>,
    /// When it became active (None: not active).
    pub active_since: Option<Duration>,
    /// Its class keys, with the defaults of the keys it did not give.
    pub keys: &'a Map<String, Value>,
}

impl PredCx<'_> {
    /// Events since then are the ones the class heard while in scope and not active: the
    /// later of its scope entry and its last run (None: out of scope, it hears nothing).
    pub fn hearing_since(&self) -> Option<Duration> {
        let entered = self.entered_scope?;
        Some(match self.last_ran {
            Some(r) if r > entered => r,
            _ => entered,
        })
    }
    /// True when an event at `at` was heard in scope (see
    /// [`hearing_since`](Self::hearing_since)). Between two ticks an event carries the
    /// earlier tick's time, so one that arrives after the tick the class stopped running in
    /// counts (`>=`).
    pub fn heard(&self, at: Option<Duration>) -> bool {
        match (at, self.hearing_since()) {
            (Some(t), Some(since)) => t >= since,
            _ => false,
        }
    }
    /// True when `at` is at most `window` ago.
    pub fn within(&self, at: Option<Duration>, window: Duration) -> bool {
        at.is_some_and(|t| self.now.saturating_sub(t) <= window)
    }
    /// The wake-up at which `at + window` has passed (the end of a "within" window).
    pub fn window_end(&self, at: Option<Duration>, window: Duration) -> Wakeup {
        match at {
            Some(t) if self.now.saturating_sub(t) <= window => Wakeup::At(
                t.saturating_add(window)
                    .saturating_add(Duration::from_nanos(1)),
            ),
            _ => Wakeup::Never,
        }
    }
    /// A number key (its default when absent), or `default` when neither is a number.
    pub fn f64(&self, key: &str, default: f64) -> f64 {
        self.keys
            .get(key)
            .and_then(Value::as_f64)
            .unwrap_or(default)
    }
    /// A boolean key, or `default`.
    pub fn bool(&self, key: &str, default: bool) -> bool {
        self.keys
            .get(key)
            .and_then(Value::as_bool)
            .unwrap_or(default)
    }
    /// A string key.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.keys.get(key).and_then(Value::as_str)
    }
    /// True when the key is given and is not empty (a non-empty string, array or object).
    pub fn non_empty(&self, key: &str) -> bool {
        match self.keys.get(key) {
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(Value::Object(o)) => !o.is_empty(),
            Some(Value::Null) | None => false,
            Some(_) => true,
        }
    }
}

/// A predicate ready to evaluate for one behavior: intents resolved to the union's tags.
#[derive(Clone, Debug)]
pub struct Compiled<T> {
    node: Node<T>,
}

#[derive(Clone, Debug)]
enum Node<T> {
    True,
    Test(&'static Test),
    All(Vec<Node<T>>),
    Any(Vec<Node<T>>),
    Not(Box<Node<T>>),
    IntentPending(Vec<(T, &'static str)>),
    AnyIntentPending,
    AnyIntentActive,
    TriggerWordPending,
    Unclaimed,
    ClassActive(&'static [&'static str]),
    IdActive(&'static [&'static str]),
}

impl<T: Copy + PartialEq + std::fmt::Debug> Compiled<T> {
    /// `pred` with its intent names resolved by `tag`. A name the robot's union does not
    /// have can never be pending: it is left out, and returned so the class can say so.
    pub fn new(pred: &Pred, tag: &dyn Fn(&str) -> Option<T>) -> (Compiled<T>, Vec<&'static str>) {
        let mut missing = Vec::new();
        let node = compile(pred, tag, &mut missing);
        (Compiled { node }, missing)
    }
    /// True for `Pred::True`.
    pub fn is_true(&self) -> bool {
        matches!(self.node, Node::True)
    }
}

fn compile<T>(
    pred: &Pred,
    tag: &dyn Fn(&str) -> Option<T>,
    missing: &mut Vec<&'static str>,
) -> Node<T> {
    let all = |ps: &'static [Pred], missing: &mut Vec<&'static str>| -> Vec<Node<T>> {
        ps.iter().map(|p| compile(p, tag, missing)).collect()
    };
    match *pred {
        Pred::True => Node::True,
        Pred::Test(t) => Node::Test(t),
        Pred::All(ps) => Node::All(all(ps, missing)),
        Pred::Any(ps) => Node::Any(all(ps, missing)),
        Pred::Not(p) => Node::Not(Box::new(compile(p, tag, missing))),
        Pred::IntentPending(names) => Node::IntentPending(
            names
                .iter()
                .filter_map(|n| {
                    let t = tag(n);
                    if t.is_none() && !missing.contains(n) {
                        missing.push(n);
                    }
                    t.map(|t| (t, *n))
                })
                .collect(),
        ),
        Pred::AnyIntentPending => Node::AnyIntentPending,
        Pred::AnyIntentActive => Node::AnyIntentActive,
        Pred::TriggerWordPending => Node::TriggerWordPending,
        Pred::Unclaimed => Node::Unclaimed,
        Pred::ClassActive(c) => Node::ClassActive(c),
        Pred::IdActive(c) => Node::IdActive(c),
    }
}

/// What a test sees for `view`'s behavior.
pub fn pred_cx<'a, U: IntentUnion, E: 'static>(
    view: &'a View<'a, U, E>,
    keys: &'a Map<String, Value>,
) -> PredCx<'a> {
    let me = view.me();
    let active = view.state_of(me) == Some(LifecycleState::Active);
    let now = view.clock().now();
    PredCx {
        robot: view.robot(),
        now,
        entered_scope: view.entered_scope_at(me),
        last_ran: view.last_ran(me),
        active_since: if active {
            view.active_for().map(|d| now.saturating_sub(d))
        } else {
            None
        },
        keys,
    }
}

fn on_stack<U: IntentUnion, E: 'static>(
    view: &View<'_, U, E>,
    hit: impl Fn(BehaviorId) -> bool,
) -> bool {
    view.stack().any(hit)
}

impl<T: Copy + PartialEq> Compiled<T> {
    /// The predicate's answer for `view`'s behavior, `cx` being [`pred_cx`] of it.
    pub fn eval<U: IntentUnion<Tag = T>, E: 'static>(
        &self,
        view: &View<'_, U, E>,
        cx: &PredCx<'_>,
    ) -> bool {
        eval(&self.node, view, cx)
    }

    /// What the answer depends on: the inputs every part reads (the stack too: "heard in
    /// scope" reads the scope entry and the last run), until the earliest time a test's
    /// window moves.
    pub fn watch<U: IntentUnion<Tag = T>, E: 'static>(
        &self,
        view: &View<'_, U, E>,
        cx: &PredCx<'_>,
    ) -> Watch {
        let _ = view;
        let mut w = Watch::reads(Inputs::STACK);
        watch(&self.node, cx, &mut w);
        w
    }

    /// The predicate in words, with its inputs, for tools.
    pub fn describe(&self) -> ClassPredicate {
        let mut out = ClassPredicate::default();
        describe(
            &self.node,
            &mut out.text,
            &mut out.inputs,
            &mut out.unmodelled,
        );
        out
    }

    /// The inputs it reads that the robot does not model.
    pub fn unmodelled(&self) -> Vec<&'static str> {
        self.describe().unmodelled
    }
}

fn eval<U: IntentUnion, E: 'static>(
    n: &Node<U::Tag>,
    view: &View<'_, U, E>,
    cx: &PredCx<'_>,
) -> bool {
    match n {
        Node::True => true,
        Node::Test(t) => (t.eval)(cx),
        Node::All(ns) => ns.iter().all(|n| eval(n, view, cx)),
        Node::Any(ns) => ns.iter().any(|n| eval(n, view, cx)),
        Node::Not(n) => !eval(n, view, cx),
        Node::IntentPending(tags) => tags.iter().any(|(t, _)| view.intents().is_pending(*t)),
        Node::AnyIntentPending => view.intents().is_any_pending(),
        Node::AnyIntentActive => view.intents().is_any_active(),
        Node::TriggerWordPending => view.intents().is_trigger_word_pending(),
        Node::Unclaimed => view.intents().was_unclaimed(),
        Node::ClassActive(classes) => on_stack(view, |id| {
            view.class_of(id).is_some_and(|c| classes.contains(&c))
        }),
        Node::IdActive(ids) => on_stack(view, |id| {
            view.name_of(id).is_some_and(|n| ids.contains(&n.as_str()))
        }),
    }
}

fn watch<T>(n: &Node<T>, cx: &PredCx<'_>, w: &mut Watch) {
    match n {
        Node::True => {}
        Node::Test(t) => {
            for r in t.reads {
                *w = w.and(Watch::reads(r.bits));
            }
            if let Some(until) = t.until {
                *w = w.until(until(cx));
            }
        }
        Node::All(ns) | Node::Any(ns) => ns.iter().for_each(|n| watch(n, cx, w)),
        Node::Not(n) => watch(n, cx, w),
        Node::IntentPending(_)
        | Node::AnyIntentPending
        | Node::AnyIntentActive
        | Node::TriggerWordPending
        | Node::Unclaimed => *w = w.and(Watch::reads(Inputs::INTENTS)),
        Node::ClassActive(_) | Node::IdActive(_) => *w = w.and(Watch::reads(Inputs::STACK)),
    }
}

fn describe<T>(
    n: &Node<T>,
    text: &mut String,
    inputs: &mut Vec<&'static str>,
    unmodelled: &mut Vec<&'static str>,
) {
    let mut add = |name: &'static str| {
        if !inputs.contains(&name) {
            inputs.push(name);
        }
    };
    match n {
        Node::True => text.push_str("true"),
        Node::Test(t) => {
            text.push_str(t.text);
            for r in t.reads {
                add(r.name);
                if !r.modelled && !unmodelled.contains(&r.name) {
                    unmodelled.push(r.name);
                }
            }
        }
        Node::All(ns) | Node::Any(ns) => {
            let op = if matches!(n, Node::All(_)) {
                " and "
            } else {
                " or "
            };
            if ns.is_empty() {
                text.push_str(if matches!(n, Node::All(_)) {
                    "true"
                } else {
                    "false"
                });
            }
            for (i, c) in ns.iter().enumerate() {
                if i > 0 {
                    text.push_str(op);
                }
                let nested = matches!(c, Node::All(_) | Node::Any(_));
                if nested {
                    text.push('(');
                }
                describe(c, text, inputs, unmodelled);
                if nested {
                    text.push(')');
                }
            }
        }
        Node::Not(c) => {
            text.push_str("not (");
            describe(c, text, inputs, unmodelled);
            text.push(')');
        }
        Node::IntentPending(tags) => {
            if tags.is_empty() {
                text.push_str("(no intent of the robot's union) pending");
            }
            for (i, (_, name)) in tags.iter().enumerate() {
                if i > 0 {
                    text.push_str(" / ");
                }
                text.push_str(name);
            }
            if !tags.is_empty() {
                text.push_str(" pending");
            }
            add("the pending user intent");
        }
        Node::AnyIntentPending => {
            text.push_str("a user intent pending");
            add("the pending user intent");
        }
        Node::AnyIntentActive => {
            text.push_str("a user intent active");
            add("the active user intent");
        }
        Node::TriggerWordPending => {
            text.push_str("the trigger word pending");
            add("the trigger word");
        }
        Node::Unclaimed => {
            text.push_str("an intent expired unclaimed");
            add("the unclaimed-intent flag");
        }
        Node::ClassActive(classes) => {
            let _ = write!(text, "a {} active", classes.join(" / "));
            add("the behavior stack");
        }
        Node::IdActive(ids) => {
            let _ = write!(text, "{} active", ids.join(" / "));
            add("the behavior stack");
        }
    }
}

/// The text of `pred` (for tables and docs).
pub fn text(pred: &Pred) -> String {
    let mut s = String::new();
    text_into(pred, &mut s);
    s
}

fn text_into(pred: &Pred, s: &mut String) {
    match *pred {
        Pred::True => s.push_str("true"),
        Pred::Test(t) => s.push_str(t.text),
        Pred::All(ps) | Pred::Any(ps) => {
            let op = if matches!(pred, Pred::All(_)) {
                " and "
            } else {
                " or "
            };
            for (i, p) in ps.iter().enumerate() {
                if i > 0 {
                    s.push_str(op);
                }
                let nested = matches!(p, Pred::All(_) | Pred::Any(_));
                if nested {
                    s.push('(');
                }
                text_into(p, s);
                if nested {
                    s.push(')');
                }
            }
        }
        Pred::Not(p) => {
            s.push_str("not (");
            text_into(p, s);
            s.push(')');
        }
        Pred::IntentPending(names) => {
            let _ = write!(s, "{} pending", names.join(" / "));
        }
        Pred::AnyIntentPending => s.push_str("a user intent pending"),
        Pred::AnyIntentActive => s.push_str("a user intent active"),
        Pred::TriggerWordPending => s.push_str("the trigger word pending"),
        Pred::Unclaimed => s.push_str("an intent expired unclaimed"),
        Pred::ClassActive(c) => {
            let _ = write!(s, "a {} active", c.join(" / "));
        }
        Pred::IdActive(c) => {
            let _ = write!(s, "{} active", c.join(" / "));
        }
    }
}
