//! Contact manifolds of polytope pairs in shallow contact, checked by a
//! brute-force oracle (`gjk_bench::manifolds`; docs/reliability.md,
//! *Contact manifolds*): random boxes, boxes resting on a floor, random
//! hulls, boxes under a non-uniform scale, capsules lying on boxes and
//! random mixes of boxes, capsules, balls, rounded boxes and hulls,
//! cylinders and cones on boxes and in random pairs, capsules and
//! cylinders lying along each other (`polytope_manifold`), and the same in 2D with rectangles and polygons
//! (`polygon_manifold`), in `f64` and `f32`, at scales 1e-6, 1 and 1e6. `SHOW=1` prints each row's first wrong pair.
//!
//! `cargo run --release -p gjk-bench -- manifolds [PAIRS]`
//! (default 2 000 pairs per set).
use gjk_bench::manifolds::{CHECKS, KINDS, KINDS_2D, manifold_tally, reduction_ratio};

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let pairs: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2000);
    println!(
        "| set | precision | scale | pairs | face contacts | multi-point | single point (of which a curved contact's own) | empty | wrong: {} | worst normal / slack | worst point / tolerance | points outside (worst / depth) | contact normal's miss / tolerance |",
        CHECKS.join(", ")
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let sets = KINDS
        .iter()
        .enumerate()
        .map(|(k, n)| (3, k, *n))
        .chain(KINDS_2D.iter().enumerate().map(|(k, n)| (2, k, *n)));
    for (dim, kind, name) in sets {
        for f32_ in [false, true] {
            for k in [1e-6, 1.0, 1e6] {
                let seed = if dim == 3 { 4200 } else { 4220 } + kind as u64;
                let t = manifold_tally(dim, kind, f32_, k, pairs, seed);
                let wrong: Vec<String> = t.wrong.iter().map(|w| w.to_string()).collect();
                let prec = if f32_ { "f32" } else { "f64" };
                println!(
                    "| {name} ({dim}D) | {prec} | {k:e} | {} | {} | {} | {} ({}) | {} | {} | {:.3} | {:.3} | {} ({:.2}) | {:.3} |",
                    t.pairs,
                    t.face,
                    t.multi,
                    t.single,
                    t.inherited,
                    t.empty,
                    wrong.join(", "),
                    t.normal_excess,
                    t.point_excess,
                    t.outside,
                    t.outside_ratio,
                    t.contact_excess
                );
                if let (Some(first), Some(_)) = (&t.first_wrong, std::env::var_os("SHOW")) {
                    eprintln!("{name}, {prec}, {k:e}: {first:?}");
                }
            }
        }
    }
    // The reduction to four points: boxes resting flat on boxes, turned.
    let mut rng = gjk_testkit::Rng::new(9);
    let ratios: Vec<f64> = (0..20_000).filter_map(|_| reduction_ratio(&mut rng)).collect();
    let worst = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let low = ratios.iter().filter(|&&r| r < 0.9).count();
    println!(
        "\nreduction to four points, {} contact regions of more than four corners: area kept of the best four, mean {mean:.4}, worst {worst:.4}, under 0.9 in {low}",
        ratios.len()
    );
}
