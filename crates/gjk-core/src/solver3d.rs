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
use crate::solver2d::s1d;
use crate::subsolver::{MAX_SIMPLEX_POINTS, Reduced, SubSolver};
use crate::vector::Vector3;
use glam::{DVec3, Vec3, Vec3A};

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
/// The barycentric coordinates of the origin's projection onto the
/// triangle's plane are signed areas along the normal `n`, computed in 3D
/// with the projection eliminated (see the body): no division before the
/// region is known and no branch on a coordinate plane. (Montanari et al.
/// project onto the coordinate plane of the largest projected area
/// instead; that costs a division on GJK's dependency chain and a
/// three-way branch no predictor learns. The errors of both grow alike
/// with the triangle's distance from the origin, there through the
/// projection's rounding, here through the cancellation in `nn + a·…`:
/// on 200 000 f32 triangles at each of 0, 3, 30 and 300 sizes
/// from the origin, against an f64 oracle, the largest errors are the
/// same; the mean near the origin is 3.5e-8 of the size against 2.3e-8.)
#[inline]
pub fn s2d<V: Vector3>(w: &[V; MAX_SIMPLEX_POINTS], i: usize, j: usize, k: usize) -> Reduced<V::Scalar> {
    s2d_keep(w, i, j, k, NONE)
}

/// Below this squared doubled area (`ε⁴`), the triangle is solved again
/// at unit size ([`s2d_keep`]): its area has lost precision to
/// underflow, or is a true zero.
#[inline]
fn small_area<S: Real>() -> S {
    let e = S::EPSILON;
    e * e * e * e
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
    let (mut a, mut b, mut c) = (w[i], w[j], w[k]);
    let mut n = (b - a).cross(c - a);
    let mut nn = n.length_squared();
    let z = V::Scalar::ZERO;
    if !(nn > small_area::<V::Scalar>() && nn.is_finite()) {
        // `nn` is the points' size to the fourth power: it overflows f32
        // past ~1e9 and underflows below ~1e-10, where the triangle is
        // neither degenerate nor far. The weights are the same for the
        // triangle scaled to unit size (`f32_beyond_1e9_keeps_its_faces`).
        let m = a.max_abs().max(b.max_abs()).max(c.max_abs());
        let s = V::Scalar::ONE / m;
        if m > z && s.is_finite() && s > z {
            (a, b, c) = (a * s, b * s, c * s);
            n = (b - a).cross(c - a);
            nn = n.length_squared();
        }
    }
    if nn > z && nn.is_finite() {
        // The origin's projection `p` onto the plane has barycentric
        // weights `ca/nn, cb/nn, cc/nn`, with `ca = n·((b − p) × (c − p))`
        // twice the area of `p b c` times `|n|`. Writing `b − p` and
        // `c − p` from `a − p` and the edges, and using `p ∥ n` (so
        // `n·(x × p) = 0`), gives `ca = nn + a·(n × (b − c))`, cyclically
        // for `cb` and `cc` (they sum to `nn`). The projection itself is
        // never formed.
        let ca = nn + a.dot(n.cross(b - c));
        let cb = nn + b.dot(n.cross(c - a));
        let cc = nn + c.dot(n.cross(a - b));
        let mu = nn;
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

/// The 2D/3D [`SubSolver`] of each vector type.
macro_rules! impl_sub_solver_3d {
    ($v:ty, $s:ty) => {
        impl SubSolver<$s> for $v {
            #[inline]
            fn facet_normal(w: &[Self]) -> Option<Self> {
                Self::facet_normal_raw(w).try_normalize().or_else(|| {
                    // The cross product's squared length out of range (f32
                    // edges past ~1e9): the same direction from edges
                    // scaled to unit size.
                    let (e1, e2) = (w[1] - w[0], w[2] - w[0]);
                    let m = e1.abs().max_element().max(e2.abs().max_element());
                    let s = 1.0 / m;
                    (m > 0.0 && s.is_finite()).then(|| (e1 * s).cross(e2 * s).try_normalize()).flatten()
                })
            }
            #[inline]
            fn segment_cone_encloses_origin(_a: Self, _b: Self, _c: Self) -> bool {
                false
            }
            #[inline]
            fn solve_simplex(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solve(w, n)
            }
            #[inline]
            fn solve_simplex_newest(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solve_newest(w, n)
            }
            #[inline]
            fn facet_normal_raw(w: &[Self]) -> Self {
                (w[1] - w[0]).cross(w[2] - w[0])
            }
            #[inline]
            fn simplex_volume_raw(w: &[Self; 4]) -> $s {
                (w[1] - w[0]).dot((w[2] - w[0]).cross(w[3] - w[0]))
            }
            #[inline]
            fn facet_normal_bound(scale: $s) -> $s {
                12.0 * scale * scale
            }
            #[inline]
            fn orthogonal_to(w: &[Self]) -> Self {
                if w.len() >= 2 {
                    let d = w[1] - w[0];
                    if let Some(n) = d.any_orthonormal_vector_checked() {
                        return n;
                    }
                }
                <$v>::X
            }
        }
    };
}

impl_sub_solver_3d!(Vec3, f32);
impl_sub_solver_3d!(DVec3, f64);
impl_sub_solver_3d!(Vec3A, f32);

/// Private helper: an orthonormal vector to `d`, or `None` when `d` is ~zero.
trait AnyOrthonormal: Sized {
    fn any_orthonormal_vector_checked(self) -> Option<Self>;
}

macro_rules! impl_any_ortho {
    ($v:ty) => {
        impl AnyOrthonormal for $v {
            #[inline]
            fn any_orthonormal_vector_checked(self) -> Option<Self> {
                self.try_normalize().map(|u| u.any_orthonormal_vector())
            }
        }
    };
}
impl_any_ortho!(Vec3);
impl_any_ortho!(DVec3);
impl_any_ortho!(Vec3A);
