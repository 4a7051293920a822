//! Polygon pairs (2D): the contact by the boundary walk or the
//! separating-axis test ([`crate::internal::polygon_separation`]).

use gjk_core::internal::BallTest;
use gjk_core::{GjkConfig, Real, SupportMap};
use gjk_shapes::internal::{Route, polygon_closest};
use gjk_shapes::{CoreOf, Shape, Space};

use super::{classify_exact, exact_contact};
use crate::result::Contact;
use crate::sat::{PolygonSeparation, polygon_separation};

/// Polygon pairs with at most this many vertex pairs (`n·m`) skip the
/// boundary walk in the contact query and take the separating-axis test at
/// once: up to 8-gon pairs its branch-free kernel is as fast near contact
/// and faster on shallow overlaps, where the walk ends inside and the test
/// runs anyway (the 2D shallow contact rows).
pub const POLYGON_CONTACT_WALK_PAIRS: usize = 64;

/// Two shapes whose cores are convex polygons ([`Shape::core_polygon`],
/// 2D): the exact contact by the boundary walk
/// ([`gjk_shapes::internal::polygon_closest`]) for apart pairs and sharp pairs
/// touching within the zero band, else by the separating-axis test
/// ([`polygon_separation`]), with no GJK or EPA (far cheaper than EPA on
/// the 2D overlap rows, and exact where EPA converges to a tolerance).
/// `None` where the test does not give the
/// distance exactly (cores apart with a vertex–vertex closest pair: GJK
/// measures those), for other shapes, and for non-finite values (left to
/// GJK, which reports them). A warm-start cache is left as it was.
pub(crate) fn contact<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> Option<(Route, Contact<V>)>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (pa, pb) = (a.core_polygon()?, b.core_polygon()?);
    let (ra, rb) = (a.radius(), b.radius());
    let margin = ra + rb;
    // The boundary walk first (O(steps)): exact for apart pairs, and
    // contact for sharp pairs within the zero band; deeper overlaps and
    // round pairs whose cores overlap need the least overlap over every
    // edge, from the separating-axis test, which cores whose inner balls
    // overlap go to at once (the walk would end inside, for nothing).
    let (core_a, core_b) = (CoreOf(a), CoreOf(b));
    let small = pa.vertices.len() * pb.vertices.len() <= POLYGON_CONTACT_WALK_PAIRS;
    let walked = match (core_a.center(), core_b.center(), core_a.center_radii(), core_b.center_radii()) {
        (Some(ca), Some(cb), Some(ka), Some(kb))
            if !small
                && gjk_core::internal::ball_test_of(
                    (ca, ka),
                    (cb, kb),
                    V::Scalar::ZERO,
                    &gjk.sanitized(),
                ) != BallTest::Overlapping =>
        {
            polygon_closest(&pa, &pb, cb - ca)
        }
        _ => None,
    };
    let scale = (pb.origin - pa.origin).max_abs() + pa.reach + pb.reach;
    let band = gjk.sanitized().zero_tolerance * scale.max(margin);
    let (route, s) = match walked {
        Some(w) if w.exact || (margin == V::Scalar::ZERO && -w.separation <= band) => (
            Route::PolygonWalk,
            PolygonSeparation {
                separation: w.separation,
                normal: w.normal,
                point_a: w.point_a,
                point_b: w.point_b,
                scale,
                exact: true,
            },
        ),
        _ => (Route::PolygonAxes, polygon_separation(&pa, &pb)),
    };
    // The scale's square finite: no product in the test overflowed.
    let finite = (s.scale * s.scale).is_finite()
        && s.separation.is_finite()
        && s.point_a.is_finite()
        && s.point_b.is_finite()
        && margin.is_finite();
    if !finite || !s.exact {
        return None;
    }
    // The zero band as GJK's: relative to the Minkowski points' scale (and
    // the radii, as for round shapes through GJK).
    let band = gjk.sanitized().zero_tolerance * s.scale.max(margin);
    let n = s.normal;
    let gap = s.separation - margin;
    let (status, distance, depth) = classify_exact(gap, band, gjk.sanitized().max_distance);
    Some((route, exact_contact((status, distance, depth), n, (s.point_a, s.point_b), (ra, rb))))
}
