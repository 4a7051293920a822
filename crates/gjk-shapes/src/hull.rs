//! Convex polyhedra (3D) from point clouds: quickhull in f64, vertex
//! adjacency for hill-climbing support, triangle faces with outward normals.
//!
//! # Construction
//!
//! Quickhull in f64 (outside sets as linked lists in one array, edge maps on
//! an integer hasher), then CSR vertex adjacency, and per vertex a record of
//! its coordinates beside up to `HULL_NODE_DEGREE` neighbours as `u16`
//! indices, which the climbs and the supports read: a step's neighbour record
//! is the next step's start, one load where the vertex array and the lists
//! made three (vertices of higher degree, and every vertex of a hull beyond
//! 65 536, climb through the lists). Coplanar triangles become polygons
//! (`polygons()`, used by contact manifolds, with the polygons at each vertex
//! as CSR, `polygons_at`) by a flood fill over shared edges from a seed
//! triangle: members have the seed's normal and lie on its plane to
//! `face_merge_tolerance` (1e-9 of the size, or 16 ulps of the coordinate
//! type when larger: f32 points are coplanar only to their rounding). Sliver
//! faces get their normals from a compensated cross product.
//!
//! # Supports
//!
//! A packed scan up to `HULL_SCAN_LIMIT` vertices (`packed.rs`); a
//! branch-free check of a warm start's hint against its ring of up to
//! `HULL_RING_DEGREE` neighbours (hulls of `HULL_RING_MIN` to
//! `HULL_RING_LIMIT` vertices: a hint no neighbour beats is the answer); hill
//! climbing from a warm start's hint above `HULL_HINT_CLIMB_LIMIT`; and cold
//! hill climbing above `HULL_SCAN_LIMIT` from a cube-map start table of about
//! `START_CELLS_PER_VERTEX` cells per vertex (`start_grid`, at most
//! `MAX_START_GRID`² per face). A cell whose four corners share one furthest
//! vertex is *pure* and answers without climbing (normal cones are convex).
//!
//! Climbs (and rings) run only on hulls where a local maximum is the answer:
//! - a closed 2-manifold with every vertex at most `HULL_FOLD_TOLERANCE` above
//!   every face's plane (checked through a box tree, about `log n` boxes a
//!   face): with near-duplicate points quickhull can close a folded surface
//!   that the topology passes, and climbs on it stop short;
//! - no edge shorter than `HULL_EDGE_RESOLVED_ULPS` ulps of the reach: the
//!   ends of a shorter edge can tie in height by rounding;
//! - no vertex inside a flat face (`has_flat_vertex`): along a direction into
//!   that face its neighbours tie with it (`climbs_leave_flat_faces`).
//!
//! Other hulls scan.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use gjk_core::glam::{DVec2, DVec3};
use gjk_core::internal::{Climb, Search, Vector3};
use gjk_core::{Real, SupportMap, Vector};

use crate::geometry::{argmax, ball_radii, monotone_chain};
use crate::packed::PackedPoints;
use crate::shape::{Shape, ShapeError};
use crate::space::Space;

/// Hulls with at most this many vertices use a linear scan; larger ones
/// hill-climb over the vertex graph from a cube-map start vertex. The
/// vectorised scan is branch-free and streams through memory; the climb
/// makes fewer instructions from 64 vertices on, but its steps mispredict
/// and chase pointers, so the scan stays faster up to here (the 64–256
/// vertex rows of `gjk-bench compare`; docs/decisions.md).
pub const HULL_SCAN_LIMIT: usize = 160;

/// Hulls with more vertices than this climb from a hint when a support call
/// names one (warm starts), even where a cold call would scan: a climb from
/// a vertex next to the answer checks a few neighbours; at 32 vertices
/// and fewer the scan is as fast (the warm rows of `gjk-bench compare`). (Up to
/// [`HULL_RING_LIMIT`] vertices the hint is first checked against its
/// ring; the climb or scan runs only where a neighbour beats it.)
pub const HULL_HINT_CLIMB_LIMIT: usize = 32;

/// Hulls with more vertices than this, and at most [`HULL_RING_LIMIT`],
/// keep each vertex's ring of neighbours ([`HULL_RING_DEGREE`] indices): a
/// support call with a hint (a warm start's vertex) first checks whether
/// the hint is still a maximiser, with no branch per neighbour; on a
/// convex polytope a vertex no neighbour beats is a global maximiser.
/// (At most this many vertices, a scan is the same eight products.)
pub const HULL_RING_MIN: usize = 8;

/// Most vertices of a hull with rings ([`HULL_RING_MIN`]): the rings hold
/// `u8` indices and a `u64` marks the vertices that have one.
pub const HULL_RING_LIMIT: usize = 64;

/// Neighbours a vertex's ring holds, padded with the vertex itself (which
/// never beats itself). Vertices of higher degree keep no ring: their
/// hinted calls climb or scan as before.
pub const HULL_RING_DEGREE: usize = 8;

/// Neighbours a hull's vertex record holds inline ([`ConvexHull`]'s
/// searches read the records): with its coordinates and degree, 32 bytes
/// for `f32` (two records per cache line; 64 bytes for `f64`). A vertex of
/// higher degree keeps its neighbours in the adjacency lists only.
pub const HULL_NODE_DEGREE: usize = 9;

/// The degree field of a record whose neighbours are not inline.
const NODE_OVERFLOW: u16 = u16::MAX;

/// A hull's vertex as the searches read it: the coordinates and the
/// neighbours (`u16` indices) side by side, so that the record a climb
/// reads to rate a neighbour is the one its next step starts from. A step
/// then waits on one load where the vertex array and the adjacency lists
/// made three dependent ones (offsets, list, coordinates), and a climb's
/// data shrinks from ~40 to 32 bytes a vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
struct VertexNode<V> {
    p: V,
    /// Neighbours held in `neighbours` ([`NODE_OVERFLOW`]: see the
    /// adjacency lists).
    degree: u16,
    neighbours: [u16; HULL_NODE_DEGREE],
}

/// Hulls with an edge shorter than this many ulps (of the vertices' scalar
/// type) of their reach do not climb (nor check rings); they scan. A climb
/// compares its vertices' heights, each rounded by a few ulps of the reach:
/// the two ends of such an edge can tie or misorder by rounding, and a
/// climb that must pass from one to the other stops there, anywhere on the
/// hull (fuzz seed 1607516: an f32 hull of a sphere 1e6 across whose
/// vertex 31 sat 1 ulp from vertex 30, joined to it and to two others;
/// from 31, hinted climbs stopped at once, up to 1.3e6 short). Edges this
/// long rise by far more than the rounding unless they are nearly level;
/// the benchmark's hulls' shortest edges are ~1 300 ulps of f32.
pub const HULL_EDGE_RESOLVED_ULPS: f64 = 64.0;

/// Relative tolerance of the hull construction: points within this
/// fraction of the cloud's size of a face count as on it.
pub const HULL_REL_TOLERANCE: f64 = 1e-12;

