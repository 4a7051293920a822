//! Casts that start in contact against parry's `cast_shapes` with
//! `stop_at_penetration: false` (linear) and `cast_shapes_nonlinear` with
//! `stop_at_penetration = false` (its "directional" mode), on the same
//! random pairs in the same process, and both against the boxes' exact
//! signed distance (the fifteen axes where they overlap, the corners'
//! brute force where apart).
//!
//! Pairs: random boxes (f32, half extents 0.1 – 1), B placed on A
//! overlapping or touching (signed distance −0.1 … 0), both as general
//! hulls of their corners (ours `ConvexHull`, parry's `ConvexPolyhedron`).
//! B moves in a random straight line (speed up to 2 per unit of time), and
//! for the nonlinear casts both turn at up to `SPIN` radians per unit of
//! time about points near their centres; the casts run over `t ∈ [0, 1]`.
//!
//! The oracle, in f64 on the same (rounded) inputs: the signed distance
//! on a scan of 400 times (and 12 early ones, 10⁻⁶ · 2ᵏ). A cast *should stop* where the signed distance
//! gets deeper than the start by more than 10⁻³ of the smaller box's
//! reach somewhere in the motion (ten of our tolerances; in f32 our hit
//! may be as deep as the contact query's zero band, ~2 · 10⁻⁴ here), at
//! the first such time `t₁`; it *should go* where it never gets deeper
//! than the start by 10⁻⁶. Counted per library: *blocked*, a hit where
//! the motion should go and the pair is not deeper at the hit's time (a
//! free motion refused); *passed*, no hit, or a
//! hit more than a scan step after `t₁`, where it should stop (the shapes
//! sink deeper than that unreported). Cases in between are not judged. Then ns per cast, medians of 7 interleaved
//! passes.
//! `cargo run --release -p gjk-bench -- directional-casts [PAIRS] [SPIN]`
//! (default 2 000 pairs, spin 2).
use gjk_bench::{median, parry_motion, per_item};
use gjk_core::glam::{DMat3, DQuat, DVec3, Vec3};
use gjk_core::{CastOptions, CastStatus};
use gjk_epa::{cast_shape_directional, cast_shape_nonlinear_directional};
use gjk_shapes::{ConvexHull, Motion, Pose};
use gjk_testkit::{Rng, box_box_sat, box_corners, brute_distance_3d};
use std::hint::black_box;

/// One pair: half extents, and each box's motion (A's linear part is 0
/// for the linear casts).
struct Pair {
    half: [Vec3; 2],
    motions: [Motion<Vec3>; 2],
}

/// The oracle's box at time `t` (its own turn about the moving centre,
/// in f64): rotation and centre.
fn placed(m: &Motion<Vec3>, t: f64, turning: bool) -> (DMat3, DVec3) {
    let q = m.start.rotation.as_dquat();
    let lc = m.local_center.as_dvec3();
    let w = if turning { m.angular.as_dvec3() } else { DVec3::ZERO };
    let turned = DQuat::from_scaled_axis(w * t) * q;
    let centre = q * lc + m.start.translation.as_dvec3() + m.linear.as_dvec3() * t;
    (DMat3::from_quat(turned), centre - turned * lc)
}

/// The exact signed distance of the pair at time `t`.
fn signed(pair: &Pair, t: f64, turning: bool) -> f64 {
    let [ha, hb] = pair.half.map(|h| h.as_dvec3());
    let ((ra, ca), (rb, cb)) = (placed(&pair.motions[0], t, turning), placed(&pair.motions[1], t, turning));
    let (overlap, _) = box_box_sat(ha, ra, ca, hb, rb, cb);
    if overlap < 0.0 {
        brute_distance_3d(&box_corners(ha, ra, ca), &box_corners(hb, rb, cb))
    } else {
        -overlap
    }
}

