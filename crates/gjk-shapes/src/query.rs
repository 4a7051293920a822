//! Queries on posed shapes: computed in A's local frame (so a pair far
//! from the origin is as accurate as one at it), round shapes through their
//! cores plus radii, answers reported in the world frame.
//!
//! B is expressed in A's frame (`Pose::inv_mul` subtracts translations
//! first) as a `Placed`, the special pairs below are tried, else GJK runs on
//! the cores, radii are added (`add_radii`) and results go back to the world.
//!
//! # Special pairs
//!
//! Pairs with a faster exact path than GJK are classified once per query
//! by the pair table (`pairs/mod.rs`, which lists them and the verbs each
//! answers).

use gjk_core::internal::BallTest;
use gjk_core::{DistanceResult, GjkConfig, GjkError, Real, SimplexCache, Status, SupportPoint, Vector};

use crate::shape::{CoreOf, Shape};
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
        && gjk_core::internal::ball_test(a, b, V::Scalar::ZERO, &config.sanitized()) == BallTest::Overlapping
}

/// The warm query's one-call answer ([`gjk_core::internal::warm_exit`]) for `a` and
/// `b` placed in A's frame: the cached points rebuilt from the shapes'
/// vertices and one support call made on the shapes directly (B's
/// direction turned into its frame and its point back), not through the
/// solver's adapters. On a frame-coherent sequence of pairs apart nearly
/// every warm query ends here, in `r`; `false` where the whole warm query
/// must run.
#[inline(always)]
fn warm_one_call<V, A, B>(
    a: &A,
    b: &Placed<&B, V>,
    config: &GjkConfig<V::Scalar>,
    c: &mut SimplexCache<V>,
    r: &mut DistanceResult<V>,
) -> bool
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.shape.radius());
    let core_config = GjkConfig { max_distance: config.max_distance + ra + rb, ..*config };
    let support = |d: V, hint: (u32, u32)| {
        let (qa, ja) = a.core_support_from(d, hint.0);
        let (qb, jb) = b.shape.core_support_from(b.local_dir(-d), hint.1);
        SupportPoint::with_indices(qa, ja, b.to_outer(qb), jb)
    };
    let vertex_b = |i: u32| b.shape.core_vertex(i).map(|p| b.to_outer(p));
    if !gjk_core::internal::warm_exit(&core_config, c, |i| a.core_vertex(i), vertex_b, support, r) {
        return false;
    }
    c.store(&r.simplex);
    add_radii_in_place(r, ra, rb, config);
    true
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, in the world frame.
/// Polygon pairs that are apart or touch are measured by the boundary walk
/// ([`polygon_closest`](crate::internal::polygon_closest)) instead of GJK: exact apart, the normal verified
/// when touching, with the closest feature as the simplex and `iterations`
/// 0.
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
// work on fields it does not read (the `warm-vs-cold` rows).
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
    // every by-value pass is a `memcpy`.
    let placed = b_in_a(b, pose_a, pose_b);
    let cache = match cache {
        // A cached point, segment or (3D) triangle: the one-call answer
        // first (a full simplex goes straight to the solver, and the exit
        // hands it pairs in contact).
        Some(c) if c.len() <= V::DIM && !c.is_empty() => {
            let mut r = DistanceResult::invalid();
            if warm_one_call(a, &placed, config, c, &mut r) {
                move_to_world(&mut r, pose_a);
                return r;
            }
            Some(c)
        }
        cache => cache,
    };
    let mut r = distance_local(a, &placed, config, cache);
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
/// measured without GJK where that is exact: box pairs by the
/// separating-axis test (the gap along a face normal or an edge pair's
/// axis whose witnesses realise it; 0 for contact or overlap), and polygon
/// pairs whose inner balls do not overlap deeply by the boundary walk of
/// [`polygon_closest`](crate::internal::polygon_closest) (the gap to the nearest vertex or edge of `B − A`;
/// 0 for contact within the zero band or an overlap), else by the
/// separating-axis test up to [`POLYGON_SAT_LIMIT`](crate::tuning::POLYGON_SAT_LIMIT) vertex pairs. There
/// the full query's GJK agrees within its zero band
/// (`DistanceResult::tolerance`), not to the bit.
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
    if let Some(core) = crate::pairs::distance_value(a, &b_local) {
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
    let found =
        gjk_core::internal::distance_value_or(&CoreOf(a), &CoreOf(&b_local), &core_config, |config| {
            let nb = b.core_polygon()?.vertices.len();
            crate::pairs::polygons::distance_value(a, &b_local, nb, config)
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

/// Distance between two shapes in one frame, through their cores (polygon
/// pairs apart or touching by the boundary walk when no cache is given, as
/// [`distance`]).
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
    distance_local_traced(a, b, config, cache, &mut ()).1
}

/// Which path of a posed query settled a pair: what `gjk trace` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Invalid input (a pose or a shape): no path ran.
    InvalidInput,
    /// The warm-start cache's one-call answer.
    WarmExit,
    /// The polygon boundary walk, exact, no GJK.
    PolygonWalk,
    /// The separating-axis test of two polygons, no GJK.
    PolygonAxes,
    /// The separating-axis test of two boxes (or a box and a segment or
    /// point core), no GJK.
    BoxAxes,
    /// Closed form for two segment or point cores, no GJK.
    Segments,
    /// GJK on the cores, started from the boundary walk's feature.
    GjkFromWalk,
    /// GJK on the cores.
    Gjk,
    /// GJK on the cores, then an exact re-measure of a shallow overlap.
    GjkRemeasured,
    /// GJK on the cores, then EPA for their overlap.
    GjkEpa,
}

impl Route {
    /// A short name for printing.
    pub fn name(self) -> &'static str {
        match self {
            Route::InvalidInput => "invalid input",
            Route::WarmExit => "warm start, one support call",
            Route::PolygonWalk => "polygon boundary walk",
            Route::PolygonAxes => "polygon separating axes",
            Route::BoxAxes => "box separating axes",
            Route::Segments => "segments in closed form",
            Route::GjkFromWalk => "GJK on the cores, from the walk's feature",
            Route::Gjk => "GJK on the cores",
            Route::GjkRemeasured => "GJK on the cores, overlap measured exactly",
            Route::GjkEpa => "GJK on the cores, then EPA",
        }
    }
    /// Whether GJK ran (so a recorder saw its iterations).
    pub fn ran_gjk(self) -> bool {
        matches!(self, Route::Gjk | Route::GjkFromWalk | Route::GjkRemeasured | Route::GjkEpa)
    }
}

