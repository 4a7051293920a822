//! The contact query: one call that answers separated, touching or
//! penetrating, with depth, normal and contact points.
//!
//! # Routes
//!
//! `contact_local` tries, in order: the bounding balls (cores apart beyond
//! the prediction plus the radii: `Beyond`); polygon pairs (2D, the boundary
//! walk, exact for apart pairs and for sharp pairs in contact, then the
//! separating-axis test where it is exact, `sat.rs`); box pairs and segment
//! or point cores on boxes (`gjk_shapes`' box separation: apart beyond the
//! prediction, touching, penetrating with the least overlap's axis; only
//! where its witnesses realise the overlap); two segment or point cores in
//! closed form where the cores are apart beyond `shallow_band` of the reach;
//! else GJK on the cores and EPA.
//!
//! # GJK and EPA
//!
//! EPA runs only when the cores overlap and the overlap is real: an
//! `Intersecting` result whose simplex does not enclose the origin deeply
//! (`Simplex::encloses_origin_deeply`, then the exact inscribed radius, both
//! against the zero band) may be a touching pair overlapping by rounding, so
//! it is first re-measured twice with B moved just apart (along GJK's last
//! search direction, then along the normal found), warm-started; a verified
//! result within the zero band is a touching contact, anything else goes to
//! EPA. Radii are added; shallow results (|gap| ≤ `shallow_band` ≈ √ε of the
//! size) are re-measured by GJK with B moved just apart along the normal,
//! since EPA and tiny-distance GJK normals are ill-conditioned there. A GJK
//! `Touching` result skips that: its normal was verified. EPA reports the
//! normal and depth of the face it stopped on (whose support it checked), not
//! of the witness face: at a touching vertex every face through the origin is
//! as near, and only the checked one separates. A support that repeats a
//! vertex yet reaches past the face by more than the zero band ends EPA with
//! `EpaStatus::Stalled` (unproven normal; contact then re-measures it).
//!
//! In f32 the re-measured normal is accurate to about `ε · size / shift`
//! radians (the closest point near contact carries absolute rounding
//! `ε · size`), so contacts that overlap by rounding get normals along which
//! A reaches ~1e-3 of the size past B (`touching_normals_separate_random_hulls`).
//! A larger shift does not help: along a poor normal it can leave the cores
//! overlapping. `contact_within(prediction)` stops as soon as GJK proves the
//! pair further apart (`ContactStatus::Beyond`), like a physics engine's
//! contact generation.

use gjk_core::internal::BallTest;
use gjk_core::{DistanceResult, GjkConfig, Real, SimplexCache, Status, SupportMap, Vector};
use gjk_shapes::internal::{BoxSeparation, Route, box_separation_until, polygon_closest};
use gjk_shapes::{CoreOf, Placed, Pose, Shape, Space};

use crate::epa::{EpaConfig, EpaSpace, EpaStatus, penetration};
use crate::sat::{PolygonSeparation, polygon_separation};

/// What a contact query found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactStatus {
    /// Apart by `distance` (> 0); the points are the closest points.
    Separated,
    /// In contact within the zero band: `distance` and `depth` are 0 and
    /// `normal` separates the shapes.
    Touching,
    /// Overlapping by `depth` (> 0) along `normal`; `point_a` is A's deepest
    /// point inside B and `point_b` B's deepest inside A.
    Penetrating,
    /// Overlapping, but neither depth nor normal could be determined (EPA
    /// could not build a polytope); only "they overlap" is known.
    Indeterminate,
    /// Apart by more than the prediction distance
    /// ([`GjkConfig::max_distance`]); the query stopped as soon as that was
    /// proven. `distance` is a proven lower bound, `normal` separates.
    Beyond,
    /// A pose, size or support point was NaN or infinite. `distance` is
    /// infinite (never read as contact), depth 0.
    InvalidInput,
}

/// A contact between two shapes (all vectors in the world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<V: Vector> {
    /// What was found.
    pub status: ContactStatus,
    /// Separation (0 unless separated).
    pub distance: V::Scalar,
    /// Penetration depth (0 unless penetrating).
    pub depth: V::Scalar,
    /// Unit normal pointing from A to B: moving B by `depth · normal`
    /// separates penetrating shapes.
    pub normal: V,
    /// Contact point on A.
    pub point_a: V,
    /// Contact point on B.
    pub point_b: V,
    /// GJK support calls (0 when two polygons' separating-axis test
    /// settled the contact: see [`contact_local`]).
    pub gjk_iterations: u32,
    /// EPA support calls (0 when EPA was not needed).
    pub epa_iterations: u32,
    /// EPA's own status when it ran (an `IterationLimit` there means
    /// `depth` is a lower bound).
    pub epa_status: Option<EpaStatus>,
}

