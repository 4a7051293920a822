//! Regression cases from public bug reports of other libraries
//! (`shared/cases/README.md`), the parts that need only point sets and
//! support functions. Each test names its source and keeps its inputs
//! verbatim; the expectation comes from the report or an independent oracle.

// Inputs are kept verbatim from the reports, digits included.
#![allow(clippy::excessive_precision)]

use gjk_core::glam::{DMat3, DQuat, DVec3, Vec2, Vec3};
use gjk_core::{Status, distance, intersects, support_fn, try_intersects};
use gjk_testkit::*;

fn aabb(min: DVec3, max: DVec3) -> Vec<DVec3> {
    box_corners((max - min) * 0.5, DMat3::IDENTITY, (max + min) * 0.5)
}

/// Case 1, single-header C GJK: the origin lies on a simplex edge and the
/// search direction becomes zero; the overlap was missed.
#[test]
fn single_header_c_gjk_touching_aabbs_missed() {
    let a = aabb(DVec3::ZERO, DVec3::ONE);
    let b = aabb(DVec3::new(0.5, 0.7, 0.5), DVec3::new(2.0, 2.0, 2.0));
    assert_eq!(try_intersects(a.as_slice(), b.as_slice()), Ok(true));
    let r = distance(a.as_slice(), b.as_slice());
    assert_eq!(r.status, Status::Intersecting);
    assert_eq!(r.distance, 0.0);
    // f32 as well.
    let af: Vec<Vec3> = a.iter().map(|p| p.as_vec3()).collect();
    let bf: Vec<Vec3> = b.iter().map(|p| p.as_vec3()).collect();
    assert!(intersects(af.as_slice(), bf.as_slice()));
    assert_eq!(distance(af.as_slice(), bf.as_slice()).status, Status::Intersecting);
}

/// Case 2, Box2D: a thin box and a point just beyond its short edge gave a
/// false overlap.
#[test]
fn box2d_short_edge_point() {
    let bx =
        [Vec2::new(-0.5, -0.0016), Vec2::new(0.5, -0.0016), Vec2::new(0.5, 0.0016), Vec2::new(-0.5, 0.0016)];
    let p = [Vec2::new(0.505, 0.0)];
    let r = distance(&bx, &p);
    assert_eq!(r.status, Status::Separated);
    assert!((r.distance - 0.005).abs() < 1e-6, "{}", r.distance);
    assert!((r.normal.length() - 1.0).abs() < 1e-6);
    assert!((r.normal - Vec2::X).length() < 1e-4, "{:?}", r.normal);
    assert!(!intersects(&bx, &p));
}

/// Case 3, fcl #493: tilted cubes that kiss. The distance must be tiny and
/// the contact reported; generalised over sizes and ±1e-15 relative gaps.
#[test]
fn fcl_493_tilted_kissing_boxes() {
    let r = fcl493_rotation();
    let t1 = DVec3::new(2.0770063995786869349, 0.48468247475641951239, 1.1543291419087275962);
    let t2 = DVec3::new(2.0, 0.0, 1.25);
    let a = box_corners(DVec3::splat(0.25), r, t1);
    let b = box_corners(DVec3::splat(0.25), r, t2);
    let res = distance(a.as_slice(), b.as_slice());
    assert!(res.distance < 1e-9, "{res:?}");
    assert!(res.intersects() || res.distance < 1e-12);
    // Generalisation: B against A across A's local +Y face, offset sideways,
    // at a gap of ±1e-15 of the size.
    for size in [0.01, 0.25, 0.5, 10.0, 1000.0] {
        for rel_gap in [-1e-15, 0.0, 1e-15] {
            let half = DVec3::splat(size * 0.5);
            let a = box_corners(half, r, t1 * size);
            let offset = r * DVec3::new(0.3 * size, size * (1.0 + rel_gap), -0.2 * size);
            let b = box_corners(half, r, t1 * size + offset);
            let res = distance(a.as_slice(), b.as_slice());
            assert!(res.distance <= res.tolerance.max(1e-14 * size), "size {size} gap {rel_gap}: {res:?}");
            assert!(res.intersects(), "size {size} gap {rel_gap}: {res:?}");
            if res.status == Status::Touching {
                assert!((res.normal - r * DVec3::Y).length() < 1e-6, "size {size}: {:?}", res.normal);
            }
        }
    }
}

