//! Distances between posed shapes against analytic answers: sphere–sphere,
//! sphere–box, capsule–capsule (segment–segment distance), box–box (brute
//! force over corners, separating-axis test for overlap), under random
//! poses, thousands each; plus the wrappers against equivalent shapes.

use gjk_shapes::gjk_core::{GjkConfig, SimplexCache, Status};
use gjk_shapes::glam::{DMat3, DQuat, DVec2, DVec3, Vec3};
use gjk_shapes::{
    Ball, Capsule, ConvexHull, ConvexPolygon, Cuboid, MinkowskiSum, Pose, Rot2, Rounded, Swept, Transformed,
    distance, distance_with, intersects,
};
use gjk_testkit::*;

fn pose3(rng: &mut Rng, reach: f64) -> Pose<DVec3> {
    Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, reach))
}

/// Common checks of a separated result against an oracle distance and,
/// when given, oracle witness points.
fn check_sep(r: &gjk_shapes::gjk_core::DistanceResult<DVec3>, oracle: f64, tol: f64, ctx: &str) {
    assert!((r.distance - oracle).abs() <= tol, "{ctx}: {} vs {oracle}", r.distance);
    assert_eq!(r.status, Status::Separated, "{ctx}");
    assert!(((r.point_b - r.point_a).length() - r.distance).abs() <= tol, "{ctx}: witness gap");
    assert!((r.normal.length() - 1.0).abs() < 1e-9);
    assert!(((r.point_b - r.point_a).normalize() - r.normal).length() < 1e-6, "{ctx}: normal");
}

#[test]
fn sphere_sphere() {
    let mut rng = Rng::new(200);
    for i in 0..3000 {
        let (r1, r2) = (rng.range(0.01, 2.0), rng.range(0.01, 2.0));
        let (p1, p2) = (pose3(&mut rng, 5.0), pose3(&mut rng, 5.0));
        let (a, b) = (Ball::new(r1).unwrap(), Ball::new(r2).unwrap());
        let r = distance(&a, &p1, &b, &p2);
        let c = p2.translation - p1.translation;
        let oracle = c.length() - r1 - r2;
        let ctx = format!("#{i}");
        if oracle > 1e-9 {
            check_sep(&r, oracle, 1e-12 * (1.0 + c.length()), &ctx);
            // Witness points exactly on the spheres.
            assert!(((r.point_a - p1.translation).length() - r1).abs() < 1e-12, "{ctx}");
            assert!(((r.point_b - p2.translation).length() - r2).abs() < 1e-12, "{ctx}");
            assert!((r.normal - c.normalize()).length() < 1e-12, "{ctx}");
        } else if oracle < -1e-9 {
            assert_eq!(r.status, Status::Intersecting, "{ctx}");
            assert_eq!(r.distance, 0.0);
            if c.length() > 1e-9 {
                assert!((r.normal - c.normalize()).length() < 1e-9, "{ctx}: penetration normal");
            }
        }
        assert_eq!(intersects(&a, &p1, &b, &p2), oracle <= 1e-9, "{ctx}");
    }
}

#[test]
fn sphere_box() {
    let mut rng = Rng::new(201);
    let mut seen = [0usize; 2];
    for i in 0..3000 {
        let rad = rng.range(0.01, 1.5);
        let half = DVec3::new(rng.range(0.05, 2.0), rng.range(0.05, 2.0), rng.range(0.05, 2.0));
        let (ps, pb) = (pose3(&mut rng, 4.0), pose3(&mut rng, 4.0));
        let r = distance(&Ball::new(rad).unwrap(), &ps, &Cuboid::new(half).unwrap(), &pb);
        // Oracle: the centre in the box frame, clamped to the box.
        let local = pb.inverse_transform_point(ps.translation);
        let outside = (local.abs() - half).max(DVec3::ZERO).length();
        let oracle = outside - rad;
        let ctx = format!("#{i}");
        if oracle > 1e-9 {
            check_sep(&r, oracle, 1e-9, &ctx);
            seen[0] += 1;
        } else if oracle < -1e-9 {
            assert_eq!(r.status, Status::Intersecting, "{ctx}");
            seen[1] += 1;
        }
        let hit = intersects(&Ball::new(rad).unwrap(), &ps, &Cuboid::new(half).unwrap(), &pb);
        if oracle.abs() > 1e-9 {
            assert_eq!(hit, oracle < 0.0, "{ctx}");
        }
    }
    assert!(seen[0] > 500 && seen[1] > 500, "{seen:?}");
}

