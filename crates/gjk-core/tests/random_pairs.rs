//! Seeded random convex point sets (2D and 3D, 4–64 points) in distant,
//! touching and overlapping configurations, checked against brute-force
//! oracles in f64. Well over 10 000 pairs in total.

use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3};
use gjk_core::{Real, Status, SupportMap, Vector, distance, intersects};
use gjk_testkit::*;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Distant,
    Touching,
    Overlap,
}
const KINDS: [Kind; 3] = [Kind::Distant, Kind::Touching, Kind::Overlap];

/// A random point of the interior of a hull (positive convex weights).
fn interior3(rng: &mut Rng, p: &[DVec3]) -> DVec3 {
    let w: Vec<f64> = p.iter().map(|_| rng.range(0.1, 1.0)).collect();
    let s: f64 = w.iter().sum();
    p.iter().zip(&w).map(|(q, w)| *q * (*w / s)).sum()
}
fn interior2(rng: &mut Rng, p: &[DVec2]) -> DVec2 {
    let w: Vec<f64> = p.iter().map(|_| rng.range(0.1, 1.0)).collect();
    let s: f64 = w.iter().sum();
    p.iter().zip(&w).map(|(q, w)| *q * (*w / s)).sum()
}

/// A pair of the given kind plus, for distant and touching pairs, the oracle
/// distance and closest points.
fn pair3(rng: &mut Rng, na: usize, nb: usize, kind: Kind) -> (Vec<DVec3>, Vec<DVec3>, f64) {
    let a = polyhedron(rng, na);
    let b0 = polyhedron(rng, nb);
    let u = rng.unit3();
    match kind {
        Kind::Overlap => {
            let shift = interior3(rng, &a) - interior3(rng, &b0);
            (a, b0.iter().map(|p| *p + shift).collect(), 0.0)
        }
        Kind::Distant | Kind::Touching => {
            // Separate along u by a plane with a random gap.
            let gap = rng.range(0.01, 2.0);
            let lift = height3(&a, u) + height3(&b0, -u) + gap;
            let b: Vec<DVec3> = b0.iter().map(|p| *p + u * lift).collect();
            let (d, pa, pb) = brute_closest_3d(&a, &b);
            if kind == Kind::Distant {
                (a, b, d)
            } else {
                let back = pa - pb;
                (a, b.iter().map(|p| *p + back).collect(), 0.0)
            }
        }
    }
}

fn pair2(rng: &mut Rng, na: usize, nb: usize, kind: Kind) -> (Vec<DVec2>, Vec<DVec2>, f64) {
    let a = polygon(rng, na);
    let b0 = polygon(rng, nb);
    let u = rng.unit2();
    match kind {
        Kind::Overlap => {
            let shift = interior2(rng, &a) - interior2(rng, &b0);
            (a, b0.iter().map(|p| *p + shift).collect(), 0.0)
        }
        Kind::Distant | Kind::Touching => {
            let gap = rng.range(0.01, 2.0);
            let lift = height2(&a, u) + height2(&b0, -u) + gap;
            let b: Vec<DVec2> = b0.iter().map(|p| *p + u * lift).collect();
            let (d, pa, pb) = brute_closest_2d(&a, &b);
            if kind == Kind::Distant {
                (a, b, d)
            } else {
                let back = pa - pb;
                (a, b.iter().map(|p| *p + back).collect(), 0.0)
            }
        }
    }
}

/// Tallies for one batch, so tests can assert on the mix of outcomes.
#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    touching_verified: usize,
    max_err: f64,
}

