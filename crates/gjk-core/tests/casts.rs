//! Casts on raw point sets: warm starting, margins, and the f32 path,
//! against bisection on the distance query.

use gjk_core::glam::{DVec3, Vec2};
use gjk_core::{
    CastOptions, CastStatus, GjkConfig, SimplexCache, cast_ray, cast_shape, cast_shape_with, distance,
};
use gjk_testkit::*;

/// A cached cast of a barely changed query agrees with a cold one and
/// needs no more support calls.
#[test]
fn warm_started_casts() {
    let mut rng = Rng::new(600);
    let (mut cold_calls, mut warm_calls) = (0u32, 0u32);
    for i in 0..300 {
        let a = polyhedron(&mut rng, 24);
        let b: Vec<DVec3> = polyhedron(&mut rng, 24).iter().map(|p| *p + DVec3::new(6.0, 0.0, 0.0)).collect();
        let mut motion = DVec3::new(8.0, rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let mut cache = SimplexCache::new();
        let opts = CastOptions::default();
        let first = cast_shape_with(
            a.as_slice(),
            motion,
            b.as_slice(),
            DVec3::ZERO,
            &opts,
            &GjkConfig::default(),
            Some(&mut cache),
        );
        for _ in 0..3 {
            motion += rng.unit3() * 1e-6;
            let cold = cast_shape(a.as_slice(), motion, b.as_slice(), DVec3::ZERO, &opts);
            let warm = cast_shape_with(
                a.as_slice(),
                motion,
                b.as_slice(),
                DVec3::ZERO,
                &opts,
                &GjkConfig::default(),
                Some(&mut cache),
            );
            assert_eq!(cold.status, warm.status, "#{i}");
            assert!((cold.fraction - warm.fraction).abs() < 1e-9, "#{i}");
            cold_calls += cold.iterations;
            warm_calls += warm.iterations;
        }
        assert!(first.normal.is_finite());
    }
    assert!(warm_calls < cold_calls, "warm {warm_calls} vs cold {cold_calls}");
}

/// A margin (target distance) stops the cast that far from contact.
#[test]
fn target_distance_against_bisection() {
    let mut rng = Rng::new(601);
    for i in 0..300 {
        let a = polyhedron(&mut rng, 10);
        let b: Vec<DVec3> = polyhedron(&mut rng, 10).iter().map(|p| *p + DVec3::new(5.0, 0.0, 0.0)).collect();
        let m = DVec3::new(6.0, rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
        let target = rng.range(0.0, 0.5);
        let h = cast_shape(
            a.as_slice(),
            m,
            b.as_slice(),
            DVec3::ZERO,
            &CastOptions { target_distance: target, max_fraction: 1.0 },
        );
        let f = |t: f64| {
            let moved: Vec<DVec3> = a.iter().map(|p| *p + m * t).collect();
            distance(moved.as_slice(), b.as_slice()).distance - target
        };
        if f(1.0) < 0.0 && f(0.0) > 0.0 {
            let (mut lo, mut hi) = (0.0, 1.0);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if f(mid) > 0.0 { lo = mid } else { hi = mid }
            }
            assert_eq!(h.status, CastStatus::Hit, "#{i}");
            assert!((h.fraction - hi).abs() < 1e-7, "#{i}: {} vs {hi}", h.fraction);
        }
    }
}

/// f32 rays in 2D against a polygon given as points.
#[test]
fn rays_2d_f32() {
    let square = [Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)];
    let h = cast_ray(&square, Vec2::new(-3.0, 0.5), Vec2::X, 10.0, 0.0);
    assert_eq!(h.status, CastStatus::Hit);
    assert!((h.fraction - 2.0).abs() < 1e-6 && (h.normal + Vec2::X).length() < 1e-6);
    let h = cast_ray(&square, Vec2::new(-3.0, 0.5), Vec2::X, 10.0, 0.25);
    assert!((h.fraction - 1.75).abs() < 1e-5, "{}", h.fraction);
    assert_eq!(cast_ray(&square, Vec2::new(-3.0, 2.5), Vec2::X, 10.0, 0.0).status, CastStatus::Miss);
    assert_eq!(cast_ray(&square, Vec2::ZERO, Vec2::X, 10.0, 0.0).status, CastStatus::StartsInside);
    assert_eq!(cast_ray(&square, Vec2::new(-3.0, 0.5), -Vec2::X, 10.0, 0.0).status, CastStatus::Miss);
    assert_eq!(cast_ray(&square, Vec2::new(-3.0, 0.5), Vec2::X, 1.0, 0.0).status, CastStatus::Miss);
    assert_eq!(cast_ray(&square, Vec2::new(-3.0, 0.5), Vec2::X, 10.0, -1.0).status, CastStatus::InvalidInput);
}
