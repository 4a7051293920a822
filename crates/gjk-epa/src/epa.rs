//! The Expanding Polytope Algorithm (van den Bergen 2001): from a GJK
//! simplex that holds the origin, grow a polytope inside `A − B` towards the
//! boundary point nearest the origin. Its distance is the penetration depth,
//! its face normal the minimum translation direction.
//!
//! Memory is bounded: at most [`EPA_MAX_VERTICES`] vertices and
//! [`EPA_MAX_FACES`] faces (3D) or edges (2D); a query that would need more
//! stops with [`EpaStatus::IterationLimit`] and its best lower bound. The
//! buffers start at [`EPA_RESERVED_VERTICES`] and grow towards the caps
//! only in long runs. (Zeroing fixed stack arrays of the caps' size cost
//! more than a shallow EPA run; reserving the caps on the heap cost a slow
//! `malloc`.)
//!
//! # Loop
//!
//! 3D keeps a triangle polytope (horizon by loose edges), 2D a polygon with
//! each edge's normal and distance beside it; capped by
//! `DEFAULT_EPA_ITERATIONS` (runs near a curved rim need that many). A
//! lower-dimensional GJK simplex is grown by probing directions; a probe that
//! reaches no further than the zero band proves touching. The loop stops
//! where the nearest face's support reaches past it by at most
//! `rel_tolerance · depth` or `EPA_ROUNDING_ULPS` ulps of the polytope's
//! scale (below that the two are rounding apart); at a repeated vertex; or
//! where the nearest plane's distance falls by more than the zero band from
//! the last one's, which a convex polytope cannot do: rounding has broken it
//! (thin faces on a curved `A − B`), and the last face stands, `Converged`
//! within the zero band of its support's reach, else `Stalled`
//! (docs/reliability.md, *EPA on curved shapes*). A face counts as seen by a
//! new point only where the point lies above its plane by more than those
//! `EPA_ROUNDING_ULPS` ulps: points on a flat cap lie on many planes at once,
//! and seen by rounding, the horizon was no longer one loop. The witness is
//! the polytope boundary point nearest the origin (over all faces: the
//! plane-nearest face may share its plane with the face holding it).

use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3, Vec3A};
use gjk_core::internal::{InLanes, MAX_SIMPLEX_POINTS, Vector2, Vector3, minkowski_support};
use gjk_core::{Real, Simplex, SupportMap, SupportPoint, Vector, solver2d, solver3d};

/// Most polytope vertices (3D) or polygon vertices (2D). Runs near a
/// curved rim need many (a ball deep in a cylinder near a cap's edge: at
/// 128, 81 of 13 975 ended on the capacity up to 2.5e-4 off; at 256, 5, up
/// to 2.1e-5); the buffers grow to it only in such runs.
pub const EPA_MAX_VERTICES: usize = 256;
/// Most polytope faces (3D): Euler's formula gives `2V − 4` for a closed
/// triangulated polytope.
pub const EPA_MAX_FACES: usize = 2 * EPA_MAX_VERTICES;

/// Vertices reserved up front; the buffers grow (to the caps above) only
/// for the rare long runs. Typical runs need 8–20 vertices, and buffers
/// this small come from the allocator's per-thread cache, where reserving
/// the caps made `malloc`/`free` a visible part of a 2D contact (the 2D
/// contact rows).
pub const EPA_RESERVED_VERTICES: usize = 16;
/// Default cap on expansion steps (each adds one vertex): up to the
/// vertex capacity.
pub const DEFAULT_EPA_ITERATIONS: u32 = 200;
/// The least reach of a support past the nearest face that EPA tries to
/// resolve, in ulps of the polytope's scale (its largest coordinate):
/// within it the two are rounding apart. Without it the tolerance
/// (`rel_tolerance · depth`) fell below rounding at shallow depths, and on
/// a curved `A − B` EPA could stop only at a repeated vertex, splitting
/// faces until they were too thin to hold their planes (the fall exit in
/// the loop catches that; the floor ends such runs sooner: parallel
/// cylinders 1e-4 deep, `tests/curved_contacts.rs`).
/// A new point sees a face only where it lies above the face's plane by
/// more than the same margin.
pub const EPA_ROUNDING_ULPS: f64 = 4.0;

/// Tunables of EPA; tolerances are relative like GJK's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaConfig<S> {
    /// Cap on expansion steps.
    pub max_iterations: u32,
    /// Stop when a face's support reaches beyond it by at most
    /// `rel_tolerance · depth`, or by rounding ([`EPA_ROUNDING_ULPS`] ulps
    /// of the scale).
    pub rel_tolerance: S,
    /// Depths up to `zero_tolerance · scale` count as touching.
    pub zero_tolerance: S,
}

