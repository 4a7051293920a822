//! Casts that start in contact (`cast_shape_directional`,
//! `cast_shape_nonlinear_directional`) against the tests' own signed
//! distances: polygons by the separating-axis test over their edge lines
//! (exact depth in 2D) and brute-force distance, boxes by their fifteen
//! axes and the corners' brute-force distance, balls and capsules in
//! closed form, and tipping planks and boxes in closed form. The contract:
//! a hit lies between one and four tolerances deeper than the start and
//! nothing before it is deeper than that; a miss never gets deeper than
//! it along the whole motion.

use gjk_epa::EpaConfig;
use gjk_shapes::gjk_core::{CastOptions, GjkConfig, Vector};
use gjk_shapes::glam::{DMat3, DQuat, DVec2, DVec3};
use gjk_shapes::tuning::NONLINEAR_CAST_TOLERANCE;
use gjk_shapes::{Ball, Capsule, ConvexPolygon, Cuboid, Motion, Pose, Rectangle, Rot2};
use gjk_testkit::*;

#[path = "../../gjk-core/tests/common/cast_answer.rs"]
mod cast_answer;
#[path = "common/epa_casts.rs"]
mod epa_casts;
#[path = "../../gjk-shapes/tests/common/shape_casts.rs"]
mod shape_casts;
use cast_answer::{Answer as CastHit, CastStatus};
use epa_casts::{
    cast_shape_directional, cast_shape_directional_with, cast_shape_nonlinear_directional,
    cast_shape_nonlinear_directional_with,
};
use shape_casts::{cast_shape, cast_shape_nonlinear};

/// The signed distance of two convex polygons: the brute-force distance
/// where a separating axis exists, else minus the least overlap over
/// every edge line of either (the exact depth in 2D).
fn signed_2d(a: &[DVec2], b: &[DVec2]) -> f64 {
    if sat_disjoint_2d(a, b) {
        return brute_distance_2d(a, b);
    }
    let axes = hull_lines(a).into_iter().map(|l| l.0).chain(hull_lines(b).into_iter().map(|l| -l.0));
    let height = |p: &[DVec2], n: DVec2| p.iter().map(|q| q.dot(n)).fold(f64::MIN, f64::max);
    -axes.map(|n| height(a, n) + height(b, -n)).fold(f64::INFINITY, f64::min)
}

/// The signed distance of two boxes (half extents, rotation, centre): the
/// corners' brute-force distance where one of the fifteen axes separates
/// them, else minus the least overlap over those axes (exact for boxes:
/// `box_box_sat`).
fn signed_boxes(a: (DVec3, DMat3, DVec3), b: (DVec3, DMat3, DVec3)) -> f64 {
    let (overlap, _) = box_box_sat(a.0, a.1, a.2, b.0, b.1, b.2);
    if overlap < 0.0 {
        brute_distance_3d(&box_corners(a.0, a.1, a.2), &box_corners(b.0, b.1, b.2))
    } else {
        -overlap
    }
}

/// The cast's tolerance as the tests bound it: 10⁻⁴ of a reach between
/// the smaller shape's largest vertex norm and √dim times it.
fn tolerances(smaller_reach: f64, dim: f64) -> (f64, f64) {
    let t = NONLINEAR_CAST_TOLERANCE;
    (t * smaller_reach, 2.0 * t * smaller_reach * dim.sqrt())
}

/// The contract of a cast that starts at signed distance `d0` (within
/// the target) under `phi(t)`: a hit at least `lo` deeper than the
/// start, and nowhere on the motion before it (or, for a miss, on the
/// whole motion) deeper than `hi`. Checked at the hit and on `samples`
/// times before it. Returns the status for counting.
fn judge<V: Vector<Scalar = f64>>(
    h: &CastHit<V>,
    phi: &dyn Fn(f64) -> f64,
    d0: f64,
    lo: f64,
    hi: f64,
    eps: f64,
    ctx: &str,
) -> CastStatus {
    let samples = 64;
    let end = match h.status {
        CastStatus::Hit => {
            let at = phi(h.fraction);
            assert!(at <= d0 - lo + eps, "{ctx}: hit at {} only {} deeper", h.fraction, d0 - at);
            assert!(at >= d0 - hi - eps, "{ctx}: hit at {} {} deeper (at most {hi})", h.fraction, d0 - at);
            h.fraction
        }
        CastStatus::Miss => 1.0,
        CastStatus::IterationLimit => h.fraction,
        s => panic!("{ctx}: {s:?}"),
    };
    for k in 0..samples {
        let t = end * k as f64 / samples as f64;
        let at = phi(t);
        assert!(at >= d0 - hi - eps, "{ctx}: {:?} at {} but {} deeper at {t}", h.status, h.fraction, d0 - at);
    }
    h.status
}

/// Hits, misses and undecided casts counted over a test.
#[derive(Default)]
struct Tally {
    hits: u32,
    misses: u32,
    undecided: u32,
}

impl Tally {
    fn count(&mut self, status: CastStatus) {
        match status {
            CastStatus::Hit => self.hits += 1,
            CastStatus::Miss => self.misses += 1,
            _ => self.undecided += 1,
        }
    }

    /// More than `hits` hits and `misses` misses, fewer than `undecided`
    /// undecided casts.
    fn assert_counts(&self, hits: u32, misses: u32, undecided: u32) {
        let Tally { hits: h, misses: m, undecided: u } = self;
        assert!(*h > hits && *m > misses && *u < undecided, "hits {h}, misses {m}, undecided {u}");
    }

