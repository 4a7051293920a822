//! Primitive shapes, each in its local frame (place them with a
//! [`crate::Pose`]). Round ones report a core and a radius; shapes with
//! corners number them for warm starting.

use gjk_core::internal::Vector3;
use gjk_core::{NO_INDEX, Real, SupportMap, Vector};

use crate::geometry::argmax;
use crate::obb::BoxView;
use crate::shape::{Shape, ShapeError, point, radius, size};
use crate::space::{Space, half};

/// A single point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Point<V> {
    /// Where it is.
    pub(crate) p: V,
}

impl<V: Space> Point<V> {
    /// A point; errors on NaN/inf.
    pub fn new(p: V) -> Result<Self, ShapeError> {
        Ok(Self { p: point(p)? })
    }

    /// Where it is.
    #[inline]
    pub fn position(&self) -> V {
        self.p
    }
}

impl<V: Space> SupportMap<V> for Point<V> {
    #[inline]
    fn support(&self, _dir: V) -> V {
        self.p
    }
    #[inline]
    fn support_indexed(&self, _dir: V) -> (V, u32) {
        (self.p, 0)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        (index == 0).then_some(self.p)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(self.p)
    }
}
impl<V: Space> Shape<V> for Point<V> {
    /// Any line through the point.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        Some((self.p, V::axis(1)))
    }
}

/// A ball centred at the origin: a sphere in 3D, a circle in 2D.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ball<S> {
    /// Radius (≥ 0).
    pub(crate) radius: S,
}

/// A sphere (a [`Ball`] in 3D).
pub type Sphere<S> = Ball<S>;
/// A circle (a [`Ball`] in 2D).
pub type Circle<S> = Ball<S>;

impl<S: Real> Ball<S> {
    /// A ball of the given radius; errors on a negative or non-finite one.
    pub fn new(r: S) -> Result<Self, ShapeError> {
        Ok(Self { radius: radius(r)? })
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> S {
        self.radius
    }
}

/// `d / |d| · r`, or zero for a zero direction.
#[inline]
fn scaled_unit<V: Vector>(d: V, r: V::Scalar) -> V {
    d.try_normalize().map_or(V::ZERO, |u| u * r)
}

impl<V: Space> SupportMap<V> for Ball<V::Scalar> {
    #[inline]
    fn support(&self, dir: V) -> V {
        scaled_unit(dir, self.radius)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(V::ZERO)
    }
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        // A radius set by hand to a negative or NaN value names no ball.
        (self.radius >= V::Scalar::ZERO).then_some((self.radius, self.radius))
    }
}
impl<V: Space> Shape<V> for Ball<V::Scalar> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.radius
    }
    #[inline]
    fn core_support(&self, _dir: V) -> (V, u32) {
        (V::ZERO, 0)
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        (index == 0).then_some(V::ZERO)
    }
    /// The core is the centre: both radii 0.
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        Some((V::Scalar::ZERO, V::Scalar::ZERO))
    }
    /// Any line through the centre.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        Some((V::ZERO, V::axis(1)))
    }
    /// The centre: a box of no extent.
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        Some(BoxView::aligned(V::ZERO))
    }
}

/// A capsule along the local Y axis: the segment from `−half_height·Y` to
/// `+half_height·Y`, rounded by `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Capsule<S> {
    /// Half the length of the core segment (≥ 0).
    pub(crate) half_height: S,
    /// Radius (≥ 0).
    pub(crate) radius: S,
}

impl<S: Real> Capsule<S> {
    /// A capsule; errors on negative or non-finite sizes.
    pub fn new(half_height: S, r: S) -> Result<Self, ShapeError> {
        let hh = crate::shape::finite(half_height)?;
        if hh < S::ZERO {
            return Err(ShapeError::NonPositiveSize);
        }
        Ok(Self { half_height: hh, radius: radius(r)? })
    }

    /// Half the length of the core segment (along local Y).
    #[inline]
    pub fn half_height(&self) -> S {
        self.half_height
    }

    /// The radius about the core segment.
    #[inline]
    pub fn radius(&self) -> S {
        self.radius
    }

    /// The core segment's end points `(bottom, top)`.
    #[inline]
    pub fn segment<V: Space<Scalar = S>>(&self) -> (V, V) {
        let up = V::axis(1) * self.half_height;
        (-up, up)
    }
}