#[test]
fn capsule_capsule() {
    let mut rng = Rng::new(202);
    for i in 0..3000 {
        let (h1, r1, h2, r2) =
            (rng.range(0.0, 2.0), rng.range(0.01, 1.0), rng.range(0.0, 2.0), rng.range(0.01, 1.0));
        let (p1, p2) = (pose3(&mut rng, 4.0), pose3(&mut rng, 4.0));
        let (a, b) = (Capsule::new(h1, r1).unwrap(), Capsule::new(h2, r2).unwrap());
        let r = distance(&a, &p1, &b, &p2);
        let seg = |p: &Pose<DVec3>, h: f64| {
            (p.transform_point(DVec3::new(0.0, -h, 0.0)), p.transform_point(DVec3::Y * h))
        };
        let ((a0, a1), (b0, b1)) = (seg(&p1, h1), seg(&p2, h2));
        let oracle = segment_segment_sq3(a0, a1, b0, b1).sqrt() - r1 - r2;
        let ctx = format!("#{i}");
        if oracle > 1e-9 {
            check_sep(&r, oracle, 1e-9, &ctx);
            // Witness points on the capsule surfaces.
            assert!((point_segment_sq(r.point_a, a0, a1).sqrt() - r1).abs() < 1e-9, "{ctx}");
            assert!((point_segment_sq(r.point_b, b0, b1).sqrt() - r2).abs() < 1e-9, "{ctx}");
        } else if oracle < -1e-9 {
            assert_eq!(r.status, Status::Intersecting, "{ctx}");
        }
    }
}

#[test]
fn box_box() {
    let mut rng = Rng::new(203);
    let mut seen = [0usize; 2];
    for i in 0..3000 {
        let ha = DVec3::new(rng.range(0.1, 1.5), rng.range(0.1, 1.5), rng.range(0.1, 1.5));
        let hb = DVec3::new(rng.range(0.1, 1.5), rng.range(0.1, 1.5), rng.range(0.1, 1.5));
        let (pa, pb) = (pose3(&mut rng, 3.0), pose3(&mut rng, 3.0));
        let (ra, rb) = (DMat3::from_quat(pa.rotation), DMat3::from_quat(pb.rotation));
        let (sat, _) = box_box_sat(ha, ra, pa.translation, hb, rb, pb.translation);
        let r = distance(&Cuboid::new(ha).unwrap(), &pa, &Cuboid::new(hb).unwrap(), &pb);
        let ctx = format!("#{i}");
        if sat < -1e-9 {
            let ca = box_corners(ha, ra, pa.translation);
            let cb = box_corners(hb, rb, pb.translation);
            let oracle = brute_distance_3d(&ca, &cb);
            check_sep(&r, oracle, 1e-9, &ctx);
            seen[0] += 1;
        } else if sat > 1e-9 {
            assert_eq!(r.status, Status::Intersecting, "{ctx}");
            assert_eq!(r.distance, 0.0);
            seen[1] += 1;
        }
        if sat.abs() > 1e-9 {
            assert_eq!(intersects(&Cuboid::new(ha).unwrap(), &pa, &Cuboid::new(hb).unwrap(), &pb), sat > 0.0);
        }
    }
    assert!(seen[0] > 500 && seen[1] > 500, "{seen:?}");
}

