//! Shapes in shallow contact and an oracle for their contact manifolds:
//! `gjk-bench manifolds` and the test `manifolds` (docs/reliability.md,
//! *Contact manifolds*). 3D: boxes, hulls, scaled boxes, capsules, balls
//! and rounded boxes (`polytope_manifold`); 2D: rectangles and polygons,
//! plain and scaled (`polygon_manifold`).
//!
//! The oracle shares no code with the manifolds: a polytope's facet
//! planes come from its world vertices by brute force
//! ([`gjk_testkit::hull_planes`], [`gjk_testkit::hull_lines`]), a round
//! shape's surface from its core in closed form ([`Body`]), and the
//! overlap along a direction from their support functions. A manifold is
//! checked for what a solver reads from it:
//! - its normal: the shapes overlap along it by at most the contact's
//!   least overlap plus the face slack (`FACE_CONTACT_TOLERANCE` of
//!   `max(|least|, speculative)`), so pushing along it is never much worse
//!   than the least push; a single point keeps the contact's own normal;
//! - face contacts: where the contact's normal is a facet's (within
//!   1e-8 rad in `f64`, 1e-5 in `f32`) and the shapes overlap along it by
//!   the least overlap (within the zero band), the manifold is on a facet
//!   along which the overlap is the least too;
//! - its points: each on both shapes' surfaces (a round shape's: or its
//!   radius from its core along the normal, the core-and-radius
//!   convention), `point_a − point_b` equal to `depth · normal`, and the
//!   depth between `−speculative` and the overlap along the normal;
//! - its size: empty exactly when the shapes are apart by more than
//!   `speculative`, no point twice (within rounding), and no id twice
//!   (`ManifoldPoint::id`, for matching points between frames).
use gjk_core::Vector;
use gjk_core::glam::{DMat3, DQuat, DVec2, DVec3, Vec2, Vec3};
use gjk_core::internal::{Vector2, Vector3};
use gjk_epa::tuning::FACE_CONTACT_TOLERANCE;
use gjk_epa::{
    Contact, ContactManifold, ContactStatus, EpaSpace, ManifoldPoint, PolygonEdges, PolyhedronFaces, contact,
    polygon_manifold, polytope_manifold,
};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Pose, Rot2, Rounded, Shape, Space,
    Transformed, distance,
};
use gjk_testkit::{
    Revolved, Rng, box_corners, hull_lines, hull_planes, polygon, polyhedron, revolved_distance,
    revolved_height, revolved_lowest,
};

use crate::curved::{pose_f32, pose_f64};

/// A solid of the 3D sets.
#[derive(Clone, Debug)]
pub enum Solid {
    /// A box of these half extents.
    Box(DVec3),
    /// The hull of these points.
    Hull(Vec<DVec3>),
    /// A cube of half extent 1/2, scaled per axis by the first vector, then
    /// turned by the rotation: a `Transformed` with a non-uniform scale.
    Scaled(DVec3, DQuat),
    /// A capsule along local Y: half height and radius.
    Capsule(f64, f64),
    /// A ball of this radius.
    Ball(f64),
    /// A box of these half extents rounded by the radius (`Rounded`).
    RoundedBox(DVec3, f64),
    /// A cylinder or cone along local Y: its kind, half height and radius.
    Revolved(Revolved, f64, f64),
}

impl Solid {
    /// The oracle's view of the solid at `pose`.
    pub fn body(&self, pose: &Pose<DVec3>) -> Body<DVec3> {
        let world = |local: Vec<DVec3>| local.iter().map(|p| pose.transform_point(*p)).collect::<Vec<_>>();
        let corners = |half: DVec3, q: DQuat| box_corners(half, DMat3::from_quat(q), DVec3::ZERO);
        match self {
            Solid::Box(half) => Body::hull(world(corners(*half, DQuat::IDENTITY))),
            Solid::Hull(p) => Body::hull(world(p.clone())),
            Solid::Scaled(s, q) => Body::hull(world(corners(*s * 0.5, *q))),
            Solid::Capsule(h, r) => Body::Round(RoundBody::new(
                world(vec![DVec3::new(0.0, -h, 0.0), DVec3::new(0.0, *h, 0.0)]),
                *r,
            )),
            Solid::Ball(r) => Body::Round(RoundBody::new(vec![pose.translation], *r)),
            Solid::RoundedBox(half, r) => Body::RoundedBox(*pose, *half, *r),
            Solid::Revolved(kind, h, r) => Body::Revolved(*pose, *kind, *h, *r),
        }
    }

    /// The sizes as `f32` reads them.
    pub fn rounded(&self) -> Self {
        let r = |v: DVec3| v.as_vec3().as_dvec3();
        let x = |v: f64| f64::from(v as f32);
        match self {
            Solid::Box(half) => Solid::Box(r(*half)),
            Solid::Hull(p) => Solid::Hull(p.iter().map(|v| r(*v)).collect()),
            Solid::Scaled(s, q) => {
                Solid::Scaled(r(*s), pose_f64(&pose_f32(&Pose::new(*q, DVec3::ZERO))).rotation)
            }
            Solid::Capsule(h, rad) => Solid::Capsule(x(*h), x(*rad)),
            Solid::Ball(rad) => Solid::Ball(x(*rad)),
            Solid::RoundedBox(half, rad) => Solid::RoundedBox(r(*half), x(*rad)),
            Solid::Revolved(kind, h, rad) => Solid::Revolved(*kind, x(*h), x(*rad)),
        }
    }

    /// The solid scaled by `k` about its origin.
    fn scaled(&self, k: f64) -> Self {
        match self {
            Solid::Box(h) => Solid::Box(*h * k),
            Solid::Hull(p) => Solid::Hull(p.iter().map(|v| *v * k).collect()),
            Solid::Scaled(v, q) => Solid::Scaled(*v * k, *q),
            Solid::Capsule(h, r) => Solid::Capsule(h * k, r * k),
            Solid::Ball(r) => Solid::Ball(r * k),
            Solid::RoundedBox(h, r) => Solid::RoundedBox(*h * k, r * k),
            Solid::Revolved(kind, h, r) => Solid::Revolved(*kind, h * k, r * k),
        }
    }

    /// The library shape, in `f32` or `f64`.
    pub fn shape<V: Prec>(&self) -> Box<dyn FacedShape<V>> {
        let v = V::vector;
        let s = V::from_f64;
        match self {
            Solid::Box(half) => Box::new(Cuboid::new(v(*half)).unwrap()),
            Solid::Hull(p) => {
                Box::new(ConvexHull::new(&p.iter().map(|x| v(*x)).collect::<Vec<_>>()).unwrap())
            }
            Solid::Scaled(sc, q) => {
                let cube = Cuboid::new(v(DVec3::splat(0.5))).unwrap();
                Box::new(Transformed::with_scale(cube, Pose::new(V::rotation(*q), V::ZERO), v(*sc)).unwrap())
            }
            Solid::Capsule(h, r) => Box::new(Capsule::new(s(*h), s(*r)).unwrap()),
            Solid::Ball(r) => Box::new(Ball::new(s(*r)).unwrap()),
            Solid::RoundedBox(half, r) => {
                Box::new(Rounded::new(Cuboid::new(v(*half)).unwrap(), s(*r)).unwrap())
            }
            Solid::Revolved(Revolved::Cylinder, h, r) => Box::new(Cylinder::new(s(*h), s(*r)).unwrap()),
            Solid::Revolved(Revolved::Cone, h, r) => Box::new(Cone::new(s(*h), s(*r)).unwrap()),
        }
    }
}

/// A library shape with faces: what the manifold queries take.
pub trait FacedShape<V: Space + Vector3>: Shape<V> + PolyhedronFaces<V> {}
impl<V: Space + Vector3, T: Shape<V> + PolyhedronFaces<V>> FacedShape<V> for T {}