    /// Both verdicts common (more than `least` each), none undecided.
    fn assert_decided(&self, least: u32) {
        self.assert_counts(least, least, 1);
    }
}

fn rot2(angle: f64) -> Rot2<f64> {
    Rot2::from_angle(angle)
}

/// Two random convex polygons of 3 to `most` vertices: their points and
/// shapes.
fn polygon_pair(
    rng: &mut Rng,
    most: usize,
) -> (Vec<DVec2>, Vec<DVec2>, ConvexPolygon<DVec2>, ConvexPolygon<DVec2>) {
    let mut one = || {
        let k = rng.usize(3, most);
        polygon(rng, k)
    };
    let (pa, pb) = (one(), one());
    let (a, b) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
    (pa, pb, a, b)
}

fn moved2(p: &[DVec2], pose: &Pose<DVec2>) -> Vec<DVec2> {
    p.iter().map(|q| pose.transform_point(*q)).collect()
}

/// Random polygon pairs placed within the target distance or
/// overlapping, moved in random straight lines: the contract against the
/// polygons' exact signed distance, both hits and misses common, and
/// none undecided.
#[test]
fn linear_polygon_casts_from_contact_keep_the_contract() {
    let mut rng = Rng::new(8101);
    let (mut tally, mut cases) = (Tally::default(), 0);
    while cases < 2000 {
        let (pa, pb, a, b) = polygon_pair(&mut rng, 9);
        let pose_a =
            Pose::new(rot2(rng.range(-3.0, 3.0)), DVec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)));
        let offset = DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.5, 2.5);
        let pose_b = Pose::new(rot2(rng.range(-3.0, 3.0)), pose_a.translation + offset);
        let target = if cases % 3 == 0 { rng.range(0.0, 0.1) } else { 0.0 };
        let (wa, wb) = (moved2(&pa, &pose_a), moved2(&pb, &pose_b));
        let d0 = signed_2d(&wa, &wb);
        // Only pairs that start within reach (the others are the plain
        // cast's: `starting_apart_is_the_plain_cast`).
        if d0 > target {
            continue;
        }
        cases += 1;
        let (ma, mb) = (
            DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0),
            DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0),
        );
        let opts = CastOptions { target_distance: target, max_fraction: 1.0 };
        let h = cast_shape_directional(&a, &pose_a, ma, &b, &pose_b, mb, &opts);
        let phi = |t: f64| {
            let (qa, qb) = (
                Pose::new(pose_a.rotation, pose_a.translation + ma * t),
                Pose::new(pose_b.rotation, pose_b.translation + mb * t),
            );
            signed_2d(&moved2(&pa, &qa), &moved2(&pb, &qb))
        };
        let reach = |p: &[DVec2]| p.iter().map(|q| q.length()).fold(0.0, f64::max);
        let (lo, hi) = tolerances(reach(&pa).min(reach(&pb)), 2.0);
        let ctx = format!("#{cases} d0 {d0} target {target} motions {ma} {mb}");
        tally.count(judge(&h, &phi, d0, lo, hi, 1e-9, &ctx));
    }
    tally.assert_decided(400);
}

/// Random box pairs, the same contract against the fifteen axes.
#[test]
fn linear_box_casts_from_contact_keep_the_contract() {
    let mut rng = Rng::new(8102);
    let (mut tally, mut cases) = (Tally::default(), 0);
    while cases < 2000 {
        let (ha, hb) = (
            DVec3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
            DVec3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)),
        );
        let (qa, qb) = (
            DQuat::from_scaled_axis(rng.unit3() * rng.range(0.0, 3.0)),
            DQuat::from_scaled_axis(rng.unit3() * rng.range(0.0, 3.0)),
        );
        let ca = rng.unit3() * rng.range(0.0, 2.0);
        let cb = ca + rng.unit3() * rng.range(0.2, 1.5);
        let target = if cases % 3 == 0 { rng.range(0.0, 0.1) } else { 0.0 };
        let d0 = signed_boxes((ha, DMat3::from_quat(qa), ca), (hb, DMat3::from_quat(qb), cb));
        if d0 > target {
            continue;
        }
        cases += 1;
        let (ma, mb) = (rng.unit3() * rng.range(0.0, 2.0), rng.unit3() * rng.range(0.0, 2.0));
        let (pose_a, pose_b) = (Pose::new(qa, ca), Pose::new(qb, cb));
        let opts = CastOptions { target_distance: target, max_fraction: 1.0 };
        let h = cast_shape_directional(
            &Cuboid::new(ha).unwrap(),
            &pose_a,
            ma,
            &Cuboid::new(hb).unwrap(),
            &pose_b,
            mb,
            &opts,
        );
        let phi = |t: f64| {
            signed_boxes((ha, DMat3::from_quat(qa), ca + ma * t), (hb, DMat3::from_quat(qb), cb + mb * t))
        };
        let (lo, hi) = tolerances(ha.length().min(hb.length()), 3.0);
        let ctx = format!("#{cases} d0 {d0} target {target} motions {ma} {mb}");
        tally.count(judge(&h, &phi, d0, lo, hi, 1e-9, &ctx));
    }
    tally.assert_decided(400);
}