impl<V: Vector> Contact<V> {
    /// `distance − depth`: positive apart, negative overlapping.
    #[inline]
    pub fn signed_distance(&self) -> V::Scalar {
        self.distance - self.depth
    }

    /// Whether the shapes touch or overlap.
    #[inline]
    pub fn is_contact(&self) -> bool {
        matches!(
            self.status,
            ContactStatus::Touching | ContactStatus::Penetrating | ContactStatus::Indeterminate
        )
    }

    fn invalid() -> Self {
        Self {
            status: ContactStatus::InvalidInput,
            distance: V::Scalar::INFINITY,
            depth: V::Scalar::ZERO,
            normal: V::X,
            point_a: V::ZERO,
            point_b: V::ZERO,
            gjk_iterations: 0,
            epa_iterations: 0,
            epa_status: None,
        }
    }
}

/// Contact between `a` at `pose_a` and `b` at `pose_b`, default settings.
///
/// ```
/// use gjk_epa::{ContactStatus, contact};
/// use gjk_shapes::{Cuboid, Pose, glam::DVec3};
/// let cube = Cuboid::new(DVec3::ONE).unwrap(); // side 2
/// let r = contact(&cube, &Pose::IDENTITY, &cube, &Pose::from_translation(DVec3::new(0.0, 0.0, 1.9)));
/// assert_eq!(r.status, ContactStatus::Penetrating);
/// assert!((r.depth - 0.1).abs() < 1e-9);
/// assert!((r.normal - DVec3::Z).length() < 1e-9); // from A towards B
/// ```
pub fn contact<V, A, B>(a: &A, pose_a: &Pose<V>, b: &B, pose_b: &Pose<V>) -> Contact<V>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    contact_with(a, pose_a, b, pose_b, &GjkConfig::default(), &EpaConfig::default(), None)
}

/// Contact only for pairs within `prediction` of each other, like a
/// physics engine's contact generation: `None` as soon as the shapes are
/// proven further apart (often by the first support call), else the
/// full [`contact`] (separated pairs within the prediction included).
///
/// ```
/// use gjk_epa::contact_within;
/// use gjk_shapes::{Ball, Pose, glam::Vec3};
/// let ball = Ball::new(1.0f32).unwrap();
/// let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
/// assert!(contact_within(&ball, &at(0.0), &ball, &at(5.0), 0.1).is_none());
/// let near = contact_within(&ball, &at(0.0), &ball, &at(2.05), 0.1).unwrap();
/// assert!((near.distance - 0.05).abs() < 1e-6);
/// ```
pub fn contact_within<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    prediction: V::Scalar,
) -> Option<Contact<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return Some(Contact::invalid());
    }
    let b_local = Placed::new(b, &pose_a.inv_mul(pose_b));
    let gjk = GjkConfig::within(prediction);
    // Most pairs a broad phase hands over are far. Cores whose outer balls
    // are apart by more than the prediction (plus the radii and any zero
    // band) are far with no support call (`ball_test`: the query itself
    // would end `Beyond` or separated past the prediction); else the first
    // support call proves most of the others far: stop there, before any
    // distance bookkeeping (the test is the one the query itself would
    // make first, so the answer is the same). Otherwise the query goes on
    // from that support point.
    let (core_a, core_b) = (CoreOf(a), CoreOf(&b_local));
    let core_config = core_config(a, &b_local, &gjk);
    if gjk_core::internal::ball_test(&core_a, &core_b, core_config.max_distance, &core_config)
        == BallTest::Apart
    {
        return None;
    }
    if let Some(c) = box_contact(a, &b_local, &gjk).or_else(|| segment_contact(a, &b_local, &gjk)) {
        return (c.status != ContactStatus::Beyond).then(|| contact_to_world(c, pose_a));
    }
    let start = gjk_core::internal::first_support(&core_a, &core_b);
    if gjk_core::internal::start_proves_beyond(&core_config, start) {
        return None;
    }
    if let Some((_, c)) = polygon_contact(a, &b_local, &gjk) {
        return (c.status != ContactStatus::Beyond).then(|| contact_to_world(c, pose_a));
    }
    let g = gjk_core::internal::distance_from(&core_a, &core_b, &core_config, start, &mut ());
    let c = contact_from_core(a, &b_local, &gjk, &EpaConfig::default(), &g);
    // Beyond: stopped early. A separated pair can also converge before its
    // lower bound passes the prediction; then its exact distance decides.
    // Decided in A's frame: a pair that is far (the common case in a broad
    // phase's candidate list) is never moved to the world frame.
    let far = c.status == ContactStatus::Beyond
        || (c.status == ContactStatus::Separated && c.distance > prediction);
    (!far).then(|| contact_to_world(c, pose_a))
}

