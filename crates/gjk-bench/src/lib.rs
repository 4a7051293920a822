//! Benchmarks of the gjk crates against parry on the Barycode paper's data
//! sets (Section IV): random convex polygons (4–24 vertices) and polyhedra
//! (8–1024 vertices) under random poses, split into distant, touching and
//! overlapping sets; plus box–box and capsule–hull pairs. Seeded: every run
//! uses the same data. Peers run on the same data in the same process,
//! interleaved with ours; medians are reported.

pub mod curved;
pub mod manifolds;

use std::hint::black_box;
use std::time::Instant;

use gjk_core::SimplexCache;
use gjk_core::glam::{DVec2, DVec3, Quat, Vec2, Vec3};
use gjk_core::internal::minkowski_support;
use gjk_shapes::{Capsule, ConvexHull, ConvexPolygon, CoreOf, Cuboid, Pose, Transformed};
use gjk_testkit::Rng;

/// The query kinds compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// The distance alone (the paper's "level 2"; parry's
    /// `distance_support_map_support_map` returns just that).
    Distance,
    /// Our full distance result (closest points, normal, simplex, verified
    /// touching: the paper's "level 3") against the same parry call.
    DistanceFull,
    /// [`Query::DistanceFull`] by `gjk_core::distance` on world-space
    /// point slices (made before timing, as a user who brings points
    /// would), against the same parry call on posed shapes.
    DistanceSlices,
    /// The boolean test.
    Intersects,
    /// Contact (penetration depth when overlapping).
    Contact,
}

impl Query {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Query::Distance => "distance",
            Query::DistanceFull => "distance-full",
            Query::DistanceSlices => "distance-full-slices",
            Query::Intersects => "intersects",
            Query::Contact => "contact",
        }
    }
}

/// One result row.
#[derive(Clone, Debug)]
pub struct Row {
    /// Data set (`distant`, `touching`, `overlap`, `box-box`, …).
    pub set: String,
    /// 2 or 3.
    pub dim: u32,
    /// Vertices per shape.
    pub vertices: usize,
    /// `distance`, `intersects` or `contact`.
    pub query: String,
    /// Our median time per query (ns).
    pub ours_ns: f64,
    /// The peer's median time per query (ns), or the reference time for the warm, floor and batch rows.
    pub peer_ns: Option<f64>,
    /// Mean support calls of our distance query (NaN when not measured).
    pub iterations: f64,
    /// Largest error against the oracle (distances) or count of wrong answers (booleans).
    pub max_abs_error: Option<f64>,
}

impl Row {
    /// `peer_ns / ours_ns`: above 1 we are faster.
    pub fn ratio(&self) -> Option<f64> {
        self.peer_ns.map(|p| p / self.ours_ns)
    }
}

/// Run sizes.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Pairs per (set, size).
    pub pairs: usize,
    /// Pairs per set for hulls of 256+ vertices.
    pub big_pairs: usize,
    /// Distinct shapes per size (pairs draw from this pool).
    pub pool: usize,
    /// Timed repetitions (the median is reported).
    pub reps: usize,
    /// Pairs checked against the oracle per set.
    pub oracle_pairs: usize,
}

impl Plan {
    /// The full run: 1000 pairs per set, 11 repetitions.
    pub const FULL: Plan = Plan { pairs: 1000, big_pairs: 1000, pool: 64, reps: 11, oracle_pairs: 20 };
    /// `--quick`: a few seconds.
    pub const QUICK: Plan = Plan { pairs: 250, big_pairs: 100, pool: 24, reps: 5, oracle_pairs: 6 };
}

/// Largest polygons timed on world-space point slices too
/// ([`Query::DistanceSlices`]): the sizes a user hands in as raw points.
pub const SLICE_VERTICES_2D: usize = 8;
/// Largest hulls timed on world-space point slices too.
pub const SLICE_VERTICES_3D: usize = 64;

/// The three configurations of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Separated by 0.1–3 beyond the bounding radii.
    Distant,
    /// Moved along the closest points until touching.
    Touching,
    /// An interior point of B placed on one of A.
    Overlap,
    /// Not the paper's: a touching pair moved on by 2–5 % of the smaller
    /// bounding radius along the closest points, the shallow overlap of
    /// resting contacts (no ball test decides these; see `ball_exits`).
    Shallow,
    /// Not the paper's: a touching pair moved apart by 5–50 % of the
    /// smaller bounding radius along the closest points, kept where the
    /// bounding balls still overlap: shapes apart that no ball test
    /// decides, so every query runs GJK.
    Near,
}
/// The paper's three configurations, in report order.
pub const KINDS: [Kind; 3] = [Kind::Distant, Kind::Touching, Kind::Overlap];
/// Configurations benchmarked beside the paper's (not in the targets).
pub const EXTRA_KINDS: [Kind; 2] = [Kind::Shallow, Kind::Near];

impl Kind {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Distant => "distant",
            Kind::Touching => "touching",
            Kind::Overlap => "overlap",
            Kind::Shallow => "shallow",
            Kind::Near => "near",
        }
    }

    /// Whether the set's pairs overlap (their distance is 0).
    pub fn overlapping(name: &str) -> bool {
        name == "overlap" || name == "shallow"
    }
}

/// Whether the shapes' balls leave the pair at `pose` undecided (the
/// near sets' rule: every query on them runs GJK).
fn balls_undecided<V: gjk_shapes::Space, S: gjk_shapes::Shape<V>>(a: &S, b: &S, pose: &Pose<V>) -> bool {
    let (a, b) = (gjk_shapes::CoreOf(a), gjk_shapes::CoreOf(gjk_shapes::Placed::new(b, pose)));
    gjk_core::internal::ball_test(
        &a,
        &b,
        <V::Scalar as gjk_core::Real>::ZERO,
        &gjk_core::GjkConfig::default(),
    ) == gjk_core::internal::BallTest::Unknown
}