/// Balls and capsules in contact, in closed form (the centres' or the
/// segments' distance less the radii), at scales 10⁻³, 1 and 10³.
#[test]
fn linear_round_casts_from_contact_keep_the_contract() {
    let mut rng = Rng::new(8103);
    let mut tally = Tally::default();
    for i in 0..2000 {
        let s = [1e-3, 1.0, 1e3][i % 3];
        let (ra, rb) = (rng.range(0.1, 1.0) * s, rng.range(0.1, 1.0) * s);
        let (hla, hlb) = (rng.range(0.0, 1.0) * s, rng.range(0.0, 1.0) * s);
        let (qa, qb) =
            (DQuat::from_scaled_axis(rng.unit3() * 3.0), DQuat::from_scaled_axis(rng.unit3() * 3.0));
        let ca = rng.unit3() * s;
        let segment = |q: DQuat, c: DVec3, hl: f64| (c + q * DVec3::Y * hl, c - q * DVec3::Y * hl);
        let core_gap = |cb: DVec3| {
            let ((a0, a1), (b0, b1)) = (segment(qa, ca, hla), segment(qb, cb, hlb));
            segment_segment3(a0, a1, b0, b1).0.sqrt()
        };
        // B's centre placed so that the pair starts overlapping by up to
        // half the smaller radius, or touching.
        let dir = rng.unit3();
        let mut cb = ca + dir * (hla + hlb + ra + rb);
        // (Touching: a hair inside, which rounding keeps on the inside.)
        let want = if i % 4 == 0 { -1e-9 * s } else { -rng.range(0.0, 0.5) * ra.min(rb) };
        for _ in 0..60 {
            let d = core_gap(cb) - ra - rb;
            cb -= dir * (d - want) * 0.5;
        }
        if i % 2 == 1 {
            // Balls: the centres' distance itself.
            cb = ca + dir * (ra + rb + want);
        } else if core_gap(cb) <= 1e-3 * s {
            continue; // crossing cores: the closed form's own degenerate case
        }
        let (ma, mb) = (rng.unit3() * rng.range(0.0, 2.0) * s, rng.unit3() * rng.range(0.0, 2.0) * s);
        let opts = CastOptions::default();
        let (pa, pb) = (Pose::new(qa, ca), Pose::new(qb, cb));
        let h = if i % 2 == 0 {
            let (a, b) = (Capsule::new(hla, ra).unwrap(), Capsule::new(hlb, rb).unwrap());
            cast_shape_directional(&a, &pa, ma, &b, &pb, mb, &opts)
        } else {
            let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
            let (pa, pb) = (Pose::from_translation(ca), Pose::from_translation(cb));
            cast_shape_directional(&a, &pa, ma, &b, &pb, mb, &opts)
        };
        let phi = |t: f64| {
            if i % 2 == 0 {
                let ((a0, a1), (b0, b1)) = (segment(qa, ca + ma * t, hla), segment(qb, cb + mb * t, hlb));
                segment_segment3(a0, a1, b0, b1).0.sqrt() - ra - rb
            } else {
                (cb + mb * t - ca - ma * t).length() - ra - rb
            }
        };
        let d0 = phi(0.0);
        if d0 >= 0.0 {
            // The placement's iteration stopped short of contact: the
            // plain cast's case (`starting_apart_is_the_plain_cast`).
            continue;
        }
        let reach = if i % 2 == 0 { (ra + hla).min(rb + hlb) } else { ra.min(rb) };
        let (lo, hi) = tolerances(reach, 3.0);
        let ctx = format!("#{i} d0 {d0} motions {ma} {mb}");
        tally.count(judge(&h, &phi, d0, lo, hi, 1e-9 * s, &ctx));
    }
    tally.assert_decided(400);
}

