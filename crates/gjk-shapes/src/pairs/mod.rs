//! The pair table: the pairs with a faster exact path than GJK, classified
//! once per query ([`classify`]), one file per pair, each answering the
//! verbs it can. Every query tries the same order, segments, then boxes,
//! then polygons; where a pair's path declines, GJK on the cores answers.
//!
//! | pair ([`Pair`]) | distance (full) | distance alone | boolean | contact (gjk-epa) |
//! |---|---|---|---|---|
//! | two segment or point cores: capsules, balls ([`segments`]) | GJK | closed form | closed form | closed form apart beyond the shallow band |
//! | boxes, or a box and a segment or point core ([`boxes`]) | GJK | separating axes where exact, point–box closed form | separating axes, point–box closed form | separating axes, point–box closed form |
//! | two polygon cores, 2D ([`polygons`]) | boundary walk (or its feature seeds GJK) | walk, then separating axes where exact | walk, then separating axes | walk or separating axes |
//! | anything else | GJK | GJK | GJK | GJK and EPA |
//!
//! The full distance needs witness points and a simplex to warm-start
//! from, which only the polygon walk gives exactly; the others leave it to
//! GJK. Gates: round pairs whose inner balls overlap deeply are settled
//! before the table (the posed layer's `round_balls_overlap`); a warm-start
//! cache skips the table (GJK's one-call exit is faster).

pub(crate) mod boxes;
pub(crate) mod polygons;
pub(crate) mod segments;

pub use polygons::{
    POLYGON_SAT_LIMIT, POLYGON_SAT_REACH_RATIO, POLYGON_WALK_CERT_ULPS, POLYGON_WALK_EDGE_ULPS,
    POLYGON_WALK_FOOT_ULPS, POLYGON_WALK_PAIRS, PolygonClosest, polygon_closest,
};

use gjk_core::{GjkConfig, Real};

use crate::obb::BoxView;
use crate::shape::Shape;
use crate::space::Space;

/// Two shapes' cores as boxes for the separating-axis test, in the
/// shapes' shared frame: two boxes ([`Shape::core_box`]), or a box and a
/// segment or point ([`Shape::core_segment`]), either way round. The
/// test's axes are complete for these pairs (every face normal of `A − B`
/// is among them), not for two segments: `None` then, and for other
/// shapes.
#[inline]
pub fn box_cores<V, A, B>(a: &A, b: &B) -> Option<(BoxView<V>, BoxView<V>)>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    match (a.core_box(), b.core_box()) {
        (Some(ba), Some(bb)) => Some((ba, bb)),
        (Some(ba), None) => Some((ba, b.core_segment()?)),
        (None, Some(bb)) => Some((a.core_segment()?, bb)),
        (None, None) => None,
    }
}

/// Two shapes' cores as segments or points ([`Shape::core_segment`]:
/// capsules and balls), neither a box, in the shapes' shared frame, for
/// [`closest_on_segments`](crate::internal::closest_on_segments). `None` for other shapes.
#[inline]
pub fn segment_cores<V, A, B>(a: &A, b: &B) -> Option<(BoxView<V>, BoxView<V>)>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    Some((a.core_segment()?, b.core_segment()?))
}

/// Which row of the table a pair (in one frame) is.
#[derive(Clone, Copy, Debug)]
pub enum Pair<V: Space> {
    /// Two segment or point cores.
    Segments(BoxView<V>, BoxView<V>),
    /// Two box cores, or a box and a segment or point core.
    Boxes(BoxView<V>, BoxView<V>),
    /// Two polygon cores (2D).
    Polygons,
    /// Anything else: GJK.
    General,
}

/// The pair's row, decided once per query.
#[inline]
pub fn classify<V, A, B>(a: &A, b: &B) -> Pair<V>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if let Some((sa, sb)) = segment_cores(a, b) {
        Pair::Segments(sa, sb)
    } else if let Some((ba, bb)) = box_cores(a, b) {
        Pair::Boxes(ba, bb)
    } else if a.core_polygon().is_some() && b.core_polygon().is_some() {
        Pair::Polygons
    } else {
        Pair::General
    }
}

/// What a pair's boolean test proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sat {
    /// The cores are further apart than the margin plus the band.
    Apart,
    /// The cores are within the margin plus the band (touch or overlap).
    Meet,
    /// Not decided here (or not polygons): GJK decides.
    Unknown,
}

/// The boolean test by the table, within `margin` plus the zero band
/// (`config` sanitized by the caller).
#[inline]
pub(crate) fn intersects<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    match classify(a, b) {
        Pair::Segments(sa, sb) => segments::intersects(&sa, &sb, margin, config),
        Pair::Boxes(ba, bb) => boxes::intersects(a, b, (ba, bb), margin, config),
        Pair::Polygons => polygons::intersects(a, b, margin, config),
        Pair::General => Sat::Unknown,
    }
}

/// The distance alone by the table where it is exact without GJK, cores
/// only (the radii are the caller's); `None`: GJK measures (polygon pairs
/// are measured inside GJK's query, [`polygons::distance_value`]).
#[inline]
pub(crate) fn distance_value<V, A, B>(a: &A, b: &B) -> Option<V::Scalar>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    match classify(a, b) {
        Pair::Segments(sa, sb) => Some(segments::distance_value(&sa, &sb)).filter(|g| g.is_finite()),
        Pair::Boxes(ba, bb) => boxes::distance_value(&ba, &bb),
        Pair::Polygons | Pair::General => None,
    }
}
