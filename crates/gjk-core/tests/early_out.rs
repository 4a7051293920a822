//! `GjkConfig::max_distance`: the query stops with `Status::Beyond` exactly
//! when the distance is proven larger than the limit, with bounds that hold
//! against the brute-force distance; below the limit nothing changes.

use gjk_core::glam::DVec3;
use gjk_core::{GjkConfig, SimplexCache, Status, distance, distance_with, intersects_within};
use gjk_testkit::*;

#[test]
fn beyond_exactly_when_the_limit_is_passed() {
    let mut rng = Rng::new(4242);
    let (mut beyond, mut within, mut at_start) = (0, 0, 0);
    for _ in 0..3000 {
        let (na, nb) = (rng.usize(4, 15), rng.usize(4, 15));
        let a = polyhedron(&mut rng, na);
        let b0 = polyhedron(&mut rng, nb);
        // Disjoint by construction (a separating plane with a random gap),
        // so the brute-force feature distance is the true distance.
        let u = rng.unit3();
        let lift = height3(&a, u) + height3(&b0, -u) + rng.range(0.0, 2.0);
        let b: Vec<DVec3> = b0.iter().map(|p| *p + u * lift).collect();
        let truth = brute_distance_3d(&a, &b);
        let limit = rng.range(0.0, 2.0);
        let r = distance_with(a.as_slice(), b.as_slice(), &GjkConfig::within(limit), None, &mut ());
        let full = distance(a.as_slice(), b.as_slice());
        if r.status == Status::Beyond {
            beyond += 1;
            // Proven by the start point alone (no iteration): the exit at
            // the start, whose normal is the start direction.
            at_start += usize::from(r.iterations == 0);
            // The proof: a lower bound past the limit, below the truth.
            assert!(r.lower_bound > limit, "lower bound {} vs limit {limit}", r.lower_bound);
            assert!(r.lower_bound <= truth + 1e-9 && r.distance >= truth - 1e-9);
            // The normal separates: A − B reaches no further than −lower_bound along it.
            let h = a.iter().map(|p| p.dot(r.normal)).fold(f64::MIN, f64::max)
                - b.iter().map(|p| p.dot(r.normal)).fold(f64::MAX, f64::min);
            assert!(h <= -r.lower_bound + 1e-9, "normal does not prove the bound");
        } else {
            within += 1;
            // Not cut off (the truth is within the limit, or the query
            // converged before its lower bound passed it): the answer is the
            // full query's.
            assert!(
                truth <= limit + 1e-9 || r.status == Status::Separated,
                "{:?} truth {truth} limit {limit} d {}",
                r.status,
                r.distance
            );
            assert_eq!(r.status, full.status);
            assert_eq!(r.distance, full.distance);
        }
    }
    assert!(beyond > 500 && within > 500, "both outcomes exercised: {beyond} / {within}");
    assert!(at_start > 100, "the exit at the start exercised: {at_start}");
}

#[test]
fn touching_and_overlapping_pairs_never_stop_early() {
    let a = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    for (shift, want) in [(DVec3::X, Status::Touching), (DVec3::splat(0.1), Status::Intersecting)] {
        let b = a.map(|p| p + shift);
        let r = distance_with(a.as_slice(), b.as_slice(), &GjkConfig::within(0.0), None, &mut ());
        assert_eq!(r.status, want);
    }
}

/// The boolean test's exit at the start (the first support point already
/// separates, by more than the band plus the margin) against the brute-force
/// distance: `intersects_within(margin)` is true exactly when the distance
/// is at most the margin, outside a thin band around it; a cache stored by
/// that exit warm-starts the same answer.
#[test]
fn boolean_exit_at_the_start_agrees_with_brute_force() {
    let mut rng = Rng::new(977);
    let config = GjkConfig::default();
    let (mut apart, mut within) = (0, 0);
    for i in 0..3000 {
        let (na, nb) = (rng.usize(4, 12), rng.usize(4, 12));
        let a = polyhedron(&mut rng, na);
        let b0 = polyhedron(&mut rng, nb);
        let u = rng.unit3();
        let lift = height3(&a, u) + height3(&b0, -u) + rng.range(1e-3, 3.0);
        let b: Vec<DVec3> = b0.iter().map(|p| *p + u * lift).collect();
        let truth = brute_distance_3d(&a, &b);
        // Margins on both sides of the distance, some far from it.
        let margin = truth * rng.range(0.0, 2.0);
        if (margin - truth).abs() < 1e-6 * (1.0 + truth) {
            continue;
        }
        let want = truth <= margin;
        let got = intersects_within(a.as_slice(), b.as_slice(), margin, &config, None);
        assert_eq!(got, Ok(want), "pair {i}: truth {truth} margin {margin}");
        let mut cache = SimplexCache::default();
        let cold = intersects_within(a.as_slice(), b.as_slice(), margin, &config, Some(&mut cache));
        let warm = intersects_within(a.as_slice(), b.as_slice(), margin, &config, Some(&mut cache));
        assert_eq!((cold, warm), (Ok(want), Ok(want)), "pair {i} with a cache");
        if want { within += 1 } else { apart += 1 }
    }
    assert!(apart > 1000 && within > 1000, "both outcomes exercised: {apart} / {within}");
}
