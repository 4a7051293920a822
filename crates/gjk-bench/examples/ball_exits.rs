//! How often the balls settle a pair without GJK (`gjk_core::internal::ball_test`:
//! inner balls overlapping, outer balls apart) on each of the compare
//! binary's sets, with its seeds: the `intersects` rows of those sets time
//! that test, not GJK, and the `distance` rows of the overlap sets too.
//! `cargo run --release -p gjk-bench --example ball_exits`
use gjk_bench::*;
use gjk_core::GjkConfig;
use gjk_core::internal::{BallTest, ball_test};
use gjk_shapes::{CoreOf, Placed};

/// Percentages `(overlapping, apart)` of the pairs.
fn rates<V, S>(pairs: &[(usize, usize, gjk_shapes::Pose<V>)], ours: &[S]) -> (f64, f64)
where
    V: gjk_shapes::Space,
    S: gjk_shapes::Shape<V>,
{
    let cfg = GjkConfig::default();
    let (mut inside, mut apart) = (0usize, 0usize);
    for (a, b, p) in pairs {
        match ball_test(
            &CoreOf(&ours[*a]),
            &CoreOf(Placed::new(&ours[*b], p)),
            V::Scalar::from_f64(0.0),
            &cfg,
        ) {
            BallTest::Overlapping => inside += 1,
            BallTest::Apart => apart += 1,
            BallTest::Unknown => {}
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / pairs.len().max(1) as f64;
    (pct(inside), pct(apart))
}

use gjk_core::Real;

fn main() {
    let plan = Plan::FULL;
    println!("| set | dim | vertices | settled overlapping | settled apart |");
    println!("|---|---|---|---|---|");
    for (i, &n) in [4usize, 8, 12, 16, 20, 24].iter().enumerate() {
        for (k, kind) in KINDS.iter().chain(&EXTRA_KINDS).enumerate() {
            let set = make_set2(set_seed(1000, i, k), n, *kind, &plan);
            let (o, a) = rates(&set.pairs, &set.ours);
            println!("| {} | 2 | {n} | {o:.1} % | {a:.1} % |", kind.name());
        }
    }
    for (i, &n) in [8usize, 16, 32, 64, 256, 1024].iter().enumerate() {
        for (k, kind) in KINDS.iter().chain(&EXTRA_KINDS).enumerate() {
            let set = make_set3(set_seed(2000, i, k), n, *kind, &plan);
            let (o, a) = rates(&set.pairs, &set.ours);
            println!("| {} | 3 | {n} | {o:.1} % | {a:.1} % |", kind.name());
        }
    }
}
