//! Box pairs, and a box with a segment or point core (a capsule or ball on
//! a box): the separating-axis test (`obb.rs`) and the point–box closed
//! form.

use gjk_core::internal::BallTest;
use gjk_core::{GjkConfig, Real};

use super::Sat;
use crate::obb::{BoxView, box_separation_until};
use crate::shape::{CoreOf, Shape};
use crate::space::Space;

/// The boolean test of two box cores (`a`, `b` in one frame) within
/// `margin` plus the zero band by the separating-axis theorem
/// ([`box_separation`](crate::internal::box_separation)): the largest separation's lower bound beyond the
/// limit: apart; its upper bound at most 0: the boxes touch or overlap; in
/// between (touching within rounding, or a gap that a face normal does
/// not measure exactly), GJK decides. The zero band is relative to the
/// pair's reach, which bounds the coordinates of `A − B` as GJK's scale
/// does. The balls decide first, as GJK's tests do. `config` is sanitized
/// by the caller.
pub(super) fn intersects<V, A, B>(
    a: &A,
    b: &B,
    (ba, bb): (BoxView<V>, BoxView<V>),
    margin: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    match gjk_core::internal::ball_test(&CoreOf(a), &CoreOf(b), margin, config) {
        BallTest::Apart => return Sat::Apart,
        BallTest::Overlapping => return Sat::Meet,
        BallTest::Unknown => {}
    }
    let limit = |reach: V::Scalar| margin + config.zero_tolerance * reach;
    if let Some((p, _)) = crate::internal::point_and_box(&ba, &bb) {
        // A ball's centre: its distance from the box is exact.
        let reach = (bb.center - ba.center).length() + ba.half.length() + bb.half.length();
        if !(reach * reach).is_finite() || !margin.is_finite() || !p.gap.is_finite() {
            return Sat::Unknown;
        }
        return if p.gap > limit(reach) { Sat::Apart } else { Sat::Meet };
    }
    let s = box_separation_until(&ba, &bb, limit);
    if !(s.reach * s.reach).is_finite() || !margin.is_finite() {
        return Sat::Unknown;
    }
    if s.lower > limit(s.reach) {
        Sat::Apart
    } else if s.upper <= V::Scalar::ZERO {
        Sat::Meet
    } else {
        Sat::Unknown
    }
}

/// The distance between two box cores (in one frame) by the
/// separating-axis test, where it settles it ([`crate::internal::box_gap`]:
/// an axis whose witnesses realise its separation, or 0 for contact and
/// overlap); a ball's centre and a box in closed form. `None` where GJK
/// must measure.
#[inline]
pub(super) fn distance_value<V: Space>(ba: &BoxView<V>, bb: &BoxView<V>) -> Option<V::Scalar> {
    if let Some((p, _)) = crate::internal::point_and_box(ba, bb) {
        // A ball's centre: its distance from the box is exact (0 inside).
        return p.gap.is_finite().then(|| p.gap.max(V::Scalar::ZERO));
    }
    crate::obb::box_gap_of(ba, bb)
}
