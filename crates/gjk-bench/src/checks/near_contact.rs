//! Pairs a few zero bands from contact: the compare binary's kind of
//! touching pairs (3D hulls, 2D polygons) moved apart or together by `k`
//! bands, and how often each library answers them wrongly. A band here is
//! `256 ε` (f32) times twice the largest coordinate of the pair, about our
//! query's own zero band (`DistanceResult::tolerance`). B moves along the
//! line from A's centroid to B's, so the gap changes by `k` bands times the
//! cosine to the contact normal; the truth is an `f64` query on the moved
//! vertices, its distance checked by brute force where it is positive.
//!
//! Counted wrong, for pairs moved together (`k < 0`) that overlap in
//! truth: a distance query that does not report contact (ours:
//! `intersects()`; parry: a distance above 0) and a boolean `false`; for
//! pairs moved apart (`k > 0`) and more than two bands apart in truth: a
//! distance query that reports contact (parry: a distance of 0) and a
//! boolean `true` (within two bands either answer is right, so the `+1.5`
//! rows count distances only). Ours only, on every pair moved apart: a
//! distance off the truth by more than the result's own `tolerance` plus
//! `1e-6` of the scale (parry's distance stops at a looser relative gap,
//! `√(10 ε)`, and makes no such promise).
//!
//! Then two more tables (the second ours only: parry has no warm start):
//! - **Contact depth** (3D hulls of 8 and 32 vertices moved 1.5 – 100
//!   bands together, the deepest about 1 % of their size): the
//!   contact query's depth against the Minkowski difference's hull built
//!   in `f64` (the least distance from the origin to a face plane), wrong
//!   where it is off by more than a band or the status is not
//!   `Penetrating` for a depth above a band; parry's contact likewise
//!   (its `-dist`).
//! - **Warm queries through contact**: each pair moved from 4 bands apart
//!   to 4 together in half-band steps, the distance and the boolean test
//!   each with its own `SimplexCache`, every frame judged as above.
//!
//! `cargo run --release -p gjk-bench -- near-contact [SETS] [--list]`
//! (`SETS` sets of 1 000 pairs per size and `k`, default 4; `--list`
//! prints our wrong answers as `dim n set k pair`).
use gjk_bench::*;
use gjk_core::glam::DVec3;
use gjk_shapes::{Pose, Shape, Space};

/// Moves, in bands (negative: together).
const KS: [f64; 7] = [-8.0, -3.0, -1.5, 1.5, 3.0, 8.0, 30.0];

/// Hull sizes (3D) and polygon sizes (2D).
const SIZES3: [usize; 4] = [8, 32, 64, 256];
const SIZES2: [usize; 3] = [4, 12, 24];

/// Wrong answers on one moved pair: [ours: distance off, contact by the
/// distance query, boolean; parry: contact by the distance, boolean], or
/// `None` where the pair does not count (moved together but apart in
/// truth, or moved apart but still in contact).
type Verdict = Option<[bool; 5]>;

/// The scale of a pair from its band: twice its largest coordinate.
fn scale(band: f64) -> f64 {
    band / (256.0 * f64::from(f32::EPSILON))
}

/// The verdict on one pair moved by `k` bands: ours (distance, tolerance,
/// contact by the distance query, boolean) and parry's (distance, boolean)
/// against the true distance.
fn judge(k: f64, truth: f64, band: f64, ours: (f64, f64, bool, bool), peer: (f64, bool)) -> Verdict {
    let (d, tolerance, contact, boolean) = ours;
    let (pd, pb) = peer;
    if k < 0.0 {
        // Only pairs that overlap in truth (the move need not reach).
        (truth == 0.0).then_some([false, !contact, !boolean, pd > 0.0, !pb])
    } else {
        let off = (d - truth).abs() > tolerance + 1e-6 * scale(band);
        // Within two bands either answer on contact is right.
        let apart = truth > 2.0 * band;
        (truth > 0.0).then_some([off, contact && apart, boolean && apart, pd == 0.0 && apart, pb && apart])
    }
}

/// Ours on A and B at `pose`: the distance, its tolerance, contact by the
/// distance query, and the boolean test.
fn ours<V: Space<Scalar = f32>, S: Shape<V>>(a: &S, b: &S, pose: &Pose<V>) -> (f64, f64, bool, bool) {
    let r = gjk_shapes::distance(a, &Pose::IDENTITY, b, pose);
    let boolean = gjk_shapes::intersects(a, &Pose::IDENTITY, b, pose);
    (f64::from(r.distance), f64::from(r.tolerance), r.intersects(), boolean)
}

