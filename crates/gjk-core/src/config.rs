//! A query's configuration: its iteration cap and its tolerances, all
//! relative, so one configuration serves shapes of any size.

use crate::real::Real;

/// Default hard cap on GJK iterations ([`GjkConfig::max_iterations`]).
///
/// Polytopes converge in far fewer (the count of distinct simplices is
/// finite); the cap exists for curved shapes at tight tolerances and for
/// inputs that defeat the numerical progress checks.
pub const DEFAULT_MAX_ITERATIONS: u32 = 128;

/// Tunables of a GJK query. All tolerances are relative, so one
/// configuration serves shapes of any size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkConfig<S> {
    /// Hard cap on iterations (support calls of the search phase).
    pub max_iterations: u32,
    /// Relative accuracy of a converged distance: the loop stops when the
    /// gap between the upper bound `|v|` and the lower bound `v·w/|v|` is at
    /// most `rel_tolerance · max(|v|, scale)`.
    pub rel_tolerance: S,
    /// Scale-relative zero: with `scale` the largest coordinate magnitude of
    /// the Minkowski-difference points seen (and at least
    /// [`SOURCE_SCALE_WEIGHT`](crate::simplex::SOURCE_SCALE_WEIGHT) of the first support point's shape points),
    /// distances up to `zero_tolerance · scale` count as contact.
    pub zero_tolerance: S,
    /// Early out: once the distance is proven larger than this, the query
    /// stops with [`Status::Beyond`](crate::Status::Beyond) (infinity, the default, never stops
    /// early). Contact generation with a prediction distance uses it.
    pub max_distance: S,
}

impl<S: Real> Default for GjkConfig<S> {
    fn default() -> Self {
        Self {
            max_iterations: DEFAULT_MAX_ITERATIONS,
            rel_tolerance: S::DEFAULT_REL_TOLERANCE,
            zero_tolerance: S::DEFAULT_ZERO_TOLERANCE,
            max_distance: S::INFINITY,
        }
    }
}

impl<S: Real> GjkConfig<S> {
    /// The default configuration with an early out beyond `max_distance`.
    pub fn within(max_distance: S) -> Self {
        Self { max_distance, ..Self::default() }
    }
}
