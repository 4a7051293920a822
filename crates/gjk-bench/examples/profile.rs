//! Profiling target: one query kind on one 3D set, in a loop, for `perf`
//! or callgrind (instruction counts are noise-free on a shared machine).
//! `cargo run --release -p gjk-bench --example profile -- N SET QUERY REPS [DIM]`
//! with SET `distant|touching|overlap|shallow` and QUERY `distance|intersects|contact`
//! (ours; `distance` is the distance alone, as parry's, `distance-full` the
//! full result), `warm` (our full distance with a cache on a pair moving by
//! a small rigid step per query) or
//! `parry-distance|parry-intersects|parry-contact`.
use gjk_bench::*;
use gjk_shapes::Pose;
use std::hint::black_box;

/// The query names, in the order the loops match their indices.
const QUERIES: [&str; 11] = [
    "distance",
    "intersects",
    "contact",
    "warm",
    "parry-distance",
    "parry-intersects",
    "parry-contact",
    "distance-loose",
    "distance-full",
    "slices64",
    "hull64",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let n: usize = arg(1, "8").parse().unwrap_or(8);
    let kind = match arg(2, "distant").as_str() {
        "touching" => Kind::Touching,
        "overlap" => Kind::Overlap,
        "shallow" => Kind::Shallow,
        "near" => Kind::Near,
        _ => Kind::Distant,
    };
    // Decoded once: string matching in the loop would be counted too.
    let query = QUERIES.iter().position(|q| *q == arg(3, "distance")).unwrap_or(0);
    let reps: usize = arg(4, "2000").parse().unwrap_or(2000);
    // A sixth argument `full` uses the full plan's pool (64 shapes: large
    // hulls no longer fit in cache) and prints the time per query.
    let plan = if arg(6, "") == "full" { Plan::FULL } else { Plan::QUICK };
    if arg(5, "3") == "2" {
        return run2(n, kind, query, reps, &plan);
    }
    if arg(5, "3") == "box" {
        return run_boxes(query, reps, &plan, arg(6, "") == "full");
    }
    let set = make_set3(seed(2000), n, kind, &plan);
    let ppose: Vec<parry3d::math::Pose> =
        set.pairs.iter().map(|p| parry3d::math::Pose::from_parts(p.2.translation, p.2.rotation)).collect();
    let id = Pose::IDENTITY;
    let loose = gjk_core::GjkConfig { rel_tolerance: (10.0 * f32::EPSILON).sqrt(), ..Default::default() };
    let cfg = gjk_core::GjkConfig::default();
    let mut caches = vec![gjk_core::SimplexCache::new(); set.pairs.len()];
    let step =
        Pose::new(gjk_core::glam::Quat::from_rotation_y(1e-3), gjk_core::glam::Vec3::new(1e-3, 0.0, 0.0));
    let mut moving: Vec<Pose<gjk_core::glam::Vec3>> = set.pairs.iter().map(|p| p.2).collect();
    // The f64 forms: world-space slices per pair, and hulls with f64 poses.
    use gjk_core::glam::DVec3;
    let slices: Vec<(Vec<DVec3>, Vec<DVec3>)> = set
        .pairs
        .iter()
        .map(|(a, b, p)| {
            let wa = set.local[*a].iter().map(|q| q.as_dvec3()).collect();
            let wb = set.local[*b].iter().map(|q| p.transform_point(*q).as_dvec3()).collect();
            (wa, wb)
        })
        .collect();
    let hulls64: Vec<gjk_shapes::ConvexHull<DVec3>> = set
        .local
        .iter()
        .map(|l| {
            gjk_shapes::ConvexHull::new(&l.iter().map(|q| q.as_dvec3()).collect::<Vec<_>>()).expect("valid")
        })
        .collect();
    let poses64: Vec<Pose<DVec3>> = set
        .pairs
        .iter()
        .map(|(_, _, p)| Pose { rotation: p.rotation.as_dquat(), translation: p.translation.as_dvec3() })
        .collect();
    let id64 = Pose::<DVec3>::IDENTITY;
    let t0 = std::time::Instant::now();
    for _ in 0..reps {
        for (k, (a, b, p)) in set.pairs.iter().enumerate() {
            let (sa, sb) = (&set.ours[*a], &set.ours[*b]);
            let (pa, pb) = (&set.peer[*a], &set.peer[*b]);
            use parry3d::query::details as pq;
            match query {
                1 => _ = black_box(gjk_shapes::intersects(sa, &id, sb, p)),
                3 => {
                    moving[k] = step.mul(&moving[k]);
                    let r = gjk_shapes::distance_with(sa, &id, sb, &moving[k], &cfg, Some(&mut caches[k]));
                    _ = black_box(r.distance)
                }
                2 => _ = black_box(gjk_epa::contact_within(sa, &id, sb, p, 0.0).map(|c| c.depth)),
                4 => _ = black_box(pq::distance_support_map_support_map(&ppose[k], pa, pb)),
                5 => _ = black_box(pq::intersection_test_support_map_support_map(&ppose[k], pa, pb)),
                6 => _ = black_box(pq::contact_support_map_support_map(&ppose[k], pa, pb, 0.0)),
                7 => _ = black_box(gjk_shapes::distance_with(sa, &id, sb, p, &loose, None).distance),
                8 => _ = black_box(gjk_shapes::distance(sa, &id, sb, p).distance),
                9 => _ = black_box(gjk_core::distance(slices[k].0.as_slice(), slices[k].1.as_slice())),
                10 => _ = black_box(gjk_shapes::distance(&hulls64[*a], &id64, &hulls64[*b], &poses64[k])),
                _ => _ = black_box(gjk_shapes::distance_value(sa, &id, sb, p)),
            }
        }
    }
    if arg(6, "") == "full" {
        let per = t0.elapsed().as_nanos() as f64 / (reps * set.pairs.len()).max(1) as f64;
        println!("{per:.1} ns/query");
    }
}

