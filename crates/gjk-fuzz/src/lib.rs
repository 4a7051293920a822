//! A fuzz harness that runs on the stable toolchain: [`fuzz_one`] turns
//! arbitrary bytes into a pair of shapes (point sets, spheres, capsules,
//! boxes, hulls; f32 and f64; 2D and 3D), poses and radii — NaN, infinities,
//! huge and tiny values included — and runs every query on them, checking
//! that nothing panics, nothing returns NaN and every loop ends.
//!
//! One input in [`CLOUD_ONE_IN`] also builds two hulls of
//! [`CLOUD_MIN_POINTS`] or more points from structured clouds (ellipsoids,
//! doubled points, flat discs, snapped grids, mixed scales), large enough
//! that their supports hill-climb, and runs them cold and warm-started
//! (a cache carried over frames of small motion, then to another pair) in
//! `f64` and, through the SIMD lanes, in `f32`; and the clouds in the
//! plane as large 2D polygons the same way. Each warm answer is compared
//! with the cold one on the same frame (see [`Outcome::disagreeing`]).
//!
//! The `gjk-fuzz` binary feeds it seeded random byte strings (or files);
//! the same function can back a `cargo fuzz` / libFuzzer target.
#![warn(missing_docs)]

use std::sync::atomic::{AtomicBool, Ordering};

use gjk_core::glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use gjk_core::internal::Vector2;
use gjk_core::{CastOptions, CastStatus, GjkConfig, Real, SimplexCache, Status, Vector};
use gjk_epa::{ContactStatus, EpaConfig, EpaSpace, PolyhedronFaces};
use gjk_shapes::{Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Pose, Shape, Space};

/// Whether `agree` prints the pairs that differ (the binary's
/// `--explain`).
pub static EXPLAIN: AtomicBool = AtomicBool::new(false);

/// One input in this many builds the large hull pair (`cloud`).
pub const CLOUD_ONE_IN: u8 = 8;

/// The fewest points of a large cloud: past `gjk_shapes::tuning::HULL_SCAN_LIMIT`,
/// so that a hull built from a non-degenerate one climbs.
pub const CLOUD_MIN_POINTS: usize = gjk_shapes::tuning::HULL_SCAN_LIMIT + 1;

/// Points a large cloud adds to [`CLOUD_MIN_POINTS`] at most.
pub const CLOUD_EXTRA_POINTS: usize = 340;

/// Frames of a warm-started sequence ([`check_warm`]).
pub const WARM_FRAMES: usize = 3;

/// Reads values from the input, repeating it when it runs out.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        if self.data.is_empty() {
            return 0;
        }
        let b = self.data[self.at % self.data.len()];
        self.at += 1;
        b
    }
    /// A float: mostly ordinary values; one in 256 each NaN, +∞,
    /// −∞, huge (1e7), tiny (1e-6) or zero.
    fn float(&mut self) -> f64 {
        let tag = self.byte();
        let raw = u16::from_le_bytes([self.byte(), self.byte()]) as f64 / 65535.0 * 4.0 - 2.0;
        match tag {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => raw * 1e7,
            4 => raw * 1e-6,
            5 => 0.0,
            _ => raw,
        }
    }
    fn count(&mut self, max: usize) -> usize {
        1 + self.byte() as usize % max
    }
}

/// Outcome counters of one or many fuzz inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Queries run.
    pub queries: u64,
    /// Results that carried NaN or infinity in an output that must be finite.
    pub non_finite: u64,
    /// Queries answered with an invalid-input status.
    pub invalid: u64,
    /// Large hulls built whose supports hill-climb (the inputs' coverage
    /// of the climbs).
    pub climbing_hulls: u64,
    /// Large polygons built whose supports climb their boundary.
    pub climbing_polygons: u64,
    /// Warm-started distances compared with the cold ones ([`AGREE_REL`]).
    pub compared: u64,
    /// Of those, answers that differ.
    pub disagreeing: u64,
    /// Warm and cold answers that differ on pairs with a shape of more
    /// than one scale (far outliers, far offsets, flat, extreme axes):
    /// GJK's known limits, reported, not failed (`agree`).
    pub disagreeing_extreme: u64,
}