/// Case 4, libccd #25: cubes of side 2 overlapping by 0.1 along z. (Depth
/// is EPA's; here: overlap found, no NaN.)
#[test]
fn libccd_25_overlapping_cubes() {
    let a = box_corners(DVec3::ONE, DMat3::IDENTITY, DVec3::ZERO);
    let b = box_corners(DVec3::ONE, DMat3::IDENTITY, DVec3::new(0.0, 0.0, 1.9));
    let r = distance(a.as_slice(), b.as_slice());
    assert_eq!(r.status, Status::Intersecting);
    assert!(r.point_a.is_finite() && r.point_b.is_finite() && r.normal.is_finite());
    assert!(intersects(a.as_slice(), b.as_slice()));
}

/// Case 5, fcl #293: separated boxes that produced NaN witness points.
#[test]
fn fcl_293_separated_boxes_finite_witnesses() {
    let a = box_corners(DVec3::new(2.75, 6.0, 0.05) * 0.5, DMat3::IDENTITY, DVec3::new(1.625, 0.0, 0.5));
    let q = DQuat::from_xyzw(0.340674, 0.155066, 0.638138, 0.672811).normalize();
    let b = box_corners(
        DVec3::new(0.424, 0.15, 0.1686) * 0.5,
        DMat3::from_quat(q),
        DVec3::new(0.192074, -0.277870, 0.273546),
    );
    let r = distance(a.as_slice(), b.as_slice());
    let oracle = brute_distance_3d(&a, &b);
    assert_eq!(r.status, Status::Separated);
    assert!((r.distance - oracle).abs() < 1e-9, "{} vs {oracle}", r.distance);
    assert!(r.point_a.is_finite() && r.point_b.is_finite());
    assert!(((r.point_b - r.point_a).length() - r.distance).abs() < 1e-12);
}

/// Case 6, bullet3 #2579: a small sphere against tiny cubes in f32. The
/// overlap answers must agree with an f64 analytic oracle.
#[test]
fn bullet_2579_small_sphere_vs_tiny_cubes() {
    let centre = DVec3::new(0.019576, -1.03115, 0.398155);
    let radius = 0.01;
    for z in [0.3925, 0.3975, 0.4025] {
        let cube_c = DVec3::new(0.0275, -1.0275, z);
        let half = 0.0025;
        // Oracle: distance from the sphere centre to the box, minus radius.
        let d = (centre - cube_c).abs() - DVec3::splat(half);
        let oracle = d.max(DVec3::ZERO).length() - radius;
        let cube: Vec<Vec3> =
            box_corners(DVec3::splat(half), DMat3::IDENTITY, cube_c).iter().map(|p| p.as_vec3()).collect();
        let c32 = centre.as_vec3();
        let sphere = support_fn(move |dir: Vec3| c32 + dir.normalize_or_zero() * radius as f32);
        assert_eq!(intersects(&sphere, cube.as_slice()), oracle <= 0.0, "cube at z {z}");
        // Core plus radius: the centre's distance to the cube, minus r.
        let r = distance(&[c32], cube.as_slice());
        assert!(
            ((r.distance - radius as f32) as f64 - oracle).abs() < 1e-6,
            "z {z}: {} vs {oracle}",
            r.distance
        );
    }
}

/// Case 7, dolfinx #3653: a point against a 7-point hull hit openGJK's
/// iteration cap.
#[test]
fn dolfinx_3653_point_vs_hull_converges() {
    let p = [DVec3::new(44.2919, 39.7508, 18.8208)];
    let hull = [
        DVec3::new(46.0659, 38.6251, 16.3637),
        DVec3::new(44.2764, 42.3867, 18.239),
        DVec3::new(50.0397, 38.4649, 19.9843),
        DVec3::new(47.1963, 40.4563, 19.1057),
        DVec3::new(48.0266, 38.5593, 18.2475),
        DVec3::new(45.1735, 40.495, 17.3336),
        DVec3::new(48.0415, 40.4456, 18.1963),
    ];
    let r = distance(&p, &hull);
    let oracle = brute_distance_3d(&p, &hull);
    assert_eq!(r.status, Status::Separated);
    assert!(r.iterations < 16, "{} iterations", r.iterations);
    assert!((r.distance - oracle).abs() < 1e-9, "{} vs {oracle}", r.distance);
    let rf = distance(&[p[0].as_vec3()], &hull.map(|q| q.as_vec3()));
    assert!(rf.iterations < 16);
    assert!((rf.distance as f64 - oracle).abs() < 1e-4);
}