/// The precisions the queries run in: `Vec3` and `DVec3`, built from the
/// sets' `f64` values.
pub trait Prec: ToF64<Out = DVec3> + Vector3 + EpaSpace + 'static {
    /// The vector, rounded to this precision.
    fn vector(v: DVec3) -> Self;
    /// The scalar, rounded to this precision.
    fn from_f64(x: f64) -> Self::Scalar;
    /// The rotation, rounded to this precision.
    fn rotation(q: DQuat) -> Self::Rotation;
    /// The pose, rounded to this precision.
    fn pose(p: &Pose<DVec3>) -> Pose<Self> {
        Pose::new(Self::rotation(p.rotation), Self::vector(p.translation))
    }
}

impl Prec for Vec3 {
    fn vector(v: DVec3) -> Self {
        v.as_vec3()
    }
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    fn rotation(q: DQuat) -> gjk_core::glam::Quat {
        pose_f32(&Pose::new(q, DVec3::ZERO)).rotation
    }
}

impl Prec for DVec3 {
    fn vector(v: DVec3) -> Self {
        v
    }
    fn from_f64(x: f64) -> f64 {
        x
    }
    fn rotation(q: DQuat) -> DQuat {
        q
    }
}

/// The oracle's view of a solid in the world frame (2D or 3D).
#[derive(Clone, Debug)]
pub enum Body<V: Space> {
    /// A polytope.
    Hull(HullBody<V>),
    /// A disc, ball or capsule.
    Round(RoundBody<V>),
    /// A box (a rectangle in 2D) at the pose, of these half extents,
    /// rounded by the radius.
    RoundedBox(Pose<V>, V, f64),
    /// A cylinder or cone (3D) at the pose: its kind, half height and
    /// radius, in closed form (`gjk_testkit::revolved_*`).
    Revolved(Pose<V>, Revolved, f64, f64),
}

/// A vector's first three components (0 past its dimension).
fn three<V: Space<Scalar = f64>>(v: V) -> DVec3 {
    DVec3::new(v.component(0), v.component(1), if V::DIM > 2 { v.component(2) } else { 0.0 })
}

/// The signed distance of a point `p` (the solid's own frame) from a
/// cylinder or cone: outside, the distance (`revolved_distance`); inside,
/// minus the distance to the nearest face (the caps or the side).
fn revolved_excess(kind: Revolved, h: f64, r: f64, p: DVec3) -> f64 {
    let outside = revolved_distance(kind, h, r, p);
    if outside > 0.0 {
        return outside;
    }
    let rho = p.x.hypot(p.z);
    let inside = match kind {
        Revolved::Cylinder => (r - rho).min(h - p.y.abs()),
        // The base, and the slanted side's line through (r, −h) and (0, h).
        Revolved::Cone => (p.y + h).min((h * r - 2.0 * h * rho - r * p.y) / (4.0 * h * h + r * r).sqrt()),
    };
    -inside
}

impl<V: OracleVec + Space<Scalar = f64>> Body<V> {
    fn hull(v: Vec<V>) -> Self {
        Body::Hull(HullBody::new(v))
    }
}

/// A polytope as the oracle sees it: its world vertices and facet planes
/// (brute force: [`OracleVec::facets`]).
#[derive(Clone, Debug)]
pub struct HullBody<V> {
    /// The vertices.
    pub vertices: Vec<V>,
    /// The facet planes `(n, d)`.
    pub planes: Vec<(V, f64)>,
}

impl<V: OracleVec> HullBody<V> {
    /// The hull of `vertices`.
    pub fn new(vertices: Vec<V>) -> Self {
        let planes = V::facets(&vertices);
        Self { vertices, planes }
    }
}

impl<V: OracleVec> OracleBody<V> for HullBody<V> {
    fn height(&self, n: V) -> f64 {
        height(&self.vertices, n)
    }
    fn excess(&self, p: V) -> f64 {
        excess(p, &self.planes)
    }
    fn facet_normals(&self) -> Vec<V> {
        self.planes.iter().map(|(n, _)| *n).collect()
    }
    fn scale(&self) -> f64 {
        self.vertices.iter().fold(0.0, |s, p| s.max(p.max_abs()))
    }
}

/// What the oracle needs of a shape: its support function, a signed
/// distance (or a bound on it) and its facets' normals.
pub trait OracleBody<V> {
    /// How far the shape reaches along the unit `n`.
    fn height(&self, n: V) -> f64;
    /// Negative inside (minus the depth), zero on the surface, positive
    /// outside (a lower bound on the distance for a hull).
    fn excess(&self, p: V) -> f64;
    /// The outward normals of its flat faces.
    fn facet_normals(&self) -> Vec<V>;
    /// A bound on its coordinates.
    fn scale(&self) -> f64;
    /// The radius of a round shape (its core grown by a ball), else 0.
    fn radius(&self) -> f64 {
        0.0
    }
    /// Whether its surface is curved with no radius to take off (a
    /// cylinder, a cone): there EPA's witness points lie on its polytope,
    /// inside the surface by EPA's tolerance.
    fn curved(&self) -> bool {
        false
    }
}

impl<V: OracleVec + Space<Scalar = f64>> OracleBody<V> for Body<V> {
    fn height(&self, n: V) -> f64 {
        match self {
            Body::Hull(h) => h.height(n),
            Body::Round(b) => b.height(n),
            Body::RoundedBox(pose, half, r) => {
                let local = pose.inverse_transform_vector(n);
                let reach: f64 = (0..V::DIM).map(|k| (local.component(k) * half.component(k)).abs()).sum();
                pose.translation.dot(n) + reach + r
            }
            Body::Revolved(pose, kind, h, r) => {
                pose.translation.dot(n)
                    + revolved_height(*kind, *h, *r, three(pose.inverse_transform_vector(n)))
            }
        }
    }
    fn excess(&self, p: V) -> f64 {
        match self {
            Body::Hull(h) => h.excess(p),
            Body::Round(b) => b.excess(p),
            Body::RoundedBox(pose, half, r) => {
                // The box's signed distance (exact outside and inside).
                let local = pose.inverse_transform_point(p);
                let q: Vec<f64> = (0..V::DIM).map(|k| local.component(k).abs() - half.component(k)).collect();
                let outside = q.iter().map(|x| x.max(0.0).powi(2)).sum::<f64>().sqrt();
                outside + q.iter().copied().fold(f64::NEG_INFINITY, f64::max).min(0.0) - r
            }
            Body::Revolved(pose, kind, h, r) => {
                revolved_excess(*kind, *h, *r, three(pose.inverse_transform_point(p)))
            }
        }
    }
    fn facet_normals(&self) -> Vec<V> {
        match self {
            Body::Hull(h) => h.facet_normals(),
            Body::Round(b) => b.facet_normals(),
            Body::RoundedBox(pose, ..) => (0..2 * V::DIM)
                .map(|k| pose.transform_vector(V::axis(k % V::DIM) * if k < V::DIM { 1.0 } else { -1.0 }))
                .collect(),
            // The flat faces: a cylinder's caps, a cone's base.
            Body::Revolved(pose, kind, ..) => {
                let down = pose.transform_vector(-V::axis(1));
                if *kind == Revolved::Cylinder { vec![down, -down] } else { vec![down] }
            }
        }
    }
    fn scale(&self) -> f64 {
        match self {
            Body::Hull(h) => h.scale(),
            Body::Round(b) => b.scale(),
            Body::RoundedBox(pose, half, r) => pose.translation.max_abs() + half.length() + r,
            Body::Revolved(pose, _, h, r) => pose.translation.max_abs() + h.hypot(*r),
        }
    }
    fn curved(&self) -> bool {
        matches!(self, Body::Revolved(..))
    }
    fn radius(&self) -> f64 {
        match self {
            Body::Hull(_) | Body::Revolved(..) => 0.0,
            Body::Round(b) => b.r,
            Body::RoundedBox(_, _, r) => *r,
        }
    }
}

