//! Degenerate and hostile inputs: coincident, duplicate, collinear and
//! coplanar points, single points, exact face/edge/vertex contact, extreme
//! scales, NaN/inf, empty shapes and lying support functions. Every query
//! must return a finite answer with a meaningful status, never panic or hang.

use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3};
use gjk_core::{
    GjkConfig, GjkError, SimplexCache, Status, distance, distance_with, intersects, support_fn,
    try_intersects,
};
use gjk_testkit::*;

fn cube(min: DVec3, size: f64) -> Vec<DVec3> {
    (0..8)
        .map(|i| min + DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64) * size)
        .collect()
}

#[test]
fn coincident_points_are_a_point() {
    let a = vec![DVec3::new(1.0, 2.0, 3.0); 5];
    let b = vec![DVec3::new(1.0, 2.0, 7.0); 3];
    let r = distance(a.as_slice(), b.as_slice());
    assert_eq!(r.status, Status::Separated);
    assert!((r.distance - 4.0).abs() < 1e-12);
    assert!((r.normal - DVec3::Z).length() < 1e-12);
    // The same point twice: distance zero, a contact.
    let r = distance(a.as_slice(), a.as_slice());
    assert_eq!(r.distance, 0.0);
    assert!(r.status.is_contact());
    assert!(intersects(a.as_slice(), a.as_slice()));
}

#[test]
fn duplicated_vertices_change_nothing() {
    let mut rng = Rng::new(20);
    for i in 0..300 {
        let a = polyhedron(&mut rng, 8);
        let b: Vec<DVec3> = polyhedron(&mut rng, 8).iter().map(|p| *p + DVec3::new(4.0, 0.0, 0.0)).collect();
        let a3: Vec<DVec3> = a.iter().flat_map(|p| [*p; 3]).collect();
        let b100: Vec<DVec3> = b.iter().flat_map(|p| [*p; 100]).collect();
        let r0 = distance(a.as_slice(), b.as_slice());
        let r1 = distance(a3.as_slice(), b100.as_slice());
        assert!((r0.distance - r1.distance).abs() < 1e-12, "{i}");
        assert!((r0.distance - brute_distance_3d(&a, &b)).abs() < 1e-9, "{i}");
    }
}

#[test]
fn collinear_hulls_are_segments() {
    let mut rng = Rng::new(21);
    for i in 0..1000 {
        // Points along two random segments (extra points inside them).
        let (p0, p1) = (rng.unit3() * 2.0, rng.unit3() * 2.0);
        let (q0, q1) = (rng.unit3() * 2.0 + rng.unit3() * 3.0, rng.unit3() * 2.0 + rng.unit3() * 3.0);
        let a: Vec<DVec3> = (0..5).map(|k| p0.lerp(p1, k as f64 / 4.0)).collect();
        let b: Vec<DVec3> = (0..4).map(|k| q0.lerp(q1, k as f64 / 3.0)).collect();
        let oracle = segment_segment_sq3(p0, p1, q0, q1).sqrt();
        let r = distance(a.as_slice(), b.as_slice());
        assert!(
            (r.distance - oracle).abs() < 1e-9 || (oracle < 1e-9 && r.status.is_contact()),
            "{i}: {} vs {oracle}",
            r.distance
        );
        // 2D as well.
        let a2: Vec<DVec2> = a.iter().map(|p| p.truncate()).collect();
        let b2: Vec<DVec2> = b.iter().map(|p| p.truncate()).collect();
        let o2 = segment_segment_sq3(p0.with_z(0.0), p1.with_z(0.0), q0.with_z(0.0), q1.with_z(0.0)).sqrt();
        let r2 = distance(a2.as_slice(), b2.as_slice());
        assert!((r2.distance - o2).abs() < 1e-9, "2d {i}: {} vs {o2}", r2.distance);
        assert_eq!(r2.intersects(), intersects(a2.as_slice(), b2.as_slice()), "2d {i}");
    }
}

