//! Contact manifolds, ours against parry's, on the manifold oracle's sets
//! (`gjk_bench::manifolds`, 3D, f32): time per pair, medians of
//! interleaved passes over the same pairs in the same process.
//!
//! - Ours: `gjk_epa::contact_within` (the prediction as its distance:
//!   `None` once the pair is proven further apart) and, where it answers,
//!   `polytope_manifold_with` with the same speculative distance and one
//!   `ManifoldWorkspace` kept across the pairs (as a physics step keeps
//!   one).
//! - parry3d 0.27: `DefaultQueryDispatcher::contact_manifolds`, which
//!   picks parry's own path per pair (box–box by separating axes, ball and
//!   capsule pairs in closed form, the rest by GJK/EPA on polygonal
//!   feature maps), with the manifolds cleared before each call (cold:
//!   no pose cache). *parry warm* keeps each pair's manifolds from the
//!   previous pass: the pose has not changed, so parry only refreshes its
//!   cached points (`try_update_contacts`), which ours has no counterpart
//!   of; shown for scale, not compared.
//!
//! A box is parry's `Cuboid`, a rounded box its `RoundCuboid`, a scaled
//! cube the `ConvexPolyhedron` of its corners (parry has no scaled shape).
//!
//! `cargo run --release -p gjk-bench --example manifold_speed -- [PAIRS] [PASSES] [SET]`
//! (defaults 1 000 and 7, every set).
use std::hint::black_box;
use std::time::Instant;

use gjk_bench::manifolds::{FacedShape, KINDS, ManifoldPair, Solid, manifold_pair};
use gjk_bench::median;
use gjk_core::glam::{DMat3, DQuat, Vec3};
use gjk_epa::{ManifoldWorkspace, PolyhedronFaces, contact_within, polytope_manifold_with};
use gjk_shapes::{Pose, Shape};
use gjk_testkit::{Revolved, Rng, box_corners};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::{
    Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, RoundShape, Shape as ParryShape,
};

/// parry's shape for a solid (f32).
fn parry_shape(s: &Solid) -> Box<dyn ParryShape> {
    let hull = |p: &[gjk_core::glam::DVec3]| {
        let pts: Vec<Vec3> = p.iter().map(|x| x.as_vec3()).collect();
        Box::new(ConvexPolyhedron::from_convex_hull(&pts).expect("a hull")) as Box<dyn ParryShape>
    };
    match s {
        Solid::Box(h) => Box::new(Cuboid::new(h.as_vec3())),
        Solid::Hull(p) => hull(p),
        Solid::Scaled(sc, q) => {
            hull(&box_corners(*sc * 0.5, DMat3::from_quat(*q), gjk_core::glam::DVec3::ZERO))
        }
        Solid::Capsule(h, r) => Box::new(Capsule::new_y(*h as f32, *r as f32)),
        Solid::Ball(r) => Box::new(Ball::new(*r as f32)),
        Solid::RoundedBox(h, r) => {
            Box::new(RoundShape { inner_shape: Cuboid::new(h.as_vec3()), border_radius: *r as f32 })
        }
        Solid::Revolved(Revolved::Cylinder, h, r) => Box::new(Cylinder::new(*h as f32, *r as f32)),
        Solid::Revolved(Revolved::Cone, h, r) => Box::new(Cone::new(*h as f32, *r as f32)),
    }
}

fn pose32(p: &Pose<gjk_core::glam::DVec3>) -> Pose<Vec3> {
    Pose::new(DQuat::as_quat(p.rotation), p.translation.as_vec3())
}