/// The sets, by index.
pub const KINDS: [&str; 8] = [
    "random boxes",
    "boxes resting on a floor",
    "random hulls",
    "scaled boxes",
    "capsules lying on boxes",
    "mixed round and flat",
    "cylinders and cones",
    "lines side by side",
];

/// One pair: two solids, their poses and the speculative distance.
#[derive(Clone, Debug)]
pub struct ManifoldPair {
    /// Shape A.
    pub a: Solid,
    /// Shape B.
    pub b: Solid,
    /// A's pose.
    pub pose_a: Pose<DVec3>,
    /// B's pose.
    pub pose_b: Pose<DVec3>,
    /// How far apart points are still kept.
    pub speculative: f64,
}

impl ManifoldPair {
    /// The pair as the `f32` queries read it.
    pub fn rounded(&self) -> Self {
        Self {
            a: self.a.rounded(),
            b: self.b.rounded(),
            pose_a: pose_f64(&pose_f32(&self.pose_a)),
            pose_b: pose_f64(&pose_f32(&self.pose_b)),
            speculative: f64::from(self.speculative as f32),
        }
    }

    /// The pair scaled by `k` about the origin.
    pub fn scaled(&self, k: f64) -> Self {
        let p = |q: &Pose<DVec3>| Pose::new(q.rotation, q.translation * k);
        Self {
            a: self.a.scaled(k),
            b: self.b.scaled(k),
            pose_a: p(&self.pose_a),
            pose_b: p(&self.pose_b),
            speculative: self.speculative * k,
        }
    }
}

/// B moved along the closest points so that it overlaps A by `pen`
/// (negative: apart by `−pen`); `None` where they were not apart.
fn placed(a: &Solid, pa: &Pose<DVec3>, b: &Solid, pb: Pose<DVec3>, pen: f64) -> Option<Pose<DVec3>> {
    let (sa, sb) = (a.shape::<DVec3>(), b.shape::<DVec3>());
    let d = distance(sa.as_ref() as &dyn Shape<DVec3>, pa, sb.as_ref() as &dyn Shape<DVec3>, &pb);
    if d.status != gjk_core::Status::Separated {
        return None;
    }
    Some(Pose::new(pb.rotation, pb.translation - d.normal * (d.distance + pen)))
}

/// A random solid of the mixed set.
fn mixed(rng: &mut Rng) -> Solid {
    let half = DVec3::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5), rng.range(0.2, 1.5));
    match rng.usize(0, 4) {
        0 => Solid::Box(half),
        1 => Solid::Capsule(rng.range(0.1, 1.5), rng.range(0.05, 0.8)),
        2 => Solid::Ball(rng.range(0.1, 1.5)),
        3 => Solid::RoundedBox(half * 0.8, rng.range(0.02, 0.3)),
        _ => {
            let n = rng.usize(5, 14);
            Solid::Hull(polyhedron(rng, n))
        }
    }
}

/// A random pair of set `kind` ([`KINDS`]) in shallow contact: apart by up
/// to 3 % of the shapes' size or overlapping by up to 3 % (on a floor or
/// box top: apart by up to 4 %, sunk by up to 5 %, tilted up to 0.2 rad
/// (a box) or 0.1 (a capsule, flat in a third of the pairs)), with a
/// speculative distance of 2 % (3 % on a top), so that a sixth of the
/// pairs are apart beyond it. `None` where the placement failed (rare).
pub fn manifold_pair(rng: &mut Rng, kind: usize) -> Option<ManifoldPair> {
    let half =
        |rng: &mut Rng, lo: f64, hi: f64| DVec3::new(rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi));
    let far = |rng: &mut Rng, reach: f64| Pose::new(rng.quat(), rng.unit3() * reach);
    let shallow = |rng: &mut Rng, a: Solid, b: Solid, reach: f64| {
        let pose_a = Pose::new(rng.quat(), DVec3::ZERO);
        let pb = far(rng, reach);
        let pen = rng.range(-0.03, 0.03);
        let pose_b = placed(&a, &pose_a, &b, pb, pen)?;
        Some(ManifoldPair { a, b, pose_a, pose_b, speculative: 0.02 })
    };
    match kind {
        0 => {
            let (ha, hb) = (half(rng, 0.2, 1.5), half(rng, 0.2, 1.5));
            shallow(rng, Solid::Box(ha), Solid::Box(hb), 6.0)
        }
        1 => {
            let floor = DVec3::new(10.0, 1.0, 10.0);
            let hb = half(rng, 0.2, 1.0);
            let tilt = DQuat::from_axis_angle(rng.unit3(), rng.range(0.0, 0.2));
            let q = tilt * DQuat::from_rotation_y(rng.range(0.0, 6.3));
            let low = box_corners(hb, DMat3::from_quat(q), DVec3::ZERO)
                .iter()
                .map(|p| p.y)
                .fold(f64::INFINITY, f64::min);
            let pen = rng.range(-0.04, 0.05);
            let pose_b = Pose::new(q, DVec3::new(rng.range(-3.0, 3.0), -low - pen, rng.range(-3.0, 3.0)));
            let pose_a = Pose::from_translation(DVec3::new(0.0, -1.0, 0.0));
            Some(ManifoldPair { a: Solid::Box(floor), b: Solid::Box(hb), pose_a, pose_b, speculative: 0.03 })
        }
        2 => {
            let (na, nb) = (rng.usize(5, 14), rng.usize(5, 14));
            let (la, lb) = (polyhedron(rng, na), polyhedron(rng, nb));
            shallow(rng, Solid::Hull(la), Solid::Hull(lb), 6.0)
        }
        3 => {
            let size =
                |rng: &mut Rng| DVec3::new(rng.range(0.1, 10.0), rng.range(0.1, 10.0), rng.range(0.1, 10.0));
            let (sa, sb) = (size(rng), size(rng));
            let (qa, qb) = (rng.quat(), rng.quat());
            shallow(rng, Solid::Scaled(sa, qa), Solid::Scaled(sb, qb), 30.0)
        }
        4 => {
            // A box's top at y = 0 in the pair's frame; the capsule lies
            // along a random horizontal axis, tilted a little, over the top
            // or hanging past its rim. Then the pair is moved at random.
            let ha = DVec3::new(rng.range(0.5, 2.0), rng.range(0.2, 1.0), rng.range(0.5, 2.0));
            let (h, r) = (rng.range(0.2, 1.0), rng.range(0.05, 0.5));
            let tilt = if rng.usize(0, 2) == 0 { 0.0 } else { rng.range(-0.1, 0.1) };
            let q = DQuat::from_rotation_y(rng.range(0.0, 6.3))
                * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2 + tilt);
            let low = h * (q * DVec3::Y).y.abs() + r;
            let pen = rng.range(-0.04, 0.05);
            let at =
                DVec3::new(rng.range(-ha.x - 0.5, ha.x + 0.5), low - pen, rng.range(-ha.z - 0.5, ha.z + 0.5));
            let m = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 3.0));
            let pose_a = m.mul(&Pose::from_translation(DVec3::new(0.0, -ha.y, 0.0)));
            let pose_b = m.mul(&Pose::new(q, at));
            Some(ManifoldPair {
                a: Solid::Box(ha),
                b: Solid::Capsule(h, r),
                pose_a,
                pose_b,
                speculative: 0.03,
            })
        }
        5 => {
            let (a, b) = (mixed(rng), mixed(rng));
            shallow(rng, a, b, 6.0)
        }
        7 => {
            // Capsules and cylinders lying along each other (A along x at
            // the origin, B beside it across a random direction in the y–z
            // plane, sliding along it), parallel or turned by up to 0.05
            // rad about the line between them or across it; sunk up to 3 %
            // or apart up to 3 %. Then moved at random.
            let line = |rng: &mut Rng| {
                let (h, r) = (rng.range(0.2, 1.5), rng.range(0.1, 0.6));
                if rng.usize(0, 1) == 0 {
                    (Solid::Capsule(h, r), h, r)
                } else {
                    (Solid::Revolved(Revolved::Cylinder, h, r), h, r)
                }
            };
            let ((a, ha, ra), (b, hb, rb)) = (line(rng), line(rng));
            let onto_x = DQuat::from_rotation_z(-std::f64::consts::FRAC_PI_2);
            let phi = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
            let across = DVec3::new(0.0, phi.cos(), phi.sin());
            let skew = [0.0, 1e-7, 1e-5, 1e-3, 0.05][rng.usize(0, 4)] * rng.range(-1.0, 1.0);
            let turn = if rng.usize(0, 1) == 0 { across } else { across.cross(DVec3::X) };
            let pen = rng.range(-0.03, 0.03);
            let slide = rng.range(-0.8, 0.8) * (ha + hb);
            let m = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 3.0));
            let pose_a = m.mul(&Pose::new(onto_x * DQuat::from_rotation_y(rng.range(0.0, 6.3)), DVec3::ZERO));
            let spin = DQuat::from_rotation_y(rng.range(0.0, 6.3));
            let pose_b = m.mul(&Pose::new(
                DQuat::from_axis_angle(turn, skew) * onto_x * spin,
                DVec3::X * slide + across * (ra + rb - pen),
            ));
            Some(ManifoldPair { a, b, pose_a, pose_b, speculative: 0.02 })
        }
        _ => {
            let kind = [Revolved::Cylinder, Revolved::Cone][rng.usize(0, 1)];
            let (h, r) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
            if rng.usize(0, 1) == 0 {
                // A cylinder or cone against a random box, hull, capsule,
                // cylinder or cone, in shallow contact.
                let other = match rng.usize(0, 3) {
                    0 => Solid::Revolved(
                        [Revolved::Cylinder, Revolved::Cone][rng.usize(0, 1)],
                        rng.range(0.1, 1.0),
                        rng.range(0.1, 1.0),
                    ),
                    _ => mixed(rng),
                };
                return shallow(rng, Solid::Revolved(kind, h, r), other, 6.0);
            }
            // On a box's top (y = 0 in the pair's frame): upright (a cap or
            // the base down), lying on its side (a cylinder along a random
            // horizontal axis; a cone on a line of its side), or upside
            // down; tilted a little (not at all in a third of the pairs),
            // over the top or hanging past its rim. Then moved at random.
            let ha = DVec3::new(rng.range(0.5, 2.0), rng.range(0.2, 1.0), rng.range(0.5, 2.0));
            let lie = match kind {
                Revolved::Cylinder => std::f64::consts::FRAC_PI_2,
                // The side's line is `atan(r / 2h)` off the axis.
                Revolved::Cone => std::f64::consts::FRAC_PI_2 + (r / (2.0 * h)).atan(),
            };
            let lean = [0.0, lie, std::f64::consts::PI][rng.usize(0, 2)];
            let tilt = if rng.usize(0, 2) == 0 { 0.0 } else { rng.range(-0.1, 0.1) };
            let q = DQuat::from_rotation_y(rng.range(0.0, 6.3)) * DQuat::from_rotation_z(lean + tilt);
            let low = revolved_lowest(kind, h, r, q, DVec3::ZERO).y;
            let pen = rng.range(-0.04, 0.05);
            let at = DVec3::new(
                rng.range(-ha.x - 0.5, ha.x + 0.5),
                -low - pen,
                rng.range(-ha.z - 0.5, ha.z + 0.5),
            );
            let m = Pose::new(rng.quat(), rng.unit3() * rng.range(0.0, 3.0));
            let pose_a = m.mul(&Pose::from_translation(DVec3::new(0.0, -ha.y, 0.0)));
            let pose_b = m.mul(&Pose::new(q, at));
            Some(ManifoldPair {
                a: Solid::Box(ha),
                b: Solid::Revolved(kind, h, r),
                pose_a,
                pose_b,
                speculative: 0.03,
            })
        }
    }
}