impl Outcome {
    /// Adds another outcome.
    pub fn add(&mut self, o: Outcome) {
        self.queries += o.queries;
        self.non_finite += o.non_finite;
        self.invalid += o.invalid;
        self.climbing_hulls += o.climbing_hulls;
        self.climbing_polygons += o.climbing_polygons;
        self.compared += o.compared;
        self.disagreeing += o.disagreeing;
        self.disagreeing_extreme += o.disagreeing_extreme;
    }
}

fn check_shapes3(
    a: &dyn Shape<DVec3>,
    pa: &Pose<DVec3>,
    b: &dyn Shape<DVec3>,
    pb: &Pose<DVec3>,
    o: &mut Outcome,
) {
    count_distance(&gjk_shapes::distance(a, pa, b, pb), o);
    let _ = gjk_shapes::try_intersects(a, pa, b, pb);
    // The distance alone: finite and not negative when it answers.
    let v = gjk_shapes::distance_value(a, pa, b, pb);
    o.queries += 1;
    match v {
        Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
        Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
        _ => {}
    }
    // Contact generation with a prediction (its far-pair early exit).
    if let Some(c) = gjk_epa::contact_within(a, pa, b, pb, 0.1) {
        o.queries += 1;
        if c.status != ContactStatus::InvalidInput && !(c.depth.is_finite() && c.normal.is_finite()) {
            o.non_finite += 1;
        }
    }
    let c = gjk_epa::contact(a, pa, b, pb);
    o.queries += 2;
    if c.status != ContactStatus::InvalidInput
        && !(c.depth.is_finite() && c.normal.is_finite() && c.point_a.is_finite())
    {
        o.non_finite += 1;
    }
    let h =
        gjk_shapes::cast_shape(a, pa, DVec3::new(3.0, 0.5, 0.0), b, pb, DVec3::ZERO, &CastOptions::default());
    o.queries += 1;
    if h.is_some_and(|h| !h.normal.is_finite() || !h.fraction.is_finite()) {
        o.non_finite += 1;
    }
    let ray = gjk_shapes::cast_ray(b, pb, pa.translation, DVec3::X, 100.0);
    o.queries += 1;
    if ray.is_some_and(|h| !h.normal.is_finite()) {
        o.non_finite += 1;
    }
    // The same motion turning (fixed spins: no bytes read, so the sections
    // after read what they did before): outputs finite, the fraction in
    // [0, 1], and the step bound kept.
    let ma = gjk_shapes::Motion::new(*pa, DVec3::new(3.0, 0.5, 0.0), DVec3::new(0.0, 0.0, 7.0));
    let mb = gjk_shapes::Motion::new(*pb, DVec3::ZERO, DVec3::new(1.0, -2.0, 0.5));
    let h = gjk_shapes::cast_shape_nonlinear(a, &ma, b, &mb, &CastOptions::default());
    o.queries += 1;
    if let Some(h) = h
        && h.status == CastStatus::InvalidInput
    {
        o.invalid += 1;
    } else if let Some(h) = h {
        let finite = h.normal.is_finite() && h.point_a.is_finite() && h.point_b.is_finite();
        let bound =
            gjk_shapes::tuning::NONLINEAR_CAST_MAX_STEPS * (gjk_core::DEFAULT_MAX_ITERATIONS + 16) + 12;
        if !finite || !(0.0..=1.0).contains(&h.fraction) || h.iterations > bound {
            o.non_finite += 1;
        }
    }
    // The same two casts where a start in contact goes on unless the
    // motion deepens it: each step a contact query (GJK, its shallow
    // refinement, EPA), maybe a second GJK for the normal, and up to
    // six probes.
    let linear =
        gjk_epa::cast_shape_directional(a, pa, ma.linear, b, pb, DVec3::ZERO, &CastOptions::default());
    let turning = gjk_epa::cast_shape_nonlinear_directional(a, &ma, b, &mb, &CastOptions::default());
    for h in [linear, turning] {
        o.queries += 1;
        let Some(h) = h else { continue };
        if h.status == CastStatus::InvalidInput {
            o.invalid += 1;
            continue;
        }
        let finite = h.normal.is_finite() && h.point_a.is_finite() && h.point_b.is_finite();
        let per_step = 3 * gjk_core::DEFAULT_MAX_ITERATIONS + gjk_epa::tuning::DEFAULT_EPA_ITERATIONS + 24;
        let bound = gjk_shapes::tuning::NONLINEAR_CAST_MAX_STEPS * per_step + 24;
        if !finite || !(0.0..=1.0).contains(&h.fraction) || h.iterations > bound {
            o.non_finite += 1;
        }
    }
}

