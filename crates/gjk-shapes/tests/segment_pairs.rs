//! Capsules and balls against each other: their cores (segments and
//! points, `Shape::core_segment`) are measured in closed form
//! (`closest_on_segments`) by the distance alone and the boolean test.
//! The oracle shares no code with it: the distance from a point moving
//! along one segment to the other segment (a projection, clamped) is
//! convex in the point's place, so a ternary search over that place finds
//! the cores' distance. Checked in 3D and 2D, f64 and f32, at three scales,
//! on random placements, lines side by side (parallel, or turned by a
//! hair) and crossings, against the oracle and against the full query
//! (GJK) within its zero band.

use gjk_shapes::glam::{DQuat, DVec2, DVec3};
use gjk_shapes::{Ball, Capsule, Pose, Rot2, Shape, distance, distance_value, intersects};
use gjk_testkit::{Rng, point_segment_sq};

/// The distance between segments `a0 a1` and `b0 b1` by a ternary search
/// over the place on the first (the distance to the second is convex in
/// it): 200 rounds shrink the interval below 1e-35 of its length.
fn oracle_gap(a0: DVec3, a1: DVec3, b0: DVec3, b1: DVec3) -> f64 {
    let g = |s: f64| point_segment_sq(a0 + (a1 - a0) * s, b0, b1).sqrt();
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if g(m1) <= g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    g(0.0).min(g(1.0)).min(g(0.5 * (lo + hi)))
}

/// A capsule (or a ball where `h` is 0) of radius `r`.
fn round<V: gjk_shapes::Space>(h: V::Scalar, r: V::Scalar) -> Box<dyn Shape<V>> {
    if h == V::Scalar::from_f64(0.0) {
        Box::new(Ball::new(r).unwrap())
    } else {
        Box::new(Capsule::new(h, r).unwrap())
    }
}

use gjk_shapes::gjk_core::Real;