/// f32 shapes against the same f64 oracles.
#[test]
fn f32_shapes() {
    let mut rng = Rng::new(204);
    for i in 0..2000 {
        let ha = DVec3::new(rng.range(0.1, 1.5), rng.range(0.1, 1.5), rng.range(0.1, 1.5));
        let rad = rng.range(0.05, 1.0);
        let (pa, pb) = (pose3(&mut rng, 3.0), pose3(&mut rng, 3.0));
        let fa = Pose::new(pa.rotation.as_quat(), pa.translation.as_vec3());
        let fb = Pose::new(pb.rotation.as_quat(), pb.translation.as_vec3());
        let r = distance(&Cuboid::new(ha.as_vec3()).unwrap(), &fa, &Ball::new(rad as f32).unwrap(), &fb);
        // Oracle on the f32-rounded poses.
        let pa64 = Pose { rotation: fa.rotation.as_dquat(), translation: fa.translation.as_dvec3() };
        let local = pa64.inverse_transform_point(fb.translation.as_dvec3());
        let ha32 = ha.as_vec3().as_dvec3();
        let oracle = (local.abs() - ha32).max(DVec3::ZERO).length() - rad as f32 as f64;
        if oracle > 1e-4 {
            assert!((r.distance as f64 - oracle).abs() < 1e-5, "#{i}: {} vs {oracle}", r.distance);
        } else if oracle < -1e-4 {
            assert!(r.intersects(), "#{i}");
        }
    }
}

#[test]
fn shapes_2d() {
    let mut rng = Rng::new(205);
    for i in 0..2000 {
        let (r1, r2) = (rng.range(0.05, 1.0), rng.range(0.05, 1.0));
        let p1 = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 4.0));
        let p2 = Pose::from_angle_translation(rng.range(0.0, 6.3), rng.unit2() * rng.range(0.0, 4.0));
        // Circle–circle.
        let r = distance(&Ball::new(r1).unwrap(), &p1, &Ball::new(r2).unwrap(), &p2);
        let oracle = (p2.translation - p1.translation).length() - r1 - r2;
        if oracle > 1e-9 {
            assert!((r.distance - oracle).abs() < 1e-12, "#{i}");
        } else {
            assert!(r.intersects() || oracle > -1e-9, "#{i}");
        }
        // Rectangle–polygon against brute force.
        let half = DVec2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let rect_pts: Vec<DVec2> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(x, y)| p1.transform_point(DVec2::new(x, y) * half))
            .collect();
        let poly_local = polygon(&mut rng, 7);
        let poly = ConvexPolygon::new(&poly_local).unwrap();
        let poly_pts: Vec<DVec2> = poly_local.iter().map(|p| p2.transform_point(*p)).collect();
        let r = distance(&Cuboid::new(half).unwrap(), &p1, &poly, &p2);
        let hit = gjk_shapes::gjk_core::intersects(rect_pts.as_slice(), poly_pts.as_slice());
        if !hit {
            let oracle = brute_distance_2d(&rect_pts, &poly_pts);
            assert!((r.distance - oracle).abs() < 1e-9, "#{i}: {} vs {oracle}", r.distance);
        } else {
            assert!(r.intersects());
        }
        // Capsule–capsule in 2D.
        let (a, b) = (Capsule::new(0.5, r1).unwrap(), Capsule::new(0.8, r2).unwrap());
        let r = distance(&a, &p1, &b, &p2);
        let seg = |p: &Pose<DVec2>, h: f64| {
            (
                p.transform_point(DVec2::new(0.0, -h)).extend(0.0),
                p.transform_point(DVec2::new(0.0, h)).extend(0.0),
            )
        };
        let ((a0, a1), (b0, b1)) = (seg(&p1, 0.5), seg(&p2, 0.8));
        let oracle = segment_segment_sq3(a0, a1, b0, b1).sqrt() - r1 - r2;
        if oracle > 1e-9 {
            assert!((r.distance - oracle).abs() < 1e-9, "#{i} capsule2d");
        }
    }
}