/// Case 8, parry #315: unit cubes exactly touching along x.
#[test]
fn parry_315_exactly_touching_cubes() {
    let a = box_corners(DVec3::splat(0.5), DMat3::IDENTITY, DVec3::splat(0.5));
    let b = box_corners(DVec3::splat(0.5), DMat3::IDENTITY, DVec3::new(1.5, 0.5, 0.5));
    let r = distance(a.as_slice(), b.as_slice());
    assert_eq!(r.distance, 0.0);
    assert_eq!(r.status, Status::Touching);
    assert!((r.point_a.x - 1.0).abs() < 1e-12 && (r.point_b.x - 1.0).abs() < 1e-12, "{r:?}");
    assert!((r.normal - DVec3::X).length() < 1e-12, "{:?}", r.normal);
    assert!(intersects(a.as_slice(), b.as_slice()));
}

/// Case 9, parry #70: a ball and a capsule resting into a huge cuboid, at
/// 200 heights; every one overlaps. Here through the cores (centre point,
/// segment) plus radius, and through a rounded support function.
#[test]
fn parry_70_scale_relative_tolerance() {
    let cuboid: Vec<Vec3> = box_corners(DVec3::splat(50.0), DMat3::IDENTITY, DVec3::new(0.0, -50.0, 0.0))
        .iter()
        .map(|p| p.as_vec3())
        .collect();
    let r = 0.5f32;
    for k in 0..200 {
        let y = -0.5 + k as f32 / 200.0;
        let centre = Vec3::new(0.0, y, 0.0);
        let ball_core = distance(&[centre], cuboid.as_slice());
        assert!(ball_core.distance <= r, "ball k={k}: {}", ball_core.distance);
        let seg = [centre + Vec3::new(0.0, -0.5, 0.0), centre + Vec3::new(0.0, 0.5, 0.0)];
        let capsule_core = distance(&seg, cuboid.as_slice());
        assert!(capsule_core.distance <= r, "capsule k={k}");
        let ball = support_fn(move |d: Vec3| centre + d.normalize_or_zero() * r);
        assert!(intersects(&ball, cuboid.as_slice()), "rounded ball k={k}");
        let capsule = support_fn(move |d: Vec3| {
            let end = if d.y >= 0.0 { seg[1] } else { seg[0] };
            end + d.normalize_or_zero() * r
        });
        assert!(intersects(&capsule, cuboid.as_slice()), "rounded capsule k={k}");
    }
}

/// Regression (found by gjk-shapes' polygon SAT test, pair 82 of
/// `sat_boolean_matches_brute_force_and_gjk`): a touching pair whose first
/// support point lies at the contact, at rounding level. The zero band was
/// relative to the points seen, that point alone at the start, so the
/// boolean test's first exit called the pair apart by its rounding, and the
/// full query, whose next support call returned the same point, reported
/// `Separated` (by 7e-8 for f32 shapes of size 1). The band now also counts
/// the centres' difference, a point of `A − B` known before any support
/// call. Squares corner to corner (their "centres", the first points, on
/// the far corners so that the first search runs along the diagonal):
/// within the band of their size they touch; clearly apart they do not.
#[test]
fn touching_first_point_keeps_the_band() {
    use gjk_core::glam::DVec2;
    use gjk_core::{distance_value, intersects};
    let square = |o: DVec2| [o + DVec2::ONE, o + DVec2::X, o, o + DVec2::Y];
    let a = [DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
    for (gap, touching) in [(0.0, true), (1e-15, true), (1e-14, true), (1e-6, false)] {
        let b = square(DVec2::splat(1.0 + gap));
        let r = distance(&a, &b);
        assert_eq!(r.status, if touching { Status::Touching } else { Status::Separated }, "gap {gap}: {r:?}");
        assert_eq!(intersects(&a, &b), touching, "gap {gap}");
        assert_eq!(distance_value(&a, &b), Ok(r.distance), "gap {gap}");
        if !touching {
            assert!((r.distance - (1.0 + gap - 1.0) * 2f64.sqrt()).abs() < 1e-12, "gap {gap}: {r:?}");
        }
    }
    // f32: one ulp of 1 apart, and 1e-7 (rounded to the ulp).
    for gap in [0.0f32, f32::EPSILON, 1e-7] {
        let a = a.map(|p| p.as_vec2());
        let b = square(DVec2::splat(1.0 + gap as f64)).map(|p| p.as_vec2());
        let r = distance(&a, &b);
        assert_eq!(r.status, Status::Touching, "f32 gap {gap}: {r:?}");
        assert!(intersects(&a, &b), "f32 gap {gap}");
        assert_eq!(distance_value(&a, &b), Ok(r.distance), "f32 gap {gap}");
    }
}