/// A convex polyhedron: the convex hull of a point cloud.
///
/// Keeps only the hull's vertices, their adjacency (for hill climbing) and
/// its triangulated faces. Flat clouds give a polygon, collinear ones a
/// segment and coincident ones a point; all still work as shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull<V: Vector> {
    vertices: Vec<V>,
    /// The vertices in structure-of-arrays blocks (the scan's input).
    packed: PackedPoints<V::Scalar>,
    /// CSR adjacency: neighbours of vertex `i` are
    /// `adjacency[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    adjacency: Vec<u32>,
    faces: Vec<[u32; 3]>,
    /// Coplanar triangles merged into polygons.
    polygons: Vec<HullFace<V>>,
    /// Whether the vertex graph is a valid convex polytope graph whose
    /// edges the heights resolve ([`HULL_EDGE_RESOLVED_ULPS`]): hill
    /// climbing and rings are used only then.
    climbable: bool,
    /// Per vertex, its neighbours padded with itself ([`HULL_RING_MIN`]);
    /// empty for hulls without rings.
    rings: Vec<[u8; HULL_RING_DEGREE]>,
    /// Bit `i` set when vertex `i` has a whole ring (its degree is at most
    /// [`HULL_RING_DEGREE`]).
    ring_mask: u64,
    /// Per vertex, its record (coordinates and neighbours): what the
    /// supports read.
    nodes: Vec<VertexNode<V>>,
    /// Best vertex along the centre direction of each cell of a cube map
    /// (6 faces × `grid`²): hill climbing starts there.
    start: Vec<u32>,
    /// Cells per cube-map face edge ([`start_grid`] of the vertex count).
    grid: usize,
    centroid: V,
    /// Inner and outer radii about the centroid ([`SupportMap::center_radii`]).
    radii: Option<(V::Scalar, V::Scalar)>,
    // Cold data last (the supports read the fields above).
    /// CSR incidence: the polygons holding vertex `i` are
    /// `vertex_polygons[polygon_offsets[i]..polygon_offsets[i + 1]]`.
    polygon_offsets: Vec<u32>,
    vertex_polygons: Vec<u32>,
}

