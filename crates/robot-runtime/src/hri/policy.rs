//! [`ConfidencePolicy`]: per-intent execute / confirm / ignore bands.

use super::message::Confidence;
use super::vocab::IntentKind;

/// What to do with an intent, given its confidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConfidenceDecision {
    /// Confident enough: execute.
    Execute,
    /// Plausible: ask the user to confirm before executing.
    Confirm,
    /// Too unsure: ignore (reported as an event, never silently).
    Ignore,
}

/// Thresholds: `confidence >= execute_at` executes, `confidence >= confirm_at` asks to
/// confirm, anything lower is ignored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bands {
    /// Lowest confidence that executes.
    pub execute_at: f32,
    /// Lowest confidence that asks to confirm (at most `execute_at`).
    pub confirm_at: f32,
}

impl Bands {
    /// Bands with these thresholds; `confirm_at` is clamped to `execute_at` and both to
    /// 0.0..=1.0, so the bands are always ordered.
    pub fn new(execute_at: f32, confirm_at: f32) -> Bands {
        let clamp = |v: f32| if v.is_nan() { 1.0 } else { v.clamp(0.0, 1.0) };
        let execute_at = clamp(execute_at);
        Bands {
            execute_at,
            confirm_at: clamp(confirm_at).min(execute_at),
        }
    }

    /// The decision for a stated confidence.
    pub fn decide(&self, confidence: f32) -> ConfidenceDecision {
        if confidence >= self.execute_at {
            ConfidenceDecision::Execute
        } else if confidence >= self.confirm_at {
            ConfidenceDecision::Confirm
        } else {
            ConfidenceDecision::Ignore
        }
    }
}

/// Per-intent confidence bands, with a default and an explicit rule for messages that state
/// no confidence.
///
/// Defaults: execute at 0.7, confirm from 0.4; `ENGAGE_WITH` and `GREET` (cheap to get wrong,
/// perceived from motion) execute from 0.5; `STOP_ACTIVITY`, `CANCEL_ACTIVITY` and `SUSPEND`
/// execute at any confidence (stopping is always safe); unstated confidence executes
/// (touchscreens and supervisors do not set it; configure [`ConfidencePolicy::unstated`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConfidencePolicy {
    default: Bands,
    per_intent: Vec<(IntentKind, Bands)>,
    unstated: ConfidenceDecision,
}

impl Default for ConfidencePolicy {
    fn default() -> Self {
        ConfidencePolicy {
            default: Bands::new(0.7, 0.4),
            per_intent: vec![
                (IntentKind::EngageWith, Bands::new(0.5, 0.3)),
                (IntentKind::Greet, Bands::new(0.5, 0.3)),
                (IntentKind::StopActivity, Bands::new(0.0, 0.0)),
                (IntentKind::CancelActivity, Bands::new(0.0, 0.0)),
                (IntentKind::Suspend, Bands::new(0.0, 0.0)),
            ],
            unstated: ConfidenceDecision::Execute,
        }
    }
}

impl ConfidencePolicy {
    /// A policy with these default bands and no per-intent override.
    pub fn uniform(bands: Bands) -> ConfidencePolicy {
        ConfidencePolicy {
            default: bands,
            per_intent: Vec::new(),
            unstated: ConfidenceDecision::Execute,
        }
    }

    /// Sets the bands of one intent (replacing an earlier setting).
    pub fn with_intent(mut self, intent: IntentKind, bands: Bands) -> ConfidencePolicy {
        self.per_intent.retain(|(k, _)| *k != intent);
        self.per_intent.push((intent, bands));
        self
    }

    /// Sets the decision for messages without a confidence.
    pub fn unstated(mut self, decision: ConfidenceDecision) -> ConfidencePolicy {
        self.unstated = decision;
        self
    }

    /// The bands that apply to `intent`.
    pub fn bands(&self, intent: &IntentKind) -> Bands {
        self.per_intent
            .iter()
            .find(|(k, _)| k == intent)
            .map_or(self.default, |(_, b)| *b)
    }

    /// The decision for `intent` at `confidence`.
    pub fn decide(&self, intent: &IntentKind, confidence: Confidence) -> ConfidenceDecision {
        match confidence {
            Confidence::Stated(c) => self.bands(intent).decide(c),
            Confidence::Unstated => self.unstated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_split_execute_confirm_ignore() {
        let p = ConfidencePolicy::default();
        let d = |k: IntentKind, c: f32| p.decide(&k, Confidence::Stated(c));
        assert_eq!(d(IntentKind::EngageWith, 0.6), ConfidenceDecision::Execute);
        assert_eq!(d(IntentKind::MoveTo, 0.6), ConfidenceDecision::Confirm);
        assert_eq!(d(IntentKind::MoveTo, 0.2), ConfidenceDecision::Ignore);
        assert_eq!(
            d(IntentKind::StopActivity, 0.0),
            ConfidenceDecision::Execute
        );
        assert_eq!(
            p.decide(&IntentKind::MoveTo, Confidence::Unstated),
            ConfidenceDecision::Execute
        );
        let strict = p.unstated(ConfidenceDecision::Confirm);
        assert_eq!(
            strict.decide(&IntentKind::MoveTo, Confidence::Unstated),
            ConfidenceDecision::Confirm
        );
    }

    #[test]
    fn bands_are_always_ordered() {
        let b = Bands::new(0.3, 0.9);
        assert_eq!(b.confirm_at, 0.3);
        let b = Bands::new(f32::NAN, -1.0);
        assert_eq!((b.execute_at, b.confirm_at), (1.0, 0.0));
    }
}