impl<S: Real> Default for EpaConfig<S> {
    fn default() -> Self {
        Self {
            max_iterations: DEFAULT_EPA_ITERATIONS,
            rel_tolerance: S::DEFAULT_REL_TOLERANCE * S::from_f64(16.0),
            zero_tolerance: S::DEFAULT_ZERO_TOLERANCE,
        }
    }
}

/// What EPA found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpaStatus {
    /// The depth and normal are exact to the tolerance.
    Converged,
    /// The origin is within the zero band of the boundary: depth 0, and the
    /// normal separates the shapes to within the band.
    Touching,
    /// The iteration cap or the fixed capacity was reached: `depth` is a
    /// lower bound on the true depth and `normal` the best face so far.
    IterationLimit,
    /// The polytope stopped growing before its nearest face was confirmed:
    /// the support along the face normal repeated a vertex yet reached
    /// beyond the face by more than the zero band, or the nearest face's
    /// distance fell (the polytope is not convex in floating point,
    /// typically grown from a degenerate simplex at a touching vertex or
    /// edge, or split into thin faces on a curved shape). As for
    /// `IterationLimit`, `depth` is a lower bound and `normal` the best
    /// face so far, not a proven one.
    Stalled,
    /// No polytope holding the origin could be built (the input simplex did
    /// not hold it, or the shapes are degenerate): outputs are not
    /// meaningful.
    Indeterminate,
    /// A support point was NaN or infinite.
    InvalidInput,
}

/// Penetration of two overlapping shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<V: Vector> {
    /// What was found.
    pub status: EpaStatus,
    /// How far B must move along `normal` to separate (≥ 0).
    pub depth: V::Scalar,
    /// Unit normal pointing from A to B (the outward normal of `A − B` at
    /// the boundary point nearest the origin).
    pub normal: V,
    /// Deepest point of A inside B.
    pub point_a: V,
    /// Deepest point of B inside A (`point_a − point_b = depth · normal`).
    pub point_b: V,
    /// Expansion steps (support calls) made.
    pub iterations: u32,
}

impl<V: Vector> Penetration<V> {
    fn with_status(status: EpaStatus, normal: V) -> Self {
        Self { status, depth: V::Scalar::ZERO, normal, point_a: V::ZERO, point_b: V::ZERO, iterations: 0 }
    }
}

/// Spaces EPA runs in: 3D polytopes, 2D polygons.
pub trait EpaSpace: Vector {
    /// Runs EPA from a GJK simplex that holds the origin.
    fn epa<A, B>(
        a: &A,
        b: &B,
        simplex: &Simplex<Self>,
        config: &EpaConfig<Self::Scalar>,
    ) -> Penetration<Self>
    where
        A: SupportMap<Self> + ?Sized,
        B: SupportMap<Self> + ?Sized;
}

macro_rules! impl_epa {
    ($v:ty, $run:path) => {
        impl EpaSpace for $v {
            fn epa<A, B>(
                a: &A,
                b: &B,
                simplex: &Simplex<Self>,
                config: &EpaConfig<Self::Scalar>,
            ) -> Penetration<Self>
            where
                A: SupportMap<Self> + ?Sized,
                B: SupportMap<Self> + ?Sized,
            {
                $run(a, b, simplex, config)
            }
        }
    };
}
impl_epa!(Vec3A, epa3);
impl_epa!(DVec3, epa3);

/// `Vec3` runs in `Vec3A` (its `Vector::Lanes`): the polytope's vector
/// arithmetic in whole SSE registers, converted only at the ends.
impl EpaSpace for Vec3 {
    fn epa<A, B>(a: &A, b: &B, simplex: &Simplex<Self>, config: &EpaConfig<f32>) -> Penetration<Self>
    where
        A: SupportMap<Self> + ?Sized,
        B: SupportMap<Self> + ?Sized,
    {
        let (la, lb) = (InLanes::<Vec3, _>::new(a), InLanes::<Vec3, _>::new(b));
        let p = epa3(&la, &lb, &simplex.convert(Vec3A::from), config);
        Penetration {
            status: p.status,
            depth: p.depth,
            normal: p.normal.into(),
            point_a: p.point_a.into(),
            point_b: p.point_b.into(),
            iterations: p.iterations,
        }
    }
}
impl_epa!(Vec2, epa2);
impl_epa!(DVec2, epa2);

/// Penetration depth, normal and contact points of two overlapping shapes,
/// starting from the final simplex of a GJK query that reported contact.
pub fn penetration<V, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<V>,
    config: &EpaConfig<V::Scalar>,
) -> Penetration<V>
where
    V: EpaSpace,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    V::epa(a, b, simplex, config)
}

