//! Support mappings: the one thing GJK needs to know about a shape.

use crate::simplex::{NO_INDEX, SupportPoint};
use crate::vector::Vector;

/// A convex shape described by its support mapping.
///
/// `support(d)` returns a point of the shape that is furthest along `d`
/// (any maximiser of `p · d`). The direction need not be unit length and may
/// be zero, in which case any point of the shape is a valid answer.
///
/// Only [`support`](Self::support) is required. Shapes with numbered
/// vertices can also implement [`support_indexed`](Self::support_indexed)
/// and [`vertex`](Self::vertex), which let a warm-start cache rebuild the
/// last simplex by index instead of by repeated support calls, and
/// [`support_from`](Self::support_from), which lets a warm query's support
/// calls start their search at the cached vertices.
///
/// ```
/// use gjk_core::{SupportMap, glam::Vec2};
/// struct Disc { centre: Vec2, radius: f32 }
/// impl SupportMap<Vec2> for Disc {
///     fn support(&self, d: Vec2) -> Vec2 {
///         self.centre + d.normalize_or_zero() * self.radius
///     }
/// }
/// let p = Disc { centre: Vec2::ZERO, radius: 2.0 }.support(Vec2::new(0.0, 5.0));
/// assert_eq!(p, Vec2::new(0.0, 2.0));
/// ```
pub trait SupportMap<V: Vector> {
    /// A point of the shape furthest along `dir`.
    fn support(&self, dir: V) -> V;

    /// The support point and its vertex index ([`NO_INDEX`] when the shape
    /// has no numbered vertices).
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        (self.support(dir), NO_INDEX)
    }

    /// [`support_indexed`](Self::support_indexed), searching from vertex
    /// `hint`: an index this shape returned before, as a warm start has
    /// cached. Shapes that hill-climb over their vertices start the climb
    /// there, so when the answer has moved by a vertex or two since, they
    /// check a few neighbours instead of every vertex. Any maximiser is a
    /// valid answer (it may differ from `support_indexed`'s on ties). The
    /// default ignores the hint; so should a shape for an index it never
    /// returned (such as [`NO_INDEX`]).
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let _ = hint;
        self.support_indexed(dir)
    }

    /// The vertex with the given index, for shapes with numbered vertices.
    #[inline]
    fn vertex(&self, _index: u32) -> Option<V> {
        None
    }

    /// Any point of the shape, ideally near its middle. Queries start their
    /// search along the line between the two shapes' centres when both give
    /// one, which saves iterations; `None` (the default) starts along +X.
    #[inline]
    fn center(&self) -> Option<V> {
        None
    }

    /// Radii `(inner, outer)` about [`Self::center`]: the ball of radius
    /// `inner` around the centre lies inside the shape, and the shape inside
    /// the ball of radius `outer`. Queries that need no witness (the
    /// distance alone, the boolean test) settle pairs whose inner balls
    /// overlap deeply, or (the boolean) whose outer balls are apart,
    /// without a GJK iteration ([`crate::ball_test`]).
    /// `None` (the default): unknown. A value that overstates `inner` or
    /// understates `outer` gives wrong answers.
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        None
    }
}

impl<V: Vector, T: SupportMap<V> + ?Sized> SupportMap<V> for &T {
    #[inline]
    fn support(&self, dir: V) -> V {
        (**self).support(dir)
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        (**self).support_indexed(dir)
    }
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        (**self).support_from(dir, hint)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        (**self).vertex(index)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        (**self).center()
    }
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        (**self).center_radii()
    }
}

/// A point set is the support mapping of its convex hull (linear scan).
///
/// Dot products are taken relative to the first point, so a small shape far
/// from the origin picks its support vertex as accurately as near it.
///
/// An empty slice has no points: its support is NaN, which every query
/// reports as [`crate::Status::InvalidInput`]. A NaN or infinite coordinate
/// anywhere in the slice is likewise passed on, never silently skipped.
impl<V: Vector> SupportMap<V> for [V] {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.support_indexed(dir).0
    }

    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let Some(&first) = self.first() else {
            return (nan_vector(), NO_INDEX);
        };
        let mut best = first;
        let mut best_dot = V::Scalar::ZERO;
        let mut best_i = 0usize;
        // A NaN or infinite coordinate anywhere makes some dot product
        // non-finite (an infinity times a zero component is NaN).
        let mut bad = !first.is_finite() || !dir.is_finite();
        for (i, &p) in self.iter().enumerate().skip(1) {
            let d = (p - first).dot(dir);
            bad |= !d.is_finite();
            if d > best_dot {
                best = p;
                best_dot = d;
                best_i = i;
            }
        }
        if bad {
            // Report a bad coordinate instead of ignoring that vertex.
            return (nan_vector(), NO_INDEX);
        }
        (best, best_i as u32)
    }

    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.get(index as usize).copied()
    }

    /// The first point: a point of the hull, found in O(1).
    #[inline]
    fn center(&self) -> Option<V> {
        self.first().copied()
    }
}