#[test]
fn coplanar_hulls() {
    let square = |z: f64, dx: f64| -> Vec<DVec3> {
        vec![
            DVec3::new(dx, 0.0, z),
            DVec3::new(dx + 1.0, 0.0, z),
            DVec3::new(dx + 1.0, 1.0, z),
            DVec3::new(dx, 1.0, z),
            DVec3::new(dx + 0.5, 0.5, z), // interior point of the face
        ]
    };
    // Parallel, stacked: distance = gap, normal along z.
    let r = distance(square(0.0, 0.0).as_slice(), square(0.25, 0.3).as_slice());
    assert_eq!(r.status, Status::Separated);
    assert!((r.distance - 0.25).abs() < 1e-12);
    assert!((r.normal - DVec3::Z).length() < 1e-9);
    // Same plane, overlapping: contact.
    let r = distance(square(0.0, 0.0).as_slice(), square(0.0, 0.5).as_slice());
    assert!(r.status.is_contact() && r.distance == 0.0);
    // Same plane, apart along x.
    let r = distance(square(0.0, 0.0).as_slice(), square(0.0, 1.75).as_slice());
    assert!((r.distance - 0.75).abs() < 1e-12);
    assert!((r.normal - DVec3::X).length() < 1e-9);
    // Same plane, sharing an edge exactly.
    let r = distance(square(0.0, 0.0).as_slice(), square(0.0, 1.0).as_slice());
    assert!(r.distance <= r.tolerance && r.status.is_contact());
}

#[test]
fn single_points() {
    let p = [DVec3::new(0.5, 0.5, 0.5)];
    let c = cube(DVec3::ZERO, 1.0);
    let r = distance(&p, c.as_slice());
    assert!(r.status.is_contact() && r.distance == 0.0);
    let q = [DVec3::new(2.0, 0.5, 0.5)];
    let r = distance(&q, c.as_slice());
    assert!((r.distance - 1.0).abs() < 1e-12);
    assert!((r.point_b - DVec3::new(1.0, 0.5, 0.5)).length() < 1e-12);
    assert!((r.normal + DVec3::X).length() < 1e-12);
    // Point exactly on a face, an edge and a vertex.
    for on in [DVec3::new(1.0, 0.5, 0.5), DVec3::new(1.0, 1.0, 0.5), DVec3::new(1.0, 1.0, 1.0)] {
        let r = distance(&[on], c.as_slice());
        assert!(r.distance <= r.tolerance && r.intersects(), "{on}: {r:?}");
        assert!(intersects(&[on], c.as_slice()));
    }
    let r = distance(&[Vec2::new(1.0, 1.0)], &[Vec2::new(1.0, 1.0)]);
    assert!(r.intersects());
}

/// Exact face, edge and vertex contact between cubes: distance zero, and
/// when the status says touching, the normal separates the cubes.
#[test]
fn exact_touching_features() {
    let a = cube(DVec3::ZERO, 1.0);
    let cases = [
        ("face", cube(DVec3::new(1.0, 0.2, 0.3), 1.0), DVec3::X),
        ("edge", cube(DVec3::new(1.0, 1.0, 0.3), 1.0), DVec3::new(1.0, 1.0, 0.0)),
        ("vertex", cube(DVec3::new(1.0, 1.0, 1.0), 1.0), DVec3::ONE),
    ];
    for (name, b, _) in &cases {
        let r = distance(a.as_slice(), b.as_slice());
        assert!(r.distance <= r.tolerance, "{name}: {r:?}");
        assert!(r.intersects(), "{name}: {r:?}");
        assert!(intersects(a.as_slice(), b.as_slice()), "{name}");
        if r.status == Status::Touching {
            let gap = -height3(b, -r.normal) - height3(&a, r.normal);
            assert!(gap >= -r.tolerance, "{name}: normal {:?} crosses by {}", r.normal, -gap);
        }
    }
    // Face contact: the normal is exactly the face normal.
    let r = distance(a.as_slice(), cases[0].1.as_slice());
    assert_eq!(r.status, Status::Touching);
    assert!((r.normal - DVec3::X).length() < 1e-9, "{r:?}");
}

/// Random pairs scaled by 1e-6 and 1e6 give the scaled answer.
#[test]
fn extreme_scales() {
    let mut rng = Rng::new(22);
    for i in 0..600 {
        let a = polyhedron(&mut rng, 10);
        let b: Vec<DVec3> = polyhedron(&mut rng, 10).iter().map(|p| *p + rng.unit3() * 5.0).collect();
        let r = distance(a.as_slice(), b.as_slice());
        for s in [1e-6, 1e6] {
            let sa: Vec<DVec3> = a.iter().map(|p| *p * s).collect();
            let sb: Vec<DVec3> = b.iter().map(|p| *p * s).collect();
            let rs = distance(sa.as_slice(), sb.as_slice());
            assert_eq!(rs.status, r.status, "{i} scale {s}");
            assert!((rs.distance - r.distance * s).abs() <= 1e-9 * s, "{i} scale {s}");
            // f32 as well, against the f64 answer.
            let fa: Vec<Vec3> = sa.iter().map(|p| p.as_vec3()).collect();
            let fb: Vec<Vec3> = sb.iter().map(|p| p.as_vec3()).collect();
            let rf = distance(fa.as_slice(), fb.as_slice());
            assert!((rf.distance as f64 - r.distance * s).abs() <= 1e-4 * s, "{i} f32 scale {s}");
            assert_eq!(rf.intersects(), r.intersects(), "{i} f32 scale {s}");
        }
    }
}

