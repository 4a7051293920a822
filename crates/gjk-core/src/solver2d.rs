//! 2D sub-distance solver: the barycode-based S1D / S2D of Zhang et al.,
//! "Barycode-based GJK Algorithm" (Algorithms 3, 4 and 5).
//!
//! The signs of the three barycentric coordinates of the origin with respect
//! to a triangle form a 3-bit "barycode" that names the region holding the
//! origin in one switch; only the vertex-cone regions need the extra test of
//! Algorithm 4. Classification uses signs alone, so the weights it returns are
//! always a convex combination, even for thin triangles.

use crate::real::Real;
use crate::subsolver::{MAX_SIMPLEX_POINTS, Reduced, SubSolver};
use crate::vector::{Vector, Vector2};
use glam::{DVec2, Vec2};

/// Closest point of the simplex `w[..n]` (n = 1, 2 or 3) to the origin.
#[inline]
pub fn solve<V: Vector2>(w: &[V; MAX_SIMPLEX_POINTS], n: usize) -> Reduced<V::Scalar> {
    match n {
        0 | 1 => Reduced::vertex(0),
        2 => s1d(w, 0, 1),
        // A 2D simplex never holds more than three points.
        _ => s2d(w),
    }
}

/// Algorithm 5 (S1D): closest point of segment `w[i] w[j]` to the origin.
/// Dimension-free, so the 3D solver uses it too.
#[inline]
pub fn s1d<V: Vector>(w: &[V; MAX_SIMPLEX_POINTS], i: usize, j: usize) -> Reduced<V::Scalar> {
    let (a, b) = (w[i], w[j]);
    let ab = b - a;
    let a_ab = a.dot(ab);
    // The origin projects before A (this also covers a zero-length segment).
    if a_ab >= V::Scalar::ZERO {
        return Reduced::vertex(i);
    }
    let b_ab = b.dot(ab);
    // The origin projects past B.
    if b_ab <= V::Scalar::ZERO {
        return Reduced::vertex(j);
    }
    // Interior: barycentric weights from the two dot products (sum = |AB|²).
    let sum = b_ab - a_ab;
    Reduced::edge(i, b_ab / sum, j, -a_ab / sum)
}

/// Whether `s` has the (strict) sign of `sum`, i.e. the barycentric weight
/// `s / sum` is positive.
#[inline]
fn positive_weight<S: Real>(sum: S, s: S) -> bool {
    // Branch-free: which sign wins is unpredictable in GJK's loop.
    ((sum > S::ZERO) & (s > S::ZERO)) | ((sum < S::ZERO) & (s < S::ZERO))
}

/// Algorithm 3 (S2D): closest point of triangle `w[0] w[1] w[2]` to the origin.
#[inline]
pub fn s2d<V: Vector2>(w: &[V; MAX_SIMPLEX_POINTS]) -> Reduced<V::Scalar> {
    let (a, b, c) = (w[0], w[1], w[2]);
    // Twice the signed areas of the sub-triangles opposite A, B and C.
    let su = b.perp_dot(c);
    let sv = c.perp_dot(a);
    let sw = a.perp_dot(b);
    let sum = su + sv + sw;
    if sum == V::Scalar::ZERO || sum.is_nan() {
        // Collinear (or coincident) points: no interior, take the best edge.
        return best_edge(w);
    }
    let code = (positive_weight(sum, sw) as u8)
        | ((positive_weight(sum, sv) as u8) << 1)
        | ((positive_weight(sum, su) as u8) << 2);
    match code {
        // Inside: the origin is enclosed.
        7 => {
            let lu = su / sum;
            let lv = sv / sum;
            let mut lambda = [V::Scalar::ZERO; MAX_SIMPLEX_POINTS];
            lambda[0] = lu;
            lambda[1] = lv;
            lambda[2] = V::Scalar::ONE - lu - lv;
            Reduced { mask: 0b111, lambda }
        }
        3 => s1d(w, 1, 2),
        5 => s1d(w, 0, 2),
        6 => s1d(w, 0, 1),
        1 => cone(w, 2, 0, 1),
        2 => cone(w, 1, 0, 2),
        4 => cone(w, 0, 1, 2),
        // No positive weight cannot happen for a non-zero sum; stay safe.
        _ => best_edge(w),
    }
}