/// The checks, by index into [`ManifoldVerdict::wrong`].
pub const CHECKS: [&str; 5] = ["normal", "face", "surface", "depth", "count"];

/// What the oracle found for one pair.
#[derive(Clone, Copy, Debug, Default)]
pub struct ManifoldVerdict {
    /// The contact's status was Separated, Touching or Penetrating.
    pub usable: bool,
    /// The contact's normal is a facet's (of either shape), along which the
    /// overlap is the least within the zero band: a face contact.
    pub face: bool,
    /// The manifold's number of points.
    pub points: usize,
    /// Which checks failed ([`CHECKS`]).
    pub wrong: [bool; 5],
    /// How far the shapes overlap along the manifold's normal beyond the
    /// least overlap, over the allowed slack (≤ 1 when right).
    pub normal_excess: f64,
    /// The largest failure of the point checks, over the tolerance.
    pub point_excess: f64,
    /// How far the overlap along the contact's own normal misses its
    /// least overlap, over the tolerance (not a manifold check).
    pub contact_excess: f64,
    /// Points deeper than the tolerance of which neither lies inside the
    /// other shape (not a check: clipping can leave such points near the
    /// reference face's rim).
    pub outside: usize,
    /// The largest distance outside of those, over its point's depth.
    pub outside_ratio: f64,
    /// The manifold is the contact's own point on a curved pair (a
    /// cylinder or cone): its point and depth are EPA's, whose accuracy
    /// there is a tolerance, not rounding (`gjk-bench curved-contacts`
    /// checks it), so the point checks skip it.
    pub inherited: bool,
}

impl ManifoldVerdict {
    /// Whether any check failed.
    pub fn is_wrong(&self) -> bool {
        self.wrong.iter().any(|&w| w)
    }
}

/// A disc, ball or capsule as the oracle sees it: its core (one point or
/// a segment's two ends) grown by a radius.
#[derive(Clone, Debug)]
pub struct RoundBody<V> {
    /// The core's points.
    pub core: Vec<V>,
    /// The radius.
    pub r: f64,
}

impl<V: OracleVec> RoundBody<V> {
    /// The core `core` grown by `r`.
    pub fn new(core: Vec<V>, r: f64) -> Self {
        Self { core, r }
    }
}

impl<V: OracleVec> OracleBody<V> for RoundBody<V> {
    fn height(&self, n: V) -> f64 {
        height(&self.core, n) + self.r
    }
    fn excess(&self, p: V) -> f64 {
        let (a, b) = (self.core[0], self.core[self.core.len() - 1]);
        let ab = b - a;
        let t = if ab.dot(ab) > 0.0 { ((p - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0) } else { 0.0 };
        (p - (a + ab * t)).length() - self.r
    }
    fn facet_normals(&self) -> Vec<V> {
        V::side_normals(self.core[0], self.core[self.core.len() - 1])
    }
    fn scale(&self) -> f64 {
        self.core.iter().fold(0.0, |s, p| s.max(p.max_abs() + self.r))
    }
    fn radius(&self) -> f64 {
        self.r
    }
}

/// Vectors the oracle works in: `DVec2` and `DVec3`.
pub trait OracleVec: Vector<Scalar = f64> + core::fmt::Debug {
    /// The outward normals of a capsule's flat sides about the segment
    /// `a b`: in 2D its two perpendiculars, in 3D none (a cylinder's side
    /// is round).
    fn side_normals(a: Self, b: Self) -> Vec<Self>;
    /// The angle to `o` (both unit), accurate near 0 (`acos` of the dot
    /// product resolves no finer than 1.5e-8).
    fn angle(self, o: Self) -> f64;
    /// The facet planes `(n, d)` of the points' hull, by brute force.
    fn facets(v: &[Self]) -> Vec<(Self, f64)>;
}

impl OracleVec for DVec3 {
    fn side_normals(_: Self, _: Self) -> Vec<Self> {
        Vec::new()
    }
    fn angle(self, o: Self) -> f64 {
        self.cross(o).length().atan2(self.dot(o))
    }
    fn facets(v: &[Self]) -> Vec<(Self, f64)> {
        hull_planes(v)
    }
}

impl OracleVec for DVec2 {
    fn side_normals(a: Self, b: Self) -> Vec<Self> {
        (b - a).perp().try_normalize().map_or(Vec::new(), |n| vec![n, -n])
    }
    fn angle(self, o: Self) -> f64 {
        self.perp_dot(o).abs().atan2(self.dot(o))
    }
    fn facets(v: &[Self]) -> Vec<(Self, f64)> {
        hull_lines(v)
    }
}

/// The largest value of `dot(v, n)` over `v`.
fn height<V: OracleVec>(v: &[V], n: V) -> f64 {
    v.iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max)
}

