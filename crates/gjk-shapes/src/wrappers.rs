//! Wrappers that make new shapes from old ones without touching their
//! vertices: only the support direction and the answer are transformed.
//!
//! `Transformed` (pose and per-axis scale; transforms the direction),
//! `Placed` (rigid pose as a rotation matrix: what the posed queries use for
//! B in A's frame), `Rounded`, `Swept`, `MinkowskiSum`.

use gjk_core::internal::{Climb, Search};
use gjk_core::{NO_INDEX, Real, SupportMap};

use crate::obb::BoxView;
use crate::shape::{PolygonView, Shape, ShapeError, point, radius};
use crate::space::{Pose, Space};

/// A shape placed by a pose, optionally scaled (in its local frame, before
/// the pose). The support transforms the direction, not the vertices (the
/// single-header seed's transform example):
/// `s(d) = R · S · s_T(S · Rᵀ d) + t` for a diagonal scale `S`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(bound(serialize = "T: serde::Serialize, V: serde::Serialize, V::Rotation: serde::Serialize"))
)]
pub struct Transformed<T, V: Space> {
    /// The wrapped shape.
    pub shape: T,
    /// Where it is.
    pub(crate) pose: Pose<V>,
    /// Per-axis scale (all ones when unscaled).
    pub(crate) scale: V,
}

impl<T, V: Space> Transformed<T, V> {
    /// `shape` placed at `pose`; errors on a non-finite or non-unit pose.
    pub fn new(shape: T, pose: Pose<V>) -> Result<Self, ShapeError> {
        if !pose.translation.is_finite() {
            return Err(ShapeError::NonFinite);
        }
        if !V::rotation_is_valid(&pose.rotation) {
            return Err(ShapeError::InvalidRotation);
        }
        Ok(Self { shape, pose, scale: V::splat(V::Scalar::ONE) })
    }

    /// `shape` scaled per axis, then placed at `pose`. Errors on a
    /// non-positive or non-finite scale.
    pub fn with_scale(shape: T, pose: Pose<V>, scale: V) -> Result<Self, ShapeError> {
        let mut t = Self::new(shape, pose)?;
        point(scale)?;
        if scale.min_elem() <= V::Scalar::ZERO {
            return Err(ShapeError::NonPositiveSize);
        }
        t.scale = scale;
        Ok(t)
    }

    /// Where the (scaled) shape is placed.
    #[inline]
    pub fn pose(&self) -> Pose<V> {
        self.pose
    }

    /// The scale per axis, applied before the pose.
    #[inline]
    pub fn scale(&self) -> V {
        self.scale
    }

    /// Whether the scale is the same along every axis (then radii scale too).
    #[inline]
    fn uniform(&self) -> bool {
        let s0 = self.scale.component(0);
        (1..V::DIM).all(|i| self.scale.component(i) == s0)
    }

    #[inline]
    fn local_dir(&self, dir: V) -> V {
        V::mul_elem(self.scale, self.pose.inverse_transform_vector(dir))
    }

    #[inline]
    fn to_world(&self, p: V) -> V {
        self.pose.transform_point(V::mul_elem(self.scale, p))
    }
}

impl<V: Space, T: SupportMap<V>> SupportMap<V> for Transformed<T, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.to_world(self.shape.support(self.local_dir(dir)))
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let (p, i) = self.shape.support_indexed(self.local_dir(dir));
        (self.to_world(p), i)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let (p, i) = self.shape.support_from(self.local_dir(dir), hint);
        (self.to_world(p), i)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.shape.vertex(index).map(|p| self.to_world(p))
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.shape.center().map(|p| self.to_world(p))
    }
}

impl<V: Space, T: Shape<V>> Shape<V> for Transformed<T, V> {
    /// The radius scales with a uniform scale; under a non-uniform one the
    /// rounding is no longer a ball, so the whole shape is the core.
    #[inline]
    fn radius(&self) -> V::Scalar {
        if self.uniform() { self.shape.radius() * self.scale.component(0) } else { V::Scalar::ZERO }
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        if self.uniform() {
            let (p, i) = self.shape.core_support(self.local_dir(dir));
            (self.to_world(p), i)
        } else {
            self.support_indexed(dir)
        }
    }
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        if self.uniform() {
            let (p, i) = self.shape.core_support_from(self.local_dir(dir), hint);
            (self.to_world(p), i)
        } else {
            self.support_from(dir, hint)
        }
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        if self.uniform() {
            self.shape.core_vertex(index).map(|p| self.to_world(p))
        } else {
            self.vertex(index)
        }
    }
    /// The shape's axis placed (a uniform scale keeps it; a non-uniform
    /// one in general does not, and the whole shape is then the core).
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        if self.uniform() {
            self.shape.core_axis().map(|(p, a)| (self.to_world(p), V::rotate(&self.pose.rotation, a)))
        } else {
            None
        }
    }
}