/// Whether the hulls of two point sets overlap (f64 GJK, only used to
/// build the data).
fn overlaps<V: gjk_core::Vector>(a: &[V], b: &[V]) -> bool {
    gjk_core::distance(a, b).status == gjk_core::Status::Intersecting
}

/// The seed of the compare binary's set `k` (in [`KINDS`] then
/// [`EXTRA_KINDS`] order) of size index `i`, from `base` (1000 in 2D, 2000
/// in 3D): the paper's sets keep the seeds they always had, the extra ones
/// get their own.
pub fn set_seed(base: u64, i: usize, k: usize) -> u64 {
    if k < KINDS.len() { base + (i * KINDS.len() + k) as u64 } else { base + 500 + (i * 8 + k) as u64 }
}

/// Consumes a benchmarked value (after `black_box`).
#[inline(always)]
fn keep<T>(_: T) {}

/// Median of a sample.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `f` over `n` items: nanoseconds per item.
pub fn per_item(n: usize, mut f: impl FnMut(usize)) -> f64 {
    let t = Instant::now();
    for i in 0..n {
        f(i);
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

/// Times ours and the peer interleaved, `reps` times; medians.
pub fn race(reps: usize, n: usize, mut ours: impl FnMut(usize), mut peer: impl FnMut(usize)) -> (f64, f64) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    // One untimed pass each to warm caches.
    per_item(n, &mut ours);
    per_item(n, &mut peer);
    for _ in 0..reps {
        a.push(per_item(n, &mut ours));
        b.push(per_item(n, &mut peer));
    }
    (median(a), median(b))
}

/// [`Query::DistanceSlices`] against `peer`: `gjk_core::distance` on each
/// pair's world point slices (A's local points, B's placed by `place`),
/// made before timing.
fn race_slices<V: gjk_core::Vector, P>(
    plan: &Plan,
    local: &[Vec<V>],
    pairs: &[(usize, usize, P)],
    place: impl Fn(&P, V) -> V,
    peer: impl FnMut(usize),
) -> (f64, f64) {
    let world: Vec<(Vec<V>, Vec<V>)> = pairs
        .iter()
        .map(|(a, b, pose)| (local[*a].clone(), local[*b].iter().map(|q| place(pose, *q)).collect()))
        .collect();
    let ours = |k: usize| {
        let (wa, wb) = &world[k];
        black_box(gjk_core::distance(wa.as_slice(), wb.as_slice()));
    };
    race(plan.reps, pairs.len(), ours, peer)
}

/// A random interior point of a point set's hull (positive weights).
fn interior<V>(rng: &mut Rng, pts: &[V]) -> V
where
    V: Copy + std::iter::Sum<V> + std::ops::Mul<f32, Output = V>,
{
    let w: Vec<f32> = pts.iter().map(|_| rng.range(0.1, 1.0) as f32).collect();
    let s: f32 = w.iter().sum();
    pts.iter().zip(&w).map(|(p, w)| *p * (*w / s)).sum()
}

// ------------------------------------------------------------------ 2D ---

/// A random convex polygon in the paper's style: `n` points on an ellipse.
pub fn polygon_points(rng: &mut Rng, n: usize) -> Vec<Vec2> {
    gjk_testkit::polygon(rng, n).iter().map(|p| p.as_vec2()).collect()
}

/// A 2D data set: a pool of shapes (ours and parry's) and the pairs drawn from it.
pub struct Set2 {
    /// Our shapes.
    pub ours: Vec<ConvexPolygon<Vec2>>,
    /// Parry's shapes (same points).
    pub peer: Vec<parry2d::shape::ConvexPolygon>,
    /// The shapes' points in their local frames.
    pub local: Vec<Vec<Vec2>>,
    /// (shape a, shape b, pose of b relative to a)
    pub pairs: Vec<(usize, usize, Pose<Vec2>)>,
}

impl Set2 {
    /// Pair `k`'s B vertices in A's frame (f64, for the oracle).
    pub fn world_b(&self, k: usize) -> Vec<DVec2> {
        let (_, b, pose) = self.pairs[k];
        self.local[b].iter().map(|p| pose.transform_point(*p).as_dvec2()).collect()
    }
    /// Pair `k`'s A vertices (f64, for the oracle).
    pub fn world_a(&self, k: usize) -> Vec<DVec2> {
        self.local[self.pairs[k].0].iter().map(|p| p.as_dvec2()).collect()
    }
}

/// Our 2D pose as parry's.
pub fn parry_pose2(p: &Pose<Vec2>) -> parry2d::math::Pose {
    parry2d::math::Pose::from_parts(p.translation, parry2d::math::Rot2::new(p.rotation.angle()))
}

/// Builds a seeded 2D set of `n`-gons in configuration `kind`.
pub fn make_set2(seed: u64, n: usize, kind: Kind, plan: &Plan) -> Set2 {
    let mut rng = Rng::new(seed);
    let local: Vec<Vec<Vec2>> = (0..plan.pool).map(|_| polygon_points(&mut rng, n)).collect();
    let ours: Vec<ConvexPolygon<Vec2>> =
        local.iter().map(|p| ConvexPolygon::new(p).expect("valid")).collect();
    let peer =
        local.iter().map(|p| parry2d::shape::ConvexPolygon::from_convex_hull(p).expect("valid")).collect();
    let radius = |i: usize| local[i].iter().map(|p| p.length()).fold(0.0, f32::max);
    let mut pairs = Vec::with_capacity(plan.pairs);
    while pairs.len() < plan.pairs {
        let (a, b) = (rng.usize(0, plan.pool - 1), rng.usize(0, plan.pool - 1));
        let angle = rng.range(0.0, std::f64::consts::TAU) as f32;
        let t = match kind {
            Kind::Overlap => {
                // A random interior point of B placed on one of A: overlap.
                let ia = interior(&mut rng, &local[a]);
                let ib = interior(&mut rng, &local[b]);
                ia - Pose::from_angle_translation(angle, Vec2::ZERO).transform_vector(ib)
            }
            _ => rng.unit2().as_vec2() * (radius(a) + radius(b) + rng.range(0.1, 3.0) as f32),
        };
        let mut pose = Pose::from_angle_translation(angle, t);
        if matches!(kind, Kind::Touching | Kind::Shallow | Kind::Near) {
            // Shift B onto A along the oracle's closest points.
            let wa: Vec<DVec2> = local[a].iter().map(|p| p.as_dvec2()).collect();
            let wb: Vec<DVec2> = local[b].iter().map(|p| pose.transform_point(*p).as_dvec2()).collect();
            let (_, pa, pb) = gjk_testkit::brute_closest_2d(&wa, &wb);
            pose.translation += (pa - pb).as_vec2();
            if kind == Kind::Near {
                let gap = rng.range(0.05, 0.5) as f32 * radius(a).min(radius(b));
                pose.translation -= (pa - pb).normalize_or_zero().as_vec2() * gap;
                // Only pairs no ball test decides (their outer balls overlap).
                if !balls_undecided(&ours[a], &ours[b], &pose) {
                    continue;
                }
            }
            if kind == Kind::Shallow {
                let depth = rng.range(0.02, 0.05) as f32 * radius(a).min(radius(b));
                let step = (pa - pb).normalize_or_zero().as_vec2() * depth;
                // Along the closest points the move need not enter a sharp
                // corner: keep pairs that overlap at half the depth already.
                let moved = |f: f32| -> Vec<DVec2> {
                    let p = Pose::from_angle_translation(angle, pose.translation + step * f);
                    local[b].iter().map(|v| p.transform_point(*v).as_dvec2()).collect()
                };
                if !overlaps(&wa, &moved(0.5)) || !overlaps(&wa, &moved(1.0)) {
                    continue;
                }
                pose.translation += step;
            }
        }
        pairs.push((a, b, pose));
    }
    Set2 { ours, peer, local, pairs }
}

// ------------------------------------------------------------------ 3D ---

/// A 3D data set: a pool of hulls (ours and parry's) and the pairs drawn from it.
pub struct Set3 {
    /// Our hulls.
    pub ours: Vec<ConvexHull<Vec3>>,
    /// Parry's polyhedra (same points).
    pub peer: Vec<parry3d::shape::ConvexPolyhedron>,
    /// The hulls' points in their local frames.
    pub local: Vec<Vec<Vec3>>,
    /// (shape a, shape b, pose of b in a's frame).
    pub pairs: Vec<(usize, usize, Pose<Vec3>)>,
}

fn parry_pose3(p: &Pose<Vec3>) -> parry3d::math::Pose {
    parry3d::math::Pose::from_parts(p.translation, p.rotation)
}

/// Builds a seeded 3D set of `n`-vertex hulls in configuration `kind`.
pub fn make_set3(seed: u64, n: usize, kind: Kind, plan: &Plan) -> Set3 {
    let mut rng = Rng::new(seed);
    let count = if n >= 256 { plan.big_pairs } else { plan.pairs };
    let local: Vec<Vec<Vec3>> = (0..plan.pool)
        .map(|_| gjk_testkit::polyhedron(&mut rng, n).iter().map(|p| p.as_vec3()).collect())
        .collect();
    let ours: Vec<ConvexHull<Vec3>> = local.iter().map(|p| ConvexHull::new(p).expect("valid")).collect();
    let peer =
        local.iter().map(|p| parry3d::shape::ConvexPolyhedron::from_convex_hull(p).expect("valid")).collect();
    let radius = |i: usize| local[i].iter().map(|p| p.length()).fold(0.0, f32::max);
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count {
        let (a, b) = (rng.usize(0, plan.pool - 1), rng.usize(0, plan.pool - 1));
        let q = rng.quat().as_quat();
        let t = match kind {
            Kind::Overlap => {
                let ia = interior(&mut rng, &local[a]);
                let ib = interior(&mut rng, &local[b]);
                ia - q * ib
            }
            _ => rng.unit3().as_vec3() * (radius(a) + radius(b) + rng.range(0.1, 3.0) as f32),
        };
        let mut pose = Pose::new(q, t);
        if matches!(kind, Kind::Touching | Kind::Shallow | Kind::Near) {
            // Shift B onto A along the closest points (f64 GJK on the
            // world vertices; only used to build the data).
            let wa: Vec<DVec3> = local[a].iter().map(|p| p.as_dvec3()).collect();
            let wb: Vec<DVec3> = local[b].iter().map(|p| pose.transform_point(*p).as_dvec3()).collect();
            let r = gjk_core::distance(wa.as_slice(), wb.as_slice());
            pose.translation += (r.point_a - r.point_b).as_vec3();
            if kind == Kind::Near {
                let gap = rng.range(0.05, 0.5) as f32 * radius(a).min(radius(b));
                pose.translation -= (r.point_a - r.point_b).normalize_or_zero().as_vec3() * gap;
                // Only pairs no ball test decides (their outer balls overlap).
                if !balls_undecided(&ours[a], &ours[b], &pose) {
                    continue;
                }
            }
            if kind == Kind::Shallow {
                let depth = rng.range(0.02, 0.05) as f32 * radius(a).min(radius(b));
                let step = (r.point_a - r.point_b).normalize_or_zero().as_vec3() * depth;
                // As in 2D: keep pairs that overlap at half the depth already.
                let moved = |f: f32| -> Vec<DVec3> {
                    let p = Pose::new(q, pose.translation + step * f);
                    local[b].iter().map(|v| p.transform_point(*v).as_dvec3()).collect()
                };
                if !overlaps(&wa, &moved(0.5)) || !overlaps(&wa, &moved(1.0)) {
                    continue;
                }
                pose.translation += step;
            }
        }
        pairs.push((a, b, pose));
    }
    Set3 { ours, peer, local, pairs }
}

/// The plan of the near-contact sets (`gjk-bench near-contact`): 1 000
/// touching pairs (300 of 256-vertex hulls) from 16 shapes.
pub const NEAR_PLAN: Plan = Plan { pairs: 1000, big_pairs: 300, pool: 16, reps: 1, oracle_pairs: 0 };

/// The seed of near-contact set `s` of `n`-vertex shapes in `dim` (2 or 3)
/// dimensions.
pub fn near_seed(dim: usize, n: usize, s: u64) -> u64 {
    9_000_000 + 1_000_000 * (dim as u64).saturating_sub(2) + s * 1000 + n as u64
}

/// A near-contact band for a pair whose largest coordinate is `largest`:
/// `256 ε` (f32) times twice it, about the query's own zero band.
fn near_band(largest: f64) -> f64 {
    256.0 * f64::from(f32::EPSILON) * 2.0 * largest
}

/// A touching pair's world vertices (A's local, B's under `pose`), in f64.
fn placed<V: Copy, W>(
    local_a: &[V],
    local_b: &[V],
    f: impl Fn(V) -> W + Copy,
    pose: impl Fn(V) -> V,
) -> (Vec<W>, Vec<W>) {
    (local_a.iter().map(|q| f(*q)).collect(), local_b.iter().map(|q| f(pose(*q))).collect())
}

/// Pair `i` of a touching 3D set moved by `k` bands (a band: `256 ε`
/// (f32) times twice the pair's largest coordinate) along the line from
/// A's centroid to B's (apart for `k > 0`, together for `k < 0`): B's new
/// pose, the moved vertices of A and B in f64, and the band.
pub fn moved_by_bands3(set: &Set3, i: usize, k: f64) -> (Pose<Vec3>, Vec<DVec3>, Vec<DVec3>, f64) {
    let (a, b, p) = &set.pairs[i];
    let (wa, wb) = placed(&set.local[*a], &set.local[*b], |q: Vec3| q.as_dvec3(), |q| p.transform_point(q));
    let dir = (gjk_testkit::centroid3(&wb) - gjk_testkit::centroid3(&wa)).normalize_or_zero();
    let band = near_band(wa.iter().chain(&wb).map(|q| q.abs().max_element()).fold(0.0, f64::max));
    let mut pose = *p;
    pose.translation += (dir * band * k).as_vec3();
    let (wa, wb) =
        placed(&set.local[*a], &set.local[*b], |q: Vec3| q.as_dvec3(), |q| pose.transform_point(q));
    (pose, wa, wb, band)
}

/// [`moved_by_bands3`] for a 2D set.
pub fn moved_by_bands2(set: &Set2, i: usize, k: f64) -> (Pose<Vec2>, Vec<DVec2>, Vec<DVec2>, f64) {
    let (a, b, p) = &set.pairs[i];
    let (wa, wb) = placed(&set.local[*a], &set.local[*b], |q: Vec2| q.as_dvec2(), |q| p.transform_point(q));
    let dir = (gjk_testkit::centroid2(&wb) - gjk_testkit::centroid2(&wa)).normalize_or_zero();
    let band = near_band(wa.iter().chain(&wb).map(|q| q.abs().max_element()).fold(0.0, f64::max));
    let mut pose = *p;
    pose.translation += (dir * band * k).as_vec2();
    let (wa, wb) =
        placed(&set.local[*a], &set.local[*b], |q: Vec2| q.as_dvec2(), |q| pose.transform_point(q));
    (pose, wa, wb, band)
}

/// Exact distance between two disjoint hulls from their faces: every
/// vertex against every face triangle (both ways) and every edge pair.
pub fn hull_oracle(a: &ConvexHull<Vec3>, b: &ConvexHull<Vec3>, pose_b: &Pose<Vec3>) -> f64 {
    let va: Vec<DVec3> = a.vertices().iter().map(|p| p.as_dvec3()).collect();
    let vb: Vec<DVec3> = b.vertices().iter().map(|p| pose_b.transform_point(*p).as_dvec3()).collect();
    let mut best = f64::INFINITY;
    for (verts, faces, others) in [(&va, a.faces(), &vb), (&vb, b.faces(), &va)] {
        for f in faces {
            let [x, y, z] = f.map(|i| verts[i as usize]);
            for &p in others.iter() {
                best = best.min((gjk_testkit::point_triangle(p, x, y, z) - p).length_squared());
            }
        }
    }
    let edges = |verts: &Vec<DVec3>, faces: &[[u32; 3]]| -> Vec<(DVec3, DVec3)> {
        faces
            .iter()
            .flat_map(|f| (0..3).map(move |k| (f[k], f[(k + 1) % 3])))
            .filter(|(i, j)| i < j)
            .map(|(i, j)| (verts[i as usize], verts[j as usize]))
            .collect()
    };
    for (p0, p1) in edges(&va, a.faces()) {
        for (q0, q1) in edges(&vb, b.faces()) {
            best = best.min(gjk_testkit::segment_segment_sq3(p0, p1, q0, q1));
        }
    }
    best.sqrt()
}

/// Runs every comparison of one 2D set.
pub fn bench_set2(name: &str, n: usize, set: &Set2, plan: &Plan, rows: &mut Vec<Row>) {
    let m = set.pairs.len();
    let ppose: Vec<parry2d::math::Pose> = set.pairs.iter().map(|p| parry_pose2(&p.2)).collect();
    let id = Pose::IDENTITY;
    let mut iters = 0u64;
    for (a, b, pose) in &set.pairs {
        iters += gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).iterations as u64;
    }
    // Oracle: brute force on the world vertices (f64).
    let mut err: f64 = 0.0;
    for k in 0..plan.oracle_pairs.min(m) {
        let (a, b, pose) = set.pairs[k];
        let ours = gjk_shapes::distance(&set.ours[a], &id, &set.ours[b], &pose).distance as f64;
        let oracle = if Kind::overlapping(name) {
            0.0
        } else {
            gjk_testkit::brute_distance_2d(&set.world_a(k), &set.world_b(k))
        };
        let oracle = if name == "touching" { oracle.min(ours.abs()).min(oracle) } else { oracle };
        err = err.max((ours - oracle).abs());
    }
    // The distance alone must be the full query's distance: any difference
    // counts in the error of both rows.
    for (a, b, pose) in set.pairs.iter().take(plan.oracle_pairs) {
        let full = gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).distance;
        let value =
            gjk_shapes::distance_value(&set.ours[*a], &id, &set.ours[*b], pose).unwrap_or(f32::INFINITY);
        err = err.max((value - full).abs() as f64);
    }
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            keep(black_box(gjk_shapes::distance_value(&set.ours[*a], &id, &set.ours[*b], pose)));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry2d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    rows.push(row(name, 2, n, Query::Distance, o, Some(p), iters as f64 / m as f64, Some(err)));
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).distance);
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry2d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    rows.push(row(name, 2, n, Query::DistanceFull, o, Some(p), iters as f64 / m as f64, Some(err)));
    if n <= SLICE_VERTICES_2D {
        let peer = |k: usize| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry2d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        };
        let (o, p) = race_slices(plan, &set.local, &set.pairs, |pose, q| pose.transform_point(q), peer);
        rows.push(row(name, 2, n, Query::DistanceSlices, o, Some(p), f64::NAN, None));
    }
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_shapes::intersects(&set.ours[*a], &id, &set.ours[*b], pose));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry2d::query::details::intersection_test_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    let wrong = set.pairs.iter().filter(|(a, b, pose)| {
        let hit = gjk_shapes::intersects(&set.ours[*a], &id, &set.ours[*b], pose);
        name != "touching" && hit != Kind::overlapping(name)
    });
    rows.push(row(name, 2, n, Query::Intersects, o, Some(p), f64::NAN, Some(wrong.count() as f64)));
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_epa::contact_within(&set.ours[*a], &id, &set.ours[*b], pose, 0.0).map(|c| c.depth));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry2d::query::details::contact_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
                0.0,
            ));
        },
    );
    rows.push(row(name, 2, n, Query::Contact, o, Some(p), f64::NAN, None));
}

