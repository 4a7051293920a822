//! Where the time of a posed distance query goes (3D distant set): the
//! posed query, the core query on the same shapes, the core query on raw
//! world-space slices, the boolean test, and parry, each timed alone.
//! `cargo run --release -p gjk-bench --example split -- N`
use gjk_bench::*;
use gjk_core::glam::Vec3;
use gjk_shapes::{CoreOf, Pose, Transformed};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let plan = Plan::QUICK;
    let set = make_set3(2000, n, Kind::Distant, &plan);
    let id = Pose::IDENTITY;
    let world_b: Vec<Vec<Vec3>> = set
        .pairs
        .iter()
        .map(|(_, b, p)| set.local[*b].iter().map(|v| p.transform_point(*v)).collect())
        .collect();
    let reps = 2000;
    let time = |label: &str, f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        println!("{label:40} {:8.1} ns", t.elapsed().as_nanos() as f64 / (reps * set.pairs.len()) as f64);
    };
    time("posed gjk_shapes::distance", &mut || {
        for (a, b, p) in &set.pairs {
            black_box(gjk_shapes::distance(&set.ours[*a], &id, &set.ours[*b], p).distance);
        }
    });
    time("core distance on hull + Transformed", &mut || {
        for (a, b, p) in &set.pairs {
            let tb = Transformed { shape: &set.ours[*b], pose: *p, scale: Vec3::ONE };
            black_box(gjk_core::distance(&CoreOf(&set.ours[*a]), &CoreOf(&tb)).distance);
        }
    });
    time("core distance on raw world slices", &mut || {
        for (k, (a, _, _)) in set.pairs.iter().enumerate() {
            black_box(gjk_core::distance(set.local[*a].as_slice(), world_b[k].as_slice()).distance);
        }
    });
    time("core intersects on raw world slices", &mut || {
        for (k, (a, _, _)) in set.pairs.iter().enumerate() {
            black_box(gjk_core::intersects(set.local[*a].as_slice(), world_b[k].as_slice()));
        }
    });
    let ppose: Vec<parry3d::math::Pose> =
        set.pairs.iter().map(|p| parry3d::math::Pose::from_parts(p.2.translation, p.2.rotation)).collect();
    time("parry distance", &mut || {
        for (k, (a, b, _)) in set.pairs.iter().enumerate() {
            black_box(parry3d::query::details::distance_support_map_support_map(
                &ppose[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        }
    });
}