/// A 3D shape with faces: what the contact and the manifold take.
trait Faced: Shape<DVec3> + PolyhedronFaces<DVec3> {}
impl<T: Shape<DVec3> + PolyhedronFaces<DVec3>> Faced for T {}

/// A contact manifold's outputs are finite where they must be: the normal
/// always (zero for a contact without one), each point and depth, and at
/// most [`gjk_epa::MAX_MANIFOLD_POINTS`] points, their ids distinct; counts
/// it (a malformed one as `non_finite`).
fn count_manifold<V: Vector>(m: &gjk_epa::ContactManifold<V>, o: &mut Outcome) {
    o.queries += 1;
    let pts = m.points();
    let finite = m.normal.is_finite()
        && m.len() <= gjk_epa::MAX_MANIFOLD_POINTS
        && pts.iter().all(|p| p.point_a.is_finite() && p.point_b.is_finite() && p.depth.is_finite())
        && pts.iter().enumerate().all(|(i, p)| pts[..i].iter().all(|q| q.id != p.id));
    o.non_finite += u64::from(!finite);
}

/// The contact and its manifold (speculative distance 0.1) of two posed
/// 3D shapes with faces.
fn check_manifold3<A, B>(a: &A, pa: &Pose<DVec3>, b: &B, pb: &Pose<DVec3>, o: &mut Outcome)
where
    A: Shape<DVec3> + PolyhedronFaces<DVec3> + ?Sized,
    B: Shape<DVec3> + PolyhedronFaces<DVec3> + ?Sized,
{
    let c = gjk_epa::contact(a, pa, b, pb);
    count_manifold(&gjk_epa::polytope_manifold(a, pa, b, pb, &c, 0.1), o);
}

/// The contact and its manifold (speculative distance 0.1) of two posed
/// polygons.
fn check_manifold2<V: Space + Vector2 + EpaSpace>(
    a: &ConvexPolygon<V>,
    pa: &Pose<V>,
    b: &ConvexPolygon<V>,
    pb: &Pose<V>,
    o: &mut Outcome,
) {
    let c = gjk_epa::contact(a, pa, b, pb);
    count_manifold(&gjk_epa::polygon_manifold(a, pa, b, pb, &c, V::Scalar::from_f64(0.1)), o);
}

/// A 3D shape from the input (or `None` when its constructor rejects it,
/// which is itself the expected answer to bad sizes).
fn shape3(b: &mut Bytes) -> Option<Box<dyn Faced>> {
    Some(match b.byte() % 5 {
        0 => Box::new(Ball::new(b.float()).ok()?),
        1 => Box::new(Capsule::new(b.float(), b.float()).ok()?),
        2 => Box::new(Cuboid::new(DVec3::new(b.float(), b.float(), b.float())).ok()?),
        _ => {
            let n = b.count(12);
            let pts: Vec<DVec3> = (0..n).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
            Box::new(ConvexHull::new(&pts).ok()?)
        }
    })
}