/// Runs every comparison of one 3D hull set.
pub fn bench_set3(name: &str, n: usize, set: &Set3, plan: &Plan, rows: &mut Vec<Row>) {
    let m = set.pairs.len();
    let ppose: Vec<parry3d::math::Pose> = set.pairs.iter().map(|p| parry_pose3(&p.2)).collect();
    let id = Pose::IDENTITY;
    let mut iters = 0u64;
    for (a, b, pose) in &set.pairs {
        iters += gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).iterations as u64;
    }
    let mut err: f64 = 0.0;
    if !Kind::overlapping(name) && name != "touching" {
        for k in 0..plan.oracle_pairs.min(m) {
            let (a, b, pose) = set.pairs[k];
            let ours = gjk_shapes::distance(&set.ours[a], &id, &set.ours[b], &pose).distance as f64;
            err = err.max((ours - hull_oracle(&set.ours[a], &set.ours[b], &pose)).abs());
        }
    } else {
        for k in 0..plan.oracle_pairs.min(m) {
            let (a, b, pose) = set.pairs[k];
            err = err.max(gjk_shapes::distance(&set.ours[a], &id, &set.ours[b], &pose).distance as f64);
        }
    }
    // The distance alone must be the full query's distance: any difference
    // counts in the error of both rows.
    for (a, b, pose) in set.pairs.iter().take(plan.oracle_pairs) {
        let full = gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).distance;
        let value =
            gjk_shapes::distance_value(&set.ours[*a], &id, &set.ours[*b], pose).unwrap_or(f32::INFINITY);
        err = err.max((value - full).abs() as f64);
    }
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            keep(black_box(gjk_shapes::distance_value(&set.ours[*a], &id, &set.ours[*b], pose)));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    rows.push(row(name, 3, n, Query::Distance, o, Some(p), iters as f64 / m as f64, Some(err)));
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).distance);
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    rows.push(row(name, 3, n, Query::DistanceFull, o, Some(p), iters as f64 / m as f64, Some(err)));
    if n <= SLICE_VERTICES_3D {
        let peer = |k: usize| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        };
        let (o, p) = race_slices(plan, &set.local, &set.pairs, |pose, q| pose.transform_point(q), peer);
        rows.push(row(name, 3, n, Query::DistanceSlices, o, Some(p), f64::NAN, None));
    }
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_shapes::intersects(&set.ours[*a], &id, &set.ours[*b], pose));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::intersection_test_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    let wrong = set.pairs.iter().filter(|(a, b, pose)| {
        let hit = gjk_shapes::intersects(&set.ours[*a], &id, &set.ours[*b], pose);
        name != "touching" && hit != Kind::overlapping(name)
    });
    rows.push(row(name, 3, n, Query::Intersects, o, Some(p), f64::NAN, Some(wrong.count() as f64)));
    let (o, p) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_epa::contact_within(&set.ours[*a], &id, &set.ours[*b], pose, 0.0).map(|c| c.depth));
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::contact_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
                0.0,
            ));
        },
    );
    rows.push(row(name, 3, n, Query::Contact, o, Some(p), f64::NAN, None));
}