/// One 3D set moved by `k` bands: per pair its verdict.
fn run3(n: usize, s: u64, k: f64) -> Vec<Verdict> {
    let set = make_set3(near_seed(3, n, s), n, Kind::Touching, &NEAR_PLAN);
    (0..set.pairs.len())
        .map(|i| {
            let (pose, wa, wb, band) = moved_by_bands3(&set, i, k);
            let (a, b, _) = set.pairs[i];
            let truth = gjk_core::distance(wa.as_slice(), wb.as_slice()).distance;
            if truth > 0.0 && n <= 64 {
                let brute = hull_oracle(&set.ours[a], &set.ours[b], &pose);
                assert!((brute - truth).abs() <= 1e-9 * scale(band), "oracles differ: {brute} {truth}");
            }
            let ours = ours(&set.ours[a], &set.ours[b], &pose);
            let pp = parry3d::math::Pose::from_parts(pose.translation, pose.rotation);
            let (pa, pb) = (&set.peer[a], &set.peer[b]);
            let peer = (
                f64::from(parry3d::query::details::distance_support_map_support_map(&pp, pa, pb)),
                parry3d::query::details::intersection_test_support_map_support_map(&pp, pa, pb),
            );
            judge(k, truth, band, ours, peer)
        })
        .collect()
}