/// A shape under a rigid pose, with the rotation stored as a matrix: the
/// form the posed queries use for B in A's frame. Cheaper per support call
/// than [`Transformed`] (a matrix product each way instead of a quaternion
/// sandwich, and no scale), so it suits one pose used for many calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed<T, V: Space> {
    /// The wrapped shape.
    pub shape: T,
    rotation: V::Matrix,
    translation: V,
}

impl<T, V: Space> Placed<T, V> {
    /// `shape` placed at `pose` (the pose is taken as given: check it with
    /// [`Pose::is_valid`] first).
    #[inline]
    pub fn new(shape: T, pose: &Pose<V>) -> Self {
        Self { shape, rotation: V::matrix(&pose.rotation), translation: pose.translation }
    }

    /// A direction in the shape's frame.
    #[inline]
    pub fn local_dir(&self, dir: V) -> V {
        V::mat_tmul(&self.rotation, dir)
    }

    /// A point of the shape's frame in the outer frame.
    #[inline]
    pub fn to_outer(&self, p: V) -> V {
        V::mat_mul(&self.rotation, p) + self.translation
    }

    /// A direction of the shape's frame in the outer frame.
    #[inline]
    pub fn dir_to_outer(&self, d: V) -> V {
        V::mat_mul(&self.rotation, d)
    }

    /// A point of the outer frame in the shape's frame.
    #[inline]
    pub fn to_inner(&self, p: V) -> V {
        V::mat_tmul(&self.rotation, p - self.translation)
    }
}

impl<V: Space, T: SupportMap<V>> SupportMap<V> for Placed<T, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.to_outer(self.shape.support(self.local_dir(dir)))
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let (p, i) = self.shape.support_indexed(self.local_dir(dir));
        (self.to_outer(p), i)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let (p, i) = self.shape.support_from(self.local_dir(dir), hint);
        (self.to_outer(p), i)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.shape.vertex(index).map(|p| self.to_outer(p))
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.shape.center().map(|p| self.to_outer(p))
    }
    /// A rigid pose moves the balls with the centre.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.shape.center_radii()
    }
    /// A climb's direction is the shape's own ([`Climb`]): steps pass
    /// through, and its answer comes back through [`Self::vertex`].
    #[inline(always)]
    fn support_search(&self, dir: V, hint: u32) -> Search<V> {
        self.shape.support_search(self.local_dir(dir), hint).map_done(|p| self.to_outer(p))
    }
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V>) -> bool {
        self.shape.climb_step(climb)
    }
}

impl<V: Space, T: Shape<V>> Shape<V> for Placed<T, V> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.shape.radius()
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        let (p, i) = self.shape.core_support(self.local_dir(dir));
        (self.to_outer(p), i)
    }
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let (p, i) = self.shape.core_support_from(self.local_dir(dir), hint);
        (self.to_outer(p), i)
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        self.shape.core_vertex(index).map(|p| self.to_outer(p))
    }
    #[inline]
    fn core_polygon(&self) -> Option<PolygonView<'_, V>> {
        self.shape.core_polygon().map(|p| p.mapped(|d| self.dir_to_outer(d), self.translation))
    }
    #[inline]
    fn core_box(&self) -> Option<BoxView<V>> {
        self.shape.core_box().map(|b| b.mapped(|d| self.dir_to_outer(d), self.translation))
    }
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        self.shape.core_segment().map(|b| b.mapped(|d| self.dir_to_outer(d), self.translation))
    }
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.shape.core_center_radii()
    }
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        self.shape.core_axis().map(|(p, a)| (self.to_outer(p), self.dir_to_outer(a)))
    }
    #[inline(always)]
    fn core_support_search(&self, dir: V, hint: u32) -> Search<V> {
        self.shape.core_support_search(self.local_dir(dir), hint).map_done(|p| self.to_outer(p))
    }
    #[inline(always)]
    fn core_climb_step(&self, climb: &mut Climb<V>) -> bool {
        self.shape.core_climb_step(climb)
    }
}

/// A shape grown by a ball: `T ⊕ ball(radius)` (rounded corners and edges).
/// Queries treat it exactly as the core `T` plus the radius.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rounded<T, S> {
    /// The core shape.
    pub shape: T,
    /// The rounding radius (≥ 0).
    pub(crate) radius: S,
}

impl<T, S: Real> Rounded<T, S> {
    /// `shape` rounded by `r`; errors on a negative or non-finite radius.
    pub fn new(shape: T, r: S) -> Result<Self, ShapeError> {
        Ok(Self { shape, radius: radius(r)? })
    }

    /// The rounding radius.
    #[inline]
    pub fn rounding(&self) -> S {
        self.radius
    }
}

