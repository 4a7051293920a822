//! Queries on posed shapes: computed in A's local frame (so a pair far
//! from the origin is as accurate as one at it), round shapes through their
//! cores plus radii, answers reported in the world frame.

use gjk_core::{
    BallTest, DistanceResult, GjkConfig, GjkError, Real, SimplexCache, Status, SupportMap, Vector,
};

use crate::obb::box_separation_until;
use crate::shape::{CoreOf, PolygonView, Shape};
use crate::space::{Pose, Space};
use crate::wrappers::Placed;

/// B placed in A's local frame.
#[inline]
fn b_in_a<'b, V: Space, B: Shape<V> + ?Sized>(
    b: &'b B,
    pose_a: &Pose<V>,
    pose_b: &Pose<V>,
) -> Placed<&'b B, V> {
    Placed::new(b, &pose_a.inv_mul(pose_b))
}

/// Whether the round shapes' own inner balls (radii included) overlap
/// deeply: a verdict the cores' balls cannot give where a core is thin (a
/// capsule's segment, a ball's point: inner radius 0). Only asked for
/// round pairs (`margin > 0`); the cores' own test covers the rest.
#[inline]
fn round_balls_overlap<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> bool
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    margin > V::Scalar::ZERO
        && gjk_core::ball_test(a, b, V::Scalar::ZERO, &config.sanitized()) == BallTest::Overlapping
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, in the world frame.
///
/// ```
/// use gjk_shapes::{Ball, Cuboid, Pose, distance, glam::Vec3};
/// let ball = Ball::new(0.5f32).unwrap();
/// let cube = Cuboid::new(Vec3::splat(1.0)).unwrap();
/// let r = distance(&ball, &Pose::from_translation(Vec3::new(3.0, 0.0, 0.0)), &cube, &Pose::IDENTITY);
/// assert!((r.distance - 1.5).abs() < 1e-6);
/// assert!((r.point_a - Vec3::new(2.5, 0.0, 0.0)).length() < 1e-6); // exact on the sphere
/// assert_eq!(r.normal, -Vec3::X); // from A (the ball) towards B
/// ```
pub fn distance<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> DistanceResult<V>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    distance_with(a, pose_a, b, pose_b, &GjkConfig::default(), None)
}

/// [`distance`] with a configuration and an optional warm-start cache. The
/// cache works in A's frame, so it stays valid while the pair moves
/// together.
// Forced inline: a thin layer (pose checks, B in A's frame, radii, back to
// the world) around gjk-core's query, whose ~300-byte result it would
// otherwise copy once more on return; inlined, the caller also drops the
// work on fields it does not read. Measured on warm queries that read the
// distance: 2 137 → 1 898 instructions at 1 024 vertices, 2 094 → 1 857 at
// 32 (−3 to −8 % and −18 % in interleaved time).
#[inline(always)]
pub fn distance_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> DistanceResult<V>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return DistanceResult::invalid();
    }
    // Results are finished in place: a `DistanceResult` is ~300 bytes and
    // every by-value pass is a `memcpy` (measured ~30 instructions each).
    let mut r = distance_local(a, &b_in_a(b, pose_a, pose_b), config, cache);
    move_to_world(&mut r, pose_a);
    r
}

/// The distance alone between `a` at `pose_a` and `b` at `pose_b` (the
/// Barycode paper's "level 2"): no witness points, normal or simplex, and
/// no support calls spent telling touching from overlap (both measure 0).
///
/// ```
/// use gjk_shapes::{Ball, Cuboid, Pose, distance_value, glam::Vec3};
/// let ball = Ball::new(0.5f32).unwrap();
/// let cube = Cuboid::new(Vec3::splat(1.0)).unwrap();
/// let at = Pose::from_translation(Vec3::new(3.0, 0.0, 0.0));
/// assert!((distance_value(&ball, &at, &cube, &Pose::IDENTITY).unwrap() - 1.5).abs() < 1e-6);
/// ```
pub fn distance_value<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
) -> Result<V::Scalar, GjkError>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    distance_value_with(a, pose_a, b, pose_b, &GjkConfig::default())
}

