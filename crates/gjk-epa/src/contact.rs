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
use gjk_shapes::internal::{Pair, Route, classify};
use gjk_shapes::{CoreOf, Placed, Pose, Shape, Space};

use crate::epa::{EpaConfig, EpaSpace, EpaStatus, penetration};
pub use crate::result::{Contact, ContactStatus, shallow_band};

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
    // The pair's row of the table, once: boxes and segments first (no
    // support call), polygons after the first support point.
    let pair = classify(a, &b_local);
    let settled = match pair {
        Pair::Boxes(ba, bb) => crate::pairs::boxes::contact(a, &b_local, (ba, bb), &gjk),
        Pair::Segments(sa, sb) => crate::pairs::segments::contact(a, &b_local, (sa, sb), &gjk),
        Pair::Polygons | Pair::General => None,
    };
    if let Some(c) = settled {
        return (c.status != ContactStatus::Beyond).then(|| contact_to_world(c, pose_a));
    }
    let start = gjk_core::internal::first_support(&core_a, &core_b);
    if gjk_core::internal::start_proves_beyond(&core_config, start) {
        return None;
    }
    if let Pair::Polygons = pair
        && let Some((_, c)) = crate::pairs::polygons::contact(a, &b_local, &gjk)
    {
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
    if let Some(c) = crate::pairs::contact(a, b, gjk) {
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