impl<V: Space + Vector3> ConvexHull<V> {
    /// The convex hull of `points`. Errors on no points or NaN/inf.
    pub fn new(points: &[V]) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::EmptyPointSet);
        }
        if points.iter().any(|p| !p.is_finite()) {
            return Err(ShapeError::NonFinite);
        }
        let p64: Vec<DVec3> = points.iter().map(|&p| wide(p)).collect();
        let h = quickhull(&p64);
        let vertices: Vec<V> = h.vertices.iter().map(|&i| points[i]).collect();
        let n = vertices.len();
        let mut neighbours: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &(a, b) in &h.edges {
            neighbours[a as usize].push(b);
            neighbours[b as usize].push(a);
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut adjacency = Vec::new();
        offsets.push(0);
        for mut nb in neighbours {
            nb.sort_unstable();
            nb.dedup();
            adjacency.extend(nb);
            offsets.push(adjacency.len() as u32);
        }
        let inv = V::Scalar::ONE / V::Scalar::from_f64(n as f64);
        let centroid = vertices.iter().fold(V::ZERO, |s, p| s + *p) * inv;
        let polygons = merge_faces(&vertices, &h.faces);
        let (polygon_offsets, vertex_polygons) = incidence(n, &polygons);
        let radii = if h.valid { hull_radii(&vertices, &h.faces, centroid) } else { None };
        // Climbs (and rings) only on a valid graph whose edges heights can
        // tell apart ([`HULL_EDGE_RESOLVED_ULPS`]) and whose vertices all
        // stand out of their faces (`has_flat_vertex`).
        let climbable = h.valid
            && edges_resolved::<V::Scalar>(&p64, &h.vertices, &h.edges)
            && !has_flat_vertex(
                &p64,
                &h.vertices,
                (&offsets, &adjacency),
                &polygons,
                (&polygon_offsets, &vertex_polygons),
            );
        let (rings, ring_mask) = rings(&offsets, &adjacency, climbable);
        let mut hull = Self {
            packed: PackedPoints::new(&vertices),
            nodes: nodes(&vertices, &offsets, &adjacency),
            rings,
            ring_mask,
            vertices,
            offsets,
            adjacency,
            faces: h.faces,
            polygons,
            polygon_offsets,
            vertex_polygons,
            climbable,
            start: Vec::new(),
            grid: 0,
            centroid,
            radii,
        };
        if hull.uses_hill_climbing() {
            hull.grid = start_grid(n);
            hull.start = hull.start_table(hull.grid);
        }
        Ok(hull)
    }

    /// The hull's faces as polygons (coplanar triangles merged), each with
    /// its outward unit normal and vertex indices counter-clockwise seen
    /// from outside. A box's hull has six quadrilaterals.
    pub fn polygons(&self) -> &[HullFace<V>] {
        &self.polygons
    }

    /// The indices (into [`Self::polygons`]) of the polygons that hold
    /// vertex `i`.
    pub fn polygons_at(&self, i: usize) -> &[u32] {
        match (self.polygon_offsets.get(i), self.polygon_offsets.get(i + 1)) {
            (Some(&lo), Some(&hi)) => &self.vertex_polygons[lo as usize..hi as usize],
            _ => &[],
        }
    }

    /// The face whose outward normal is most aligned with `dir`.
    pub fn best_face(&self, dir: V) -> Option<&HullFace<V>> {
        self.polygons.iter().max_by(|a, b| {
            a.normal.dot(dir).partial_cmp(&b.normal.dot(dir)).unwrap_or(core::cmp::Ordering::Equal)
        })
    }

    /// The hull's vertices.
    pub fn vertices(&self) -> &[V] {
        &self.vertices
    }

    /// Triangles of the hull's boundary, counter-clockwise seen from
    /// outside (indices into [`Self::vertices`]). Empty for degenerate
    /// (flat, collinear, single-point) hulls.
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// Neighbours of vertex `i` along hull edges.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.adjacency[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Support by hill climbing over the vertex graph: move to a strictly
    /// better neighbour while there is one. On a convex polytope a vertex
    /// no neighbour improves on is a global maximiser; each move strictly
    /// increases the dot product, so at most `n` moves are made.
    pub fn support_climb(&self, dir: V) -> usize {
        if self.start.is_empty() {
            // Not a climbing hull: no table; climb from vertex 0.
            return self.climb_from(0, dir);
        }
        let s = self.start[cube_cell(dir, self.grid)];
        if s & PURE_CELL != 0 {
            // Every direction of the cell has this vertex as a maximiser
            // (checked at its four corners when the table was built).
            return (s & !PURE_CELL) as usize;
        }
        self.climb_from(s as usize, dir)
    }

    /// The start table of a `grid`-cell cube map: per cell the vertex
    /// furthest along its centre direction, with [`PURE_CELL`] set when the
    /// same vertex is furthest along all four corner directions. A vertex's
    /// normal cone is convex and the cell's directions are the cone over
    /// its corners, so that vertex is then a maximiser for the whole cell
    /// and the query needs no climb. Entries are found by climbing from
    /// the previous one (exact on the validated vertex graph), so the
    /// table costs O(cells · steps), not O(cells · n).
    fn start_table(&self, grid: usize) -> Vec<u32> {
        let f = |x: f64| V::Scalar::from_f64(x);
        let dir = |face: usize, u: f64, v: f64| {
            let (axis, sign) = (face / 2, if face % 2 == 1 { -1.0 } else { 1.0 });
            let mut c = [0.0f64; 3];
            c[axis] = sign;
            c[(axis + 1) % 3] = u;
            c[(axis + 2) % 3] = v;
            V::new3(f(c[0]), f(c[1]), f(c[2]))
        };
        let at = |i: usize| -1.0 + 2.0 * i as f64 / grid as f64;
        let mut table = Vec::with_capacity(6 * grid * grid);
        let mut corners = vec![0usize; (grid + 1) * (grid + 1)];
        let mut last = 0usize;
        for face in 0..6 {
            for iu in 0..=grid {
                for iv in 0..=grid {
                    last = self.climb_from(last, dir(face, at(iu), at(iv)));
                    corners[iu * (grid + 1) + iv] = last;
                }
            }
            for iu in 0..grid {
                for iv in 0..grid {
                    let centre = |i: usize| -1.0 + (2.0 * i as f64 + 1.0) / grid as f64;
                    let best =
                        self.climb_from(corners[iu * (grid + 1) + iv], dir(face, centre(iu), centre(iv)));
                    let pure = [(0, 0), (0, 1), (1, 0), (1, 1)]
                        .iter()
                        .all(|&(du, dv)| corners[(iu + du) * (grid + 1) + iv + dv] == best);
                    table.push(best as u32 | if pure { PURE_CELL } else { 0 });
                }
            }
        }
        table
    }

    /// The support vertex's index: scanned, or climbed from `hint` (when it
    /// is a vertex) or from the cube-map start. Forced inline, so that each
    /// of `support_indexed` and `support_from` holds its own copy (forcing
    /// `climb_from` inline instead was slower: the 1 024-vertex rows).
    #[inline(always)]
    fn support_index(&self, dir: V, hint: u32) -> usize {
        let n = self.vertices.len();
        let h = hint as usize;
        if h < n {
            // `h < 64` keeps the shift in range (rings exist below that).
            if h < 64 && (self.ring_mask >> h) & 1 != 0 {
                // Every neighbour against the hint, or-ed with no branch
                // (which neighbour beats it, if any, is unpredictable).
                let at = self.nodes[h].p.dot(dir);
                let mut beaten = false;
                for &j in &self.rings[h] {
                    beaten |= self.nodes[usize::from(j)].p.dot(dir) > at;
                }
                if !beaten {
                    // No neighbour beats the hint: a maximiser.
                    return h;
                }
            }
            if self.climbable && n > HULL_HINT_CLIMB_LIMIT {
                return self.climb_from(h, dir);
            }
        }
        self.cold_index(dir)
    }

    /// [`Self::support_index`] with no hint: scanned or climbed from the
    /// cube-map start. Kept apart so that cold calls skip the hint test.
    #[inline(always)]
    fn cold_index(&self, dir: V) -> usize {
        if !self.uses_hill_climbing() { self.packed.argmax(dir) } else { self.support_climb(dir) }
    }

    /// Hill climbing from vertex `from`, moving to the first neighbour
    /// that is strictly better (not the best one): a step reads only the
    /// neighbours up to the first improvement, cheaper than steepest ascent
    /// (the 256- and 1 024-vertex rows; docs/decisions.md). It reads the
    /// vertex records ([`HULL_NODE_DEGREE`]), not the vertex array and
    /// the adjacency lists.
    fn climb_from(&self, from: usize, dir: V) -> usize {
        let nodes = &self.nodes[..];
        let mut i = from;
        let mut best = nodes[i].p.dot(dir);
        // Bounded: each move strictly increases the dot product, so no
        // vertex is visited twice.
        'moves: for _ in 0..nodes.len() {
            let node = &nodes[i];
            if node.degree == NODE_OVERFLOW {
                // A vertex of high degree: its list (rare; predicted).
                for &j in self.neighbours(i) {
                    let d = nodes[j as usize].p.dot(dir);
                    if d > best {
                        best = d;
                        i = j as usize;
                        // A move: climb on from the better neighbour.
                        continue 'moves;
                    }
                }
            } else {
                for &j in &node.neighbours[..usize::from(node.degree)] {
                    let d = nodes[usize::from(j)].p.dot(dir);
                    if d > best {
                        best = d;
                        i = usize::from(j);
                        // A move: climb on from the better neighbour.
                        continue 'moves;
                    }
                }
            }
            // Exit: no neighbour is better, `i` is a maximiser.
            break;
        }
        i
    }

    /// [`SupportMap::support_search`]: a climb from `hint` where
    /// [`Self::support_index`] would climb from it (a hinted climb stands
    /// there), else from the cube-map start where the cold search climbs;
    /// every other answer (scans, pure start cells, a hint its ring proves
    /// a maximiser) at once.
    #[inline(always)]
    fn search(&self, dir: V, hint: u32) -> Search<V> {
        let n = self.nodes.len();
        let steps = u32::try_from(n).unwrap_or(u32::MAX);
        let climb =
            |i: usize| Search::Climbing(Climb { dir, at: i as u32, best: self.point(i).dot(dir), steps });
        let h = hint as usize;
        if h < n {
            if (h < 64 && (self.ring_mask >> h) & 1 != 0) || !self.climbable || n <= HULL_HINT_CLIMB_LIMIT {
                // The ring check, or the scan: as `support_from`.
                let i = self.support_index(dir, hint);
                return Search::Done(self.point(i), i as u32);
            }
            return climb(h);
        }
        if !self.uses_hill_climbing() {
            let i = self.packed.argmax(dir);
            return Search::Done(self.point(i), i as u32);
        }
        let s = self.start[cube_cell(dir, self.grid)];
        let i = (s & !PURE_CELL) as usize;
        if s & PURE_CELL != 0 {
            // Every direction of the cell has this vertex as a maximiser.
            return Search::Done(self.point(i), i as u32);
        }
        climb(i)
    }

    /// [`SupportMap::climb_step`]: steepest ascent, every slot of the
    /// vertex's record rated with selects and no branch, so that the step's
    /// loads issue together and a caller's other climb overlaps them. The
    /// spare slots repeat the vertex; past `u16` indices every record is an
    /// overflow whose slots name vertex 0, a vertex like any other (a move
    /// there is still a strict improvement). (Alone, [`Self::climb_from`]'s
    /// first improvement reads fewer neighbours; in turn with another climb
    /// this is faster: docs/decisions.md.)
    #[inline(always)]
    fn step(&self, climb: &mut Climb<V>) -> bool {
        let nodes = &self.nodes[..];
        let Some(node) = nodes.get(climb.at as usize) else {
            // Not a vertex of this hull: nothing to climb from.
            return true;
        };
        let (from, dir) = (climb.at as usize, climb.dir);
        let (mut at, mut best) = (from, climb.best);
        for &j in &node.neighbours {
            let j = usize::from(j);
            let x = nodes[j].p.dot(dir);
            let up = x > best;
            best = if up { x } else { best };
            at = if up { j } else { at };
        }
        if node.degree == NODE_OVERFLOW {
            // A vertex of high degree: its list (rare; predicted).
            for &j in self.neighbours(from) {
                let x = nodes[j as usize].p.dot(dir);
                if x > best {
                    best = x;
                    at = j as usize;
                }
            }
        }
        climb.at = at as u32;
        climb.best = best;
        at == from
    }

    /// Vertex `i` (< the vertex count), read from its record: a search has
    /// just read that record (a climb) or its neighbours' (the ring check),
    /// and the vertex array would be one more load from elsewhere.
    #[inline(always)]
    fn point(&self, i: usize) -> V {
        self.nodes[i].p
    }

    /// Support by linear scan (the reference for [`Self::support_climb`]).
    pub fn support_scan(&self, dir: V) -> usize {
        argmax(&self.vertices, dir)
    }

    /// Whether supports use hill climbing (large, non-degenerate hulls).
    pub fn uses_hill_climbing(&self) -> bool {
        self.climbable && self.vertices.len() > HULL_SCAN_LIMIT
    }
}