impl<V: Space, T: Shape<V>> SupportMap<V> for Rounded<T, V::Scalar> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.shape.support(dir) + dir.try_normalize().map_or(V::ZERO, |u| u * self.radius)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.shape.center()
    }
    /// The shape's balls grown by the radius.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        let grown = |(inner, outer): (V::Scalar, V::Scalar)| (inner + self.radius, outer + self.radius);
        // A radius set by hand to a negative or NaN value names no ball.
        self.shape.center_radii().filter(|_| self.radius >= V::Scalar::ZERO).map(grown)
    }
}

impl<V: Space, T: Shape<V>> Shape<V> for Rounded<T, V::Scalar> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.shape.radius() + self.radius
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        self.shape.core_support(dir)
    }
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        self.shape.core_support_from(dir, hint)
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        self.shape.core_vertex(index)
    }
    #[inline]
    fn core_polygon(&self) -> Option<PolygonView<'_, V>> {
        self.shape.core_polygon()
    }
    #[inline]
    fn core_box(&self) -> Option<BoxView<V>> {
        self.shape.core_box()
    }
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        self.shape.core_segment()
    }
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.shape.core_center_radii()
    }
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        self.shape.core_axis()
    }
}

/// A shape swept along a translation: the convex hull of the shape at its
/// start and at `start + motion` (the seed's moving-objects example). The
/// moved copy only matters along directions with `d · motion > 0`
/// (Ericson, Real-Time Collision Detection, p. 409).
///
/// Vertex indices: `2i` is vertex `i` at the start, `2i + 1` at the end.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Swept<T, V> {
    /// The moving shape, at its start.
    pub shape: T,
    /// The translation over the step.
    pub(crate) motion: V,
}

impl<T, V: Space> Swept<T, V> {
    /// `shape` swept by `motion`; errors on a non-finite motion.
    pub fn new(shape: T, motion: V) -> Result<Self, ShapeError> {
        Ok(Self { shape, motion: point(motion)? })
    }

    /// The translation the shape is swept along.
    #[inline]
    pub fn motion(&self) -> V {
        self.motion
    }

    #[inline]
    fn moved(&self, dir: V, p: V, i: u32) -> (V, u32) {
        let end = dir.dot(self.motion) > V::Scalar::ZERO;
        let idx = if i == NO_INDEX || i >= u32::MAX / 2 { NO_INDEX } else { 2 * i + end as u32 };
        (if end { p + self.motion } else { p }, idx)
    }

    /// The swept shape's vertex index `i` as the moving shape's.
    #[inline]
    fn shape_index(i: u32) -> u32 {
        if i == NO_INDEX { NO_INDEX } else { i / 2 }
    }

    #[inline]
    fn vertex_of(&self, index: u32, v: impl Fn(u32) -> Option<V>) -> Option<V> {
        v(index / 2).map(|p| if index % 2 == 1 { p + self.motion } else { p })
    }
}

impl<V: Space, T: SupportMap<V>> SupportMap<V> for Swept<T, V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.support_indexed(dir).0
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let (p, i) = self.shape.support_indexed(dir);
        self.moved(dir, p, i)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let (p, i) = self.shape.support_from(dir, Self::shape_index(hint));
        self.moved(dir, p, i)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.vertex_of(index, |i| self.shape.vertex(i))
    }
    #[inline]
    fn center(&self) -> Option<V> {
        let half = V::Scalar::ONE / (V::Scalar::ONE + V::Scalar::ONE);
        self.shape.center().map(|c| c + self.motion * half)
    }
}

impl<V: Space, T: Shape<V>> Shape<V> for Swept<T, V> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.shape.radius()
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        let (p, i) = self.shape.core_support(dir);
        self.moved(dir, p, i)
    }
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let (p, i) = self.shape.core_support_from(dir, Self::shape_index(hint));
        self.moved(dir, p, i)
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        self.vertex_of(index, |i| self.shape.core_vertex(i))
    }
}

/// The Minkowski sum `A ⊕ B` of two shapes: `s(d) = s_A(d) + s_B(d)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MinkowskiSum<A, B> {
    /// First summand.
    pub a: A,
    /// Second summand.
    pub b: B,
}

impl<A, B> MinkowskiSum<A, B> {
    /// `a ⊕ b`.
    pub fn new(a: A, b: B) -> Self {
        Self { a, b }
    }
}

impl<V: Space, A: SupportMap<V>, B: SupportMap<V>> SupportMap<V> for MinkowskiSum<A, B> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.a.support(dir) + self.b.support(dir)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(self.a.center()? + self.b.center()?)
    }
}

impl<V: Space, A: Shape<V>, B: Shape<V>> Shape<V> for MinkowskiSum<A, B> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.a.radius() + self.b.radius()
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        (self.a.core_support(dir).0 + self.b.core_support(dir).0, NO_INDEX)
    }
}
