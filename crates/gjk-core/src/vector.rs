//! The vector abstraction: [`Vector`] is implemented for glam's `Vec2`,
//! `DVec2`, `Vec3`, `Vec3A` and `DVec3`, so every query works in 2D and 3D,
//! f32 and f64. Queries on `Vec3` compute in `Vec3A` ([`Vector::Lanes`]).
//!
//! # Lanes
//!
//! Each `Vector` names the type its queries compute in, `Vector::Lanes`:
//! `Vec3A` for `Vec3`, the type itself for the others. glam's `Vec3` is 12
//! bytes, so each of its products and sums is unpacked into and out of SSE
//! registers; `Vec3A` fills one register. `distance_with`, `distance_from`,
//! `intersects_within`, `cast_ray_with` and `cast_shape_with` (and so every
//! query built on them, EPA included: gjk-epa's `EpaSpace` for `Vec3` runs
//! `epa3` in `Vec3A`) wrap the shapes in `InLanes` (each support call
//! converts the direction to `Vec3` and the answer back), read and write the
//! caller's `Vec3` `SimplexCache` converting its directions, and convert the
//! result. glam's `Vec3A` rounds every operation as `Vec3` does (the same
//! products and sums in the same order, no fused multiply–add), so on x86
//! the answers are the same to the bit (`tests/lanes.rs`, gjk-epa's
//! `tests/lanes.rs`). Recorded queries and the stepping API (`GjkSolver`)
//! compute in `Vec3` itself.

use core::fmt::Debug;
use core::ops::{Add, Mul, Neg, Sub};

use glam::{DVec2, DVec3, Vec2, Vec3, Vec3A};

use crate::real::Real;
use crate::simplex::Reduced;
use crate::{solver2d, solver3d};

