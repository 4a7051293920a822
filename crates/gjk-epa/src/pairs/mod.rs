//! The contact verb of gjk-shapes' pair table (its `pairs` module lists the
//! pairs and their paths): one file per pair, tried on the pair's row of
//! the table, `None` where GJK and EPA must decide.

pub(crate) mod boxes;
pub(crate) mod polygons;
pub(crate) mod segments;

use gjk_core::{GjkConfig, Real};
use gjk_shapes::internal::{Pair, Route, classify};
use gjk_shapes::{Shape, Space};

use crate::result::{Contact, ContactStatus};

/// The contact of a pair (in one frame) by its row of the table, with the
/// route; `None`: GJK (and EPA) decide.
#[inline]
pub(crate) fn contact<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> Option<(Route, Contact<V>)>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    match classify(a, b) {
        Pair::Segments(sa, sb) => segments::contact(a, b, (sa, sb), gjk).map(|c| (Route::Segments, c)),
        Pair::Boxes(ba, bb) => boxes::contact(a, b, (ba, bb), gjk).map(|c| (Route::BoxAxes, c)),
        Pair::Polygons => polygons::contact(a, b, gjk),
        Pair::General => None,
    }
}

/// A contact settled without GJK or EPA: its `(status, distance, depth)`,
/// the normal from A towards B, and the cores' witness points moved out
/// by the radii along it.
#[inline]
pub(super) fn exact_contact<V: Space>(
    (status, distance, depth): (ContactStatus, V::Scalar, V::Scalar),
    n: V,
    (core_a, core_b): (V, V),
    (ra, rb): (V::Scalar, V::Scalar),
) -> Contact<V> {
    Contact {
        status,
        distance,
        depth,
        normal: n,
        point_a: core_a + n * ra,
        point_b: core_b - n * rb,
        gjk_iterations: 0,
        epa_iterations: 0,
        epa_status: None,
    }
}

/// The status, distance and depth of an exact signed gap (the shapes'
/// distance, or minus their depth), as [`contact_from_core`] classifies
/// GJK's: separated beyond the zero `band` (beyond `max_distance`:
/// [`ContactStatus::Beyond`], the gap a proven lower bound), touching
/// within it, penetrating below it.
#[inline]
pub(super) fn classify_exact<S: Real>(gap: S, band: S, max_distance: S) -> (ContactStatus, S, S) {
    if gap > band {
        let far = gap > max_distance;
        (if far { ContactStatus::Beyond } else { ContactStatus::Separated }, gap, S::ZERO)
    } else if gap >= -band {
        (ContactStatus::Touching, S::ZERO, S::ZERO)
    } else {
        (ContactStatus::Penetrating, S::ZERO, -gap)
    }
}
