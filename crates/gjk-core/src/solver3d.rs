//! 3D sub-distance solver: signed volumes, after Montanari, Petrinic and
//! Barbieri, "Improving the GJK algorithm for faster and more reliable
//! distance queries between convex objects" (ACM TOG 36(3), 2017).
//!
//! The barycentric coordinates of the origin (or of its projection onto the
//! simplex's affine hull) are ratios of signed volumes or areas. When every
//! numerator has the sign of the denominator the closest point is inside;
//! otherwise the sub-simplices facing the origin are solved and the nearest
//! kept. Classification is by signs only, so degenerate simplices (zero
//! volume or area) fall through to their faces instead of dividing by zero,
//! and the weights returned are always a convex combination.

use crate::real::Real;
use crate::simplex::{MAX_SIMPLEX_POINTS, Reduced};
use crate::solver2d::s1d;
use crate::vector::Vector3;

/// Closest point of the simplex `w[..n]` (n = 1 to 4) to the origin.
#[inline]
pub fn solve<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], n: usize) -> Reduced<V::Scalar> {
    match n {
        0 | 1 => Reduced::vertex(0),
        2 => s1d(w, 0, 1),
        3 => s2d(w, 0, 1, 2),
        _ => s3d(w),
    }
}

/// [`solve`] when `w[n − 1]` was just added by a GJK step along `−v`, with
/// `v` the closest point of `w[..n − 1]`. Then the closest point of the
/// new simplex lies on a face holding `w[n − 1]` (van den Bergen 1999: the
/// old simplex's closest point is not the new one's once `v·w < v·v`), so
/// the sub-simplices without it are skipped. Should rounding make the old
/// face the nearer after all, the caller's no-progress check (GJK Exit 4)
/// catches it: the answer is never farther than an honest candidate.
#[inline]
pub fn solve_newest<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], n: usize) -> Reduced<V::Scalar> {
    match n {
        0 | 1 => Reduced::vertex(0),
        2 => s1d(w, 0, 1),
        3 => s2d_keep(w, 0, 1, 2, 2),
        _ => s3d_keep(w, 3),
    }
}

/// Whether the weight `s / d` is strictly positive.
#[inline]
fn positive_weight<S: Real>(d: S, s: S) -> bool {
    // Branch-free: which sign wins is unpredictable in GJK's loop.
    ((d > S::ZERO) & (s > S::ZERO)) | ((d < S::ZERO) & (s < S::ZERO))
}

/// `a · (b × c)`.
#[inline]
fn det3<V: Vector3>(a: V, b: V, c: V) -> V::Scalar {
    a.dot(b.cross(c))
}

/// The best candidate so far and, once a second one made it necessary,
/// its closest point's squared norm (a single candidate is never measured).
type Best<S> = Option<(Reduced<S>, Option<S>)>;

/// Keeps the candidate with the smaller closest-point norm (the earlier
/// one on ties). Norms are computed only when two candidates compete.
#[inline]
fn keep_nearer<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], best: &mut Best<V::Scalar>, r: Reduced<V::Scalar>) {
    match best {
        None => *best = Some((r, None)),
        Some((b, bd)) => {
            let old = bd.unwrap_or_else(|| b.point(w).length_squared());
            let d = r.point(w).length_squared();
            *best = if d.strictly_less(old) { Some((r, Some(d))) } else { Some((*b, Some(old))) };
        }
    }
}

/// S2D: closest point of triangle `w[i] w[j] w[k]` to the origin.
///
/// Projects the origin onto the triangle's plane, then computes barycentric
/// coordinates from signed areas in the coordinate plane where the triangle's
/// projection is largest (the best-conditioned of the three).
#[inline]
pub fn s2d<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], i: usize, j: usize, k: usize) -> Reduced<V::Scalar> {
    s2d_keep(w, i, j, k, NONE)
}

/// No vertex must be kept (see [`s2d_keep`]).
const NONE: usize = usize::MAX;