/// [`contact`] with configurations and an optional warm-start cache (kept
/// in A's frame). A finite [`GjkConfig::max_distance`] makes pairs further
/// apart stop early with [`ContactStatus::Beyond`].
pub fn contact_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Contact<V>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return Contact::invalid();
    }
    let b_local = Placed::new(b, &pose_a.inv_mul(pose_b));
    contact_to_world(contact_local(a, &b_local, gjk, epa, cache), pose_a)
}

/// A contact found in A's local frame, moved to the world frame.
#[inline]
fn contact_to_world<V: Space>(c: Contact<V>, pose_a: &Pose<V>) -> Contact<V> {
    if c.status == ContactStatus::InvalidInput {
        return c;
    }
    Contact {
        normal: pose_a.transform_vector(c.normal),
        point_a: pose_a.transform_point(c.point_a),
        point_b: pose_a.transform_point(c.point_b),
        ..c
    }
}

/// Contact between two shapes given in one frame. Round shapes run on
/// their cores; EPA runs only when the cores themselves overlap. Two
/// polygon cores (2D) are settled exactly by the boundary walk
/// ([`gjk_shapes::internal::polygon_closest`]) or the separating-axis test instead
/// ([`crate::internal::polygon_separation`]) whenever they give the answer exactly:
/// always when they touch or overlap, and when apart unless the walk
/// settles on a far edge and the closest points are two vertices (GJK
/// measures those).
pub fn contact_local<V, A, B>(
    a: &A,
    b: &B,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Contact<V>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    contact_local_traced(a, b, gjk, epa, cache, &mut ()).1
}

/// [`contact_local`] with a recorder of GJK's iterations (on the cores, in
/// this frame) and the route that settled the pair.
#[inline(always)]
pub fn contact_local_traced<V, A, B, R>(
    a: &A,
    b: &B,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
    recorder: &mut R,
) -> (Route, Contact<V>)
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    R: gjk_core::Recorder<V> + ?Sized,
{
    if let Some(c) = polygon_contact(a, b, gjk)
        .or_else(|| box_contact(a, b, gjk).map(|c| (Route::BoxAxes, c)))
        .or_else(|| segment_contact(a, b, gjk).map(|c| (Route::Segments, c)))
    {
        return c;
    }
    let g = gjk_core::distance_with(&CoreOf(a), &CoreOf(b), &core_config(a, b, gjk), cache, recorder);
    let c = contact_from_core(a, b, gjk, epa, &g);
    let route = match (g.status, c.epa_status) {
        (Status::InvalidInput, _) => Route::InvalidInput,
        (_, Some(_)) => Route::GjkEpa,
        (Status::Intersecting, None) if c.status != ContactStatus::InvalidInput => Route::GjkRemeasured,
        _ if c.status == ContactStatus::InvalidInput => Route::InvalidInput,
        _ => Route::Gjk,
    };
    (route, c)
}

/// [`contact`] (default settings, no cache) with a recorder of GJK's
/// iterations (on the cores, in A's frame) and the route that settled the
/// pair: the query `gjk trace` shows.
pub fn contact_traced<V, A, B, R>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    recorder: &mut R,
) -> (Route, Contact<V>)
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    R: gjk_core::Recorder<V> + ?Sized,
{
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return (Route::InvalidInput, Contact::invalid());
    }
    let b_local = Placed::new(b, &pose_a.inv_mul(pose_b));
    let (route, c) =
        contact_local_traced(a, &b_local, &GjkConfig::default(), &EpaConfig::default(), None, recorder);
    (route, contact_to_world(c, pose_a))
}

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
fn polygon_contact<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> Option<(Route, Contact<V>)>
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
fn box_contact<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> Option<Contact<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ba, bb) = gjk_shapes::internal::box_cores(a, b)?;
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

