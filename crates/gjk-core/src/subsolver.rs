//! The sub-distance problem's answer ([`Reduced`]) and the trait through
//! which the queries reach each dimension's solver ([`SubSolver`],
//! implemented in `solver2d.rs` and `solver3d.rs`).

use crate::real::Real;

/// Most points a simplex holds (a tetrahedron in 3D; a triangle uses 3 in 2D).
pub const MAX_SIMPLEX_POINTS: usize = 4;

/// Result of a sub-distance solve: which of the input points the closest
/// point needs (`mask`, bit `i` for point `i`) and its barycentric
/// coordinates (indexed like the input; zero for dropped points).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reduced<S> {
    /// Bit `i` set when input point `i` is kept.
    pub mask: u8,
    /// Barycentric coordinate of each input point (they sum to one).
    pub lambda: [S; MAX_SIMPLEX_POINTS],
}

impl<S: Real> Reduced<S> {
    /// Keep only input point `i`.
    #[inline]
    pub fn vertex(i: usize) -> Self {
        let mut lambda = [S::ZERO; MAX_SIMPLEX_POINTS];
        lambda[i] = S::ONE;
        Self { mask: 1 << i, lambda }
    }

    /// Keep input points `i` and `j` with weights `li` and `lj`.
    #[inline]
    pub fn edge(i: usize, li: S, j: usize, lj: S) -> Self {
        let mut lambda = [S::ZERO; MAX_SIMPLEX_POINTS];
        lambda[i] = li;
        lambda[j] = lj;
        Self { mask: (1 << i) | (1 << j), lambda }
    }
}

/// The dimension's sub-distance solver and facet geometry, which the
/// queries reach through [`Vector`] (implemented for every vector type the
/// library supports; not an API of its own).
#[doc(hidden)]
pub trait SubSolver<S: Real>: Copy {
    /// Closest point of the simplex `w[..n]` to the origin: the minimal subset
    /// that holds it and its barycentric coordinates (the sub-distance problem).
    fn solve_simplex(w: &[Self; 4], n: usize) -> Reduced<S>;

    /// [`Self::solve_simplex`] when `w[n − 1]` was just added by a GJK step:
    /// sub-simplices without it may be skipped (3D; 2D solves them all).
    fn solve_simplex_newest(w: &[Self; 4], n: usize) -> Reduced<S>;

    /// A unit normal of the facet spanned by `w` (`DIM` points: a segment in
    /// 2D, a triangle in 3D), or `None` when the facet is degenerate.
    fn facet_normal(w: &[Self]) -> Option<Self>;

    /// A normal of the facet spanned by `w` with the length it comes with
    /// (2D: the edge's length; 3D: twice the triangle's area), unnormalised.
    fn facet_normal_raw(w: &[Self]) -> Self;

    /// `DIM!` times the signed volume of the full simplex `w[..DIM + 1]`
    /// (2D: twice the triangle's area; 3D: six times the tetrahedron's).
    fn simplex_volume_raw(w: &[Self; 4]) -> S;

    /// An upper bound on `|facet_normal_raw|` for a facet whose points lie
    /// within `√DIM · scale` of the origin (2D: an edge, at most
    /// `2√2 · scale`; 3D: the cross product of two edges, at most
    /// `(2√3 · scale)²`).
    fn facet_normal_bound(scale: S) -> S;

    /// Any unit vector orthogonal to the affine hull of `w[..n]` (`n < DIM`).
    fn orthogonal_to(w: &[Self]) -> Self;

    /// 2D-only early exit of the boolean test: whether the triangle `a, b, c`
    /// surely encloses the origin, given that `c` lies beyond the origin as
    /// seen from the segment `a b`. Always `false` in 3D.
    fn segment_cone_encloses_origin(a: Self, b: Self, c: Self) -> bool;
}