/// Whether every edge of a hull (`edges` between `vertices`, indices into
/// `p`) is longer than [`HULL_EDGE_RESOLVED_ULPS`] ulps of `S` of the
/// vertices' reach from their frame's origin (where the heights are
/// taken).
fn edges_resolved<S: Real>(p: &[DVec3], vertices: &[usize], edges: &[(u32, u32)]) -> bool {
    let reach2 = vertices.iter().map(|&i| p[i].length_squared()).fold(0.0, f64::max);
    let least = HULL_EDGE_RESOLVED_ULPS * S::EPSILON.to_f64();
    let limit2 = least * least * reach2;
    edges.iter().all(|&(a, b)| p[vertices[a as usize]].distance_squared(p[vertices[b as usize]]) > limit2)
}

/// A 3D point or direction of any precision in f64 (exact: f32 widens
/// without rounding), where construction computes.
fn wide<V: Space + Vector3>(v: V) -> DVec3 {
    DVec3::new(v.component(0).to_f64(), v.component(1).to_f64(), v.component(2).to_f64())
}

/// How close to a plane through a vertex (one of its polygons') all its
/// neighbours may lie, in ulps of the coordinate type times the reach, for
/// the vertex to count as lying in a flat face (`has_flat_vertex`): a few
/// roundings of a height.
pub(crate) const HULL_FLAT_VERTEX_ULPS: f64 = 8.0;

/// Whether some vertex lies in a flat face: all its neighbours within
/// [`HULL_FLAT_VERTEX_ULPS`] of the plane of one of its polygons. Along a
/// direction into that face (the face the lowest) they tie with it, and a
/// climb that moves only upwards stops there, as far from the answer as it
/// can be (fuzz seed 430042471, `climbs_leave_flat_faces`).
fn has_flat_vertex<V: Space + Vector3>(
    p: &[DVec3],
    vertices: &[usize],
    (offsets, adjacency): (&[u32], &[u32]),
    polygons: &[HullFace<V>],
    (polygon_offsets, vertex_polygons): (&[u32], &[u32]),
) -> bool {
    let reach = vertices.iter().map(|&i| p[i].length()).fold(0.0, f64::max);
    let tol = HULL_FLAT_VERTEX_ULPS * V::Scalar::EPSILON.to_f64() * reach;
    let at = |i: usize| p[vertices[i]];
    (0..vertices.len()).any(|i| {
        let faces = &vertex_polygons[polygon_offsets[i] as usize..polygon_offsets[i + 1] as usize];
        let nb = &adjacency[offsets[i] as usize..offsets[i + 1] as usize];
        faces.iter().any(|&f| {
            let n = wide(polygons[f as usize].normal);
            nb.iter().all(|&j| n.dot(at(j as usize) - at(i)).abs() <= tol)
        })
    })
}

/// The neighbour rings of a hull's vertices ([`HULL_RING_MIN`]) from its
/// CSR adjacency, and the mask of the vertices whose ring is whole. None
/// for hulls that do not climb (their graph proves nothing) or whose size
/// is outside the rings' range.
fn rings(offsets: &[u32], adjacency: &[u32], valid: bool) -> (Vec<[u8; HULL_RING_DEGREE]>, u64) {
    const _: () = assert!(HULL_RING_LIMIT <= 64, "one bit per vertex in a u64, indices in a u8");
    let n = offsets.len().saturating_sub(1);
    if !valid || n <= HULL_RING_MIN || n > HULL_RING_LIMIT {
        return (Vec::new(), 0);
    }
    let mut mask = 0u64;
    let rings = (0..n)
        .map(|i| {
            let nb = &adjacency[offsets[i] as usize..offsets[i + 1] as usize];
            let mut ring = [i as u8; HULL_RING_DEGREE];
            if nb.len() <= HULL_RING_DEGREE {
                mask |= 1 << i;
                for (slot, &j) in ring.iter_mut().zip(nb) {
                    *slot = j as u8;
                }
            }
            ring
        })
        .collect();
    (rings, mask)
}

/// The records of a hull's vertices ([`VertexNode`]) from its CSR
/// adjacency: neighbours inline where the degree is at most
/// [`HULL_NODE_DEGREE`] and the hull has at most 65 536 vertices (`u16`
/// indices), else [`NODE_OVERFLOW`].
fn nodes<V: Vector>(vertices: &[V], offsets: &[u32], adjacency: &[u32]) -> Vec<VertexNode<V>> {
    let small = vertices.len() <= usize::from(u16::MAX) + 1;
    vertices
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let nb = &adjacency[offsets[i] as usize..offsets[i + 1] as usize];
            // Spare slots repeat the vertex (never read past `degree`).
            let me = if small { i as u16 } else { 0 };
            let mut node = VertexNode { p, degree: NODE_OVERFLOW, neighbours: [me; HULL_NODE_DEGREE] };
            if small && nb.len() <= HULL_NODE_DEGREE {
                node.degree = nb.len() as u16;
                for (slot, &j) in node.neighbours.iter_mut().zip(nb) {
                    *slot = j as u16;
                }
            }
            node
        })
        .collect()
}

/// A polygonal face of a [`ConvexHull`].
#[derive(Clone, Debug, PartialEq)]
pub struct HullFace<V> {
    /// Outward unit normal.
    pub normal: V,
    /// Vertex indices, counter-clockwise seen from outside.
    pub vertices: Vec<u32>,
}

/// Relative tolerance for merging hull triangles into one polygon: normals
/// closer than this (1 − cos θ) and planes closer than this times the hull
/// size. At least [`FACE_MERGE_ULPS`] of the vertices' scalar type
/// ([`face_merge_tolerance`]).
pub const FACE_MERGE_TOLERANCE: f64 = 1e-9;

/// The face-merge tolerance in units of the coordinates' machine epsilon:
/// points given in f32 are coplanar only to their rounding, ~6e-8 of the
/// size (a scaled dodecahedron's pentagons measured 6e-9 apart in plane
/// offset at size 0.9, past `FACE_MERGE_TOLERANCE`, and were left as
/// triangles).
pub const FACE_MERGE_ULPS: f64 = 16.0;