/// Shapes that start beyond the target distance get the plain casts'
/// answers: the linear one exactly, the nonlinear one within its
/// tolerance.
#[test]
fn starting_apart_is_the_plain_cast() {
    let mut rng = Rng::new(8104);
    let mut compared = 0;
    for i in 0..1500 {
        let (pa, pb, a, b) = polygon_pair(&mut rng, 9);
        let pose_a = Pose::new(rot2(rng.range(-3.0, 3.0)), DVec2::ZERO);
        let pose_b = Pose::new(
            rot2(rng.range(-3.0, 3.0)),
            DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(1.0, 4.0),
        );
        if signed_2d(&moved2(&pa, &pose_a), &moved2(&pb, &pose_b)) <= 0.05 {
            continue;
        }
        compared += 1;
        let opts = CastOptions { target_distance: if i % 2 == 0 { 0.0 } else { 0.02 }, max_fraction: 1.0 };
        let toward = (pose_a.translation - pose_b.translation) * rng.range(0.0, 1.5);
        let (ma, mb) = (DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 1.0), toward);
        let plain = cast_shape(&a, &pose_a, ma, &b, &pose_b, mb, &opts);
        assert_eq!(cast_shape_directional(&a, &pose_a, ma, &b, &pose_b, mb, &opts), plain, "#{i}");
        let spin = rng.range(-4.0, 4.0);
        let (na, nb) = (Motion::new(pose_a, ma, spin), Motion::new(pose_b, mb, -spin));
        let plain = cast_shape_nonlinear(&a, &na, &b, &nb, &opts);
        let directional = cast_shape_nonlinear_directional(&a, &na, &b, &nb, &opts);
        assert_eq!(directional.status, plain.status, "#{i}: {directional:?} {plain:?}");
        if plain.status == CastStatus::Hit {
            assert!((directional.fraction - plain.fraction).abs() < 1e-3, "#{i}: {directional:?} {plain:?}");
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// A crate resting on the floor: sliding along it, lifting off, or
/// spinning about the floor's normal as it slides runs free; pressing
/// into it, or turning about a horizontal axis, stops. In f32 and f64.
#[test]
fn a_crate_on_the_floor_slides_and_lifts_but_does_not_sink() {
    let floor = Cuboid::new(DVec3::new(10.0, 0.5, 10.0)).unwrap();
    let crate_box = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let below = Pose::from_translation(DVec3::new(0.0, -0.5, 0.0));
    let mut rng = Rng::new(8105);
    for i in 0..500 {
        let on = Pose::new(
            DQuat::from_rotation_y(rng.range(-3.0, 3.0)),
            DVec3::new(rng.range(-5.0, 5.0), 0.5, rng.range(-5.0, 5.0)),
        );
        let flat = DVec3::new(rng.range(-3.0, 3.0), 0.0, rng.range(-3.0, 3.0));
        let up = flat + DVec3::Y * rng.range(0.0, 2.0);
        let down = flat - DVec3::Y * rng.range(0.01, 2.0);
        let opts = CastOptions::default();
        for (m, want) in [(flat, CastStatus::Miss), (up, CastStatus::Miss), (down, CastStatus::Hit)] {
            let h = cast_shape_directional(&crate_box, &on, m, &floor, &below, DVec3::ZERO, &opts);
            assert_eq!(h.status, want, "#{i} {m}: {h:?}");
            // As floor against crate: the same verdict.
            let h = cast_shape_directional(&floor, &below, DVec3::ZERO, &crate_box, &on, m, &opts);
            assert_eq!(h.status, want, "#{i} {m} swapped: {h:?}");
            if want == CastStatus::Hit {
                assert!((h.normal - DVec3::Y).length() < 1e-9, "#{i}: {h:?}");
                // Sinks 1 – 4 tolerances (of the crate's reach, √0.75).
                let sunk = -down.y * h.fraction;
                assert!(sunk >= 0.5e-4 * 0.75f64.sqrt() && sunk <= 4e-4, "#{i}: {sunk}");
            }
            let m32 = m.as_vec3();
            let (f32_floor, f32_crate) = (
                Cuboid::new(gjk_shapes::glam::Vec3::new(10.0, 0.5, 10.0)).unwrap(),
                Cuboid::new(gjk_shapes::glam::Vec3::splat(0.5)).unwrap(),
            );
            let on32 = Pose::new(on.rotation.as_quat(), on.translation.as_vec3());
            let below32 = Pose::new(below.rotation.as_quat(), below.translation.as_vec3());
            let h = cast_shape_directional(
                &f32_crate,
                &on32,
                m32,
                &f32_floor,
                &below32,
                gjk_shapes::glam::Vec3::ZERO,
                &CastOptions::default(),
            );
            assert_eq!(h.status, want, "#{i} {m} f32: {h:?}");
        }
        // Spinning about the floor's normal while sliding: free; tipping
        // about a horizontal axis through its centre: one edge sinks.
        let spin = Motion::new(on, flat, DVec3::Y * rng.range(-6.0, 6.0));
        let ground = Motion::fixed(below);
        let h = cast_shape_nonlinear_directional(&crate_box, &spin, &floor, &ground, &CastOptions::default());
        assert_eq!(h.status, CastStatus::Miss, "#{i} spin: {h:?}");
        let axis = DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)).normalize();
        let roll = Motion::new(on, flat, axis * rng.range(0.5, 6.0));
        let h = cast_shape_nonlinear_directional(&crate_box, &roll, &floor, &ground, &CastOptions::default());
        assert_eq!(h.status, CastStatus::Hit, "#{i} roll: {h:?}");
        assert!(h.fraction < 0.05, "#{i} roll: {h:?}");
    }
}