impl<V: Vector, const N: usize> SupportMap<V> for [V; N] {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.as_slice().support(dir)
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        self.as_slice().support_indexed(dir)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.as_slice().vertex(index)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        self.as_slice().center()
    }
}

/// A vector whose coordinates are all NaN.
#[inline]
fn nan_vector<V: Vector>() -> V {
    V::X * V::Scalar::NAN
}

use crate::real::Real;

/// A support mapping given by a closure; see [`support_fn`].
#[derive(Clone, Copy, Debug)]
pub struct SupportFn<F>(pub F);

impl<V: Vector, F: Fn(V) -> V> SupportMap<V> for SupportFn<F> {
    #[inline]
    fn support(&self, dir: V) -> V {
        (self.0)(dir)
    }
}

/// Wraps a closure `|direction| -> furthest point` as a [`SupportMap`].
///
/// ```
/// use gjk_core::{support_fn, glam::DVec3};
/// let ball = support_fn(|d: DVec3| d.normalize_or_zero() * 0.5);
/// let far = support_fn(|d: DVec3| DVec3::new(3.0, 0.0, 0.0) + d.normalize_or_zero());
/// let r = gjk_core::distance(&ball, &far);
/// assert!((r.distance - 1.5).abs() < 1e-6);
/// ```
#[inline]
pub fn support_fn<V: Vector, F: Fn(V) -> V>(f: F) -> SupportFn<F> {
    SupportFn(f)
}

/// The support point of the Minkowski difference `A − B` along `dir`:
/// `a = s_A(dir)`, `b = s_B(−dir)`.
#[inline]
pub fn minkowski_support<V, A, B>(a: &A, b: &B, dir: V) -> SupportPoint<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, ia) = a.support_indexed(dir);
    let (pb, ib) = b.support_indexed(-dir);
    SupportPoint::with_indices(pa, ia, pb, ib)
}

/// [`minkowski_support`] with each shape searched from a vertex it returned
/// before (`hint`: on A, on B; see [`SupportMap::support_from`]). Warm-started
/// queries pass their cached vertices.
#[inline]
pub fn minkowski_support_from<V, A, B>(a: &A, b: &B, dir: V, hint: (u32, u32)) -> SupportPoint<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (pa, ia) = a.support_from(dir, hint.0);
    let (pb, ib) = b.support_from(-dir, hint.1);
    SupportPoint::with_indices(pa, ia, pb, ib)
}

/// A support mapping in `V` seen in `V::Lanes`: the queries' adapter when
/// they compute in the SIMD-aligned type (see [`Vector::Lanes`]). Each call
/// converts the direction to `V` and the answer back.
///
/// ```
/// use gjk_core::{InLanes, SupportMap, glam::{Vec3, Vec3A}};
/// let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
/// let lanes = InLanes::<Vec3, _>::new(&tetra[..]);
/// assert_eq!(lanes.support(Vec3A::new(0.0, 2.0, 1.0)), Vec3A::Y);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct InLanes<'a, V, T: ?Sized>(&'a T, core::marker::PhantomData<V>);

impl<'a, V, T: ?Sized> InLanes<'a, V, T> {
    /// Wraps `shape`.
    #[inline(always)]
    pub fn new(shape: &'a T) -> Self {
        Self(shape, core::marker::PhantomData)
    }
}

impl<V: Vector, T: SupportMap<V> + ?Sized> SupportMap<V::Lanes> for InLanes<'_, V, T> {
    #[inline(always)]
    fn support(&self, dir: V::Lanes) -> V::Lanes {
        self.0.support(V::from_lanes(dir)).to_lanes()
    }
    #[inline(always)]
    fn support_indexed(&self, dir: V::Lanes) -> (V::Lanes, u32) {
        let (p, i) = self.0.support_indexed(V::from_lanes(dir));
        (p.to_lanes(), i)
    }
    #[inline(always)]
    fn support_from(&self, dir: V::Lanes, hint: u32) -> (V::Lanes, u32) {
        let (p, i) = self.0.support_from(V::from_lanes(dir), hint);
        (p.to_lanes(), i)
    }
    #[inline(always)]
    fn vertex(&self, index: u32) -> Option<V::Lanes> {
        self.0.vertex(index).map(V::to_lanes)
    }
    #[inline(always)]
    fn center(&self) -> Option<V::Lanes> {
        self.0.center().map(V::to_lanes)
    }
    #[inline(always)]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.0.center_radii()
    }
}