/// [`distance_value`] with a configuration: exactly the
/// [`DistanceResult::distance`] of [`distance_with`] on the same inputs,
/// except that a pair proven further apart than
/// [`GjkConfig::max_distance`] gives infinity, and that two pairs are
/// measured by the separating-axis test where it is exact: box pairs (the
/// gap along a face normal or an edge pair's axis whose witnesses realise
/// it; 0 for contact or overlap) and polygon pairs of up to
/// [`POLYGON_SAT_LIMIT`] vertex pairs whose balls leave them open (the gap
/// along an edge normal, or between two vertices; 0 for an overlap or for
/// contact within the zero band). There the full query's GJK agrees within
/// its zero band (`DistanceResult::tolerance`), not to the bit.
pub fn distance_value_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    config: &GjkConfig<V::Scalar>,
) -> Result<V::Scalar, GjkError>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return Err(GjkError::InvalidInput);
    }
    let b_local = b_in_a(b, pose_a, pose_b);
    let margin = a.radius() + b_local.radius();
    if !margin.is_finite() {
        return Err(GjkError::InvalidInput);
    }
    if round_balls_overlap(a, &b_local, margin, config) {
        // The shapes overlap deeply: the full query's 0, no support call.
        return Ok(V::Scalar::ZERO);
    }
    if let Some(core) = box_gap(a, &b_local) {
        // Two boxes the separating-axis test measures (exactly, or 0 for
        // contact and overlap), no support call.
        let gap = core - margin;
        return Ok(if gap > config.sanitized().max_distance {
            V::Scalar::INFINITY
        } else {
            gap.max(V::Scalar::ZERO)
        });
    }
    // The cores are `margin` further apart than the shapes; a rounded pair
    // is apart by what the cores are beyond the radii, else it meets (as
    // `add_radii` decides, status by status).
    let core_config = GjkConfig { max_distance: config.max_distance + margin, ..*config };
    let found = gjk_core::distance_value_or(&CoreOf(a), &CoreOf(&b_local), &core_config, |config| {
        let nb = b.core_polygon()?.vertices.len();
        polygon_gap(a, &b_local, nb, config)
    });
    let core = match found {
        Err(GjkError::IterationLimit) if margin > V::Scalar::ZERO => {
            // A capped search on round shapes: the full query still proves
            // an overlap when the cores' upper bound is below the radii
            // (`add_radii`), so its answer is taken (a rare, slow path).
            let r = distance_local(a, &b_local, config, None);
            return match r.status {
                Status::Separated | Status::Touching | Status::Intersecting => Ok(r.distance),
                Status::Beyond => Ok(V::Scalar::INFINITY),
                Status::InvalidInput => Err(GjkError::InvalidInput),
                Status::IterationLimit => Err(GjkError::IterationLimit),
            };
        }
        other => other?,
    };
    Ok((core - margin).max(V::Scalar::ZERO))
}

/// Distance between two shapes in one frame, through their cores.
pub fn distance_local<V, A, B>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> DistanceResult<V>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    // The cores are `ra + rb` further apart than the shapes.
    let core_config = GjkConfig { max_distance: config.max_distance + ra + rb, ..*config };
    let mut r = gjk_core::distance_with(&CoreOf(a), &CoreOf(b), &core_config, cache, &mut ());
    add_radii_in_place(&mut r, ra, rb, config);
    r
}

/// Turns a distance between cores into one between the rounded shapes.
pub fn add_radii<V: Vector>(
    core: DistanceResult<V>,
    ra: V::Scalar,
    rb: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) -> DistanceResult<V> {
    let mut r = core;
    add_radii_in_place(&mut r, ra, rb, config);
    r
}

/// [`add_radii`] on a result in place.
fn add_radii_in_place<V: Vector>(
    r: &mut DistanceResult<V>,
    ra: V::Scalar,
    rb: V::Scalar,
    config: &GjkConfig<V::Scalar>,
) {
    let margin = ra + rb;
    if r.status == Status::InvalidInput || margin == V::Scalar::ZERO {
        return;
    }
    if !margin.is_finite() {
        *r = DistanceResult::invalid();
        return;
    }
    let band = r.tolerance.max(config.sanitized().zero_tolerance * margin);
    let n = r.normal;
    let core_distance = r.distance;
    r.point_a = r.point_a + n * ra;
    r.point_b = r.point_b - n * rb;
    r.tolerance = band;
    r.lower_bound = (r.lower_bound - margin).max(V::Scalar::ZERO);
    if r.status == Status::Beyond {
        // Bounds only: both shrink by the radii.
        r.distance = (core_distance - margin).max(V::Scalar::ZERO);
        return;
    }
    if r.status == Status::Intersecting {
        // The cores overlap: so do the shapes, by more than the radii.
        r.distance = V::Scalar::ZERO;
        return;
    }
    let gap = core_distance - margin;
    if gap > band {
        r.distance = gap;
    } else if gap >= -band {
        // The rounded surfaces meet along the core normal.
        r.status = Status::Touching;
        r.distance = gap.max(V::Scalar::ZERO);
    } else {
        // Only the rounded margins overlap; the core normal is the exact
        // penetration direction.
        r.status = Status::Intersecting;
        r.distance = V::Scalar::ZERO;
    }
}