/// The box–box set (DIM `box`; N and SET are ignored): distance,
/// intersects, contact and parry's three.
fn run_boxes(query: usize, reps: usize, plan: &Plan, timed: bool) {
    let set = make_boxes(&mut gjk_testkit::Rng::new(MIXED_SEED), plan);
    let (m, id) = (set.ours.len(), Pose::IDENTITY);
    let t0 = std::time::Instant::now();
    for _ in 0..reps {
        for k in 0..m {
            let (a, b, p) = (&set.ours[k], &set.ours[(k + 1) % m], &set.poses[k]);
            let (pa, pb, pp) = (&set.peer[k], &set.peer[(k + 1) % m], &set.pp[k]);
            use parry3d::query::details as pq;
            match query {
                1 => _ = black_box(gjk_shapes::intersects(a, &id, b, p)),
                2 => _ = black_box(gjk_epa::contact_within(a, &id, b, p, 0.0).map(|c| c.depth)),
                4 => _ = black_box(pq::distance_support_map_support_map(pp, pa, pb)),
                5 => _ = black_box(pq::intersection_test_support_map_support_map(pp, pa, pb)),
                6 => _ = black_box(pq::contact_support_map_support_map(pp, pa, pb, 0.0)),
                8 => _ = black_box(gjk_shapes::distance(a, &id, b, p).distance),
                _ => _ = black_box(gjk_shapes::distance_value(a, &id, b, p)),
            }
        }
    }
    if timed {
        let per = t0.elapsed().as_nanos() as f64 / (reps * m).max(1) as f64;
        println!("{per:.1} ns/query");
    }
}

/// The 2D sets (polygons): the same queries.
/// The data seed: `SEED` from the environment (the compare binary's seed
/// of a set, to time exactly its pairs), else `default`.
fn seed(default: u64) -> u64 {
    std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// One 2D warm query (B moved by a small rigid step first), out of line so
/// that its code leaves the inlining of `run2`'s other arms alone.
#[inline(never)]
fn warm2(
    a: &gjk_shapes::ConvexPolygon<gjk_core::glam::Vec2>,
    b: &gjk_shapes::ConvexPolygon<gjk_core::glam::Vec2>,
    pose: &mut Pose<gjk_core::glam::Vec2>,
    step: &Pose<gjk_core::glam::Vec2>,
    cfg: &gjk_core::GjkConfig<f32>,
    cache: &mut gjk_core::SimplexCache<gjk_core::glam::Vec2>,
) -> f32 {
    *pose = step.mul(pose);
    gjk_shapes::distance_with(a, &Pose::IDENTITY, b, pose, cfg, Some(cache)).distance
}

fn run2(n: usize, kind: Kind, query: usize, reps: usize, plan: &Plan) {
    let set = make_set2(seed(1000), n, kind, plan);
    let ppose: Vec<parry2d::math::Pose> = set
        .pairs
        .iter()
        .map(|p| {
            parry2d::math::Pose::from_parts(p.2.translation, parry2d::math::Rot2::new(p.2.rotation.angle()))
        })
        .collect();
    let id = Pose::IDENTITY;
    let loose = gjk_core::GjkConfig { rel_tolerance: (10.0 * f32::EPSILON).sqrt(), ..Default::default() };
    let cfg = gjk_core::GjkConfig::default();
    let mut caches = vec![gjk_core::SimplexCache::new(); set.pairs.len()];
    let step = Pose::new(gjk_shapes::Rot2::from_angle(1e-3), gjk_core::glam::Vec2::new(1e-3, 0.0));
    let mut moving: Vec<Pose<gjk_core::glam::Vec2>> = set.pairs.iter().map(|p| p.2).collect();
    let t0 = std::time::Instant::now();
    for _ in 0..reps {
        for (k, (a, b, p)) in set.pairs.iter().enumerate() {
            let (sa, sb) = (&set.ours[*a], &set.ours[*b]);
            let (pa, pb) = (&set.peer[*a], &set.peer[*b]);
            use parry2d::query::details as pq;
            match query {
                1 => _ = black_box(gjk_shapes::intersects(sa, &id, sb, p)),
                3 => _ = black_box(warm2(sa, sb, &mut moving[k], &step, &cfg, &mut caches[k])),
                2 => _ = black_box(gjk_epa::contact_within(sa, &id, sb, p, 0.0).map(|c| c.depth)),
                4 => _ = black_box(pq::distance_support_map_support_map(&ppose[k], pa, pb)),
                5 => _ = black_box(pq::intersection_test_support_map_support_map(&ppose[k], pa, pb)),
                6 => _ = black_box(pq::contact_support_map_support_map(&ppose[k], pa, pb, 0.0)),
                7 => _ = black_box(gjk_shapes::distance_with(sa, &id, sb, p, &loose, None).distance),
                8 => _ = black_box(gjk_shapes::distance(sa, &id, sb, p).distance),
                _ => _ = black_box(gjk_shapes::distance_value(sa, &id, sb, p)),
            }
        }
    }
    if plan.pool > Plan::QUICK.pool {
        let per = t0.elapsed().as_nanos() as f64 / (reps * set.pairs.len()).max(1) as f64;
        println!("{per:.1} ns/query");
    }
}
