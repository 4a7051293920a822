//! Contact manifolds for polytope pairs (3D): up to four points, by clipping
//! the incident face against the side planes of the reference face
//! (Sutherland–Hodgman), as Box2D and Bullet do for boxes, where a face
//! carries the contact; one point, along the contact's own normal, where
//! none does (an edge crossing an edge). In 2D, up to two points, the
//! incident edge clipped to the reference edge (Box2D's polygons).
//!
//! # Faces
//!
//! The contact's normal proposes a face on each shape (the most aligned; under
//! a non-uniform scale, `PolyhedronFaces::best_face_by` measures the world
//! normals). A face carries the contact when the shapes overlap along its
//! normal by at most the contact's least overlap plus
//! `FACE_CONTACT_TOLERANCE` of `max(|least|, speculative)` and the zero band;
//! B's face is the reference only when its excess over the least is below
//! `REFERENCE_FACE_BIAS` of A's by more than rounding (hysteresis). The
//! incident face, the other shape's most opposed to the reference normal, is
//! clipped by Sutherland–Hodgman and reduced to 4 points: up to
//! `MANIFOLD_EXHAUSTIVE_POINTS` by trying every four that hold a deepest
//! point (largest area), beyond that greedily. No face carrying it (edge to
//! edge): the contact's own point along its own normal. Faces leaning in
//! below the reference face by more than `RIM_FACE_ALIGNMENT` clip the
//! incident face too (an overhanging rim). Empty beyond `speculative` and for
//! contacts without geometry.
//!
//! Round shapes (`Ball`, `Capsule`, `Rounded<T>`) give their cores' faces and
//! `face_radius`; depths count the radii and a clipped core point is offset
//! by its radius along the normal (as Box2D's rounded polygons). Cylinders
//! and cones: a cap is `DISC_FACE_POINTS` rim points, the first the rim's
//! support point along the direction asked for; a side is its line along that
//! direction (never a reference face). `best_face_by` scores the caps and the
//! side's circle of normals (`SIDE_NORMAL_SAMPLES`, refined by
//! `SIDE_REFINE_STEPS` golden-section steps). Where no face carries the
//! contact but both faces are lines lying side by side across the normal,
//! `line_pair` clips B's line to the stretch of A's: two points (as Box2D's
//! capsules). `polygon_manifold` is the same in 2D over `PolygonEdges`.
//! Both are checked by a brute-force oracle (docs/reliability.md, *Contact
//! manifolds*). `polytope_manifold_with` takes a `ManifoldWorkspace`: no
//! allocation once it has grown, and no state between calls
//! (`a_reused_workspace_gives_the_same_manifolds`).
//!
//! # Feature ids
//!
//! Each point's `id` names the features that make it, so that a physics
//! engine can hand a point's impulses on to the same point next frame (Box2D's
//! point ids; Jolt and Bullet match by distance, which a fast slide defeats).
//! Keys are 64-bit: a vertex's coordinates folded in by a multiply and a shift
//! each, then avalanched (splitmix64's finaliser); features combined by a
//! rotate, exclusive or and multiply (`mix`, one seed per kind of feature);
//! the point's key avalanched again and folded to 32 bits at the end.
//! - A face's vertices are keyed by `PolyhedronFaces::face_keys` (2D:
//!   `PolygonEdges::edge_keys`) in the shape's own frame: by default the
//!   coordinates' bits; cylinders and cones by place in the face, because
//!   their rim points turn with the direction asked; wrappers map the face
//!   back to the wrapped shape's frame and ask it.
//! - Sutherland–Hodgman carries, with each point, the key of the line to the
//!   next; a crossing is keyed by that line and the plane. So a point is named
//!   by the features it lies on, not by the order it was cut in, and a box
//!   sliding across a large face keeps its corners' ids.
//! - The point's key is then mixed with the reference face's; a manifold of
//!   the contact's single point has `SINGLE_POINT_ID`, as Box2D's circles.
//! - Ids are distinct within a manifold (a repeat, about 2⁻³² per pair of
//!   points, moves up by one: `distinct_ids`). A change of reference face
//!   gives other ids: the demo matches by id first and by distance after.

use core::cell::Cell;
use gjk_core::internal::{Vector2, Vector3};
use gjk_core::{Real, SupportMap, Vector};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Placed, Pose, Rounded, Shape, Space,
    Transformed,
};

use crate::contact::{Contact, ContactStatus};
use crate::epa::EPA_ROUNDING_ULPS;

/// Most points a manifold keeps.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// A face is a contact face (the manifold is clipped on it) when the
/// overlap of the shapes along its normal exceeds the least overlap (the
/// contact's `depth − distance`) by at most this fraction of
/// `max(|least overlap|, speculative)`, plus the zero band. Otherwise the
/// contact is edge to edge (or vertex to edge), no face can carry it, and
/// the manifold is the contact's single point along its own normal. The
/// slack keeps a face that is nearly as good (a box tipping on an edge
/// of another) from flickering between one point and four (as in
/// Gregorius, *Robust Contact Creation for Physics Simulations*, GDC 2015,
/// which prefers faces to edges within a relative tolerance).
pub const FACE_CONTACT_TOLERANCE: f64 = 0.05;

/// A reference face is kept on A unless B's face beats it: B's is chosen
/// when its overlap's excess over the least overlap is below this fraction
/// of A's, by more than rounding ([`EPA_ROUNDING_ULPS`] ulps of the
/// scale): hysteresis, so that nearly equal faces do not swap between
/// frames (Box2D's `k_relativeTol`).
pub const REFERENCE_FACE_BIAS: f64 = 0.98;

/// A face of the reference shape is taken for the face across an edge of
/// the reference face when its normal is perpendicular to the edge to
/// this (the cosine of their angle); see [`polytope_manifold`]'s rim
/// planes. A face taken wrongly is harmless: it must also pass through
/// both ends of the edge (to the zero band) to be used.
pub const RIM_FACE_ALIGNMENT: f64 = 1e-3;

/// How many rim points stand in for a disc face (a cylinder's cap, a
/// cone's base): a regular polygon inscribed in the rim, its first point
/// the rim's support point along the direction asked for, so that a
/// tilted cap clipped on a floor keeps its deepest point (Jolt's
/// cylinder faces take eight too). Its points lie on the surface; the
/// area it drops is 1 − (8 / 2π) sin(π / 4) ≈ 10 % of the disc, at the
/// rim.
pub const DISC_FACE_POINTS: usize = 8;

/// How many directions round a curved side [`PolyhedronFaces::best_face_by`]
/// scores first (a cylinder's or cone's side normals form a circle); the
/// best of them is then refined by [`SIDE_REFINE_STEPS`] golden-section
/// steps between its neighbours.
pub const SIDE_NORMAL_SAMPLES: usize = 32;

/// Golden-section steps that refine the best of [`SIDE_NORMAL_SAMPLES`]
/// (each shrinks the bracket of two sample spacings by 0.618: 40 steps
/// end below 10⁻⁹ rad).
pub const SIDE_REFINE_STEPS: usize = 40;

/// One point of a manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint<V: Vector> {
    /// Point on A's surface.
    pub point_a: V,
    /// Point on B's surface.
    pub point_b: V,
    /// Penetration along the manifold normal (negative: a speculative point
    /// still apart by that much).
    pub depth: V::Scalar,
    /// Which features make this point, for matching it with the last
    /// frame's points (a physics engine's warm start, as Box2D's
    /// `b2ManifoldPoint::id`): the same reference face, the same incident
    /// vertex or the same crossing of an incident edge with a side plane
    /// give the same id in every call, wherever the shapes are placed.
    /// Distinct within a manifold; a manifold of the contact's own single
    /// point has [`SINGLE_POINT_ID`]. See *Feature ids* in this module's docs.
    pub id: u32,
}

/// The [`ManifoldPoint::id`] of a manifold's only point where no face
/// carries the contact (edge to edge, ball to ball): one point per pair,
/// so it matches last frame's single point, as Box2D's circles do.
pub const SINGLE_POINT_ID: u32 = 0;