/// Two shapes whose cores are segments or points ([`Shape::core_segment`]:
/// capsules and balls, [`gjk_shapes::internal::segment_cores`]): the contact from
/// the cores' closest points in closed form
/// ([`gjk_shapes::internal::closest_on_segments`]), classified as
/// [`contact_from_core`] does. Only where the cores are apart by more than
/// [`shallow_band`] of the pair's reach: nearer, the direction between
/// the points is ill-conditioned (and crossing cores have none), and GJK,
/// its refinement and EPA decide (`None`), as for non-finite values.
fn segment_contact<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> Option<Contact<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (sa, sb) = gjk_shapes::internal::segment_cores(a, b)?;
    let (ra, rb) = (a.radius(), b.radius());
    let margin = ra + rb;
    let reach = (sb.center - sa.center).length() + sa.half.length() + sb.half.length();
    if !(reach * reach).is_finite() || !margin.is_finite() {
        return None;
    }
    let (core_a, core_b) = gjk_shapes::internal::closest_on_segments(&sa, &sb);
    let d = core_b - core_a;
    let core_gap = d.length();
    if core_gap.partial_cmp(&(shallow_band::<V::Scalar>() * reach)) != Some(core::cmp::Ordering::Greater) {
        return None;
    }
    let n = d * (V::Scalar::ONE / core_gap);
    let config = gjk.sanitized();
    let band = config.zero_tolerance * reach.max(margin);
    let classified = classify_exact(core_gap - margin, band, config.max_distance);
    Some(exact_contact(classified, n, (core_a, core_b), (ra, rb)))
}

/// A contact settled without GJK or EPA: its `(status, distance, depth)`,
/// the normal from A towards B, and the cores' witness points moved out
/// by the radii along it.
#[inline]
fn exact_contact<V: Space>(
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
fn classify_exact<S: Real>(gap: S, band: S, max_distance: S) -> (ContactStatus, S, S) {
    if gap > band {
        let far = gap > max_distance;
        (if far { ContactStatus::Beyond } else { ContactStatus::Separated }, gap, S::ZERO)
    } else if gap >= -band {
        (ContactStatus::Touching, S::ZERO, S::ZERO)
    } else {
        (ContactStatus::Penetrating, S::ZERO, -gap)
    }
}

/// The configuration of the cores' GJK: they are the sum of the radii
/// further apart than the shapes.
#[inline]
fn core_config<V, A, B>(a: &A, b: &B, gjk: &GjkConfig<V::Scalar>) -> GjkConfig<V::Scalar>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    GjkConfig { max_distance: gjk.max_distance + a.radius() + b.radius(), ..*gjk }
}

