//! The cooldown clock of §2.2, shared by the cooldown and random dispatchers.

use std::time::Duration;

use robot_runtime::behavior::{BehaviorId, BuildCx, Ctx, KeyReader, Wakeup};
use robot_runtime::intent::IntentUnion;

/// One child's cooldown (the shared cooldown helper of §2.2): how long, and until when.
#[derive(Clone, Debug)]
pub(super) struct Cooldown {
    /// `cooldown_s` (None: ≤ 0, no cooldown; `Duration::MAX`: forever).
    length: Option<Duration>,
    /// `cooldown_random_factor`.
    random: f64,
    /// On cooldown until (None: not on cooldown).
    until: Option<Duration>,
}

impl Cooldown {
    pub(super) fn read<U: IntentUnion, E: 'static>(
        k: &mut KeyReader<'_>,
        cx: &mut BuildCx<'_, U, E>,
    ) -> Option<Self> {
        let mut s = cx.sink();
        let secs = k.req_f64(&mut s, "cooldown_s");
        let random = k.f64_or(&mut s, "cooldown_random_factor", 0.0);
        // With a time multiplier fixed at 1, fast-forward changes nothing.
        k.accept("ignoreFastForward");
        let secs = secs?;
        if random < 0.0 {
            k.bad(
                &mut s,
                "cooldown_random_factor",
                format!("must be >= 0, found {random}"),
            );
            return None;
        }
        let (length, random) = if secs < 0.0 {
            (Some(Duration::MAX), 0.0)
        } else if secs == 0.0 {
            (None, random)
        } else {
            (
                Some(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)),
                random,
            )
        };
        Some(Self {
            length,
            random,
            until: None,
        })
    }
    pub(super) fn on_cooldown(&self, now: Duration) -> bool {
        self.until.is_some_and(|t| now < t)
    }
    /// When on cooldown at `now`: when it comes off.
    pub(super) fn off_at(&self, now: Duration) -> Option<Wakeup> {
        self.until.filter(|t| now < *t).map(|t| {
            if t == Duration::MAX {
                Wakeup::Never
            } else {
                Wakeup::At(t)
            }
        })
    }
    pub(super) fn remaining(&self, now: Duration) -> Duration {
        self.until.map_or(Duration::ZERO, |t| t.saturating_sub(now))
    }
    pub(super) fn start<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some(len) = self.length else {
            return;
        };
        let now = ctx.clock().now();
        if len == Duration::MAX {
            self.until = Some(Duration::MAX);
            return;
        }
        let mut secs = len.as_secs_f64();
        if self.random > 0.0 {
            let lo = (1.0 - self.random).max(0.0);
            let hi = 1.0 + self.random;
            secs *= lo + (hi - lo) * ctx.random();
        }
        self.until =
            Some(now.saturating_add(Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)));
    }
    pub(super) fn reset(&mut self) {
        self.until = None;
    }
}

/// What `DispatchPolicy::cooldown_remaining` answers for a dispatcher whose `children` are
/// `(id, cooldown)` pairs: `child`'s time left on cooldown, `None` when it is not cooling
/// down (or not a child).
pub(super) fn remaining_of<'a>(
    mut children: impl Iterator<Item = (BehaviorId, &'a Cooldown)>,
    child: BehaviorId,
    now: Duration,
) -> Option<Duration> {
    children
        .find(|(id, _)| *id == child)
        .map(|(_, c)| c.remaining(now))
        .filter(|d| !d.is_zero())
}