/// Mixes `x` into the feature key `h`: a rotation, an exclusive or and
/// one odd multiply (a bijection in each argument, not symmetric), cheap
/// enough for every edge and crossing a clip makes; the keys it combines
/// are [`avalanche`]d already (a point's coordinates) or small seeds, and
/// the id is avalanched at the end ([`finish`]).
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// splitmix64's finaliser: every input bit reaches every output bit, so
/// keys of different features give ids that collide with probability
/// about 2⁻³² per pair.
#[inline]
fn avalanche(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seeds of the feature keys, one per kind of feature, so that keys of
/// different kinds never coincide by construction.
mod seed {
    /// A point named by its coordinates.
    pub const POINT: u64 = 1;
    /// A point named by its place in a face (curved faces).
    pub const PLACE: u64 = 2;
    /// A side plane through a reference face's edge (or a reference
    /// line's end).
    pub const SIDE: u64 = 3;
    /// A plane of the reference shape's own face beyond a rim.
    pub const RIM: u64 = 4;
    /// A line crossing a plane.
    pub const CROSS: u64 = 5;
    /// An incident face's edge.
    pub const EDGE: u64 = 9;
    /// A line along a clip plane.
    pub const ALONG: u64 = 10;
    /// The reference face of a face manifold.
    pub const FACE: u64 = 6;
    /// Two lines side by side.
    pub const LINE: u64 = 7;
    /// A round shape's surface point under a non-uniform scale.
    pub const SURFACE: u64 = 8;
}

/// The feature key of a point by its coordinates' bits: the same point of
/// a shape's frame gives the same key (a polytope's corner, a capsule's
/// end): the default of [`PolyhedronFaces::face_keys`].
fn point_key<V: Vector3>(p: V) -> u64 {
    coordinate_key([p.get(0), p.get(1), p.get(2)])
}

/// [`point_key`] in 2D: the default of [`PolygonEdges::edge_keys`].
fn point_key2<V: Vector2>(p: V) -> u64 {
    coordinate_key([p.x(), p.y()])
}

/// [`point_key`]'s hash of up to three coordinates: each coordinate's
/// bits folded in by an odd multiply and a shift down (so that the next
/// multiply spreads its high bits, signs included: a plain sum of
/// products would map every sign to the top bit, and the corners
/// `(x, z)` and `(−x, −z)` of a box's face would collide), then
/// [`avalanche`]d.
#[inline]
fn coordinate_key<S: Real, const N: usize>(c: [S; N]) -> u64 {
    let mut h = seed::POINT;
    for x in c {
        h = (h ^ x.to_f64().to_bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    avalanche(h)
}

/// A point's id from its feature key.
#[inline]
fn finish(h: u64) -> u32 {
    let z = avalanche(h);
    (z ^ (z >> 32)) as u32
}

/// Up to [`MAX_MANIFOLD_POINTS`] contact points sharing one normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactManifold<V: Vector> {
    /// Unit normal from A to B (the reference face's normal).
    pub normal: V,
    points: [ManifoldPoint<V>; MAX_MANIFOLD_POINTS],
    len: usize,
}

impl<V: Vector> ContactManifold<V> {
    /// An empty manifold.
    pub fn empty(normal: V) -> Self {
        let zero = ManifoldPoint { point_a: V::ZERO, point_b: V::ZERO, depth: V::Scalar::ZERO, id: 0 };
        Self { normal, points: [zero; MAX_MANIFOLD_POINTS], len: 0 }
    }
    /// The points.
    pub fn points(&self) -> &[ManifoldPoint<V>] {
        &self.points[..self.len]
    }
    /// Number of points.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether it has no point.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn push(&mut self, p: ManifoldPoint<V>) {
        if self.len < MAX_MANIFOLD_POINTS {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    /// Makes the ids distinct (two features' keys may collide, about 2⁻³²
    /// per pair): a repeated id moves up by one until it is new. Loop
    /// bound: a point has at most `MAX_MANIFOLD_POINTS − 1` points before
    /// it, so one of `MAX_MANIFOLD_POINTS` consecutive values is free.
    fn distinct_ids(&mut self) {
        for i in 1..self.len {
            for _ in 0..MAX_MANIFOLD_POINTS {
                let id = self.points[i].id;
                if !self.points[..i].iter().any(|q| q.id == id) {
                    break;
                }
                self.points[i].id = id.wrapping_add(1);
            }
        }
    }
}

/// Scores a face by its outward unit normal: the larger, the better.
pub type FaceScore<'a, V> = &'a dyn Fn(V) -> <V as Vector>::Scalar;

/// Shapes with polygonal faces (3D), in their local frame; round shapes
/// (balls, capsules, [`Rounded`]) through their cores' faces and
/// [`face_radius`](Self::face_radius) (a core with fewer than three points
/// is never a reference face, only clipped). The support map measures how
/// far the other shape reaches along a face's normal.
///
/// A shape of your own takes part in [`polytope_manifold`] by returning
/// its faces; `best_face_by` lets a wrapper that scales it pick by world
/// normals.
pub trait PolyhedronFaces<V: Vector3>: SupportMap<V> {
    /// Writes the vertices (counter-clockwise from outside) of the face
    /// whose outward normal is most aligned with `dir` into `out`, and
    /// returns that normal.
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V;

    /// Writes the vertices of the face whose outward unit normal scores
    /// highest into `out`, and returns that normal. Wrappers that map
    /// normals by more than a rotation (a non-uniform scale) pick their
    /// wrapped shape's face through it: `best_face` of the local direction
    /// would measure angles in the wrong metric.
    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V;

    /// How far the surface lies out from the faces: the radius of a round
    /// shape whose faces are its core's (a capsule's segment, a ball's
    /// centre, a rounded box's box). Zero for polytopes.
    #[inline]
    fn face_radius(&self) -> V::Scalar {
        V::Scalar::ZERO
    }

    /// Whether no face leans in below a neighbour (every dihedral angle is
    /// 90° or more, as on a box): then the side planes of a reference face
    /// hold the shape near it, and [`polytope_manifold`] skips the search
    /// for faces beyond its rims. `false` (the default) is always safe.
    #[inline]
    fn square_rims(&self) -> bool {
        false
    }

    /// As [`best_face_by`](Self::best_face_by), and writes into `around`
    /// the planes (a point on each and its outward unit normal, in the
    /// same frame) of the shape's other faces that share a vertex with the
    /// face picked. `None` (the default) where the shape does not know its
    /// faces' neighbours; [`polytope_manifold`] then finds the faces across
    /// a reference face's edges by scoring every face instead (and misses
    /// those that meet it only at a vertex).
    #[inline]
    fn best_face_around_by(
        &self,
        score: FaceScore<'_, V>,
        out: &mut Vec<V>,
        around: &mut Vec<(V, V)>,
    ) -> Option<V> {
        let _ = (score, out, around);
        None
    }

    /// Writes into `keys` a key per vertex of `face`, a face that this
    /// shape's [`best_face`](Self::best_face) or
    /// [`best_face_by`](Self::best_face_by) wrote with the normal
    /// `normal` (same frame). A key names the feature the vertex stands
    /// for, the same in every call that returns it, so that
    /// [`ManifoldPoint::id`] holds from frame to frame. The default hashes
    /// each vertex's coordinates: right for vertices that
    /// are fixed points of the shape (polytopes' corners, a capsule's
    /// ends, a ball's centre). A shape whose face samples a curved surface
    /// names its points by their place in the face instead: they move
    /// with the direction asked.
    #[inline]
    fn face_keys(&self, face: &[V], normal: V, keys: &mut Vec<u64>) {
        let _ = normal;
        keys.clear();
        keys.reserve(face.len());
        for p in face {
            keys.push(point_key(*p));
        }
    }
}

/// Keys by place in the face (see [`PolyhedronFaces::face_keys`]): the
/// `k`-th point of the face kind `kind`.
fn place_keys(kind: u64, len: usize, keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend((0..len).map(|k| mix(mix(seed::PLACE, kind), k as u64)));
}

impl<V: Space + Vector3> PolyhedronFaces<V> for Ball<V::Scalar> {
    /// The centre: a ball has no face, only a core point to be clipped.
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        out.clear();
        out.push(V::ZERO);
        dir.try_normalize().unwrap_or(V::X)
    }

    fn best_face_by(&self, _score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        out.clear();
        out.push(V::ZERO);
        V::X
    }

    fn face_radius(&self) -> V::Scalar {
        self.radius()
    }
}

impl<V: Space + Vector3> PolyhedronFaces<V> for Capsule<V::Scalar> {
    /// The core segment: no face, but both ends are clipped, so a capsule
    /// lying on a face gets two points.
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        let (bottom, top) = self.segment::<V>();
        out.clear();
        out.extend([bottom, top]);
        dir.try_normalize().unwrap_or(V::X)
    }

    fn best_face_by(&self, _score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        self.best_face(V::X, out)
    }

    fn face_radius(&self) -> V::Scalar {
        self.radius()
    }
}

/// The unit direction across local Y of `dir` (its part in the x–z
/// plane), and that part's length; `X` where `dir` has none.
fn across_y<V: Space + Vector3>(dir: V) -> (V, V::Scalar) {
    let flat = V::new3(dir.component(0), V::Scalar::ZERO, dir.component(2));
    let len = flat.length();
    match flat.try_normalize() {
        Some(u) => (u, len),
        None => (V::X, V::Scalar::ZERO),
    }
}

/// `(cos, sin)` of `k` of [`DISC_FACE_POINTS`] steps round a turn.
fn disc_step<S: Real>(k: usize) -> (S, S) {
    let angle = core::f64::consts::TAU * k as f64 / DISC_FACE_POINTS as f64;
    let (sin, cos) = angle.sin_cos();
    (S::from_f64(cos), S::from_f64(sin))
}

/// Writes a disc face's [`DISC_FACE_POINTS`] rim points: radius `r` about
/// `y · Y`, the first along the unit `u` (across Y), counter-clockwise
/// seen from the side its normal `±Y` (the sign of `side`) points to.
fn disc_face<V: Space + Vector3>(u: V, r: V::Scalar, y: V::Scalar, side: V::Scalar, out: &mut Vec<V>) {
    // Seen from +Y, counter-clockwise runs from x to −z: `w = Y × u`.
    let w = V::axis(1).cross(u) * side;
    out.clear();
    out.extend((0..DISC_FACE_POINTS).map(|k| {
        let (cos, sin) = disc_step::<V::Scalar>(k);
        (u * cos + w * sin) * r + V::axis(1) * y
    }));
}

/// The angle `θ` whose direction `(cos θ, 0, sin θ)` makes `f` largest
/// (a curved side's normals): the best of [`SIDE_NORMAL_SAMPLES`], refined
/// by golden-section search between its neighbours. Returns the unit
/// direction and `f` there.
fn best_across<V: Space + Vector3>(f: impl Fn(V) -> V::Scalar) -> (V, V::Scalar) {
    let at = |theta: f64| {
        let (sin, cos) = theta.sin_cos();
        V::new3(V::Scalar::from_f64(cos), V::Scalar::ZERO, V::Scalar::from_f64(sin))
    };
    let step = core::f64::consts::TAU / SIDE_NORMAL_SAMPLES as f64;
    let (mut best, mut value) = (0.0, f(at(0.0)));
    for k in 1..SIDE_NORMAL_SAMPLES {
        let v = f(at(k as f64 * step));
        if v > value {
            (best, value) = (k as f64 * step, v);
        }
    }
    // Golden-section search on [best − step, best + step] (the side's
    // scores are smooth; where the bracket holds no better point the
    // sample stands). Loop bound: SIDE_REFINE_STEPS.
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (best - step, best + step);
    for _ in 0..SIDE_REFINE_STEPS {
        let (m1, m2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if f(at(m1)) >= f(at(m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let mid = at((lo + hi) / 2.0);
    let v = f(mid);
    if v > value { (mid, v) } else { (at(best), value) }
}

/// A cylinder's face most aligned with `dir`: a cap (a disc face, its
/// first point along `dir`'s part across the axis) where `|dir.y|` is at
/// least that part's length, else the side's line along it (two points,
/// clipped, never a reference face).
fn cylinder_face<V: Space + Vector3>(c: &Cylinder<V::Scalar>, dir: V, out: &mut Vec<V>) -> V {
    let (u, across) = across_y(dir);
    let y = dir.component(1);
    if y.abs() >= across {
        let side = if y < V::Scalar::ZERO { -V::Scalar::ONE } else { V::Scalar::ONE };
        disc_face(u, c.disc_radius(), c.half_height() * side, side, out);
        V::axis(1) * side
    } else {
        let (rim, up) = (u * c.disc_radius(), V::axis(1) * c.half_height());
        out.clear();
        out.extend([rim - up, rim + up]);
        u
    }
}

impl<V: Space + Vector3> PolyhedronFaces<V> for Cylinder<V::Scalar> {
    /// A cap as [`DISC_FACE_POINTS`] rim points, or the side's line (see
    /// [`DISC_FACE_POINTS`]).
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        cylinder_face(self, dir, out)
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        let (u, side) = best_across(score);
        let (top, bottom) = (score(V::axis(1)), score(-V::axis(1)));
        let dir = if top >= side && top >= bottom {
            V::axis(1)
        } else if bottom >= side {
            -V::axis(1)
        } else {
            u
        };
        cylinder_face(self, dir, out)
    }

    /// The caps meet the side square.
    fn square_rims(&self) -> bool {
        true
    }

    /// By place: a cap's rim points by their order from the first (which
    /// follows the direction asked), the side's line by its ends.
    fn face_keys(&self, face: &[V], normal: V, keys: &mut Vec<u64>) {
        let kind = match face.len() {
            DISC_FACE_POINTS if normal.component(1) < V::Scalar::ZERO => 0,
            DISC_FACE_POINTS => 1,
            _ => 2,
        };
        place_keys(kind, face.len(), keys);
    }
}

/// A cone's side's outward unit normal along the unit `u` across the axis.
fn cone_normal<V: Space + Vector3>(c: &Cone<V::Scalar>, u: V) -> V {
    let two = V::Scalar::ONE + V::Scalar::ONE;
    (u * (two * c.half_height()) + V::axis(1) * c.base_radius()).try_normalize().unwrap_or(u)
}

/// A cone's face most aligned with `dir`: the base (a disc face, its first
/// point along `dir`'s part across the axis), or the side's line from the
/// apex to the rim along that part (two points, clipped, never a
/// reference face).
fn cone_face<V: Space + Vector3>(c: &Cone<V::Scalar>, dir: V, out: &mut Vec<V>) -> V {
    let (u, across) = across_y(dir);
    let y = dir.component(1);
    let two = V::Scalar::ONE + V::Scalar::ONE;
    let slant = V::sqrt(two * two * c.half_height() * c.half_height() + c.base_radius() * c.base_radius());
    // Alignments times |dir|: the base's `−y`, the side's best.
    if -y * slant >= two * c.half_height() * across + c.base_radius() * y {
        disc_face(u, c.base_radius(), -c.half_height(), -V::Scalar::ONE, out);
        -V::axis(1)
    } else {
        let up = V::axis(1) * c.half_height();
        out.clear();
        out.extend([u * c.base_radius() - up, up]);
        cone_normal(c, u)
    }
}

impl<V: Space + Vector3> PolyhedronFaces<V> for Cone<V::Scalar> {
    /// The base as [`DISC_FACE_POINTS`] rim points, or the side's line (see
    /// [`DISC_FACE_POINTS`]).
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        cone_face(self, dir, out)
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        let (u, side) = best_across(|u| score(cone_normal(self, u)));
        let dir = if score(-V::axis(1)) >= side { -V::axis(1) } else { cone_normal(self, u) };
        cone_face(self, dir, out)
    }

    /// Where the base scores best: the side's tangent planes at
    /// [`SIDE_NORMAL_SAMPLES`] rim points, which lean in over the base (a
    /// floor overhanging an upturned cone's base is clipped to them, not
    /// to the base's side planes alone). Any tangent plane holds the
    /// cone, so they clip nothing of it.
    fn best_face_around_by(
        &self,
        score: FaceScore<'_, V>,
        out: &mut Vec<V>,
        around: &mut Vec<(V, V)>,
    ) -> Option<V> {
        let n = self.best_face_by(score, out);
        if n != -V::axis(1) {
            return None;
        }
        around.clear();
        around.extend((0..SIDE_NORMAL_SAMPLES).map(|k| {
            let theta = core::f64::consts::TAU * k as f64 / SIDE_NORMAL_SAMPLES as f64;
            let (sin, cos) = theta.sin_cos();
            let u = V::new3(V::Scalar::from_f64(cos), V::Scalar::ZERO, V::Scalar::from_f64(sin));
            (u * self.base_radius() - V::axis(1) * self.half_height(), cone_normal(self, u))
        }));
        Some(n)
    }

    /// By place: the base's rim points by their order from the first
    /// (which follows the direction asked), the side's line by its ends.
    fn face_keys(&self, face: &[V], _normal: V, keys: &mut Vec<u64>) {
        let kind = if face.len() == DISC_FACE_POINTS { 0 } else { 1 };
        place_keys(kind, face.len(), keys);
    }
}

impl<V: Space + Vector3, T: PolyhedronFaces<V> + Shape<V>> PolyhedronFaces<V> for Rounded<T, V::Scalar> {
    /// The core's faces; the rounding adds to the radius.
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        self.shape.best_face(dir, out)
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        self.shape.best_face_by(score, out)
    }

    fn face_radius(&self) -> V::Scalar {
        self.shape.face_radius() + self.rounding()
    }

    fn face_keys(&self, face: &[V], normal: V, keys: &mut Vec<u64>) {
        self.shape.face_keys(face, normal, keys);
    }
}

/// The box's face on `axis` (`sign` ±1) into `out`; returns its normal.
fn box_face<V: Space + Vector3>(half: V, axis: usize, sign: V::Scalar, out: &mut Vec<V>) -> V {
    let n = V::axis(axis) * sign;
    let (u, w) = (V::axis((axis + 1) % 3), V::axis((axis + 2) % 3));
    let c = n * half.component(axis);
    let (hu, hw) = (u * half.component((axis + 1) % 3), w * half.component((axis + 2) % 3));
    out.clear();
    // u × w = n for the positive face: (+,+),(−,+),(−,−),(+,−) is
    // counter-clockwise around +n; reverse it for the negative face.
    let ring = [hu + hw, hw - hu, -hu - hw, hu - hw];
    if sign > V::Scalar::ZERO {
        out.extend(ring.iter().map(|&p| c + p));
    } else {
        out.extend(ring.iter().rev().map(|&p| c + p));
    }
    n
}

impl<V: Space + Vector3> PolyhedronFaces<V> for Cuboid<V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        // The axis of the largest |component| names the face.
        let (mut axis, mut best) = (0, V::Scalar::ZERO);
        for k in 0..3 {
            let c = dir.component(k).abs();
            if c > best {
                best = c;
                axis = k;
            }
        }
        let sign = if dir.component(axis) < V::Scalar::ZERO { -V::Scalar::ONE } else { V::Scalar::ONE };
        box_face(self.half_extents(), axis, sign, out)
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        let (mut axis, mut sign, mut best) = (0, V::Scalar::ONE, -V::Scalar::INFINITY);
        for k in 0..3 {
            for s in [V::Scalar::ONE, -V::Scalar::ONE] {
                let v = score(V::axis(k) * s);
                if v > best {
                    (axis, sign, best) = (k, s, v);
                }
            }
        }
        box_face(self.half_extents(), axis, sign, out)
    }

    fn square_rims(&self) -> bool {
        true
    }
}