/// The relative face-merge tolerance for coordinates of type `S`:
/// [`FACE_MERGE_TOLERANCE`], or [`FACE_MERGE_ULPS`] of `S`'s epsilon when
/// larger (f32).
pub fn face_merge_tolerance<S: Real>() -> f64 {
    FACE_MERGE_TOLERANCE.max(FACE_MERGE_ULPS * S::EPSILON.to_f64())
}

/// Vertex–polygon incidence as CSR (offsets per vertex, polygon indices).
fn incidence<V>(n: usize, polygons: &[HullFace<V>]) -> (Vec<u32>, Vec<u32>) {
    let mut count = vec![0u32; n + 1];
    for f in polygons {
        for &v in &f.vertices {
            count[v as usize + 1] += 1;
        }
    }
    for i in 0..n {
        count[i + 1] += count[i];
    }
    let mut at = count.clone();
    let mut list = vec![0u32; count[n] as usize];
    for (k, f) in polygons.iter().enumerate() {
        for &v in &f.vertices {
            list[at[v as usize] as usize] = k as u32;
            at[v as usize] += 1;
        }
    }
    (count, list)
}

/// Groups coplanar triangles into polygons ordered counter-clockwise.
fn merge_faces<V: Space + Vector3>(vertices: &[V], tris: &[[u32; 3]]) -> Vec<HullFace<V>> {
    let p: Vec<DVec3> = vertices.iter().map(|&v| wide(v)).collect();
    let size = p.iter().map(|q| q.abs().max_element()).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let tol = face_merge_tolerance::<V::Scalar>();
    let normals: Vec<Option<DVec3>> = tris
        .iter()
        .map(|t| {
            (p[t[1] as usize] - p[t[0] as usize]).cross(p[t[2] as usize] - p[t[0] as usize]).try_normalize()
        })
        .collect();
    // The triangle across each directed edge (a closed hull has every
    // edge's twin). The triangles of one polygon are joined by edges, so a
    // flood fill over them finds each polygon in time linear in the
    // triangles (comparing every triangle with every polygon found so far
    // is quadratic).
    let mut across: IndexMap<(u32, u32), usize> = IndexMap::default();
    across.reserve(3 * tris.len());
    for (k, t) in tris.iter().enumerate() {
        for e in 0..3 {
            across.insert((t[e], t[(e + 1) % 3]), k);
        }
    }
    let mut taken = vec![false; tris.len()];
    let mut groups: Vec<(DVec3, Vec<u32>)> = Vec::new();
    let mut stack = Vec::new();
    for seed in 0..tris.len() {
        let Some(n) = normals[seed] else { continue };
        if taken[seed] {
            continue;
        }
        // Members are compared with the seed's plane, not their
        // neighbour's, so that a polygon cannot drift across a gentle curve:
        // a normal within the tolerance and vertices within the tolerance
        // times the size of the plane. (Distances from the seed's own
        // vertex: a plane offset `n·p` would amplify the normal's rounding
        // by the distance from the origin.)
        let origin = p[tris[seed][0] as usize];
        let same_plane = |k: usize| {
            normals[k].is_some_and(|m| {
                1.0 - m.dot(n) < tol
                    && tris[k].iter().all(|&q| n.dot(p[q as usize] - origin).abs() < tol * size)
            })
        };
        taken[seed] = true;
        let mut ids = Vec::new();
        stack.push(seed);
        // Bounded: each triangle is pushed at most once (`taken`).
        while let Some(k) = stack.pop() {
            let t = tris[k];
            ids.extend_from_slice(&t);
            for e in 0..3 {
                if let Some(&g) = across.get(&(t[(e + 1) % 3], t[e]))
                    && !taken[g]
                    && same_plane(g)
                {
                    taken[g] = true;
                    stack.push(g);
                }
            }
        }
        groups.push((n, ids));
    }
    groups
        .into_iter()
        .map(|(n, mut ids)| {
            ids.sort_unstable();
            ids.dedup();
            // Order counter-clockwise around the normal.
            let c = ids.iter().map(|&i| p[i as usize]).sum::<DVec3>() / ids.len() as f64;
            let u = n.any_orthonormal_vector();
            let w = n.cross(u);
            // Each angle once (a comparator computing two per call spent
            // more time in `atan2` than the rest of the hull build).
            let mut by_angle: Vec<(f64, u32)> = ids
                .iter()
                .map(|&i| {
                    let a = p[i as usize] - c;
                    (a.dot(w).atan2(a.dot(u)), i)
                })
                .collect();
            by_angle.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            ids.clear();
            ids.extend(by_angle.iter().map(|&(_, i)| i));
            let normal =
                V::new3(V::Scalar::from_f64(n.x), V::Scalar::from_f64(n.y), V::Scalar::from_f64(n.z));
            HullFace { normal, vertices: ids }
        })
        .collect()
}

/// Cells per cube-map face edge for hill-climbing start vertices, at
/// least: the start is then within a few edges of the answer.
pub const START_GRID: usize = 4;

/// Most cells per cube-map face edge (a 6 × 48² = 13 824-entry table, 54 KB).
pub const MAX_START_GRID: usize = 48;

/// Cube-map cells per hull vertex, aimed for. At 1 the start is the answer
/// or one edge from it (about 9 neighbour checks per call). Denser tables
/// make more cells pure (answered with no climb at all: half of them at 16)
/// and cut instructions, but ran slower on the benchmark's 64-hull pools,
/// the larger tables leaving the L2 cache (docs/decisions.md).
pub const START_CELLS_PER_VERTEX: usize = 1;

/// Flag bit of a start-table entry whose vertex is furthest along every
/// direction of its cell.
const PURE_CELL: u32 = 1 << 31;

/// Cells per cube-map face edge for a hull of `n` vertices:
/// `6 g² ≈ START_CELLS_PER_VERTEX · n`, between [`START_GRID`] and
/// [`MAX_START_GRID`].
pub fn start_grid(n: usize) -> usize {
    let mut g = START_GRID;
    while g < MAX_START_GRID && 6 * g * g < START_CELLS_PER_VERTEX * n {
        g += 1;
    }
    g
}

/// The cube-map cell of direction `d`: the face of its largest component
/// (axis and sign), then a `grid × grid` grid over the other two
/// components divided by the largest.
#[inline]
fn cube_cell<V: Space>(d: V, grid: usize) -> usize {
    let (x, y, z) = (d.component(0), d.component(1), d.component(2));
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (axis, m, u, v) = if ax >= ay && ax >= az {
        (0, x, y, z)
    } else if ay >= az {
        (1, y, z, x)
    } else {
        (2, z, x, y)
    };
    let face = axis * 2 + (m < V::Scalar::ZERO) as usize;
    let am = m.abs();
    if am <= V::Scalar::ZERO || am.is_nan() {
        return 0;
    }
    let g = V::Scalar::from_f64(grid as f64);
    let half = V::Scalar::from_f64(0.5);
    let inv = V::Scalar::ONE / am;
    let cell = |c: V::Scalar| {
        let t = ((c * inv) * half + half) * g;
        let k = t.to_f64() as isize;
        k.clamp(0, grid as isize - 1) as usize
    };
    (face * grid + cell(u)) * grid + cell(v)
}

