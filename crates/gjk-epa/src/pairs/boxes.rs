//! Box pairs, and a box with a segment or point core: the contact by the
//! separating-axis test, or the point–box closed form.

use gjk_core::{GjkConfig, Real};
use gjk_shapes::internal::{BoxSeparation, BoxView, box_separation_until};
use gjk_shapes::{Shape, Space};

use super::{classify_exact, exact_contact};
use crate::result::{Contact, ContactStatus};

/// Two shapes whose cores are boxes ([`Shape::core_box`]), or a box and a
/// segment or point ([`Shape::core_segment`]: capsules and balls on boxes;
/// [`gjk_shapes::internal::box_cores`]): the contact by
/// the separating-axis test ([`gjk_shapes::internal::box_separation`]) where its
/// bounds settle it, with no GJK or EPA: apart beyond the prediction
/// ([`ContactStatus::Beyond`], the lower bound as the distance), touching
/// within the zero band, or penetrating, where the least overlap over the
/// candidate axes is the penetration depth of two convex polytopes and its
/// axis the normal (exact, where EPA converges to a tolerance), with the
/// deepest feature's points. Cores apart where the largest separation's
/// witnesses realise it ([`gjk_shapes::internal::BoxSeparation::exact_gap`]: B's
/// deepest corner over A's face, or the other way, or two edges' closest
/// points within both) are settled too: that gap is their distance exactly,
/// so the pair is separated, touching or (round shapes) penetrating by the
/// radii less the gap, as GJK's path classifies it. `None` (GJK and EPA
/// decide) for other pairs apart within the prediction (their distance
/// needs the closest features: a vertex or edge region),
/// within rounding of the band's edges, with nearly parallel edges whose
/// cross axis was skipped (the depth would be a bound only), for other
/// shapes and for non-finite values.
pub(crate) fn contact<V, A, B>(
    a: &A,
    b: &B,
    (ba, bb): (BoxView<V>, BoxView<V>),
    gjk: &GjkConfig<V::Scalar>,
) -> Option<Contact<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let margin = ra + rb;
    let config = gjk.sanitized();
    if let Some((p, point_is_a)) = gjk_shapes::internal::point_and_box(&ba, &bb) {
        return point_box_contact(p, point_is_a, (&ba, &bb), (ra, rb), &config);
    }
    // Past the prediction along a face normal: the edge axes are not needed.
    let beyond = |reach: V::Scalar| margin + config.max_distance + config.zero_tolerance * reach.max(margin);
    let s = box_separation_until(&ba, &bb, beyond);
    if !(s.reach * s.reach).is_finite() || !margin.is_finite() {
        return None;
    }
    // The zero band as GJK's: relative to the reach, which bounds the
    // coordinates of `A − B` (and the radii, as for round shapes).
    let band = config.zero_tolerance * s.reach.max(margin);
    let n = s.normal(&ba, &bb);
    let (lower, upper) = (s.lower - margin, s.upper - margin);
    // Cores apart by exactly `gap`: the axis bounds their distance from
    // below and the witnesses, `gap` apart, from above (a skipped cross
    // axis cannot undercut that). Classified as `contact_from_core` does.
    let exact_gap = || s.exact_gap_along(&ba, &bb, n).map(|gap| gap - margin);
    // An axis across a segment or point core (`Shape::core_segment`) is
    // no face of it: the witness put on its plane need not lie on the
    // core, so EPA measures such an overlap.
    let flat_face = |s: &BoxSeparation<V::Scalar>| match s.axis {
        i @ 0..3 => ba.half.component(i) == V::Scalar::ZERO,
        j @ 3..6 => bb.half.component(j - 3) == V::Scalar::ZERO,
        _ => false,
    };
    let (status, distance, depth) = if lower > config.max_distance + band {
        (ContactStatus::Beyond, lower, V::Scalar::ZERO)
    } else if s.separation > V::Scalar::ZERO
        && let Some(gap) = exact_gap()
    {
        classify_exact(gap, band, config.max_distance)
    } else if s.skipped || flat_face(&s) {
        return None;
    } else if upper < -band && (margin == V::Scalar::ZERO || s.upper <= V::Scalar::ZERO) {
        // Round shapes: only cores that overlap (their depth plus the
        // radii); cores apart are at least `separation` apart, not exactly.
        (ContactStatus::Penetrating, V::Scalar::ZERO, -(s.separation - margin))
    } else if margin == V::Scalar::ZERO && lower >= -band && upper <= band {
        (ContactStatus::Touching, V::Scalar::ZERO, V::Scalar::ZERO)
    } else {
        return None;
    };
    let (point_a, point_b) = if status == ContactStatus::Beyond {
        // Valid points of the shapes (a lower bound has no witnesses).
        (ba.support(n), bb.support(-n))
    } else {
        s.witnesses(&ba, &bb, n)
    };
    // An edge pair's witnesses realise the separation only where the
    // edges' lines meet within both; where a cross axis ties with a face
    // normal (an edge, or a capsule's segment, parallel to the other's
    // face) and wins by rounding, their lines may meet beyond an end.
    // Then GJK and EPA decide.
    if status != ContactStatus::Beyond
        && s.axis >= 6
        && !witnesses_realise(point_a - point_b, n, s.separation, band)
    {
        return None;
    }
    Some(exact_contact((status, distance, depth), n, (point_a, point_b), (ra, rb)))
}

/// Whether an edge pair's witnesses, `w = point_a − point_b`, realise the
/// separation `s` along `n` within `band` (kept out of line: the box
/// pairs' common paths do not pay for its square root's code).
#[inline(never)]
fn witnesses_realise<V: Space>(w: V, n: V, s: V::Scalar, band: V::Scalar) -> bool {
    (w + n * s).length() <= band
}

/// A ball (a point core) and a box: the contact in closed form
/// ([`gjk_shapes::internal::point_box`]), exact in every region, classified as
/// [`contact_from_core`] does: the signed gap less the radii, separated
/// (or beyond the prediction), touching within the zero band, or
/// penetrating. `None` for values that are not finite.
#[inline(never)]
fn point_box_contact<V: Space>(
    p: gjk_shapes::internal::PointBox<V>,
    point_is_a: bool,
    (ba, bb): (&gjk_shapes::internal::BoxView<V>, &gjk_shapes::internal::BoxView<V>),
    (ra, rb): (V::Scalar, V::Scalar),
    config: &GjkConfig<V::Scalar>,
) -> Option<Contact<V>> {
    let margin = ra + rb;
    let reach = (bb.center - ba.center).length() + ba.half.length() + bb.half.length();
    if !(reach * reach).is_finite() || !margin.is_finite() || !p.gap.is_finite() {
        return None;
    }
    // The normal from A towards B: from the box towards the point, or back.
    let (n, core_a, core_b) =
        if point_is_a { (-p.normal, ba.center, p.on_box) } else { (p.normal, p.on_box, bb.center) };
    let band = config.zero_tolerance * reach.max(margin);
    let gap = p.gap - margin;
    let (status, distance, depth) = classify_exact(gap, band, config.max_distance);
    Some(exact_contact((status, distance, depth), n, (core_a, core_b), (ra, rb)))
}