/// The largest `n·p − d` over the planes: negative inside, positive outside.
fn excess<V: OracleVec>(p: V, planes: &[(V, f64)]) -> f64 {
    planes.iter().map(|(n, d)| n.dot(p) - d).fold(f64::NEG_INFINITY, f64::max)
}

/// Vectors of either precision, read in `f64`.
pub trait ToF64: Space {
    /// The same vector in `f64`.
    type Out: OracleVec;
    /// The vector in `f64`, exactly.
    fn f64(self) -> Self::Out;
    /// The scalar in `f64`, exactly.
    fn scalar(s: Self::Scalar) -> f64;
}

macro_rules! to_f64_impl {
    ($v:ty, $out:ty, $s:ty, $conv:ident) => {
        impl ToF64 for $v {
            type Out = $out;
            fn f64(self) -> $out {
                self.$conv()
            }
            fn scalar(s: $s) -> f64 {
                f64::from(s)
            }
        }
    };
}
to_f64_impl!(Vec3, DVec3, f32, as_dvec3);
to_f64_impl!(Vec2, DVec2, f32, as_dvec2);

impl ToF64 for DVec3 {
    type Out = DVec3;
    fn f64(self) -> DVec3 {
        self
    }
    fn scalar(s: f64) -> f64 {
        s
    }
}

impl ToF64 for DVec2 {
    type Out = DVec2;
    fn f64(self) -> DVec2 {
        self
    }
    fn scalar(s: f64) -> f64 {
        s
    }
}

/// A manifold read in `f64`: its normal and points.
#[derive(Clone, Debug)]
pub struct Manifold64<V: Vector> {
    /// The normal.
    pub normal: V,
    /// The points.
    pub points: Vec<ManifoldPoint<V>>,
}

/// A contact and its manifold, in `f64`.
fn to_f64<V: ToF64>(c: &Contact<V>, m: &ContactManifold<V>) -> (Contact<V::Out>, Manifold64<V::Out>) {
    let c64 = Contact {
        status: c.status,
        distance: V::scalar(c.distance),
        depth: V::scalar(c.depth),
        normal: c.normal.f64(),
        point_a: c.point_a.f64(),
        point_b: c.point_b.f64(),
        gjk_iterations: c.gjk_iterations,
        epa_iterations: c.epa_iterations,
        epa_status: c.epa_status,
    };
    let points = m
        .points()
        .iter()
        .map(|p| ManifoldPoint {
            point_a: p.point_a.f64(),
            point_b: p.point_b.f64(),
            depth: V::scalar(p.depth),
            id: p.id,
        })
        .collect();
    (c64, Manifold64 { normal: m.normal.f64(), points })
}

/// The pair's contact (default configuration) and manifold in the
/// precision `V`, read in `f64`.
fn run_pair<V: Prec>(pair: &ManifoldPair) -> (Contact<DVec3>, Manifold64<DVec3>) {
    let (a, b) = (pair.a.shape::<V>(), pair.b.shape::<V>());
    let (pa, pb) = (V::pose(&pair.pose_a), V::pose(&pair.pose_b));
    let c = contact(a.as_ref() as &dyn Shape<V>, &pa, b.as_ref() as &dyn Shape<V>, &pb);
    let (fa, fb) = (a.as_ref() as &dyn PolyhedronFaces<V>, b.as_ref() as &dyn PolyhedronFaces<V>);
    let m = polytope_manifold(fa, &pa, fb, &pb, &c, V::from_f64(pair.speculative));
    to_f64(&c, &m)
}

/// The pair's contact (default configuration) and manifold, in `f64`.
pub fn pair_manifold(pair: &ManifoldPair, f32_: bool) -> (Contact<DVec3>, Manifold64<DVec3>) {
    if f32_ { run_pair::<Vec3>(pair) } else { run_pair::<DVec3>(pair) }
}

/// The oracle's verdict on the pair's manifold, in `f32` or `f64`.
pub fn manifold_verdict(pair: &ManifoldPair, f32_: bool) -> ManifoldVerdict {
    let (c, m) = pair_manifold(pair, f32_);
    let read = if f32_ { pair.rounded() } else { pair.clone() };
    let (a, b) = (read.a.body(&read.pose_a), read.b.body(&read.pose_b));
    judge(&c, &m, &a, &b, read.speculative, f32_)
}

/// The oracle's verdict on a contact `c` and its manifold `m` between two
/// shapes as the oracle sees them (in the world frame, as the queries read
/// them).
pub fn judge<V: OracleVec>(
    c: &Contact<V>,
    m: &Manifold64<V>,
    a: &dyn OracleBody<V>,
    b: &dyn OracleBody<V>,
    spec: f64,
    f32_: bool,
) -> ManifoldVerdict {
    let scale = a.scale().max(b.scale());
    let eps = if f32_ { f64::from(f32::EPSILON) } else { f64::EPSILON };
    // The zero band: 256 ε of twice the shapes' size (the size of A − B).
    let tol = 256.0 * eps * 2.0 * scale;
    // How far off a unit normal may be and still be the facet's.
    let angle_tol = if f32_ { 1e-5 } else { 1e-8 };
    let mut v = ManifoldVerdict {
        usable: matches!(
            c.status,
            ContactStatus::Separated | ContactStatus::Touching | ContactStatus::Penetrating
        ),
        ..Default::default()
    };
    if !v.usable {
        return v;
    }
    let least = c.depth - c.distance;
    // The contact itself: along its normal the shapes overlap by its
    // least overlap (the normal proves the depth or distance).
    v.contact_excess = ((a.height(c.normal) + b.height(-c.normal)) - least).abs() / tol;
    v.points = m.points.len();
    // Empty exactly beyond the speculative distance, no point twice
    // (within rounding, 16 ε of the size: the manifolds weld points within
    // their zero band), and no id twice.
    let same = 16.0 * eps * scale;
    let twice = m.points.iter().enumerate().any(|(i, p)| {
        m.points[..i]
            .iter()
            .any(|q| (p.point_a - q.point_a).length().max((p.point_b - q.point_b).length()) <= same)
    });
    let id_twice = m.points.iter().enumerate().any(|(i, p)| m.points[..i].iter().any(|q| q.id == p.id));
    v.wrong[4] = m.points.is_empty() != (-least > spec) || twice || id_twice;
    if m.points.is_empty() {
        return v;
    }
    let n = m.normal;
    // The shapes' overlap along a direction.
    let overlap = |d: V| a.height(d) + b.height(-d);
    let over = overlap(n);
    // A face contact: the contact's normal is a facet's, along which the
    // overlap is the least.
    let (fa, fb) = (a.facet_normals(), b.facet_normals());
    let facet_normals = || fa.iter().copied().chain(fb.iter().map(|f| -*f));
    v.face = facet_normals().any(|f| f.angle(c.normal) <= angle_tol && overlap(f) - least <= tol);
    let slack = FACE_CONTACT_TOLERANCE * least.abs().max(spec) + tol;
    v.normal_excess = (over - least) / slack;
    let facet = facet_normals().any(|f| f.angle(n) <= angle_tol);
    let single_off = m.points.len() == 1 && n.angle(c.normal) > angle_tol && !facet;
    v.wrong[0] = v.normal_excess > 1.0 || single_off;
    v.wrong[1] = v.face && over - least > tol;
    v.inherited = m.points.len() == 1 && n == c.normal && (a.curved() || b.curved());
    if v.inherited {
        return v;
    }
    // Two lines side by side (parallel capsules, cylinders lying along
    // each other: several points along no facet's normal): each point's
    // pair is `depth · n` apart, but the lines may lie off a common plane
    // with `n` by up to the slack, and their points off the surfaces by
    // that offset squared over twice a radius (`line_pair` in gjk-epa):
    // the surface check takes the slack.
    let surface_tol = if m.points.len() >= 2 && !facet { slack } else { tol };
    for p in &m.points {
        // On the surface; or, for a round shape, its radius from its core
        // along the normal (the core-and-radius convention: a point
        // clipped from a round shape's core is offset by the radius).
        let on = |body: &dyn OracleBody<V>, q: V, to_core: V| {
            let core = (body.excess(q + to_core * body.radius()) + body.radius()).max(0.0);
            body.excess(q).abs().min(core)
        };
        let surface = on(a, p.point_a, -n).max(on(b, p.point_b, n));
        let gap = ((p.point_a - p.point_b) - n * p.depth).length();
        let range = (p.depth - over).max(-spec - p.depth);
        v.wrong[2] |= surface > surface_tol;
        v.wrong[3] |= gap.max(range) > tol;
        v.point_excess = v.point_excess.max((surface / surface_tol).max(gap.max(range) / tol));
        let out = a.excess(p.point_b).min(b.excess(p.point_a));
        if p.depth > tol && out > tol {
            v.outside += 1;
            v.outside_ratio = v.outside_ratio.max(out / p.depth);
        }
    }
    v
}