impl<V: Space + Vector3> PolyhedronFaces<V> for ConvexHull<V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        out.clear();
        match ConvexHull::best_face(self, dir) {
            Some(f) => {
                out.extend(f.vertices.iter().map(|&i| self.vertices()[i as usize]));
                f.normal
            }
            None => flat_face(self.vertices(), &|n| n.dot(dir), out),
        }
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        let mut best: Option<(&gjk_shapes::HullFace<V>, V::Scalar)> = None;
        for f in self.polygons() {
            let v = score(f.normal);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((f, v));
            }
        }
        out.clear();
        match best {
            Some((f, _)) => {
                out.extend(f.vertices.iter().map(|&i| self.vertices()[i as usize]));
                f.normal
            }
            None => flat_face(self.vertices(), score, out),
        }
    }

    fn best_face_around_by(
        &self,
        score: FaceScore<'_, V>,
        out: &mut Vec<V>,
        around: &mut Vec<(V, V)>,
    ) -> Option<V> {
        let polygons = self.polygons();
        let (best, _) = polygons.iter().enumerate().map(|(k, f)| (k, score(f.normal))).fold(
            None,
            |b: Option<(usize, V::Scalar)>, (k, v)| {
                if b.is_none_or(|(_, s)| v > s) { Some((k, v)) } else { b }
            },
        )?;
        let face = &polygons[best];
        out.clear();
        out.extend(face.vertices.iter().map(|&i| self.vertices()[i as usize]));
        around.clear();
        // A face sharing an edge comes once per shared vertex: a repeated
        // plane clips nothing the first did not.
        for &v in &face.vertices {
            for &q in self.polygons_at(v as usize) {
                if q as usize != best {
                    let f = &polygons[q as usize];
                    around.push((self.vertices()[f.vertices[0] as usize], f.normal));
                }
            }
        }
        Some(face.normal)
    }
}

/// The face of a degenerate hull (no polygons; its vertices are its
/// extreme points only): a flat hull is one face seen from either side,
/// so a plate lying on a floor gets its corners. Writes its vertices
/// counter-clockwise about the side's normal that scores higher, and
/// returns that normal. A segment writes its two ends (clipped, never a
/// reference face), a point itself; their normal is the best-scoring axis.
fn flat_face<V: Space + Vector3>(v: &[V], score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
    out.clear();
    // The plane's normal: the largest cross product from the first vertex
    // (a flat hull's vertices span a plane; a line or point spans none).
    let normal = (1..v.len())
        .flat_map(|i| (i + 1..v.len()).map(move |j| (v[i] - v[0]).cross(v[j] - v[0])))
        .fold(V::ZERO, |best, c| if c.length_squared() > best.length_squared() { c } else { best })
        .try_normalize();
    let Some(n) = normal else {
        // A segment or a point: its vertices (a degenerate hull keeps only
        // its extreme points: two ends, or one).
        out.extend(v.iter().copied());
        return best_axis(score);
    };
    let n = if score(-n) > score(n) { -n } else { n };
    // Counter-clockwise about `n`: by angle about the centroid in the plane.
    let centre =
        v.iter().fold(V::ZERO, |s, p| s + *p) * (V::Scalar::ONE / V::Scalar::from_f64(v.len() as f64));
    let u = (v.iter().copied().fold(v[0], |m, p| {
        if (p - centre).length_squared() > (m - centre).length_squared() { p } else { m }
    }) - centre)
        .try_normalize()
        .unwrap_or(V::X);
    let w = n.cross(u);
    let angle = |p: &V| {
        let d = *p - centre;
        d.dot(w).to_f64().atan2(d.dot(u).to_f64())
    };
    out.extend(v.iter().copied());
    out.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    n
}

/// The world normal of a unit normal of a [`Transformed`] shape's wrapped
/// shape: scale maps normals by the inverse scale (faces stay planar),
/// then the rotation.
fn face_normal<V: Space, T>(t: &Transformed<T, V>, n: V) -> V {
    let ns = V::mul_elem(n, inv_elem(t.scale()));
    t.pose().transform_vector(ns.try_normalize().unwrap_or(n))
}

/// Whether a scale is the same along every axis.
fn uniform<V: Space>(scale: V) -> bool {
    (1..V::DIM).all(|k| scale.component(k) == scale.component(0))
}

