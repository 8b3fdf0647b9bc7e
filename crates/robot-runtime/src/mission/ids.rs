//! The mission controller's identifiers: of a registered capability and of a request. Both
//! the capabilities and the events name them, so they live below both.

/// Identifies a registered capability (its index in the controller).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CapabilityId(pub u16);

/// Identifies a request (assigned in arrival order; also the arbiter's arrival order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(pub u64);
