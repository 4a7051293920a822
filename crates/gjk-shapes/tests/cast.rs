//! Ray casts and shape casts against analytic answers and against
//! bisection on the distance query.

use gjk_shapes::gjk_core::CastOptions;
use gjk_shapes::glam::{DQuat, DVec3, Vec3};
use gjk_shapes::{Ball, Capsule, ConvexHull, Cuboid, Pose, distance};
use gjk_testkit::*;

#[path = "../../gjk-core/tests/common/cast_answer.rs"]
mod cast_answer;
#[path = "common/shape_casts.rs"]
mod shape_casts;
use cast_answer::CastStatus;
use shape_casts::{cast_ray, cast_shape};

fn pose3(rng: &mut Rng, reach: f64) -> Pose<DVec3> {
    Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, reach))
}

#[test]
fn ray_vs_sphere_box_capsule() {
    let mut rng = Rng::new(500);
    let mut hits = [0usize; 3];
    for i in 0..2000 {
        let pose = pose3(&mut rng, 3.0);
        let origin = pose.translation + rng.unit3() * rng.range(0.0, 6.0);
        let dir = (pose.translation + rng.unit3() * rng.range(0.0, 2.0) - origin).normalize_or(DVec3::X);
        let ctx = format!("#{i}");

        // Sphere: the quadratic.
        let r = rng.range(0.2, 1.5);
        let h = cast_ray(&Ball::new(r).unwrap(), &pose, origin, dir, 100.0);
        let oc = origin - pose.translation;
        let (b, c) = (oc.dot(dir), oc.length_squared() - r * r);
        let disc = b * b - c;
        if c < -1e-9 {
            assert_eq!(h.status, CastStatus::StartsInside, "{ctx}");
        } else if disc > 1e-9 && -b - disc.sqrt() > 0.0 {
            let t = -b - disc.sqrt();
            assert_eq!(h.status, CastStatus::Hit, "{ctx}");
            assert!((h.fraction - t).abs() < 1e-9, "{ctx}: {} vs {t}", h.fraction);
            assert!((h.normal - (h.point_a - pose.translation) / r).length() < 1e-9, "{ctx}");
            hits[0] += 1;
        } else if disc < -1e-9 || -b + disc.max(0.0).sqrt() < -1e-9 {
            assert_eq!(h.status, CastStatus::Miss, "{ctx}");
        }

        // Box: the slab method in the box frame.
        let half = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
        let h = cast_ray(&Cuboid::new(half).unwrap(), &pose, origin, dir, 100.0);
        let (o, d) = (pose.inverse_transform_point(origin), pose.inverse_transform_vector(dir));
        let (mut t0, mut t1, mut axis) = (f64::NEG_INFINITY, f64::INFINITY, 0);
        for k in 0..3 {
            if d[k].abs() < 1e-15 {
                if o[k].abs() > half[k] {
                    t0 = f64::INFINITY;
                }
                continue;
            }
            let (a, b) = ((-half[k] - o[k]) / d[k], (half[k] - o[k]) / d[k]);
            let (lo, hi) = (a.min(b), a.max(b));
            if lo > t0 {
                t0 = lo;
                axis = k;
            }
            t1 = t1.min(hi);
        }
        let inside = (o.abs() - half).max_element() < -1e-9;
        if inside {
            assert_eq!(h.status, CastStatus::StartsInside, "{ctx} box");
        } else if t0 <= t1 - 1e-9 && t0 > 1e-9 {
            assert_eq!(h.status, CastStatus::Hit, "{ctx} box");
            assert!((h.fraction - t0).abs() < 1e-9, "{ctx} box: {} vs {t0}", h.fraction);
            let mut n = DVec3::ZERO;
            n[axis] = -d[axis].signum();
            let face_gap = |t: f64| ((o + d * t).abs() - half).max_element();
            // Away from edges the normal is the face normal.
            let mut others: Vec<f64> =
                (0..3).filter(|&k| k != axis).map(|k| half[k] - (o + d * t0)[k].abs()).collect();
            others.sort_by(f64::total_cmp);
            if others[0] > 1e-6 {
                assert!((h.normal - pose.transform_vector(n)).length() < 1e-9, "{ctx} box normal");
            }
            assert!(face_gap(h.fraction).abs() < 1e-9);
            hits[1] += 1;
        } else if t0 > t1 + 1e-9 {
            assert_eq!(h.status, CastStatus::Miss, "{ctx} box");
        }

        // Capsule: first root of distance-to-segment minus radius.
        let (hh, cr) = (rng.range(0.0, 1.5), rng.range(0.1, 1.0));
        let h = cast_ray(&Capsule::new(hh, cr).unwrap(), &pose, origin, dir, 100.0);
        let (s0, s1) =
            (pose.transform_point(DVec3::new(0.0, -hh, 0.0)), pose.transform_point(DVec3::new(0.0, hh, 0.0)));
        let f = |t: f64| point_segment_sq(origin + dir * t, s0, s1).sqrt() - cr;
        match first_root(&f, 100.0, 4000) {
            Some(0.0) => assert_eq!(h.status, CastStatus::StartsInside, "{ctx} capsule"),
            Some(t) if f(0.0) > 1e-6 => {
                assert_eq!(h.status, CastStatus::Hit, "{ctx} capsule");
                assert!((h.fraction - t).abs() < 1e-7, "{ctx} capsule: {} vs {t}", h.fraction);
                hits[2] += 1;
            }
            None => assert_eq!(h.status, CastStatus::Miss, "{ctx} capsule"),
            _ => {}
        }
        assert!(h.normal.is_finite() && (h.normal.length() - 1.0).abs() < 1e-9);
    }
    assert!(hits.iter().all(|&n| n > 300), "{hits:?}");
}