/// Bookkeeping shared by both dimensions: support calls with scale tracking.
struct Sampler<'s, V: Vector, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    scale: V::Scalar,
    calls: u32,
    invalid: bool,
}

impl<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized> Sampler<'_, V, A, B> {
    fn support(&mut self, d: V) -> SupportPoint<V> {
        let p = minkowski_support(self.a, self.b, d);
        self.calls += 1;
        if !p.is_finite() {
            self.invalid = true;
        }
        self.scale = self.scale.max(p.w.max_abs());
        p
    }
}

/// The touching answer along `n` (depth 0; the origin lies on the boundary
/// of `A − B` within the band). The witness pair is the support pair along
/// `n`: the points of A and B that meet across the touching plane.
fn touching<V: Vector>(n: V, at: SupportPoint<V>, calls: u32) -> Penetration<V> {
    let mut r = Penetration::with_status(EpaStatus::Touching, n);
    r.point_a = at.a;
    r.point_b = at.b;
    r.iterations = calls;
    r
}

// ---------------------------------------------------------------- 3D ----

/// A face, the barycentric solution of its point nearest the origin, and
/// that point's squared distance.
type NearestFace<V> = (Face<V>, gjk_core::internal::Reduced<<V as Vector>::Scalar>, <V as Vector>::Scalar);

#[derive(Clone, Copy, Debug)]
struct Face<V: Vector> {
    v: [u16; 3],
    n: V,
    /// Distance of the face's plane from the origin (≥ 0 when the origin is
    /// inside); `MAX` for a degenerate face, which is never chosen.
    d: V::Scalar,
    alive: bool,
}

struct Polytope<V: Vector> {
    /// At most [`EPA_MAX_VERTICES`] ([`EPA_RESERVED_VERTICES`] reserved).
    pts: Vec<SupportPoint<V>>,
    /// At most [`EPA_MAX_FACES`] (twice [`EPA_RESERVED_VERTICES`] reserved).
    faces: Vec<Face<V>>,
    interior: V,
}

impl<V: Vector3> Polytope<V> {
    fn new() -> Self {
        Self {
            pts: Vec::with_capacity(EPA_RESERVED_VERTICES),
            faces: Vec::with_capacity(2 * EPA_RESERVED_VERTICES),
            interior: V::ZERO,
        }
    }

    fn push_point(&mut self, p: SupportPoint<V>) -> Option<u16> {
        if self.pts.len() >= EPA_MAX_VERTICES {
            return None;
        }
        self.pts.push(p);
        Some((self.pts.len() - 1) as u16)
    }

    /// Adds face `i j k`, oriented away from the interior point.
    fn push_face(&mut self, i: u16, j: u16, k: u16) -> bool {
        if self.faces.len() >= EPA_MAX_FACES {
            return false;
        }
        let (a, b, c) = (self.pts[i as usize].w, self.pts[j as usize].w, self.pts[k as usize].w);
        let mut n = (b - a).cross(c - a);
        let mut v = [i, j, k];
        if n.dot(a - self.interior) < V::Scalar::ZERO {
            n = -n;
            v = [i, k, j];
        }
        let (n, d) = match n.try_normalize() {
            Some(u) => (u, u.dot(a)),
            None => (V::ZERO, V::Scalar::MAX),
        };
        self.faces.push(Face { v, n, d, alive: true });
        true
    }

    fn closest_face(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for (i, f) in self.faces.iter().enumerate() {
            if f.alive && f.d < V::Scalar::MAX && best.is_none_or(|b| f.d < self.faces[b].d) {
                best = Some(i);
            }
        }
        best
    }
}