/// A plank lying on the floor tips up about one bottom corner (2D) or
/// edge (3D): it runs free until it stands on its end (a quarter turn),
/// then its top corner swings down into the floor: the hit lies where
/// that corner is 1 – 4 tolerances deep, `h cos θ = −depth`. The plain
/// nonlinear cast stops at once.
#[test]
fn a_tipping_plank_runs_free_until_it_passes_upright() {
    let mut rng = Rng::new(8106);
    for i in 0..300 {
        let (l, h) = (rng.range(0.5, 3.0), rng.range(0.1, 1.0));
        let omega = rng.range(0.5, 4.0);
        let x0 = rng.range(-3.0, 3.0);
        let opts = CastOptions { target_distance: 0.0, max_fraction: 2.0 * std::f64::consts::PI / omega };
        let reach = (4.0 * l * l + 4.0 * h * h).sqrt();
        let (lo, hi) = tolerances(reach, 2.0);
        let upright = std::f64::consts::FRAC_PI_2 / omega;
        // θ where the corner at height h (above the pivot) is `depth` below the floor.
        let time_at = |depth: f64| (std::f64::consts::FRAC_PI_2 + (depth / (2.0 * h)).asin()) / omega;
        let ctx = format!("#{i} l {l} h {h} ω {omega}");
        // 2D: half extents (l, h), resting on y = 0, pivot its bottom-left corner.
        let plank = Rectangle::new(DVec2::new(l, h)).unwrap();
        let floor = Rectangle::new(DVec2::new(20.0, 0.5)).unwrap();
        let start = Pose::from_translation(DVec2::new(x0 + l, h));
        let tip = Motion::new(start, DVec2::ZERO, omega).with_local_center(DVec2::new(-l, -h));
        let ground = Motion::fixed(Pose::from_translation(DVec2::new(0.0, -0.5)));
        let hit = cast_shape_nonlinear_directional(&plank, &tip, &floor, &ground, &opts);
        assert_eq!(hit.status, CastStatus::Hit, "{ctx}: {hit:?}");
        assert!(
            hit.fraction >= time_at(lo) - 1e-9 && hit.fraction <= time_at(hi) + 1e-9,
            "{ctx}: {hit:?}, upright at {upright}"
        );
        assert_eq!(
            cast_shape_nonlinear(&plank, &tip, &floor, &ground, &opts).status,
            CastStatus::StartsInside
        );
        // 3D: a box (l, h, w) tipping about its bottom edge along z.
        let w = rng.range(0.1, 1.0);
        let slab = Cuboid::new(DVec3::new(l, h, w)).unwrap();
        let floor3 = Cuboid::new(DVec3::new(20.0, 0.5, 20.0)).unwrap();
        let start = Pose::from_translation(DVec3::new(x0 + l, h, 0.0));
        let tip =
            Motion::new(start, DVec3::ZERO, DVec3::Z * omega).with_local_center(DVec3::new(-l, -h, 0.0));
        let ground = Motion::fixed(Pose::from_translation(DVec3::new(0.0, -0.5, 0.0)));
        let (lo, hi) = tolerances((4.0 * l * l + 4.0 * h * h + w * w).sqrt().min(reach), 3.0);
        let hit = cast_shape_nonlinear_directional(&slab, &tip, &floor3, &ground, &opts);
        assert_eq!(hit.status, CastStatus::Hit, "{ctx} 3D: {hit:?}");
        assert!(
            hit.fraction >= time_at(lo) - 1e-9 && hit.fraction <= time_at(hi) + 1e-9,
            "{ctx} 3D: {hit:?}"
        );
        // The same in f32, the floor turned about its normal: there the
        // contact's normal near touching is rounded (~10⁻⁴ rad), which
        // tilts the floor's far corners by 10⁻³ out of the cast's room
        // unless the cast measures the normal again apart
        // (`NONLINEAR_CAST_NORMAL_SHIFT`); the hit is within the zero
        // band of the floor's size (~10⁻³) past upright.
        use gjk_shapes::glam::{Quat, Vec3};
        let slab = Cuboid::new(Vec3::new(l as f32, h as f32, w as f32)).unwrap();
        let floor3 = Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap();
        let start = Pose::from_translation(Vec3::new((x0 + l) as f32, h as f32, 0.0));
        let tip = Motion::new(start, Vec3::ZERO, Vec3::Z * omega as f32)
            .with_local_center(Vec3::new(-l as f32, -h as f32, 0.0));
        let turned = Pose::new(Quat::from_rotation_y(rng.range(-3.0, 3.0) as f32), Vec3::new(0.0, -0.5, 0.0));
        let opts = CastOptions { target_distance: 0.0, max_fraction: opts.max_fraction as f32 };
        let hit = cast_shape_nonlinear_directional(&slab, &tip, &floor3, &Motion::fixed(turned), &opts);
        assert_eq!(hit.status, CastStatus::Hit, "{ctx} f32: {hit:?}");
        let past = hit.fraction as f64 - upright;
        assert!(past > 0.0 && past * omega * 2.0 * h < 1e-2, "{ctx} f32: {hit:?}");
    }
}

/// Random turning polygon pairs that start in contact: the contract
/// against the polygons' exact signed distance at the tests' own poses.
/// Undecided casts (a pass that stays in contact and turns) are allowed,
/// but safe up to their fraction.
#[test]
fn nonlinear_polygon_casts_from_contact_keep_the_contract() {
    let mut rng = Rng::new(8107);
    let (mut tally, mut cases) = (Tally::default(), 0);
    while cases < 600 {
        let (pa, pb, a, b) = polygon_pair(&mut rng, 8);
        let pose_a = Pose::new(rot2(rng.range(-3.0, 3.0)), DVec2::ZERO);
        let pose_b = Pose::new(
            rot2(rng.range(-3.0, 3.0)),
            DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.5, 2.5),
        );
        let d0 = signed_2d(&moved2(&pa, &pose_a), &moved2(&pb, &pose_b));
        if d0 > 0.0 {
            continue;
        }
        cases += 1;
        let motion = |rng: &mut Rng, pose: Pose<DVec2>| {
            Motion::new(
                pose,
                DVec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0),
                rng.range(-2.0, 2.0),
            )
            .with_local_center(DVec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3)))
        };
        let (ma, mb) = (motion(&mut rng, pose_a), motion(&mut rng, pose_b));
        let h = cast_shape_nonlinear_directional(&a, &ma, &b, &mb, &CastOptions::default());
        let phi = |t: f64| {
            // The tests' own placement: the turn about the moving centre.
            let place = |m: &Motion<DVec2>, p: &[DVec2]| -> Vec<DVec2> {
                let c0 = m.start.transform_point(m.local_center) + m.linear * t;
                let turn = Pose::from_rotation(rot2(m.angular * t));
                p.iter()
                    .map(|q| c0 + turn.transform_vector(m.start.transform_vector(*q - m.local_center)))
                    .collect()
            };
            signed_2d(&place(&ma, &pa), &place(&mb, &pb))
        };
        let reach = |p: &[DVec2], c: DVec2| p.iter().map(|q| (*q - c).length()).fold(0.0, f64::max);
        let (lo, hi) = tolerances(reach(&pa, ma.local_center).min(reach(&pb, mb.local_center)), 2.0);
        let ctx = format!("#{cases} d0 {d0}");
        tally.count(judge(&h, &phi, d0, lo, hi, 1e-9, &ctx));
    }
    tally.assert_counts(100, 50, 60);
}

