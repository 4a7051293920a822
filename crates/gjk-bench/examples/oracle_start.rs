//! How many support calls our 3D distance makes when its first search
//! direction is the answer's own normal (an oracle no query has), or that
//! normal tilted by a few degrees, against the usual start (the line
//! between the centres), on the compare binary's distant, touching and
//! shallow sets. It bounds what any better first direction could save.
//! `cargo run --release -p gjk-bench --example oracle_start`
use gjk_bench::*;
use gjk_core::GjkConfig;
use gjk_core::glam::{Quat, Vec3};
use gjk_core::internal::{distance_from, minkowski_support};
use gjk_shapes::{ConvexHull, CoreOf, Placed};
use gjk_testkit::Rng;

/// Tilts of the oracle normal, in degrees.
const TILTS: [f32; 6] = [0.0, 2.0, 5.0, 10.0, 20.0, 40.0];

fn main() {
    let plan = Plan::FULL;
    let cfg = GjkConfig::default();
    print!("| set | vertices | usual start |");
    for t in TILTS {
        print!(" normal {t}° |");
    }
    println!();
    println!("|---|---|---|{}", "---|".repeat(TILTS.len()));
    for (i, &n) in [8usize, 16, 32, 64, 256, 1024].iter().enumerate() {
        for (k, kind) in KINDS.iter().chain(&EXTRA_KINDS).enumerate() {
            if *kind == Kind::Overlap {
                // The balls settle these pairs before GJK starts.
                continue;
            }
            let set = make_set3(set_seed(2000, i, k), n, *kind, &plan);
            let usual = mean(&set, |a, b| gjk_core::distance(a, b).iterations);
            print!("| {} | {n} | {usual:.2} |", kind.name());
            for tilt in TILTS {
                // The same random tilt axes for every row.
                let mut rng = Rng::new(7);
                let tilted = mean(&set, |a, b| {
                    let normal = gjk_core::distance(a, b).normal;
                    let spin = Quat::from_axis_angle(normal, rng.range(0.0, std::f64::consts::TAU) as f32);
                    let axis = spin * normal.any_orthonormal_vector();
                    let d: Vec3 = Quat::from_axis_angle(axis, tilt.to_radians()) * normal;
                    distance_from(a, b, &cfg, (minkowski_support(a, b, d), d), &mut ()).iterations
                });
                print!(" {tilted:.2} |");
            }
            println!();
        }
    }
}

/// Mean of `f` (a support-call count) over the set's pairs, B placed in A's frame.
fn mean(
    set: &Set3,
    mut f: impl FnMut(&CoreOf<&ConvexHull<Vec3>>, &CoreOf<&Placed<&ConvexHull<Vec3>, Vec3>>) -> u32,
) -> f64 {
    let total: u64 = set
        .pairs
        .iter()
        .map(|(a, b, p)| {
            let pb = Placed::new(&set.ours[*b], p);
            u64::from(f(&CoreOf(&set.ours[*a]), &CoreOf(&pb)))
        })
        .sum();
    total as f64 / set.pairs.len() as f64
}