fn epa3<V, A, B>(a: &A, b: &B, simplex: &Simplex<V>, config: &EpaConfig<V::Scalar>) -> Penetration<V>
where
    V: Vector3,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut s: Sampler<V, A, B> = Sampler { a, b, scale: V::Scalar::ZERO, calls: 0, invalid: false };
    let mut pts: [SupportPoint<V>; MAX_SIMPLEX_POINTS] = [SupportPoint::default(); MAX_SIMPLEX_POINTS];
    let mut n = 0;
    for p in simplex.points() {
        if !p.is_finite() {
            return Penetration::with_status(EpaStatus::InvalidInput, V::X);
        }
        if !pts[..n].iter().any(|q| q.w == p.w) && n < MAX_SIMPLEX_POINTS {
            pts[n] = *p;
            s.scale = s.scale.max(p.w.max_abs());
            n += 1;
        }
    }
    if n == 0 {
        return Penetration::with_status(EpaStatus::Indeterminate, V::X);
    }
    let band = |s: &Sampler<V, A, B>| config.zero_tolerance * s.scale;
    let rounding =
        |s: &Sampler<V, A, B>| V::Scalar::from_f64(EPA_ROUNDING_ULPS) * V::Scalar::EPSILON * s.scale;
    // Grow a lower-dimensional simplex until it spans space, checking each
    // probe direction: if A − B reaches no further than the band along it,
    // the origin is on the boundary and the shapes only touch.
    if n == 1 {
        let d = V::X;
        let p = s.support(d);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, d);
        }
        if d.dot(p.w) <= band(&s) {
            return touching(d, p, s.calls);
        }
        pts[1] = p;
        n = 2;
    }
    if n == 2 {
        let d = V::orthogonal_to(&[pts[0].w, pts[1].w]);
        let p = s.support(d);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, d);
        }
        if d.dot(p.w) <= band(&s) {
            return touching(d, p, s.calls);
        }
        pts[2] = p;
        n = 3;
    }
    let mut poly = Polytope::<V>::new();
    if n == 3 {
        let Some(nrm) = V::facet_normal(&[pts[0].w, pts[1].w, pts[2].w]) else {
            return Penetration::with_status(EpaStatus::Indeterminate, V::X);
        };
        let up = s.support(nrm);
        let down = s.support(-nrm);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, nrm);
        }
        if nrm.dot(up.w) <= band(&s) {
            return touching(nrm, up, s.calls);
        }
        if (-nrm).dot(down.w) <= band(&s) {
            return touching(-nrm, down, s.calls);
        }
        let five = [pts[0], pts[1], pts[2], up, down];
        for p in five {
            poly.push_point(p);
        }
        poly.interior = (pts[0].w + pts[1].w + pts[2].w + up.w + down.w) * V::Scalar::from_f64(0.2);
        // The hull of the five points. The triangle with its two apexes
        // is that hull only where the segment between the apexes passes
        // through the triangle; elsewhere (an apex whose foot falls outside
        // the triangle) it is not convex, and EPA on it stalled at depth 0
        // on pairs overlapping by 1 % of their size (`gjk-bench
        // near-contact`'s sets moved 1.5 – 100 bands together, up to 3.4 % of
        // them).
        const BIPYRAMID: FaceList = [(0, 1, 3), (1, 2, 3), (2, 0, 3), (1, 0, 4), (2, 1, 4), (0, 2, 4)];
        let (faces, count) = hull_of_five(&five.map(|p| p.w)).unwrap_or((BIPYRAMID, 6));
        for &(i, j, k) in &faces[..count] {
            poly.push_face(i, j, k);
        }
    } else {
        for p in &pts {
            poly.push_point(*p);
        }
        poly.interior = (pts[0].w + pts[1].w + pts[2].w + pts[3].w) * V::Scalar::from_f64(0.25);
        for (i, j, k) in [(0, 1, 2), (0, 3, 1), (1, 3, 2), (2, 3, 0)] {
            poly.push_face(i, j, k);
        }
    }

    let mut status = EpaStatus::IterationLimit;
    // The horizon edges of one expansion (reused; at most EPA_MAX_VERTICES).
    let mut horizon: Vec<(u16, u16)> = Vec::with_capacity(EPA_RESERVED_VERTICES);
    // Whether the loop reached a face at all.
    let mut chosen: Option<Face<V>> = None;
    // How far the last face's support reached past it.
    let mut last_gap = V::Scalar::ZERO;
    // Bounded by the iteration cap and by the fixed capacity.
    for _ in 0..config.max_iterations {
        let Some(fi) = poly.closest_face() else {
            return Penetration::with_status(EpaStatus::Indeterminate, V::X);
        };
        let face = poly.faces[fi];
        // Exit: the nearest plane lies nearer than the last one. The
        // polytope only grows, so in exact arithmetic that distance never
        // falls; a fall past the zero band is rounding that broke its
        // convexity (long thin faces on a curved `A − B`: cones against
        // cylinders whose nearest plane settled and then fell by 1e-11,
        // after which the loop ran to its cap and ended on faces up to 1.4
        // of the size off; `tests/curved_contacts.rs`). The last face
        // stands: the true depth lies between its distance and its
        // support's reach, so within the zero band of it that is
        // convergence (as at a repeated vertex), further out unproven.
        if let Some(last) = chosen
            && face.d < last.d
            && last.d - face.d > band(&s)
        {
            // The polytope is not convex: the last face's own triangle
            // holds the witness (the expansion after it removed it).
            let last = Face { alive: true, ..last };
            chosen = Some(last);
            poly.faces.clear();
            poly.faces.push(last);
            status = if last_gap <= band(&s) { EpaStatus::Converged } else { EpaStatus::Stalled };
            break;
        }
        chosen = Some(face);
        let p = s.support(face.n);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, face.n);
        }
        let h = face.n.dot(p.w);
        last_gap = h - face.d;
        let tol = (config.rel_tolerance * face.d.max(V::Scalar::ZERO)).max(rounding(&s));
        // Exit: the support along the face normal reaches no further than
        // the face: it is on the boundary of A − B.
        if h - face.d <= tol {
            status = EpaStatus::Converged;
            break;
        }
        // Exit: a repeated vertex cannot expand the polytope. The face is
        // confirmed only if that vertex is within the zero band of its
        // plane (rounding); further out, the polytope is not convex in
        // floating point and the face's normal is unproven.
        if poly.pts.iter().any(|q| q.w == p.w) {
            status = if h - face.d <= band(&s) { EpaStatus::Converged } else { EpaStatus::Stalled };
            break;
        }
        let Some(new) = poly.push_point(p) else { break };
        // Remove the faces the new point sees; their boundary (edges used
        // once) is the horizon, each edge of which becomes a new face.
        horizon.clear();
        let mut overflow = false;
        // A face counts as seen only where the point lies above its plane
        // by more than rounding (the nearest face, whose support reached
        // past it by more than the tolerance, always is). Points on a flat
        // cap of a curved shape lie on many faces' planes at once, and
        // rounding made some of them seen and others not: the horizon
        // stopped being one loop, the faces multiplied past their
        // capacity, and EPA ended early on a broken polytope (balls deep
        // in cylinders, leaving through the side: 12 723 of 13 975, depths
        // off by up to 0.072; `balls_deep_in_cylinders` in gjk-bench's
        // `tests/curved_contacts.rs`).
        let seen = rounding(&s);
        // The nearest face is seen whatever the rounding of the sum below
        // (its reach was tested as a difference; unseen, the horizon could
        // be empty): its plane is moved out of the way first (its copy in
        // `chosen` keeps the true one).
        poly.faces[fi].d = -V::Scalar::INFINITY;
        for f in poly.faces.iter_mut() {
            if !f.alive || f.d == V::Scalar::MAX {
                continue;
            }
            // The plane's offset `d = n·a₀` is stored: no vertex load.
            if f.n.dot(p.w) <= f.d + seen {
                continue;
            }
            f.alive = false;
            for e in 0..3 {
                let (i, j) = (f.v[e], f.v[(e + 1) % 3]);
                if let Some(k) = horizon.iter().position(|&(x, y)| x == j && y == i) {
                    horizon.swap_remove(k);
                } else if horizon.len() < EPA_MAX_VERTICES {
                    horizon.push((i, j));
                } else {
                    overflow = true;
                }
            }
        }
        if overflow || horizon.is_empty() {
            break;
        }
        let mut full = false;
        for &(i, j) in &horizon {
            full |= !poly.push_face(i, j, new);
        }
        if full {
            break;
        }
        // Reclaim dead face slots so long runs stay within capacity.
        poly.faces.retain(|f| f.alive);
    }
    if chosen.is_none() {
        return Penetration::with_status(EpaStatus::Indeterminate, V::X);
    }
    // The witness is the point of the polytope's boundary nearest the
    // origin: over all faces, the triangle point nearest the origin. (The
    // plane-nearest face can share its plane with neighbours, and the foot
    // of the origin may lie in one of those triangles instead.)
    let mut best: Option<NearestFace<V>> = None;
    // A face whose plane is no nearer than the best triangle point so far
    // cannot hold a nearer point (the triangle lies in the plane); the
    // chosen face goes first so that most faces are skipped by this test.
    // (It is still a face of the polytope only when the loop converged.)
    let first = if status == EpaStatus::Converged { chosen } else { None };
    let candidates = first.iter().chain(poly.faces.iter());
    for f in candidates.filter(|f| f.alive && f.d < V::Scalar::MAX) {
        if let Some((_, _, b)) = &best
            && f.d >= V::Scalar::ZERO
            && f.d * f.d >= *b
        {
            continue;
        }
        let w =
            [poly.pts[f.v[0] as usize].w, poly.pts[f.v[1] as usize].w, poly.pts[f.v[2] as usize].w, V::ZERO];
        let r = solver3d::s2d(&w, 0, 1, 2);
        let dd = r.point(&w).length_squared();
        if best.as_ref().is_none_or(|(_, _, b)| dd < *b) {
            best = Some((*f, r, dd));
        }
    }
    let Some((face, r, _)) = best else {
        return Penetration::with_status(EpaStatus::Indeterminate, V::X);
    };
    let (mut pa, mut pb) = (V::ZERO, V::ZERO);
    for k in 0..3 {
        let sp = poly.pts[face.v[k] as usize];
        pa = pa + sp.a * r.lambda[k];
        pb = pb + sp.b * r.lambda[k];
    }
    // Normal and depth from the face the loop stopped on (the nearest
    // plane; when converged, its support was checked, so it is the proven
    // one). The witness face can differ only when several face planes are
    // (nearly) as close: at a touching vertex or edge (depth ~0) every
    // face through the origin is, and their normals differ; only the
    // checked one separates the shapes.
    let face = chosen.unwrap_or(face);
    let depth = face.d.max(V::Scalar::ZERO);
    let status =
        if status == EpaStatus::Converged && depth <= band(&s) { EpaStatus::Touching } else { status };
    Penetration { status, depth, normal: face.n, point_a: pa, point_b: pb, iterations: s.calls }
}