/// Wrappers agree with the shapes they are equivalent to.
#[test]
fn wrappers_match_equivalent_shapes() {
    let mut rng = Rng::new(206);
    for i in 0..1000 {
        let half = DVec3::new(rng.range(0.1, 1.5), rng.range(0.1, 1.5), rng.range(0.1, 1.5));
        let cuboid = Cuboid::new(half).unwrap();
        let other = ConvexHull::new(&polyhedron(&mut rng, 12)).unwrap();
        let (pa, pb) = (pose3(&mut rng, 3.0), pose3(&mut rng, 3.0));
        let ctx = format!("#{i}");
        // Transformed with a scale is the scaled box.
        let s = DVec3::new(rng.range(0.3, 2.0), rng.range(0.3, 2.0), rng.range(0.3, 2.0));
        let t = Transformed::with_scale(cuboid, Pose::IDENTITY, s).unwrap();
        let d1 = distance(&t, &pa, &other, &pb);
        let d2 = distance(&Cuboid::new(half * s).unwrap(), &pa, &other, &pb);
        assert!((d1.distance - d2.distance).abs() < 1e-9, "{ctx} scale");
        // A hull of the posed corners is the posed box.
        let corners = box_corners(half, DMat3::from_quat(pa.rotation), pa.translation);
        let d3 = distance(&ConvexHull::new(&corners).unwrap(), &Pose::IDENTITY, &other, &pb);
        let d4 = distance(&cuboid, &pa, &other, &pb);
        assert!((d3.distance - d4.distance).abs() < 1e-9, "{ctx} hull");
        // Rounded box = box ⊕ ball, exact through the core.
        let rad = rng.range(0.01, 0.5);
        let d5 = distance(&Rounded::new(cuboid, rad).unwrap(), &pa, &other, &pb);
        let d6 = distance(&MinkowskiSum::new(cuboid, Ball::new(rad).unwrap()), &pa, &other, &pb);
        assert!((d5.distance - d6.distance).abs() < 1e-9, "{ctx} rounded");
        if d4.distance > rad + 1e-6 {
            assert!((d5.distance - (d4.distance - rad)).abs() < 1e-9, "{ctx} rounded vs box");
        }
        // Swept box = hull of both ends.
        let m = rng.unit3() * rng.range(0.0, 3.0);
        let sw = distance(&Swept::new(cuboid, m).unwrap(), &pa, &other, &pb);
        let both: Vec<DVec3> = corners.iter().flat_map(|c| [*c, *c + pa.transform_vector(m)]).collect();
        let hb = distance(&ConvexHull::new(&both).unwrap(), &Pose::IDENTITY, &other, &pb);
        assert!((sw.distance - hb.distance).abs() < 1e-9, "{ctx} swept");
        // Minkowski sum of two boxes is a box.
        let half2 = DVec3::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let ms = distance(&MinkowskiSum::new(cuboid, Cuboid::new(half2).unwrap()), &pa, &other, &pb);
        let bx = distance(&Cuboid::new(half + half2).unwrap(), &pa, &other, &pb);
        assert!((ms.distance - bx.distance).abs() < 1e-9, "{ctx} minkowski");
    }
}

/// Posed queries run in A's frame: a pair 1e5 units away in f32 gets the
/// answer it gets at the origin.
#[test]
fn far_pairs_in_f32() {
    let mut rng = Rng::new(207);
    for i in 0..1000 {
        let a = Cuboid::new(Vec3::new(0.5, 0.25, 0.75)).unwrap();
        let b = Capsule::new(0.4f32, 0.2).unwrap();
        let q1 = rng.quat().as_quat();
        let q2 = rng.quat().as_quat();
        // An offset on a 1/128 grid, so `far + off` is exact in f32 and both
        // pairs have the same relative pose.
        let off = ((rng.unit3() * 2.0 * 128.0).round() / 128.0).as_vec3();
        let near = distance(&a, &Pose::new(q1, Vec3::ZERO), &b, &Pose::new(q2, off));
        let far = Vec3::new(1e5, -1e5, 1e5);
        assert_eq!((far + off) - far, off);
        let rf = distance(&a, &Pose::new(q1, far), &b, &Pose::new(q2, far + off));
        assert!((near.distance - rf.distance).abs() < 1e-6, "#{i}: {} vs {}", near.distance, rf.distance);
        assert_eq!(near.intersects(), rf.intersects(), "#{i}");
        assert!((rf.normal - near.normal).length() < 1e-5 || near.intersects(), "#{i}");
        // The witness points are the near ones moved far (to f32 rounding).
        assert!((rf.point_a - (near.point_a + far)).length() < 0.02, "#{i}");
    }
}

