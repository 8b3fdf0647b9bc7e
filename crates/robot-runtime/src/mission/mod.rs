//! Mission controller (in progress).
