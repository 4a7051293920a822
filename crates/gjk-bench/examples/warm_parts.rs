//! Where a warm-started 3D distance query's time goes, on the compare
//! binary's warm sequence (each distant pair moved by a small rigid step
//! for eight frames, every query with its pair's cache): the whole posed
//! query, the same without the posed layer, and its parts timed alone, each
//! over all pairs and frames (medians of 15 passes, ns per query). Parts
//! timed alone overlap from one query to the next; in the query each
//! waits on the one before, so they sum to less than the whole.
//! `cargo run --release -p gjk-bench --example warm_parts [VERTICES] [TURN]`
//! (TURN: radians a frame, 1e-3 by default, as the compare binary's).
use gjk_bench::*;
use gjk_core::glam::{Vec3, Vec3A};
use gjk_core::internal::{InLanes, minkowski_support_from};
use gjk_core::{GjkConfig, GjkSolver, SimplexCache, SupportMap, SupportPoint};
use gjk_shapes::{CoreOf, Placed, Pose};
use std::hint::black_box;

/// Frames per pair, as in the compare binary's warm rows.
const FRAMES: usize = 8;
/// Timed passes per part.
const PASSES: usize = 15;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let Some(i) = [8usize, 16, 32, 64, 256, 1024].iter().position(|&m| m == n) else {
        eprintln!("vertices: one of 8, 16, 32, 64, 256, 1024");
        return;
    };
    let set = make_set3(set_seed(2000, i, 0), n, Kind::Distant, &Plan::FULL);
    let m = set.pairs.len();
    // The turn per frame (radians about y): 1e-3 as in the compare
    // binary, or faster (how warm queries fare on pairs that spin).
    let turn: f32 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1e-3);
    let frames = drift_frames(&set, turn, FRAMES);
    let (id, cfg) = (Pose::IDENTITY, GjkConfig::default());
    let mut caches: Vec<SimplexCache<Vec3>> = vec![SimplexCache::new(); m];
    for (k, (a, b, _)) in set.pairs.iter().enumerate() {
        for f in &frames[k] {
            gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], f, &cfg, Some(&mut caches[k]));
        }
    }
    // The cached simplex's first vertices and direction: the hinted
    // support call's inputs.
    let hints: Vec<(u32, u32)> = caches.iter().map(|c| c.indices(0)).collect();
    let dirs: Vec<Vec3A> = caches.iter().map(|c| c.directions()[0].into()).collect();
    // The cached points on the frame's pose, in the lanes the query uses.
    let rebuild = |k: usize, pb: &Placed<&gjk_shapes::ConvexHull<Vec3>, Vec3>| {
        let c = &caches[k];
        let (a, b) = (InLanes::new(&set.ours[set.pairs[k].0]), InLanes::new(pb));
        let mut pts = [(SupportPoint::with_indices(Vec3A::ZERO, 0, Vec3A::ZERO, 0), Vec3A::ZERO); 4];
        for (j, slot) in pts.iter_mut().enumerate().take(c.len()) {
            let (x, y) = c.indices(j);
            let (pa, pb) = (a.vertex(x).unwrap_or(Vec3A::ZERO), b.vertex(y).unwrap_or(Vec3A::ZERO));
            *slot = (SupportPoint::with_indices(pa, x, pb, y), c.directions()[j].into());
        }
        (pts, c.len())
    };
    let mut parts: Vec<(&str, f64)> = Vec::new();
    let mut time = |name, t| parts.push((name, t));
    let mut warm = caches.clone();
    time(
        "warm query (posed)",
        per_query(&frames, |k, p| {
            let (a, b, _) = &set.pairs[k];
            black_box(
                gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], p, &cfg, Some(&mut warm[k]))
                    .distance,
            );
        }),
    );
    time(
        "cold query (posed)",
        per_query(&frames, |k, p| {
            let (a, b, _) = &set.pairs[k];
            black_box(gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], p, &cfg, None).distance);
        }),
    );
    time(
        "warm query, B placed by hand (gjk_core::distance_with)",
        per_query(&frames, |k, p| {
            let (a, b, _) = &set.pairs[k];
            let pb = Placed::new(&set.ours[*b], p);
            let (a, b) = (CoreOf(&set.ours[*a]), CoreOf(&pb));
            black_box(gjk_core::distance_with(&a, &b, &cfg, Some(&mut warm[k]), &mut ()).distance);
        }),
    );
    time(
        "B placed (its rotation matrix)",
        per_query(&frames, |k, p| {
            black_box(&Placed::new(&set.ours[set.pairs[k].1], p));
        }),
    );
    time(
        "cached points rebuilt",
        per_query(&frames, |k, p| {
            black_box(rebuild(k, &Placed::new(&set.ours[set.pairs[k].1], p)));
        }),
    );
    time(
        "rebuilt, solved and the result built",
        per_query(&frames, |k, p| {
            let (pts, len) = rebuild(k, &Placed::new(&set.ours[set.pairs[k].1], p));
            let mut gjk = GjkSolver::new(cfg);
            gjk.start_from(&pts[..len]);
            black_box(gjk.result().distance);
        }),
    );
    time(
        "rebuilt and solved (GjkSolver::start_from)",
        per_query(&frames, |k, p| {
            let (pts, len) = rebuild(k, &Placed::new(&set.ours[set.pairs[k].1], p));
            let mut gjk = GjkSolver::new(cfg);
            black_box(gjk.start_from(&pts[..len]));
            black_box(gjk.closest_point());
        }),
    );
    time(
        "a solver made (GjkSolver::new)",
        per_query(&frames, |k, _p| {
            let gjk = GjkSolver::<Vec3A>::new(black_box(cfg));
            black_box(&gjk);
            black_box(k);
        }),
    );
    time(
        "rebuilt, the sub-distance solve alone",
        per_query(&frames, |k, p| {
            let (pts, len) = rebuild(k, &Placed::new(&set.ours[set.pairs[k].1], p));
            let w = [pts[0].0.w, pts[1].0.w, pts[2].0.w, pts[3].0.w];
            black_box(gjk_core::solver3d::solve(&w, len));
        }),
    );
    time(
        "one hinted support of A - B",
        per_query(&frames, |k, p| {
            let pb = Placed::new(&set.ours[set.pairs[k].1], p);
            let (a, b) = (InLanes::new(&set.ours[set.pairs[k].0]), InLanes::new(&pb));
            black_box(minkowski_support_from(&a, &b, black_box(dirs[k]), hints[k]).w);
        }),
    );
    let mut sizes = [0usize; 5];
    for c in &caches {
        sizes[c.len()] += 1;
    }
    println!("cached simplices of 1, 2, 3, 4 points: {:?}\n", &sizes[1..]);
    println!("| {n} vertices, {turn} rad a frame | ns per query |\n|---|---|");
    for (name, t) in parts {
        println!("| {name} | {t:.1} |");
    }
}

/// Median over [`PASSES`] passes of `f` on every pair's frames, ns per query.
fn per_query(frames: &[Vec<Pose<Vec3>>], mut f: impl FnMut(usize, &Pose<Vec3>)) -> f64 {
    let passes = (0..PASSES)
        .map(|_| {
            per_item(frames.len(), |k| {
                for p in &frames[k] {
                    f(k, p);
                }
            }) / FRAMES as f64
        })
        .collect();
    median(passes)
}
