//! The support calls of touching distance queries on climbing hulls (the
//! compare binary's 3D touching sets, full pool), timed three ways on the
//! directions those queries use (recorded): each shape's first-improvement
//! climb one after the other (`support_indexed`, the single calls' climb),
//! each shape's stepped climb one after the other (`support_search`, then
//! `climb_step` to its end), and both stepped in turn (`minkowski_support`,
//! what the queries run). B is placed at its pose, as in the queries. Each
//! pair's calls are followed by parry's query on the pair, as the bench
//! interleaves them (`NOEVICT=1`: not).
//! `cargo run --release -p gjk-bench --example dual_climb -- [N] [REPS]`
use gjk_bench::*;
use gjk_core::glam::Vec3;
use gjk_core::internal::{Search, minkowski_support};
use gjk_core::{IterationBuffer, NO_INDEX, SupportMap, distance_with};
use gjk_shapes::{CoreOf, Placed, Transformed};
use std::hint::black_box;
use std::time::Instant;

/// One shape's stepped climb to its end (the answer's index).
#[inline(never)]
fn stepped<S: SupportMap<Vec3>>(s: &S, d: Vec3) -> u32 {
    match s.support_search(d, NO_INDEX) {
        Search::Done(_, i) => i,
        Search::Climbing(mut c) => {
            for _ in 0..c.steps {
                if s.climb_step(&mut c) {
                    break;
                }
            }
            c.at
        }
    }
}

fn main() {
    let arg = |i: usize, d: usize| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (n, reps) = (arg(1, 256), arg(2, 11));
    let evict = std::env::var("NOEVICT").is_err();
    let size = [8usize, 16, 32, 64, 256, 1024].iter().position(|&m| m == n).unwrap_or(4);
    let set = make_set3(set_seed(2000, size, 1), n, Kind::Touching, &Plan::FULL);
    // Each pair's recorded search directions (in A's frame).
    let dirs: Vec<Vec<Vec3>> = set
        .pairs
        .iter()
        .map(|(a, b, p)| {
            let tb = Transformed { shape: &set.ours[*b], pose: *p, scale: Vec3::ONE };
            let mut buf = [None; 64];
            let mut rec = IterationBuffer::new(&mut buf);
            let cfg = gjk_core::GjkConfig::default();
            distance_with(&CoreOf(&set.ours[*a]), &CoreOf(&tb), &cfg, None, &mut rec);
            rec.iterations().map(|it| it.direction).collect()
        })
        .collect();
    let calls: usize = dirs.iter().map(Vec::len).sum();
    let ppose: Vec<parry3d::math::Pose> =
        set.pairs.iter().map(|p| parry3d::math::Pose::from_parts(p.2.translation, p.2.rotation)).collect();
    let names = ["first improvement, one after the other", "stepped, one after the other", "stepped in turn"];
    let mut times = vec![Vec::new(); names.len()];
    for _ in 0..reps {
        for (v, t) in times.iter_mut().enumerate() {
            let mut total = 0u128;
            for (k, (a, b, p)) in set.pairs.iter().enumerate() {
                let (ca, pb) = (CoreOf(&set.ours[*a]), Placed::new(&set.ours[*b], p));
                let cb = CoreOf(&pb);
                let t0 = Instant::now();
                for &d in &dirs[k] {
                    let r = match v {
                        0 => (ca.support_indexed(d).1, cb.support_indexed(-d).1),
                        1 => (stepped(&ca, d), stepped(&cb, -d)),
                        _ => {
                            let s = minkowski_support(&ca, &cb, d);
                            (s.index_a, s.index_b)
                        }
                    };
                    black_box(r);
                }
                total += t0.elapsed().as_nanos();
                if evict {
                    // Parry's query on the pair, as the bench interleaves it.
                    black_box(parry3d::query::details::distance_support_map_support_map(
                        &ppose[k],
                        &set.peer[*a],
                        &set.peer[*b],
                    ));
                }
            }
            t.push(total as f64 / calls as f64);
        }
    }
    println!("n={n}, {calls} support calls of A − B, parry between pairs: {evict}");
    for (name, t) in names.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        println!("  {name:40} ns per call: median {:6.1}, min {:6.1}", t[t.len() / 2], t[0]);
    }
}
