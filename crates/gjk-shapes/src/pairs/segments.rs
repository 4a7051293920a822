//! Two segment or point cores (capsules, balls, segments, points): their
//! distance in closed form ([`crate::internal::closest_on_segments`]).

use gjk_core::{GjkConfig, Real};

use super::Sat;
use crate::obb::BoxView;
use crate::space::Space;

/// The distance of two segment or point cores ([`crate::internal::closest_on_segments`]).
#[inline]
pub(super) fn distance_value<V: Space>(a: &BoxView<V>, b: &BoxView<V>) -> V::Scalar {
    let (pa, pb) = crate::internal::closest_on_segments(a, b);
    (pb - pa).length()
}

/// The boolean test of two segment or point cores within `margin` plus
/// the zero band (relative to the pair's reach); [`Sat::Unknown`] for
/// non-finite values.
#[inline]
pub(super) fn intersects<V: Space>(
    sa: &BoxView<V>,
    sb: &BoxView<V>,
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> Sat {
    let gap = distance_value(sa, sb);
    let reach = (sb.center - sa.center).length() + sa.half.length() + sb.half.length();
    if !(reach * reach).is_finite() || !margin.is_finite() || !gap.is_finite() {
        return Sat::Unknown;
    }
    if gap > margin + config.zero_tolerance * reach { Sat::Apart } else { Sat::Meet }
}