impl<V: Space + Vector3, T: PolyhedronFaces<V>> PolyhedronFaces<V> for Transformed<T, V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        let s0 = self.scale().component(0);
        if !uniform(self.scale()) && self.shape.face_radius() > V::Scalar::ZERO {
            // A round shape under a non-uniform scale is no longer its core
            // grown by a ball: its surface point stands in for a face.
            out.clear();
            out.push(self.support(dir));
            return dir.try_normalize().unwrap_or(V::X);
        }
        if uniform(self.scale()) {
            // A uniform scale keeps angles: the local direction picks.
            let n = self.shape.best_face(self.pose().inverse_transform_vector(dir), out);
            for p in out.iter_mut() {
                *p = self.pose().transform_point(*p * s0);
            }
            return self.pose().transform_vector(n);
        }
        self.best_face_by(&|n| n.dot(dir), out)
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        if !uniform(self.scale()) && self.shape.face_radius() > V::Scalar::ZERO {
            // As in `best_face`: the support along the best-scoring axis.
            let dir = best_axis(score);
            return self.best_face(dir, out);
        }
        let n = self.shape.best_face_by(&|n| score(face_normal(self, n)), out);
        for p in out.iter_mut() {
            *p = self.pose().transform_point(V::mul_elem(self.scale(), *p));
        }
        face_normal(self, n)
    }

    fn face_radius(&self) -> V::Scalar {
        if uniform(self.scale()) {
            self.shape.face_radius() * self.scale().component(0)
        } else {
            V::Scalar::ZERO
        }
    }

    /// A uniform scale keeps every angle (a non-uniform one can shear a
    /// turned box's).
    fn square_rims(&self) -> bool {
        self.shape.square_rims() && uniform(self.scale())
    }

    fn best_face_around_by(
        &self,
        score: FaceScore<'_, V>,
        out: &mut Vec<V>,
        around: &mut Vec<(V, V)>,
    ) -> Option<V> {
        if !uniform(self.scale()) && self.shape.face_radius() > V::Scalar::ZERO {
            return None;
        }
        let n = self.shape.best_face_around_by(&|n| score(face_normal(self, n)), out, around)?;
        let place = |p: V| self.pose().transform_point(V::mul_elem(self.scale(), p));
        for p in out.iter_mut() {
            *p = place(*p);
        }
        for (p, m) in around.iter_mut() {
            (*p, *m) = (place(*p), face_normal(self, *m));
        }
        Some(face_normal(self, n))
    }

    /// The wrapped shape's keys of the face mapped back to its frame
    /// (the same points give the same bits back every call).
    fn face_keys(&self, face: &[V], normal: V, keys: &mut Vec<u64>) {
        if !uniform(self.scale()) && self.shape.face_radius() > V::Scalar::ZERO {
            // A surface point standing in for a face: no feature to name.
            keys.clear();
            keys.extend(face.iter().map(|_| seed::SURFACE));
            return;
        }
        let inv = inv_elem(self.scale());
        let inner: Vec<V> =
            face.iter().map(|p| V::mul_elem(inv, self.pose().inverse_transform_point(*p))).collect();
        let n = V::mul_elem(self.scale(), self.pose().inverse_transform_vector(normal));
        self.shape.face_keys(&inner, n.try_normalize().unwrap_or(n), keys);
    }
}

impl<V: Space + Vector3, T: PolyhedronFaces<V>> PolyhedronFaces<V> for Placed<T, V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        let n = self.shape.best_face(self.local_dir(dir), out);
        for p in out.iter_mut() {
            *p = self.to_outer(*p);
        }
        self.dir_to_outer(n)
    }

    fn face_radius(&self) -> V::Scalar {
        self.shape.face_radius()
    }

    fn square_rims(&self) -> bool {
        self.shape.square_rims()
    }

    fn best_face_around_by(
        &self,
        score: FaceScore<'_, V>,
        out: &mut Vec<V>,
        around: &mut Vec<(V, V)>,
    ) -> Option<V> {
        let n = self.shape.best_face_around_by(&|n| score(self.dir_to_outer(n)), out, around)?;
        for p in out.iter_mut() {
            *p = self.to_outer(*p);
        }
        for (p, m) in around.iter_mut() {
            (*p, *m) = (self.to_outer(*p), self.dir_to_outer(*m));
        }
        Some(self.dir_to_outer(n))
    }

    fn best_face_by(&self, score: FaceScore<'_, V>, out: &mut Vec<V>) -> V {
        let n = self.shape.best_face_by(&|n| score(self.dir_to_outer(n)), out);
        for p in out.iter_mut() {
            *p = self.to_outer(*p);
        }
        self.dir_to_outer(n)
    }

    /// The wrapped shape's keys of the face mapped back to its frame.
    fn face_keys(&self, face: &[V], normal: V, keys: &mut Vec<u64>) {
        let inner: Vec<V> = face.iter().map(|p| self.to_inner(*p)).collect();
        self.shape.face_keys(&inner, self.local_dir(normal), keys);
    }
}

/// The unit axis direction (either sign) that scores highest.
fn best_axis<V: Space>(score: FaceScore<'_, V>) -> V {
    let mut dir = V::X;
    for k in 0..V::DIM {
        for s in [V::Scalar::ONE, -V::Scalar::ONE] {
            if score(V::axis(k) * s) > score(dir) {
                dir = V::axis(k) * s;
            }
        }
    }
    dir
}

/// `1 / s` per component.
fn inv_elem<V: Space>(s: V) -> V {
    (0..V::DIM).fold(V::ZERO, |acc, i| acc + V::axis(i) * (V::Scalar::ONE / s.component(i)))
}

/// Scratch space for faces in a shape's own frame and their keys, shared
/// between the calls of one manifold.
type Scratch<'a, V> = (&'a mut Vec<V>, &'a mut Vec<u64>);

/// A face in the world frame ([`Clipped`] points, unkeyed: see
/// [`key_face`]), and its normal in the world frame and in the shape's
/// (`local` holds the face there).
fn world_face<V, T>(
    shape: &T,
    pose: &Pose<V>,
    dir: V,
    out: &mut Vec<Clipped<V>>,
    local: &mut Vec<V>,
) -> (V, V)
where
    V: Space + Vector3,
    T: PolyhedronFaces<V> + ?Sized,
{
    let n = shape.best_face(pose.inverse_transform_vector(dir), local);
    out.clear();
    out.extend(local.iter().map(|p| Clipped { p: pose.transform_point(*p), key: 0, along: 0 }));
    (pose.transform_vector(n), n)
}

/// Keys the face [`world_face`] made of `shape` along `dir`: each vertex
/// with its feature key and the key of the edge to the next. The face is
/// asked for again in the shape's own frame (the same direction gives
/// the same face), so that only faces that make points are keyed.
fn key_face<V, T>(shape: &T, pose: &Pose<V>, dir: V, face: &mut [Clipped<V>], (local, keys): Scratch<'_, V>)
where
    V: Space + Vector3,
    T: PolyhedronFaces<V> + ?Sized,
{
    let n = shape.best_face(pose.inverse_transform_vector(dir), local);
    key_local_face(shape, (local, n), face, keys);
}

/// Keys `face` from the same face in the shape's own frame (`local` and
/// its normal there), as [`key_face`].
fn key_local_face<V, T>(shape: &T, (local, n): (&[V], V), face: &mut [Clipped<V>], keys: &mut Vec<u64>)
where
    V: Space + Vector3,
    T: PolyhedronFaces<V> + ?Sized,
{
    shape.face_keys(local, n, keys);
    if keys.len() != local.len() {
        // A shape of one's own that keys its face wrongly: by coordinates.
        keys.clear();
        keys.extend(local.iter().map(|p| point_key(*p)));
    }
    let k = keys.len().min(face.len());
    for i in 0..k {
        let next = if i + 1 == k { 0 } else { i + 1 };
        face[i].key = keys[i];
        face[i].along = edge_key(keys[i], keys[next]);
    }
}

/// A point of a face: a vector itself, or a clipped point's place.
trait At<V> {
    /// Where it is.
    fn at(&self) -> V;
}

impl<V: Vector> At<V> for V {
    #[inline]
    fn at(&self) -> V {
        *self
    }
}

impl<V: Copy> At<V> for Clipped<V> {
    #[inline]
    fn at(&self) -> V {
        self.p
    }
}

/// A reference edge's search for the face beyond it: the edge's first
/// end (world frame), its outward side and direction (the shape's frame),
/// and the best leaning-in face normal so far with its lean.
type Rim<V> = (V, V, V, Cell<(<V as Vector>::Scalar, V)>);

/// The reference shape's own faces across the reference face's edges
/// where they lean in below it (an overhanging rim, a dihedral angle under
/// 90°), as clip planes (world frame: a point on each and its outward
/// normal). Below such a rim the side plane lies outside the shape, and a
/// point of the incident face between the two planes would lie below the
/// reference face yet outside the reference shape. Above the reference
/// face such a plane lies outside the side plane, so it clips nothing
/// there.
///
/// Across each edge, the face whose normal is perpendicular to the edge
/// ([`RIM_FACE_ALIGNMENT`]) and leans furthest to the edge's side is the
/// one beyond it (the faces whose normals lie on the edge's arc come in
/// order from the reference face's). One pass of
/// [`PolyhedronFaces::best_face_by`] scores every face for every edge at
/// once (a shape whose `best_face_by` skips faces only loses rim planes).
/// A face is used only where the shape reaches no further along its
/// normal than the edge (to `band`): its plane passes through the edge.
/// None for round shapes (a face radius: their faces are their cores') or
/// shapes with [`square_rims`](PolyhedronFaces::square_rims). Each plane
/// carries its feature key: its normal's in the shape's frame.
fn rim_planes<V, T>(
    shape: &T,
    pose: &Pose<V>,
    face: &[Clipped<V>],
    n: V,
    band: V::Scalar,
    scratch: &mut Vec<V>,
) -> Vec<(V, V, u64)>
where
    V: Space + Vector3,
    T: PolyhedronFaces<V> + ?Sized,
{
    if shape.face_radius() > V::Scalar::ZERO || shape.square_rims() {
        return Vec::new();
    }
    let k = face.len();
    // Room for the faces round a face: about three at each vertex.
    let mut planes = Vec::with_capacity(4 * k);
    let aligned = V::Scalar::from_f64(RIM_FACE_ALIGNMENT);
    let local_n = pose.inverse_transform_vector(n);
    // A shape that knows its faces' neighbours names them: every face
    // sharing a vertex with the reference face (the face most aligned with
    // its own normal), of which those leaning in below clip.
    let mut around = Vec::with_capacity(4 * k);
    if shape.best_face_around_by(&|m| m.dot(local_n), scratch, &mut around).is_some() {
        planes.extend(
            around
                .into_iter()
                .filter(|(_, m)| m.dot(local_n) < -aligned)
                .map(|(p, m)| (pose.transform_point(p), pose.transform_vector(m), rim_key(m))),
        );
        return planes;
    }
    // Scored in the shape's own frame (no rotation per face): the normal,
    // and per edge its first end (world), side and direction (local),
    // with the best face normal so far across it that leans in below (by
    // more than the alignment: a rim a hair from square changes nothing).
    let rims: Vec<Rim<V>> = (0..k)
        .filter_map(|i| {
            let (p0, p1) = (face[i].p, face[(i + 1) % k].p);
            let side = pose.inverse_transform_vector((p1 - p0).cross(n).try_normalize()?);
            let dir = pose.inverse_transform_vector((p1 - p0).try_normalize()?);
            Some((p0, side, dir, Cell::new((V::Scalar::ZERO, V::ZERO))))
        })
        .collect();
    let record = |m: V| {
        if m.dot(local_n) < -aligned {
            for (_, side, dir, best) in &rims {
                if m.dot(*dir).abs() <= aligned {
                    let lean = m.dot(*side);
                    if lean > best.get().0 {
                        best.set((lean, m));
                    }
                }
            }
        }
        V::Scalar::ZERO
    };
    shape.best_face_by(&record, scratch);
    for (p0, _, _, best) in &rims {
        let (lean, m) = best.get();
        if lean > V::Scalar::ZERO {
            let key = rim_key(m);
            let m = pose.transform_vector(m);
            if reach(shape, pose, m) - m.dot(*p0) <= band {
                planes.push((*p0, m, key));
            }
        }
    }
    planes
}

/// A rim plane's feature key: its normal's (in the shape's frame).
fn rim_key<V: Vector3>(m: V) -> u64 {
    mix(seed::RIM, point_key(m))
}

/// The feature key of the line from a point keyed `a` to one keyed `b`
/// (an incident face's edge).
fn edge_key(a: u64, b: u64) -> u64 {
    mix(mix(seed::EDGE, a), b)
}

/// The feature key of the line along a clip plane keyed `plane` (the new
/// edge Sutherland–Hodgman makes there).
fn along_plane(plane: u64) -> u64 {
    mix(seed::ALONG, plane)
}

/// The feature key of the point where the line keyed `line` crosses the
/// plane keyed `plane`: an incident edge's crossing of a side plane, or,
/// for a line along an earlier plane, the reference face's corner between
/// the two planes. It names the features the point lies on, not the order
/// it was cut in.
fn cross_key(line: u64, plane: u64) -> u64 {
    mix(mix(seed::CROSS, line), plane)
}

/// A point of a face being clipped: where it is, its feature key, and the
/// key of the line from it to the next point (an incident edge, or a clip
/// plane's line).
#[derive(Clone, Copy, Debug)]
struct Clipped<V> {
    p: V,
    key: u64,
    along: u64,
}

/// Clips a face (world frame; its points keyed, [`world_face`]) by planes (a
/// point, the outward normal and the plane's key): a polygon by
/// Sutherland–Hodgman; a point or a segment (a ball's centre, a capsule's
/// core) end by end, each end that crosses a plane moving onto it (as a
/// polygon a segment's crossing would come twice, from either direction).
/// A point made by a crossing is keyed by the line it lies on and the
/// plane ([`cross_key`]); the line on from a point leaving a plane is the
/// plane's. `next` is scratch space (shared between calls). `false` where
/// nothing is left.
fn clip_by<V: Vector3>(
    poly: &mut Vec<Clipped<V>>,
    planes: impl IntoIterator<Item = (V, V, u64)>,
    next: &mut Vec<Clipped<V>>,
) -> bool {
    let zero = V::Scalar::ZERO;
    if poly.len() <= 2 {
        let (mut s, mut e) = (poly[0], poly[poly.len() - 1]);
        // Both ends lie on the segment's own line.
        let line = s.along;
        for (p0, side, key) in planes {
            let (ds, de) = (side.dot(s.p - p0), side.dot(e.p - p0));
            if ds > zero && de > zero {
                return false;
            }
            if ds > zero {
                (s.p, s.key) = (s.p + (e.p - s.p) * (ds / (ds - de)), cross_key(line, key));
            } else if de > zero {
                (e.p, e.key) = (e.p + (s.p - e.p) * (de / (de - ds)), cross_key(line, key));
            }
        }
        poly.clear();
        poly.push(s);
        if s.p != e.p {
            poly.push(e);
        }
        return true;
    }
    for (p0, side, key) in planes {
        if poly.iter().all(|c| side.dot(c.p - p0) <= zero) {
            // Wholly inside this plane: nothing to cut.
            continue;
        }
        next.clear();
        next.reserve(poly.len() + 4);
        for k in 0..poly.len() {
            let (s, e) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ds, de) = (side.dot(s.p - p0), side.dot(e.p - p0));
            let crosses = (ds < zero) != (de < zero) && ds != de;
            // Leaving the plane's inside, the next point kept lies where
            // the polygon comes back in: the line on runs along the plane.
            let leaving = de > zero;
            if ds <= zero {
                let along = if leaving && !crosses { along_plane(key) } else { s.along };
                next.push(Clipped { along, ..s });
            }
            if crosses {
                next.push(Clipped {
                    p: s.p + (e.p - s.p) * (ds / (ds - de)),
                    key: cross_key(s.along, key),
                    along: if leaving { along_plane(key) } else { s.along },
                });
            }
        }
        core::mem::swap(poly, next);
        if poly.is_empty() {
            return false;
        }
    }
    true
}