/// A warm cache on posed shapes moving together and apart.
#[test]
fn posed_warm_start() {
    let mut rng = Rng::new(208);
    let hull = ConvexHull::new(&polyhedron(&mut rng, 200)).unwrap();
    let cuboid = Cuboid::new(DVec3::new(0.5, 1.0, 0.3)).unwrap();
    let mut cache = SimplexCache::new();
    let mut pa = Pose::new(DQuat::IDENTITY, DVec3::ZERO);
    let mut pb = Pose::new(rng.quat(), DVec3::new(5.0, 0.0, 0.0));
    let mut iters = Vec::new();
    for _ in 0..200 {
        // Both move by the same rigid motion: the relative pose is fixed.
        let step = Pose::new(DQuat::from_axis_angle(DVec3::Y, 0.01), DVec3::new(0.1, 0.0, 0.0));
        pa = step.mul(&pa);
        pb = step.mul(&pb);
        let r = distance_with(&hull, &pa, &cuboid, &pb, &GjkConfig::default(), Some(&mut cache));
        let cold = distance(&hull, &pa, &cuboid, &pb);
        assert!((r.distance - cold.distance).abs() < 1e-9);
        iters.push(r.iterations);
    }
    assert!(iters[1..].iter().all(|&k| k <= 1), "{iters:?}");
}

/// Warm starts search from the cached vertices (`support_from`): on
/// climbing hulls (300 vertices), hulls whose hints are checked against
/// their rings of neighbours (32 and 60 vertices), a rounded one, and
/// 40-gons, with B
/// drifting through separated, touching and overlapping poses and now and
/// then jumping (so the hints are far from the answer), the warm distance
/// and boolean equal the cold ones.
#[test]
fn warm_starts_search_from_cached_vertices() {
    use gjk_shapes::intersects_with;
    let mut rng = Rng::new(212);
    let cfg = GjkConfig::default();
    let (mut apart, mut meeting) = (0, 0);
    for n in [300, 300, 300, 300, 32, 60] {
        let a = ConvexHull::new(&polyhedron(&mut rng, n)).unwrap();
        let b = ConvexHull::new(&polyhedron(&mut rng, n)).unwrap();
        let rb = Rounded::new(&b, 0.1).unwrap();
        let (pa, mut pb) = (pose3(&mut rng, 1.0), pose3(&mut rng, 4.0));
        let (mut c1, mut c2, mut c3) = (SimplexCache::new(), SimplexCache::new(), SimplexCache::new());
        for frame in 0..300 {
            pb = if frame % 25 == 24 {
                pose3(&mut rng, 4.0)
            } else {
                let turn = DQuat::from_axis_angle(rng.unit3(), rng.range(0.0, 0.03));
                // Drift towards A's centre, then away (a touching pass each way).
                let toward = if (frame / 12) % 2 == 0 { -0.08 } else { 0.08 };
                let t = pb.translation + (pb.translation - pa.translation).normalize() * toward;
                Pose::new(turn * pb.rotation, t + rng.unit3() * 0.01)
            };
            let cold = distance(&a, &pa, &b, &pb);
            let warm = distance_with(&a, &pa, &b, &pb, &cfg, Some(&mut c1));
            assert!(
                (warm.distance - cold.distance).abs() <= 1e-9,
                "frame {frame}: {} vs {}",
                warm.distance,
                cold.distance
            );
            let cold_r = distance(&a, &pa, &rb, &pb);
            let warm_r = distance_with(&a, &pa, &rb, &pb, &cfg, Some(&mut c2));
            assert!((warm_r.distance - cold_r.distance).abs() <= 1e-9, "frame {frame}: rounded");
            let hit = intersects_with(&a, &pa, &b, &pb, &cfg, Some(&mut c3)).unwrap();
            if cold.distance > 1e-9 {
                assert!(!hit, "frame {frame}: apart by {}", cold.distance);
                apart += 1;
            } else {
                assert!(hit || cold.distance > 0.0, "frame {frame}: overlapping");
                meeting += 1;
            }
            assert_eq!(hit, intersects(&a, &pa, &b, &pb), "frame {frame}");
        }
    }
    assert!(apart > 200 && meeting > 200, "{apart} apart, {meeting} meeting");
    // 2D: polygons of 64 vertices (above `POLYGON_SCAN_LIMIT`) climb along
    // their boundary, cold from their start sectors, warm from the hints.
    for _ in 0..20 {
        let a = ConvexPolygon::new(&polygon(&mut rng, 64)).unwrap();
        let b = ConvexPolygon::new(&polygon(&mut rng, 64)).unwrap();
        let pa = Pose::new(Rot2::from_angle(rng.range(0.0, 6.3)), DVec2::ZERO);
        let mut pb = Pose::new(Rot2::from_angle(rng.range(0.0, 6.3)), rng.unit2() * 3.0);
        let mut cache = SimplexCache::new();
        for frame in 0..100 {
            let toward = if (frame / 10) % 2 == 0 { -0.1 } else { 0.1 };
            let t = pb.translation + pb.translation.normalize() * toward;
            pb = Pose::new(Rot2::from_angle(pb.rotation.angle() + rng.range(-0.05, 0.05)), t);
            let cold = distance(&a, &pa, &b, &pb);
            let warm = distance_with(&a, &pa, &b, &pb, &cfg, Some(&mut cache));
            assert!((warm.distance - cold.distance).abs() <= 1e-9, "2D frame {frame}");
        }
    }
}

