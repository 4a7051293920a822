//! The opt-in reliability sweep: a million random pairs (2D and 3D, f32 and
//! f64, all three configurations, plus hostile inputs) against the
//! brute-force oracle, counting panics, NaN outputs, iteration-cap hits and
//! the worst error. Run in release:
//!
//! ```sh
//! GJK_PAIRS=1000000 cargo test --release -p gjk-core --test million -- --ignored --nocapture
//! ```
//!
//! The default test run executes a 20 000-pair slice of the same sweep.

use std::panic::{AssertUnwindSafe, catch_unwind};

use gjk_core::glam::{DVec2, DVec3, Vec3};
use gjk_core::{GjkError, Status, distance, distance_value, intersects};
use gjk_testkit::*;

#[derive(Default, Debug)]
struct Sweep {
    pairs: u64,
    panics: u64,
    nan_outputs: u64,
    cap_hits: u64,
    wrong_contact: u64,
    max_err_f64: f64,
    max_err_f32: f64,
    invalid_reported: u64,
    band_violations: u64,
    /// `distance_value` differing from the full query's distance (or not
    /// an error on hostile input).
    value_mismatches: u64,
}

fn sweep(n: u64, seed: u64) -> Sweep {
    let mut s = Sweep::default();
    let mut rng = Rng::new(seed);
    for i in 0..n {
        s.pairs += 1;
        let kind = i % 4;
        let (na, nb) = (rng.usize(1, 8), rng.usize(1, 8));
        let a = polyhedron(&mut rng, na);
        let dir = rng.unit3();
        let mut b: Vec<DVec3> =
            polyhedron(&mut rng, nb).iter().map(|p| *p + dir * rng.range(0.0, 6.0)).collect();
        if kind == 3 {
            // Hostile: a random coordinate made NaN or infinite.
            let k = rng.usize(0, b.len() - 1);
            b[k].x = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][rng.usize(0, 2)];
        }
        let out = catch_unwind(AssertUnwindSafe(|| {
            let r = distance(a.as_slice(), b.as_slice());
            let hit = intersects(a.as_slice(), b.as_slice());
            let af: Vec<Vec3> = a.iter().map(|p| p.as_vec3()).collect();
            let bf: Vec<Vec3> = b.iter().map(|p| p.as_vec3()).collect();
            let rf = distance(af.as_slice(), bf.as_slice());
            let a2: Vec<DVec2> = a.iter().map(|p| p.truncate()).collect();
            let b2: Vec<DVec2> = b.iter().map(|p| p.truncate()).collect();
            let r2 = distance(a2.as_slice(), b2.as_slice());
            let values = [
                distance_value(a.as_slice(), b.as_slice()),
                distance_value(af.as_slice(), bf.as_slice()).map(f64::from),
                distance_value(a2.as_slice(), b2.as_slice()),
            ];
            (r, hit, rf, r2, values)
        }));
        let Ok((r, hit, rf, r2, values)) = out else {
            s.panics += 1;
            continue;
        };
        // Finite outputs, but for invalid input's distance: infinite, never
        // read as contact.
        let finite = |st: Status, d: f64, n: bool, p: bool| {
            (d.is_finite() || (st == Status::InvalidInput && d == f64::INFINITY)) && n && p
        };
        if !finite(r.status, r.distance, r.normal.is_finite(), r.point_a.is_finite())
            || !finite(rf.status, rf.distance as f64, rf.normal.is_finite(), rf.point_a.is_finite())
            || !finite(r2.status, r2.distance, r2.normal.is_finite(), r2.point_a.is_finite())
        {
            s.nan_outputs += 1;
        }
        let want = [r.distance, rf.distance as f64, r2.distance];
        for ((v, w), st) in values.iter().zip(want).zip([r.status, rf.status, r2.status]) {
            let expected = if st == Status::InvalidInput { Err(GjkError::InvalidInput) } else { Ok(w) };
            if *v != expected {
                s.value_mismatches += 1;
            }
        }
        if kind == 3 {
            if r.status == Status::InvalidInput && rf.status == Status::InvalidInput {
                s.invalid_reported += 1;
            }
            continue;
        }
        if [r.status, rf.status, r2.status].contains(&Status::IterationLimit) {
            s.cap_hits += 1;
        }
        if r.intersects() != hit {
            s.wrong_contact += 1;
        }
        if !hit {
            let oracle = brute_distance_3d(&a, &b);
            s.max_err_f64 = s.max_err_f64.max((r.distance - oracle).abs());
            let a32: Vec<DVec3> = a.iter().map(|p| p.as_vec3().as_dvec3()).collect();
            let b32: Vec<DVec3> = b.iter().map(|p| p.as_vec3().as_dvec3()).collect();
            if !intersects(a32.as_slice(), b32.as_slice()) {
                let o32 = brute_distance_3d(&a32, &b32);
                if rf.status == Status::Separated {
                    s.max_err_f32 = s.max_err_f32.max((rf.distance as f64 - o32).abs());
                } else if o32 > rf.tolerance as f64 * 1.01 {
                    // Contact is only claimed within the documented zero band.
                    s.band_violations += 1;
                }
            }
        }
    }
    s
}

fn check(s: &Sweep) {
    eprintln!("{s:#?}");
    assert_eq!(s.panics, 0);
    assert_eq!(s.nan_outputs, 0);
    assert_eq!(s.cap_hits, 0);
    assert_eq!(s.wrong_contact, 0);
    assert_eq!(s.band_violations, 0);
    assert_eq!(s.value_mismatches, 0);
    assert_eq!(s.invalid_reported, s.pairs / 4);
    assert!(s.max_err_f64 < 1e-9, "{}", s.max_err_f64);
    assert!(s.max_err_f32 < 5e-5, "{}", s.max_err_f32);
}

#[test]
fn sweep_slice() {
    check(&sweep(20_000, 4242));
}

#[test]
#[ignore = "a million pairs: run in release with --ignored"]
fn million_pairs() {
    let n = std::env::var("GJK_PAIRS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    check(&sweep(n, 1_000_003));
}