/// Checks one result against the oracle. `pts_a`/`pts_b` in f64, `tol` the
/// allowed absolute distance error.
#[allow(clippy::too_many_arguments)]
fn check<V: Vector>(
    kind: Kind,
    oracle: f64,
    r: &gjk_core::DistanceResult<V>,
    hit: bool,
    heights: impl Fn(&V) -> (f64, f64),
    is_vertex_a: impl Fn(&V) -> bool,
    is_vertex_b: impl Fn(&V) -> bool,
    tol: f64,
    tally: &mut Tally,
    ctx: &str,
) {
    tally.pairs += 1;
    let d = r.distance.to_f64();
    let vlen = |v: V| v.length().to_f64();
    assert!(d.is_finite() && r.normal.is_finite() && r.point_a.is_finite() && r.point_b.is_finite(), "{ctx}");
    assert!((vlen(r.normal) - 1.0).abs() < 1e-5, "normal not unit: {ctx} {r:?}");
    // Witness points are convex combinations of real vertices.
    let lam: f64 = r.simplex.barycentric().iter().map(|l| l.to_f64()).sum();
    assert!((lam - 1.0).abs() < 1e-5, "weights sum {lam}: {ctx}");
    for (p, l) in r.simplex.points().iter().zip(r.simplex.barycentric()) {
        assert!(l.to_f64() >= -1e-12, "negative weight: {ctx}");
        assert!(is_vertex_a(&p.a) && is_vertex_b(&p.b), "simplex point not a vertex: {ctx}");
    }
    match kind {
        Kind::Distant => {
            let err = (d - oracle).abs();
            tally.max_err = tally.max_err.max(err);
            assert!(err <= tol, "distance {d} vs oracle {oracle}: {ctx}");
            assert_eq!(r.status, Status::Separated, "{ctx}");
            assert!((vlen(r.point_b - r.point_a) - d).abs() <= tol, "witness gap: {ctx}");
            // The normal is the optimal separating axis: the gap between the
            // shapes' extents along it equals the distance.
            let (ha, lb) = heights(&r.normal);
            assert!((lb - ha - oracle).abs() <= tol, "normal gap {} vs {oracle}: {ctx}", lb - ha);
            assert!(!hit, "boolean says hit on a distant pair: {ctx}");
        }
        Kind::Overlap => {
            assert!(r.status.is_contact(), "status {:?}: {ctx}", r.status);
            assert_eq!(d, 0.0, "{ctx}");
            assert!(hit, "boolean missed an overlap: {ctx}");
        }
        Kind::Touching => {
            // Contact is decided within the zero band the result reports.
            let band = r.tolerance.to_f64() + tol;
            assert!(d <= band, "touching pair at distance {d}: {ctx}");
            if r.status == Status::Touching {
                // Verified normal: the shapes' extents along it overlap by
                // at most the band.
                let (ha, lb) = heights(&r.normal);
                assert!(lb - ha >= -band, "touching normal crosses by {}: {ctx}", ha - lb);
                tally.touching_verified += 1;
            } else {
                assert!(r.status.is_contact() || d <= band, "status {:?}: {ctx}", r.status);
            }
        }
    }
}

fn run3_f64(seed: u64, sizes: &[usize], per: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for &na in sizes {
        for kind in KINDS {
            for i in 0..per {
                let nb = sizes[rng.usize(0, sizes.len() - 1)];
                let (a, b, oracle) = pair3(&mut rng, na, nb, kind);
                let r = distance(a.as_slice(), b.as_slice());
                let hit = intersects(a.as_slice(), b.as_slice());
                let ctx = format!("3d f64 {kind:?} na={na} nb={nb} i={i}");
                check(
                    kind,
                    oracle,
                    &r,
                    hit,
                    |n: &DVec3| (height3(&a, *n), -height3(&b, -*n)),
                    |p| a.contains(p),
                    |p| b.contains(p),
                    1e-9,
                    &mut t,
                    &ctx,
                );
                // Swapping A and B mirrors the answer.
                let s = distance(b.as_slice(), a.as_slice());
                assert!((s.distance - r.distance).abs() <= 1e-9, "swap: {ctx}");
                if kind == Kind::Distant {
                    assert!((s.normal + r.normal).length() < 1e-6, "swap normal: {ctx}");
                    assert!((s.point_a - r.point_b).length() < 1e-6, "swap witness: {ctx}");
                }
                // Every tenth pair: the seed's least-squares GJK agrees.
                if i % 10 == 0 && kind == Kind::Distant {
                    let ref_d = reference_gjk(&v3(&a), &v3(&b));
                    assert!((ref_d - r.distance).abs() < 1e-7, "reference {ref_d}: {ctx}");
                }
            }
        }
    }
    t
}