#[test]
fn nan_and_infinity_are_invalid_input() {
    let good = cube(DVec3::ZERO, 1.0);
    let bad_values = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
    for bad in bad_values {
        for slot in [0, 3, 7] {
            let mut b = cube(DVec3::new(3.0, 0.0, 0.0), 1.0);
            b[slot].y = bad;
            for (x, y) in [(&good, &b), (&b, &good)] {
                let r = distance(x.as_slice(), y.as_slice());
                assert_eq!(r.status, Status::InvalidInput, "{bad} at {slot}");
                assert_eq!(r.distance, f64::INFINITY, "invalid input never reads as contact");
                assert!(r.point_a.is_finite() && r.point_b.is_finite() && r.normal.is_finite());
                assert_eq!(r.try_distance(), None);
                assert_eq!(try_intersects(x.as_slice(), y.as_slice()), Err(GjkError::InvalidInput));
                assert!(!intersects(x.as_slice(), y.as_slice()));
            }
        }
    }
    // A support function that answers NaN.
    let nan = support_fn(|_d: Vec3| Vec3::NAN);
    let r = distance(&nan, &[Vec3::ZERO]);
    assert_eq!(r.status, Status::InvalidInput);
    // Empty shapes have no points.
    let empty: [Vec2; 0] = [];
    assert_eq!(distance(&empty, &[Vec2::ZERO]).status, Status::InvalidInput);
    assert_eq!(try_intersects(&empty, &[Vec2::ZERO]), Err(GjkError::InvalidInput));
    // Huge but finite coordinates whose difference overflows.
    let r = distance(&[DVec3::splat(f64::MAX)], &[DVec3::splat(-f64::MAX)]);
    assert_eq!(r.status, Status::InvalidInput);
    // A bad coordinate in a one-point slice (no dot product to carry it).
    for bad in bad_values {
        let r = distance(&[DVec3::new(bad, 0.0, 0.0)], good.as_slice());
        assert_eq!(r.status, Status::InvalidInput, "{bad}");
    }
}

/// Finite coordinates whose support dot products are finite one by one but
/// overflow when the slice support sums them (its cheap finiteness test)
/// are valid input: the exact test decides, and the query answers.
#[test]
fn huge_finite_slices_whose_dot_sums_overflow_are_valid() {
    let far = 5e307;
    let a = [
        DVec3::ZERO,
        DVec3::new(far, 0.0, 0.0),
        DVec3::new(far, 1.0, 0.0),
        DVec3::new(far, 0.0, 1.0),
        DVec3::new(far, 1.0, 1.0),
    ];
    let b = [DVec3::new(-1.0, 0.0, 0.0), DVec3::new(-2.0, 0.0, 0.0)];
    // Along A's first search direction (towards B: −X) the four far
    // vertices' dots sum to −2e308.
    let r = distance(a.as_slice(), b.as_slice());
    assert_ne!(r.status, Status::InvalidInput);
    assert!(r.distance.is_finite() && r.distance <= 1.0 + r.tolerance, "{r:?}");
    assert_eq!(try_intersects(a.as_slice(), b.as_slice()).map(|_| ()), Ok(()));
}

/// A warm start rebuilds its simplex by vertex index, with no support
/// call: a cached vertex that turned NaN or infinite (on A or on B) must
/// still give `InvalidInput` and empty the cache, and the next good frame
/// must be answered as a cold query would.
#[test]
fn warm_start_from_a_vertex_turned_non_finite() {
    let a = cube(DVec3::ZERO, 1.0);
    let b = cube(DVec3::new(3.0, 0.2, 0.1), 1.0);
    let cfg = GjkConfig::default();
    let cold = distance(a.as_slice(), b.as_slice());
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for on_b in [false, true] {
            let mut cache = SimplexCache::new();
            distance_with(a.as_slice(), b.as_slice(), &cfg, Some(&mut cache), &mut ());
            assert!(!cache.is_empty());
            // Every cached vertex of the chosen shape turns bad.
            let (mut a2, mut b2) = (a.clone(), b.clone());
            for i in 0..cache.len() {
                let (ia, ib) = cache.indices(i);
                if on_b {
                    b2[ib as usize].x = bad;
                } else {
                    a2[ia as usize].z = bad;
                }
            }
            let r = distance_with(a2.as_slice(), b2.as_slice(), &cfg, Some(&mut cache), &mut ());
            assert_eq!(r.status, Status::InvalidInput, "{bad} on B: {on_b}");
            assert!(r.point_a.is_finite() && r.point_b.is_finite() && r.normal.is_finite());
            assert!(cache.is_empty(), "{bad} on B: {on_b}");
            let r = distance_with(a.as_slice(), b.as_slice(), &cfg, Some(&mut cache), &mut ());
            assert_eq!(r.status, cold.status);
            assert!((r.distance - cold.distance).abs() <= 1e-12, "{} {}", r.distance, cold.distance);
        }
    }
}