impl<V: Space> SupportMap<V> for Capsule<V::Scalar> {
    #[inline]
    fn support(&self, dir: V) -> V {
        Shape::core_support(self, dir).0 + scaled_unit(dir, self.radius)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(V::ZERO)
    }
    /// The ball of the radius at the centre; the ends' reach outside.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        let valid = (self.radius >= V::Scalar::ZERO) & (self.half_height >= V::Scalar::ZERO);
        valid.then_some((self.radius, self.half_height + self.radius))
    }
}
impl<V: Space> Shape<V> for Capsule<V::Scalar> {
    #[inline]
    fn radius(&self) -> V::Scalar {
        self.radius
    }
    #[inline]
    fn core_support(&self, dir: V) -> (V, u32) {
        let (bottom, top) = self.segment::<V>();
        if dir.component(1) >= V::Scalar::ZERO { (top, 1) } else { (bottom, 0) }
    }
    #[inline]
    fn core_vertex(&self, index: u32) -> Option<V> {
        let (bottom, top) = self.segment::<V>();
        match index {
            0 => Some(bottom),
            1 => Some(top),
            _ => None,
        }
    }
    /// The core segment holds its centre (inner radius 0) and reaches
    /// `half_height` from it.
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        // A size set by hand to a negative or NaN value names no ball.
        (self.half_height >= V::Scalar::ZERO).then_some((V::Scalar::ZERO, self.half_height))
    }
    /// The core segment's line, local Y.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        Some((V::ZERO, V::axis(1)))
    }
    /// The core segment: a box of zero width along local Y.
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        Some(BoxView::aligned(V::axis(1) * self.half_height))
    }
}

/// A segment between two points.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Segment<V> {
    /// The end points.
    pub(crate) points: [V; 2],
}

impl<V: Space> Segment<V> {
    /// A segment; errors on NaN/inf. Equal end points make a point.
    pub fn new(a: V, b: V) -> Result<Self, ShapeError> {
        Ok(Self { points: [point(a)?, point(b)?] })
    }

    /// The two end points.
    #[inline]
    pub fn points(&self) -> [V; 2] {
        self.points
    }
}

impl<V: Space> SupportMap<V> for Segment<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.points[argmax(&self.points, dir)]
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let i = argmax(&self.points, dir);
        (self.points[i], i as u32)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.points.get(index as usize).copied()
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some((self.points[0] + self.points[1]) * half())
    }
}
impl<V: Space> Shape<V> for Segment<V> {
    /// The segment's line (any line through it where its ends coincide).
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        let [a, b] = self.points;
        Some((a, (b - a).try_normalize().unwrap_or(V::axis(1))))
    }
}

/// A triangle (2D or 3D).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Triangle<V> {
    /// The corners.
    pub(crate) points: [V; 3],
}

impl<V: Space> Triangle<V> {
    /// A triangle; errors on NaN/inf. Degenerate triangles are allowed.
    pub fn new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        Ok(Self { points: [point(a)?, point(b)?, point(c)?] })
    }

    /// The three corners.
    #[inline]
    pub fn points(&self) -> [V; 3] {
        self.points
    }
}

impl<V: Space> SupportMap<V> for Triangle<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.points[argmax(&self.points, dir)]
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let i = argmax(&self.points, dir);
        (self.points[i], i as u32)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.points.get(index as usize).copied()
    }
    #[inline]
    fn center(&self) -> Option<V> {
        let third = V::Scalar::ONE / (V::Scalar::ONE + V::Scalar::ONE + V::Scalar::ONE);
        Some((self.points[0] + self.points[1] + self.points[2]) * third)
    }
}
impl<V: Space> Shape<V> for Triangle<V> {}

/// A box centred at the origin: a cuboid in 3D, a rectangle in 2D.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Cuboid<V> {
    /// Half the size along each axis (all positive).
    pub(crate) half_extents: V,
}

/// A rectangle (a [`Cuboid`] in 2D).
pub type Rectangle<V> = Cuboid<V>;

impl<V: Space> Cuboid<V> {
    /// A box; errors on a zero, negative or non-finite half extent.
    pub fn new(half_extents: V) -> Result<Self, ShapeError> {
        for i in 0..V::DIM {
            size(half_extents.component(i))?;
        }
        Ok(Self { half_extents })
    }

    /// Half the side lengths.
    #[inline]
    pub fn half_extents(&self) -> V {
        self.half_extents
    }

    /// Corner `index`: bit `k` set means the negative side along axis `k`.
    #[inline]
    pub fn corner(&self, index: u32) -> V {
        let mut sign = V::ZERO;
        for k in 0..V::DIM {
            let s = if index & (1 << k) != 0 { -V::Scalar::ONE } else { V::Scalar::ONE };
            sign = sign + V::axis(k) * s;
        }
        V::copysign(self.half_extents, sign)
    }

