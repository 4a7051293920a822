//! How often each library calls a touching pair apart, on the compare
//! binary's touching sets, 3D then 2D (the paper's data: every pair moved into
//! contact along an `f64` query's closest points, so its true gap is at
//! the `f32` rounding of the pose, ~1e-7): per hull size, the pairs whose
//! distance query does not report contact, whose boolean test says
//! `false` and whose distance alone is not 0, ours and parry's. With a
//! count `SEEDS`, also that many further touching sets of each size (1 000
//! pairs from 16 shapes each), as one total per dimension. (In 2D the
//! distance alone of polygons apart or touching is the boundary walk's
//! exact gap, not 0, so it is not counted there.)
//! `cargo run --release -p gjk-bench -- touching-contact [SEEDS]`
use gjk_bench::*;
use gjk_shapes::Pose;
use parry3d::query::details as pq;

/// Hull sizes of the compare binary's 3D sets.
const SIZES: [usize; 6] = [8, 16, 32, 64, 256, 1024];

/// Pairs of one set called apart: ours (distance, boolean, distance
/// alone), parry's (distance, boolean).
fn apart(set: &Set3) -> [usize; 5] {
    let id = Pose::IDENTITY;
    let mut c = [0; 5];
    for (a, b, p) in &set.pairs {
        let (sa, sb) = (&set.ours[*a], &set.ours[*b]);
        let pp = parry3d::math::Pose::from_parts(p.translation, p.rotation);
        let (pa, pb) = (&set.peer[*a], &set.peer[*b]);
        let flags = [
            !gjk_shapes::distance(sa, &id, sb, p).intersects(),
            !gjk_shapes::intersects(sa, &id, sb, p),
            gjk_shapes::distance_value(sa, &id, sb, p) != Ok(0.0),
            pq::distance_support_map_support_map(&pp, pa, pb) > 0.0,
            !pq::intersection_test_support_map_support_map(&pp, pa, pb),
        ];
        for (n, f) in c.iter_mut().zip(flags) {
            *n += usize::from(f);
        }
    }
    c
}

/// [`apart`] for a 2D set (the distance alone not counted: 0).
fn apart2(set: &Set2) -> [usize; 5] {
    let id = Pose::IDENTITY;
    let mut c = [0; 5];
    for (a, b, p) in &set.pairs {
        let (sa, sb) = (&set.ours[*a], &set.ours[*b]);
        let pp = parry_pose2(p);
        let (pa, pb) = (&set.peer[*a], &set.peer[*b]);
        let flags = [
            !gjk_shapes::distance(sa, &id, sb, p).intersects(),
            !gjk_shapes::intersects(sa, &id, sb, p),
            false,
            parry2d::query::details::distance_support_map_support_map(&pp, pa, pb) > 0.0,
            !parry2d::query::details::intersection_test_support_map_support_map(&pp, pa, pb),
        ];
        for (n, f) in c.iter_mut().zip(flags) {
            *n += usize::from(f);
        }
    }
    c
}

/// Polygon sizes of the compare binary's 2D sets.
const SIZES2: [usize; 6] = [4, 8, 12, 16, 20, 24];

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let seeds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(0);
    println!(
        "| vertices | pairs | ours: distance apart | boolean false | distance alone > 0 | parry: distance > 0 | boolean false |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, &n) in SIZES.iter().enumerate() {
        let set = make_set3(set_seed(2000, i, 1), n, Kind::Touching, &Plan::FULL);
        let c = apart(&set);
        println!("| {n} | {} | {} | {} | {} | {} | {} |", set.pairs.len(), c[0], c[1], c[2], c[3], c[4]);
    }
    for (i, &n) in SIZES2.iter().enumerate() {
        let set = make_set2(set_seed(1000, i, 1), n, Kind::Touching, &Plan::FULL);
        let c = apart2(&set);
        println!("| 2D {n} | {} | {} | {} | — | {} | {} |", set.pairs.len(), c[0], c[1], c[3], c[4]);
    }
    if seeds > 0 {
        let plan = Plan { pairs: 1000, big_pairs: 300, pool: 16, reps: 1, oracle_pairs: 0 };
        let (mut pairs, mut total) = (0, [0; 5]);
        for s in 0..seeds {
            for &n in &SIZES[..5] {
                let set = make_set3(7_000_000 + s * 10 + n as u64, n, Kind::Touching, &plan);
                pairs += set.pairs.len();
                for (t, c) in total.iter_mut().zip(apart(&set)) {
                    *t += c;
                }
            }
        }
        println!(
            "| 8 – 256, {seeds} more sets each | {pairs} | {} | {} | {} | {} | {} |",
            total[0], total[1], total[2], total[3], total[4]
        );
        let (mut pairs, mut total) = (0, [0; 5]);
        for s in 0..seeds {
            for &n in &SIZES2 {
                let set = make_set2(8_000_000 + s * 10 + n as u64, n, Kind::Touching, &plan);
                pairs += set.pairs.len();
                for (t, c) in total.iter_mut().zip(apart2(&set)) {
                    *t += c;
                }
            }
        }
        println!(
            "| 2D 4 – 24, {seeds} more sets each | {pairs} | {} | {} | — | {} | {} |",
            total[0], total[1], total[3], total[4]
        );
    }
}