fn pose3(b: &mut Bytes) -> Pose<DVec3> {
    let q = DQuat::from_xyzw(b.float(), b.float(), b.float(), b.float());
    let q = if q.is_finite() && q.length() > 1e-6 {
        q.normalize()
    } else if b.byte().is_multiple_of(2) {
        DQuat::IDENTITY
    } else {
        q
    };
    Pose::new(q, DVec3::new(b.float(), b.float(), b.float()))
}

/// A large point cloud from the input: [`CLOUD_MIN_POINTS`] to
/// [`CLOUD_MIN_POINTS`] + [`CLOUD_EXTRA_POINTS`] points from a seeded
/// stream, in one of six structures: an ellipsoid's surface (its axes
/// from the input: huge, tiny, zero or NaN among them), the same with
/// every point doubled (jittered by 1e-12 of the size or not at all), a
/// flat or nearly flat disc, a sphere snapped to a coarse grid (coplanar
/// runs and vertices of high degree), a sphere with a few points 1e6 times
/// further out, and a sphere far from its frame's origin. Then scaled by
/// 1e-6, 1 or 1e6. Also whether the cloud is *ordinary* (one scale within
/// it: `agree`).
fn cloud(b: &mut Bytes) -> (Vec<DVec3>, bool) {
    let n = CLOUD_MIN_POINTS + (usize::from(b.byte()) * 4 + usize::from(b.byte())) % (CLOUD_EXTRA_POINTS + 1);
    let mut x = u64::from_le_bytes([b.byte(), b.byte(), b.byte(), b.byte(), 1, 2, 3, 4]);
    let mut unit = move || {
        // xorshift, mapped to [-1, 1).
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    };
    let mut sphere = move || {
        // Rejection sampling, bounded: after 64 tries any direction does.
        for _ in 0..64 {
            let p = DVec3::new(unit(), unit(), unit());
            if p.length_squared() > 1e-4 && p.length_squared() <= 1.0 {
                return p.normalize();
            }
        }
        DVec3::X
    };
    let kind = b.byte() % 6;
    let axes = DVec3::new(b.float(), b.float(), b.float());
    let scale = [1e-6, 1.0, 1e6][usize::from(b.byte() % 3)];
    let jitter = if b.byte().is_multiple_of(2) { 0.0 } else { 1e-12 };
    let mut pts: Vec<DVec3> = Vec::with_capacity(n);
    while pts.len() < n {
        let p = sphere();
        match kind {
            0 => pts.push(p * axes),
            1 => {
                pts.push(p);
                pts.push(p + DVec3::splat(jitter));
            }
            2 => pts.push(DVec3::new(p.x, p.y, p.z * jitter)),
            3 => pts.push((p * 4.0).round() / 4.0),
            4 => pts.push(if pts.len().is_multiple_of(97) { p * 1e6 } else { p }),
            _ => pts.push(p + DVec3::new(1e6, -1e6, 0.5)),
        }
    }
    // Ordinary: one scale within the cloud (no far outliers, no far
    // offset, not flat, axes within 1e3 of each other and of 1).
    let moderate = |x: f64| (1e-3..=1e3).contains(&x.abs());
    let ordinary =
        matches!(kind, 1 | 3) || (kind == 0 && moderate(axes.x) && moderate(axes.y) && moderate(axes.z));
    (pts.iter().map(|p| *p * scale).collect(), ordinary)
}

/// Whether a distance result is finite where it must be (or says invalid
/// input); counts it.
fn count_distance<V: Vector>(r: &gjk_core::DistanceResult<V>, o: &mut Outcome) {
    o.queries += 1;
    if r.status == Status::InvalidInput {
        o.invalid += 1;
    } else if !(r.distance.is_finite()
        && r.normal.is_finite()
        && r.point_a.is_finite()
        && r.point_b.is_finite())
    {
        o.non_finite += 1;
    }
}

/// Whether a contact is finite where it must be (or says invalid input);
/// counts it.
fn count_contact<V: Vector>(c: &gjk_epa::Contact<V>, o: &mut Outcome) {
    o.queries += 1;
    if c.status == ContactStatus::InvalidInput {
        o.invalid += 1;
    } else if !(c.depth.is_finite() && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite())
    {
        o.non_finite += 1;
    }
}