/// [`s2d`] considering, when the origin projects outside the triangle, only
/// the edges that hold vertex `keep` ([`NONE`]: all of them). The
/// degenerate fallback still tries every edge.
#[inline]
fn s2d_keep<V: Vector3>(
    w: &[V; MAX_SIMPLEX_POINTS],
    i: usize,
    j: usize,
    k: usize,
    keep: usize,
) -> Reduced<V::Scalar> {
    let has = |x: usize, y: usize| keep == NONE || keep == x || keep == y;
    let (a, b, c) = (w[i], w[j], w[k]);
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    let z = V::Scalar::ZERO;
    if nn > z && nn.is_finite() {
        // Orthogonal projection of the origin onto the plane.
        let p = n * (a.dot(n) / nn);
        // Axis of the largest normal component: drop it.
        let (nx, ny, nz) = (n.get(0).abs(), n.get(1).abs(), n.get(2).abs());
        let (x, y, axis) = if nx >= ny && nx >= nz {
            (1, 2, 0)
        } else if ny >= nz {
            (2, 0, 1)
        } else {
            (0, 1, 2)
        };
        let mu = n.get(axis);
        let area = |p0: V, p1: V| {
            let (ux, uy) = (p0.get(x) - p.get(x), p0.get(y) - p.get(y));
            let (vx, vy) = (p1.get(x) - p.get(x), p1.get(y) - p.get(y));
            ux * vy - uy * vx
        };
        let ca = area(b, c);
        let cb = area(c, a);
        let cc = area(a, b);
        let (pa, pb, pc) = (positive_weight(mu, ca), positive_weight(mu, cb), positive_weight(mu, cc));
        if pa && pb && pc {
            let mut lambda = [z; MAX_SIMPLEX_POINTS];
            lambda[i] = ca / mu;
            lambda[j] = cb / mu;
            lambda[k] = V::Scalar::ONE - lambda[i] - lambda[j];
            return Reduced { mask: (1 << i) | (1 << j) | (1 << k), lambda };
        }
        // Outside: the nearest of the edges facing the projected origin.
        let mut best = None;
        if !pa && has(j, k) {
            keep_nearer(w, &mut best, s1d(w, j, k));
        }
        if !pb && has(i, k) {
            keep_nearer(w, &mut best, s1d(w, i, k));
        }
        if !pc && has(i, j) {
            keep_nearer(w, &mut best, s1d(w, i, j));
        }
        if let Some((r, _)) = best {
            return r;
        }
    }
    // Degenerate (collinear or coincident points): all three edges.
    let mut best = None;
    keep_nearer(w, &mut best, s1d(w, i, j));
    keep_nearer(w, &mut best, s1d(w, j, k));
    keep_nearer(w, &mut best, s1d(w, i, k));
    best.map_or(Reduced::vertex(i), |(r, _)| r)
}

/// S3D: closest point of tetrahedron `w[0..4]` to the origin.
#[inline]
pub fn s3d<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS]) -> Reduced<V::Scalar> {
    s3d_keep(w, NONE)
}

/// [`s3d`] considering only the faces (and, within them, the edges) that
/// hold vertex `keep` ([`NONE`]: all of them).
#[inline]
fn s3d_keep<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], keep: usize) -> Reduced<V::Scalar> {
    // Cofactors: the signed volumes with the origin in place of each vertex.
    let c =
        [det3(w[1], w[2], w[3]), -det3(w[0], w[2], w[3]), det3(w[0], w[1], w[3]), -det3(w[0], w[1], w[2])];
    let d = c[0] + c[1] + c[2] + c[3];
    let inside = [
        positive_weight(d, c[0]),
        positive_weight(d, c[1]),
        positive_weight(d, c[2]),
        positive_weight(d, c[3]),
    ];
    if inside.iter().all(|&b| b) {
        let mut lambda = [V::Scalar::ZERO; MAX_SIMPLEX_POINTS];
        lambda[0] = c[0] / d;
        lambda[1] = c[1] / d;
        lambda[2] = c[2] / d;
        lambda[3] = V::Scalar::ONE - lambda[0] - lambda[1] - lambda[2];
        return Reduced { mask: 0b1111, lambda };
    }
    // Faces opposite a vertex with a non-positive weight face the origin.
    const FACES: [(usize, usize, usize); 4] = [(1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2)];
    let mut best = None;
    for (f, &(i, j, k)) in FACES.iter().enumerate() {
        if !inside[f] && f != keep {
            let r = s2d_keep(w, i, j, k, keep);
            // The origin projects into this face from outside its plane:
            // the projection is the tetrahedron's closest point (the face's
            // outward normal lies in the normal cone there), so no other
            // face can be nearer and none is solved.
            if r.mask.count_ones() == 3 {
                return r;
            }
            keep_nearer(w, &mut best, r);
        }
    }
    best.map_or(Reduced::vertex(if keep == NONE { 0 } else { keep }), |(r, _)| r)
}
