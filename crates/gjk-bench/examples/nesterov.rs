//! Support calls of plain GJK against Nesterov-accelerated GJK (Montaut,
//! Le Lidec, Petrik, Sivic and Carpentier, "Collision Detection
//! Accelerated: An Optimization Perspective", RSS 2022) on the benchmark's
//! 3D sets, to see whether momentum would cut the iterations of the rows
//! where GJK runs (docs/decisions.md).
//! `cargo run --release -p gjk-bench --example nesterov`
//!
//! Both run in f64 on world-space vertices with brute-force supports (the
//! counts do not depend on how a support is found), with the library's f32
//! stopping rules: the relative gap `4 ε` and the zero band `256 ε · scale`.
//! The momentum variant follows the paper's Algorithm 2 with its two
//! safeguards: the duality-gap test along the momentum direction does not
//! prove convergence, so when it passes (or the convergence test does) the
//! search drops the momentum and goes on as plain GJK.
use gjk_bench::*;
use gjk_core::glam::DVec3;
use gjk_core::solver3d::solve;

/// Most support calls per run (a bound; no run here comes near it).
const MAX_CALLS: u32 = 200;

/// One pair's vertices in one frame.
struct Pair {
    a: Vec<DVec3>,
    b: Vec<DVec3>,
}

/// The point of `p` furthest along `d` (the first on ties).
fn furthest(p: &[DVec3], d: DVec3) -> DVec3 {
    p.iter()
        .copied()
        .fold((p[0], p[0].dot(d)), |best, q| if q.dot(d) > best.1 { (q, q.dot(d)) } else { best })
        .0
}

/// The support point of `A − B` furthest along `−d` (GJK's convention).
fn support(pair: &Pair, d: DVec3) -> DVec3 {
    furthest(&pair.a, -d) - furthest(&pair.b, d)
}

/// The search variants.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Plain GJK: each support along the current closest point.
    Plain,
    /// The paper's momentum on the search direction.
    Momentum,
    /// The same with normalised directions (the paper's variant for
    /// polytopes).
    Normalised,
}

/// Support calls until the search stops: converged (distance), within the
/// zero band, enclosing the origin, or (`boolean`) separated beyond it.
fn run(pair: &Pair, mode: Mode, boolean: bool, scale: f64) -> u32 {
    let rel = 4.0 * f32::EPSILON as f64;
    let band = 256.0 * f32::EPSILON as f64 * scale;
    let centre = |p: &[DVec3]| p.iter().copied().sum::<DVec3>() / p.len() as f64;
    let mut w = [DVec3::ZERO; 4];
    w[0] = support(pair, centre(&pair.a) - centre(&pair.b));
    let (mut n, mut calls) = (1, 1);
    let (mut x, mut last) = (w[0], w[0]);
    let mut dir = x;
    let mut momentum = mode != Mode::Plain;
    let mut k = 0.0;
    // Bounded by `MAX_CALLS`.
    while calls < MAX_CALLS {
        let len = x.length();
        // Exit: the closest point is within the zero band.
        if len <= band {
            break;
        }
        dir = if momentum {
            let m = (k + 1.0) / (k + 3.0);
            let y = x * m + last * (1.0 - m);
            if mode == Mode::Normalised {
                dir.normalize() * m + y.normalize() * (1.0 - m)
            } else {
                dir * m + y * (1.0 - m)
            }
        } else {
            x
        };
        k += 1.0;
        let p = support(pair, dir);
        calls += 1;
        // Exit: the direction separates beyond the band.
        if boolean && p.dot(dir) > band * dir.length() {
            break;
        }
        if len * len - x.dot(p) <= rel * len.max(scale) * len {
            if momentum {
                // Not a proof along a momentum direction: go on plainly.
                momentum = false;
                continue;
            }
            // Exit: converged.
            break;
        }
        w[n] = p;
        n += 1;
        let r = solve(&w, n);
        x = r.point(&w);
        let kept: Vec<DVec3> = (0..n).filter(|i| r.mask & (1 << i) != 0).map(|i| w[i]).collect();
        n = kept.len();
        w[..n].copy_from_slice(&kept);
        last = p;
        // Exit: a tetrahedron encloses the origin.
        if n == 4 {
            break;
        }
    }
    calls
}

fn main() {
    let plan = Plan::QUICK;
    println!(
        "| set | vertices | distance: plain | momentum | normalised | boolean: plain | momentum | normalised |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for kind in [Kind::Distant, Kind::Touching, Kind::Shallow] {
        for n in [8usize, 16, 32, 64, 256, 1024] {
            let set = make_set3(set_seed(7, n, 0), n, kind, &plan);
            let mut total = [[0u64; 3]; 2];
            for (a, b, pose) in &set.pairs {
                let pair = Pair {
                    a: set.local[*a].iter().map(|p| p.as_dvec3()).collect(),
                    b: set.local[*b].iter().map(|p| pose.transform_point(*p).as_dvec3()).collect(),
                };
                let scale =
                    pair.a.iter().chain(&pair.b).map(|p| p.abs().max_element()).fold(0.0, f64::max) * 2.0;
                for (i, boolean) in [false, true].into_iter().enumerate() {
                    for (j, mode) in [Mode::Plain, Mode::Momentum, Mode::Normalised].into_iter().enumerate() {
                        total[i][j] += run(&pair, mode, boolean, scale) as u64;
                    }
                }
            }
            let m = set.pairs.len() as f64;
            let f = |i: usize, j: usize| total[i][j] as f64 / m;
            println!(
                "| {} | {n} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
                kind.name(),
                f(0, 0),
                f(0, 1),
                f(0, 2),
                f(1, 0),
                f(1, 1),
                f(1, 2)
            );
        }
    }
}