/// A set's counts over many pairs.
#[derive(Clone, Debug, Default)]
pub struct ManifoldTally {
    /// Pairs with a usable contact.
    pub pairs: usize,
    /// Face contacts among them.
    pub face: usize,
    /// Manifolds of two or more points.
    pub multi: usize,
    /// Manifolds of one point.
    pub single: usize,
    /// Empty manifolds.
    pub empty: usize,
    /// Failures of each check ([`CHECKS`]).
    pub wrong: [usize; 5],
    /// The worst [`ManifoldVerdict::normal_excess`].
    pub normal_excess: f64,
    /// The worst [`ManifoldVerdict::point_excess`].
    pub point_excess: f64,
    /// The worst [`ManifoldVerdict::contact_excess`].
    pub contact_excess: f64,
    /// All [`ManifoldVerdict::outside`].
    pub outside: usize,
    /// The worst [`ManifoldVerdict::outside_ratio`].
    pub outside_ratio: f64,
    /// Pairs whose manifold is a curved contact's own point
    /// ([`ManifoldVerdict::inherited`]).
    pub inherited: usize,
    /// The first wrong pair (printed) and its verdict.
    pub first_wrong: Option<(String, ManifoldVerdict)>,
}

/// `pairs` usable pairs of set `kind` ([`KINDS`] in 3D, [`KINDS_2D`] in
/// 2D) from `seed`, scaled by `scale`, in `f32` or `f64`, tallied.
pub fn manifold_tally(
    dim: usize,
    kind: usize,
    f32_: bool,
    scale: f64,
    pairs: usize,
    seed: u64,
) -> ManifoldTally {
    let mut rng = Rng::new(seed);
    let mut t = ManifoldTally::default();
    while t.pairs < pairs {
        let (v, shown) = if dim == 2 {
            let Some(pair) = manifold_pair_2d(&mut rng, kind) else { continue };
            let pair = pair.scaled(scale);
            (manifold_verdict_2d(&pair, f32_), format!("{pair:?}"))
        } else {
            let Some(pair) = manifold_pair(&mut rng, kind) else { continue };
            let pair = pair.scaled(scale);
            (manifold_verdict(&pair, f32_), format!("{pair:?}"))
        };
        if !v.usable {
            continue;
        }
        t.pairs += 1;
        t.face += usize::from(v.face);
        t.multi += usize::from(v.points > 1);
        t.single += usize::from(v.points == 1);
        t.empty += usize::from(v.points == 0);
        for (w, &bad) in t.wrong.iter_mut().zip(&v.wrong) {
            *w += usize::from(bad);
        }
        t.normal_excess = t.normal_excess.max(v.normal_excess);
        t.point_excess = t.point_excess.max(v.point_excess);
        t.contact_excess = t.contact_excess.max(v.contact_excess);
        t.outside += v.outside;
        t.outside_ratio = t.outside_ratio.max(v.outside_ratio);
        t.inherited += usize::from(v.inherited);
        if v.is_wrong() && t.first_wrong.is_none() {
            t.first_wrong = Some((shown, v));
        }
    }
    t
}

/// A solid of the 2D sets.
#[derive(Clone, Debug)]
pub enum Solid2 {
    /// A rectangle of these half extents.
    Rect(DVec2),
    /// The convex hull of these points.
    Polygon(Vec<DVec2>),
    /// The hull of the points scaled per axis by the vector, then turned
    /// by the rotation: a `Transformed` with a non-uniform scale.
    Scaled(Vec<DVec2>, DVec2, Rot2<f64>),
    /// A capsule along local Y: half height and radius.
    Capsule(f64, f64),
    /// A disc of this radius.
    Disc(f64),
    /// A rectangle of these half extents rounded by the radius.
    RoundedRect(DVec2, f64),
}

/// A rectangle's corners, counter-clockwise.
fn rect_corners(h: DVec2) -> Vec<DVec2> {
    vec![DVec2::new(-h.x, -h.y), DVec2::new(h.x, -h.y), DVec2::new(h.x, h.y), DVec2::new(-h.x, h.y)]
}

impl Solid2 {
    /// The oracle's view of the solid at `pose`.
    pub fn body(&self, pose: &Pose<DVec2>) -> Body<DVec2> {
        let world = |local: Vec<DVec2>| local.iter().map(|p| pose.transform_point(*p)).collect::<Vec<_>>();
        match self {
            Solid2::Rect(h) => Body::hull(world(rect_corners(*h))),
            Solid2::Polygon(p) => Body::hull(world(p.clone())),
            Solid2::Scaled(p, s, r) => {
                let r = Pose::new(*r, DVec2::ZERO);
                Body::hull(world(p.iter().map(|q| r.transform_point(*q * *s)).collect()))
            }
            Solid2::Capsule(h, r) => {
                Body::Round(RoundBody::new(world(vec![DVec2::new(0.0, -h), DVec2::new(0.0, *h)]), *r))
            }
            Solid2::Disc(r) => Body::Round(RoundBody::new(vec![pose.translation], *r)),
            Solid2::RoundedRect(h, r) => Body::RoundedBox(*pose, *h, *r),
        }
    }

    /// The solid scaled by `k` about its origin.
    fn scaled(&self, k: f64) -> Self {
        match self {
            Solid2::Rect(h) => Solid2::Rect(*h * k),
            Solid2::Polygon(p) => Solid2::Polygon(p.iter().map(|v| *v * k).collect()),
            Solid2::Scaled(p, s, a) => Solid2::Scaled(p.clone(), *s * k, *a),
            Solid2::Capsule(h, r) => Solid2::Capsule(h * k, r * k),
            Solid2::Disc(r) => Solid2::Disc(r * k),
            Solid2::RoundedRect(h, r) => Solid2::RoundedRect(*h * k, r * k),
        }
    }

    /// The sizes and rotation as `f32` reads them.
    fn rounded(&self) -> Self {
        let r = |v: DVec2| v.as_vec2().as_dvec2();
        let x = |v: f64| f64::from(v as f32);
        match self {
            Solid2::Rect(h) => Solid2::Rect(r(*h)),
            Solid2::Polygon(p) => Solid2::Polygon(p.iter().map(|v| r(*v)).collect()),
            Solid2::Scaled(p, s, q) => {
                let q = pose2_f64(&pose2_f32(&Pose::new(*q, DVec2::ZERO))).rotation;
                Solid2::Scaled(p.iter().map(|v| r(*v)).collect(), r(*s), q)
            }
            Solid2::Capsule(h, rad) => Solid2::Capsule(x(*h), x(*rad)),
            Solid2::Disc(rad) => Solid2::Disc(x(*rad)),
            Solid2::RoundedRect(h, rad) => Solid2::RoundedRect(r(*h), x(*rad)),
        }
    }