fn run2_f64(seed: u64, sizes: &[usize], per: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for &na in sizes {
        for kind in KINDS {
            for i in 0..per {
                let nb = sizes[rng.usize(0, sizes.len() - 1)];
                let (a, b, oracle) = pair2(&mut rng, na, nb, kind);
                let r = distance(a.as_slice(), b.as_slice());
                let hit = intersects(a.as_slice(), b.as_slice());
                let ctx = format!("2d f64 {kind:?} na={na} nb={nb} i={i}");
                check(
                    kind,
                    oracle,
                    &r,
                    hit,
                    |n: &DVec2| (height2(&a, *n), -height2(&b, -*n)),
                    |p| a.contains(p),
                    |p| b.contains(p),
                    1e-9,
                    &mut t,
                    &ctx,
                );
                let s = distance(b.as_slice(), a.as_slice());
                assert!((s.distance - r.distance).abs() <= 1e-9, "swap: {ctx}");
                if i % 10 == 0 && kind == Kind::Distant {
                    let ref_d = reference_gjk(&v2(&a), &v2(&b));
                    assert!((ref_d - r.distance).abs() < 1e-7, "reference {ref_d}: {ctx}");
                }
            }
        }
    }
    t
}

/// f32 queries on f32-rounded inputs, against the f64 oracle on the same
/// rounded points.
fn run3_f32(seed: u64, sizes: &[usize], per: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for &na in sizes {
        for kind in KINDS {
            for i in 0..per {
                let nb = sizes[rng.usize(0, sizes.len() - 1)];
                let (a, b, _) = pair3(&mut rng, na, nb, kind);
                let af: Vec<Vec3> = a.iter().map(|p| p.as_vec3()).collect();
                let bf: Vec<Vec3> = b.iter().map(|p| p.as_vec3()).collect();
                let a64: Vec<DVec3> = af.iter().map(|p| p.as_dvec3()).collect();
                let b64: Vec<DVec3> = bf.iter().map(|p| p.as_dvec3()).collect();
                let oracle = if kind == Kind::Distant { brute_distance_3d(&a64, &b64) } else { 0.0 };
                let r = distance(af.as_slice(), bf.as_slice());
                let hit = intersects(af.as_slice(), bf.as_slice());
                let ctx = format!("3d f32 {kind:?} na={na} nb={nb} i={i}");
                check(
                    kind,
                    oracle,
                    &r,
                    hit,
                    |n: &Vec3| (height3(&a64, n.as_dvec3()), -height3(&b64, -n.as_dvec3())),
                    |p| af.contains(p),
                    |p| bf.contains(p),
                    2e-5,
                    &mut t,
                    &ctx,
                );
            }
        }
    }
    t
}

fn run2_f32(seed: u64, sizes: &[usize], per: usize) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for &na in sizes {
        for kind in KINDS {
            for i in 0..per {
                let nb = sizes[rng.usize(0, sizes.len() - 1)];
                let (a, b, _) = pair2(&mut rng, na, nb, kind);
                let af: Vec<Vec2> = a.iter().map(|p| p.as_vec2()).collect();
                let bf: Vec<Vec2> = b.iter().map(|p| p.as_vec2()).collect();
                let a64: Vec<DVec2> = af.iter().map(|p| p.as_dvec2()).collect();
                let b64: Vec<DVec2> = bf.iter().map(|p| p.as_dvec2()).collect();
                let oracle = if kind == Kind::Distant { brute_distance_2d(&a64, &b64) } else { 0.0 };
                let r = distance(af.as_slice(), bf.as_slice());
                let hit = intersects(af.as_slice(), bf.as_slice());
                let ctx = format!("2d f32 {kind:?} na={na} nb={nb} i={i}");
                check(
                    kind,
                    oracle,
                    &r,
                    hit,
                    |n: &Vec2| (height2(&a64, n.as_dvec2()), -height2(&b64, -n.as_dvec2())),
                    |p| af.contains(p),
                    |p| bf.contains(p),
                    2e-5,
                    &mut t,
                    &ctx,
                );
            }
        }
    }
    t
}

