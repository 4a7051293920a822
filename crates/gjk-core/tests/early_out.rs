//! `GjkConfig::max_distance`: the query stops with `Status::Beyond` exactly
//! when the distance is proven larger than the limit, with bounds that hold
//! against the brute-force distance; below the limit nothing changes.

use gjk_core::glam::DVec3;
use gjk_core::internal::intersects_within;
use gjk_core::{GjkConfig, SimplexCache, Status, distance, distance_with};
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

/// The split cold query: `first_support`, then `start_proves_beyond`, then
/// `distance_from`. The start test says "beyond" only for pairs the
/// brute-force distance puts past the limit, exactly when the full query
/// ends `Beyond` before its first step; `distance_from` continues to the
/// full query's answer, field for field (2D and 3D, f32 and f64).
#[test]
fn split_cold_query_is_the_full_query() {
    use gjk_core::glam::{DVec2, Vec2, Vec3};
    use gjk_core::internal::{distance_from, first_support, start_proves_beyond};
    let mut rng = Rng::new(8080);
    let (mut proven, mut continued) = (0, 0);
    for i in 0..3000 {
        let (na, nb) = (rng.usize(3, 12), rng.usize(3, 12));
        // Apart, touching-close or overlapping: gaps from −1 to 2.
        let gap = rng.range(-1.0, 2.0);
        let limit = rng.range(0.0, 1.5);
        let config = GjkConfig::within(limit);
        if i % 2 == 0 {
            let a = polyhedron(&mut rng, na);
            let b0 = polyhedron(&mut rng, nb);
            let u = rng.unit3();
            let lift = height3(&a, u) + height3(&b0, -u) + gap;
            let b: Vec<DVec3> = b0.iter().map(|p| *p + u * lift).collect();
            let start = first_support(a.as_slice(), b.as_slice());
            let full = distance_with(a.as_slice(), b.as_slice(), &config, None, &mut ());
            let said = start_proves_beyond(&config, start);
            assert_eq!(said, full.status == Status::Beyond && full.iterations == 0, "pair {i}");
            if said {
                proven += 1;
                assert!(brute_distance_3d(&a, &b) > limit, "pair {i}: proven beyond but within");
            } else {
                continued += 1;
            }
            let split = distance_from(a.as_slice(), b.as_slice(), &config, start, &mut ());
            assert_eq!(format!("{split:?}"), format!("{full:?}"), "pair {i}");
            // f32: the same split on rounded copies.
            let (a32, b32): (Vec<Vec3>, Vec<Vec3>) =
                (a.iter().map(|p| p.as_vec3()).collect(), b.iter().map(|p| p.as_vec3()).collect());
            let config32 = GjkConfig::within(limit as f32);
            let start32 = first_support(a32.as_slice(), b32.as_slice());
            let full32 = distance_with(a32.as_slice(), b32.as_slice(), &config32, None, &mut ());
            assert_eq!(
                start_proves_beyond(&config32, start32),
                full32.status == Status::Beyond && full32.iterations == 0
            );
            let split32 = distance_from(a32.as_slice(), b32.as_slice(), &config32, start32, &mut ());
            assert_eq!(format!("{split32:?}"), format!("{full32:?}"), "pair {i} (f32)");
        } else {
            let a = polygon(&mut rng, na);
            let b0 = polygon(&mut rng, nb);
            let u = DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
            let lift = height2(&a, u) + height2(&b0, -u) + gap;
            let b: Vec<DVec2> = b0.iter().map(|p| *p + u * lift).collect();
            let start = first_support(a.as_slice(), b.as_slice());
            let full = distance_with(a.as_slice(), b.as_slice(), &config, None, &mut ());
            let said = start_proves_beyond(&config, start);
            assert_eq!(said, full.status == Status::Beyond && full.iterations == 0, "pair {i}");
            if said {
                proven += 1;
                assert!(brute_distance_2d(&a, &b) > limit, "pair {i}: proven beyond but within");
            } else {
                continued += 1;
            }
            let split = distance_from(a.as_slice(), b.as_slice(), &config, start, &mut ());
            assert_eq!(format!("{split:?}"), format!("{full:?}"), "pair {i}");
            let (a32, b32): (Vec<Vec2>, Vec<Vec2>) =
                (a.iter().map(|p| p.as_vec2()).collect(), b.iter().map(|p| p.as_vec2()).collect());
            let start32 = first_support(a32.as_slice(), b32.as_slice());
            let split32 =
                distance_from(a32.as_slice(), b32.as_slice(), &GjkConfig::default(), start32, &mut ());
            assert_eq!(format!("{split32:?}"), format!("{:?}", distance(a32.as_slice(), b32.as_slice())));
        }
    }
    assert!(proven > 500 && continued > 1000, "both outcomes exercised: {proven} / {continued}");
}

/// Invalid input is never "proven beyond": it is left to the query, which
/// reports it; a NaN limit never cuts off.
#[test]
fn start_test_leaves_invalid_input_to_the_query() {
    use gjk_core::internal::{distance_from, first_support, start_proves_beyond};
    let a = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    let far = a.map(|p| p + DVec3::new(10.0, 0.0, 0.0));
    let bad = [DVec3::new(f64::NAN, 10.0, 0.0), DVec3::X * 10.0];
    let start = first_support(a.as_slice(), bad.as_slice());
    assert!(!start_proves_beyond(&GjkConfig::within(0.0), start));
    let r = distance_from(a.as_slice(), bad.as_slice(), &GjkConfig::within(0.0), start, &mut ());
    assert_eq!(r.status, Status::InvalidInput);
    let start = first_support(a.as_slice(), far.as_slice());
    assert!(start_proves_beyond(&GjkConfig::within(1.0), start));
    assert!(!start_proves_beyond(&GjkConfig::within(f64::NAN), start));
    assert!(!start_proves_beyond(&GjkConfig::within(f64::INFINITY), start));
}