/// Moves a result's points and normal from `pose`'s local frame to the
/// world (the simplex stays local; see [`simplex_to_world`]).
pub fn to_world<V: Space>(r: &DistanceResult<V>, pose: &Pose<V>) -> DistanceResult<V> {
    let mut w = *r;
    move_to_world(&mut w, pose);
    w
}

/// [`to_world`] in place.
fn move_to_world<V: Space>(r: &mut DistanceResult<V>, pose: &Pose<V>) {
    if r.status == Status::InvalidInput {
        return;
    }
    r.point_a = pose.transform_point(r.point_a);
    r.point_b = pose.transform_point(r.point_b);
    r.normal = pose.transform_vector(r.normal);
    // The simplex stays in A's local frame (where the warm-start cache
    // lives too); `simplex_to_world` moves it when a caller wants it.
}

/// A posed query's simplex (which stays in A's local frame) moved to the
/// world frame.
pub fn simplex_to_world<V: Space>(s: &gjk_core::Simplex<V>, pose_a: &Pose<V>) -> gjk_core::Simplex<V> {
    s.map_points(|p| pose_a.transform_point(p)).map_directions(|d| pose_a.transform_vector(d))
}

/// Whether `a` at `pose_a` and `b` at `pose_b` touch or overlap (`false`
/// also for invalid input; see [`try_intersects`]).
pub fn intersects<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> bool
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    try_intersects(a, pose_a, b, pose_b).unwrap_or(false)
}

/// The boolean test with its failure cases as errors.
pub fn try_intersects<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> Result<bool, GjkError>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    intersects_with(a, pose_a, b, pose_b, &GjkConfig::default(), None)
}

/// The boolean test with a configuration and an optional warm-start cache;
/// round shapes are tested exactly as cores within the sum of their radii.
pub fn intersects_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Result<bool, GjkError>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return Err(GjkError::InvalidInput);
    }
    let b_local = b_in_a(b, pose_a, pose_b);
    let margin = a.radius() + b_local.radius();
    if cache.is_none() && round_balls_overlap(a, &b_local, margin, config) {
        // The shapes overlap deeply (the search's answer, with no support
        // call; a warm query keeps its cache up to date instead, as the
        // cores' test does).
        return Ok(true);
    }
    let config = &config.sanitized();
    let band = config.zero_tolerance * margin;
    if cache.is_none() {
        match shape_sat(a, &b_local, margin + band, config) {
            Sat::Apart => return Ok(false),
            Sat::Meet => return Ok(true),
            Sat::Unknown => {}
        }
    }
    gjk_core::intersects_within(&CoreOf(a), &CoreOf(&b_local), margin + band, config, cache)
}

/// Polygon pairs with at most this many vertex pairs (`n·m`) are tested by
/// the separating-axis theorem instead of GJK when no warm-start cache is
/// given: O(n·m/4) branch-free work against GJK's few support calls, which
/// cost more up to about this size on the benchmark's touching polygons
/// (docs/benchmarks.md).
pub const POLYGON_SAT_LIMIT: usize = 256;

/// Most ratio of the separating-axis test's coordinates (the polygons'
/// reach from their own origins plus the origins' distance) to the scale of
/// `A − B` for which the boolean test of polygons uses it
/// ([`POLYGON_SAT_LIMIT`]); beyond, GJK decides.
pub const POLYGON_SAT_REACH_RATIO: f64 = 8.0;