#[allow(clippy::too_many_arguments)]
fn row(
    set: &str,
    dim: u32,
    vertices: usize,
    q: Query,
    ours: f64,
    peer: Option<f64>,
    iterations: f64,
    err: Option<f64>,
) -> Row {
    Row {
        set: set.to_string(),
        dim,
        vertices,
        query: q.name().to_string(),
        ours_ns: ours,
        peer_ns: peer,
        iterations,
        max_abs_error: err,
    }
}

/// The box–box set: `plan.pairs` boxes (half extents 0.2–1) and as many
/// poses (centres 0.5–3 apart, random rotations); pair `k` is box `k` at
/// the identity against box `k + 1` (cyclic) at pose `k`.
pub struct BoxSet {
    /// Ours.
    pub ours: Vec<Cuboid<Vec3>>,
    /// Parry's, the same boxes.
    pub peer: Vec<parry3d::shape::Cuboid>,
    /// Pose of pair `k`'s second box.
    pub poses: Vec<Pose<Vec3>>,
    /// The same poses, parry's.
    pub pp: Vec<parry3d::math::Pose>,
}

/// Builds the box–box set from `rng` (seeded by the caller).
pub fn make_boxes(rng: &mut Rng, plan: &Plan) -> BoxSet {
    let m = plan.pairs;
    let halves: Vec<Vec3> = (0..m)
        .map(|_| {
            Vec3::new(rng.range(0.2, 1.0) as f32, rng.range(0.2, 1.0) as f32, rng.range(0.2, 1.0) as f32)
        })
        .collect();
    let poses: Vec<Pose<Vec3>> = (0..m)
        .map(|_| Pose::new(rng.quat().as_quat(), rng.unit3().as_vec3() * rng.range(0.5, 3.0) as f32))
        .collect();
    let ours: Vec<Cuboid<Vec3>> = halves.iter().map(|h| Cuboid::new(*h).expect("positive")).collect();
    let peer: Vec<parry3d::shape::Cuboid> = halves.iter().map(|h| parry3d::shape::Cuboid::new(*h)).collect();
    let pp: Vec<parry3d::math::Pose> = poses.iter().map(parry_pose3).collect();
    BoxSet { ours, peer, poses, pp }
}