/// [`distance_local`] with a recorder of GJK's iterations (on the cores,
/// in this frame) and the route that settled the pair.
#[inline(always)]
pub fn distance_local_traced<V, A, B, R>(
    a: &A,
    b: &B,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
    recorder: &mut R,
) -> (Route, DistanceResult<V>)
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    R: gjk_core::Recorder<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    // The cores are `ra + rb` further apart than the shapes.
    let core_config = GjkConfig { max_distance: config.max_distance + ra + rb, ..*config };
    let mut seed = SimplexCache::new();
    let mut route = Route::Gjk;
    let cache = match cache {
        Some(c) => Some(c),
        None => match crate::pairs::polygons::distance(a, b, &core_config) {
            crate::pairs::polygons::PolygonFull::Done(mut r) => {
                // Polygon pairs apart or touching: the walk's answer, no GJK.
                add_radii_in_place(&mut r, ra, rb, config);
                return (Route::PolygonWalk, r);
            }
            crate::pairs::polygons::PolygonFull::Seed(s) => {
                // Polygon pairs the walk found overlapping: GJK starts from
                // the walk's feature, as a warm start would.
                seed.store(&s);
                route = Route::GjkFromWalk;
                Some(&mut seed)
            }
            crate::pairs::polygons::PolygonFull::Gjk => None,
        },
    };
    let mut r = gjk_core::distance_with(&CoreOf(a), &CoreOf(b), &core_config, cache, recorder);
    add_radii_in_place(&mut r, ra, rb, config);
    if r.status == Status::InvalidInput {
        route = Route::InvalidInput;
    }
    (route, r)
}

/// [`distance`] (no cache, default settings) with a recorder of GJK's
/// iterations (on the cores, in A's frame) and the route that settled the
/// pair: the query `gjk trace` shows.
pub fn distance_traced<V, A, B, R>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    recorder: &mut R,
) -> (Route, DistanceResult<V>)
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    R: gjk_core::Recorder<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return (Route::InvalidInput, DistanceResult::invalid());
    }
    let placed = b_in_a(b, pose_a, pose_b);
    let (route, mut r) = distance_local_traced(a, &placed, &GjkConfig::default(), None, recorder);
    move_to_world(&mut r, pose_a);
    (route, r)
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
        match crate::pairs::intersects(a, &b_local, margin + band, config) {
            crate::pairs::Sat::Apart => return Ok(false),
            crate::pairs::Sat::Meet => return Ok(true),
            crate::pairs::Sat::Unknown => {}
        }
    }
    gjk_core::internal::intersects_within(&CoreOf(a), &CoreOf(&b_local), margin + band, config, cache)
}