/// How far a posed shape reaches along `dir` (its support function).
fn reach<V, T>(shape: &T, pose: &Pose<V>, dir: V) -> V::Scalar
where
    V: Space,
    T: SupportMap<V> + ?Sized,
{
    pose.transform_point(shape.support(pose.inverse_transform_vector(dir))).dot(dir)
}

/// The contact's normal and least overlap (its `depth − distance`;
/// negative: the distance apart) and the speculative distance to use (0
/// for NaN), or the empty manifold where the shapes are apart beyond
/// `speculative` or the contact has no geometry.
fn manifold_start<V: Vector>(
    contact: &Contact<V>,
    speculative: V::Scalar,
) -> Result<(V, V::Scalar, V::Scalar), ContactManifold<V>> {
    // A NaN speculative distance keeps no point apart.
    let speculative = if speculative.is_nan() { V::Scalar::ZERO } else { speculative };
    let n = contact.normal;
    let least = contact.depth - contact.distance;
    let usable = matches!(
        contact.status,
        ContactStatus::Separated | ContactStatus::Touching | ContactStatus::Penetrating
    );
    if !usable || !n.is_finite() || !least.is_finite() || -least > speculative {
        return Err(ContactManifold::empty(if n.is_finite() { n } else { V::ZERO }));
    }
    Ok((n, least, speculative))
}

/// The manifold of two lines lying side by side across the normal `n` (A's
/// face `fa` and B's `fb` of two points each: capsules' core segments,
/// cylinders' and cones' sides, rods), as Box2D's `b2CollideCapsules` in
/// 2D: B's line clipped to the stretch of A's (planes at A's ends along
/// it), each end's depth along `n` from the point of A's line beside it.
/// Taken where each line's ends differ along `n` by at most the face slack
/// ([`FACE_CONTACT_TOLERANCE`] of `max(|least|, speculative)`, plus the
/// zero band), and each clipped end lies off the plane of A's line and `n`
/// by at most that too: then every depth is within the slack of the
/// deepest, as a face's points are. A point's `point_a` and `point_b` are
/// `depth · n` apart; `point_b` is on B's surface (to second order in the
/// lines' tilt), `point_a` off A's by at most its offset from that plane
/// (to second order for a round A). `None` elsewhere (lines that cross,
/// or a stretch of less than two distinct points). The faces' points are
/// keyed ([`key_face`]); `poly` and `pts` are scratch space.
fn line_pair<V: Vector3>(
    fa: &[Clipped<V>],
    fb: &[Clipped<V>],
    (poly, pts): (&mut Vec<Clipped<V>>, &mut Vec<ManifoldPoint<V>>),
    n: V,
    (ra, rb): (V::Scalar, V::Scalar),
    least: V::Scalar,
    speculative: V::Scalar,
) -> Option<ContactManifold<V>> {
    let (&[ca0, ca1], &[cb0, cb1]) = (fa, fb) else { return None };
    let ([a0, a1], [b0, b1]) = ([ca0.p, ca1.p], [cb0.p, cb1.p]);
    let scale = [a0, a1, b0, b1].iter().fold(least.abs(), |m, p| m.max(p.max_abs()));
    let band = V::Scalar::DEFAULT_ZERO_TOLERANCE * scale;
    let slack = V::Scalar::from_f64(FACE_CONTACT_TOLERANCE) * least.abs().max(speculative) + band;
    let (ea, eb) = (a1 - a0, b1 - b0);
    let ua = ea.try_normalize()?;
    eb.try_normalize()?;
    // Both lines level across `n` to the slack (NaN: not level).
    let level = n.dot(ea).abs() <= slack && n.dot(eb).abs() <= slack;
    if !level {
        return None;
    }
    let (ka0, ka1) = (ca0.key, ca1.key);
    poly.clear();
    poly.extend([cb0, cb1]);
    // A segment clips in place: no scratch space.
    let sides = [(a0, -ua, mix(seed::SIDE, ka0)), (a1, ua, mix(seed::SIDE, ka1))];
    if !clip_by(poly, sides, &mut Vec::new()) {
        return None;
    }
    pts.clear();
    let length = ea.length();
    let line = mix(mix(seed::LINE, ka0), ka1);
    for &Clipped { p, key, .. } in poly.iter() {
        let along = (p - a0).dot(ua).max(V::Scalar::ZERO).min(length);
        let w = p - (a0 + ua * along);
        let core_sep = n.dot(w);
        let off = (w - n * core_sep).length();
        if off.is_nan() || off > slack {
            // Beside A's line by more than the slack: the lines cross.
            return None;
        }
        let sep = core_sep - ra - rb;
        if sep <= speculative {
            let point_b = p - n * rb;
            let id = finish(mix(line, key));
            pts.push(ManifoldPoint { point_a: point_b - n * sep, point_b, depth: -sep, id });
        }
    }
    weld(pts, band);
    if pts.len() < 2 {
        return None;
    }
    let mut m = ContactManifold::empty(n);
    for p in pts.iter() {
        m.push(*p);
    }
    m.distinct_ids();
    Some(m)
}

/// The contact's own point along its own normal.
fn single_point<V: Vector>(contact: &Contact<V>, least: V::Scalar) -> ContactManifold<V> {
    let mut m = ContactManifold::empty(contact.normal);
    m.push(ManifoldPoint {
        point_a: contact.point_a,
        point_b: contact.point_b,
        depth: least,
        id: SINGLE_POINT_ID,
    });
    m
}

/// Which face carries the contact: `Some(false)` A's, `Some(true)` B's,
/// `None` neither (an edge or vertex contact). Each candidate is a face's
/// points (in the world frame; fewer than `min_points` or all equal: no
/// face there), its outward normal and the shape's face radius
/// ([`PolyhedronFaces::face_radius`]); it is judged by the overlap of the
/// shapes along that normal beyond the least overlap `least`: how far the
/// other shape reaches past the face's plane. That is never below `least`
/// but for rounding; a face that only touches the contact at an edge or
/// vertex overlaps by more.
fn reference_face<V, A, B, P>(
    (a, pose_a, face_a, na, ra): (&A, &Pose<V>, &[P], V, V::Scalar),
    (b, pose_b, face_b, nb, rb): (&B, &Pose<V>, &[P], V, V::Scalar),
    min_points: usize,
    least: V::Scalar,
    speculative: V::Scalar,
) -> Option<bool>
where
    V: Space,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    P: At<V>,
{
    let is_face = |f: &[P]| f.len() >= min_points && f.iter().any(|p| p.at() != f[0].at());
    // A round shape's faces are its core's: its surface lies `r` out.
    let over = |f: &[P], n: V, r: V::Scalar, other: V::Scalar| {
        if is_face(f) { other + n.dot(f[0].at()) + r - least } else { V::Scalar::INFINITY }
    };
    let over_a = over(face_a, na, ra, reach(b, pose_b, -na));
    let over_b = over(face_b, nb, rb, reach(a, pose_a, -nb));
    let scale = face_a.iter().chain(face_b).fold(least.abs(), |m, p| m.max(p.at().max_abs()));
    let band = V::Scalar::DEFAULT_ZERO_TOLERANCE * scale;
    let rounding = V::Scalar::from_f64(EPA_ROUNDING_ULPS) * V::Scalar::EPSILON * scale;
    let flip = over_b < V::Scalar::from_f64(REFERENCE_FACE_BIAS) * over_a - rounding;
    let over = if flip { over_b } else { over_a };
    let slack = V::Scalar::from_f64(FACE_CONTACT_TOLERANCE) * least.abs().max(speculative) + band;
    if over > slack || over.is_nan() { None } else { Some(flip) }
}