/// The seed of the box–box and capsule–hull sets.
pub const MIXED_SEED: u64 = 77;

/// Box–box and capsule–hull pairs (3D, mixed distances).
pub fn bench_mixed(plan: &Plan, rows: &mut Vec<Row>) {
    let mut rng = Rng::new(MIXED_SEED);
    let m = plan.pairs;
    let BoxSet { ours, peer, poses, pp } = make_boxes(&mut rng, plan);
    let id = Pose::IDENTITY;
    let j = |k: usize| (k + 1) % m;
    for q in [Query::Distance, Query::DistanceFull, Query::Intersects, Query::Contact] {
        let (o, p) = race(
            plan.reps,
            m,
            |k| match q {
                Query::Distance => {
                    keep(black_box(gjk_shapes::distance_value(&ours[k], &id, &ours[j(k)], &poses[k])))
                }
                Query::DistanceFull | Query::DistanceSlices => {
                    keep(black_box(gjk_shapes::distance(&ours[k], &id, &ours[j(k)], &poses[k])))
                }
                Query::Intersects => {
                    keep(black_box(gjk_shapes::intersects(&ours[k], &id, &ours[j(k)], &poses[k])))
                }
                Query::Contact => {
                    keep(black_box(gjk_epa::contact_within(&ours[k], &id, &ours[j(k)], &poses[k], 0.0)))
                }
            },
            |k| match q {
                Query::Distance | Query::DistanceFull | Query::DistanceSlices => keep(black_box(
                    parry3d::query::details::distance_support_map_support_map(&pp[k], &peer[k], &peer[j(k)]),
                )),
                Query::Intersects => {
                    keep(black_box(parry3d::query::details::intersection_test_support_map_support_map(
                        &pp[k],
                        &peer[k],
                        &peer[j(k)],
                    )))
                }
                Query::Contact => keep(black_box(parry3d::query::details::contact_support_map_support_map(
                    &pp[k],
                    &peer[k],
                    &peer[j(k)],
                    0.0,
                ))),
            },
        );
        rows.push(row("box-box", 3, 8, q, o, Some(p), f64::NAN, None));
    }
    // Capsule against a 32-vertex hull.
    let hulls_pts: Vec<Vec<Vec3>> = (0..16)
        .map(|_| gjk_testkit::polyhedron(&mut rng, 32).iter().map(|p| p.as_vec3()).collect())
        .collect();
    let hulls: Vec<ConvexHull<Vec3>> = hulls_pts.iter().map(|p| ConvexHull::new(p).expect("valid")).collect();
    let phulls: Vec<parry3d::shape::ConvexPolyhedron> = hulls_pts
        .iter()
        .map(|p| parry3d::shape::ConvexPolyhedron::from_convex_hull(p).expect("valid"))
        .collect();
    let caps: Vec<Capsule<f32>> = (0..m)
        .map(|k| Capsule::new(0.3 + (k % 5) as f32 * 0.1, 0.2 + (k % 3) as f32 * 0.1).expect("valid"))
        .collect();
    let pcaps: Vec<parry3d::shape::Capsule> =
        caps.iter().map(|c| parry3d::shape::Capsule::new_y(c.half_height(), c.radius())).collect();
    for q in [Query::Distance, Query::DistanceFull, Query::Intersects, Query::Contact] {
        let (o, p) = race(
            plan.reps,
            m,
            |k| match q {
                Query::Distance => {
                    keep(black_box(gjk_shapes::distance_value(&caps[k], &id, &hulls[k % 16], &poses[k])))
                }
                Query::DistanceFull | Query::DistanceSlices => {
                    keep(black_box(gjk_shapes::distance(&caps[k], &id, &hulls[k % 16], &poses[k])))
                }
                Query::Intersects => {
                    keep(black_box(gjk_shapes::intersects(&caps[k], &id, &hulls[k % 16], &poses[k])))
                }
                Query::Contact => {
                    keep(black_box(gjk_epa::contact_within(&caps[k], &id, &hulls[k % 16], &poses[k], 0.0)))
                }
            },
            |k| match q {
                Query::Distance | Query::DistanceFull | Query::DistanceSlices => {
                    keep(black_box(parry3d::query::details::distance_support_map_support_map(
                        &pp[k],
                        &pcaps[k],
                        &phulls[k % 16],
                    )))
                }
                Query::Intersects => {
                    keep(black_box(parry3d::query::details::intersection_test_support_map_support_map(
                        &pp[k],
                        &pcaps[k],
                        &phulls[k % 16],
                    )))
                }
                Query::Contact => keep(black_box(parry3d::query::details::contact_support_map_support_map(
                    &pp[k],
                    &pcaps[k],
                    &phulls[k % 16],
                    0.0,
                ))),
            },
        );
        rows.push(row("capsule-hull", 3, 32, q, o, Some(p), f64::NAN, None));
    }
}