/// Random turning box pairs that start in contact: the contract against
/// the fifteen axes at the tests' own poses (`exp(t ω)` about the moving
/// centre).
#[test]
fn nonlinear_box_casts_from_contact_keep_the_contract() {
    let mut rng = Rng::new(8109);
    let (mut tally, mut cases) = (Tally::default(), 0);
    while cases < 600 {
        let half = |rng: &mut Rng| DVec3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let (ha, hb) = (half(&mut rng), half(&mut rng));
        let (qa, qb) = (
            DQuat::from_scaled_axis(rng.unit3() * rng.range(0.0, 3.0)),
            DQuat::from_scaled_axis(rng.unit3() * rng.range(0.0, 3.0)),
        );
        let ca = rng.unit3() * rng.range(0.0, 2.0);
        let cb = ca + rng.unit3() * rng.range(0.2, 1.5);
        let d0 = signed_boxes((ha, DMat3::from_quat(qa), ca), (hb, DMat3::from_quat(qb), cb));
        if d0 > 0.0 {
            continue;
        }
        cases += 1;
        let motion = |rng: &mut Rng, q: DQuat, c: DVec3| {
            Motion::new(Pose::new(q, c), rng.unit3() * rng.range(0.0, 2.0), rng.unit3() * rng.range(0.0, 2.0))
                .with_local_center(rng.unit3() * rng.range(0.0, 0.3))
        };
        let (ma, mb) = (motion(&mut rng, qa, ca), motion(&mut rng, qb, cb));
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let h = cast_shape_nonlinear_directional(&a, &ma, &b, &mb, &CastOptions::default());
        // The tests' own placement: the turn about the moving centre.
        let place = |m: &Motion<DVec3>, t: f64| {
            let turned = DQuat::from_scaled_axis(m.angular * t) * m.start.rotation;
            let centre = m.start.transform_point(m.local_center) + m.linear * t;
            (DMat3::from_quat(turned), centre - turned * m.local_center)
        };
        let phi = |t: f64| {
            let ((ra, pa), (rb, pb)) = (place(&ma, t), place(&mb, t));
            signed_boxes((ha, ra, pa), (hb, rb, pb))
        };
        let reach = |h: DVec3, c: DVec3| (h + c.abs()).length();
        let (lo, hi) =
            tolerances(reach(ha, ma.local_center).min(reach(hb, mb.local_center)) / 3f64.sqrt(), 3.0);
        let ctx = format!("#{cases} d0 {d0}");
        tally.count(judge(&h, &phi, d0, lo, hi, 1e-9, &ctx));
    }
    tally.assert_counts(100, 30, 60);
}

/// A ball rolling on the floor, and a capsule lying on it rolling about
/// its own axis, run free (a miss); rolling down into it stops. Their
/// turns do not move their cores, so the steps are as long as a slide's.
#[test]
fn balls_and_capsules_roll_along_the_floor() {
    let mut rng = Rng::new(8110);
    let floor = Cuboid::new(DVec3::new(50.0, 0.5, 50.0)).unwrap();
    let below = Motion::fixed(Pose::from_translation(DVec3::new(0.0, -0.5, 0.0)));
    for i in 0..300 {
        let r = rng.range(0.1, 1.0);
        let heading = DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)).normalize();
        let speed = rng.range(0.5, 10.0);
        // Rolling without slipping: ω = (up × v) / r … reversed (ω × (−r up) = v).
        let omega = heading.cross(DVec3::Y) * (-speed / r);
        let start = DVec3::new(rng.range(-5.0, 5.0), r, rng.range(-5.0, 5.0));
        let ball = Ball::new(r).unwrap();
        let roll = Motion::new(Pose::from_translation(start), heading * speed, omega);
        let h = cast_shape_nonlinear_directional(&ball, &roll, &floor, &below, &CastOptions::default());
        assert_eq!(h.status, CastStatus::Miss, "#{i} ball: {h:?}");
        // Lying along the heading's perpendicular, rolling about its axis.
        let axis = heading.cross(DVec3::Y).normalize();
        let q = DQuat::from_rotation_arc(DVec3::Y, axis);
        let hh = rng.range(0.1, 1.0);
        let capsule = Capsule::new(hh, r).unwrap();
        let roll = Motion::new(Pose::new(q, start), heading * speed, omega);
        let h = cast_shape_nonlinear_directional(&capsule, &roll, &floor, &below, &CastOptions::default());
        assert_eq!(h.status, CastStatus::Miss, "#{i} capsule: {h:?}");
        // Rolling down into the floor: stopped at once.
        let sink = Motion::new(Pose::from_translation(start), heading * speed - DVec3::Y, omega);
        let h = cast_shape_nonlinear_directional(&ball, &sink, &floor, &below, &CastOptions::default());
        assert_eq!(h.status, CastStatus::Hit, "#{i} sinking: {h:?}");
        assert!(h.fraction < 1e-3, "#{i} sinking: {h:?}");
    }
}