/// The contact manifold of two posed polytopes, from a [`Contact`] between
/// them.
///
/// The contact's normal proposes a face on each shape (the one most
/// aligned with it); a face carries the manifold when the shapes overlap
/// along its normal by no more than the contact's least overlap plus a
/// slack ([`FACE_CONTACT_TOLERANCE`]), and A's face is preferred
/// ([`REFERENCE_FACE_BIAS`]). The other shape's face most opposed to it is
/// clipped against its side planes (Sutherland–Hodgman), and against the
/// reference shape's own face across an edge where that face leans in
/// below it (an overhanging rim, [`RIM_FACE_ALIGNMENT`]: there the side
/// plane lies outside the shape), and the points
/// below it (or apart by up to `speculative`, kept with negative depth so
/// that a resting stack sees its contacts a step before they close) are
/// reduced to at most four. The manifold's normal is then the face's.
///
/// Where no face qualifies (an edge crossing an edge, a vertex on an
/// edge), or clipping leaves no point, the manifold is the contact's own
/// point along the contact's normal. It is empty when the shapes are apart
/// by more than `speculative` or the contact has no geometry
/// (`Beyond`, `Indeterminate`, `InvalidInput`). A NaN `speculative`
/// counts as 0.
pub fn polytope_manifold<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    contact: &Contact<V>,
    speculative: V::Scalar,
) -> ContactManifold<V>
where
    V: Space + Vector3,
    A: PolyhedronFaces<V> + ?Sized,
    B: PolyhedronFaces<V> + ?Sized,
{
    polytope_manifold_with(&mut ManifoldWorkspace::new(), a, pose_a, b, pose_b, contact, speculative)
}

/// Reusable scratch space for [`polytope_manifold_with`]: the faces, the
/// clipped polygon and the points a manifold is made from. A physics step
/// that keeps one (per thread) makes its manifolds without allocating,
/// once the buffers have grown to the largest faces seen (but where a
/// clip goes on to the faces beyond an overhanging rim, a shape with
/// faces leaning in under 90°, which gathers those planes anew). Holds
/// no state between calls: any workspace gives the same manifold.
#[derive(Clone, Debug)]
pub struct ManifoldWorkspace<V: Vector> {
    fa: Vec<Clipped<V>>,
    fb: Vec<Clipped<V>>,
    poly: Vec<Clipped<V>>,
    next: Vec<Clipped<V>>,
    local: Vec<V>,
    keys: Vec<u64>,
    pts: Vec<ManifoldPoint<V>>,
}

impl<V: Vector> Default for ManifoldWorkspace<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector> ManifoldWorkspace<V> {
    /// An empty workspace (no allocation until used).
    pub fn new() -> Self {
        Self {
            fa: Vec::new(),
            fb: Vec::new(),
            poly: Vec::new(),
            next: Vec::new(),
            local: Vec::new(),
            keys: Vec::new(),
            pts: Vec::new(),
        }
    }
}

/// [`polytope_manifold`] with its scratch space in `workspace`, reused
/// from call to call (no allocation once it has grown, but beyond an
/// overhanging rim: see [`ManifoldWorkspace`]): the same manifold,
/// faster where many are made.
///
/// ```
/// use gjk_epa::{ManifoldWorkspace, contact, polytope_manifold, polytope_manifold_with};
/// use gjk_shapes::{Cuboid, Pose, glam::Vec3};
/// let floor = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
/// let pf = Pose::from_translation(Vec3::new(0.0, -0.5, 0.0));
/// let crate_box = Cuboid::new(Vec3::splat(0.5)).unwrap();
/// let mut ws = ManifoldWorkspace::new();
/// for x in [0.0, 1.0, 2.0] {
///     let pb = Pose::from_translation(Vec3::new(x, 0.49, 0.0));
///     let c = contact(&floor, &pf, &crate_box, &pb);
///     let m = polytope_manifold_with(&mut ws, &floor, &pf, &crate_box, &pb, &c, 0.0);
///     assert_eq!(m, polytope_manifold(&floor, &pf, &crate_box, &pb, &c, 0.0));
///     assert_eq!(m.len(), 4);
/// }
/// ```
pub fn polytope_manifold_with<V, A, B>(
    workspace: &mut ManifoldWorkspace<V>,
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    contact: &Contact<V>,
    speculative: V::Scalar,
) -> ContactManifold<V>
where
    V: Space + Vector3,
    A: PolyhedronFaces<V> + ?Sized,
    B: PolyhedronFaces<V> + ?Sized,
{
    let (n, least, speculative) = match manifold_start(contact, speculative) {
        Ok(start) => start,
        Err(empty) => return empty,
    };
    let single = || single_point(contact, least);
    let ManifoldWorkspace { fa, fb, poly, next, local, keys, pts } = workspace;
    let (na, _) = world_face(a, pose_a, n, fa, local);
    let (nb, _) = world_face(b, pose_b, -n, fb, local);
    let (ra, rb) = (a.face_radius(), b.face_radius());
    let Some(flip) = reference_face((a, pose_a, fa, na, ra), (b, pose_b, fb, nb, rb), 3, least, speculative)
    else {
        // Two lines side by side (parallel capsules, cylinders lying
        // together): their common stretch's two ends.
        if fa.len() == 2 && fb.len() == 2 {
            key_face(a, pose_a, n, fa, (local, keys));
            key_face(b, pose_b, -n, fb, (local, keys));
        }
        if let Some(m) = line_pair(fa, fb, (poly, pts), n, (ra, rb), least, speculative) {
            return m;
        }
        // Edge to edge (or no face at all): the contact's own point.
        return single();
    };
    let ref_n = if flip { nb } else { na };
    if flip {
        key_face(b, pose_b, -n, fb, (local, keys));
    } else {
        key_face(a, pose_a, n, fa, (local, keys));
    }
    // The incident face, the other shape's along the reference normal.
    // Where that normal is the contact's own (a face contact the
    // separating-axis test found), it is the face already made along it:
    // the same call, so the same face.
    if flip && -nb == n {
        core::mem::swap(poly, fa);
        key_face(a, pose_a, n, poly, (local, keys));
    } else if !flip && na == n {
        core::mem::swap(poly, fb);
        key_face(b, pose_b, -n, poly, (local, keys));
    } else if flip {
        let (_, local_n) = world_face(a, pose_a, -nb, poly, local);
        key_local_face(a, (local, local_n), poly, keys);
    } else {
        let (_, local_n) = world_face(b, pose_b, -na, poly, local);
        key_local_face(b, (local, local_n), poly, keys);
    }
    let ref_face: &[Clipped<V>] = if flip { fb } else { fa };
    // The points' feature keys start from the reference face's (which
    // shape, which face).
    let face_key = ref_face.iter().fold(mix(seed::FACE, u64::from(flip)), |h, c| mix(h, c.key));
    // The reference face's side planes: a point, the outward normal and
    // the key of the edge it passes through.
    let face_scale = ref_face.iter().fold(V::Scalar::ZERO, |m, c| m.max(c.p.max_abs()));
    let face_band = V::Scalar::DEFAULT_ZERO_TOLERANCE * face_scale;
    let ref_at = ref_face[0].p;
    let sides = (0..ref_face.len()).filter_map(|i| {
        let (c, p1) = (ref_face[i], ref_face[(i + 1) % ref_face.len()].p);
        (p1 - c.p).cross(ref_n).try_normalize().map(|side| (c.p, side, mix(seed::SIDE, c.along)))
    });
    if poly.is_empty() {
        return single();
    }
    if !clip_by(poly, sides, next) {
        // The incident face lies wholly beside the reference face.
        return single();
    }
    // Beyond an overhanging rim the side plane lies outside the reference
    // shape: where a clipped point lies below the reference face, clip on
    // the shape's own faces there too (points above it are untouched).
    let rims_square = if flip { b.square_rims() } else { a.square_rims() };
    if !rims_square && poly.iter().any(|c| ref_n.dot(c.p - ref_at) < -face_band) {
        let mut scratch = Vec::new();
        let rims = if flip {
            rim_planes(b, pose_b, ref_face, ref_n, face_band, &mut scratch)
        } else {
            rim_planes(a, pose_a, ref_face, ref_n, face_band, &mut scratch)
        };
        if !clip_by(poly, rims, next) {
            // Wholly outside the reference shape beyond a rim.
            return single();
        }
    }
    // Keep points below the reference face (or within the speculative
    // band). Round shapes: the faces are their cores', the surfaces lie
    // their radii out along the normal.
    let (r_ref, r_inc) = if flip { (rb, ra) } else { (ra, rb) };
    pts.clear();
    for &Clipped { p, key, .. } in poly.iter() {
        let core_sep = ref_n.dot(p - ref_at);
        let sep = core_sep - r_ref - r_inc;
        if sep <= speculative {
            let on_ref = p - ref_n * (core_sep - r_ref);
            let on_inc = p - ref_n * r_inc;
            let (pa, pb) = if flip { (on_inc, on_ref) } else { (on_ref, on_inc) };
            pts.push(ManifoldPoint { point_a: pa, point_b: pb, depth: -sep, id: finish(mix(face_key, key)) });
        }
    }
    let scale = ref_face.iter().chain(poly.iter()).fold(V::Scalar::ZERO, |m, c| m.max(c.p.max_abs()));
    weld(pts, V::Scalar::DEFAULT_ZERO_TOLERANCE * scale);
    if pts.is_empty() {
        // Every clipped point is apart beyond the speculative distance.
        return single();
    }
    let normal = if flip { -ref_n } else { ref_n };
    let mut m = ContactManifold::empty(normal);
    reduce(pts, &mut m);
    m.distinct_ids();
    m
}

/// Shapes with straight edges (2D), in their local frame: the 2D faces of
/// [`polygon_manifold`]. Round shapes take part through their cores'
/// edges and [`edge_radius`](Self::edge_radius): a capsule's flat sides
/// are edges, a disc has none.
pub trait PolygonEdges<V: Vector2>: SupportMap<V> {
    /// The edge whose outward normal is most aligned with `dir`: its ends
    /// (counter-clockwise) and that normal. A shape with no edge there (a
    /// single point) returns both ends equal.
    fn best_edge(&self, dir: V) -> ([V; 2], V);