/// Counts a warm-started distance that differs from the cold one on the
/// same frame by more than [`AGREE_REL`] of the distance plus four zero
/// bands (each query is exact to its relative tolerance, and measures
/// contact within its band): among `ordinary` pairs (each shape of one
/// scale, though the two may differ by 1e12) in `disagreeing`, else in
/// `disagreeing_extreme`. Queries that stopped at the iteration cap or
/// rejected the input are not compared.
fn agree<V: Vector>(
    warm: &gjk_core::DistanceResult<V>,
    cold: &gjk_core::DistanceResult<V>,
    ordinary: bool,
    o: &mut Outcome,
) {
    let settled = |s: Status| !matches!(s, Status::InvalidInput | Status::IterationLimit);
    if !(settled(warm.status) && settled(cold.status)) {
        return;
    }
    let rel = V::Scalar::from_f64(AGREE_REL);
    let four = V::Scalar::from_f64(4.0);
    let slack = rel * warm.distance.max(cold.distance) + four * warm.tolerance.max(cold.tolerance);
    let differ = (warm.distance - cold.distance).abs() > slack;
    if differ && EXPLAIN.load(Ordering::Relaxed) {
        std::eprintln!(
            "{}D {} pair differs:\n  warm {warm:?}\n  cold {cold:?}",
            V::DIM,
            if ordinary { "ordinary" } else { "extreme" }
        );
    }
    if ordinary {
        o.compared += 1;
        o.disagreeing += u64::from(differ);
    } else {
        o.disagreeing_extreme += u64::from(differ);
    }
}

/// How far apart, relative to the distance, a warm and a cold answer on
/// the same frame may lie (`agree`): a few hundred `f32` ulps.
pub const AGREE_REL: f64 = 1e-4;

/// Warm-started queries: `b` moved by `step` for [`WARM_FRAMES`] frames,
/// the distance, boolean and contact queries each carrying its cache from
/// frame to frame, the distance compared with the cold one (`agree`);
/// then the distance cache handed to the pair swapped (`b`–`a`) and to
/// `a`–`c` (its indices name other vertices, or none), as a caller that
/// reuses caches might. `ordinary`: whether `a` and `b` are each of one
/// scale, `c_ordinary` the same for `c`.
#[allow(clippy::too_many_arguments)]
pub fn check_warm<V>(
    a: &dyn Shape<V>,
    b: &dyn Shape<V>,
    c: &dyn Shape<V>,
    pose_a: &Pose<V>,
    pose_b: &Pose<V>,
    step: &Pose<V>,
    (ordinary, c_ordinary): (bool, bool),
    o: &mut Outcome,
) where
    V: Space + EpaSpace,
{
    let (gjk, epa) = (GjkConfig::default(), EpaConfig::default());
    let (mut dist, mut boolean, mut touch) = (SimplexCache::new(), SimplexCache::new(), SimplexCache::new());
    let mut at = *pose_b;
    for _ in 0..WARM_FRAMES {
        at = step.mul(&at);
        let warm = gjk_shapes::distance_with(a, pose_a, b, &at, &gjk, Some(&mut dist));
        let cold = gjk_shapes::distance(a, pose_a, b, &at);
        count_distance(&warm, o);
        count_distance(&cold, o);
        agree(&warm, &cold, ordinary, o);
        let _ = gjk_shapes::intersects_with(a, pose_a, b, &at, &gjk, Some(&mut boolean));
        count_contact(&gjk_epa::contact_with(a, pose_a, b, &at, &gjk, &epa, Some(&mut touch)), o);
    }
    // The caches handed on: the same answers as cold queries.
    let warm = gjk_shapes::distance_with(b, pose_a, a, &at, &gjk, Some(&mut dist));
    count_distance(&warm, o);
    agree(&warm, &gjk_shapes::distance(b, pose_a, a, &at), ordinary, o);
    let warm = gjk_shapes::distance_with(a, pose_a, c, &at, &gjk, Some(&mut dist));
    count_distance(&warm, o);
    agree(&warm, &gjk_shapes::distance(a, pose_a, c, &at), ordinary && c_ordinary, o);
    let _ = gjk_shapes::intersects_with(c, pose_a, b, &at, &gjk, Some(&mut boolean));
    count_contact(&gjk_epa::contact_with(b, pose_a, c, &at, &gjk, &epa, Some(&mut touch)), o);
}