/// Each pair's pose of B over `frames` frames, each the last turned by
/// `turn` radians about y and moved 1e-3 along x (the warm rows' motion,
/// `turn` = 1e-3).
pub fn drift_frames(set: &Set3, turn: f32, frames: usize) -> Vec<Vec<Pose<Vec3>>> {
    let step = Pose::new(Quat::from_rotation_y(turn), Vec3::new(1e-3, 0.0, 0.0));
    set.pairs
        .iter()
        .map(|(_, _, p)| {
            let mut cur = *p;
            (0..frames)
                .map(|_| {
                    cur = step.mul(&cur);
                    cur
                })
                .collect()
        })
        .collect()
}

/// Warm starting on a frame-coherent sequence (each pair moved slightly per
/// step) against our own cold query; and the floor: the support calls alone.
pub fn bench_warm(n: usize, set: &Set3, plan: &Plan, rows: &mut Vec<Row>) {
    const FRAMES: usize = 8;
    let m = set.pairs.len();
    let frames = drift_frames(set, 1e-3, FRAMES);
    let id = Pose::IDENTITY;
    let cfg = gjk_core::GjkConfig::default();
    let mut caches: Vec<SimplexCache<Vec3>> = vec![SimplexCache::new(); m];
    let mut warm_iters = 0u64;
    for (k, (a, b, _)) in set.pairs.iter().enumerate() {
        for f in &frames[k] {
            warm_iters +=
                gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], f, &cfg, Some(&mut caches[k]))
                    .iterations as u64;
        }
    }
    let (warm, cold) = race(
        plan.reps,
        m,
        |k| {
            let (a, b, _) = &set.pairs[k];
            for f in &frames[k] {
                black_box(
                    gjk_shapes::distance_with(
                        &set.ours[*a],
                        &id,
                        &set.ours[*b],
                        f,
                        &cfg,
                        Some(&mut caches[k]),
                    )
                    .distance,
                );
            }
        },
        |k| {
            // The same entry point as the warm query, with no cache.
            let (a, b, _) = &set.pairs[k];
            for f in &frames[k] {
                black_box(
                    gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], f, &cfg, None).distance,
                );
            }
        },
    );
    rows.push(Row {
        set: "warm-vs-cold".into(),
        dim: 3,
        vertices: n,
        query: "distance".into(),
        ours_ns: warm / FRAMES as f64,
        peer_ns: Some(cold / FRAMES as f64),
        iterations: warm_iters as f64 / (m * FRAMES) as f64,
        max_abs_error: None,
    });
    // Floor: as many support calls as the cold queries make, nothing else.
    let calls: Vec<u32> = set
        .pairs
        .iter()
        .map(|(a, b, p)| gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], p).iterations + 1)
        .collect();
    let floor = median(
        (0..plan.reps)
            .map(|_| {
                per_item(m, |k| {
                    let (a, b, pose) = &set.pairs[k];
                    let Ok(bb) = Transformed::new(&set.ours[*b], *pose) else { return };
                    let mut d = Vec3::X;
                    for _ in 0..calls[k] {
                        let p = minkowski_support(&CoreOf(&set.ours[*a]), &CoreOf(&bb), d);
                        d = -p.w + Vec3::splat(1e-3);
                    }
                    black_box(d);
                })
            })
            .collect(),
    );
    let cold_single = median(
        (0..plan.reps)
            .map(|_| {
                per_item(m, |k| {
                    let (a, b, pose) = &set.pairs[k];
                    black_box(gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], pose).distance);
                })
            })
            .collect(),
    );
    rows.push(Row {
        set: "support-floor".into(),
        dim: 3,
        vertices: n,
        query: "distance".into(),
        ours_ns: cold_single,
        peer_ns: Some(floor),
        iterations: calls.iter().map(|&c| c as f64).sum::<f64>() / m as f64,
        max_abs_error: None,
    });
}

