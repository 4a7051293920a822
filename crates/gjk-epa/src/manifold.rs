//! Contact manifolds for polytope pairs (3D): up to four points, by clipping
//! the incident face against the side planes of the reference face
//! (Sutherland–Hodgman), as Box2D and Bullet do for boxes.

use gjk_core::{Real, Vector, Vector3};
use gjk_shapes::{ConvexHull, Cuboid, Placed, Pose, Space, Transformed};

use crate::contact::Contact;

/// Most points a manifold keeps.
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// A reference face is kept on A unless B's face is better aligned with
/// the normal by more than this relative margin (avoids flip-flopping
/// between frames when both are almost equally aligned).
pub const REFERENCE_FACE_BIAS: f64 = 0.98;

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
        let zero = ManifoldPoint { point_a: V::ZERO, point_b: V::ZERO, depth: V::Scalar::ZERO };
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
}

/// Shapes with polygonal faces (3D), in their local frame.
pub trait PolyhedronFaces<V: Vector3> {
    /// Writes the vertices (counter-clockwise from outside) of the face
    /// whose outward normal is most aligned with `dir` into `out`, and
    /// returns that normal.
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V;
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
        let n = V::axis(axis) * sign;
        let (u, w) = (V::axis((axis + 1) % 3), V::axis((axis + 2) % 3));
        let h = self.half_extents;
        let c = n * h.component(axis);
        let (hu, hw) = (u * h.component((axis + 1) % 3), w * h.component((axis + 2) % 3));
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
}

impl<V: Space + Vector3> PolyhedronFaces<V> for ConvexHull<V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        out.clear();
        match ConvexHull::best_face(self, dir) {
            Some(f) => {
                out.extend(f.vertices.iter().map(|&i| self.vertices()[i as usize]));
                f.normal
            }
            None => {
                // Degenerate hull: its support point stands in for a face.
                out.push(gjk_core::SupportMap::support(self, dir));
                dir.try_normalize().unwrap_or(V::X)
            }
        }
    }
}

impl<V: Space + Vector3, T: PolyhedronFaces<V>> PolyhedronFaces<V> for Transformed<T, V> {
    fn best_face(&self, dir: V, out: &mut Vec<V>) -> V {
        // Scale maps normals by the inverse scale; faces stay planar.
        let local = self.pose.inverse_transform_vector(dir);
        let n = self.shape.best_face(V::mul_elem(self.scale, local), out);
        for p in out.iter_mut() {
            *p = self.pose.transform_point(V::mul_elem(self.scale, *p));
        }
        let inv = V::splat(V::Scalar::ONE);
        let ns = V::mul_elem(n, inv_elem(self.scale, inv));
        self.pose.transform_vector(ns.try_normalize().unwrap_or(n))
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
}

/// `1 / s` per component.
fn inv_elem<V: Space + Vector3>(s: V, one: V) -> V {
    V::new3(
        one.component(0) / s.component(0),
        one.component(1) / s.component(1),
        one.component(2) / s.component(2),
    )
}

/// A face in the world frame.
fn world_face<V, T>(shape: &T, pose: &Pose<V>, dir: V, out: &mut Vec<V>) -> V
where
    V: Space + Vector3,
    T: PolyhedronFaces<V> + ?Sized,
{
    let n = shape.best_face(pose.inverse_transform_vector(dir), out);
    for p in out.iter_mut() {
        *p = pose.transform_point(*p);
    }
    pose.transform_vector(n)
}

/// The contact manifold of two posed polytopes, from a [`Contact`] between
/// them (its normal picks the faces). Points apart by up to `speculative`
/// are kept with negative depth, so a resting stack sees its contacts a
/// step before they close. Falls back to the contact's single point when
/// clipping leaves nothing (edge–edge contacts).
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
    let n = contact.normal;
    let mut fa = Vec::with_capacity(8);
    let mut fb = Vec::with_capacity(8);
    let na = world_face(a, pose_a, n, &mut fa);
    let nb = world_face(b, pose_b, -n, &mut fb);
    let (align_a, align_b) = (na.dot(n), -nb.dot(n));
    let flip = align_b * V::Scalar::from_f64(REFERENCE_FACE_BIAS) > align_a;
    let (ref_face, ref_n, inc_face) = if flip { (&fb, nb, &fa) } else { (&fa, na, &fb) };
    let single = || {
        let mut m = ContactManifold::empty(n);
        m.push(ManifoldPoint {
            point_a: contact.point_a,
            point_b: contact.point_b,
            depth: contact.depth - contact.distance,
        });
        m
    };
    if ref_face.len() < 3 || inc_face.is_empty() {
        return single();
    }
    // Clip the incident polygon by each side plane of the reference face.
    let mut poly: Vec<V> = inc_face.clone();
    let mut next = Vec::with_capacity(poly.len() + 4);
    for i in 0..ref_face.len() {
        let (p0, p1) = (ref_face[i], ref_face[(i + 1) % ref_face.len()]);
        let side = (p1 - p0).cross(ref_n);
        let Some(side) = side.try_normalize() else { continue };
        next.clear();
        for k in 0..poly.len() {
            let (s, e) = (poly[k], poly[(k + 1) % poly.len()]);
            let (ds, de) = (side.dot(s - p0), side.dot(e - p0));
            if ds <= V::Scalar::ZERO {
                next.push(s);
            }
            if (ds < V::Scalar::ZERO) != (de < V::Scalar::ZERO) && ds != de {
                next.push(s + (e - s) * (ds / (ds - de)));
            }
        }
        core::mem::swap(&mut poly, &mut next);
        if poly.is_empty() {
            return single();
        }
    }
    // Keep points below the reference face (or within the speculative band).
    let mut pts: Vec<ManifoldPoint<V>> = Vec::with_capacity(poly.len());
    for &p in &poly {
        let sep = ref_n.dot(p - ref_face[0]);
        if sep <= speculative {
            let on_ref = p - ref_n * sep;
            let (pa, pb) = if flip { (p, on_ref) } else { (on_ref, p) };
            pts.push(ManifoldPoint { point_a: pa, point_b: pb, depth: -sep });
        }
    }
    if pts.is_empty() {
        return single();
    }
    let normal = if flip { -ref_n } else { ref_n };
    let mut m = ContactManifold::empty(normal);
    for p in reduce(&pts) {
        m.push(p);
    }
    m
}

/// Picks at most four points that keep the deepest one and span the
/// largest area (Box2D / Bullet style reduction).
fn reduce<V: Vector3>(pts: &[ManifoldPoint<V>]) -> Vec<ManifoldPoint<V>> {
    if pts.len() <= MAX_MANIFOLD_POINTS {
        return pts.to_vec();
    }
    let by = |f: &dyn Fn(&ManifoldPoint<V>) -> V::Scalar| {
        (0..pts.len())
            .max_by(|&i, &j| f(&pts[i]).partial_cmp(&f(&pts[j])).unwrap_or(core::cmp::Ordering::Equal))
            .unwrap_or(0)
    };
    let i0 = by(&|p| p.depth);
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
    let mut out = vec![pts[i0]];
    for i in [i1, i2, i3] {
        if !out.iter().any(|p| p.point_b == pts[i].point_b) {
            out.push(pts[i]);
        }
    }
    out
}