/// The distance alone (`distance_value`) on posed and round shapes: the
/// analytic capsule–capsule distance (clamped at 0), and the full query's
/// within its zero band (capsules are measured in closed form); exactly
/// the full query's distance for hulls, rounded hulls against boxes and
/// balls against hulls, and within its zero band for 2D polygons; invalid
/// poses and radii are errors.
#[test]
fn distance_value_on_posed_and_round_shapes() {
    use gjk_shapes::gjk_core::GjkError;
    use gjk_shapes::{distance_value, distance_value_with};
    let mut rng = Rng::new(209);
    let (mut apart, mut meeting) = (0, 0);
    for i in 0..2000 {
        let (h1, r1, h2, r2) =
            (rng.range(0.0, 2.0), rng.range(0.01, 1.0), rng.range(0.0, 2.0), rng.range(0.01, 1.0));
        let (p1, p2) = (pose3(&mut rng, 3.0), pose3(&mut rng, 3.0));
        let (a, b) = (Capsule::new(h1, r1).unwrap(), Capsule::new(h2, r2).unwrap());
        let seg = |p: &Pose<DVec3>, h: f64| {
            (p.transform_point(DVec3::new(0.0, -h, 0.0)), p.transform_point(DVec3::Y * h))
        };
        let ((a0, a1), (b0, b1)) = (seg(&p1, h1), seg(&p2, h2));
        let oracle = (segment_segment_sq3(a0, a1, b0, b1).sqrt() - r1 - r2).max(0.0);
        let v = distance_value(&a, &p1, &b, &p2).unwrap();
        assert!((v - oracle).abs() < 1e-9, "#{i}: {v} vs {oracle}");
        if oracle > 0.0 {
            apart += 1
        } else {
            meeting += 1
        }
        // Capsule pairs are measured in closed form (their cores' closest
        // points): the full query's (GJK's) distance within its zero band.
        let full = distance(&a, &p1, &b, &p2);
        assert!((full.distance - v).abs() <= full.tolerance.max(1e-12), "#{i}: {v} vs full {full:?}");
        // Hulls (some rounded), boxes and balls: the full query's distance.
        let hull = ConvexHull::new(&polyhedron(&mut rng, 10)).unwrap();
        let round = Rounded::new(hull.clone(), 0.1 * (i % 3) as f64).unwrap();
        let cube = Cuboid::new(DVec3::new(0.3, 0.6, 0.9)).unwrap();
        let ball = Ball::new(r1).unwrap();
        assert_eq!(Ok(distance(&round, &p1, &cube, &p2).distance), distance_value(&round, &p1, &cube, &p2));
        assert_eq!(Ok(distance(&ball, &p2, &hull, &p1).distance), distance_value(&ball, &p2, &hull, &p1));
        // An early out: infinity beyond the limit, else the same value.
        let limit = rng.range(0.0, 1.0);
        let full = distance_with(&round, &p1, &cube, &p2, &GjkConfig::within(limit), None);
        let v = distance_value_with(&round, &p1, &cube, &p2, &GjkConfig::within(limit)).unwrap();
        if full.status == Status::Beyond {
            assert!(v == f64::INFINITY && full.lower_bound > limit, "#{i}");
        } else {
            assert_eq!(v, full.distance, "#{i}");
        }
        // 2D polygons: small pairs near contact are measured by the
        // separating-axis test, exactly; the full query's GJK agrees
        // within its zero band (tests/polygon_sat.rs checks both against
        // brute force).
        let pa = ConvexPolygon::new(&polygon(&mut rng, 7)).unwrap();
        let pb = ConvexPolygon::new(&polygon(&mut rng, 5)).unwrap();
        let q = Pose::from_angle_translation(rng.range(0.0, 6.3), DVec2::new(rng.range(-3.0, 3.0), 0.5));
        let full = distance(&pa, &Pose::IDENTITY, &pb, &q);
        let v = distance_value(&pa, &Pose::IDENTITY, &pb, &q).unwrap();
        assert!((v - full.distance).abs() <= full.tolerance, "#{i}: {v} vs {}", full.distance);
    }
    assert!(apart > 300 && meeting > 300, "both outcomes: {apart} / {meeting}");
    let ball = Ball::new(1.0).unwrap();
    let bad = Pose::from_translation(DVec3::new(f64::NAN, 0.0, 0.0));
    assert_eq!(distance_value(&ball, &bad, &ball, &Pose::IDENTITY), Err(GjkError::InvalidInput));
    let huge = Ball::new(f64::MAX).unwrap();
    let id = Pose::<DVec3>::IDENTITY;
    assert_eq!(distance_value(&huge, &id, &huge, &id), Err(GjkError::InvalidInput));
}