/// The scale of the zero band for the separating-axis tests of the polygon
/// cores `a` and `b` (views `pa`, `pb`): the centres' distance plus the
/// outer radii, a bound on the coordinates of `A − B` as GJK's scale is.
/// `None` (GJK decides) for shapes without balls, non-finite values, and
/// polygons stored far from their own origins or far apart: the tests'
/// sums cancel at their `reach`, where GJK subtracts nearby vertices first;
/// within [`POLYGON_SAT_REACH_RATIO`] the rounding (a few `ε · reach`)
/// stays well inside the zero band (`zero_tolerance · scale`).
#[inline]
fn sat_scale<V, A, B>(
    pa: &PolygonView<'_, V>,
    pb: &PolygonView<'_, V>,
    a: &A,
    b: &B,
    margin: V::Scalar,
) -> Option<V::Scalar>
where
    V: Space,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    // Every coordinate the tests compute with is below `reach`; squared
    // finite, no product overflows.
    let reach = (pb.origin - pa.origin).max_abs() + pa.reach + pb.reach;
    let (ca, cb, (_, ra), (_, rb)) = (a.center()?, b.center()?, a.center_radii()?, b.center_radii()?);
    let scale = (cb - ca).max_abs() + ra + rb;
    let near = reach <= V::Scalar::from_f64(POLYGON_SAT_REACH_RATIO) * scale;
    (near && (reach * reach).is_finite() && scale.is_finite() && margin.is_finite()).then_some(scale)
}

/// The separating-axis test where both cores are boxes ([`box_sat`]) or
/// polygons ([`polygon_sat`]); [`Sat::Unknown`] for other shapes.
#[inline]
fn shape_sat<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if a.core_box().is_some() { box_sat(a, b, margin, config) } else { polygon_sat(a, b, margin, config) }
}

/// The boolean test of two box cores (`a`, `b` in one frame) within
/// `margin` plus the zero band by the separating-axis theorem
/// ([`box_separation`](crate::box_separation)): the largest separation's lower bound beyond the
/// limit: apart; its upper bound at most 0: the boxes touch or overlap; in
/// between (touching within rounding, or a gap that a face normal does
/// not measure exactly), GJK decides. The zero band is relative to the
/// pair's reach, which bounds the coordinates of `A − B` as GJK's scale
/// does. The balls decide first, as GJK's tests do. `config` is sanitized
/// by the caller.
fn box_sat<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (Some(ba), Some(bb)) = (a.core_box(), b.core_box()) else { return Sat::Unknown };
    match gjk_core::ball_test(&CoreOf(a), &CoreOf(b), margin, config) {
        BallTest::Apart => return Sat::Apart,
        BallTest::Overlapping => return Sat::Meet,
        BallTest::Unknown => {}
    }
    let limit = |reach: V::Scalar| margin + config.zero_tolerance * reach;
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

/// The distance between two box cores (`a`, `b` in one frame) by the
/// separating-axis test, where it settles it ([`crate::box_gap`]: an
/// axis whose witnesses realise its separation, or 0 for contact and
/// overlap). `None` where GJK must measure, and for shapes that are not
/// both boxes.
#[inline]
fn box_gap<V, A, B>(a: &A, b: &B) -> Option<V::Scalar>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    crate::obb::box_gap_of(&a.core_box()?, &b.core_box()?)
}

/// What [`polygon_sat`] proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sat {
    /// The cores are further apart than the margin plus the band.
    Apart,
    /// The cores are within the margin plus the band (touch or overlap).
    Meet,
    /// Not decided here (or not polygons): GJK decides.
    Unknown,
}