/// The barycode paper's polygon sizes.
const SIZES_2D: [usize; 6] = [4, 8, 12, 16, 20, 24];
const SIZES_3D: [usize; 4] = [4, 8, 16, 32];

#[test]
fn random_2d_f64_against_brute_force() {
    let t = run2_f64(1, &SIZES_2D, 300);
    assert_eq!(t.pairs, 6 * 3 * 300);
    // Verification must actually confirm most touching pairs.
    assert!(t.touching_verified > 6 * 300 / 2, "{t:?}");
}

#[test]
fn random_3d_f64_against_brute_force() {
    let t = run3_f64(2, &SIZES_3D, 250);
    assert_eq!(t.pairs, 4 * 3 * 250);
    assert!(t.touching_verified > 4 * 250 / 2, "{t:?}");
}

#[test]
fn random_64_point_sets() {
    run2_f64(3, &[64], 12);
    run3_f64(4, &[64], 8);
}

#[test]
fn random_2d_f32_against_f64_brute_force() {
    let t = run2_f32(5, &SIZES_2D, 120);
    assert_eq!(t.pairs, 6 * 3 * 120);
}

#[test]
fn random_3d_f32_against_f64_brute_force() {
    let t = run3_f32(6, &SIZES_3D, 100);
    assert_eq!(t.pairs, 4 * 3 * 100);
}

/// Rigid motions of both shapes leave the distance unchanged, including a
/// shift of 1e5 units.
#[test]
fn rigid_motion_invariance() {
    let mut rng = Rng::new(7);
    for i in 0..500 {
        let kind = KINDS[i % 3];
        let (na, nb) = (rng.usize(4, 16), rng.usize(4, 16));
        let (a, b, _) = pair3(&mut rng, na, nb, kind);
        let r0 = distance(a.as_slice(), b.as_slice());
        let (m, t) = rigid3(&mut rng, 10.0);
        let far = if i % 2 == 0 { DVec3::new(1e5, -1e5, 1e5) } else { DVec3::ZERO };
        let ta: Vec<DVec3> = a.iter().map(|p| m * *p + t + far).collect();
        let tb: Vec<DVec3> = b.iter().map(|p| m * *p + t + far).collect();
        let r1 = distance(ta.as_slice(), tb.as_slice());
        assert!((r0.distance - r1.distance).abs() < 1e-9, "{kind:?} {i}: {} vs {}", r0.distance, r1.distance);
        // Rounding of the moved points may open or close a touching contact
        // by 1e-11, beyond the zero band: compare status on the other kinds.
        if kind != Kind::Touching {
            assert_eq!(r0.status, r1.status, "{kind:?} {i}");
        }
        if kind == Kind::Distant {
            assert!((m * r0.normal - r1.normal).length() < 1e-6);
            assert!((m * r0.point_a + t + far - r1.point_a).length() < 1e-6);
        }
    }
}