impl<V: Space + Vector3> SupportMap<V> for ConvexHull<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.support_indexed(dir).0
    }
    #[inline]
    fn support_indexed(&self, dir: V) -> (V, u32) {
        let i = self.cold_index(dir);
        (self.point(i), i as u32)
    }
    /// Hulls of more than [`HULL_HINT_CLIMB_LIMIT`] vertices climb from
    /// `hint` instead of their cube-map start or scan: from a vertex near
    /// the answer (a warm start's) that checks a few neighbours. (Smaller
    /// hulls keep the scan: the same time, see the constant.)
    #[inline]
    fn support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let i = self.support_index(dir, hint);
        (self.point(i), i as u32)
    }
    #[inline]
    fn vertex(&self, index: u32) -> Option<V> {
        // From the records: a warm start's rebuilt vertex is the one its
        // hinted search reads next.
        self.nodes.get(index as usize).map(|node| node.p)
    }
    #[inline]
    fn center(&self) -> Option<V> {
        Some(self.centroid)
    }
    #[inline]
    fn center_radii(&self) -> Option<(V::Scalar, V::Scalar)> {
        self.radii
    }
    #[inline(always)]
    fn support_search(&self, dir: V, hint: u32) -> Search<V> {
        self.search(dir, hint)
    }
    #[inline(always)]
    fn climb_step(&self, climb: &mut Climb<V>) -> bool {
        self.step(climb)
    }
}
impl<V: Space + Vector3> Shape<V> for ConvexHull<V> {
    #[inline(always)]
    fn core_support_from(&self, dir: V, hint: u32) -> (V, u32) {
        let i = self.support_index(dir, hint);
        (self.point(i), i as u32)
    }
    #[inline(always)]
    fn core_support_search(&self, dir: V, hint: u32) -> Search<V> {
        self.search(dir, hint)
    }
    #[inline(always)]
    fn core_climb_step(&self, climb: &mut Climb<V>) -> bool {
        self.step(climb)
    }
}

/// `(inner, outer)` radii about `c` of the polytope of `vertices` bounded
/// by the triangles `faces` (counter-clockwise seen from outside), for
/// [`SupportMap::center_radii`]: `c`'s least distance to a face plane and
/// greatest to a vertex, in `f64`. `None` for flat hulls and when `c` is
/// not inside by the margin.
fn hull_radii<V: Space + Vector3>(
    vertices: &[V],
    faces: &[[u32; 3]],
    c: V,
) -> Option<(V::Scalar, V::Scalar)> {
    let p = wide::<V>;
    let c64 = p(c);
    let mut inner = f64::INFINITY;
    // Bounded by the face count.
    for f in faces {
        let [a, b, d] = f.map(|i| p(vertices[i as usize]));
        let n = (b - a).cross(d - a);
        let len = n.length();
        // A triangle with no area has no plane (its neighbours bound the hull).
        if len > 0.0 {
            inner = inner.min(n.dot(a - c64) / len);
        }
    }
    let outer = vertices.iter().map(|&v| (p(v) - c64).length()).fold(0.0, f64::max);
    ball_radii(inner, outer)
}

/// A hull as indices: `vertices` index the input; `edges` and `faces` index
/// `vertices`.
struct HullIndices {
    vertices: Vec<usize>,
    edges: Vec<(u32, u32)>,
    faces: Vec<[u32; 3]>,
    valid: bool,
}

/// End of an outside-set list.
const NONE: usize = usize::MAX;

struct Face {
    v: [usize; 3],
    normal: DVec3,
    offset: f64,
    /// The first point of the face's outside set ([`NONE`] when empty),
    /// the rest linked through `quickhull`'s `next`: one list per face in
    /// one shared array, where a `Vec` per face cost an allocation for
    /// each of the thousands of faces made and dropped.
    outside: usize,
    alive: bool,
    /// The last pass (1-based) whose visibility flood fill examined this
    /// face, and whether it was visible from that pass's eye point.
    seen: usize,
    visible: bool,
}

/// A hasher for the hull builder's integer keys (the multiply-rotate
/// scheme of rustc's FxHash). The keys are our own indices, so SipHash's
/// resistance to chosen keys buys nothing; it was half of a build's time.
#[derive(Clone, Copy, Default)]
struct IndexHasher(u64);

impl IndexHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for IndexHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by vertex or face indices.
type IndexMap<K, T> = HashMap<K, T, BuildHasherDefault<IndexHasher>>;

impl Face {
    fn new(p: &[DVec3], v: [usize; 3]) -> Self {
        let normal = accurate_normal(p[v[0]], p[v[1]], p[v[2]]);
        Face { v, normal, offset: normal.dot(p[v[0]]), outside: NONE, alive: true, seen: 0, visible: false }
    }
    fn dist(&self, q: DVec3) -> f64 {
        self.normal.dot(q) - self.offset
    }
}

/// The unit normal of triangle `a b c` (zero for a degenerate one), to a
/// few ulps also for slivers. The cross product of two nearly parallel
/// edges cancels: its components keep only the bits the products' rounding
/// left, so a sliver's normal (a face on a near-duplicate pair of points)
/// could point anywhere, and so could the visibility tests of quickhull
/// and the plane check ([`well_shaped`]) against it. Where the cross
/// product is that small against its edges, each component is recomputed
/// as a difference of products with its rounding error carried (Kahan's
/// algorithm, with fused multiply–adds); the edges themselves are
/// differences of nearby points, exact or nearly so.
fn accurate_normal(a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let (u, v) = (b - a, c - a);
    let n = u.cross(v);
    // `|u × v|² ≥ 1e-8 |u|² |v|²`: the edges meet at 1e-4 rad or more, and
    // the plain products lose at most about 1e4 ulps of the direction.
    if n.length_squared() >= 1e-8 * u.length_squared() * v.length_squared() {
        return n.try_normalize().unwrap_or(DVec3::ZERO);
    }
    // `x·y − z·w` to about one ulp: `z·w`'s rounding error recovered by a
    // fused multiply–add and added back.
    let dop = |x: f64, y: f64, z: f64, w: f64| {
        let zw = z * w;
        let err = (-z).mul_add(w, zw);
        x.mul_add(y, -zw) + err
    };
    let n = DVec3::new(dop(u.y, v.z, u.z, v.y), dop(u.z, v.x, u.x, v.z), dop(u.x, v.y, u.y, v.x));
    n.try_normalize().unwrap_or(DVec3::ZERO)
}