/// Our contact and manifold of one pair: its number of points.
#[inline(never)]
fn ours_manifold(
    ws: &mut ManifoldWorkspace<Vec3>,
    a: &dyn FacedShape<Vec3>,
    b: &dyn FacedShape<Vec3>,
    (pa, pb): &(Pose<Vec3>, Pose<Vec3>),
    spec: f32,
) -> usize {
    let (sa, sb) = (a as &dyn Shape<Vec3>, b as &dyn Shape<Vec3>);
    match contact_within(sa, pa, sb, pb, spec) {
        Some(c) => polytope_manifold_with(
            ws,
            a as &dyn PolyhedronFaces<Vec3>,
            pa,
            b as &dyn PolyhedronFaces<Vec3>,
            pb,
            &c,
            spec,
        )
        .len(),
        None => 0,
    }
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (pairs, passes) = (args.first().copied().unwrap_or(1_000), args.get(1).copied().unwrap_or(7));
    println!(
        "| set | pairs | ours ns | parry ns (cold) | ratio parry/ours | parry ns (warm, not compared) | points ours | points parry |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    // A third argument picks one set (for profiling).
    let only = args.get(2).copied();
    for (k, name) in KINDS.iter().enumerate().filter(|(k, _)| only.is_none_or(|o| o == *k)) {
        let mut rng = Rng::new(7_000 + k as u64);
        let set: Vec<ManifoldPair> = std::iter::from_fn(|| Some(manifold_pair(&mut rng, k)))
            .flatten()
            .take(pairs)
            .map(|p| p.rounded())
            .collect();
        let ours: Vec<_> = set.iter().map(|p| (p.a.shape::<Vec3>(), p.b.shape::<Vec3>())).collect();
        let theirs: Vec<_> = set.iter().map(|p| (parry_shape(&p.a), parry_shape(&p.b))).collect();
        let poses: Vec<(Pose<Vec3>, Pose<Vec3>)> =
            set.iter().map(|p| (pose32(&p.pose_a), pose32(&p.pose_b))).collect();
        let pos12: Vec<parry3d::math::Pose> = poses
            .iter()
            .map(|(a, b)| {
                let rel = a.inv_mul(b);
                parry3d::math::Pose::from_parts(rel.translation, rel.rotation)
            })
            .collect();
        let spec: Vec<f32> = set.iter().map(|p| p.speculative as f32).collect();
        let mut ws = ManifoldWorkspace::new();
        let mut run_ours =
            |i: usize| ours_manifold(&mut ws, ours[i].0.as_ref(), ours[i].1.as_ref(), &poses[i], spec[i]);
        let mut scratch: Vec<ContactManifold<(), ()>> = Vec::new();
        let mut run_parry = |i: usize, kept: Option<&mut Vec<ContactManifold<(), ()>>>| {
            let manifolds = match kept {
                Some(m) => m,
                None => {
                    scratch.clear();
                    &mut scratch
                }
            };
            let mut ws = None;
            DefaultQueryDispatcher
                .contact_manifolds(
                    &pos12[i],
                    theirs[i].0.as_ref(),
                    theirs[i].1.as_ref(),
                    spec[i],
                    manifolds,
                    &mut ws,
                )
                .expect("supported");
            manifolds.iter().map(|m| m.points.len()).sum::<usize>()
        };
        let mut warm: Vec<Vec<ContactManifold<(), ()>>> = vec![Vec::new(); set.len()];
        let (points_ours, points_parry): (usize, usize) =
            ((0..set.len()).map(&mut run_ours).sum(), (0..set.len()).map(|i| run_parry(i, None)).sum());
        let (mut t_ours, mut t_parry, mut t_warm) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..passes {
            let t = Instant::now();
            for i in 0..set.len() {
                black_box(run_ours(black_box(i)));
            }
            t_ours.push(t.elapsed().as_nanos() as f64 / set.len() as f64);
            let t = Instant::now();
            for i in 0..set.len() {
                black_box(run_parry(black_box(i), None));
            }
            t_parry.push(t.elapsed().as_nanos() as f64 / set.len() as f64);
            let t = Instant::now();
            for (i, m) in warm.iter_mut().enumerate() {
                black_box(run_parry(black_box(i), Some(m)));
            }
            t_warm.push(t.elapsed().as_nanos() as f64 / set.len() as f64);
        }
        let (o, p, w) = (median(t_ours), median(t_parry), median(t_warm));
        ratios.push(p / o);
        let n = set.len() as f64;
        println!(
            "| {name} | {} | {o:.0} | {p:.0} | {:.2} | {w:.0} | {:.2} | {:.2} |",
            set.len(),
            p / o,
            points_ours as f64 / n,
            points_parry as f64 / n
        );
    }
    let geo = ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64;
    println!("\ngeometric mean of the ratios: {:.2}", geo.exp());
}
