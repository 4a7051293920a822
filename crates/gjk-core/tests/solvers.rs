//! The sub-distance solvers (2D barycode, 3D signed volumes) against the
//! seed's divide-and-conquer least-squares solver and the Voronoi-region
//! point–triangle oracle, on random and degenerate simplices.

use gjk_core::glam::{DVec2, DVec3};
use gjk_core::internal::Reduced;
use gjk_core::{solver2d, solver3d};
use gjk_testkit::*;

/// Distance from the origin to a simplex by the seed's least squares.
fn reference(points: &[Vec<f64>]) -> f64 {
    let zeros: Vec<Vec<f64>> = points.iter().map(|p| vec![0.0; p.len()]).collect();
    let (pa, pb) = closest_simplex_points(points, &zeros);
    pa.iter().zip(&pb).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

fn check_weights(r: &Reduced<f64>, n: usize) {
    let s: f64 = r.lambda.iter().sum();
    assert!((s - 1.0).abs() < 1e-9, "{r:?}");
    for i in 0..4 {
        if r.mask & (1 << i) != 0 {
            assert!(i < n && r.lambda[i] >= -1e-12, "{r:?}");
        } else {
            assert_eq!(r.lambda[i], 0.0);
        }
    }
}

#[test]
fn solver2d_matches_least_squares() {
    let mut rng = Rng::new(40);
    for i in 0..20_000 {
        let n = rng.usize(1, 3);
        let centre = rng.unit2() * rng.range(0.0, 2.0);
        let mut w = [DVec2::ZERO; 4];
        for p in w.iter_mut().take(n) {
            *p = centre + rng.unit2() * rng.range(0.0, 2.0);
        }
        // Sometimes make it degenerate: a repeated or collinear point.
        if n == 3 && i % 5 == 0 {
            w[2] = if i % 10 == 0 { w[0] } else { w[0].lerp(w[1], rng.range(-1.0, 2.0)) };
        }
        let r = solver2d::solve(&w, n);
        check_weights(&r, n);
        let got = r.point(&w).length();
        let pts: Vec<Vec<f64>> = w[..n].iter().map(|p| vec![p.x, p.y]).collect();
        let want = reference(&pts);
        assert!((got - want).abs() < 1e-9, "{i}: {w:?} n={n}: {got} vs {want}");
    }
}

#[test]
fn solver3d_matches_least_squares_and_voronoi_oracle() {
    let mut rng = Rng::new(41);
    for i in 0..20_000 {
        let n = rng.usize(1, 4);
        let centre = rng.unit3() * rng.range(0.0, 2.0);
        let mut w = [DVec3::ZERO; 4];
        for p in w.iter_mut().take(n) {
            *p = centre + rng.unit3() * rng.range(0.0, 2.0);
        }
        if n >= 3 && i % 5 == 0 {
            // Degenerate: coplanar tetrahedron, collinear or repeated points.
            let k = n - 1;
            w[k] = match i % 15 {
                0 => w[0],
                5 => w[0].lerp(w[1], rng.range(-1.0, 2.0)),
                _ => w[0] + (w[1] - w[0]) * rng.range(-1.0, 1.0) + (w[2] - w[0]) * rng.range(-1.0, 1.0),
            };
        }
        let r = solver3d::solve(&w, n);
        check_weights(&r, n);
        let got = r.point(&w).length();
        let pts: Vec<Vec<f64>> = w[..n].iter().map(|p| vec![p.x, p.y, p.z]).collect();
        let want = reference(&pts);
        assert!((got - want).abs() < 1e-9, "{i}: n={n} {w:?}: {got} vs {want}");
        if n == 3 {
            let oracle = point_triangle(DVec3::ZERO, w[0], w[1], w[2]).length();
            assert!((got - oracle).abs() < 1e-9, "{i}: voronoi {oracle}");
        }
    }
}

/// `solve_newest`, the solver GJK's steps call, in the configurations GJK
/// makes: the old points are a reduced simplex (the closest point inside,
/// every weight positive) and the new point lies beyond it along `−v`
/// (`v·w < v·v`). Its answer must be the whole simplex's closest point,
/// though it solves only the faces and edges holding the new point and
/// stops at the first face (or edge) the origin projects into from
/// outside. 3D tetrahedra with one, two and three faces toward the origin
/// all occur here.
#[test]
fn solver3d_newest_matches_least_squares_on_gjk_steps() {
    let mut rng = Rng::new(42);
    let (mut checked, mut tetrahedra, mut two_faces) = (0, 0, 0);
    for i in 0..80_000 {
        // Tetrahedra (n = 4) weighted up: few random triangles are reduced.
        let n = [2, 3, 4, 4, 4][rng.usize(0, 4)];
        let centre = rng.unit3() * rng.range(0.0, 2.0);
        let mut w = [DVec3::ZERO; 4];
        for p in w.iter_mut().take(n - 1) {
            *p = centre + rng.unit3() * rng.range(0.0, 2.0);
        }
        let old = solver3d::solve(&w, n - 1);
        let v = old.point(&w);
        if old.mask != (1u8 << (n - 1)) - 1 || v.length_squared() < 1e-12 {
            continue; // not a reduced simplex: GJK never holds one
        }
        // A new point past the old simplex along −v, anywhere sideways.
        let along = v.length() * rng.range(-1.5, 0.95);
        w[n - 1] = v.normalize() * along + rng.unit3() * rng.range(0.0, 3.0) * (i % 3) as f64;
        if v.dot(w[n - 1]) >= v.length_squared() * 0.999 {
            continue;
        }
        let r = solver3d::solve_newest(&w, n);
        check_weights(&r, n);
        let got = r.point(&w).length();
        let pts: Vec<Vec<f64>> = w[..n].iter().map(|p| vec![p.x, p.y, p.z]).collect();
        let want = reference(&pts);
        assert!((got - want).abs() < 1e-9, "{i}: n={n} {w:?}: {got} vs {want}");
        checked += 1;
        if n == 4 {
            tetrahedra += 1;
            // Faces holding the new point with the origin outside them: the
            // origin put in place of the opposite vertex flips the volume.
            let vol = |p: [DVec3; 4]| (p[1] - p[0]).cross(p[2] - p[0]).dot(p[3] - p[0]);
            let whole = vol(w);
            let facing = (0..3)
                .filter(|&f| {
                    let mut p = w;
                    p[f] = DVec3::ZERO;
                    vol(p) * whole < 0.0
                })
                .count();
            two_faces += usize::from(facing >= 2);
        }
    }
    assert!(checked > 25_000 && tetrahedra > 5_000 && two_faces > 500, "{checked} {tetrahedra} {two_faces}");
}

/// The barycode solver never divides by a vanishing area: a triangle that is
/// numerically flat still returns a convex combination.
#[test]
fn solver2d_thin_triangles_stay_convex() {
    let mut rng = Rng::new(42);
    for _ in 0..5000 {
        let a = rng.unit2() * 3.0;
        let b = rng.unit2() * 3.0;
        let c = a.lerp(b, rng.range(0.0, 1.0)) + (b - a).perp() * 1e-17;
        let w = [a, b, c, DVec2::ZERO];
        let r = solver2d::solve(&w, 3);
        check_weights(&r, 3);
        let got = r.point(&w).length();
        let want = segment_segment_sq3(a.extend(0.0), b.extend(0.0), DVec3::ZERO, DVec3::ZERO).sqrt();
        assert!((got - want).abs() < 1e-9);
    }
}