/// The large hull pair (`cloud`) with the input's small shape beside
/// it: every posed query cold (`f64`), then warm-started sequences in
/// `f64` and `f32`.
fn check_clouds(b: &mut Bytes, o: &mut Outcome) {
    let ((p, p_ordinary), (q, q_ordinary)) = (cloud(b), cloud(b));
    let ordinary = p_ordinary && q_ordinary;
    let small = shape3(b);
    let (pa, pb) = (pose3(b), pose3(b));
    let angle = b.float() * 1e-2;
    let shift = DVec3::new(b.float(), b.float(), b.float()) * 1e-2;
    let step = Pose::new(DQuat::from_rotation_y(angle), shift);
    let rim = b.byte().is_multiple_of(2);
    if let (Ok(a), Ok(c)) = (ConvexHull::new(&p), ConvexHull::new(&q)) {
        o.climbing_hulls += u64::from(a.uses_hill_climbing()) + u64::from(c.uses_hill_climbing());
        check_shapes3(&a, &pa, &c, &pb, o);
        check_manifold3(&a, &pa, &c, &pb, o);
        // The input's small shape (any size) as the third, else A again.
        let (third, third_ordinary): (&dyn Shape<DVec3>, bool) = match &small {
            Some(s) => {
                check_shapes3(&a, &pa, &**s, &pb, o);
                check_manifold3(&a, &pa, &**s, &pb, o);
                (&**s as &dyn Shape<DVec3>, false)
            }
            None => (&a, p_ordinary),
        };
        check_warm(&a, &c, third, &pa, &pb, &step, (ordinary, third_ordinary), o);
    }
    // The same clouds in `f32` (the SIMD-lane path the benchmarks time).
    let narrow = |pts: &[DVec3]| pts.iter().map(|p| p.as_vec3()).collect::<Vec<Vec3>>();
    let pose = |p: &Pose<DVec3>| Pose::new(p.rotation.as_quat(), p.translation.as_vec3());
    if let (Ok(a), Ok(c)) = (ConvexHull::new(&narrow(&p)), ConvexHull::new(&narrow(&q))) {
        let radius = angle.abs() as f32 + 0.5;
        let ball = Ball::new(radius).ok();
        let (third, third_ordinary): (&dyn Shape<Vec3>, bool) = match &ball {
            Some(s) => (s, radius < 1e3),
            None => (&c, q_ordinary),
        };
        let step = Pose::new(Quat::from_rotation_y(angle as f32), shift.as_vec3());
        check_warm(&a, &c, third, &pose(&pa), &pose(&pb), &step, (ordinary, third_ordinary), o);
    }
    // The clouds in the plane as polygons, in `f64` and `f32`: their
    // shadows, or each point pushed along its own direction onto the
    // circle through the cloud's furthest point (every point then on the
    // outline: polygons that climb their boundary; a cloud far from the
    // origin gives a thin arc).
    let flat = |pts: &[DVec3]| {
        let r = pts.iter().fold(0.0, |r: f64, p| r.max(p.length()));
        pts.iter()
            .map(|p| if rim { p.truncate().normalize_or_zero() * r } else { p.truncate() })
            .collect::<Vec<DVec2>>()
    };
    let (p2, q2) = (flat(&p), flat(&q));
    let place = |p: &Pose<DVec3>| Pose::from_angle_translation(p.rotation.z, p.translation.truncate());
    if let (Ok(a), Ok(c)) = (ConvexPolygon::new(&p2), ConvexPolygon::new(&q2)) {
        o.climbing_polygons += u64::from(a.vertices().len() > gjk_shapes::tuning::POLYGON_SCAN_LIMIT);
        let step = Pose::from_angle_translation(angle, shift.truncate());
        check_warm(&a, &c, &a, &place(&pa), &place(&pb), &step, (ordinary, p_ordinary), o);
        check_manifold2(&a, &place(&pa), &c, &place(&pb), o);
    }
    let narrow2 = |pts: &[DVec2]| pts.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>();
    if let (Ok(a), Ok(c)) = (ConvexPolygon::new(&narrow2(&p2)), ConvexPolygon::new(&narrow2(&q2))) {
        let place32 = |p: &Pose<DVec3>| {
            Pose::from_angle_translation(p.rotation.z as f32, p.translation.truncate().as_vec2())
        };
        let step = Pose::from_angle_translation(angle as f32, shift.truncate().as_vec2());
        check_warm(&c, &a, &c, &place32(&pa), &place32(&pb), &step, (ordinary, q_ordinary), o);
        check_manifold2(&c, &place32(&pa), &a, &place32(&pb), o);
    }
}