/// A posed warm query answers most frames in one support call made on the
/// shapes directly (`gjk_core::internal::warm_exit`); every answer is the whole warm
/// query's (`distance_local` on B placed in A's frame, with a copy of the
/// cache, moved to the world) to the bit, and both leave the same cache.
/// Hulls with rings and with climbs, boxes, rounded hulls and capsules
/// (radii added), polygons; drifting poses with jumps.
#[test]
fn warm_queries_answer_as_the_whole_warm_query() {
    use gjk_shapes::gjk_core::DistanceResult;
    use gjk_shapes::internal::{distance_local, to_world};
    use gjk_shapes::{Placed, Shape, Space};
    fn same<V: Space>(x: &DistanceResult<V>, y: &DistanceResult<V>, ctx: &str) {
        assert_eq!(
            (x.status, x.distance, x.point_a, x.point_b, x.normal),
            (y.status, y.distance, y.point_a, y.point_b, y.normal),
            "{ctx}"
        );
        assert_eq!(
            (x.lower_bound, x.tolerance, x.iterations),
            (y.lower_bound, y.tolerance, y.iterations),
            "{ctx}"
        );
        assert_eq!(x.simplex.points(), y.simplex.points(), "{ctx}");
        assert_eq!(x.simplex.barycentric(), y.simplex.barycentric(), "{ctx}");
    }
    fn run<V: Space, A: Shape<V>, B: Shape<V>>(
        a: &A,
        b: &B,
        poses: &[(Pose<V>, Pose<V>)],
        one_call: &mut usize,
        ctx: &str,
    ) {
        let cfg = GjkConfig::default();
        let (mut fast, mut whole) = (SimplexCache::new(), SimplexCache::new());
        for (frame, (pa, pb)) in poses.iter().enumerate() {
            let r = distance_with(a, pa, b, pb, &cfg, Some(&mut fast));
            let s =
                to_world(&distance_local(a, &Placed::new(b, &pa.inv_mul(pb)), &cfg, Some(&mut whole)), pa);
            let ctx = format!("{ctx} frame {frame}");
            same(&r, &s, &ctx);
            assert_eq!(fast.len(), whole.len(), "{ctx}");
            for i in 0..fast.len() {
                assert_eq!(fast.indices(i), whole.indices(i), "{ctx}");
            }
            assert_eq!(fast.directions(), whole.directions(), "{ctx}");
            *one_call += usize::from(frame > 0 && r.iterations == 1);
        }
    }
    let mut rng = Rng::new(7302);
    let mut one_call = 0;
    let mut frames = 0;
    let drift3 = |rng: &mut Rng| {
        let (pa, mut pb) = (pose3(rng, 1.0), pose3(rng, 4.0));
        (0..40)
            .map(|frame| {
                pb = if frame % 13 == 12 {
                    pose3(rng, 4.0)
                } else {
                    let turn = DQuat::from_axis_angle(rng.unit3(), 1e-3);
                    let toward = (pb.translation - pa.translation).normalize() * 0.02;
                    Pose::new(turn * pb.rotation, pb.translation - toward)
                };
                (pa, pb)
            })
            .collect::<Vec<_>>()
    };
    for n in [8, 32, 60, 300] {
        for _ in 0..6 {
            let a = ConvexHull::new(&polyhedron(&mut rng, n)).unwrap();
            let b = ConvexHull::new(&polyhedron(&mut rng, 32)).unwrap();
            let poses = drift3(&mut rng);
            run(&a, &b, &poses, &mut one_call, &format!("hulls {n}"));
            let rounded = Rounded::new(&b, 0.2).unwrap();
            run(&a, &rounded, &poses, &mut one_call, &format!("rounded {n}"));
            frames += 2 * (poses.len() - 1);
        }
    }
    for _ in 0..10 {
        let a = Cuboid::new(DVec3::new(0.5, 1.0, 1.5)).unwrap();
        let b = Cuboid::new(DVec3::new(1.0, 0.25, 0.75)).unwrap();
        let cap = Capsule::new(0.75, 0.3).unwrap();
        let poses = drift3(&mut rng);
        run(&a, &b, &poses, &mut one_call, "boxes");
        run(&a, &cap, &poses, &mut one_call, "box and capsule");
        frames += 2 * (poses.len() - 1);
    }
    for n in [4, 16, 64] {
        for _ in 0..6 {
            let a = ConvexPolygon::new(&polygon(&mut rng, n)).unwrap();
            let b = ConvexPolygon::new(&polygon(&mut rng, 12)).unwrap();
            let pa = Pose::new(Rot2::from_angle(rng.range(0.0, 6.3)), DVec2::ZERO);
            let mut pb = Pose::new(Rot2::from_angle(rng.range(0.0, 6.3)), rng.unit2() * 4.0);
            let poses: Vec<_> = (0..40)
                .map(|_| {
                    let t = pb.translation - pb.translation.normalize() * 0.02;
                    pb = Pose::new(Rot2::from_angle(pb.rotation.angle() + 1e-3), t);
                    (pa, pb)
                })
                .collect();
            run(&a, &b, &poses, &mut one_call, &format!("polygons {n}"));
            frames += poses.len() - 1;
        }
    }
    // Most frames end in the one call (the pairs approach, touch and
    // overlap, where they cannot).
    assert!(one_call * 2 > frames, "{one_call} of {frames}");
}