    /// The library shape, in `f32` or `f64`.
    pub fn shape<V: Prec2>(&self) -> Box<dyn EdgedShape<V>> {
        let (v, s) = (V::vector, V::from_f64);
        let polygon = |p: &[DVec2]| ConvexPolygon::new(&p.iter().map(|x| v(*x)).collect::<Vec<_>>()).unwrap();
        match self {
            Solid2::Rect(h) => Box::new(Cuboid::new(v(*h)).unwrap()),
            Solid2::Polygon(p) => Box::new(polygon(p)),
            Solid2::Scaled(p, sc, r) => Box::new(
                Transformed::with_scale(polygon(p), Pose::new(V::rotation(*r), V::ZERO), v(*sc)).unwrap(),
            ),
            Solid2::Capsule(h, r) => Box::new(Capsule::new(s(*h), s(*r)).unwrap()),
            Solid2::Disc(r) => Box::new(Ball::new(s(*r)).unwrap()),
            Solid2::RoundedRect(h, r) => Box::new(Rounded::new(Cuboid::new(v(*h)).unwrap(), s(*r)).unwrap()),
        }
    }
}

/// A 2D library shape with edges: what the manifold queries take.
pub trait EdgedShape<V: Space + Vector2>: Shape<V> + PolygonEdges<V> {}
impl<V: Space + Vector2, T: Shape<V> + PolygonEdges<V>> EdgedShape<V> for T {}

/// The precisions the 2D queries run in: `Vec2` and `DVec2`.
pub trait Prec2: ToF64<Out = DVec2> + Vector2 + EpaSpace + 'static {
    /// The vector, rounded to this precision.
    fn vector(v: DVec2) -> Self;
    /// The scalar, rounded to this precision.
    fn from_f64(x: f64) -> Self::Scalar;
    /// The rotation, rounded to this precision.
    fn rotation(r: Rot2<f64>) -> Self::Rotation;
    /// The pose, rounded to this precision.
    fn pose(p: &Pose<DVec2>) -> Pose<Self>;
}

impl Prec2 for Vec2 {
    fn vector(v: DVec2) -> Self {
        v.as_vec2()
    }
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    fn rotation(r: Rot2<f64>) -> Rot2<f32> {
        Rot2 { cos: r.cos as f32, sin: r.sin as f32 }
    }
    fn pose(p: &Pose<DVec2>) -> Pose<Self> {
        pose2_f32(p)
    }
}

impl Prec2 for DVec2 {
    fn vector(v: DVec2) -> Self {
        v
    }
    fn from_f64(x: f64) -> f64 {
        x
    }
    fn rotation(r: Rot2<f64>) -> Rot2<f64> {
        r
    }
    fn pose(p: &Pose<DVec2>) -> Pose<Self> {
        *p
    }
}

/// One 2D pair: two solids, their poses and the speculative distance.
#[derive(Clone, Debug)]
pub struct ManifoldPair2 {
    /// Shape A.
    pub a: Solid2,
    /// Shape B.
    pub b: Solid2,
    /// A's pose.
    pub pose_a: Pose<DVec2>,
    /// B's pose.
    pub pose_b: Pose<DVec2>,
    /// How far apart points are still kept.
    pub speculative: f64,
}

/// A 2D pose rounded to `f32`.
pub fn pose2_f32(p: &Pose<DVec2>) -> Pose<Vec2> {
    Pose::new(Rot2 { cos: p.rotation.cos as f32, sin: p.rotation.sin as f32 }, p.translation.as_vec2())
}

/// A 2D pose of `f32` in `f64`, exactly.
pub fn pose2_f64(p: &Pose<Vec2>) -> Pose<DVec2> {
    // The f32 pose's own bits (not normalised again in f64).
    Pose {
        rotation: Rot2 { cos: p.rotation.cos.into(), sin: p.rotation.sin.into() },
        translation: p.translation.as_dvec2(),
    }
}

impl ManifoldPair2 {
    /// The pair scaled by `k` about the origin.
    pub fn scaled(&self, k: f64) -> Self {
        let p = |q: &Pose<DVec2>| Pose::new(q.rotation, q.translation * k);
        Self {
            a: self.a.scaled(k),
            b: self.b.scaled(k),
            pose_a: p(&self.pose_a),
            pose_b: p(&self.pose_b),
            speculative: self.speculative * k,
        }
    }

    /// The pair as the `f32` queries read it.
    fn rounded(&self) -> Self {
        Self {
            a: self.a.rounded(),
            b: self.b.rounded(),
            pose_a: pose2_f64(&pose2_f32(&self.pose_a)),
            pose_b: pose2_f64(&pose2_f32(&self.pose_b)),
            speculative: f64::from(self.speculative as f32),
        }
    }
}

/// The 2D sets, by index.
pub const KINDS_2D: [&str; 6] = [
    "random rectangles",
    "rectangles resting on a floor",
    "random polygons",
    "scaled polygons",
    "capsules lying on rectangles",
    "mixed round and flat",
];

/// A random solid of the 2D mixed set.
fn mixed_2d(rng: &mut Rng) -> Solid2 {
    let half = DVec2::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5));
    match rng.usize(0, 4) {
        0 => Solid2::Rect(half),
        1 => Solid2::Capsule(rng.range(0.1, 1.5), rng.range(0.05, 0.8)),
        2 => Solid2::Disc(rng.range(0.1, 1.5)),
        3 => Solid2::RoundedRect(half * 0.8, rng.range(0.02, 0.3)),
        _ => {
            let n = rng.usize(3, 12);
            Solid2::Polygon(polygon(rng, n))
        }
    }
}