/// Algorithm 4 (ConeRegion): the origin lies in the vertical-angle cone at
/// vertex `v` (the other vertices are `m`, `n`). At an acute vertex the
/// answer is the vertex; at an obtuse one it may be either adjacent edge.
#[inline]
fn cone<V: Vector2>(w: &[V; MAX_SIMPLEX_POINTS], v: usize, m: usize, n: usize) -> Reduced<V::Scalar> {
    let pv = w[v];
    let mv = pv - w[m];
    let nv = pv - w[n];
    if mv.dot(nv) < V::Scalar::ZERO {
        if pv.dot(mv) > V::Scalar::ZERO {
            return s1d(w, v, m);
        }
        if pv.dot(nv) > V::Scalar::ZERO {
            return s1d(w, v, n);
        }
    }
    Reduced::vertex(v)
}

/// The best of the three edges of a degenerate triangle.
#[inline]
fn best_edge<V: Vector2>(w: &[V; MAX_SIMPLEX_POINTS]) -> Reduced<V::Scalar> {
    let mut best = s1d(w, 0, 1);
    let mut best_d = best.point(w).length_squared();
    for (i, j) in [(1, 2), (0, 2)] {
        let r = s1d(w, i, j);
        let d = r.point(w).length_squared();
        if d < best_d {
            best = r;
            best_d = d;
        }
    }
    best
}

/// Early exit of the 2D boolean test (Section III of the barycode paper):
/// with `a b` the current segment simplex and `c` a new support point beyond
/// the origin, the triangle `a b c` encloses the origin when `a` and `b` lie
/// on opposite sides of the line through the origin and `c`, and the
/// origin on `c`'s side of `a b`. The paper's test has only the first
/// condition, taking "beyond" from the search direction (`v · c < 0`).
/// Near contact in f32 `v` is turned by its rounding, `ε · scale / |v|`,
/// and a far vertex of a long edge can pass that test from behind the
/// segment: polygons 2.1e-4 apart, three zero bands, were called
/// intersecting (`f32_polygons_three_bands_apart_are_apart`). The third
/// sign is the triangle's own test and costs one product.
#[inline]
pub fn cone_encloses_origin<V: Vector2>(a: V, b: V, c: V) -> bool {
    let sa = a.perp_dot(c);
    let sb = b.perp_dot(c);
    let sab = a.perp_dot(b);
    let z = V::Scalar::ZERO;
    (sa <= z && sb >= z && sab >= z) || (sa >= z && sb <= z && sab <= z)
}

/// The 2D/3D [`SubSolver`] of each vector type.
macro_rules! impl_sub_solver_2d {
    ($v:ty, $s:ty) => {
        impl SubSolver<$s> for $v {
            #[inline]
            fn solve_simplex(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solve(w, n)
            }
            #[inline]
            fn solve_simplex_newest(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solve(w, n)
            }
            #[inline]
            fn facet_normal(w: &[Self]) -> Option<Self> {
                Self::facet_normal_raw(w).try_normalize()
            }
            #[inline]
            fn facet_normal_raw(w: &[Self]) -> Self {
                (w[1] - w[0]).perp()
            }
            #[inline]
            fn simplex_volume_raw(w: &[Self; 4]) -> $s {
                (w[1] - w[0]).perp_dot(w[2] - w[0])
            }
            #[inline]
            fn facet_normal_bound(scale: $s) -> $s {
                3.0 * scale
            }
            #[inline]
            fn orthogonal_to(_w: &[Self]) -> Self {
                <$v>::X
            }
            #[inline]
            fn segment_cone_encloses_origin(a: Self, b: Self, c: Self) -> bool {
                cone_encloses_origin(a, b, c)
            }
        }
    };
}

impl_sub_solver_2d!(Vec2, f32);
impl_sub_solver_2d!(DVec2, f64);