/// An edge of EPA's polygon (2D): its normal, its distance, how far its
/// support reached past it, and its end points.
type DeepestEdge<V> = (V, <V as Vector>::Scalar, <V as Vector>::Scalar, SupportPoint<V>, SupportPoint<V>);

/// Up to six faces as vertex triples, and how many are used.
type FaceList = [(u16, u16, u16); 6];

/// The faces of the convex hull of five points in general position: a
/// tetrahedron (4 faces, one point inside) or a triangular bipyramid (6),
/// as vertex triples (orientation is [`Polytope::push_face`]'s). A triple
/// is a face where the other two points lie strictly on one side of its
/// plane. `None` where a point lies on a triple's plane within rounding
/// (coplanar points: the faces are not unique) or the faces do not close
/// up (4 or 6).
fn hull_of_five<V: Vector3>(w: &[V; 5]) -> Option<(FaceList, usize)> {
    let scale = w.iter().fold(V::Scalar::ZERO, |m, p| m.max(p.max_abs()));
    let mut faces = [(0, 0, 0); 6];
    let mut count = 0;
    for i in 0..5u16 {
        for j in i + 1..5 {
            for k in j + 1..5 {
                let (a, b, c) = (w[usize::from(i)], w[usize::from(j)], w[usize::from(k)]);
                let n = (b - a).cross(c - a);
                // Each side's product carries rounding of a few ε · |n| ·
                // scale; within that a point counts as on the plane.
                let tol = V::Scalar::from_f64(64.0) * V::Scalar::EPSILON * n.length() * scale;
                let mut sides =
                    (0..5u16).filter(|&m| m != i && m != j && m != k).map(|m| n.dot(w[usize::from(m)] - a));
                let (s1, s2) = (sides.next()?, sides.next()?);
                // Each side's sign alone: their product overflowed `f32`
                // where the coordinates reach ~3e6 (offsets of 1e19), and
                // the bipyramid that is not convex came back
                // (`curved_contacts_at_extreme_scales`).
                if s1.abs() <= tol || s2.abs() <= tol || !s1.is_finite() || !s2.is_finite() {
                    return None;
                }
                if (s1 > V::Scalar::ZERO) == (s2 > V::Scalar::ZERO) {
                    if count == 6 {
                        return None;
                    }
                    faces[count] = (i, j, k);
                    count += 1;
                }
            }
        }
    }
    matches!(count, 4 | 6).then_some((faces, count))
}