#[test]
fn bad_configuration_is_sanitized() {
    let a = cube(DVec3::ZERO, 1.0);
    let b = cube(DVec3::new(2.0, 0.0, 0.0), 1.0);
    let cfg = GjkConfig {
        max_iterations: 0,
        rel_tolerance: f64::NAN,
        zero_tolerance: -1.0,
        max_distance: f64::NAN,
    };
    let r = distance_with(a.as_slice(), b.as_slice(), &cfg, None, &mut ());
    assert!(r.distance.is_finite());
    assert!(matches!(r.status, Status::Separated | Status::IterationLimit));
    assert!(r.distance >= 1.0 - 1e-12);
}

/// `GjkConfig::sanitized` field by field: each bad value alone is replaced
/// (NaN, negative or infinite tolerances by the defaults, a zero cap by
/// one, a NaN limit by infinity, a negative one by zero), and a valid
/// configuration comes back unchanged (its fast path).
#[test]
fn sanitized_field_by_field() {
    let d = GjkConfig::<f64>::default();
    assert_eq!(d.sanitized(), d);
    let valid = GjkConfig { max_iterations: 7, rel_tolerance: 0.0, zero_tolerance: 1e-3, max_distance: 0.0 };
    assert_eq!(valid.sanitized(), valid);
    assert_eq!(GjkConfig { max_iterations: 0, ..d }.sanitized().max_iterations, 1);
    for bad in [f64::NAN, -1.0, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(
            GjkConfig { rel_tolerance: bad, ..valid }.sanitized(),
            GjkConfig { rel_tolerance: d.rel_tolerance, ..valid }
        );
        assert_eq!(
            GjkConfig { zero_tolerance: bad, ..valid }.sanitized(),
            GjkConfig { zero_tolerance: d.zero_tolerance, ..valid }
        );
    }
    assert_eq!(GjkConfig { max_distance: f64::NAN, ..valid }.sanitized().max_distance, f64::INFINITY);
    assert_eq!(GjkConfig { max_distance: -2.0, ..valid }.sanitized().max_distance, 0.0);
    assert_eq!(GjkConfig { max_distance: f64::INFINITY, ..valid }.sanitized().max_distance, f64::INFINITY);
}

/// With a cap of one iteration the answer is an upper bound with valid
/// witness points.
#[test]
fn iteration_limit_gives_upper_bound() {
    let mut rng = Rng::new(23);
    let cfg = GjkConfig { max_iterations: 1, ..GjkConfig::default() };
    for i in 0..300 {
        let a = polyhedron(&mut rng, 32);
        let b: Vec<DVec3> = polyhedron(&mut rng, 32).iter().map(|p| *p + DVec3::new(6.0, 0.0, 0.0)).collect();
        let r = distance_with(a.as_slice(), b.as_slice(), &cfg, None, &mut ());
        let oracle = brute_distance_3d(&a, &b);
        assert!(r.distance >= oracle - 1e-9, "{i}");
        assert!(r.lower_bound <= oracle + 1e-9, "{i}");
        if r.status == Status::IterationLimit {
            assert!(((r.point_b - r.point_a).length() - r.distance).abs() < 1e-9);
        }
    }
}

