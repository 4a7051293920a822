//! Warm-started 3D distance queries on pairs that keep turning, never
//! coming back: each of the compare binary's distant pairs turns by TURN
//! radians a frame (and moves 1e-3) for 48 frames; the caches are warmed
//! on the first 16, and each timed pass runs the other 32 once from copies
//! of those caches (ns per query, median of 15 passes), beside the cold
//! query on the same frames. The compare binary's warm rows replay the
//! same eight frames eleven times, so whatever a cache learns about a
//! direction serves again on the next pass; here every frame is new.
//! `cargo run --release -p gjk-bench --example warm_drift -- [VERTICES] [TURN] [PAIR]`
//! (PAIR: every pair replaced by pair PAIR of the set, so that every query
//! repeats one pair's branches; it prints that pair's cached point count).
use gjk_bench::*;
use gjk_core::SimplexCache;
use gjk_shapes::Pose;
use std::hint::black_box;
use std::time::Instant;

/// Frames per pair: the first [`WARMUP`] fill the caches.
const FRAMES: usize = 48;
/// Frames run before timing.
const WARMUP: usize = 16;
/// Timed passes.
const PASSES: usize = 15;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let turn: f32 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1e-3);
    let Some(i) = [8usize, 16, 32, 64, 256, 1024].iter().position(|&m| m == n) else {
        eprintln!("vertices: one of 8, 16, 32, 64, 256, 1024");
        return;
    };
    let mut set = make_set3(set_seed(2000, i, 0), n, Kind::Distant, &Plan::FULL);
    let one: Option<usize> = std::env::args().nth(3).and_then(|s| s.parse().ok());
    if let Some(&pair) = one.and_then(|k| set.pairs.get(k)) {
        set.pairs = vec![pair; set.pairs.len()];
    }
    let frames = drift_frames(&set, turn, FRAMES);
    let (id, cfg) = (Pose::IDENTITY, gjk_core::GjkConfig::default());
    let mut warmed = vec![SimplexCache::new(); set.pairs.len()];
    for (k, (a, b, _)) in set.pairs.iter().enumerate() {
        for f in &frames[k][..WARMUP] {
            gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], f, &cfg, Some(&mut warmed[k]));
        }
    }
    if let Some(k) = one {
        println!("pair {k} repeated: {} cached point(s)", warmed[0].len());
    }
    let per_query = (FRAMES - WARMUP) * set.pairs.len();
    let (mut warm, mut cold) = (Vec::new(), Vec::new());
    for _ in 0..PASSES {
        let mut caches = warmed.clone();
        let t0 = Instant::now();
        for (k, (a, b, _)) in set.pairs.iter().enumerate() {
            for f in &frames[k][WARMUP..] {
                let r = gjk_shapes::distance_with(
                    &set.ours[*a],
                    &id,
                    &set.ours[*b],
                    f,
                    &cfg,
                    Some(&mut caches[k]),
                );
                black_box(r.distance);
            }
        }
        warm.push(t0.elapsed().as_nanos() as f64 / per_query as f64);
        let t0 = Instant::now();
        for (k, (a, b, _)) in set.pairs.iter().enumerate() {
            for f in &frames[k][WARMUP..] {
                black_box(
                    gjk_shapes::distance_with(&set.ours[*a], &id, &set.ours[*b], f, &cfg, None).distance,
                );
            }
        }
        cold.push(t0.elapsed().as_nanos() as f64 / per_query as f64);
    }
    println!(
        "{n} vertices, {turn} rad a frame: warm {:.1} ns, cold {:.1} ns (medians of {PASSES})",
        median(warm),
        median(cold)
    );
}