/// [`contact_local`] from the GJK result `g` of the cores, run with
/// [`core_config`].
fn contact_from_core<V, A, B>(
    a: &A,
    b: &B,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
    g: &DistanceResult<V>,
) -> Contact<V>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let margin = ra + rb;
    if !margin.is_finite() {
        return Contact::invalid();
    }
    let band = g.tolerance.max(gjk.sanitized().zero_tolerance * margin);
    let mut c = Contact {
        status: ContactStatus::Separated,
        distance: V::Scalar::ZERO,
        depth: V::Scalar::ZERO,
        normal: g.normal,
        point_a: g.point_a,
        point_b: g.point_b,
        gjk_iterations: g.iterations,
        epa_iterations: 0,
        epa_status: None,
    };
    // Whether an overlap was settled by `remeasure_overlap` (no EPA).
    let mut remeasured = false;
    // Signed distance between the cores and the core witness points.
    let (core_gap, core_a, core_b) = match g.status {
        Status::InvalidInput => return Contact::invalid(),
        Status::Beyond => {
            c.status = ContactStatus::Beyond;
            c.distance = (g.lower_bound - margin).max(V::Scalar::ZERO);
            c.point_a = g.point_a + g.normal * ra;
            c.point_b = g.point_b - g.normal * rb;
            return c;
        }
        Status::Separated | Status::IterationLimit | Status::Touching => (g.distance, g.point_a, g.point_b),
        Status::Intersecting if let Some(r) = remeasure_overlap(a, b, gjk, g, band, &mut c) => {
            remeasured = true;
            r
        }
        Status::Intersecting => {
            let e = penetration(&CoreOf(a), &CoreOf(b), &g.simplex, epa);
            c.epa_iterations = e.iterations;
            c.epa_status = Some(e.status);
            match e.status {
                EpaStatus::InvalidInput => return Contact::invalid(),
                EpaStatus::Indeterminate => {
                    c.status = ContactStatus::Indeterminate;
                    return c;
                }
                EpaStatus::Touching
                | EpaStatus::Converged
                | EpaStatus::IterationLimit
                | EpaStatus::Stalled => {
                    c.normal = e.normal;
                    (-e.depth, e.point_a, e.point_b)
                }
            }
        }
    };
    // The refinement's GJK starts from the first one's simplex, which the
    // small shift leaves nearly optimal (not from an EPA-enclosing one).
    let mut start = SimplexCache::new();
    if g.status != Status::Intersecting {
        start.store(&g.simplex);
    }
    // A `Touching` result from GJK, and one settled by `remeasure_overlap`,
    // carries a verified normal (A − B reaches no further than the zero band
    // along it), so it is exact already: no refinement (the touching
    // contact rows).
    let verified = g.status == Status::Touching || remeasured;
    let (core_gap, core_a, core_b) = if verified {
        (core_gap, core_a, core_b)
    } else {
        refine_shallow(a, b, gjk, core_gap, core_a, core_b, &mut start, &mut c)
            .unwrap_or((core_gap, core_a, core_b))
    };
    let n = c.normal;
    c.point_a = core_a + n * ra;
    c.point_b = core_b - n * rb;
    let gap = core_gap - margin;
    if gap > band {
        c.status = ContactStatus::Separated;
        c.distance = gap;
    } else if gap >= -band {
        c.status = ContactStatus::Touching;
    } else {
        c.status = ContactStatus::Penetrating;
        c.depth = -gap;
    }
    c
}

/// A GJK overlap that is not provably deeper than the zero band
/// ([`Simplex::encloses_origin_deeply`], then the exact [`inscribed_radius`])
/// may be a pair that only touches, overlapping by rounding; EPA on it is
/// costly and ill-conditioned (the 3D touching contact rows).
/// Re-measure first with B moved just apart ([`refine_shallow`]), twice:
/// along GJK's last search direction, a rough normal, then along the
/// normal that found (brute force, f32: 3.5e-3 → 9e-4 of the size), both
/// warm-started from the previous simplex. A verified result whose signed
/// gap is within the zero `band` settles the contact as touching; anything
/// else (a real penetration) is left to EPA, with `c.normal` restored.
///
/// [`Simplex::encloses_origin_deeply`]: gjk_core::Simplex::encloses_origin_deeply
fn remeasure_overlap<V, A, B>(
    a: &A,
    b: &B,
    gjk: &GjkConfig<V::Scalar>,
    g: &DistanceResult<V>,
    band: V::Scalar,
    c: &mut Contact<V>,
) -> Option<(V::Scalar, V, V)>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    if g.simplex.encloses_origin_deeply(g.tolerance)
        || inscribed_radius(&g.simplex) > g.tolerance * two::<V>()
    {
        return None;
    }
    let mut warm = SimplexCache::new();
    warm.store(&g.simplex);
    let first = refine_shallow(a, b, gjk, V::Scalar::ZERO, g.point_a, g.point_b, &mut warm, c);
    let second = first.and_then(|(gap, pa, pb)| refine_shallow(a, b, gjk, gap, pa, pb, &mut warm, c));
    match second {
        Some(r) if r.0.abs() <= band => Some(r),
        _ => {
            c.normal = g.normal;
            None
        }
    }
}

/// `2` in the scalar type.
#[inline]
fn two<V: Vector>() -> V::Scalar {
    V::Scalar::ONE + V::Scalar::ONE
}