/// One 2D set moved by `k` bands: per pair its verdict.
fn run2(n: usize, s: u64, k: f64) -> Vec<Verdict> {
    let set = make_set2(near_seed(2, n, s), n, Kind::Touching, &NEAR_PLAN);
    (0..set.pairs.len())
        .map(|i| {
            let (pose, wa, wb, band) = moved_by_bands2(&set, i, k);
            let (a, b, _) = set.pairs[i];
            let truth = gjk_core::distance(wa.as_slice(), wb.as_slice()).distance;
            if truth > 0.0 {
                let brute = gjk_testkit::brute_distance_2d(&wa, &wb);
                assert!((brute - truth).abs() <= 1e-9 * scale(band), "oracles differ: {brute} {truth}");
            }
            let ours = ours(&set.ours[a], &set.ours[b], &pose);
            let pp = parry_pose2(&pose);
            let (pa, pb) = (&set.peer[a], &set.peer[b]);
            let peer = (
                f64::from(parry2d::query::details::distance_support_map_support_map(&pp, pa, pb)),
                parry2d::query::details::intersection_test_support_map_support_map(&pp, pa, pb),
            );
            judge(k, truth, band, ours, peer)
        })
        .collect()
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let args: Vec<String> = args.to_vec();
    let sets: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(4);
    let list = args.iter().any(|a| a == "--list");
    println!(
        "| dim | vertices | k (bands) | pairs counted | ours: distance off | contact wrong | boolean wrong | parry: contact wrong | boolean wrong |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let sizes = SIZES3.iter().map(|&n| (3, n)).chain(SIZES2.iter().map(|&n| (2, n)));
    for (dim, n) in sizes {
        for k in KS {
            let (mut counted, mut wrong) = (0, [0usize; 5]);
            for s in 0..sets {
                let verdicts = if dim == 3 { run3(n, s, k) } else { run2(n, s, k) };
                for (i, v) in verdicts.iter().enumerate() {
                    let Some(v) = v else { continue };
                    counted += 1;
                    for (w, bad) in wrong.iter_mut().zip(v) {
                        *w += usize::from(*bad);
                    }
                    if list && (v[0] || v[1] || v[2]) {
                        println!("{dim} {n} {s} {k} {i}");
                    }
                }
            }
            let [a, b, c, d, e] = wrong;
            println!("| {dim}D | {n} | {k:+} | {counted} | {a} | {b} | {c} | {d} | {e} |");
        }
    }
    println!();
    println!("| vertices | k (bands) | pairs overlapping | ours: depth wrong | parry: depth wrong |");
    println!("|---|---|---|---|---|");
    for n in [8, 32] {
        for k in [-100.0, -30.0, -8.0, -3.0, -1.5] {
            let (mut counted, mut ours, mut peer) = (0, 0, 0);
            for s in 0..sets {
                for (o, p) in depths3(n, s, k).into_iter().flatten() {
                    counted += 1;
                    ours += usize::from(o);
                    peer += usize::from(p);
                }
            }
            println!("| {n} | {k:+} | {counted} | {ours} | {peer} |");
        }
    }
    println!();
    println!("| vertices | frames | warm distance: off | contact wrong | warm boolean wrong |");
    println!("|---|---|---|---|---|");
    for n in SIZES3 {
        let (mut counted, mut wrong) = (0, [0usize; 3]);
        for s in 0..sets {
            for v in warm3(n, s).into_iter().flatten() {
                counted += 1;
                for (w, bad) in wrong.iter_mut().zip(v) {
                    *w += usize::from(bad);
                }
            }
        }
        let [a, b, c] = wrong;
        println!("| {n} | {counted} | {a} | {b} | {c} |");
    }
}

/// The penetration depth of two overlapping point sets: the least
/// distance from the origin to a face plane of their Minkowski
/// difference's hull (built in `f64`).
fn hull_depth(wa: &[DVec3], wb: &[DVec3]) -> f64 {
    let w: Vec<DVec3> = wa.iter().flat_map(|p| wb.iter().map(move |q| *p - *q)).collect();
    let hull = gjk_shapes::ConvexHull::new(&w).expect("a solid Minkowski difference");
    let v = hull.vertices();
    let inside = v.iter().sum::<DVec3>() / v.len() as f64;
    let plane = |f: &[u32; 3]| {
        let [x, y, z] = f.map(|i| v[i as usize]);
        let n = (y - x).cross(z - x).normalize();
        // Outwards: away from the hull's vertex centroid.
        if n.dot(inside - x) > 0.0 { -n.dot(x) } else { n.dot(x) }
    };
    hull.faces().iter().map(plane).fold(f64::INFINITY, f64::min)
}

/// One 3D set moved `k` (< 0) bands together: per pair that overlaps in
/// truth, whether ours and parry's contact depths are wrong.
fn depths3(n: usize, s: u64, k: f64) -> Vec<Option<(bool, bool)>> {
    let set = make_set3(near_seed(3, n, s), n, Kind::Touching, &NEAR_PLAN);
    (0..set.pairs.len())
        .map(|i| {
            let (pose, wa, wb, band) = moved_by_bands3(&set, i, k);
            if gjk_core::distance(wa.as_slice(), wb.as_slice()).distance > 0.0 {
                return None;
            }
            let depth = hull_depth(&wa, &wb);
            let (a, b, _) = set.pairs[i];
            let c = gjk_epa::contact(&set.ours[a], &Pose::IDENTITY, &set.ours[b], &pose);
            let status_wrong = depth > band && c.status != gjk_epa::ContactStatus::Penetrating;
            let ours = status_wrong || (f64::from(c.depth) - depth).abs() > band;
            let pp = parry3d::math::Pose::from_parts(pose.translation, pose.rotation);
            let pc = parry3d::query::details::contact_support_map_support_map(
                &pp,
                &set.peer[a],
                &set.peer[b],
                0.0,
            );
            let peer = pc.is_none_or(|c| (f64::from(-c.dist).max(0.0) - depth).abs() > band);
            Some((ours, peer))
        })
        .collect()
}

/// One 3D set's pairs moved from 4 bands apart to 4 together, warm: per
/// frame that counts ([`judge`]), whether ours is wrong (distance off,
/// contact by the distance, boolean).
fn warm3(n: usize, s: u64) -> Vec<Option<[bool; 3]>> {
    use gjk_core::{GjkConfig, SimplexCache};
    let set = make_set3(near_seed(3, n, s), n, Kind::Touching, &NEAR_PLAN);
    let cfg = GjkConfig::default();
    let mut out = Vec::new();
    for i in 0..set.pairs.len() {
        let (mut cache, mut boolean_cache) = (SimplexCache::new(), SimplexCache::new());
        let (a, b, _) = set.pairs[i];
        let (a, b) = (&set.ours[a], &set.ours[b]);
        for step in 0..=16 {
            let k = 4.0 - 0.5 * f64::from(step);
            let (pose, wa, wb, band) = moved_by_bands3(&set, i, k);
            let truth = gjk_core::distance(wa.as_slice(), wb.as_slice()).distance;
            let r = gjk_shapes::distance_with(a, &Pose::IDENTITY, b, &pose, &cfg, Some(&mut cache));
            let boolean =
                gjk_shapes::intersects_with(a, &Pose::IDENTITY, b, &pose, &cfg, Some(&mut boolean_cache));
            let ours = (f64::from(r.distance), f64::from(r.tolerance), r.intersects(), boolean == Ok(true));
            // Moved together or apart, as `judge` reads `k`'s sign.
            let side = if truth == 0.0 { -1.0 } else { 1.0 };
            out.push(judge(side, truth, band, ours, (0.0, false)).map(|v| [v[0], v[1], v[2]]));
        }
    }
    out
}