fn pairs(n: usize, spin: f64) -> Vec<Pair> {
    let mut rng = Rng::new(9203);
    let mut out = Vec::new();
    while out.len() < n {
        let half = [0, 1].map(|_| {
            Vec3::new(rng.range(0.1, 1.0) as f32, rng.range(0.1, 1.0) as f32, rng.range(0.1, 1.0) as f32)
        });
        let qa = rng.quat().as_quat();
        let qb = rng.quat().as_quat();
        let ca = (rng.unit3() * rng.range(0.0, 2.0)).as_vec3();
        let cb = ca + (rng.unit3() * rng.range(0.2, 1.5)).as_vec3();
        let turn = |rng: &mut Rng| (rng.unit3() * rng.range(0.0, spin)).as_vec3();
        let centre = |rng: &mut Rng| (rng.unit3() * rng.range(0.0, 0.3)).as_vec3();
        let a = Motion {
            start: Pose::new(qa, ca),
            local_center: centre(&mut rng),
            linear: Vec3::ZERO,
            angular: turn(&mut rng),
        };
        let b = Motion {
            start: Pose::new(qb, cb),
            local_center: centre(&mut rng),
            linear: (rng.unit3() * rng.range(0.0, 2.0)).as_vec3(),
            angular: turn(&mut rng),
        };
        let pair = Pair { half, motions: [a, b] };
        let d0 = signed(&pair, 0.0, false);
        if (-0.1..=0.0).contains(&d0) {
            out.push(pair);
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    judged: usize,
    blocked: usize,
    passed: usize,
}

fn corners(h: Vec3) -> Vec<Vec3> {
    box_corners(h.as_dvec3(), DMat3::IDENTITY, DVec3::ZERO).iter().map(|p| p.as_vec3()).collect()
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let spin: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let set = pairs(n, spin);
    let ours_shapes: Vec<[ConvexHull<Vec3>; 2]> =
        set.iter().map(|p| p.half.map(|h| ConvexHull::new(&corners(h)).expect("a box"))).collect();
    let peer_shapes: Vec<[parry3d::shape::ConvexPolyhedron; 2]> = set
        .iter()
        .map(|p| {
            p.half.map(|h| parry3d::shape::ConvexPolyhedron::from_convex_hull(&corners(h)).expect("a box"))
        })
        .collect();
    let opts = CastOptions::default();
    let peer_opts = parry3d::query::ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: 0.0,
        stop_at_penetration: false,
        compute_impact_geometry_on_penetration: true,
    };
    let pose = |m: &Motion<Vec3>| parry3d::math::Pose::from_parts(m.start.translation, m.start.rotation);
    // Linear: A still, B moving.
    let ours_linear = |i: usize| {
        let ([a, b], [ma, mb]) = (&ours_shapes[i], &set[i].motions);
        cast_shape_directional(a, &ma.start, Vec3::ZERO, b, &mb.start, mb.linear, &opts)
    };
    let peer_linear = |i: usize| {
        let ([a, b], [ma, mb]) = (&peer_shapes[i], &set[i].motions);
        parry3d::query::cast_shapes(&pose(ma), Vec3::ZERO, a, &pose(mb), mb.linear, b, peer_opts)
    };
    let ours_turning = |i: usize| {
        let ([a, b], [ma, mb]) = (&ours_shapes[i], &set[i].motions);
        cast_shape_nonlinear_directional(a, ma, b, mb, &opts)
    };
    let peer_turning = |i: usize| {
        let ([a, b], [ma, mb]) = (&peer_shapes[i], &set[i].motions);
        parry3d::query::cast_shapes_nonlinear(&parry_motion(ma), a, &parry_motion(mb), b, 0.0, 1.0, false)
    };
    println!("{n} box pairs starting in contact; nonlinear spin up to {spin} rad per unit of time");
    println!();
    println!(
        "| cast | library | judged | blocked (free motion refused) | passed (sank deeper unreported) | undecided | ns per cast |"
    );
    println!("|---|---|---|---|---|---|---|");
    for turning in [false, true] {
        let (mut t_ours, mut t_peer) = (Tally::default(), Tally::default());
        let mut undecided = [0usize; 2];
        for (i, pair) in set.iter().enumerate() {
            let d0 = signed(pair, 0.0, turning);
            let [ha, hb] = pair.half;
            let deep = 1e-3 * (ha.length().min(hb.length()) as f64);
            let steps = 400;
            let scan: Vec<f64> =
                (0..=steps).map(|k| signed(pair, k as f64 / steps as f64, turning)).collect();
            // Early times too: a contact the motion deepens at once can
            // come back before the scan's first step (under a straight
            // motion the signed distance is convex in time, so any dip
            // begins at 0).
            let early = (0..12).map(|k| signed(pair, 1e-6 * 2f64.powi(k), turning));
            let deepest = scan.iter().copied().chain(early).fold(f64::INFINITY, f64::min);
            let t1 = scan.iter().position(|&d| d < d0 - deep).map(|k| k as f64 / steps as f64);
            let should_go = deepest >= d0 - 1e-6;
            if t1.is_none() && !should_go {
                continue;
            }
            let h = if turning { ours_turning(i) } else { ours_linear(i) };
            let mine = match h.map(|h| (h.status, h.fraction)) {
                Some((CastStatus::Hit | CastStatus::StartsInside, t)) => Some(Some(t as f64)),
                None => Some(None),
                _ => None,
            };
            let theirs = match if turning { peer_turning(i) } else { peer_linear(i) } {
                Ok(Some(hit)) if hit.status == parry3d::query::ShapeCastStatus::Failed => None,
                Ok(Some(hit)) => Some(Some(hit.time_of_impact as f64)),
                Ok(None) => Some(None),
                Err(_) => None,
            };
            for (k, (answer, tally)) in [(mine, &mut t_ours), (theirs, &mut t_peer)].into_iter().enumerate() {
                let Some(answer) = answer else {
                    undecided[k] += 1;
                    continue;
                };
                tally.judged += 1;
                match (answer, t1) {
                    // A hit where the scan saw nothing deeper is a refusal
                    // unless the pair is deeper there (a dip between the
                    // scan's times).
                    (Some(t), None) if signed(pair, t, turning) >= d0 - 1e-6 => tally.blocked += 1,
                    (None, Some(_)) => tally.passed += 1,
                    // A hit up to one scan step past t₁ is on time.
                    (Some(t), Some(t1)) if t > t1 + 1.0 / steps as f64 => tally.passed += 1,
                    _ => {}
                }
            }
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let ours = |i: usize| {
            let h = if turning { ours_turning(i) } else { ours_linear(i) };
            h.map_or(1.0, |h| h.fraction)
        };
        let peer = |i: usize| {
            let r = if turning { peer_turning(i) } else { peer_linear(i) };
            r.ok().flatten().map(|h| h.time_of_impact)
        };
        per_item(n, |i| {
            black_box(ours(i));
        });
        per_item(n, |i| {
            black_box(peer(i));
        });
        for _ in 0..7 {
            a.push(per_item(n, |i| {
                black_box(ours(i));
            }));
            b.push(per_item(n, |i| {
                black_box(peer(i));
            }));
        }
        let kind = if turning { "nonlinear" } else { "linear" };
        for (name, t, u, ns) in
            [("ours", &t_ours, undecided[0], median(a)), ("parry3d 0.27", &t_peer, undecided[1], median(b))]
        {
            println!("| {kind} | {name} | {} | {} | {} | {u} | {ns:.0} |", t.judged, t.blocked, t.passed);
        }
    }
}