/// Runs every query on the pair the bytes describe. Panics (the fuzzer's
/// failure signal) only if a query does; returns what it saw.
pub fn fuzz_one(data: &[u8]) -> Outcome {
    let mut b = Bytes { data, at: 0 };
    let mut o = Outcome::default();
    small_shapes(&mut b, &mut o);
    // The large clouds last, so that the sections before read the same
    // bytes as before they were added.
    if b.byte().is_multiple_of(CLOUD_ONE_IN) {
        check_clouds(&mut b, &mut o);
    }
    o
}

/// [`fuzz_one`]'s first sections: the posed small shapes, raw point sets,
/// box views and polygons.
fn small_shapes(bytes: &mut Bytes, o: &mut Outcome) {
    let b = bytes;
    // 3D posed shapes, f64.
    if let (Some(a), Some(c)) = (shape3(b), shape3(b)) {
        let (pa, pc) = (pose3(b), pose3(b));
        check_shapes3(&*a, &pa, &*c, &pc, o);
        check_manifold3(&*a, &pa, &*c, &pc, o);
        // A cylinder in A's place and a cone in B's, sized by the poses'
        // translations (no bytes read: the sections after read what they
        // did before, so the seeds kept below still replay their inputs).
        let (h, r) = (pa.translation.x.abs(), pc.translation.y.abs());
        if let (Ok(cylinder), Ok(cone)) = (Cylinder::new(h, r), Cone::new(r, h)) {
            check_shapes3(&cylinder, &pa, &*c, &pc, o);
            check_manifold3(&cylinder, &pa, &*c, &pc, o);
            check_shapes3(&*a, &pa, &cone, &pc, o);
            check_manifold3(&*a, &pa, &cone, &pc, o);
        }
    }
    // Raw point sets through gjk-core, f32 and f64, 2D and 3D.
    let n = b.count(10);
    let m = b.count(10);
    let p3: Vec<DVec3> = (0..n).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
    let q3: Vec<DVec3> = (0..m).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
    let f3: Vec<Vec3> = p3.iter().map(|p| p.as_vec3()).collect();
    let g3: Vec<Vec3> = q3.iter().map(|p| p.as_vec3()).collect();
    let p2: Vec<DVec2> = p3.iter().map(|p| p.truncate()).collect();
    let q2: Vec<DVec2> = q3.iter().map(|p| p.truncate()).collect();
    let f2: Vec<Vec2> = f3.iter().map(|p| p.truncate()).collect();
    let g2: Vec<Vec2> = g3.iter().map(|p| p.truncate()).collect();
    let mut raw = |d: f64, n_ok: bool, st: Status| {
        o.queries += 1;
        if st == Status::InvalidInput {
            o.invalid += 1;
        } else if !(d.is_finite() && n_ok) {
            o.non_finite += 1;
        }
    };
    let r = gjk_core::distance(p3.as_slice(), q3.as_slice());
    raw(r.distance, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(f3.as_slice(), g3.as_slice());
    raw(r.distance as f64, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(p2.as_slice(), q2.as_slice());
    raw(r.distance, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(f2.as_slice(), g2.as_slice());
    raw(r.distance as f64, r.normal.is_finite(), r.status);
    for v in [
        gjk_core::distance_value(p3.as_slice(), q3.as_slice()),
        gjk_core::distance_value(f2.as_slice(), g2.as_slice()).map(f64::from),
    ] {
        o.queries += 1;
        match v {
            Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
            Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
            _ => {}
        }
    }
    let _ = gjk_core::try_intersects(p3.as_slice(), q3.as_slice());
    let _ = gjk_core::try_intersects(f2.as_slice(), g2.as_slice());
    let _ = gjk_core::cast_ray(
        p3.as_slice(),
        DVec3::new(b.float(), b.float(), b.float()),
        DVec3::X,
        10.0,
        b.float().abs(),
    );
    // The box separating-axis distance on raw views (any axes, extents
    // and centres, as a caller of the public function could pass them):
    // `None` or a finite distance, never NaN.
    let view = |b: &mut Bytes| gjk_shapes::internal::BoxView {
        half: DVec3::new(b.float(), b.float(), b.float()),
        axes: [0; 3].map(|_| DVec3::new(b.float(), b.float(), b.float())),
        center: DVec3::new(b.float(), b.float(), b.float()),
    };
    let (va, vb) = (view(b), view(b));
    let narrow = |v: &gjk_shapes::internal::BoxView<DVec3>| gjk_shapes::internal::BoxView {
        half: v.half.as_vec3(),
        axes: v.axes.map(|a| a.as_vec3()),
        center: v.center.as_vec3(),
    };
    for d in [
        gjk_shapes::internal::box_gap(&va, &vb),
        gjk_shapes::internal::box_gap(&narrow(&va), &narrow(&vb)).map(f64::from),
    ] {
        o.queries += 1;
        if d.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            o.non_finite += 1;
        }
    }
    // 2D polygons through the posed API and EPA.
    if let (Ok(pa), Ok(pb)) = (ConvexPolygon::new(&f2), ConvexPolygon::new(&g2)) {
        let pose =
            Pose::from_angle_translation(b.float() as f32, Vec2::new(b.float() as f32, b.float() as f32));
        let c = gjk_epa::contact(&pa, &Pose::IDENTITY, &pb, &pose);
        o.queries += 1;
        if c.status != ContactStatus::InvalidInput && !(c.depth.is_finite() && c.normal.is_finite()) {
            o.non_finite += 1;
        }
        count_manifold(&gjk_epa::polygon_manifold(&pa, &Pose::IDENTITY, &pb, &pose, &c, 0.1), o);
        // The distance alone (the polygon boundary walk and separating-axis
        // test near contact), and the boolean test.
        o.queries += 1;
        match gjk_shapes::distance_value(&pa, &Pose::IDENTITY, &pb, &pose) {
            Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
            Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
            _ => {}
        }
        o.queries += 1;
        let _ = gjk_shapes::try_intersects(&pa, &Pose::IDENTITY, &pb, &pose);
        // The walk's closest features on the views, from any direction:
        // `None` or finite.
        let placed = gjk_shapes::Placed::new(&pb, &pose);
        if let (Some(va), Some(vb)) = (pa.core_polygon(), placed.core_polygon()) {
            let d = Vec2::new(b.float() as f32, b.float() as f32);
            o.queries += 1;
            if let Some(c) = gjk_shapes::internal::polygon_closest(&va, &vb, d) {
                let finite = c.separation.is_finite()
                    && c.normal.is_finite()
                    && c.point_a.is_finite()
                    && c.point_b.is_finite();
                o.non_finite += u64::from(!finite);
            }
        }
    }
}

/// A seeded stream of pseudo-random inputs (xorshift), for the binary and
/// the tests.
pub fn random_input(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}