/// The markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| set | dim | vertices | query | ours ns | parry ns | ratio parry/ours | mean iterations | max error vs oracle |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let f = |x: Option<f64>, d: usize| {
            x.filter(|v| v.is_finite()).map_or("—".to_string(), |v| format!("{v:.d$}"))
        };
        s += &format!(
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} | {} |\n",
            r.set,
            r.dim,
            r.vertices,
            r.query,
            r.ours_ns,
            f(r.peer_ns, 1),
            f(r.ratio(), 2),
            f(Some(r.iterations), 2),
            r.max_abs_error.map_or("—".to_string(), |e| format!("{e:.2e}")),
        );
    }
    s
}

/// The rows as JSON (a list of objects).
pub fn json(rows: &[Row]) -> String {
    let num = |x: Option<f64>| x.filter(|v| v.is_finite()).map_or("null".to_string(), |v| format!("{v}"));
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"set\": \"{}\", \"dim\": {}, \"vertices\": {}, \"query\": \"{}\", \"ours_ns\": {}, \"peer_ns\": {}, \"ratio\": {}, \"iterations\": {}, \"max_abs_error\": {}}}",
                r.set,
                r.dim,
                r.vertices,
                r.query,
                num(Some(r.ours_ns)),
                num(r.peer_ns),
                num(r.ratio()),
                num(Some(r.iterations)),
                num(r.max_abs_error)
            )
        })
        .collect();
    format!("[\n  {}\n]\n", items.join(",\n  "))
}

