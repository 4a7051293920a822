//! The verification phase settles deep overlaps with one volume test
//! (`DEEP_BAND_FLOOR`, `GjkSolver::enter_verify`): it must never skip a
//! facet that lies within the zero band. A full simplex is built around
//! the origin with one facet at a chosen distance from it, on both sides
//! of the band, and the answer is checked against that construction.

use gjk_core::glam::{DVec2, DVec3};
use gjk_core::internal::minkowski_support;
use gjk_core::{GjkConfig, GjkSolver, Real, Status, Step, SupportPoint};
use gjk_testkit::*;

/// Runs GJK from the full simplex `pts` (A = the points, B = the origin).
fn verify<V: gjk_core::Vector<Scalar = f64>>(pts: &[V]) -> gjk_core::DistanceResult<V>
where
    [V]: gjk_core::SupportMap<V>,
{
    let origin = [V::ZERO];
    let start: Vec<(SupportPoint<V>, V)> = pts.iter().map(|&p| (SupportPoint::new(p, V::ZERO), p)).collect();
    let mut gjk = GjkSolver::new(GjkConfig::default());
    let mut step = gjk.start_from(&start);
    for _ in 0..gjk.step_budget() {
        if step != Step::Continue {
            break;
        }
        let d = gjk.direction();
        step = gjk.step(minkowski_support(pts, &origin[..], d));
    }
    gjk.result()
}

/// Moves the points along `n` so that the facet through the origin sits at
/// `fraction` of the zero band (the band of the unmoved points: the move
/// changes it by a relative `fraction · 2.8e-14` at most).
fn place<V: gjk_core::Vector<Scalar = f64>>(pts: &mut [V], n: V, fraction: f64) {
    let scale = pts.iter().fold(0.0f64, |m, p| m.max(p.max_abs()));
    let band = f64::DEFAULT_ZERO_TOLERANCE * scale;
    for p in pts.iter_mut() {
        *p = *p + n * (fraction * band);
    }
}

#[test]
fn facets_within_the_band_are_never_skipped_3d() {
    let mut rng = Rng::new(9191);
    let (mut touching, mut overlapping) = (0, 0);
    for i in 0..4000 {
        let n = rng.unit3();
        let t = n.any_orthonormal_vector();
        let s = n.cross(t);
        let size = 10f64.powf(rng.range(-6.0, 6.0));
        // A face around the axis (its triangle holds the axis), the apex
        // well below: the origin is inside, nearest to the face.
        let mut pts: Vec<DVec3> = (0..3)
            .map(|k| {
                let ang = k as f64 * 2.0944 + rng.range(-0.3, 0.3);
                (t * ang.cos() + s * ang.sin()) * rng.range(0.5, 2.0) * size
            })
            .collect();
        pts.push(-n * rng.range(0.5, 2.0) * size + t * rng.range(-0.2, 0.2) * size);
        // Within the band (touching) or clearly past it (overlapping).
        let fraction = [0.0, 0.5, 0.99, 2.0, 10.0, 1e6][i % 6];
        place(&mut pts, n, fraction);
        let r = verify(&pts);
        if fraction < 1.0 {
            touching += 1;
            assert_eq!(r.status, Status::Touching, "case {i}: facet at {fraction} band: {r:?}");
            assert!(r.normal.dot(n) > 0.999, "case {i}: normal {:?} vs {n:?}", r.normal);
        } else {
            overlapping += 1;
            assert_eq!(r.status, Status::Intersecting, "case {i}: facet at {fraction} band: {r:?}");
        }
    }
    assert!(touching > 1000 && overlapping > 1000);
}

#[test]
fn facets_within_the_band_are_never_skipped_2d() {
    let mut rng = Rng::new(9192);
    for i in 0..4000 {
        let n = rng.unit2();
        let t = n.perp();
        let size = 10f64.powf(rng.range(-6.0, 6.0));
        let mut pts: Vec<DVec2> = vec![t * rng.range(0.2, 2.0) * size, -t * rng.range(0.2, 2.0) * size];
        pts.push(-n * rng.range(0.5, 2.0) * size + t * rng.range(-0.2, 0.2) * size);
        let fraction = [0.0, 0.5, 0.99, 2.0, 10.0, 1e6][i % 6];
        place(&mut pts, n, fraction);
        let r = verify(&pts);
        if fraction < 1.0 {
            assert_eq!(r.status, Status::Touching, "case {i}: edge at {fraction} band: {r:?}");
            assert!(r.normal.dot(n) > 0.999, "case {i}: normal {:?} vs {n:?}", r.normal);
        } else {
            assert_eq!(r.status, Status::Intersecting, "case {i}: edge at {fraction} band: {r:?}");
        }
    }
}