    /// Number of corners (4 or 8).
    #[inline]
    pub fn corner_count(&self) -> u32 {
        1 << V::DIM
    }
}

impl<V: Space> SupportMap<V> for Cuboid<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        V::copysign(self.half_extents, dir)
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let p = V::copysign(self.half_extents, dir);
        let mut index = 0;
        for k in 0..V::DIM {
            if p.component(k) < V::Scalar::ZERO {
                index |= 1 << k;
            }
        }
        (p, index)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        (index < self.corner_count()).then(|| self.corner(index))
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(V::ZERO)
    }
    /// The smallest half extent inside, the half diagonal outside.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        let inner = self.half_extents.min_elem();
        (inner > V::Scalar::ZERO).then(|| (inner, self.half_extents.length()))
    }
}
impl<V: Space> Shape<V> for Cuboid<V> {
    #[inline]
    fn core_box(&self) -> Option<BoxView<V>> {
        Some(BoxView::aligned(self.half_extents))
    }
}

/// A solid cylinder along the local Y axis (3D).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Cylinder<S> {
    /// Half the height (> 0).
    pub(crate) half_height: S,
    /// Radius (> 0).
    pub(crate) radius: S,
}

impl<S: Real> Cylinder<S> {
    /// A cylinder; errors on zero, negative or non-finite sizes.
    pub fn new(half_height: S, radius: S) -> Result<Self, ShapeError> {
        Ok(Self { half_height: size(half_height)?, radius: size(radius)? })
    }

    /// Half the height (along local Y).
    #[inline]
    pub fn half_height(&self) -> S {
        self.half_height
    }

    /// The radius of its discs (a cylinder is sharp: [`Shape::radius`] is 0).
    #[inline]
    pub fn disc_radius(&self) -> S {
        self.radius
    }
}

/// The radial part `(x, 0, z)` of `d`, scaled to length `r` (zero if `d`
/// is along Y).
#[inline]
fn radial<V: Space + Vector3>(d: V, r: V::Scalar) -> V {
    let z = V::Scalar::ZERO;
    scaled_unit(V::new3(d.component(0), z, d.component(2)), r)
}

impl<V: Space + Vector3> SupportMap<V> for Cylinder<V::Scalar> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let y = if dir.component(1) >= V::Scalar::ZERO { self.half_height } else { -self.half_height };
        radial(dir, self.radius) + V::axis(1) * y
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(V::ZERO)
    }
}
impl<V: Space + Vector3> Shape<V> for Cylinder<V::Scalar> {
    /// Local Y.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        Some((V::ZERO, V::axis(1)))
    }
}

/// A solid cone along the local Y axis (3D): apex at `+half_height·Y`, base
/// disc of `radius` at `−half_height·Y`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Cone<S> {
    /// Half the height (> 0).
    pub(crate) half_height: S,
    /// Base radius (> 0).
    pub(crate) radius: S,
}

impl<S: Real> Cone<S> {
    /// A cone; errors on zero, negative or non-finite sizes.
    pub fn new(half_height: S, radius: S) -> Result<Self, ShapeError> {
        Ok(Self { half_height: size(half_height)?, radius: size(radius)? })
    }

    /// Half the height (along local Y, apex at `+half_height`).
    #[inline]
    pub fn half_height(&self) -> S {
        self.half_height
    }

    /// The radius of its base (a cone is sharp: [`Shape::radius`] is 0).
    #[inline]
    pub fn base_radius(&self) -> S {
        self.radius
    }
}

impl<V: Space + Vector3> SupportMap<V> for Cone<V::Scalar> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let apex = V::axis(1) * self.half_height;
        let rim = radial(dir, self.radius) - apex;
        if apex.dot(dir) >= rim.dot(dir) { apex } else { rim }
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let apex = V::axis(1) * self.half_height;
        let rim = radial(dir, self.radius) - apex;
        if apex.dot(dir) >= rim.dot(dir) { (apex, 0) } else { (rim, NO_INDEX) }
    }
    /// Vertex 0 is the apex (the rim has no numbered vertices).
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        (index == 0).then(|| V::axis(1) * self.half_height)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(V::ZERO)
    }
}
impl<V: Space + Vector3> Shape<V> for Cone<V::Scalar> {
    /// Local Y.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        Some((V::ZERO, V::axis(1)))
    }
}