/// The boolean test of two polygon cores (`a`, `b` in one frame) within
/// `margin` plus the zero band by the separating-axis theorem: the
/// edge normals of both polygons are the only candidate separating axes
/// (the boundary of `A − B` is made of their edges), so the largest
/// separation `s` along them decides. `s` beyond the limit: apart (the
/// cores are at least `s` apart). `s ≤ 0`: no edge line separates, so the
/// cores touch or overlap. In between the cores are exactly `s` apart when
/// the lowest vertex's foot lies on the edge, so they meet within the
/// limit; otherwise (a vertex–vertex region), and for pairs too large,
/// too far out for exact products or not finite: unknown, GJK decides. The
/// zero band is GJK's, relative to the scale of `A − B`'s coordinates (as
/// the polygon contact's). The balls decide first, as GJK's tests do.
/// `config` is sanitized by the caller.
fn polygon_sat<V, A, B>(a: &A, b: &B, margin: V::Scalar, config: &GjkConfig<V::Scalar>) -> Sat
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let Some(pa) = a.core_polygon() else { return Sat::Unknown };
    // B has at least three vertices.
    if pa.vertices.len() * 3 > POLYGON_SAT_LIMIT {
        return Sat::Unknown;
    }
    let (a, b) = (&CoreOf(a), &CoreOf(b));
    // The balls first, as GJK's test (most far or deep pairs end there).
    match gjk_core::ball_test(a, b, margin, config) {
        BallTest::Apart => return Sat::Apart,
        BallTest::Overlapping => return Sat::Meet,
        BallTest::Unknown => {}
    }
    let Some(pb) = b.0.core_polygon() else { return Sat::Unknown };
    if pa.vertices.len() * pb.vertices.len() > POLYGON_SAT_LIMIT {
        return Sat::Unknown;
    }
    let Some(scale) = sat_scale(&pa, &pb, a, b, margin) else { return Sat::Unknown };
    let limit = margin + config.zero_tolerance * scale;
    let (sa, ea) = pa.face_separation(&pb, limit);
    // Exit: an edge of A separates beyond the band.
    if sa > limit {
        return Sat::Apart;
    }
    let (sb, eb) = pb.face_separation(&pa, limit);
    // Exit: an edge of B does.
    if sb > limit {
        return Sat::Apart;
    }
    let (s, face, other, edge) = if sa >= sb { (sa, pa, pb, ea) } else { (sb, pb, pa, eb) };
    // Exit: no edge separates; the polygons touch or overlap.
    if s <= V::Scalar::ZERO {
        return Sat::Meet;
    }
    // Exit: the distance, where the test finds it exactly (within the
    // band, since `s` is a lower bound); else GJK measures.
    match exact_gap(&face, &other, edge, s) {
        Ok(d) if d <= limit => Sat::Meet,
        Ok(_) => Sat::Apart,
        Err(_) => Sat::Unknown,
    }
}

/// The distance between two polygon cores (`a`, `b` in one frame; `nb`
/// vertices in `b`) by the separating-axis test, where it settles it: the
/// largest separation `s` over both polygons' edge normals, beyond 0 with
/// the gap [`exact_gap`] proves (vertex–edge or vertex–vertex); at most 0
/// an overlap, distance 0; a gap in an end region the test cannot confirm
/// is contact (distance 0) where its nearest vertices are within the zero
/// band. `None` where GJK must measure: more than [`POLYGON_SAT_LIMIT`]
/// vertex pairs, coordinates the test cannot use ([`sat_scale`]), a gap
/// beyond the band in an end region the test cannot confirm, or a gap
/// beyond `config.max_distance`. `config` is sanitized by the caller.
#[inline]
fn polygon_gap<V, A, B>(a: &A, b: &B, nb: usize, config: &GjkConfig<V::Scalar>) -> Option<V::Scalar>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let pa = a.core_polygon()?;
    if pa.vertices.len() * nb > POLYGON_SAT_LIMIT {
        return None;
    }
    let pb = b.core_polygon()?;
    let scale = sat_scale(&pa, &pb, &CoreOf(a), &CoreOf(b), V::Scalar::ZERO)?;
    let band = config.zero_tolerance * scale;
    // Every edge of both (no early exit: the largest separation is needed).
    let (sa, ea) = pa.face_separation(&pb, V::Scalar::INFINITY);
    let (sb, eb) = pb.face_separation(&pa, V::Scalar::INFINITY);
    let (s, face, other, edge) = if sa >= sb { (sa, pa, pb, ea) } else { (sb, pb, pa, eb) };
    // Exit: no edge separates; the polygons touch or overlap.
    if s <= V::Scalar::ZERO {
        return Some(V::Scalar::ZERO);
    }
    let distance = match exact_gap(&face, &other, edge, s) {
        Ok(gap) => gap,
        // A gap in an end region: contact where its nearest vertices are
        // within the band (the gap lies between `s` and their distance).
        Err((k, j)) => {
            let near = (other.vertex(j) - face.vertex(k)).length_squared() <= band * band;
            (s <= band && near).then_some(V::Scalar::ZERO)?
        }
    };
    (distance <= config.max_distance).then_some(distance)
}

/// Where `foot` (on the line of `face`'s edge `edge`) lies: `None` on the
/// edge, else the end of the edge past which it falls.
#[inline]
fn edge_end<V: Space>(face: &PolygonView<'_, V>, edge: usize, foot: V) -> Option<usize> {
    let next = if edge + 1 == face.vertices.len() { 0 } else { edge + 1 };
    let (p0, p1) = (face.vertex(edge), face.vertex(next));
    let t = (foot - p0).dot(p1 - p0);
    if t < V::Scalar::ZERO {
        Some(edge)
    } else if t > (p1 - p0).length_squared() {
        Some(next)
    } else {
        None
    }
}