/// A support "function" that lies (answers pseudo-random points, so the
/// shape is not convex and not even fixed) must still end within budget.
#[test]
fn lying_support_functions_terminate() {
    use std::cell::Cell;
    for seed in 0..200u64 {
        let state = Cell::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let next = || {
            let mut x = state.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            state.set(x);
            (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let liar = support_fn(|_d: DVec3| DVec3::new(next(), next(), next()) * 3.0);
        let r = distance(&liar, &[DVec3::ZERO]);
        assert!(r.distance.is_finite() && r.normal.is_finite());
        assert!(
            r.iterations <= gjk_core::DEFAULT_MAX_ITERATIONS + gjk_core::tuning::MAX_VERIFY_CANDIDATES as u32
        );
        let liar2 = support_fn(|_d: DVec2| DVec2::new(next(), next()));
        let _ = try_intersects(&liar2, &[DVec2::ZERO]);
        let mut cache = SimplexCache::new();
        let _ = gjk_core::internal::distance_warm(&liar2, &[DVec2::X], &mut cache);
        let _ = gjk_core::internal::distance_warm(&liar2, &[DVec2::X], &mut cache);
    }
}

/// `SupportPoint::is_finite` (one fused test, `0 · x` per coordinate) flags
/// any infinity or NaN in any of its three points, and only those: huge
/// finite coordinates, whose sums would overflow, still pass.
#[test]
fn support_point_finiteness_is_exact() {
    use gjk_core::SupportPoint;
    use gjk_core::glam::{Vec2, Vec3};
    let big = f32::MAX;
    let ok = SupportPoint::new(Vec3::splat(big), Vec3::splat(-big));
    assert!(!ok.w.is_finite() && !ok.is_finite(), "w = a − b overflows: not finite");
    let huge = SupportPoint {
        w: Vec3::splat(big),
        a: Vec3::splat(big),
        b: Vec3::splat(-big),
        index_a: 0,
        index_b: 0,
    };
    assert!(huge.is_finite(), "finite coordinates at f32::MAX pass");
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for slot in 0..3 {
            for axis in 0..3 {
                let mut p = SupportPoint::new(Vec3::ONE, Vec3::ZERO);
                let v = match slot {
                    0 => &mut p.w,
                    1 => &mut p.a,
                    _ => &mut p.b,
                };
                v[axis] = bad;
                assert!(!p.is_finite(), "{bad} in point {slot}, axis {axis}");
            }
        }
        let mut q = SupportPoint::new(Vec2::ONE, -Vec2::ONE);
        q.a.y = bad;
        assert!(!q.is_finite());
    }
    assert!(SupportPoint::new(Vec2::new(-0.0, 1e-45), Vec2::ZERO).is_finite());
}

/// A triangle's squared doubled area is its size to the fourth power,
/// which overflows f32 past ~1e9 (and underflows below ~1e-10): the
/// solver took every such face for degenerate and ended on an edge, far
/// from the face (a ball of 1e6 over a box of 1e10 measured 1.3e9 for a
/// gap of 3e5). Points over the faces of a turned cube at sizes from 1e-9
/// to 1e12, f32 and f64, against the plane's distance.
#[test]
fn f32_beyond_1e9_keeps_its_faces() {
    use glam::{DQuat, DVec3, Vec3};
    let mut rng = gjk_testkit::Rng::new(5505);
    for e in -9..=12 {
        let size = 10f64.powi(e);
        for _ in 0..50 {
            let rot = DQuat::from_axis_angle(rng.unit3(), rng.range(0.0, 6.0));
            let corners: Vec<DVec3> = (0..8)
                .map(|i| {
                    let sign = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
                    rot * DVec3::new(sign(0), sign(1), sign(2)) * size
                })
                .collect();
            let n = rot * DVec3::Z;
            let gap = rng.range(0.01, 0.5) * size;
            let over = rot * DVec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), 1.0) * size + n * gap;
            let c32: Vec<Vec3> = corners.iter().map(|p| p.as_vec3()).collect();
            let p32 = [over.as_vec3()];
            // The oracle on the rounded f32 inputs: the point's height over
            // the face's plane, from three of its corners.
            let face: Vec<DVec3> = c32
                .iter()
                .map(|p| p.as_dvec3())
                .filter(|p| n.dot(*p - rot * DVec3::Z * size).abs() < 1e-3 * size)
                .collect();
            let m = (face[1] - face[0]).cross(face[2] - face[0]).normalize();
            let exact = m.dot(p32[0].as_dvec3() - face[0]).abs();
            let r = gjk_core::distance(&c32[..], &p32[..]);
            assert!(
                (r.distance as f64 - exact).abs() <= 1e-5 * gap + r.tolerance as f64,
                "f32 size {size:e}: {exact:e} {r:?}"
            );
            let r = gjk_core::distance(&corners[..], &[over][..]);
            assert!(
                (r.distance - gap).abs() <= 1e-12 * gap + r.tolerance,
                "f64 size {size:e}: {gap:e} {r:?}"
            );
        }
    }
}