    /// The edge whose outward unit normal scores highest, as
    /// [`best_edge`](Self::best_edge); the 2D
    /// [`PolyhedronFaces::best_face_by`].
    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V);

    /// How far the surface lies out from the edges: the radius of a round
    /// shape whose edges are its core's (a capsule's segment, a disc's
    /// centre, a rounded polygon's polygon). Zero for polygons.
    #[inline]
    fn edge_radius(&self) -> V::Scalar {
        V::Scalar::ZERO
    }

    /// The feature keys of an edge's ends, an edge that this shape's
    /// [`best_edge`](Self::best_edge) or [`best_edge_by`](Self::best_edge_by)
    /// returned with the normal `normal`: as
    /// [`PolyhedronFaces::face_keys`], by default each end's coordinates.
    #[inline]
    fn edge_keys(&self, edge: [V; 2], normal: V) -> [u64; 2] {
        let _ = normal;
        edge.map(point_key2)
    }
}

impl<V: Space + Vector2> PolygonEdges<V> for Ball<V::Scalar> {
    /// The centre, both ends: a disc has no edge.
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        ([V::ZERO; 2], dir.try_normalize().unwrap_or(V::X))
    }

    fn best_edge_by(&self, _score: FaceScore<'_, V>) -> ([V; 2], V) {
        ([V::ZERO; 2], V::X)
    }

    fn edge_radius(&self) -> V::Scalar {
        self.radius()
    }
}

impl<V: Space + Vector2> PolygonEdges<V> for Capsule<V::Scalar> {
    /// The core segment, run counter-clockwise about the side facing
    /// `dir` (normal ±x): a 2D capsule's flat sides are its edges.
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        self.best_edge_by(&|n| n.dot(dir))
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        let (bottom, top) = self.segment::<V>();
        if score(V::X) >= score(-V::X) { ([bottom, top], V::X) } else { ([top, bottom], -V::X) }
    }

    fn edge_radius(&self) -> V::Scalar {
        self.radius()
    }
}

impl<V: Space + Vector2, T: PolygonEdges<V> + Shape<V>> PolygonEdges<V> for Rounded<T, V::Scalar> {
    /// The core's edges; the rounding adds to the radius.
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        self.shape.best_edge(dir)
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        self.shape.best_edge_by(score)
    }

    fn edge_radius(&self) -> V::Scalar {
        self.shape.edge_radius() + self.rounding()
    }

    fn edge_keys(&self, edge: [V; 2], normal: V) -> [u64; 2] {
        self.shape.edge_keys(edge, normal)
    }
}

/// The rectangle's edge on `axis` (`sign` ±1): its ends, counter-clockwise,
/// and its normal.
fn rect_edge<V: Space + Vector2>(half: V, axis: usize, sign: V::Scalar) -> ([V; 2], V) {
    let n = V::axis(axis) * sign;
    let t = V::axis(1 - axis) * half.component(1 - axis);
    let c = n * half.component(axis);
    // Counter-clockwise: the edge runs along `n` turned by +90°.
    let along = V::new2(-n.y(), n.x());
    let t = if along.dot(t) < V::Scalar::ZERO { -t } else { t };
    ([c - t, c + t], n)
}

impl<V: Space + Vector2> PolygonEdges<V> for Cuboid<V> {
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        let axis = usize::from(dir.y().abs() > dir.x().abs());
        let sign = if dir.component(axis) < V::Scalar::ZERO { -V::Scalar::ONE } else { V::Scalar::ONE };
        rect_edge(self.half_extents(), axis, sign)
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        let (mut axis, mut sign, mut best) = (0, V::Scalar::ONE, -V::Scalar::INFINITY);
        for k in 0..2 {
            for s in [V::Scalar::ONE, -V::Scalar::ONE] {
                let v = score(V::axis(k) * s);
                if v > best {
                    (axis, sign, best) = (k, s, v);
                }
            }
        }
        rect_edge(self.half_extents(), axis, sign)
    }
}

impl<V: Space + Vector2> PolygonEdges<V> for ConvexPolygon<V> {
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        self.best_edge_by(&|n| n.dot(dir))
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        let (v, normals) = (self.vertices(), self.normals());
        let mut best = (0, -V::Scalar::INFINITY);
        for (i, &n) in normals.iter().enumerate() {
            let s = score(n);
            if s > best.1 {
                best = (i, s);
            }
        }
        let i = best.0;
        ([v[i], v[(i + 1) % v.len()]], normals[i])
    }
}

impl<V: Space + Vector2, T: PolygonEdges<V>> PolygonEdges<V> for Transformed<T, V> {
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        if !uniform(self.scale()) && self.shape.edge_radius() > V::Scalar::ZERO {
            // A round shape under a non-uniform scale is no longer its core
            // grown by a disc: its surface point stands in for an edge.
            return ([self.support(dir); 2], dir.try_normalize().unwrap_or(V::X));
        }
        if uniform(self.scale()) {
            // A uniform scale keeps angles: the local direction picks.
            let (e, n) = self.shape.best_edge(self.pose().inverse_transform_vector(dir));
            let s = self.scale().component(0);
            return (e.map(|p| self.pose().transform_point(p * s)), self.pose().transform_vector(n));
        }
        self.best_edge_by(&|n| n.dot(dir))
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        if !uniform(self.scale()) && self.shape.edge_radius() > V::Scalar::ZERO {
            // As in `best_edge`: the support along the best-scoring axis.
            let dir = best_axis(score);
            return self.best_edge(dir);
        }
        let (e, n) = self.shape.best_edge_by(&|n| score(face_normal(self, n)));
        (e.map(|p| self.pose().transform_point(V::mul_elem(self.scale(), p))), face_normal(self, n))
    }

    fn edge_radius(&self) -> V::Scalar {
        if uniform(self.scale()) {
            self.shape.edge_radius() * self.scale().component(0)
        } else {
            V::Scalar::ZERO
        }
    }

    /// The wrapped shape's keys of the edge mapped back to its frame.
    fn edge_keys(&self, edge: [V; 2], normal: V) -> [u64; 2] {
        if !uniform(self.scale()) && self.shape.edge_radius() > V::Scalar::ZERO {
            // A surface point standing in for an edge: no feature to name.
            return [seed::SURFACE; 2];
        }
        let inv = inv_elem(self.scale());
        let inner = edge.map(|p| V::mul_elem(inv, self.pose().inverse_transform_point(p)));
        let n = V::mul_elem(self.scale(), self.pose().inverse_transform_vector(normal));
        self.shape.edge_keys(inner, n.try_normalize().unwrap_or(n))
    }
}

impl<V: Space + Vector2, T: PolygonEdges<V>> PolygonEdges<V> for Placed<T, V> {
    fn best_edge(&self, dir: V) -> ([V; 2], V) {
        let (e, n) = self.shape.best_edge(self.local_dir(dir));
        (e.map(|p| self.to_outer(p)), self.dir_to_outer(n))
    }

    fn best_edge_by(&self, score: FaceScore<'_, V>) -> ([V; 2], V) {
        let (e, n) = self.shape.best_edge_by(&|n| score(self.dir_to_outer(n)));
        (e.map(|p| self.to_outer(p)), self.dir_to_outer(n))
    }

    fn edge_radius(&self) -> V::Scalar {
        self.shape.edge_radius()
    }

    /// The wrapped shape's keys of the edge mapped back to its frame.
    fn edge_keys(&self, edge: [V; 2], normal: V) -> [u64; 2] {
        self.shape.edge_keys(edge.map(|p| self.to_inner(p)), self.local_dir(normal))
    }
}

/// The reference shape's own edges beyond the reference edge's ends where
/// they lean in below it (a corner under 90°), as clip lines (a point and
/// the outward normal): below such a corner the end's perpendicular lies
/// outside the shape. Beyond the end `r[0]` (running along `−t`) the edge
/// across that vertex is the one whose normal, among those leaning that
/// way, is nearest the reference normal (edge normals come in order round
/// a convex polygon); one pass of [`PolygonEdges::best_edge_by`] scores
/// every edge for both ends. Used only where it leans in below and
/// passes through the end (the shape reaches no further along its normal,
/// to `band`); none for round shapes.
fn rim_lines<V, T>(shape: &T, pose: &Pose<V>, r: [V; 2], n: V, band: V::Scalar) -> [Option<(V, V, u64)>; 2]
where
    V: Space + Vector2,
    T: PolygonEdges<V> + ?Sized,
{
    let Some(t) = (r[1] - r[0]).try_normalize() else { return [None, None] };
    if shape.edge_radius() > V::Scalar::ZERO {
        return [None, None];
    }
    let aligned = V::Scalar::from_f64(RIM_FACE_ALIGNMENT);
    let (local_n, local_t) = (pose.inverse_transform_vector(n), pose.inverse_transform_vector(t));
    // Per end: the outward direction along the edge, and the nearest
    // normal to the reference one on that side so far (its cosine).
    let ends = [-local_t, local_t];
    let best = [Cell::new((-V::Scalar::INFINITY, V::ZERO)), Cell::new((-V::Scalar::INFINITY, V::ZERO))];
    let record = |m: V| {
        for (out, b) in ends.iter().zip(&best) {
            let near = m.dot(local_n);
            if m.dot(*out) > aligned && near > b.get().0 {
                b.set((near, m));
            }
        }
        V::Scalar::ZERO
    };
    shape.best_edge_by(&record);
    let mut lines = [None, None];
    for (k, b) in best.iter().enumerate() {
        let (near, m) = b.get();
        if near < -aligned {
            let key = mix(seed::RIM, point_key2(m));
            let m = pose.transform_vector(m);
            if reach(shape, pose, m) - m.dot(r[k]) <= band {
                lines[k] = Some((r[k], m, key));
            }
        }
    }
    lines
}

/// An edge in the world frame, with its ends' feature keys.
fn world_edge<V, T>(shape: &T, pose: &Pose<V>, dir: V) -> ([V; 2], V, [u64; 2])
where
    V: Space + Vector2,
    T: PolygonEdges<V> + ?Sized,
{
    let (e, n) = shape.best_edge(pose.inverse_transform_vector(dir));
    let keys = shape.edge_keys(e, n);
    (e.map(|p| pose.transform_point(p)), pose.transform_vector(n), keys)
}