/// The distance from the origin to the nearest facet plane of a full
/// simplex that holds it (0 for a lower-dimensional one): a ball of this
/// radius about the origin lies in the simplex, so in `A − B`, and the
/// penetration is at least this deep. Exact where
/// [`Simplex::encloses_origin_deeply`] is conservative (it bounds the facet
/// normals by the scale): measured on boxes resting 0.2–2 % deep, it keeps
/// the touching re-measure from running (and failing) before EPA.
///
/// [`Simplex::encloses_origin_deeply`]: gjk_core::Simplex::encloses_origin_deeply
fn inscribed_radius<V: Vector>(s: &gjk_core::Simplex<V>) -> V::Scalar {
    let pts = s.points();
    if pts.len() != V::DIM + 1 {
        return V::Scalar::ZERO;
    }
    let mut radius = V::Scalar::INFINITY;
    for skip in 0..pts.len() {
        let mut facet = [V::ZERO; 3];
        let mut k = 0;
        for (i, p) in pts.iter().enumerate() {
            if i != skip && k < 3 {
                facet[k] = p.w;
                k += 1;
            }
        }
        let raw = V::facet_normal_raw(&facet[..V::DIM]);
        let len = raw.length();
        // A degenerate (or NaN) facet proves nothing.
        if len.is_nan() || len <= V::Scalar::ZERO {
            return V::Scalar::ZERO;
        }
        radius = radius.min(raw.dot(facet[0]).abs() / len);
    }
    radius
}

/// Depths below this fraction of the shapes' size are re-measured by GJK
/// (√ε-ish: where EPA's face normals stop being trustworthy).
pub fn shallow_band<S: Real>() -> S {
    // 2^-26 ≈ 1.5e-8 for f64, 2^-12 ≈ 2.4e-4 for f32: about √ε.
    if S::EPSILON < S::from_f64(1e-10) { S::from_f64(1.0 / 67_108_864.0) } else { S::from_f64(1.0 / 4096.0) }
}

/// A bound on the coordinates of `s`'s core near its side along `dir`: the
/// core's outer ball (`|centre|` per coordinate plus the outer radius, no
/// support call), else the support point along `dir`.
#[inline]
fn core_extent<V: Space, S: Shape<V> + ?Sized>(s: &S, dir: V) -> V::Scalar {
    match (CoreOf(s).center(), CoreOf(s).center_radii()) {
        (Some(c), Some((_, outer))) => c.max_abs() + outer,
        _ => s.core_support(dir).0.max_abs(),
    }
}

/// Near contact (cores within [`shallow_band`] of the size, either side),
/// the normal from EPA or from a tiny GJK distance is ill-conditioned:
/// every feature near the origin is nearly as close. Moving B along the
/// current normal until the cores are `band` apart makes GJK's normal exact
/// (its error shrinks with the separation); the signed gap along that
/// normal is then the measured distance minus the shift. Returns the
/// refined `(signed core gap, core point on A, core point on B)` and
/// updates the normal, or `None` when nothing needed or allowed refining.
#[allow(clippy::too_many_arguments)]
fn refine_shallow<V, A, B>(
    a: &A,
    b: &B,
    gjk: &GjkConfig<V::Scalar>,
    core_gap: V::Scalar,
    core_a: V,
    core_b: V,
    cache: &mut SimplexCache<V>,
    c: &mut Contact<V>,
) -> Option<(V::Scalar, V, V)>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let n = c.normal;
    let size = core_a.max_abs().max(core_b.max_abs()).max(core_extent(a, n)).max(core_extent(b, -n));
    let band = shallow_band::<V::Scalar>() * size;
    if core_gap.abs() > band || core_gap.is_nan() || band <= V::Scalar::ZERO {
        return None;
    }
    let shift = n * (band - core_gap);
    let moved = Placed::new(b, &Pose::from_translation(shift));
    // No early out here: the shift itself puts the cores `band` apart.
    let exact = GjkConfig { max_distance: V::Scalar::INFINITY, ..*gjk };
    let g = gjk_core::distance_with(&CoreOf(a), &CoreOf(&moved), &exact, Some(cache), &mut ());
    // A `Touching` answer is as good: its normal is verified (the shifted
    // `A − B` reaches at most GJK's zero band along it). It happens when
    // the current normal is poor, so the shift along it moves the cores
    // apart by less than its length along the true normal (measured: f32
    // vertex contacts whose EPA stalled; rejecting it kept normals off by
    // 2 % of the size).
    if !matches!(g.status, Status::Separated | Status::Touching) {
        return None;
    }
    c.normal = g.normal;
    c.gjk_iterations += g.iterations;
    Some((g.distance - shift.dot(g.normal), g.point_a, g.point_b - shift))
}