#[test]
fn capsule_and_ball_pairs_against_the_oracle() {
    let mut rng = Rng::new(7_420);
    let (mut apart, mut meet) = (0, 0);
    for k in 0..4_000 {
        let size = [1e-3, 1.0, 1e3][k % 3];
        let h = |rng: &mut Rng| if rng.usize(0, 5) == 0 { 0.0 } else { rng.range(0.05, 1.5) * size };
        let (ha, hb) = (h(&mut rng), h(&mut rng));
        let (ra, rb) = (rng.range(0.02, 0.6) * size, rng.range(0.02, 0.6) * size);
        let gap = rng.range(-0.5, 0.5) * (ra + rb);
        let ctx = format!("#{k} size {size:e} h {ha:e} {hb:e} r {ra:e} {rb:e}");
        if k % 4 != 0 {
            // 3D: A along its own axis; B at random, side by side (parallel
            // or turned by a hair), or crossing.
            let pa = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * size);
            let across = pa.rotation * DQuat::from_rotation_y(rng.range(0.0, 6.3)) * DVec3::X;
            let (rot_b, at) = match k % 3 {
                0 => {
                    let hair = [0.0, 1e-9, 1e-6, 1e-3][rng.usize(0, 3)] * rng.range(-1.0, 1.0);
                    let slide = pa.rotation * DVec3::Y * rng.range(-1.0, 1.0) * (ha + hb);
                    (DQuat::from_axis_angle(across, hair) * pa.rotation, slide + across * (ra + rb + gap))
                }
                1 => {
                    let turn = DQuat::from_axis_angle(across, std::f64::consts::FRAC_PI_2);
                    (turn * pa.rotation, across * (ra + rb + gap))
                }
                _ => (rng.quat(), rng.unit3() * rng.range(0.0, 2.0) * size),
            };
            let pb = Pose::new(rot_b, pa.translation + at);
            let ends =
                |p: &Pose<DVec3>, h: f64| (p.transform_point(-DVec3::Y * h), p.transform_point(DVec3::Y * h));
            let ((a0, a1), (b0, b1)) = (ends(&pa, ha), ends(&pb, hb));
            let signed = oracle_gap(a0, a1, b0, b1) - ra - rb;
            let (a, b) = (round::<DVec3>(ha, ra), round::<DVec3>(hb, rb));
            let v = distance_value(a.as_ref(), &pa, b.as_ref(), &pb).unwrap();
            let full = distance(a.as_ref(), &pa, b.as_ref(), &pb);
            let hit = intersects(b.as_ref(), &pb, a.as_ref(), &pa);
            let p32 = |p: &Pose<DVec3>| Pose::new(p.rotation.as_quat(), p.translation.as_vec3());
            let (a32, b32) =
                (round::<gjk_shapes::glam::Vec3>(ha as f32, ra as f32), round(hb as f32, rb as f32));
            let v32 = distance_value(a32.as_ref(), &p32(&pa), b32.as_ref(), &p32(&pb)).unwrap() as f64;
            let hit32 = intersects(a32.as_ref(), &p32(&pa), b32.as_ref(), &p32(&pb));
            check(signed, (v, full.distance, full.tolerance, hit), (v32, hit32), size, &ctx);
        } else {
            // 2D: the same placements in the plane.
            let turn_a = rng.range(-3.2, 3.2);
            let pa = Pose::new(Rot2::from_angle(turn_a), rng.unit2() * rng.range(0.0, 2.0) * size);
            let across = DVec2::from_angle(turn_a);
            let (turn_b, at) = match k % 3 {
                0 => (turn_a + [0.0, 1e-9, 1e-6, 1e-3][rng.usize(0, 3)] * rng.range(-1.0, 1.0), {
                    let along = DVec2::from_angle(turn_a).perp();
                    along * rng.range(-1.0, 1.0) * (ha + hb) + across * (ra + rb + gap)
                }),
                1 => (turn_a + std::f64::consts::FRAC_PI_2, across * (ra + rb + gap + hb)),
                _ => (rng.range(-3.2, 3.2), rng.unit2() * rng.range(0.0, 2.0) * size),
            };
            let pb = Pose::new(Rot2::from_angle(turn_b), pa.translation + at);
            let ends = |p: &Pose<DVec2>, h: f64| {
                let (e0, e1) = (p.transform_point(-DVec2::Y * h), p.transform_point(DVec2::Y * h));
                (e0.extend(0.0), e1.extend(0.0))
            };
            let ((a0, a1), (b0, b1)) = (ends(&pa, ha), ends(&pb, hb));
            let signed = oracle_gap(a0, a1, b0, b1) - ra - rb;
            let (a, b) = (round::<DVec2>(ha, ra), round::<DVec2>(hb, rb));
            let v = distance_value(a.as_ref(), &pa, b.as_ref(), &pb).unwrap();
            let full = distance(a.as_ref(), &pa, b.as_ref(), &pb);
            let hit = intersects(b.as_ref(), &pb, a.as_ref(), &pa);
            let p32 = |p: &Pose<DVec2>| {
                Pose::new(Rot2::from_angle(p.rotation.angle() as f32), p.translation.as_vec2())
            };
            let (a32, b32) =
                (round::<gjk_shapes::glam::Vec2>(ha as f32, ra as f32), round(hb as f32, rb as f32));
            let v32 = distance_value(a32.as_ref(), &p32(&pa), b32.as_ref(), &p32(&pb)).unwrap() as f64;
            let hit32 = intersects(a32.as_ref(), &p32(&pa), b32.as_ref(), &p32(&pb));
            check(signed, (v, full.distance, full.tolerance, hit), (v32, hit32), size, &ctx);
        }
        if gap > 0.0 { apart += 1 } else { meet += 1 }
    }
    assert!(apart > 1_500 && meet > 1_500, "apart {apart}, meet {meet}");
}

/// The distance alone and the boolean (f64, then f32) against the signed
/// distance, and against the full query within its zero band.
fn check(
    signed: f64,
    (v, full, band, hit): (f64, f64, f64, bool),
    (v32, hit32): (f64, bool),
    size: f64,
    ctx: &str,
) {
    let ctx = format!("{ctx}: oracle {signed:e}, value {v:e}, full {full:e}, hit {hit}");
    let amb = 1e-12 * size;
    assert!((v - signed.max(0.0)).abs() <= amb, "{ctx}: the distance alone");
    assert!((v - full).abs() <= band.max(amb), "{ctx}: against the full query");
    if signed > amb {
        assert!(!hit, "{ctx}: apart, called meeting");
    } else if signed < -amb {
        assert!(hit, "{ctx}: meeting, called apart");
    }
    let amb32 = 1e-5 * size;
    assert!((v32 - signed.max(0.0)).abs() <= amb32, "{ctx} f32: {v32:e}");
    if signed > amb32 {
        assert!(!hit32, "{ctx} f32: apart, called meeting");
    } else if signed < -amb32 {
        assert!(hit32, "{ctx} f32: meeting, called apart");
    }
}
