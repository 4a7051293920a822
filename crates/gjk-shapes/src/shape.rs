//! The [`Shape`] trait (a support mapping with a round-core split) and the
//! construction errors.

use gjk_core::{Real, SupportMap};

use crate::space::Space;

/// Why a shape could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeError {
    /// A point set needs at least one point.
    EmptyPointSet,
    /// A coordinate, radius, size or pose component was NaN or infinite.
    NonFinite,
    /// A radius was negative.
    NegativeRadius,
    /// A size (half extent, half height, cylinder or cone radius) was zero
    /// or negative.
    NonPositiveSize,
    /// A rotation was not a unit quaternion / unit 2D rotation.
    InvalidRotation,
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ShapeError::EmptyPointSet => "a point set needs at least one point",
            ShapeError::NonFinite => "a coordinate or size is NaN or infinite",
            ShapeError::NegativeRadius => "a radius is negative",
            ShapeError::NonPositiveSize => "a size is zero or negative",
            ShapeError::InvalidRotation => "a rotation is not a unit rotation",
        })
    }
}

impl std::error::Error for ShapeError {}

/// A convex shape for the queries of this crate: a support mapping that
/// also knows its *core* and *radius*, `shape = core ⊕ ball(radius)`.
///
/// Spheres are a point core, capsules a segment core, [`crate::Rounded`]
/// anything. Queries run GJK on the cores and add the radii, so round
/// shapes get exact distances and closest points instead of an iteration on
/// a curved surface (the single-header seed's `gjk_quad`). Sharp shapes use
/// the defaults: radius 0, core = the shape.
pub trait Shape<V: Space>: SupportMap<V> {
    /// Radius of the rounding (0 for sharp shapes).
    #[inline]
    fn radius(&self) -> V::Scalar {
        V::Scalar::ZERO
    }

    /// Support point of the core along `dir`, with its vertex index.
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        self.support_indexed(dir)
    }

    /// [`Self::core_support`] searching from core vertex `hint` (see
    /// [`SupportMap::support_from`]). The default ignores the hint; shapes
    /// that are their own core and climb override it.
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let _ = hint;
        self.core_support(dir)
    }

    /// Core vertex by index (for warm starting).
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        self.vertex(index)
    }
}

impl<V: Space, T: Shape<V> + ?Sized> Shape<V> for &T {
    #[inline]
    fn radius(&self) -> V::Scalar {
        (**self).radius()
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        (**self).core_support(dir)
    }
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        (**self).core_support_from(dir, hint)
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        (**self).core_vertex(index)
    }
}

/// The core of a shape as a support mapping of its own.
#[derive(Clone, Copy, Debug)]
pub struct CoreOf<T>(pub T);

impl<V: Space, T: Shape<V>> SupportMap<V> for CoreOf<T> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.core_support(dir).0
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        self.0.core_support(dir)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        self.0.core_support_from(dir, hint)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.0.core_vertex(index)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.0.center()
    }
}

/// Checks a value is finite.
#[inline]
pub(crate) fn finite<S: Real>(x: S) -> Result<S, ShapeError> {
    if x.is_finite() { Ok(x) } else { Err(ShapeError::NonFinite) }
}

/// Checks a radius is finite and not negative.
#[inline]
pub(crate) fn radius<S: Real>(r: S) -> Result<S, ShapeError> {
    let r = finite(r)?;
    if r < S::ZERO { Err(ShapeError::NegativeRadius) } else { Ok(r) }
}

/// Checks a size is finite and positive.
#[inline]
pub(crate) fn size<S: Real>(x: S) -> Result<S, ShapeError> {
    let x = finite(x)?;
    if x > S::ZERO { Ok(x) } else { Err(ShapeError::NonPositiveSize) }
}

/// Checks a point is finite.
#[inline]
pub(crate) fn point<V: Space>(p: V) -> Result<V, ShapeError> {
    if p.is_finite() { Ok(p) } else { Err(ShapeError::NonFinite) }
}