/// Wheels (cylinders, plain and rounded, lying across their heading)
/// rolling along the floor they stand on, and pucks (upright cylinders
/// and cones on their bases) spinning as they slide: a turn about the
/// shape's own axis moves none of it, so these run free in a few steps,
/// at up to 100 rad per unit of time (before `Shape::core_axis`, the
/// wheels ran out of steps: `IterationLimit`). Pressed into the floor,
/// they stop at once.
#[test]
fn wheels_and_pucks_roll_and_spin_on_the_floor() {
    use gjk_shapes::{Cone, Cylinder, Rounded};
    let mut rng = Rng::new(8111);
    let floor = Cuboid::new(DVec3::new(50.0, 0.5, 50.0)).unwrap();
    let below = Motion::fixed(Pose::from_translation(DVec3::new(0.0, -0.5, 0.0)));
    let opts = CastOptions::default();
    for i in 0..300 {
        let (h, r) = (rng.range(0.05, 0.5), rng.range(0.1, 1.0));
        let round = [0.0, rng.range(0.01, 0.1)][i % 2];
        let heading = DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0)).normalize();
        let speed = rng.range(0.5, 10.0);
        let axis = heading.cross(DVec3::Y).normalize();
        let q = DQuat::from_rotation_arc(DVec3::Y, axis);
        let big = r + round;
        let start = DVec3::new(rng.range(-5.0, 5.0), big, rng.range(-5.0, 5.0));
        // Rolling without slipping: the contact point stays still.
        let omega = axis * (-speed / big);
        let wheel = Rounded::new(Cylinder::new(h, r).unwrap(), round).unwrap();
        let roll = Motion::new(Pose::new(q, start), heading * speed, omega);
        let hit = cast_shape_nonlinear_directional(&wheel, &roll, &floor, &below, &opts);
        assert_eq!(hit.status, CastStatus::Miss, "#{i} wheel: {hit:?}");
        assert!(hit.iterations < 150, "#{i} wheel: {hit:?}");
        let sink = Motion { linear: heading * speed - DVec3::Y, ..roll };
        let hit = cast_shape_nonlinear_directional(&wheel, &sink, &floor, &below, &opts);
        assert_eq!(hit.status, CastStatus::Hit, "#{i} wheel sinking: {hit:?}");
        assert!(hit.fraction < 1e-3, "#{i} wheel sinking: {hit:?}");
        // Pucks: upright on the base, spinning about the vertical.
        let spin = DVec3::Y * rng.range(-100.0, 100.0);
        let at = DVec3::new(rng.range(-5.0, 5.0), h, rng.range(-5.0, 5.0));
        let slide = Motion::new(Pose::from_translation(at), heading * speed, spin);
        let hit =
            cast_shape_nonlinear_directional(&Cylinder::new(h, r).unwrap(), &slide, &floor, &below, &opts);
        assert_eq!(hit.status, CastStatus::Miss, "#{i} cylinder puck: {hit:?}");
        assert!(hit.iterations < 150, "#{i} cylinder puck: {hit:?}");
        let hit = cast_shape_nonlinear_directional(&Cone::new(h, r).unwrap(), &slide, &floor, &below, &opts);
        assert_eq!(hit.status, CastStatus::Miss, "#{i} cone puck: {hit:?}");
        assert!(hit.iterations < 150, "#{i} cone puck: {hit:?}");
    }
}

/// NaN, infinity and bad options give `InvalidInput`; no motion at all
/// is a miss; an overlap of nothing moving is a miss.
#[test]
fn degenerate_directional_casts() {
    let (a, b) = (Cuboid::new(DVec3::ONE).unwrap(), Cuboid::new(DVec3::ONE).unwrap());
    let (pa, pb) = (Pose::IDENTITY, Pose::from_translation(DVec3::new(1.5, 0.0, 0.0)));
    let opts = CastOptions::default();
    let h = cast_shape_directional(&a, &pa, DVec3::ZERO, &b, &pb, DVec3::ZERO, &opts);
    assert_eq!(h.status, CastStatus::Miss);
    for bad in [DVec3::NAN, DVec3::new(f64::INFINITY, 0.0, 0.0)] {
        let h = cast_shape_directional(&a, &pa, bad, &b, &pb, DVec3::ZERO, &opts);
        assert_eq!(h.status, CastStatus::InvalidInput, "{bad}");
        let m = Motion::new(pa, DVec3::ZERO, bad);
        let h = cast_shape_nonlinear_directional(&a, &m, &b, &Motion::fixed(pb), &opts);
        assert_eq!(h.status, CastStatus::InvalidInput, "{bad}");
    }
    for target in [f64::NAN, -1.0, f64::INFINITY] {
        let opts = CastOptions { target_distance: target, max_fraction: 1.0 };
        let h = cast_shape_directional(&a, &pa, DVec3::X, &b, &pb, DVec3::ZERO, &opts);
        assert_eq!(h.status, CastStatus::InvalidInput, "{target}");
        let h = cast_shape_nonlinear_directional(&a, &Motion::fixed(pa), &b, &Motion::fixed(pb), &opts);
        assert_eq!(h.status, CastStatus::InvalidInput, "{target}");
    }
    let bad_pose = Pose::from_translation(DVec3::new(f64::NAN, 0.0, 0.0));
    let h = cast_shape_directional(&a, &bad_pose, DVec3::X, &b, &pb, DVec3::ZERO, &opts);
    assert_eq!(h.status, CastStatus::InvalidInput);
    // The `_with` forms: a configuration with a NaN zero tolerance is
    // sanitized to the default one, so the answers are the plain calls'.
    let gjk = GjkConfig { zero_tolerance: f64::NAN, ..GjkConfig::default() };
    let epa = EpaConfig::default();
    let motions = [DVec3::new(1.0, -1.0, 0.0), DVec3::new(1.0, 0.0, 0.0), DVec3::new(-1.0, 0.5, 0.0)];
    for m in motions {
        let plain = cast_shape_directional(&a, &pa, m, &b, &pb, DVec3::ZERO, &opts);
        assert_eq!(
            cast_shape_directional_with(&a, &pa, m, &b, &pb, DVec3::ZERO, &opts, &gjk, &epa),
            plain,
            "{m}"
        );
        let (ma, mb) = (Motion::new(pa, m, DVec3::Z), Motion::fixed(pb));
        let plain = cast_shape_nonlinear_directional(&a, &ma, &b, &mb, &opts);
        assert_eq!(cast_shape_nonlinear_directional_with(&a, &ma, &b, &mb, &opts, &gjk, &epa), plain, "{m}");
    }
}

