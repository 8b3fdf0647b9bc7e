//! `DispatcherPassThrough` (§2.5) and `DispatcherRerun` (§2.6): one delegate each, not of
//! the `IBehaviorDispatcher` base (their own operation modifiers, never gently
//! interrupted).

use robot_runtime::behavior::{
    Behavior, BehaviorId, BuildCx, Continuation, Ctx, OperationModifiers, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

use super::{Base, DispatchPolicy, Dispatcher};

/// One delegate, never interrupting.
fn only(child: BehaviorId) -> Base {
    Base {
        children: vec![child],
        interrupt: false,
        gentle: false,
    }
}

// ----- DispatcherPassThrough -----------------------------------------------------------------

/// `DispatcherPassThrough` (§2.5): wants to run when its delegate (global ID, linked scope)
/// does, has its delegate's operation modifiers, delegates to it on activation, and ends as
/// soon as nothing is delegated. Never allows a gentle interruption.
#[derive(Clone, Debug)]
pub struct PassThrough {
    delegate: BehaviorId,
}

impl Dispatcher<PassThrough> {
    /// A pass-through to `delegate`.
    pub fn new(delegate: BehaviorId) -> Self {
        Self::with(only(delegate), PassThrough { delegate })
    }
}

impl DispatchPolicy for PassThrough {
    fn links_scope(&self) -> bool {
        true
    }
    /// Never allows a gentle interruption.
    fn can_be_gently_interrupted<U: IntentUnion, E: 'static>(
        &self,
        _view: &View<'_, U, E>,
    ) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        _base: &Base,
        m: &mut OperationModifiers,
        hook: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        *m = hook(self.delegate);
    }
    fn wants_to_be_activated<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> bool {
        view.wants_to_activate(self.delegate)
    }
    fn activation_watch<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> Option<Watch> {
        Some(view.activation_watch(self.delegate))
    }
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        Base::idle_wakeup(view)
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if ctx.wants_to_activate(self.delegate) {
            let _ = ctx.delegate_if_in_control(self.delegate, Continuation::None);
        } else {
            tracing::error!(behavior = %ctx.my_name(), "PassThrough.DelegateDoesNotWantToRun");
        }
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() && !ctx.is_control_delegated() {
            let _ = ctx.cancel_self();
        }
    }
}

pub(crate) fn build_pass_through<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let name = cx.req_str("delegateID")?;
    let id = cx.delegate_global(name, "delegateID")?;
    Some(Box::new(Dispatcher::<PassThrough>::new(id)))
}

// ----- DispatcherRerun -----------------------------------------------------------------------

/// `DispatcherRerun` (§2.6): delegates to `delegateID` (global ID) `numRuns` times (any
/// negative value: forever), each time nothing is delegated and the delegate wants to run
/// (otherwise it waits); ends when the runs are used up (`numRuns` 0: at once). Every gate
/// open; does not always delegate.
#[derive(Clone, Debug)]
pub struct Rerun {
    child: BehaviorId,
    runs: Option<u32>,
    remaining: Option<u32>,
}

impl Dispatcher<Rerun> {
    /// Reruns `child` `runs` times (None: forever).
    pub fn new(child: BehaviorId, runs: Option<u32>) -> Self {
        Self::with(
            only(child),
            Rerun {
                child,
                runs,
                remaining: runs,
            },
        )
    }
}

impl Rerun {
    fn step<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_control_delegated() {
            return;
        }
        if self.remaining == Some(0) {
            let _ = ctx.cancel_self();
            return;
        }
        if ctx.wants_to_activate(self.child)
            && ctx
                .delegate_if_in_control(self.child, Continuation::None)
                .is_ok()
        {
            if let Some(r) = self.remaining.as_mut() {
                *r -= 1;
            }
        }
    }
}

impl DispatchPolicy for Rerun {
    /// Never allows a gentle interruption.
    fn can_be_gently_interrupted<U: IntentUnion, E: 'static>(
        &self,
        _view: &View<'_, U, E>,
    ) -> bool {
        false
    }
    fn operation_modifiers(
        &self,
        _base: &Base,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = false;
    }
    /// Not delegating, it waits for its delegate to want to run.
    fn next_wakeup<U: IntentUnion, E: 'static>(
        &self,
        _base: &Base,
        view: &View<'_, U, E>,
    ) -> Wakeup {
        match Base::idle_wakeup(view) {
            Wakeup::EveryTick if self.remaining != Some(0) => {
                view.activation_watch(self.child).until
            }
            w => w,
        }
    }
    fn on_activated<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
        self.remaining = self.runs;
        self.step(ctx);
    }
    fn update<U: IntentUnion, E: 'static>(&mut self, _base: &Base, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() {
            self.step(ctx);
        }
    }
}

pub(crate) fn build_rerun<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let name = cx.req_str("delegateID");
    let runs = cx.req_i64("numRuns");
    cx.accept("presetConditions");
    cx.bool("presetConditions", false);
    cx.accept("behaviors");
    let id = cx.delegate_global(name?, "delegateID");
    let runs = runs?;
    if !(i64::from(i8::MIN)..=i64::from(i8::MAX)).contains(&runs) {
        cx.bad_value(
            "numRuns",
            format!("must fit an int8 (-128 to 127), found {runs}"),
        );
        return None;
    }
    let runs = (runs >= 0).then_some(runs as u32);
    Some(Box::new(Dispatcher::<Rerun>::new(id?, runs)))
}