// ---------------------------------------------------------------- 2D ----

fn epa2<V, A, B>(a: &A, b: &B, simplex: &Simplex<V>, config: &EpaConfig<V::Scalar>) -> Penetration<V>
where
    V: Vector2,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut s: Sampler<V, A, B> = Sampler { a, b, scale: V::Scalar::ZERO, calls: 0, invalid: false };
    // At most EPA_MAX_VERTICES (EPA_RESERVED_VERTICES reserved).
    let mut poly: Vec<SupportPoint<V>> = Vec::with_capacity(EPA_RESERVED_VERTICES);
    for p in simplex.points().iter().take(3) {
        if !p.is_finite() {
            return Penetration::with_status(EpaStatus::InvalidInput, V::X);
        }
        if !poly.iter().any(|q| q.w == p.w) {
            poly.push(*p);
            s.scale = s.scale.max(p.w.max_abs());
        }
    }
    let mut n = poly.len();
    if n == 0 {
        return Penetration::with_status(EpaStatus::Indeterminate, V::X);
    }
    let band = |s: &Sampler<V, A, B>| config.zero_tolerance * s.scale;
    let rounding =
        |s: &Sampler<V, A, B>| V::Scalar::from_f64(EPA_ROUNDING_ULPS) * V::Scalar::EPSILON * s.scale;
    if n == 1 {
        let d = V::X;
        let p = s.support(d);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, d);
        }
        if d.dot(p.w) <= band(&s) {
            return touching(d, p, s.calls);
        }
        poly.push(p);
        n = 2;
    }
    if n == 2 {
        let e = poly[1].w - poly[0].w;
        let Some(nrm) = V::new2(-e.y(), e.x()).try_normalize() else {
            return Penetration::with_status(EpaStatus::Indeterminate, V::X);
        };
        let left = s.support(nrm);
        let right = s.support(-nrm);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, nrm);
        }
        if nrm.dot(left.w) <= band(&s) {
            return touching(nrm, left, s.calls);
        }
        if (-nrm).dot(right.w) <= band(&s) {
            return touching(-nrm, right, s.calls);
        }
        // a, right, b, left runs counter-clockwise.
        let (p0, p1) = (poly[0], poly[1]);
        poly.clear();
        poly.extend([p0, right, p1, left]);
        n = 4;
    }
    // Counter-clockwise order.
    // The successor of `i` on the polygon of `n` vertices, by a compare
    // (`% n` is an integer division per edge).
    let after = |i: usize, n: usize| if i + 1 >= n { 0 } else { i + 1 };
    let area: V::Scalar =
        (0..n).map(|i| poly[i].w.perp_dot(poly[after(i, n)].w)).fold(V::Scalar::ZERO, |x, y| x + y);
    if area < V::Scalar::ZERO {
        poly[..n].reverse();
    }
    // The edge from `p` to `q` (index `j`): outward normal, distance, `j`.
    let edge = |p: V, q: V, j: usize| -> (V, V::Scalar, usize) {
        let e = q - p;
        match V::new2(e.y(), -e.x()).try_normalize() {
            Some(nrm) => (nrm, nrm.dot(p), j),
            None => (V::ZERO, V::Scalar::MAX, j),
        }
    };
    let mut status = EpaStatus::IterationLimit;
    let mut best = 0;
    // The nearest edge met with the largest distance (normal, distance, its
    // support's reach past it, end points), for a polygon that stops being
    // convex in floating point.
    let mut deepest: Option<DeepestEdge<V>> = None;
    // The polygon as a ring: edge `i` runs from vertex `i` to its
    // successor, whose index it keeps (`edges[i].2`). A new vertex is
    // pushed, not inserted, so nothing is shifted.
    let mut edges: Vec<(V, V::Scalar, usize)> = Vec::with_capacity(EPA_RESERVED_VERTICES);
    edges.extend((0..n).map(|i| edge(poly[i].w, poly[after(i, n)].w, after(i, n))));
    for _ in 0..config.max_iterations {
        best = (0..n)
            .min_by(|&i, &j| edges[i].1.partial_cmp(&edges[j].1).unwrap_or(core::cmp::Ordering::Equal))
            .unwrap_or(0);
        let (nrm, d, j) = edges[best];
        if d == V::Scalar::MAX {
            return Penetration::with_status(EpaStatus::Indeterminate, V::X);
        }
        // Exit: the nearest edge's line lies nearer than one met before,
        // which the growing polygon cannot do in exact arithmetic: rounding
        // broke its convexity (as in 3D; ellipses of a caller's support
        // map, before: 532 of 20 000 ended on an edge whose normal missed
        // the depth by more than 1e-9, `ellipses_of_a_callers_support_map`
        // in gjk-epa's `tests/contact.rs`). The deepest edge met
        // stands, converged within the zero band of its support's reach.
        if let Some((dn, dd, gap, pa, pb)) = deepest
            && d < dd - band(&s)
        {
            let w = [pa.w, pb.w, V::ZERO, V::ZERO];
            let r = solver2d::s1d(&w, 0, 1);
            let status = if gap <= band(&s) { EpaStatus::Converged } else { EpaStatus::Stalled };
            let depth = dd.max(V::Scalar::ZERO);
            let status = if status == EpaStatus::Converged && depth <= band(&s) {
                EpaStatus::Touching
            } else {
                status
            };
            return Penetration {
                status,
                depth,
                normal: dn,
                point_a: pa.a * r.lambda[0] + pb.a * r.lambda[1],
                point_b: pa.b * r.lambda[0] + pb.b * r.lambda[1],
                iterations: s.calls,
            };
        }
        let p = s.support(nrm);
        if s.invalid {
            return Penetration::with_status(EpaStatus::InvalidInput, nrm);
        }
        if deepest.is_none_or(|(_, dd, _, _, _)| d > dd) {
            deepest = Some((nrm, d, nrm.dot(p.w) - d, poly[best], poly[j]));
        }
        let tol = (config.rel_tolerance * d.max(V::Scalar::ZERO)).max(rounding(&s));
        // Exit: the edge is on the boundary of A − B.
        if nrm.dot(p.w) - d <= tol {
            status = EpaStatus::Converged;
            break;
        }
        // Exit: a repeated vertex cannot expand the polygon; confirmed
        // only within the zero band (as in 3D).
        if poly[..n].iter().any(|q| q.w == p.w) {
            status = if nrm.dot(p.w) - d <= band(&s) { EpaStatus::Converged } else { EpaStatus::Stalled };
            break;
        }
        if n >= EPA_MAX_VERTICES {
            break;
        }
        // The new vertex goes between the edge's end points: the edge
        // becomes two.
        let j = edges[best].2;
        poly.push(p);
        edges[best] = edge(poly[best].w, p.w, n);
        edges.push(edge(p.w, poly[j].w, j));
        n += 1;
    }
    // The boundary point nearest the origin, over all edges (collinear
    // neighbours share the nearest line; the foot lies in one of them).
    let mut near = (best, V::Scalar::MAX, gjk_core::internal::Reduced::vertex(0));
    for i in 0..n {
        let mut w = [V::ZERO; MAX_SIMPLEX_POINTS];
        w[0] = poly[i].w;
        w[1] = poly[edges[i].2].w;
        let r = solver2d::s1d(&w, 0, 1);
        let dd = r.point(&w).length_squared();
        if dd < near.1 && edges[i].1 < V::Scalar::MAX {
            near = (i, dd, r);
        }
    }
    let converged = best;
    let (best, _, r) = near;
    // Normal and depth from the edge the loop stopped on (when converged,
    // its support was checked); the witness edge can differ only when several edge
    // lines are (nearly) as close, as at a touching vertex (see the 3D
    // case).
    let (nrm, d, _) = edges[converged];
    let j = edges[best].2;
    let pa = poly[best].a * r.lambda[0] + poly[j].a * r.lambda[1];
    let pb = poly[best].b * r.lambda[0] + poly[j].b * r.lambda[1];
    let depth = d.max(V::Scalar::ZERO);
    let status =
        if status == EpaStatus::Converged && depth <= band(&s) { EpaStatus::Touching } else { status };
    Penetration { status, depth, normal: nrm, point_a: pa, point_b: pb, iterations: s.calls }
}

