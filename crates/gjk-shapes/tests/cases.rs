//! Regression cases from `shared/cases/README.md` that involve boxes,
//! spheres and capsules, through the shapes and poses of this crate. Inputs
//! verbatim; expectations from the reports or independent oracles.
#![allow(clippy::excessive_precision)]

use gjk_shapes::gjk_core::Status;
use gjk_shapes::glam::{DMat3, DQuat, DVec3, Quat, Vec3};
use gjk_shapes::{Ball, Capsule, Cuboid, Pose, distance, intersects};
use gjk_testkit::*;

/// Case 3, fcl #493: tilted kissing boxes, over sizes and ±1e-15 gaps.
#[test]
fn fcl_493_tilted_kissing_boxes() {
    let q = DQuat::from_mat3(&fcl493_rotation());
    let t1 = DVec3::new(2.0770063995786869349, 0.48468247475641951239, 1.1543291419087275962);
    let t2 = DVec3::new(2.0, 0.0, 1.25);
    let cube = Cuboid::new(DVec3::splat(0.25)).unwrap();
    let r = distance(&cube, &Pose::new(q, t1), &cube, &Pose::new(q, t2));
    assert!(r.distance < 1e-9 && r.intersects(), "{r:?}");
    for size in [0.01, 0.25, 0.5, 10.0, 1000.0] {
        for rel_gap in [-1e-15, 0.0, 1e-15] {
            let c = Cuboid::new(DVec3::splat(size * 0.5)).unwrap();
            let pa = Pose::new(q, t1 * size);
            let pb =
                Pose::new(q, t1 * size + q * DVec3::new(0.3 * size, size * (1.0 + rel_gap), -0.2 * size));
            let r = distance(&c, &pa, &c, &pb);
            assert!(r.distance <= r.tolerance, "size {size} gap {rel_gap}: {r:?}");
            assert!(r.intersects() && intersects(&c, &pa, &c, &pb), "size {size} gap {rel_gap}");
            if r.status == Status::Touching {
                assert!((r.normal - q * DVec3::Y).length() < 1e-6, "size {size}: {:?}", r.normal);
            }
        }
    }
}

/// Case 4, libccd #25: overlapping cubes, no NaN. (Depth: gjk-epa.)
#[test]
fn libccd_25_overlapping_cubes() {
    let c = Cuboid::new(DVec3::ONE).unwrap();
    let r = distance(&c, &Pose::IDENTITY, &c, &Pose::from_translation(DVec3::new(0.0, 0.0, 1.9)));
    assert_eq!(r.status, Status::Intersecting);
    assert!(r.point_a.is_finite() && r.point_b.is_finite() && r.normal.is_finite());
}

/// Case 5, fcl #293: separated boxes; finite witness points consistent with
/// the distance, which matches the brute-force oracle.
#[test]
fn fcl_293_separated_boxes() {
    let ha = DVec3::new(2.75, 6.0, 0.05) * 0.5;
    let hb = DVec3::new(0.424, 0.15, 0.1686) * 0.5;
    let pa = Pose::from_translation(DVec3::new(1.625, 0.0, 0.5));
    let qb = DQuat::from_xyzw(0.340674, 0.155066, 0.638138, 0.672811).normalize();
    let pb = Pose::new(qb, DVec3::new(0.192074, -0.277870, 0.273546));
    let r = distance(&Cuboid::new(ha).unwrap(), &pa, &Cuboid::new(hb).unwrap(), &pb);
    let oracle = brute_distance_3d(
        &box_corners(ha, DMat3::IDENTITY, pa.translation),
        &box_corners(hb, DMat3::from_quat(qb), pb.translation),
    );
    assert_eq!(r.status, Status::Separated);
    assert!((r.distance - oracle).abs() < 1e-9, "{} vs {oracle}", r.distance);
    assert!(r.point_a.is_finite() && r.point_b.is_finite());
    assert!(((r.point_b - r.point_a).length() - r.distance).abs() < 1e-12);
    // f32 too.
    let rf = distance(
        &Cuboid::new(ha.as_vec3()).unwrap(),
        &Pose::from_translation(pa.translation.as_vec3()),
        &Cuboid::new(hb.as_vec3()).unwrap(),
        &Pose::new(qb.as_quat(), pb.translation.as_vec3()),
    );
    assert!((rf.distance as f64 - oracle).abs() < 1e-5 && rf.point_a.is_finite());
}

/// Case 6, bullet3 #2579: a 1 cm sphere against 5 mm cubes in f32; the
/// overlap answers agree with the f64 analytic oracle.
#[test]
fn bullet_2579_small_sphere_vs_tiny_cubes() {
    let centre = DVec3::new(0.019576, -1.03115, 0.398155);
    let sphere = Ball::new(0.01f32).unwrap();
    let cube = Cuboid::new(Vec3::splat(0.0025)).unwrap();
    for z in [0.3925, 0.3975, 0.4025] {
        let cc = DVec3::new(0.0275, -1.0275, z);
        let oracle = ((centre - cc).abs() - DVec3::splat(0.0025)).max(DVec3::ZERO).length() - 0.01;
        let ps = Pose::from_translation(centre.as_vec3());
        let pc = Pose::from_translation(cc.as_vec3());
        assert_eq!(intersects(&sphere, &ps, &cube, &pc), oracle <= 0.0, "z {z}");
        let r = distance(&sphere, &ps, &cube, &pc);
        assert_eq!(r.intersects(), oracle <= 0.0, "z {z}");
    }
}

/// Case 8, parry #315: exactly touching unit cubes.
#[test]
fn parry_315_exactly_touching_cubes() {
    let c = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let r = distance(
        &c,
        &Pose::from_translation(DVec3::splat(0.5)),
        &c,
        &Pose::from_translation(DVec3::new(1.5, 0.5, 0.5)),
    );
    assert_eq!(r.distance, 0.0);
    assert_eq!(r.status, Status::Touching);
    assert!((r.point_a.x - 1.0).abs() < 1e-12 && (r.point_b.x - 1.0).abs() < 1e-12);
    assert!((r.normal - DVec3::X).length() < 1e-12);
}

/// Case 9, parry #70: a capsule and a ball sinking into a cuboid of
/// half-extent 50 at 200 heights, f32. All 200 overlap.
#[test]
fn parry_70_capsule_and_ball_vs_big_cuboid() {
    let ground = Cuboid::new(Vec3::splat(50.0)).unwrap();
    let pg = Pose::from_translation(Vec3::new(0.0, -50.0, 0.0));
    let capsule = Capsule::new(0.5f32, 0.5).unwrap();
    let ball = Ball::new(0.5f32).unwrap();
    for k in 0..200 {
        let p = Pose::new(Quat::IDENTITY, Vec3::new(0.0, -0.5 + k as f32 / 200.0, 0.0));
        assert!(intersects(&capsule, &p, &ground, &pg), "capsule k={k}");
        assert!(intersects(&ball, &p, &ground, &pg), "ball k={k}");
        let r = distance(&ball, &p, &ground, &pg);
        assert_eq!(r.status, Status::Intersecting, "ball k={k}: {r:?}");
        // With the centre above the ground the cores are apart and the
        // penetration normal is exact: straight down. (At k = 100 the centre
        // lies on the face: the cores overlap at distance 0 and the normal
        // is EPA's to find.)
        if k > 100 {
            assert!((r.normal + Vec3::Y).length() < 1e-5, "k={k}: {:?}", r.normal);
        }
        assert!(distance(&capsule, &p, &ground, &pg).intersects(), "capsule k={k}");
    }
}
