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
pub use crate::subsolver::SubSolver;

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
