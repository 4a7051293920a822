//! The [`Shape`] trait (a support mapping with a round-core split) and the
//! construction errors.

pub use crate::error::ShapeError;
use gjk_core::internal::{Climb, Search};
use gjk_core::{NO_INDEX, Real, SupportMap, Vector};

use crate::obb::BoxView;
use crate::packed::PackedPoints;
use crate::space::Space;

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

    /// The core as a convex polygon of at least three vertices, for exact
    /// 2D polygon algorithms (the contact query's separating-axis test);
    /// `None` (the default) for every other shape.
    #[inline]
    fn core_polygon(&self) -> Option<PolygonView<'_, V>> {
        None
    }

    /// The core as a box ([`crate::Cuboid`], through `&`, `Placed` and
    /// `Rounded`), for the separating-axis test of box pairs; `None` (the
    /// default) for every other shape.
    #[inline]
    fn core_box(&self) -> Option<BoxView<V>> {
        None
    }

    /// The core as a segment or a point (a [`crate::Capsule`]'s, a
    /// [`crate::Ball`]'s; through `&`, `Placed` and `Rounded`), written as a
    /// box of zero width ([`BoxView`] with zero half extents across it), for
    /// the separating-axis test against a box ([`crate::internal::box_cores`]) and the
    /// closed-form closest points of two such cores
    /// ([`crate::internal::closest_on_segments`]); `None` (the default) for every
    /// other shape. Against a solid box the test's axes stay complete: the
    /// segment has no face of its own, and its direction's cross products
    /// with the box's edges are among them.
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        None
    }

    /// Radii `(inner, outer)` of the core about [`SupportMap::center`]
    /// (see [`SupportMap::center_radii`]): by default the shape's own when
    /// it has no radius (it is its own core), else unknown.
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        if self.radius() == V::Scalar::ZERO { self.center_radii() } else { None }
    }

    /// A line the core is unchanged by turning about, `(point, unit
    /// direction)` in the shape's frame: a cylinder's, cone's or capsule's
    /// axis, a segment's line, any line through a ball's centre. Nonlinear
    /// casts count a turn about it as no turn (a wheel rolling on a road
    /// moves none of its rim towards the road). `None` (the default):
    /// none known.
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        None
    }

    /// [`SupportMap::support_search`] on the core: by default the answer of
    /// [`Self::core_support`] (or [`Self::core_support_from`] with a hint),
    /// done. Shapes that are their own core and climb override it, with
    /// [`Self::core_climb_step`] and [`Self::core_vertex`] to match.
    #[inline(always)]
    fn core_support_search(&self, dir: V, hint: u32) -> Search<V> {
        let (p, i) =
            if hint == NO_INDEX { self.core_support(dir) } else { self.core_support_from(dir, hint) };
        Search::Done(p, i)
    }

    /// [`SupportMap::climb_step`] on the core (the default, for cores that
    /// never climb, returns `true`).
    #[inline(always)]
    fn core_climb_step(&self, climb: &mut Climb<V>) -> bool {
        let _ = climb;
        true
    }
}

/// A convex polygon of at least three vertices placed in a frame: the
/// vertices and edge normals stored in the polygon's own frame, and the
/// rigid map from that frame to the frame of the shape that returned it
/// ([`Shape::core_polygon`]). Read it through [`Self::vertex`] and
/// [`Self::normal`].
#[derive(Clone, Copy, Debug)]
pub struct PolygonView<'a, V: Vector> {
    /// Vertices, counter-clockwise, in the polygon's own frame.
    pub vertices: &'a [V],
    /// Outward unit normal of edge `i` (vertex `i` to `i + 1`), own frame.
    pub normals: &'a [V],
    /// The own frame's x axis in the outer frame (unit).
    pub axis_x: V,
    /// The own frame's y axis in the outer frame (unit, `axis_x` turned by
    /// +90°).
    pub axis_y: V,
    /// The own frame's origin in the outer frame.
    pub origin: V,
    /// The largest distance of a vertex from the own frame's origin.
    pub reach: V::Scalar,
    /// The vertices in blocks, for branch-free scans.
    pub(crate) packed: &'a PackedPoints<V::Scalar>,
    /// The edge normals in blocks, for the separating-axis test.
    pub(crate) packed_normals: &'a PackedPoints<V::Scalar>,
    /// Whether the edges are long enough for strict climbs
    /// (`polygon::edges_resolved`).
    pub(crate) resolved: bool,
    /// The shortest edge's length (the boundary walk's certificate).
    pub(crate) min_edge: V::Scalar,
    /// A vertex near the support for each 45° sector of directions (own
    /// frame), where hill climbing starts.
    pub(crate) start: &'a [u32; 8],
}