/// Shape casts of random hulls against bisection on the distance query.
#[test]
fn shape_cast_toi_matches_bisection() {
    let mut rng = Rng::new(501);
    let mut hits = 0;
    for i in 0..600 {
        let (na, nb) = (rng_size(&mut rng), rng_size(&mut rng));
        let a = ConvexHull::new(&polyhedron(&mut rng, na)).unwrap();
        let b = ConvexHull::new(&polyhedron(&mut rng, nb)).unwrap();
        let pa = Pose::new(rng.quat(), DVec3::ZERO);
        let pb = Pose::new(rng.quat(), rng.unit3() * rng.range(3.0, 8.0));
        let ma = (pb.translation + rng.unit3() * rng.range(0.0, 3.0)) * rng.range(0.5, 2.0);
        let mb = rng.unit3() * rng.range(0.0, 1.0);
        let target = if i % 3 == 0 { rng.range(0.0, 0.5) } else { 0.0 };
        let opts = CastOptions { target_distance: target, max_fraction: 1.0 };
        let h = cast_shape(&a, &pa, ma, &b, &pb, mb, &opts);
        let at = |t: f64| {
            let r = distance(
                &a,
                &Pose::new(pa.rotation, pa.translation + ma * t),
                &b,
                &Pose::new(pb.rotation, pb.translation + mb * t),
            );
            r.distance - target
        };
        let ctx = format!("#{i}");
        match first_root(&at, 1.0, 4000) {
            Some(t) if t > 0.0 => {
                assert_eq!(h.status, CastStatus::Hit, "{ctx}");
                assert!((h.fraction - t).abs() < 1e-6, "{ctx}: {} vs {t}", h.fraction);
                // At the time of impact the points are `target` apart along
                // the normal, on the moved shapes.
                assert!(((h.point_b - h.point_a).length() - target).abs() < 1e-6, "{ctx}");
                let r = distance(
                    &a,
                    &Pose::new(pa.rotation, pa.translation + ma * h.fraction),
                    &b,
                    &Pose::new(pb.rotation, pb.translation + mb * h.fraction),
                );
                assert!((r.normal - h.normal).length() < 1e-4 || r.distance < 1e-9, "{ctx}: normal");
                hits += 1;
            }
            Some(_) => assert_eq!(h.status, CastStatus::StartsInside, "{ctx}"),
            None => assert_eq!(
                h.status,
                CastStatus::Miss,
                "{ctx}: {h:?} d(0) {} d(1) {} d(toi) {}",
                at(0.0),
                at(1.0),
                at(h.fraction)
            ),
        }
        assert!(h.normal.is_finite() && (h.normal.length() - 1.0).abs() < 1e-9, "{ctx}");
    }
    assert!(hits > 150, "{hits}");
}