/// Quickhull (Barber, Dobkin, Huhdanpaa 1996) with a directed-edge map for
/// face adjacency. Falls back to the lower-dimensional hull for flat,
/// collinear and coincident clouds.
fn quickhull(p: &[DVec3]) -> HullIndices {
    let centre = p.iter().copied().sum::<DVec3>() / p.len() as f64;
    let scale = p.iter().map(|q| (*q - centre).length()).fold(0.0, f64::max);
    let tol = HULL_REL_TOLERANCE * scale.max(centre.abs().max_element()).max(f64::MIN_POSITIVE);

    // Two extreme points along the axis of largest spread.
    let mut best_axis = (0, 0, 0.0);
    for axis in 0..3 {
        let (mut lo, mut hi) = (0, 0);
        for (i, q) in p.iter().enumerate() {
            if q[axis] < p[lo][axis] {
                lo = i;
            }
            if q[axis] > p[hi][axis] {
                hi = i;
            }
        }
        let spread = p[hi][axis] - p[lo][axis];
        if spread > best_axis.2 {
            best_axis = (lo, hi, spread);
        }
    }
    let (i0, i1, spread) = best_axis;
    if spread <= tol {
        return HullIndices { vertices: vec![0], edges: vec![], faces: vec![], valid: true };
    }
    // Farthest from the line i0 i1.
    let dir = (p[i1] - p[i0]).normalize();
    let line_dist = |q: DVec3| {
        let r = q - p[i0];
        (r - dir * r.dot(dir)).length()
    };
    let i2 = (0..p.len()).max_by(|&a, &b| line_dist(p[a]).total_cmp(&line_dist(p[b]))).unwrap_or(0);
    if line_dist(p[i2]) <= tol {
        // Collinear: the two extreme points along the line.
        let t = |i: usize| (p[i] - p[i0]).dot(dir);
        let lo = (0..p.len()).min_by(|&a, &b| t(a).total_cmp(&t(b))).unwrap_or(0);
        let hi = (0..p.len()).max_by(|&a, &b| t(a).total_cmp(&t(b))).unwrap_or(0);
        return HullIndices { vertices: vec![lo, hi], edges: vec![(0, 1)], faces: vec![], valid: true };
    }
    let n = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalize();
    let plane_dist = |q: DVec3| (q - p[i0]).dot(n);
    let i3 =
        (0..p.len()).max_by(|&a, &b| plane_dist(p[a]).abs().total_cmp(&plane_dist(p[b]).abs())).unwrap_or(0);
    if plane_dist(p[i3]).abs() <= tol {
        return flat_hull(p, p[i0], dir, n);
    }

    // Room for a hull of every point, so that the tables rarely grow: at
    // most 6n − 12 directed edges alive at once (Euler), and about 5.6 n
    // faces made over the build (measured for 1 024 points on an
    // ellipsoid). Capped, as large clouds mostly have far fewer hull points.
    let room = 6 * p.len().min(1 << 14);
    let mut faces: Vec<Face> = Vec::with_capacity(room);
    let mut edge_face: IndexMap<(usize, usize), usize> = IndexMap::default();
    edge_face.reserve(room);
    let add_face = |faces: &mut Vec<Face>, edge_face: &mut IndexMap<(usize, usize), usize>, v: [usize; 3]| {
        let id = faces.len();
        faces.push(Face::new(p, v));
        for k in 0..3 {
            edge_face.insert((v[k], v[(k + 1) % 3]), id);
        }
        id
    };
    // The initial tetrahedron, faces oriented away from its centroid.
    let inner = (p[i0] + p[i1] + p[i2] + p[i3]) * 0.25;
    for tri in [[i0, i1, i2], [i0, i3, i1], [i1, i3, i2], [i2, i3, i0]] {
        let f = Face::new(p, tri);
        let v = if f.dist(inner) > 0.0 { [tri[0], tri[2], tri[1]] } else { tri };
        add_face(&mut faces, &mut edge_face, v);
    }
    // Outside sets: each point goes to the face it is farthest above.
    // `next[q]` follows point `q` in its face's list; a point is in at most
    // one list, so every walk below is bounded by the point count.
    let mut next = vec![NONE; p.len()];
    let assign =
        |faces: &mut Vec<Face>, next: &mut [usize], ids: &[usize], pts: &mut dyn Iterator<Item = usize>| {
            for q in pts {
                let mut best = (NONE, tol);
                for &f in ids {
                    let d = faces[f].dist(p[q]);
                    if d > best.1 {
                        best = (f, d);
                    }
                }
                if best.0 != NONE {
                    next[q] = faces[best.0].outside;
                    faces[best.0].outside = q;
                }
            }
        };
    let ids: Vec<usize> = (0..4).collect();
    let initial = [i0, i1, i2, i3];
    assign(&mut faces, &mut next, &ids, &mut (0..p.len()).filter(|i| !initial.contains(i)));

    let mut pending: Vec<usize> = (0..4).collect();
    // Scratch lists of each pass, kept to reuse their allocations.
    let (mut visible, mut horizon, mut orphans, mut new_ids) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // Bounded: every pass removes its eye point from all outside sets.
    let mut budget = p.len() + 8;
    let mut pass = 0;
    while let Some(f0) = pending.pop() {
        if !faces[f0].alive || faces[f0].outside == NONE {
            continue;
        }
        if budget == 0 {
            break;
        }
        budget -= 1;
        pass += 1;
        // The farthest point of the (non-empty) outside set.
        let mut eye = faces[f0].outside;
        let mut q = next[eye];
        while q != NONE {
            if faces[f0].dist(p[q]) > faces[f0].dist(p[eye]) {
                eye = q;
            }
            q = next[q];
        }
        // Faces visible from the eye, by flood fill from f0.
        visible.clear();
        visible.push(f0);
        faces[f0].seen = pass;
        faces[f0].visible = true;
        let mut k = 0;
        while k < visible.len() {
            let f = visible[k];
            k += 1;
            let v = faces[f].v;
            for e in 0..3 {
                let Some(&g) = edge_face.get(&(v[(e + 1) % 3], v[e])) else { continue };
                if faces[g].seen == pass {
                    continue;
                }
                let vis = faces[g].alive && faces[g].dist(p[eye]) > tol;
                faces[g].seen = pass;
                faces[g].visible = vis;
                if vis {
                    visible.push(g);
                }
            }
        }
        // Horizon: edges of visible faces whose twin face is not visible.
        horizon.clear();
        for &f in &visible {
            let v = faces[f].v;
            for e in 0..3 {
                let (a, b) = (v[e], v[(e + 1) % 3]);
                let twin_visible =
                    edge_face.get(&(b, a)).is_some_and(|&g| faces[g].seen == pass && faces[g].visible);
                if !twin_visible {
                    horizon.push((a, b));
                }
            }
        }
        orphans.clear();
        for &f in &visible {
            faces[f].alive = false;
            let v = faces[f].v;
            for e in 0..3 {
                edge_face.remove(&(v[e], v[(e + 1) % 3]));
            }
            let mut q = std::mem::replace(&mut faces[f].outside, NONE);
            while q != NONE {
                if q != eye {
                    orphans.push(q);
                }
                q = next[q];
            }
        }
        new_ids.clear();
        for &(a, b) in &horizon {
            new_ids.push(add_face(&mut faces, &mut edge_face, [a, b, eye]));
        }
        assign(&mut faces, &mut next, &new_ids, &mut orphans.drain(..));
        pending.extend(new_ids.iter().copied().filter(|&f| faces[f].outside != NONE));
    }

    // Collect the alive faces and renumber their vertices.
    let mut remap = vec![u32::MAX; p.len()];
    let mut vertices = Vec::new();
    let mut out_faces = Vec::new();
    let mut id = |i: usize, vertices: &mut Vec<usize>| {
        if remap[i] == u32::MAX {
            remap[i] = vertices.len() as u32;
            vertices.push(i);
        }
        remap[i]
    };
    for f in faces.iter().filter(|f| f.alive) {
        out_faces.push([id(f.v[0], &mut vertices), id(f.v[1], &mut vertices), id(f.v[2], &mut vertices)]);
    }
    let mut edges = Vec::new();
    let mut valid = true;
    for f in &out_faces {
        for e in 0..3 {
            let (a, b) = (f[e], f[(e + 1) % 3]);
            if a < b {
                edges.push((a, b));
            }
        }
    }
    // A closed 2-manifold of triangles: every directed edge has its twin,
    // and Euler's formula V − E + F = 2 holds.
    let directed: HashSet<(u32, u32), BuildHasherDefault<IndexHasher>> =
        out_faces.iter().flat_map(|f| (0..3).map(move |e| (f[e], f[(e + 1) % 3]))).collect();
    if directed.iter().any(|&(a, b)| !directed.contains(&(b, a))) {
        valid = false;
    }
    if vertices.len() as i64 - edges.len() as i64 + out_faces.len() as i64 != 2 {
        valid = false;
    }
    // And convex, where rounding can fold it: near-duplicate points (closer
    // than the face normals' rounding can resolve) leave sliver faces whose
    // planes point anywhere, and later visibility tests against them can
    // close the surface over the wrong side (a fuzzed doubled cloud's hull
    // had faces 1.6 below other vertices, and climbs 0.45 short).
    if valid {
        valid = well_shaped(p, &vertices, &out_faces, scale.max(centre.abs().max_element()));
    }
    if !valid {
        // Keep every extreme point reachable by the linear scan.
        let mut all: Vec<usize> = vertices.clone();
        for f in &faces {
            let mut q = f.outside;
            while q != NONE {
                all.push(q);
                q = next[q];
            }
        }
        all.sort_unstable();
        all.dedup();
        return HullIndices { vertices: all, edges: vec![], faces: vec![], valid: false };
    }
    HullIndices { vertices, edges, faces: out_faces, valid }
}