/// In f32, a capsule standing anywhere on a wide tilted floor (200 across,
/// where the contact query's zero band is ~10⁻² and its normal near
/// touching is rounded to ~10⁻⁴ rad): walking along the slope and jumping
/// off it run free, walking into it stops within the band.
#[test]
fn f32_walks_on_wide_tilted_floors() {
    use gjk_shapes::glam::{Quat, Vec3};
    let mut rng = Rng::new(8108);
    let floor = Cuboid::new(Vec3::new(100.0, 0.5, 100.0)).unwrap();
    let player = Capsule::new(0.5f32, 0.3).unwrap();
    let opts = CastOptions::default();
    for i in 0..500 {
        let q = Quat::from_scaled_axis((rng.unit3() * rng.range(0.0, 0.5)).as_vec3());
        let centre = (rng.unit3() * rng.range(0.0, 20.0)).as_vec3();
        let (up, floor_pose) = (q * Vec3::Y, Pose::new(q, centre));
        let spot = centre + q * Vec3::new(rng.range(-50.0, 50.0) as f32, 0.5, rng.range(-50.0, 50.0) as f32);
        let stand = Pose::new(q, spot + up * 0.8);
        let along = q * (Vec3::new(rng.range(-1.0, 1.0) as f32, 0.0, rng.range(-1.0, 1.0) as f32) * 3.0);
        let off = up * rng.range(0.1, 2.0) as f32;
        for (label, m, want) in [
            ("walk", along, CastStatus::Miss),
            ("jump", along + off, CastStatus::Miss),
            ("dig", along - off, CastStatus::Hit),
        ] {
            let h = cast_shape_directional(&player, &stand, m, &floor, &floor_pose, Vec3::ZERO, &opts);
            assert_eq!(h.status, want, "#{i} {label}: {h:?}");
            if want == CastStatus::Hit {
                // Stopped within 0.06 of the floor's surface (the band).
                let sunk = (off.length() * h.fraction) as f64;
                assert!(sunk < 0.06, "#{i}: sank {sunk}");
                assert!((h.normal + up).length() < 1e-3, "#{i}: {h:?}");
            }
        }
    }
}

/// Regression (found by the epa tour): in f32, a cube tipping about a
/// bottom edge on a wide floor stalled (`IterationLimit` after 0.03 rad)
/// where the contact's normal near touching was rounded by ~10⁻⁴ rad,
/// which put the floor's far corners 10⁻³ into the cast's room. The cast
/// now measures the normal again with the pair moved apart along it
/// (`NONLINEAR_CAST_NORMAL_SHIFT`). Every configuration of the grid that
/// held the four stalls (marked) hits just past upright.
#[test]
fn f32_tipping_on_a_wide_floor_measures_the_normal_again() {
    use gjk_shapes::glam::{Quat, Vec3};
    let stalled = [(5.0, 0.25, -1.0), (5.0, 0.5, -1.0), (20.0, 0.5, -1.0), (20.0, 1.0, -1.0)];
    for width in [5.0f32, 20.0] {
        for half in [0.25f32, 0.5, 1.0] {
            for sign in [-1.0f32, 1.0] {
                for yaw in [0.0f32, 0.3, 1.0, 2.0] {
                    let ground = Cuboid::new(Vec3::new(width, 0.5, width)).unwrap();
                    let pg = Pose::new(Quat::from_rotation_y(yaw), Vec3::new(0.0, -0.5, 0.0));
                    let cube = Cuboid::new(Vec3::splat(half)).unwrap();
                    let rest = Pose::from_translation(Vec3::new(0.0, half, 0.0));
                    let tip = Motion::new(rest, Vec3::ZERO, Vec3::Z * sign).with_local_center(Vec3::new(
                        -sign * half,
                        -half,
                        0.0,
                    ));
                    let opts = CastOptions { max_fraction: 3.0, ..CastOptions::default() };
                    let h = cast_shape_nonlinear_directional(&cube, &tip, &ground, &Motion::fixed(pg), &opts);
                    let ctx = format!(
                        "width {width} half {half} sign {sign} yaw {yaw} (stalled before: {})",
                        yaw == 0.0 && stalled.contains(&(width, half, sign))
                    );
                    assert_eq!(h.status, CastStatus::Hit, "{ctx}: {h:?}");
                    let past = h.fraction - std::f32::consts::FRAC_PI_2;
                    assert!(past > 0.0 && past * 2.0 * half < 1e-2, "{ctx}: {h:?}");
                }
            }
        }
    }
}