/// A random 2D pair of set `kind` ([`KINDS_2D`]), placed as
/// [`manifold_pair`]'s.
pub fn manifold_pair_2d(rng: &mut Rng, kind: usize) -> Option<ManifoldPair2> {
    let half = |rng: &mut Rng, lo: f64, hi: f64| DVec2::new(rng.range(lo, hi), rng.range(lo, hi));
    let turn = |rng: &mut Rng| Rot2::from_angle(rng.range(0.0, std::f64::consts::TAU));
    let (a, b, spec) = match kind {
        0 => (Solid2::Rect(half(rng, 0.2, 1.5)), Solid2::Rect(half(rng, 0.2, 1.5)), 0.02),
        1 => {
            let hb = half(rng, 0.2, 1.0);
            let tilt = rng.range(-0.2, 0.2);
            let q = Rot2::from_angle(tilt);
            let corners = Solid2::Rect(hb).body(&Pose::new(q, DVec2::ZERO));
            let low = -corners.height(-DVec2::Y);
            let pen = rng.range(-0.04, 0.05);
            let pose_b = Pose::new(q, DVec2::new(rng.range(-3.0, 3.0), -low - pen));
            let pose_a = Pose::new(Rot2::from_angle(0.0), DVec2::new(0.0, -1.0));
            let a = Solid2::Rect(DVec2::new(10.0, 1.0));
            return Some(ManifoldPair2 { a, b: Solid2::Rect(hb), pose_a, pose_b, speculative: 0.03 });
        }
        2 => {
            let (na, nb) = (rng.usize(3, 12), rng.usize(3, 12));
            (Solid2::Polygon(polygon(rng, na)), Solid2::Polygon(polygon(rng, nb)), 0.02)
        }
        3 => {
            let (na, nb) = (rng.usize(3, 12), rng.usize(3, 12));
            let size = |rng: &mut Rng| DVec2::new(rng.range(0.1, 5.0), rng.range(0.1, 5.0));
            let (pa, pb) = (polygon(rng, na), polygon(rng, nb));
            let (sa, sb) = (size(rng), size(rng));
            let (ra, rb) = (turn(rng), turn(rng));
            (Solid2::Scaled(pa, sa, ra), Solid2::Scaled(pb, sb, rb), 0.02)
        }
        4 => {
            // A rectangle's top at y = 0; the capsule lying level (or
            // tilted up to 0.1 rad), over the top or past its corner.
            let ha = DVec2::new(rng.range(0.5, 2.0), rng.range(0.2, 1.0));
            let (h, r) = (rng.range(0.2, 1.0), rng.range(0.05, 0.5));
            let tilt = if rng.usize(0, 2) == 0 { 0.0 } else { rng.range(-0.1, 0.1) };
            let q = Rot2::from_angle(std::f64::consts::FRAC_PI_2 + tilt);
            let low = h * tilt.sin().abs() + r;
            let pen = rng.range(-0.04, 0.05);
            let at = DVec2::new(rng.range(-ha.x - 0.5, ha.x + 0.5), low - pen);
            let m = Pose::new(turn(rng), rng.unit2() * rng.range(0.0, 3.0));
            let pose_a = m.mul(&Pose::new(Rot2::from_angle(0.0), DVec2::new(0.0, -ha.y)));
            let pose_b = m.mul(&Pose::new(q, at));
            return Some(ManifoldPair2 {
                a: Solid2::Rect(ha),
                b: Solid2::Capsule(h, r),
                pose_a,
                pose_b,
                speculative: 0.03,
            });
        }
        _ => (mixed_2d(rng), mixed_2d(rng), 0.02),
    };
    let pose_a = Pose::new(turn(rng), DVec2::ZERO);
    let far = Pose::new(turn(rng), rng.unit2() * 30.0);
    let pen = rng.range(-0.03, 0.03);
    let (sa, sb) = (a.shape::<DVec2>(), b.shape::<DVec2>());
    let d = distance(sa.as_ref() as &dyn Shape<DVec2>, &pose_a, sb.as_ref() as &dyn Shape<DVec2>, &far);
    if d.status != gjk_core::Status::Separated {
        return None;
    }
    let pose_b = Pose::new(far.rotation, far.translation - d.normal * (d.distance + pen));
    Some(ManifoldPair2 { a, b, pose_a, pose_b, speculative: spec })
}

/// The 2D pair's contact (default configuration) and manifold in the
/// precision `V`, read in `f64`.
fn run_pair_2d<V: Prec2>(pair: &ManifoldPair2) -> (Contact<DVec2>, Manifold64<DVec2>) {
    let (a, b) = (pair.a.shape::<V>(), pair.b.shape::<V>());
    let (pa, pb) = (V::pose(&pair.pose_a), V::pose(&pair.pose_b));
    let c = contact(a.as_ref() as &dyn Shape<V>, &pa, b.as_ref() as &dyn Shape<V>, &pb);
    let (ea, eb) = (a.as_ref() as &dyn PolygonEdges<V>, b.as_ref() as &dyn PolygonEdges<V>);
    let m = polygon_manifold(ea, &pa, eb, &pb, &c, V::from_f64(pair.speculative));
    to_f64(&c, &m)
}

/// The oracle's verdict on a 2D pair's manifold (`polygon_manifold`), in
/// `f32` or `f64`.
pub fn manifold_verdict_2d(pair: &ManifoldPair2, f32_: bool) -> ManifoldVerdict {
    let (c, m) = if f32_ { run_pair_2d::<Vec2>(pair) } else { run_pair_2d::<DVec2>(pair) };
    let read = if f32_ { pair.rounded() } else { pair.clone() };
    let (a, b) = (read.a.body(&read.pose_a), read.b.body(&read.pose_b));
    judge(&c, &m, &a, &b, read.speculative, f32_)
}

/// The convex hull of 2D points, counter-clockwise (monotone chain; points
/// within 1e-12 of each other count once).
fn hull_2d(p: &[DVec2]) -> Vec<DVec2> {
    let mut pts = p.to_vec();
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup_by(|a, b| (*a - *b).length() < 1e-12);
    if pts.len() < 3 {
        return pts;
    }
    let chain = |it: &mut dyn Iterator<Item = DVec2>| {
        let mut h: Vec<DVec2> = Vec::new();
        for q in it {
            while h.len() >= 2 && (h[h.len() - 1] - h[h.len() - 2]).perp_dot(q - h[h.len() - 1]) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
        h
    };
    let mut lower = chain(&mut pts.iter().copied());
    lower.extend(chain(&mut pts.iter().rev().copied()));
    lower
}

/// The area of the convex hull of 2D points.
fn hull_area(p: &[DVec2]) -> f64 {
    let h = hull_2d(p);
    (0..h.len()).map(|i| h[i].perp_dot(h[(i + 1) % h.len()])).sum::<f64>().abs() / 2.0
}

/// A box resting flat on a box's top, turned about the vertical at
/// random and shifted, 0.01 deep: where the contact region (the two
/// rectangles' intersection, by brute force over their corners and edge
/// crossings) has more than four corners, the area the manifold's four
/// points span over the largest any four of those corners span (1 at
/// best). `None` where the region has four corners or fewer.
pub fn reduction_ratio(rng: &mut Rng) -> Option<f64> {
    let ha = DVec3::new(rng.range(0.3, 1.5), 0.5, rng.range(0.3, 1.5));
    let hb = DVec3::new(rng.range(0.3, 1.5), 0.5, rng.range(0.3, 1.5));
    let pb = Pose::new(
        DQuat::from_rotation_y(rng.range(0.0, 6.3)),
        DVec3::new(rng.range(-1.0, 1.0), 0.99, rng.range(-1.0, 1.0)),
    );
    let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
    let c = contact(&a, &Pose::IDENTITY, &b, &pb);
    if c.status != ContactStatus::Penetrating || (c.normal - DVec3::Y).length() > 1e-9 {
        return None;
    }
    let m = polytope_manifold(&a, &Pose::IDENTITY, &b, &pb, &c, 0.0);
    let flat = |p: DVec3| DVec2::new(p.x, p.z);
    let corners = |h: DVec3, pose: &Pose<DVec3>, y: f64| {
        hull_2d(
            &rect_corners(DVec2::new(h.x, h.z))
                .iter()
                .map(|q| flat(pose.transform_point(DVec3::new(q.x, y, q.y))))
                .collect::<Vec<_>>(),
        )
    };
    let (ra, rb) = (corners(ha, &Pose::IDENTITY, 0.5), corners(hb, &pb, -0.5));
    let inside = |p: DVec2, poly: &[DVec2]| {
        (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) >= -1e-12)
    };
    let mut region: Vec<DVec2> = ra
        .iter()
        .copied()
        .filter(|p| inside(*p, &rb))
        .chain(rb.iter().copied().filter(|p| inside(*p, &ra)))
        .collect();
    for i in 0..ra.len() {
        for j in 0..rb.len() {
            let (p, r) = (ra[i], ra[(i + 1) % ra.len()] - ra[i]);
            let (q, s) = (rb[j], rb[(j + 1) % rb.len()] - rb[j]);
            let den = r.perp_dot(s);
            if den.abs() > 1e-15 {
                let (t, u) = ((q - p).perp_dot(s) / den, (q - p).perp_dot(r) / den);
                if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
                    region.push(p + r * t);
                }
            }
        }
    }
    let region = hull_2d(&region);
    let k = region.len();
    if k <= 4 {
        return None;
    }
    let mut best = 0.0f64;
    for i in 0..k {
        for j in i + 1..k {
            for l in j + 1..k {
                for q in l + 1..k {
                    best = best.max(hull_area(&[region[i], region[j], region[l], region[q]]));
                }
            }
        }
    }
    Some(hull_area(&m.points().iter().map(|p| flat(p.point_b)).collect::<Vec<_>>()) / best)
}