impl<V: Space> PolygonView<'_, V> {
    /// Vertex `i` in the outer frame.
    #[inline]
    pub fn vertex(&self, i: usize) -> V {
        let p = self.vertices[i];
        self.axis_x * p.component(0) + self.axis_y * p.component(1) + self.origin
    }

    /// Edge `i`'s outward unit normal in the outer frame.
    #[inline]
    pub fn normal(&self, i: usize) -> V {
        let n = self.normals[i];
        self.axis_x * n.component(0) + self.axis_y * n.component(1)
    }

    /// The smallest `x·dx + y·dy` over the vertices `(x, y)` in the own
    /// frame: how low the polygon reaches along a direction given in its
    /// own frame (a branch-free scan).
    #[inline]
    pub fn lowest(&self, dx: V::Scalar, dy: V::Scalar) -> V::Scalar {
        self.packed.min_dot2(dx, dy)
    }

    /// The index of a vertex attaining [`Self::lowest`] (the first).
    #[inline]
    pub fn lowest_vertex(&self, dx: V::Scalar, dy: V::Scalar) -> usize {
        self.packed.argmax(-(V::axis(0) * dx + V::axis(1) * dy))
    }

    /// The largest signed distance of `other` from this polygon's edge
    /// lines, over its edges: `(separation, edge)` with `separation` the
    /// largest `min_q n·q − n·p` (`n` the edge's outward normal, `p` its
    /// first vertex, `q` over `other`'s vertices), in the shared outer
    /// frame. Positive: this edge line separates the polygons, so they are
    /// at least that far apart. Stops at the first edges beyond `stop`
    /// (pass infinity for the largest), in blocks of four. Both views must
    /// be finite and small enough that the products cannot overflow
    /// (coordinates below `√MAX`); the callers check.
    #[inline]
    pub fn face_separation(&self, other: &PolygonView<'_, V>, stop: V::Scalar) -> (V::Scalar, usize) {
        // M = R_otherᵀ R_self turns this frame's normals into the other's
        // frame; t is the other's origin in this frame (see
        // `PackedPoints::max_face_separation`).
        let rot = [
            other.axis_x.dot(self.axis_x),
            other.axis_x.dot(self.axis_y),
            other.axis_y.dot(self.axis_x),
            other.axis_y.dot(self.axis_y),
        ];
        let dt = other.origin - self.origin;
        let t = [self.axis_x.dot(dt), self.axis_y.dot(dt)];
        self.packed.max_face_separation(self.packed_normals, other.packed, rot, t, stop)
    }

    /// The largest signed distance of the point `q` (outer frame) from this
    /// polygon's edge lines: `(separation, edge)`, the first edge on ties.
    /// At most 0 when `q` lies in the polygon; else a lower bound on its
    /// distance, which is the distance when `q`'s foot falls within that
    /// edge. The view and `q` must be finite and small enough that the
    /// products cannot overflow (coordinates below `√MAX`); the callers
    /// check.
    #[inline]
    pub fn point_separation(&self, q: V) -> (V::Scalar, usize) {
        let r = q - self.origin;
        self.packed.max_point_separation(self.packed_normals, self.axis_x.dot(r), self.axis_y.dot(r))
    }

    /// The squared distance of the point `q` (outer frame) from edge `i`
    /// (the segment between its ends).
    #[inline]
    pub fn edge_distance_squared(&self, i: usize, q: V) -> V::Scalar {
        let next = if i + 1 == self.vertices.len() { 0 } else { i + 1 };
        let (s, e) = (self.vertex(i), self.vertex(next));
        let (edge, r) = (e - s, q - s);
        let (t, len2) = (r.dot(edge), edge.length_squared());
        let zero = V::Scalar::ZERO;
        // The foot's parameter clamped to the segment (a zero-length edge,
        // which hulls do not keep, counts as its first end).
        let foot = if t <= zero || len2 <= zero {
            s
        } else if t >= len2 {
            e
        } else {
            s + edge * (t / len2)
        };
        (q - foot).length_squared()
    }

    /// Whether `foot` (outer frame) lies within edge `i`, between its ends
    /// (it is taken to be on the edge's line).
    #[inline]
    pub fn edge_holds(&self, i: usize, foot: V) -> bool {
        let next = if i + 1 == self.vertices.len() { 0 } else { i + 1 };
        let (s, e) = (self.vertex(i), self.vertex(next));
        let t = (foot - s).dot(e - s);
        t >= V::Scalar::ZERO && t <= (e - s).length_squared()
    }

    /// The index of a vertex lowest along `n` (outer frame; the first).
    #[inline]
    pub fn lowest_along(&self, n: V) -> usize {
        self.lowest_vertex(self.axis_x.dot(n), self.axis_y.dot(n))
    }

    /// The index of a vertex furthest along `d` (outer frame; any of them
    /// on ties): a scan for up to two blocks of vertices, else hill climbing from
    /// the start vertex of `d`'s 45° sector (a local maximum of a linear
    /// function on a convex polygon is a maximum). A NaN `d` gives a vertex.
    #[inline]
    pub fn support_along(&self, d: V) -> usize {
        let (dx, dy) = (self.axis_x.dot(d), self.axis_y.dot(d));
        let n = self.vertices.len();
        if n <= 2 * crate::packed::LANES {
            return self.packed.argmax_of([dx, dy, V::Scalar::ZERO], 2);
        }
        let zero = V::Scalar::ZERO;
        // The sector, counted counter-clockwise from +x, as `polygon::sector`.
        let sector = match (dy >= zero, dx >= zero, dx.abs() >= dy.abs()) {
            (true, true, true) => 0,
            (true, true, false) => 1,
            (true, false, false) => 2,
            (true, false, true) => 3,
            (false, false, true) => 4,
            (false, false, false) => 5,
            (false, true, false) => 6,
            (false, true, true) => 7,
        };
        let h = |i: usize| {
            let p = self.vertices[i];
            p.component(0) * dx + p.component(1) * dy
        };
        let start = (self.start[sector] as usize).min(n - 1);
        if self.resolved {
            return crate::geometry::climb_strict(n, start, h);
        }
        let slack = crate::geometry::climb_slack(self.reach, dx.abs() + dy.abs());
        crate::geometry::climb_ring(n, start, h, slack)
    }

    /// The same polygon seen from a frame in which the outer frame has
    /// rotation `rotate` (a linear map, applied to the axes) and origin
    /// `origin`.
    #[inline]
    pub fn mapped(&self, rotate: impl Fn(V) -> V, origin: V) -> Self {
        Self {
            axis_x: rotate(self.axis_x),
            axis_y: rotate(self.axis_y),
            origin: rotate(self.origin) + origin,
            ..*self
        }
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
    #[inline]
    fn core_polygon(&self) -> Option<PolygonView<'_, V>> {
        (**self).core_polygon()
    }
    #[inline]
    fn core_box(&self) -> Option<BoxView<V>> {
        (**self).core_box()
    }
    #[inline]
    fn core_segment(&self) -> Option<BoxView<V>> {
        (**self).core_segment()
    }
    #[inline]
    fn core_center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        (**self).core_center_radii()
    }
    #[inline]
    fn core_axis(&self) -> Option<(V, V)> {
        (**self).core_axis()
    }
    #[inline(always)]
    fn core_support_search(&self, dir: V, hint: u32) -> Search<V> {
        (**self).core_support_search(dir, hint)
    }
    #[inline(always)]
    fn core_climb_step(&self, climb: &mut Climb<V>) -> bool {
        (**self).core_climb_step(climb)
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
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.0.core_center_radii()
    }
    #[inline(always)]
    fn support_search(&self, dir: V, hint: u32) -> Search<V> {
        self.0.core_support_search(dir, hint)
    }
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V>) -> bool {
        self.0.core_climb_step(climb)
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
