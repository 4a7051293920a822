//! Nonlinear shape casts (shapes that turn as they move) against parry's
//! `cast_shapes_nonlinear`, on the same random pairs in the same process,
//! and both against a brute-force oracle.
//!
//! Pairs: random hulls of 8 – 16 points (the paper's generator, f32), A
//! drifting and B thrown at A, each turning at up to `SPIN` radians per
//! unit of time about a point near its origin; the cast runs over
//! `t ∈ [0, 1]` with target distance 0. The oracle, in f64 on the same
//! (rounded) inputs, places the world vertices by its own motion formula
//! and finds the first contact by a scan of 400 steps and bisection: the
//! distance by brute force over every feature pair while a separating axis
//! exists among every candidate the point sets make, else overlap.
//!
//! Counted per library: hits, misses and undecided casts; *late*: a hit
//! past the oracle's first contact by more than 1e-4 in time, or a miss
//! where the oracle finds a contact (the shapes would pass through each
//! other); *early*: a hit where the shapes are still apart by more than
//! 1 % of the smaller shape's reach. Then ns per cast, medians of 7
//! interleaved passes.
//! `cargo run --release -p gjk-bench -- nonlinear-casts [PAIRS] [SPIN]`
//! (default 2 000 pairs, spin 8).
use gjk_bench::{median, parry_motion, per_item};
use gjk_core::glam::{DQuat, DVec3, Vec3};
use gjk_core::{CastOptions, CastStatus};
use gjk_shapes::internal::reach_from;
use gjk_shapes::{ConvexHull, Motion, Pose, cast_shape_nonlinear};
use gjk_testkit::{Rng, first_root, polyhedron, signed_gap_3d};
use std::hint::black_box;

/// One pair: the two hulls' points (f32) and their motions.
struct Pair {
    points: [Vec<Vec3>; 2],
    motions: [Motion<Vec3>; 2],
}

/// The oracle's world point at time `t` (its own formula, in f64).
fn world(m: &Motion<Vec3>, t: f64, p: Vec3) -> DVec3 {
    let q = m.start.rotation.as_dquat();
    let (lc, w) = (m.local_center.as_dvec3(), m.angular.as_dvec3());
    let r = DQuat::from_scaled_axis(w * t) * q;
    let c = q * lc + m.start.translation.as_dvec3() + m.linear.as_dvec3() * t;
    c + r * (p.as_dvec3() - lc)
}

/// The oracle's gap at time `t`: the distance, or −1 while the hulls overlap.
fn gap(pair: &Pair, t: f64) -> f64 {
    let [a, b] =
        [0, 1].map(|k| pair.points[k].iter().map(|&p| world(&pair.motions[k], t, p)).collect::<Vec<_>>());
    signed_gap_3d(&a, &b)
}

fn rand3(rng: &mut Rng, lo: f64, hi: f64) -> Vec3 {
    (rng.unit3() * rng.range(lo, hi)).as_vec3()
}

fn pairs(n: usize, spin: f64) -> Vec<Pair> {
    let mut rng = Rng::new(9101);
    (0..n)
        .map(|_| {
            let points = [0, 1].map(|_| {
                let k = rng.usize(8, 16);
                polyhedron(&mut rng, k).iter().map(|p| p.as_vec3()).collect::<Vec<_>>()
            });
            let from = rng.unit3() * rng.range(4.5, 7.0);
            let a = Motion {
                start: Pose::new(rng.quat().as_quat(), Vec3::ZERO),
                local_center: rand3(&mut rng, 0.0, 0.5),
                linear: rand3(&mut rng, 0.0, 1.0),
                angular: rand3(&mut rng, 0.0, spin),
            };
            let b = Motion {
                start: Pose::new(rng.quat().as_quat(), from.as_vec3()),
                local_center: rand3(&mut rng, 0.0, 0.5),
                linear: (-from * rng.range(0.4, 1.3) + rng.unit3() * rng.range(0.0, 1.0)).as_vec3(),
                angular: rand3(&mut rng, 0.0, spin),
            };
            Pair { points, motions: [a, b] }
        })
        .collect()
}

/// What a library answered: a hit at a time, no hit, or undecided.
#[derive(Clone, Copy)]
enum Answer {
    Hit(f64),
    Miss,
    Undecided,
}

