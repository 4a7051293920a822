//! Convex polygons (2D): the hull of a point set, counter-clockwise, with a
//! hill-climbing support mapping as in the barycode paper.
//!
//! Vertices by monotone chain in f64, counter-clockwise. Supports: a packed
//! scan up to `POLYGON_SCAN_LIMIT` vertices, hill climbing from an 8-sector
//! start table above it, and from a warm start's hint always. The climbs
//! (`climb_ring`, shared with `PolygonView::support_along`) walk on through
//! heights within `POLYGON_CLIMB_SLACK_ULPS` of the best so far and keep the
//! best: near-duplicate vertices, which the hull keeps, tie or dip by
//! rounding mid-slope, where a strict climb stopped.

use gjk_core::glam::DVec2;
use gjk_core::internal::Vector2;
use gjk_core::{Real, SupportMap, Vector};

use crate::geometry::{argmax, ball_radii, climb_ring, climb_slack, climb_strict, monotone_chain};
use crate::packed::PackedPoints;
use crate::shape::{PolygonView, Shape, ShapeError};
use crate::space::Space;

/// Polygons with at most this many vertices use a linear scan; larger ones
/// climb from a precomputed start vertex. The packed one-pass scan has no
/// data-dependent branch and vectorises; the climb's branches (which way,
/// how far) are data-dependent. Break-even measured near 64–96 vertices
/// (docs/decisions.md), so 48 keeps a margin.
pub const POLYGON_SCAN_LIMIT: usize = 48;

/// Start-vertex buckets for hill climbing: one per 45° sector.
const SECTORS: usize = 8;

/// A convex polygon: the convex hull of the points it was built from,
/// counter-clockwise, without collinear or repeated vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon<V: Vector> {
    vertices: Vec<V>,
    /// The vertices in structure-of-arrays blocks (the scan's input).
    packed: PackedPoints<V::Scalar>,
    /// Outward unit normal of edge `i` (from vertex `i` to `i + 1`).
    normals: Vec<V>,
    /// The normals in blocks, as `packed` (the separating-axis test's input).
    packed_normals: PackedPoints<V::Scalar>,
    /// Best vertex along the middle direction of each 45° sector.
    start: [u32; SECTORS],
    centroid: V,
    /// The largest distance of a vertex from the origin.
    reach: V::Scalar,
    /// Whether the edges are long enough for strict climbs
    /// ([`edges_resolved`]).
    resolved: bool,
    /// The shortest edge's length (the boundary walk's certificate runs
    /// where B's edges are short against the coordinates).
    min_edge: V::Scalar,
    /// Inner and outer radii about the centroid ([`SupportMap::center_radii`]).
    radii: Option<(V::Scalar, V::Scalar)>,
}

impl<V: Space + Vector2> ConvexPolygon<V> {
    /// The convex hull of `points`. Errors on no points or NaN/inf. One
    /// distinct point gives a one-vertex polygon, collinear points a
    /// two-vertex one (a segment).
    pub fn new(points: &[V]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NonFinite);
        }
        let p64: Vec<DVec2> = points.iter().map(|p| DVec2::new(p.x().to_f64(), p.y().to_f64())).collect();
        let order = monotone_chain(&p64);
        let vertices: Vec<V> = order.iter().map(|&i| points[i]).collect();
        Ok(Self::from_hull(vertices))
    }

    /// Builds from vertices already in convex, counter-clockwise order.
    fn from_hull(vertices: Vec<V>) -> Self {
        let n = vertices.len();
        let mut normals = Vec::with_capacity(n);
        for i in 0..n {
            let e = vertices[(i + 1) % n] - vertices[i];
            let out = V::new2(e.y(), -e.x());
            normals.push(out.try_normalize().unwrap_or(V::X));
        }
        let inv = V::Scalar::ONE / V::Scalar::from_f64(n as f64);
        let centroid = vertices.iter().fold(V::ZERO, |s, p| s + *p) * inv;
        let mut start = [0u32; SECTORS];
        for (k, s) in start.iter_mut().enumerate() {
            let a = (k as f64 + 0.5) * core::f64::consts::TAU / SECTORS as f64;
            let d = V::new2(V::Scalar::from_f64(a.cos()), V::Scalar::from_f64(a.sin()));
            *s = argmax(&vertices, d) as u32;
        }
        let reach = vertices.iter().map(|p| p.length()).fold(V::Scalar::ZERO, |r, l| r.max(l));
        let min_edge = (0..n)
            .map(|i| (vertices[(i + 1) % n] - vertices[i]).length())
            .fold(V::Scalar::INFINITY, |m, l| m.min(l));
        let resolved = edges_resolved(min_edge, reach);
        let radii = polygon_radii(&vertices, centroid);
        Self {
            packed: PackedPoints::new(&vertices),
            packed_normals: PackedPoints::new(&normals),
            vertices,
            normals,
            start,
            centroid,
            reach,
            resolved,
            min_edge,
            radii,
        }
    }

    /// The vertices, counter-clockwise.
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// Outward unit edge normals (edge `i` runs from vertex `i` to `i + 1`).
    pub fn normals(&self) -> &[V] {
        &self.normals
    }

    /// Support by hill climbing from the sector's start vertex: walk to the
    /// neighbour with the larger dot product until neither is larger. On a
    /// convex polygon the local maximum is global; each step strictly
    /// increases the dot product, so at most `n` steps are taken.
    pub fn support_climb(&self, dir: V) -> usize {
        self.climb_from(self.start[sector(dir)] as usize, dir)
    }

    /// Hill climbing along the boundary from vertex `from`
    /// ([`climb_strict`], or [`climb_ring`] with near-duplicate vertices).
    /// Forced inline: with two callers (`support_climb`, `support_from`)
    /// the compiler kept it out of line (the 2D 16-gon rows of
    /// `gjk-bench compare`).
    #[inline(always)]
    fn climb_from(&self, from: usize, dir: V) -> usize {
        let h = |i: usize| self.vertices[i].dot(dir);
        if self.resolved {
            return climb_strict(self.vertices.len(), from, h);
        }
        let slack = climb_slack(self.reach, dir.x().abs() + dir.y().abs());
        climb_ring(self.vertices.len(), from, h, slack)
    }

    /// Support by linear scan (the reference for [`Self::support_climb`]).
    pub fn support_scan(&self, dir: V) -> usize {
        argmax(&self.vertices, dir)
    }
}