/// A point or direction in 2D or 3D space.
///
/// The dimension-specific parts of GJK (the sub-distance solver and the
/// normal of a simplex facet, [`SubSolver`]) come with it, so the search
/// is written once for every dimension.
pub trait Vector:
    Copy
    + Debug
    + PartialEq
    + Default
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<Self::Scalar, Output = Self>
    + SubSolver<<Self as Vector>::Scalar>
{
    /// The scalar type (`f32` or `f64`).
    type Scalar: Real;
    /// Number of coordinates (2 or 3).
    const DIM: usize;
    /// The zero vector.
    const ZERO: Self;
    /// The unit vector along the first axis.
    const X: Self;
    /// The type the queries compute in: glam's SIMD-aligned `Vec3A` for
    /// `Vec3` (a 12-byte `Vec3` is unpacked into and out of SSE registers
    /// at every product and sum; a `Vec3A` fills one), the type itself
    /// otherwise. `Vec3A` rounds each operation as `Vec3` does, so the
    /// answers are the same.
    type Lanes: Vector<Scalar = Self::Scalar>;
    /// Whether [`Self::Lanes`] differs from `Self`, so that queries convert
    /// their inputs and results at their edges.
    const LANES_DIFFER: bool = false;
    /// This vector as [`Self::Lanes`].
    fn to_lanes(self) -> Self::Lanes;
    /// A [`Self::Lanes`] vector as this type.
    fn from_lanes(v: Self::Lanes) -> Self;

    /// Dot product.
    fn dot(self, rhs: Self) -> Self::Scalar;
    /// Euclidean length.
    fn length(self) -> Self::Scalar;
    /// Squared length.
    #[inline]
    fn length_squared(self) -> Self::Scalar {
        self.dot(self)
    }
    /// Largest absolute coordinate (the infinity norm).
    fn max_abs(self) -> Self::Scalar;
    /// Whether every coordinate is finite.
    fn is_finite(self) -> bool;
    /// `self / |self|`, or `None` when the length is zero or not finite.
    fn try_normalize(self) -> Option<Self>;
    /// Unit vector along axis `i` (`i < DIM`; larger values wrap).
    fn axis(i: usize) -> Self;
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

/// 2D-specific operations used by the 2D sub-distance solver.
pub trait Vector2: Vector {
    /// Builds a vector from coordinates.
    fn new2(x: Self::Scalar, y: Self::Scalar) -> Self;
    /// First coordinate.
    fn x(self) -> Self::Scalar;
    /// Second coordinate.
    fn y(self) -> Self::Scalar;
    /// 2D cross product `self.x * rhs.y - self.y * rhs.x`.
    #[inline]
    fn perp_dot(self, rhs: Self) -> Self::Scalar {
        self.x() * rhs.y() - self.y() * rhs.x()
    }
}

/// 3D-specific operations used by the 3D sub-distance solver.
pub trait Vector3: Vector {
    /// Builds a vector from coordinates.
    fn new3(x: Self::Scalar, y: Self::Scalar, z: Self::Scalar) -> Self;
    /// Coordinate `i` (0, 1 or 2).
    fn get(self, i: usize) -> Self::Scalar;
    /// Cross product.
    fn cross(self, rhs: Self) -> Self;
}

macro_rules! impl_common {
    ($v:ty, $s:ty, $dim:expr) => {
        type Scalar = $s;
        const DIM: usize = $dim;
        const ZERO: Self = <$v>::ZERO;
        const X: Self = <$v>::X;
        #[inline]
        fn dot(self, rhs: Self) -> $s {
            <$v>::dot(self, rhs)
        }
        #[inline]
        fn length(self) -> $s {
            <$v>::length(self)
        }
        #[inline]
        fn max_abs(self) -> $s {
            self.abs().max_element()
        }
        #[inline]
        fn is_finite(self) -> bool {
            <$v>::is_finite(self)
        }
        #[inline]
        fn try_normalize(self) -> Option<Self> {
            <$v>::try_normalize(self)
        }
        #[inline]
        fn axis(i: usize) -> Self {
            let mut v = <$v>::ZERO;
            v[i % $dim] = 1.0;
            v
        }
    };
}

macro_rules! impl_lanes_self {
    ($v:ty) => {
        type Lanes = $v;
        #[inline(always)]
        fn to_lanes(self) -> $v {
            self
        }
        #[inline(always)]
        fn from_lanes(v: $v) -> $v {
            v
        }
    };
}

macro_rules! impl_vec2 {
    ($v:ty, $s:ty) => {
        impl Vector for $v {
            impl_common!($v, $s, 2);
            impl_lanes_self!($v);
        }
        impl SubSolver<$s> for $v {
            #[inline]
            fn solve_simplex(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solver2d::solve(w, n)
            }
            #[inline]
            fn solve_simplex_newest(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solver2d::solve(w, n)
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
                solver2d::cone_encloses_origin(a, b, c)
            }
        }
        impl Vector2 for $v {
            #[inline]
            fn new2(x: $s, y: $s) -> Self {
                <$v>::new(x, y)
            }
            #[inline]
            fn x(self) -> $s {
                self.x
            }
            #[inline]
            fn y(self) -> $s {
                self.y
            }
        }
    };
}

macro_rules! impl_vec3 {
    ($v:ty, $s:ty, $lanes:ident $(, $arg:ty)?) => {
        impl Vector for $v {
            impl_common!($v, $s, 3);
            $lanes!($($arg)?);
        }
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
                solver3d::solve(w, n)
            }
            #[inline]
            fn solve_simplex_newest(w: &[Self; 4], n: usize) -> Reduced<$s> {
                solver3d::solve_newest(w, n)
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
        impl Vector3 for $v {
            #[inline]
            fn new3(x: $s, y: $s, z: $s) -> Self {
                <$v>::new(x, y, z)
            }
            #[inline]
            fn get(self, i: usize) -> $s {
                self[i]
            }
            #[inline]
            fn cross(self, rhs: Self) -> Self {
                <$v>::cross(self, rhs)
            }
        }
    };
}

impl_vec2!(Vec2, f32);
impl_vec2!(DVec2, f64);
/// `Vec3` computes in `Vec3A` (see [`Vector::Lanes`]).
macro_rules! impl_lanes_vec3a {
    () => {
        type Lanes = Vec3A;
        const LANES_DIFFER: bool = true;
        #[inline(always)]
        fn to_lanes(self) -> Vec3A {
            Vec3A::from(self)
        }
        #[inline(always)]
        fn from_lanes(v: Vec3A) -> Vec3 {
            Vec3::from(v)
        }
    };
}

impl_vec3!(Vec3, f32, impl_lanes_vec3a);
impl_vec3!(DVec3, f64, impl_lanes_self, DVec3);
impl_vec3!(Vec3A, f32, impl_lanes_self, Vec3A);

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