#[derive(Default)]
struct Tally {
    hits: usize,
    misses: usize,
    undecided: usize,
    late: usize,
    worst_late: f64,
    early: usize,
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let spin: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8.0);
    let set = pairs(n, spin);
    let ours_shapes: Vec<[ConvexHull<Vec3>; 2]> =
        set.iter().map(|p| p.points.clone().map(|v| ConvexHull::new(&v).expect("a solid cloud"))).collect();
    let peer_shapes: Vec<[parry3d::shape::ConvexPolyhedron; 2]> = set
        .iter()
        .map(|p| {
            p.points.clone().map(|v| parry3d::shape::ConvexPolyhedron::from_convex_hull(&v).expect("valid"))
        })
        .collect();
    let peer_motions: Vec<[parry3d::query::NonlinearRigidMotion; 2]> =
        set.iter().map(|p| [parry_motion(&p.motions[0]), parry_motion(&p.motions[1])]).collect();
    let ours = |i: usize| {
        let [a, b] = &ours_shapes[i];
        let [ma, mb] = &set[i].motions;
        cast_shape_nonlinear(a, ma, b, mb, &CastOptions::default())
    };
    let peer = |i: usize| {
        let [a, b] = &peer_shapes[i];
        let [ma, mb] = &peer_motions[i];
        parry3d::query::cast_shapes_nonlinear(ma, a, mb, b, 0.0, 1.0, true)
    };

    let (mut t_ours, mut t_peer) = (Tally::default(), Tally::default());
    let mut inside = 0;
    let mut calls = Vec::new();
    for (i, pair) in set.iter().enumerate() {
        let f = |t: f64| gap(pair, t);
        if f(0.0) <= 0.0 {
            inside += 1;
            continue;
        }
        let root = first_root(&f, 1.0, 400);
        let [a, b] = &ours_shapes[i];
        let size = reach_from(a, pair.motions[0].local_center)
            .min(reach_from(b, pair.motions[1].local_center)) as f64;
        let h = ours(i);
        calls.push(h.map_or(0.0, |h| h.iterations as f64));
        let mine = match h.map(|h| (h.status, h.fraction)) {
            Some((CastStatus::Hit | CastStatus::StartsInside, t)) => Answer::Hit(t as f64),
            None => Answer::Miss,
            _ => Answer::Undecided,
        };
        let theirs = match peer(i) {
            Ok(Some(hit)) if hit.status == parry3d::query::ShapeCastStatus::Failed => Answer::Undecided,
            Ok(Some(hit)) => Answer::Hit(hit.time_of_impact as f64),
            Ok(None) => Answer::Miss,
            Err(_) => Answer::Undecided,
        };
        for (answer, tally) in [(mine, &mut t_ours), (theirs, &mut t_peer)] {
            match answer {
                Answer::Hit(t) => {
                    tally.hits += 1;
                    match root {
                        Some(r) if t > r + 1e-4 => {
                            tally.late += 1;
                            tally.worst_late = tally.worst_late.max(t - r);
                        }
                        _ => {}
                    }
                    if f(t) > 0.01 * size {
                        tally.early += 1;
                    }
                }
                Answer::Miss => {
                    tally.misses += 1;
                    if root.is_some() {
                        tally.late += 1;
                    }
                }
                Answer::Undecided => tally.undecided += 1,
            }
        }
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    per_item(n, |i| {
        let _ = black_box(ours(i));
    });
    per_item(n, |i| {
        let _ = black_box(peer(i));
    });
    for _ in 0..7 {
        a.push(per_item(n, |i| {
            let _ = black_box(ours(i));
        }));
        b.push(per_item(n, |i| {
            let _ = black_box(peer(i));
        }));
    }
    let (ns_ours, ns_peer) = (median(a), median(b));
    println!("{n} pairs, spin up to {spin} rad per unit of time; {inside} start in contact (not counted)");
    calls.sort_by(f64::total_cmp);
    println!(
        "our support calls per cast: median {}, 99th percentile {}, most {}",
        calls[calls.len() / 2],
        calls[calls.len() * 99 / 100],
        calls[calls.len() - 1]
    );
    println!();
    println!(
        "| library | hits | misses | undecided | late (past the first contact, or a missed one) | worst late (time) | early (apart by > 1 % at the hit) | ns per cast |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, t, ns) in [("ours", &t_ours, ns_ours), ("parry3d 0.27", &t_peer, ns_peer)] {
        println!(
            "| {name} | {} | {} | {} | {} | {:.2e} | {} | {ns:.0} |",
            t.hits, t.misses, t.undecided, t.late, t.worst_late, t.early
        );
    }
}