fn rng_size(rng: &mut Rng) -> usize {
    [4, 8, 16, 40][rng.usize(0, 3)]
}

/// Round shapes cast exactly through their cores.
#[test]
fn ball_ball_cast_is_exact() {
    let mut rng = Rng::new(502);
    for i in 0..2000 {
        let (r1, r2) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let p1 = Pose::from_translation(rng.unit3() * 2.0);
        let p2 = Pose::from_translation(rng.unit3() * 2.0 + DVec3::new(6.0, 0.0, 0.0));
        let m = (p2.translation - p1.translation + rng.unit3() * rng.range(0.0, 2.0)) * 1.5;
        let h = cast_shape(
            &Ball::new(r1).unwrap(),
            &p1,
            m,
            &Ball::new(r2).unwrap(),
            &p2,
            DVec3::ZERO,
            &CastOptions::default(),
        );
        // |c + t m| = R with c = c1 − c2.
        let c = p1.translation - p2.translation;
        let rr = r1 + r2;
        let (a, b, cc) = (m.dot(m), c.dot(m), c.dot(c) - rr * rr);
        let disc = b * b - a * cc;
        let ctx = format!("#{i}");
        if disc > 1e-9 {
            let t = (-b - disc.sqrt()) / a;
            if t > 1e-9 && t < 1.0 - 1e-9 {
                assert_eq!(h.status, CastStatus::Hit, "{ctx}");
                assert!((h.fraction - t).abs() < 1e-10, "{ctx}: {} vs {t}", h.fraction);
                let n = (c + m * t).normalize();
                assert!((h.normal + n).length() < 1e-9, "{ctx}");
                assert!((h.point_a - (p1.translation + m * t - n * r1)).length() < 1e-9, "{ctx}");
            } else if t > 1.0 + 1e-9 {
                assert_eq!(h.status, CastStatus::Miss, "{ctx}");
            }
        } else if disc < -1e-9 {
            assert_eq!(h.status, CastStatus::Miss, "{ctx}");
        }
    }
}

/// Grazing and parallel motion, starting in contact, very short and very
/// long motions: no false hits, no NaN, no zero normal.
#[test]
fn grazing_parallel_touching_and_extreme_motions() {
    let ground = Cuboid::new(DVec3::new(5.0, 0.5, 5.0)).unwrap();
    let pg = Pose::from_translation(DVec3::new(0.0, -0.5, 0.0));
    let c = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let opts = CastOptions::default();
    // Sliding along the ground 1e-3 above it: no hit.
    let above = Pose::from_translation(DVec3::new(-3.0, 0.5 + 1e-3, 0.0));
    let h = cast_shape(&c, &above, DVec3::new(6.0, 0.0, 0.0), &ground, &pg, DVec3::ZERO, &opts);
    assert_eq!(h.status, CastStatus::Miss, "{h:?}");
    // Resting exactly on it and sliding: in contact from the start.
    let resting = Pose::from_translation(DVec3::new(-3.0, 0.5, 0.0));
    let h = cast_shape(&c, &resting, DVec3::new(6.0, 0.0, 0.0), &ground, &pg, DVec3::ZERO, &opts);
    assert_eq!(h.status, CastStatus::StartsInside);
    assert_eq!(h.fraction, 0.0);
    assert!((h.normal + DVec3::Y).length() < 1e-9, "{:?}", h.normal);
    // Grazing: a ray along the top face's plane hits at the box's edge.
    let h = cast_ray(&ground, &pg, DVec3::new(-9.0, 0.0, 0.0), DVec3::X, 100.0);
    assert!(h.is_hit() && (h.fraction - 4.0).abs() < 1e-9, "{h:?}");
    assert!(h.normal.is_finite() && (h.normal.length() - 1.0).abs() < 1e-9);
    // Very short and very long motions.
    for (gap, scale) in [(1e-9, 1.0), (1e-3, 1e6), (0.5, 1e-6)] {
        let start = Pose::from_translation(DVec3::new(0.0, 0.5 + gap, 0.0));
        let down = DVec3::new(0.0, -gap * scale, 0.0);
        let h = cast_shape(&c, &start, down, &ground, &pg, DVec3::ZERO, &opts);
        let expect = 1.0 / scale;
        if expect <= 1.0 {
            assert_eq!(h.status, CastStatus::Hit, "gap {gap} scale {scale}");
            assert!(
                (h.fraction - expect).abs() < 1e-9 * expect.max(1e-9) + 1e-12,
                "gap {gap}: {} vs {expect}",
                h.fraction
            );
            assert!((h.normal + DVec3::Y).length() < 1e-6, "{:?}", h.normal);
        } else {
            assert_eq!(h.status, CastStatus::Miss, "gap {gap} scale {scale}");
        }
    }
    // f32, tilted box falling onto the ground.
    let cf = Cuboid::new(Vec3::splat(0.5)).unwrap();
    let gf = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
    let q = DQuat::from_rotation_z(0.3).as_quat();
    let h = cast_shape(
        &cf,
        &Pose::new(q, Vec3::new(0.0, 3.0, 0.0)),
        Vec3::new(0.0, -5.0, 0.0),
        &gf,
        &Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        Vec3::ZERO,
        &CastOptions::default(),
    );
    let lowest = 0.5 * (0.3f32.cos() + 0.3f32.sin());
    assert_eq!(h.status, CastStatus::Hit);
    assert!((h.fraction - (3.0 - lowest) / 5.0).abs() < 1e-5, "{}", h.fraction);
    // Invalid input.
    let h = cast_ray(&ground, &pg, DVec3::new(f64::NAN, 0.0, 0.0), DVec3::X, 1.0);
    assert_eq!(h.status, CastStatus::InvalidInput);
    assert!(h.normal.is_finite());
}