/// The contact manifold of two posed polygons (2D), from a [`Contact`]
/// between them: up to two points, as Box2D's `b2CollidePolygons`.
///
/// As [`polytope_manifold`]: the contact's normal proposes an edge on
/// each shape; an edge carries the manifold when the shapes overlap along
/// its normal by no more than the contact's least overlap plus the slack
/// ([`FACE_CONTACT_TOLERANCE`]), A's preferred ([`REFERENCE_FACE_BIAS`]).
/// The other shape's edge most opposed to it is clipped to the reference
/// edge's extent (and, beyond an acute corner, to the reference shape's
/// edge there), and its ends below the reference edge (or apart by up
/// to `speculative`, kept with negative depth) are the points; the
/// manifold's normal is the reference edge's. Where no edge qualifies (a
/// vertex against a vertex), or clipping leaves no point, the manifold is
/// the contact's own point along the contact's normal. It is empty when
/// the shapes are apart by more than `speculative` or the contact has no
/// geometry. A NaN `speculative` counts as 0.
///
/// ```
/// use gjk_epa::{contact, polygon_manifold};
/// use gjk_shapes::{Cuboid, Pose, glam::Vec2};
/// let floor = Cuboid::new(Vec2::new(5.0, 0.5)).unwrap();
/// let crate_box = Cuboid::new(Vec2::splat(0.5)).unwrap();
/// let pf = Pose::from_translation(Vec2::new(0.0, -0.5));
/// let pc = Pose::from_translation(Vec2::new(1.0, 0.49));
/// let c = contact(&floor, &pf, &crate_box, &pc);
/// let m = polygon_manifold(&floor, &pf, &crate_box, &pc, &c, 0.0);
/// assert_eq!(m.len(), 2); // both bottom corners, 0.01 deep
/// assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
/// assert!((m.normal - Vec2::Y).length() < 1e-6);
/// ```
pub fn polygon_manifold<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    b: &B,
    pose_b: &Pose<V>,
    contact: &Contact<V>,
    speculative: V::Scalar,
) -> ContactManifold<V>
where
    V: Space + Vector2,
    A: PolygonEdges<V> + ?Sized,
    B: PolygonEdges<V> + ?Sized,
{
    let (n, least, speculative) = match manifold_start(contact, speculative) {
        Ok(start) => start,
        Err(empty) => return empty,
    };
    let (ea, na, ka) = world_edge(a, pose_a, n);
    let (eb, nb, kb) = world_edge(b, pose_b, -n);
    let (ra, rb) = (a.edge_radius(), b.edge_radius());
    let Some(flip) =
        reference_face((a, pose_a, &ea, na, ra), (b, pose_b, &eb, nb, rb), 2, least, speculative)
    else {
        // Vertex to vertex (or no edge at all): the contact's own point.
        return single_point(contact, least);
    };
    let (r, ref_n, kr) = if flip { (eb, nb, kb) } else { (ea, na, ka) };
    let (inc, _, ki) = if flip { world_edge(a, pose_a, -nb) } else { world_edge(b, pose_b, -na) };
    // The points' feature keys (as in 3D): the reference edge's, then each
    // end's own or its crossing's.
    let face_key = mix(mix(mix(seed::FACE, u64::from(flip)), kr[0]), kr[1]);
    // Clip the incident edge to the reference edge's extent: the
    // coordinate along it from `r[0]` within [0, length].
    let along = r[1] - r[0];
    let len = along.length();
    let Some(t) = along.try_normalize() else { return single_point(contact, least) };
    let (mut p, mut q) = (inc[0], inc[1]);
    // Both ends lie on the incident edge.
    let (mut kp, mut kq, line) = (ki[0], ki[1], edge_key(ki[0], ki[1]));
    // Beyond an end whose corner leans in, the reference shape's own edge
    // there clips too (below the reference edge it lies inside the end's
    // perpendicular; above, outside it).
    let scale = r.iter().fold(V::Scalar::ZERO, |m, c| m.max(c.max_abs()));
    let rims = if flip {
        rim_lines(b, pose_b, r, ref_n, V::Scalar::DEFAULT_ZERO_TOLERANCE * scale)
    } else {
        rim_lines(a, pose_a, r, ref_n, V::Scalar::DEFAULT_ZERO_TOLERANCE * scale)
    };
    for (p0, m, key) in rims.into_iter().flatten() {
        let (dp, dq) = (m.dot(p - p0), m.dot(q - p0));
        match (dp <= V::Scalar::ZERO, dq <= V::Scalar::ZERO) {
            (true, true) => {}
            (false, false) => return single_point(contact, least),
            (false, true) => (p, kp) = (p + (q - p) * (dp / (dp - dq)), cross_key(line, key)),
            (true, false) => (q, kq) = (q + (p - q) * (dq / (dq - dp)), cross_key(line, key)),
        }
    }
    for (bound, keep_below, end) in [(V::Scalar::ZERO, false, kr[0]), (len, true, kr[1])] {
        let key = mix(seed::SIDE, end);
        let (up, uq) = (t.dot(p - r[0]) - bound, t.dot(q - r[0]) - bound);
        // Inside: above the lower bound, below the upper.
        let (p_in, q_in) = if keep_below {
            (up <= V::Scalar::ZERO, uq <= V::Scalar::ZERO)
        } else {
            (up >= V::Scalar::ZERO, uq >= V::Scalar::ZERO)
        };
        match (p_in, q_in) {
            (true, true) => {}
            (false, false) => return single_point(contact, least),
            (false, true) => (p, kp) = (p + (q - p) * (up / (up - uq)), cross_key(line, key)),
            (true, false) => (q, kq) = (q + (p - q) * (uq / (uq - up)), cross_key(line, key)),
        }
    }
    // Round shapes: the edges are their cores', the surfaces lie their
    // radii out along the normal.
    let (r_ref, r_inc) = if flip { (rb, ra) } else { (ra, rb) };
    let mut pts = Vec::with_capacity(2);
    for (c, key) in [(p, kp), (q, kq)] {
        let core_sep = ref_n.dot(c - r[0]);
        let sep = core_sep - r_ref - r_inc;
        if sep <= speculative {
            let on_ref = c - ref_n * (core_sep - r_ref);
            let on_inc = c - ref_n * r_inc;
            let (pa, pb) = if flip { (on_inc, on_ref) } else { (on_ref, on_inc) };
            pts.push(ManifoldPoint { point_a: pa, point_b: pb, depth: -sep, id: finish(mix(face_key, key)) });
        }
    }
    let scale = r.iter().chain([p, q].iter()).fold(V::Scalar::ZERO, |m, c| m.max(c.max_abs()));
    weld(&mut pts, V::Scalar::DEFAULT_ZERO_TOLERANCE * scale);
    if pts.is_empty() {
        // Both ends are apart beyond the speculative distance.
        return single_point(contact, least);
    }
    let mut m = ContactManifold::empty(if flip { -ref_n } else { ref_n });
    for p in pts {
        m.push(p);
    }
    m.distinct_ids();
    m
}

/// Merges points within `band` of the one before (in the clipped polygon's
/// cyclic order, the last against the first), keeping the deeper: clipping
/// near a vertex yields the vertex and a crossing a rounding apart. In
/// place (no allocation).
fn weld<V: Vector>(pts: &mut Vec<ManifoldPoint<V>>, band: V::Scalar) {
    let near = |p: &ManifoldPoint<V>, q: &ManifoldPoint<V>| {
        (p.point_a - q.point_a).max_abs() <= band && (p.point_b - q.point_b).max_abs() <= band
    };
    // `pts[..kept]` are the points kept so far; each next point merges
    // into the last of them or joins them.
    let mut kept = 0;
    for i in 0..pts.len() {
        let p = pts[i];
        if kept > 0 && near(&p, &pts[kept - 1]) {
            if p.depth > pts[kept - 1].depth {
                pts[kept - 1] = p;
            }
        } else {
            pts[kept] = p;
            kept += 1;
        }
    }
    pts.truncate(kept);
    if pts.len() > 1
        && near(&pts[0], &pts[pts.len() - 1])
        && let Some(last) = pts.pop()
        && last.depth > pts[0].depth
    {
        pts[0] = last;
    }
}

/// Up to this many clipped points, the reduction to four tries every
/// choice of four that holds a deepest point (at most 495); beyond it, a
/// greedy pick. The clipped points lie in order around a convex polygon,
/// so a choice taken in that order is a convex quadrilateral, whose area
/// is half the cross product of its diagonals.
pub const MANIFOLD_EXHAUSTIVE_POINTS: usize = 12;

/// Picks at most four points that keep a deepest one and span the largest
/// area. A deepest point is one within the zero band of the greatest depth
/// (on parallel faces every point is, but for rounding). Up to
/// [`MANIFOLD_EXHAUSTIVE_POINTS`] points every choice is tried (the
/// clipped polygon's order makes each convex); beyond, greedily (the
/// deepest, the farthest point, the largest triangle, the largest area
/// added: Bullet's reduction). The greedy pick alone kept 66 % of the best
/// area in the worst of 9 893 box faces crossing at random, and under 90 %
/// in 803 of them (docs/reliability.md, *Contact manifolds*).
/// The points go into `m` (no allocation).
fn reduce<V: Vector3>(pts: &[ManifoldPoint<V>], m: &mut ContactManifold<V>) {
    if pts.len() <= MAX_MANIFOLD_POINTS {
        pts.iter().for_each(|p| m.push(*p));
        return;
    }
    let deepest = (0..pts.len())
        .max_by(|&i, &j| pts[i].depth.partial_cmp(&pts[j].depth).unwrap_or(core::cmp::Ordering::Equal))
        .unwrap_or(0);
    let n = pts.len();
    if n <= MANIFOLD_EXHAUSTIVE_POINTS {
        let scale = pts.iter().fold(V::Scalar::ZERO, |m, p| m.max(p.point_b.max_abs()));
        let band = V::Scalar::DEFAULT_ZERO_TOLERANCE * scale;
        let deep = |k: usize| pts[k].depth >= pts[deepest].depth - band;
        let at = |k: usize| pts[k].point_b;
        let mut best = (-V::Scalar::ONE, [deepest, 0, 0, 0]);
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    for l in k + 1..n {
                        if !(deep(i) || deep(j) || deep(k) || deep(l)) {
                            continue;
                        }
                        // Quadrilateral (i, j, k, l): diagonals i–k and j–l.
                        let area = (at(k) - at(i)).cross(at(l) - at(j)).length_squared();
                        if area > best.0 {
                            best = (area, [i, j, k, l]);
                        }
                    }
                }
            }
        }
        if best.0 >= V::Scalar::ZERO {
            best.1.iter().for_each(|&k| m.push(pts[k]));
            return;
        }
        // No area was finite: the greedy pick below.
    }
    let by = |f: &dyn Fn(&ManifoldPoint<V>) -> V::Scalar| {
        (0..pts.len())
            .max_by(|&i, &j| f(&pts[i]).partial_cmp(&f(&pts[j])).unwrap_or(core::cmp::Ordering::Equal))
            .unwrap_or(0)
    };
    let i0 = deepest;
    let p0 = pts[i0].point_b;
    let i1 = by(&|p| (p.point_b - p0).length_squared());
    let p1 = pts[i1].point_b;
    let i2 = by(&|p| (p1 - p0).cross(p.point_b - p0).length_squared());
    let p2 = pts[i2].point_b;
    // The fourth point: largest area added opposite the triangle.
    let tri_n = (p1 - p0).cross(p2 - p0);
    let i3 = by(&|p| {
        let q = p.point_b;
        let a = (p0 - q).cross(p1 - q).dot(tri_n);
        let b = (p1 - q).cross(p2 - q).dot(tri_n);
        let c = (p2 - q).cross(p0 - q).dot(tri_n);
        -(a.min(b).min(c))
    });
    m.push(pts[i0]);
    for i in [i1, i2, i3] {
        if !m.points().iter().any(|p| p.point_b == pts[i].point_b) {
            m.push(pts[i]);
        }
    }
}