/// In f32, a pair far from the origin on a grid that f32 holds exactly gets
/// the same answer as at the origin (the Minkowski difference is exact),
/// beyond the zero band of its coordinates: the band grows with them
/// (`SOURCE_SCALE_WEIGHT`: 4 ε of 1.7e5, about 0.08 here), and within it
/// the far answer is contact or a distance within the band.
#[test]
fn far_from_origin_f32_same_answer() {
    let mut rng = Rng::new(8);
    let grid = |rng: &mut Rng| ((rng.range(-4.0, 4.0) * 64.0).round() / 64.0) as f32;
    let far = Vec3::new(1e5, -1e5, 1e5);
    let mut within_band = 0;
    for i in 0..500 {
        let a: Vec<Vec3> =
            (0..8).map(|_| Vec3::new(grid(&mut rng), grid(&mut rng), grid(&mut rng))).collect();
        let shift = Vec3::new(grid(&mut rng), grid(&mut rng), grid(&mut rng)) * 2.0;
        let b: Vec<Vec3> =
            (0..8).map(|_| Vec3::new(grid(&mut rng), grid(&mut rng), grid(&mut rng)) + shift).collect();
        let r0 = distance(a.as_slice(), b.as_slice());
        let fa: Vec<Vec3> = a.iter().map(|p| *p + far).collect();
        let fb: Vec<Vec3> = b.iter().map(|p| *p + far).collect();
        assert!(fa.iter().zip(&a).all(|(f, p)| *f - far == *p), "grid not exact");
        let r1 = distance(fa.as_slice(), fb.as_slice());
        let a64: Vec<DVec3> = a.iter().map(|p| p.as_dvec3()).collect();
        let b64: Vec<DVec3> = b.iter().map(|p| p.as_dvec3()).collect();
        let hit = intersects(a.as_slice(), b.as_slice());
        let oracle = if hit { 0.0 } else { brute_distance_3d(&a64, &b64) };
        if !hit {
            assert!((r0.distance as f64 - oracle).abs() < 2e-5, "{i}: near {} vs {oracle}", r0.distance);
        }
        assert!(r1.tolerance < 0.1 && r1.tolerance > r0.tolerance, "{i}: far band {}", r1.tolerance);
        if oracle > f64::from(r1.tolerance) {
            assert!((r1.distance as f64 - oracle).abs() < 2e-5, "{i}: far {} vs {oracle}", r1.distance);
            assert!((r0.distance - r1.distance).abs() < 2e-5, "{i}");
            assert_eq!(r0.status.is_contact(), r1.status.is_contact(), "{i}");
        } else {
            within_band += usize::from(!hit);
            assert!(
                r1.distance <= r1.tolerance,
                "{i}: far {:?} {} in the band {}",
                r1.status,
                r1.distance,
                r1.tolerance
            );
        }
    }
    // Most separated pairs are beyond the band (the seed's data: a few
    // within it).
    assert!(within_band < 20, "{within_band} separated pairs within the far band");
}

/// Distance is zero exactly when the boolean test says the shapes meet,
/// outside the band `rel_tolerance` around the zero band's edge.
#[test]
fn distance_zero_iff_boolean_hit() {
    let mut rng = Rng::new(9);
    for i in 0..3000 {
        let n = rng.usize(4, 24);
        let a = polyhedron(&mut rng, n);
        let b: Vec<DVec3> =
            polyhedron(&mut rng, n).iter().map(|p| *p + rng.unit3() * rng.range(0.0, 4.0)).collect();
        let r = distance(a.as_slice(), b.as_slice());
        let hit = intersects(a.as_slice(), b.as_slice());
        assert_eq!(r.intersects(), hit, "{i}: {r:?}");
        assert_eq!(r.distance <= r.tolerance, hit, "{i}");
        let a2 = polygon(&mut rng, n);
        let b2: Vec<DVec2> =
            polygon(&mut rng, n).iter().map(|p| *p + rng.unit2() * rng.range(0.0, 4.0)).collect();
        let r2 = distance(a2.as_slice(), b2.as_slice());
        assert_eq!(r2.intersects(), intersects(a2.as_slice(), b2.as_slice()), "2d {i}: {r2:?}");
    }
}

/// The first point of a slice is its cheap "centre"; the support of the
/// slice is a real maximiser.
#[test]
fn slice_support_is_a_maximiser() {
    let mut rng = Rng::new(10);
    for _ in 0..1000 {
        let n = rng.usize(1, 40);
        let p = polyhedron(&mut rng, n);
        let d = rng.unit3() * rng.range(0.0, 3.0);
        let (s, i) = p.as_slice().support_indexed(d);
        assert_eq!(p[i as usize], s);
        assert!(p.iter().all(|q| q.dot(d) <= s.dot(d)));
    }
}