/// The distance between two separated polygons (one frame) from their
/// largest edge separation `s > 0`, along edge `edge` of `face` against
/// `other`'s lowest vertex `q`, where the test proves it: `s` itself when
/// `q`'s foot on the edge's line lies within the edge (vertex–edge: the
/// line separates by `s` and the foot is a point of `face` at `s`); else
/// `|q − p|` for the edge's end `p` past which the foot falls, when each of
/// `p` and `q` is its polygon's support along the line between them
/// (vertex–vertex: the slab between the two support lines has width
/// `|q − p|`). Where neither holds, the vertices `(k, j)` of `p` and `q`
/// (GJK measures those, or [`polygon_gap`] calls them contact).
#[inline]
fn exact_gap<V: Space>(
    face: &PolygonView<'_, V>,
    other: &PolygonView<'_, V>,
    edge: usize,
    s: V::Scalar,
) -> Result<V::Scalar, (usize, usize)> {
    let n = face.normal(edge);
    let j = other.lowest_along(n);
    let q = other.vertex(j);
    let k = match edge_end(face, edge, q - n * s) {
        None => return Ok(s),
        Some(k) => k,
    };
    let (nf, no) = (face.vertices.len(), other.vertices.len());
    let next = |i: usize, len: usize| if i + 1 == len { 0 } else { i + 1 };
    let prev = |i: usize, len: usize| if i == 0 { len - 1 } else { i - 1 };
    let p = face.vertex(k);
    let r = q - p;
    let zero = V::Scalar::ZERO;
    let p_top = r.dot(face.vertex(prev(k, nf)) - p) <= zero && r.dot(face.vertex(next(k, nf)) - p) <= zero;
    let q_low = r.dot(other.vertex(prev(j, no)) - q) >= zero && r.dot(other.vertex(next(j, no)) - q) >= zero;
    if p_top && q_low { Ok(r.length()) } else { Err((k, j)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConvexPolygon, Rot2};
    use gjk_core::glam::DVec2;
    use gjk_testkit::{Rng, brute_closest_2d, polygon};

    /// `exact_gap` on separated pairs: wherever it answers, the brute-force
    /// distance (all edge pairs); both of its cases (vertex–edge and
    /// vertex–vertex) answer on many pairs, and it declines on few (none
    /// here: the edge end past the foot has always been the closest vertex).
    #[test]
    fn exact_gap_is_the_brute_force_distance() {
        let mut rng = Rng::new(7303);
        let (mut edge, mut corner, mut declined) = (0, 0, 0);
        for k in 0..3000 {
            let (n, m) = (rng.usize(3, 12), rng.usize(3, 12));
            let a = ConvexPolygon::new(&polygon(&mut rng, n)).unwrap();
            let b = ConvexPolygon::new(&polygon(&mut rng, m)).unwrap();
            let dir = rng.unit2();
            let pose = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), dir * rng.range(2.5, 6.0));
            let placed = Placed::new(&b, &pose);
            let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
            let world: Vec<DVec2> = (0..pb.vertices.len()).map(|j| pb.vertex(j)).collect();
            let truth = brute_closest_2d(a.vertices(), &world).0;
            let (sa, ea) = pa.face_separation(&pb, f64::INFINITY);
            let (sb, eb) = pb.face_separation(&pa, f64::INFINITY);
            let (s, face, other, e) = if sa >= sb { (sa, &pa, &pb, ea) } else { (sb, &pb, &pa, eb) };
            if s <= 0.0 {
                // Not separated after all (the polygons reach 2.5 apart at most
                // rarely): no gap to check.
                continue;
            }
            assert!(s <= truth + 1e-12, "pair {k}: the separation {s} exceeds the distance {truth}");
            match exact_gap(face, other, e, s) {
                Ok(d) => {
                    assert!((d - truth).abs() <= 1e-12, "pair {k}: {d} vs {truth}");
                    if d == s { edge += 1 } else { corner += 1 }
                }
                Err(_) => declined += 1,
            }
        }
        assert!(
            edge > 500 && corner > 500 && declined < 30,
            "edge {edge}, corner {corner}, declined {declined}"
        );
    }

    /// `polygon_gap` on pairs moved to touch along their closest points and
    /// then apart by gaps from 1e-12 to 1e-2 of the size, in f64 and f32:
    /// every answer is the brute-force distance (of the rounded vertices),
    /// or 0 for a pair within the zero band; in f32, corner contacts (the
    /// end-region rule: a gap whose nearest vertices are within the band)
    /// are among them.
    #[test]
    fn polygon_gap_is_exact_or_contact_within_the_band() {
        let mut rng = Rng::new(7309);
        let (mut exact, mut contact, mut corner, mut none) = ([0; 2], [0; 2], 0, 0);
        for k in 0..4000 {
            let (n, m) = (rng.usize(3, 12), rng.usize(3, 12));
            let (va, vb) = (polygon(&mut rng, n), polygon(&mut rng, m));
            let (a, b) = (ConvexPolygon::new(&va).unwrap(), ConvexPolygon::new(&vb).unwrap());
            let angle = rng.range(-3.2, 3.2);
            let far = Pose::new(Rot2::from_angle(angle), rng.unit2() * 6.0);
            let world =
                |p: &Pose<DVec2>| b.vertices().iter().map(|v| p.transform_point(*v)).collect::<Vec<_>>();
            let (d, pa, pb) = brute_closest_2d(a.vertices(), &world(&far));
            let gap = [0.0, 1e-12, 1e-9, 1e-6, 1e-4, 1e-2][k % 6];
            let pose = Pose::new(far.rotation, far.translation - (pb - pa) / d * (d - gap));
            // f64, then the same pair rounded to f32.
            let a32 = ConvexPolygon::new(&va.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap();
            let b32 = ConvexPolygon::new(&vb.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap();
            let pose32 = Pose::new(Rot2::from_angle(angle as f32), pose.translation.as_vec2());
            let runs = [
                gap_case(&a, &b, &pose, |v| v, 1e-12),
                gap_case(&a32, &b32, &pose32, |v: gjk_core::glam::Vec2| v.as_dvec2(), 1e-5),
            ];
            for (p, run) in runs.into_iter().enumerate() {
                match run {
                    None => none += 1,
                    Some((true, is_corner)) => {
                        contact[p] += 1;
                        corner += usize::from(is_corner);
                    }
                    Some((false, _)) => exact[p] += 1,
                }
                let _ = k;
            }
        }
        assert!(
            exact.iter().all(|&e| e > 1500) && none < 400,
            "exact {exact:?}, contact {contact:?}, none {none}"
        );
        assert!(contact.iter().all(|&c| c > 200) && corner > 0, "contact {contact:?}, corners {corner}");
    }

    /// One pair for [`polygon_gap_is_exact_or_contact_within_the_band`]:
    /// `None` when the test declines, else whether it reported contact and
    /// whether that contact is a separated pair's (the end-region rule).
    fn gap_case<V: Space + gjk_core::Vector2>(
        a: &ConvexPolygon<V>,
        b: &ConvexPolygon<V>,
        pose: &Pose<V>,
        to64: impl Fn(V) -> DVec2 + Copy,
        tol: f64,
    ) -> Option<(bool, bool)> {
        let cfg = GjkConfig::<V::Scalar>::default();
        let placed = Placed::new(b, pose);
        let wa: Vec<DVec2> = a.vertices().iter().map(|v| to64(*v)).collect();
        let wb: Vec<DVec2> = b.vertices().iter().map(|v| to64(pose.transform_point(*v))).collect();
        let truth = brute_closest_2d(&wa, &wb).0;
        let v = polygon_gap(a, &placed, b.vertices().len(), &cfg)?.to_f64();
        let (pa, pb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
        let scale = sat_scale(&pa, &pb, &CoreOf(a), &CoreOf(&placed), V::Scalar::ZERO).unwrap();
        let band = (cfg.zero_tolerance * scale).to_f64();
        if v == 0.0 {
            assert!(truth <= 2.0 * band + tol, "contact reported, distance {truth:e} (band {band:e})");
            let (sa, _) = pa.face_separation(&pb, V::Scalar::INFINITY);
            let (sb, _) = pb.face_separation(&pa, V::Scalar::INFINITY);
            Some((true, sa.max(sb) > V::Scalar::ZERO))
        } else {
            assert!((v - truth).abs() <= tol, "{v:e} vs {truth:e}");
            Some((false, false))
        }
    }
}
