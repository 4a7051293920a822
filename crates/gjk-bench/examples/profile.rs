//! Profiling target: the 3D distant set (n = 8) distance query, in a loop.
use gjk_bench::*;
use gjk_shapes::Pose;
use std::hint::black_box;

fn main() {
    let plan = Plan::QUICK;
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let set = make_set3(2000, n, Kind::Distant, &plan);
    let id = Pose::IDENTITY;
    for _ in 0..2000 {
        for (a, b, p) in &set.pairs {
            black_box(gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], p).distance);
        }
    }
}