/// A bar chart (SVG) of the ratio parry/ours per row, log scale.
pub fn svg(rows: &[Row]) -> String {
    let rows: Vec<&Row> = rows.iter().filter(|r| r.ratio().is_some()).collect();
    let (w, bar, left) = (900.0, 14.0, 260.0);
    let h = 40.0 + rows.len() as f64 * (bar + 4.0);
    // Four decades, 0.1× to 1000× (the ball tests' rows pass 100×); the
    // labels stay on the canvas.
    let x = |ratio: f64| left + (ratio.clamp(0.1, 1000.0).log10() + 1.0) / 4.0 * (w - left - 50.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    );
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    for (k, t) in [0.1, 1.0, 10.0, 100.0, 1000.0].iter().enumerate() {
        let xx = x(*t);
        s += &format!(
            "<line x1=\"{xx}\" y1=\"20\" x2=\"{xx}\" y2=\"{h}\" stroke=\"{}\"/><text x=\"{xx}\" y=\"14\" text-anchor=\"middle\">{t}×</text>\n",
            if k == 1 { "#444" } else { "#ccc" }
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = 24.0 + i as f64 * (bar + 4.0);
        let ratio = r.ratio().unwrap_or(1.0);
        let colour = match r.query.as_str() {
            "distance" => "#4477aa",
            "distance-full" => "#66ccee",
            "intersects" => "#228833",
            _ => "#cc6677",
        };
        let (x0, x1) = (x(1.0).min(x(ratio)), x(1.0).max(x(ratio)));
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} {}D n={} {}</text><rect x=\"{x0}\" y=\"{y}\" width=\"{}\" height=\"{bar}\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{ratio:.1}</text>\n",
            left - 6.0,
            y + bar - 3.0,
            r.set,
            r.dim,
            r.vertices,
            r.query,
            (x1 - x0).max(1.0),
            x1 + 3.0,
            y + bar - 3.0
        );
    }
    s += "</svg>\n";
    s
}

/// The batch API on rayon's pool against the same queries in a serial
/// loop (the "parry ns" column holds the serial time; ns per query).
pub fn bench_batch(set: &Set3, plan: &Plan, rows: &mut Vec<Row>, n: usize) {
    let pairs: Vec<gjk_shapes::PosedPair<'_, Vec3, ConvexHull<Vec3>, ConvexHull<Vec3>>> = set
        .pairs
        .iter()
        .map(|(a, b, p)| gjk_shapes::PosedPair {
            a: &set.ours[*a],
            pose_a: Pose::IDENTITY,
            b: &set.ours[*b],
            pose_b: *p,
        })
        .collect();
    let m = pairs.len() as f64;
    let (mut par, mut ser) = (Vec::new(), Vec::new());
    for _ in 0..plan.reps {
        let t = Instant::now();
        black_box(gjk_shapes::distance_batch(&pairs));
        par.push(t.elapsed().as_nanos() as f64 / m);
        let t = Instant::now();
        black_box(
            pairs
                .iter()
                .map(|p| gjk_shapes::distance(p.a, &p.pose_a, p.b, &p.pose_b).distance)
                .collect::<Vec<_>>(),
        );
        ser.push(t.elapsed().as_nanos() as f64 / m);
    }
    rows.push(Row {
        set: "batch-rayon-vs-serial".into(),
        dim: 3,
        vertices: n,
        query: "distance".into(),
        ours_ns: median(par),
        peer_ns: Some(median(ser)),
        iterations: f64::NAN,
        max_abs_error: None,
    });
}

/// parry's form of a rigid motion that turns (the same start pose, centre
/// and velocities), for the nonlinear cast comparisons.
pub fn parry_motion(m: &gjk_shapes::Motion<Vec3>) -> parry3d::query::NonlinearRigidMotion {
    parry3d::query::NonlinearRigidMotion::new(
        parry3d::math::Pose::from_parts(m.start.translation, m.start.rotation),
        m.local_center,
        m.linear,
        m.angular,
    )
}