/// Edges this many ulps of the reach long or longer tell their vertices'
/// heights apart along any direction away from their normal, so that a
/// strict climb ([`climb_strict`]) cannot stop mid-slope; polygons with a
/// shorter edge climb with slack ([`climb_ring`]).
pub const POLYGON_EDGE_RESOLVED_ULPS: f64 = 4096.0;

/// Whether a polygon's shortest edge is long enough for [`climb_strict`]
/// ([`POLYGON_EDGE_RESOLVED_ULPS`]).
#[inline(always)]
pub(crate) fn edges_resolved<S: Real>(min_edge: S, reach: S) -> bool {
    min_edge > S::from_f64(POLYGON_EDGE_RESOLVED_ULPS) * S::EPSILON * reach
}

/// Index of the 45° sector holding `d` (any sector for a zero or NaN `d`).
#[inline]
fn sector<V: Vector2>(d: V) -> usize {
    let (x, y) = (d.x(), d.y());
    let z = V::Scalar::ZERO;
    // Sectors counted counter-clockwise from +X, each 45° wide.
    match (y >= z, x >= z, x.abs() >= y.abs()) {
        (true, true, true) => 0,
        (true, true, false) => 1,
        (true, false, false) => 2,
        (true, false, true) => 3,
        (false, false, true) => 4,
        (false, false, false) => 5,
        (false, true, false) => 6,
        (false, true, true) => 7,
    }
}

impl<V: Space + Vector2> SupportMap<V> for ConvexPolygon<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.support_indexed(dir).0
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let i = if self.vertices.len() <= POLYGON_SCAN_LIMIT {
            self.packed.argmax(dir)
        } else {
            self.support_climb(dir)
        };
        (self.vertices[i], i as u32)
    }
    /// Climbs along the boundary from `hint`: from a vertex near the
    /// answer (a warm start's) that checks two or three vertices. Without
    /// a valid hint it scans or climbs as `support_indexed` (written out
    /// again rather than called, which kept the cold path's code as it
    /// was).
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let from = if (hint as usize) < self.vertices.len() {
            hint as usize
        } else if self.vertices.len() <= POLYGON_SCAN_LIMIT {
            let i = self.packed.argmax(dir);
            return (self.vertices[i], i as u32);
        } else {
            self.start[sector(dir)] as usize
        };
        let i = self.climb_from(from, dir);
        (self.vertices[i], i as u32)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        self.vertices.get(index as usize).copied()
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(self.centroid)
    }
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.radii
    }
}
impl<V: Space + Vector2> Shape<V> for ConvexPolygon<V> {
    #[inline]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        self.support_from(dir, hint)
    }
    #[inline]
    fn core_polygon(&self) -> Option<PolygonView<'_, V>> {
        let (z, one) = (V::Scalar::ZERO, V::Scalar::ONE);
        (self.vertices.len() >= 3).then(|| PolygonView {
            vertices: &self.vertices,
            normals: &self.normals,
            axis_x: V::new2(one, z),
            axis_y: V::new2(z, one),
            origin: V::ZERO,
            reach: self.reach,
            resolved: self.resolved,
            min_edge: self.min_edge,
            packed: &self.packed,
            packed_normals: &self.packed_normals,
            start: &self.start,
        })
    }
}

/// `(inner, outer)` radii about `c` of the counter-clockwise polygon
/// `vertices` (see [`ball_radii`]): `c`'s least distance to an
/// edge line and greatest to a vertex, in `f64`. `None` below three
/// vertices and when `c` is not inside by the margin.
fn polygon_radii<V: Space + Vector2>(vertices: &[V], c: V) -> Option<(V::Scalar, V::Scalar)> {
    let n = vertices.len();
    if n < 3 {
        return None;
    }
    let p = |v: V| DVec2::new(v.x().to_f64(), v.y().to_f64());
    let c64 = p(c);
    let mut inner = f64::INFINITY;
    // Bounded by the edge count.
    for i in 0..n {
        let (a, b) = (p(vertices[i]), p(vertices[(i + 1) % n]));
        let e = b - a;
        let len = e.length();
        if len > 0.0 {
            // Outward normal (e.y, −e.x) of a counter-clockwise edge.
            inner = inner.min((e.y * (a.x - c64.x) - e.x * (a.y - c64.y)) / len);
        }
    }
    let outer = vertices.iter().map(|&v| (p(v) - c64).length()).fold(0.0, f64::max);
    ball_radii(inner, outer)
}