#[cfg(test)]
mod tests {
    use super::hull_of_five;
    use gjk_core::glam::DVec3;

    /// Every face keeps the other points strictly on one side.
    fn faces_are_supporting(w: &[DVec3; 5], faces: &[(u16, u16, u16)]) -> bool {
        faces.iter().all(|&(i, j, k)| {
            let [a, b, c] = [i, j, k].map(|x| w[usize::from(x)]);
            let n = (b - a).cross(c - a);
            let sides: Vec<f64> = w.iter().map(|p| n.dot(*p - a)).filter(|s| s.abs() > 1e-12).collect();
            sides.iter().all(|s| *s > 0.0) || sides.iter().all(|s| *s < 0.0)
        })
    }

    #[test]
    fn a_convex_bipyramid_keeps_its_six_faces() {
        let w = [
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(-0.5, 0.8, 0.0),
            DVec3::new(-0.5, -0.8, 0.0),
            DVec3::Z,
            -DVec3::Z,
        ];
        let (faces, count) = hull_of_five(&w).expect("general position");
        assert_eq!(count, 6);
        assert!(faces_are_supporting(&w, &faces[..count]));
    }

    /// The triangle's first point lies inside the hull of the other four
    /// (both apexes' feet fall outside the triangle): a tetrahedron, where
    /// the bipyramid over the triangle would not be convex.
    #[test]
    fn apexes_outside_the_triangle_give_a_tetrahedron() {
        let w = [
            DVec3::new(-0.01, 0.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(1.0, -1.0, 0.0),
            DVec3::new(-2.0, 0.0, 1.0),
            DVec3::new(-2.0, 0.0, -1.0),
        ];
        let (faces, count) = hull_of_five(&w).expect("general position");
        assert_eq!(count, 4);
        assert!(faces[..count].iter().all(|&(i, j, k)| i != 0 && j != 0 && k != 0));
        assert!(faces_are_supporting(&w, &faces[..count]));
    }

    /// The same bipyramid 1e7 across in `f32`: its planes' offsets reach
    /// 1e21, whose products overflow; each side's sign still decides.
    #[test]
    fn large_coordinates_keep_their_hull() {
        use gjk_core::glam::Vec3;
        let w = [
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(-0.5, 0.8, 0.0),
            Vec3::new(-0.5, -0.8, 0.0),
            Vec3::Z,
            -Vec3::Z,
        ]
        .map(|p| p * 1e7);
        let (faces, count) = hull_of_five(&w).expect("general position");
        assert_eq!(count, 6);
        let w64 = w.map(|p| p.as_dvec3());
        assert!(faces_are_supporting(&w64, &faces[..count]));
    }

    #[test]
    fn coplanar_points_are_left_to_the_caller() {
        let w = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0), DVec3::Z];
        assert!(hull_of_five(&w).is_none());
    }
}