/// The literal oracle of the Minkowski difference's points agrees with the
/// feature-pair oracle and with GJK on small separated sets.
#[test]
fn minkowski_point_oracle_small_sets() {
    let mut rng = Rng::new(11);
    for i in 0..150 {
        let (na, nb) = (rng.usize(4, 6), rng.usize(4, 6));
        let (a, b, oracle) = pair3(&mut rng, na, nb, Kind::Distant);
        let mink = brute_minkowski_3d(&a, &b);
        assert!((mink - oracle).abs() < 1e-9, "{i}: oracles disagree {mink} vs {oracle}");
        let r = distance(a.as_slice(), b.as_slice());
        assert!((r.distance - mink).abs() < 1e-9, "{i}");
    }
}

/// f32 polygons moved a few zero bands apart (or together) from contact,
/// against the segment-pair brute force in f64: the boolean test says
/// `false` beyond two bands and `true` for overlaps. Regression, exact
/// inputs: these 4-gons, 2.1e-4 apart (2.9 of the distance's bands), were
/// called intersecting: the 2D early exit's cone test took a vertex for
/// "beyond the origin" by `v`'s rounding (`solver2d::cone_encloses_origin`
/// now also checks the third edge). 105 of 75 000 warm 4-gon frames near
/// contact were wrong so.
#[test]
fn f32_polygons_three_bands_apart_are_apart() {
    let a = [
        Vec2::new(-1.0014614, -0.41278678),
        Vec2::new(1.405967, -0.9630891),
        Vec2::new(1.141899, 0.1918928),
        Vec2::new(1.1384959, 0.19781944),
    ];
    let b = [
        Vec2::new(1.1243713, 1.4393568),
        Vec2::new(1.4470673, -1.3116374),
        Vec2::new(1.6192963, 0.24140416),
        Vec2::new(1.4309369, 0.85535634),
    ];
    let d = distance(a.as_slice(), b.as_slice());
    assert!(d.distance > 2.0 * d.tolerance && !intersects(a.as_slice(), b.as_slice()), "{d:?}");
    let mut rng = Rng::new(12);
    for i in 0..20_000 {
        let n = [4, 8, 12][i % 3];
        let pa: Vec<DVec2> = polygon(&mut rng, n);
        let pb: Vec<DVec2> = polygon(&mut rng, n);
        // B brought into contact along the closest points, then moved by
        // k bands of the pair's coordinates along that direction.
        let dir = rng.unit2();
        let far: Vec<DVec2> = pb.iter().map(|p| *p + dir * 10.0).collect();
        let (gap, on_a, on_b) = brute_closest_2d(&pa, &far);
        let normal = (on_b - on_a) / gap;
        let reach = pa.iter().chain(&far).map(|p| p.abs().max_element()).fold(0.0, f64::max);
        let band = 256.0 * f64::from(f32::EPSILON) * 2.0 * reach;
        let k = [-4.0, -2.5, 2.5, 4.0][i % 4];
        let shift = dir * 10.0 - normal * (gap - k * band);
        let a32: Vec<Vec2> = pa.iter().map(|p| p.as_vec2()).collect();
        let b32: Vec<Vec2> = pb.iter().map(|p| (*p + shift).as_vec2()).collect();
        let (a64, b64): (Vec<DVec2>, Vec<DVec2>) =
            (a32.iter().map(|p| p.as_dvec2()).collect(), b32.iter().map(|p| p.as_dvec2()).collect());
        let hit = intersects(a32.as_slice(), b32.as_slice());
        let apart = brute_distance_2d(&a64, &b64);
        if apart > 2.0 * band {
            assert!(!hit, "{i}: {apart:e} apart ({band:e} a band) called intersecting");
        }
        if k < 0.0
            && !a64.is_empty()
            && distance(a64.as_slice(), b64.as_slice()).status == Status::Intersecting
        {
            assert!(hit, "{i}: an overlap called apart");
        }
    }
}