/// How far, relative to the cloud's size, a vertex may lie above the plane
/// of a hull face before the hull counts as folded: a thousand times the
/// construction's tolerance ([`HULL_REL_TOLERANCE`]), which leaves
/// coplanar points that much out of their faces.
pub const HULL_FOLD_TOLERANCE: f64 = 1e3 * HULL_REL_TOLERANCE;

/// Points per leaf of the box tree that checks a hull's face planes
/// ([`well_shaped`]).
const PLANE_CHECK_LEAF: usize = 8;

/// Whether a closed triangulated hull (`faces` into `vertices`, indices of
/// `p`) is the boundary of the points' convex hull: no vertex further than
/// [`HULL_FOLD_TOLERANCE`] above any face's plane. Quickhull with a
/// tolerance can fold its surface where points lie within a few
/// tolerances of each other (a fuzzed cloud of points doubled at 1e-12
/// gave a closed surface with vertices 1.6 above its faces; climbs on it
/// ended 0.45 short), and the topological checks pass such a surface.
/// Each face is checked against every vertex through a tree of boxes: a
/// box whose corner furthest along the normal is below the bound holds no
/// vertex above it, and on a convex hull only the boxes at the face's
/// patch reach it, so a check costs about `log n` boxes a face.
fn well_shaped(p: &[DVec3], vertices: &[usize], faces: &[[u32; 3]], size: f64) -> bool {
    let fold = HULL_FOLD_TOLERANCE * size;
    let pts: Vec<DVec3> = vertices.iter().map(|&i| p[i]).collect();
    let tree = BoxTree::new(&pts);
    faces.iter().all(|f| {
        let a = pts[f[0] as usize];
        let n = accurate_normal(a, pts[f[1] as usize], pts[f[2] as usize]);
        // A degenerate face has no plane to check (its neighbours' do).
        n == DVec3::ZERO || tree.all_below(&pts, n, n.dot(a) + fold)
    })
}

/// A tree of axis-aligned boxes over a point set (median splits along the
/// longest side), for the hull's plane check: nodes in depth-first order,
/// each with its box and its range of `order`.
struct BoxTree {
    order: Vec<usize>,
    /// `(min, max, start, end, second child or 0 for a leaf)`; a node's
    /// first child follows it.
    nodes: Vec<(DVec3, DVec3, usize, usize, usize)>,
}

impl BoxTree {
    fn new(pts: &[DVec3]) -> Self {
        let mut tree =
            BoxTree { order: (0..pts.len()).collect(), nodes: Vec::with_capacity(pts.len() / 2 + 1) };
        tree.build(pts, 0, pts.len());
        tree
    }

    /// Builds the subtree over `order[start..end]`; bounded by the range,
    /// which halves at each level.
    fn build(&mut self, pts: &[DVec3], start: usize, end: usize) {
        let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
        for &i in &self.order[start..end] {
            lo = lo.min(pts[i]);
            hi = hi.max(pts[i]);
        }
        let at = self.nodes.len();
        self.nodes.push((lo, hi, start, end, 0));
        if end - start <= PLANE_CHECK_LEAF {
            return;
        }
        let ext = hi - lo;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        let mid = start + (end - start) / 2;
        self.order[start..end]
            .select_nth_unstable_by(mid - start, |&a, &b| pts[a][axis].total_cmp(&pts[b][axis]));
        self.build(pts, start, mid);
        self.nodes[at].4 = self.nodes.len();
        self.build(pts, mid, end);
    }

    /// Whether every point lies at or below `limit` along `n`.
    fn all_below(&self, pts: &[DVec3], n: DVec3, limit: f64) -> bool {
        // Bounded: each node is pushed at most once (a tree), and the
        // stack holds at most one pending sibling per level.
        let mut stack = [0usize; 64];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let k = stack[len];
            let (lo, hi, start, end, second) = self.nodes[k];
            // The box's corner furthest along `n`.
            let corner = DVec3::select(n.cmpge(DVec3::ZERO), hi, lo);
            if corner.dot(n) <= limit {
                continue;
            }
            if second == 0 {
                if self.order[start..end].iter().any(|&i| pts[i].dot(n) > limit) {
                    // Exit: a vertex above the plane.
                    return false;
                }
                continue;
            }
            if len + 2 > stack.len() {
                // Exit: deeper than a median-split tree of any size gets;
                // no proof.
                return false;
            }
            stack[len] = k + 1;
            stack[len + 1] = second;
            len += 2;
        }
        true
    }
}

/// The hull of a flat cloud: the 2D hull in the plane through `origin` with
/// normal `n` (`u` in the plane), as a polygon whose vertex graph is a cycle.
fn flat_hull(p: &[DVec3], origin: DVec3, u: DVec3, n: DVec3) -> HullIndices {
    let w = n.cross(u);
    let q: Vec<DVec2> = p.iter().map(|x| DVec2::new((*x - origin).dot(u), (*x - origin).dot(w))).collect();
    let ring = monotone_chain(&q);
    let m = ring.len() as u32;
    let edges =
        if m >= 2 { (0..m).map(|i| (i, (i + 1) % m)).filter(|(a, b)| a != b).collect() } else { vec![] };
    HullIndices { vertices: ring, edges, faces: vec![], valid: true }
}