/// One normal convention for every cast (`CastHit::normal`): the target's
/// outward surface normal at the contact, facing what moves. A ray, a
/// linear shape cast and a turning one, each against a face of a turned
/// box from random directions: the normal is that face's outward normal,
/// and a cast that passes by is `None`.
#[test]
fn cast_normals_face_what_moves() {
    use gjk_shapes::Motion;
    let mut rng = Rng::new(58);
    let target = Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap();
    let ball = Ball::new(0.25).unwrap();
    let opts = CastOptions::default();
    for _ in 0..500 {
        let pose = Pose::new(DQuat::from_axis_angle(rng.unit3(), rng.range(-3.0, 3.0)), rng.unit3() * 5.0);
        // A face, a point on it, and a start 4 out along its normal.
        let axis = rng.usize(0, 2);
        let sign = if rng.f64() < 0.5 { -1.0 } else { 1.0 };
        let local_n = DVec3::AXES[axis] * sign;
        let half = target.half_extents();
        let mut on = local_n * half[axis];
        for k in (0..3).filter(|&k| k != axis) {
            on[k] = rng.range(-0.8, 0.8) * half[k];
        }
        let n = pose.transform_vector(local_n);
        let start = pose.transform_point(on) + n * 4.0;
        let ray = gjk_shapes::cast_ray(&target, &pose, start, -n, 10.0).expect("the ray meets the face");
        assert!((ray.normal - n).length() < 1e-9, "ray: {ray:?} vs {n}");
        let moved = gjk_shapes::cast_shape(
            &ball,
            &Pose::from_translation(start),
            -n * 8.0,
            &target,
            &pose,
            DVec3::ZERO,
            &opts,
        )
        .expect("the ball meets the face");
        assert!((moved.normal - n).length() < 1e-9, "shape cast: {moved:?} vs {n}");
        let still = DVec3::ZERO;
        let turning = gjk_shapes::cast_shape_nonlinear(
            &ball,
            &Motion::new(Pose::from_translation(start), -n * 8.0, rng.unit3()),
            &target,
            &Motion::fixed(pose),
            &opts,
        )
        .expect("the ball meets the face");
        assert!((turning.normal - n).length() < 1e-3, "nonlinear cast: {turning:?} vs {n}");
        // Moving away, or past: nothing is met.
        assert!(gjk_shapes::cast_ray(&target, &pose, start, n, 10.0).is_none());
        assert!(
            gjk_shapes::cast_shape(
                &ball,
                &Pose::from_translation(start),
                n * 8.0,
                &target,
                &pose,
                still,
                &opts
            )
            .is_none()
        );
    }
}
