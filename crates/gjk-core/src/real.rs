//! The scalar abstraction: [`Real`] is implemented for `f32` and `f64`.

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A floating-point scalar the algorithms run in (`f32` or `f64`).
///
/// Only the handful of operations GJK needs; square roots go through the
/// vector types (glam) so that `no_std` builds need no extra maths crate.
pub trait Real:
    Copy
    + Debug
    + Default
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
{
    /// `0`.
    const ZERO: Self;
    /// `1`.
    const ONE: Self;
    /// Machine epsilon of the type.
    const EPSILON: Self;
    /// The largest finite value.
    const MAX: Self;
    /// Positive infinity.
    const INFINITY: Self;
    /// Not a number.
    const NAN: Self;

    /// Default relative accuracy of a converged distance (see [`crate::GjkConfig::rel_tolerance`]).
    const DEFAULT_REL_TOLERANCE: Self;
    /// Default scale-relative zero threshold (see [`crate::GjkConfig::zero_tolerance`]).
    const DEFAULT_ZERO_TOLERANCE: Self;

    /// Converts from `f64` (rounding for `f32`).
    fn from_f64(x: f64) -> Self;
    /// Converts to `f64` (exact).
    fn to_f64(self) -> f64;
    /// Whether the value is neither NaN nor infinite.
    fn is_finite(self) -> bool;
    /// Whether the value is NaN.
    #[inline]
    fn is_nan(self) -> bool {
        self.partial_cmp(&self).is_none()
    }
    /// `self < other`, false when either is NaN (spelled out for the
    /// "must strictly decrease" checks, where NaN must mean "no").
    #[inline]
    fn strictly_less(self, other: Self) -> bool {
        self.partial_cmp(&other) == Some(core::cmp::Ordering::Less)
    }
    /// Absolute value.
    #[inline]
    fn abs(self) -> Self {
        if self < Self::ZERO { -self } else { self }
    }
    /// The larger of two values (`self` when either is NaN).
    #[inline]
    fn max(self, other: Self) -> Self {
        if other > self { other } else { self }
    }
    /// The smaller of two values (`self` when either is NaN).
    #[inline]
    fn min(self, other: Self) -> Self {
        if other < self { other } else { self }
    }
}

macro_rules! impl_real {
    ($t:ty, $rel:expr, $zero:expr) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const EPSILON: Self = <$t>::EPSILON;
            const MAX: Self = <$t>::MAX;
            const INFINITY: Self = <$t>::INFINITY;
            const NAN: Self = <$t>::NAN;
            const DEFAULT_REL_TOLERANCE: Self = $rel;
            const DEFAULT_ZERO_TOLERANCE: Self = $zero;
            #[inline]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn abs(self) -> Self {
                // The sign bit cleared (one `and`) rather than the default's
                // compare and select, in the hull's cube-map lookup (the
                // `compare` rows of the hulls, docs/decisions.md).
                <$t>::abs(self)
            }
        }
    };
}

// Tolerances are multiples of machine epsilon. The relative tolerance bounds
// the distance error, but the normal's angular error only by its square root
// (|v − v*|² ≤ |v|² − |v*|²), so f32, with few bits to spare, stops only a few
// ulps short of exact and leaves the rest to the no-progress exits. The zero
// band is 256 ulps of the shapes' own size.
impl_real!(f32, 4.0 * f32::EPSILON, 256.0 * f32::EPSILON);
impl_real!(f64, 64.0 * f64::EPSILON, 256.0 * f64::EPSILON);
