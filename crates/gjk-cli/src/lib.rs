//! Scene files and the queries the `gjk` command runs on them. Shared with
//! the demo (`--scene FILE`).
//!
//! A scene holds a pair of shapes and a query:
//!
//! ```json
//! {"dim": 3, "precision": "f64",
//!  "a": {"shape": "cuboid", "half_extents": [0.5, 0.5, 0.5], "pose": {"translation": [0, 0, 0]}},
//!  "b": {"shape": "sphere", "radius": 0.5, "pose": {"translation": [2, 0, 0], "rotation": [0, 0, 0, 1]}},
//!  "query": "distance"}
//! ```
//!
//! Errors name the field at fault (`a.radius: expected a number`).
#![warn(missing_docs)]

use std::fmt;

use gjk_core::glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use gjk_core::internal::Vector2;
use gjk_core::{CastOptions, CastStatus, GjkConfig, Iteration, Real, Status};
use gjk_epa::{Contact, ContactManifold, ContactStatus, EpaSpace, PolygonEdges, PolyhedronFaces};
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, Motion, Point, Pose, Rot2, Segment,
    Shape, Space, Transformed, Triangle,
};
use serde_json::{Value, json};

/// A scene-file error: the field at fault and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError {
    /// Dotted path of the field (`a.pose.rotation`), or `""` for the file.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for SceneError {}

fn err(field: &str, message: impl Into<String>) -> SceneError {
    SceneError { field: field.to_string(), message: message.into() }
}

/// The query a scene asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// Distance, closest points, normal.
    Distance,
    /// Boolean intersection.
    Intersects,
    /// Contact (penetration depth when overlapping).
    Contact,
    /// Linear cast of A by `motion` against B.
    Cast,
    /// The contact and its manifold (`speculative` keeps points apart up
    /// to it): shapes with faces only (cuboids, hulls or polygons, balls,
    /// capsules).
    Manifold,
}

/// A shape as written in a scene (coordinates in f64).
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeSpec {
    /// `point`: one point (`a`, default the origin).
    Point(Vec<f64>),
    /// `sphere` / `circle`: `radius`.
    Ball(f64),
    /// `capsule`: `half_height`, `radius`, along local Y.
    Capsule(f64, f64),
    /// `cuboid` / `rectangle`: `half_extents`.
    Cuboid(Vec<f64>),
    /// `cylinder`: `half_height`, `radius`, along local Y (3D).
    Cylinder(f64, f64),
    /// `cone`: `half_height`, `radius`, along local Y (3D).
    Cone(f64, f64),
    /// `segment`: `a`, `b`.
    Segment(Vec<f64>, Vec<f64>),
    /// `triangle`: `a`, `b`, `c`.
    Triangle(Vec<f64>, Vec<f64>, Vec<f64>),
    /// `hull` (3D) / `polygon` (2D): `points`.
    Points(Vec<Vec<f64>>),
}

/// A pose as written: translation and rotation (quaternion `[x, y, z, w]`
/// in 3D, angle in radians in 2D).
#[derive(Clone, Debug, PartialEq)]
pub struct PoseSpec {
    /// Translation.
    pub translation: Vec<f64>,
    /// Quaternion (3D) or `[angle]` (2D).
    pub rotation: Vec<f64>,
}

/// One shape of the pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// The shape.
    pub shape: ShapeSpec,
    /// Where it is.
    pub pose: PoseSpec,
}

/// A parsed scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// 2 or 3.
    pub dim: usize,
    /// Whether to run in f64 (else f32).
    pub f64: bool,
    /// Shape A.
    pub a: Body,
    /// Shape B.
    pub b: Body,
    /// The query.
    pub query: QueryKind,
    /// A's motion (casts only).
    pub motion: Option<Vec<f64>>,
    /// A's turn over the step about its local origin (casts only; a cast
    /// with one is nonlinear): 2D one angle, 3D axis × angle.
    pub spin: Option<Vec<f64>>,
    /// Whether a cast that starts in contact goes on unless the motion
    /// deepens it (casts only; `gjk_epa::cast_shape_directional` and
    /// `cast_shape_nonlinear_directional`).
    pub directional: bool,
    /// How far apart manifold points are still kept (manifolds only; 0 by
    /// default).
    pub speculative: f64,
}

fn number(v: &Value, field: &str) -> Result<f64, SceneError> {
    let x = v.as_f64().ok_or_else(|| err(field, format!("expected a number, found {}", kind(v))))?;
    if !x.is_finite() {
        return Err(err(field, "must be finite"));
    }
    Ok(x)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn vector(v: &Value, field: &str, dim: usize) -> Result<Vec<f64>, SceneError> {
    let arr = v
        .as_array()
        .ok_or_else(|| err(field, format!("expected an array of {dim} numbers, found {}", kind(v))))?;
    if arr.len() != dim {
        return Err(err(field, format!("expected {dim} numbers, found {}", arr.len())));
    }
    arr.iter().enumerate().map(|(i, x)| number(x, &format!("{field}[{i}]"))).collect()
}

fn get<'v>(obj: &'v Value, key: &str, field: &str) -> Result<&'v Value, SceneError> {
    obj.get(key).ok_or_else(|| err(&join(field, key), "missing"))
}

fn join(field: &str, key: &str) -> String {
    if field.is_empty() { key.to_string() } else { format!("{field}.{key}") }
}

/// The first key of the object `v` that is not one of `allowed`, as an
/// error naming it and the keys that are (scene files are read strictly:
/// a misspelt key would otherwise leave its field at the default).
fn only(v: &Value, field: &str, allowed: &[&str], what: &str) -> Result<(), SceneError> {
    let Some(obj) = v.as_object() else { return Ok(()) };
    match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(err(&join(field, k), format!("unknown key ({what} takes {})", allowed.join(", ")))),
    }
}

/// A size that must be positive (`> 0`) or, where `zero_ok`, not negative.
fn size(x: f64, field: &str, zero_ok: bool) -> Result<f64, SceneError> {
    match (zero_ok, x) {
        (true, x) if x < 0.0 => Err(err(field, "must be ≥ 0")),
        (false, x) if x <= 0.0 => Err(err(field, "must be > 0")),
        _ => Ok(x),
    }
}

/// Where a JSON text has a bare `NaN`, `Infinity` or `-Infinity` (outside
/// strings): JSON has no such numbers, and serde's own message ("expected
/// value") does not say so.
fn non_finite_token(text: &str) -> Option<(usize, usize, &'static str)> {
    let (mut in_string, mut escaped) = (false, false);
    let (mut line, mut column) = (1, 0);
    for (i, c) in text.char_indices() {
        column += 1;
        if c == '\n' {
            (line, column) = (line + 1, 0);
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
            continue;
        }
        for token in ["NaN", "Infinity"] {
            if text[i..].starts_with(token) {
                return Some((line, column, token));
            }
        }
    }
    None
}

fn parse_body(v: &Value, field: &str, dim: usize) -> Result<Body, SceneError> {
    if !v.is_object() {
        return Err(err(field, format!("expected an object, found {}", kind(v))));
    }
    let name = get(v, "shape", field)?;
    let name = name
        .as_str()
        .ok_or_else(|| err(&join(field, "shape"), format!("expected a string, found {}", kind(name))))?;
    let num = |key: &str| number(get(v, key, field)?, &join(field, key));
    let vec = |key: &str| vector(get(v, key, field)?, &join(field, key), dim);
    // A size: positive, or (`zero_ok`) not negative, named by its field.
    let sized = |key: &str, zero_ok: bool| size(num(key)?, &join(field, key), zero_ok);
    let keys: &[&str] = match name {
        "point" => &["shape", "pose", "a"],
        "sphere" | "circle" => &["shape", "pose", "radius"],
        "capsule" | "cylinder" | "cone" => &["shape", "pose", "half_height", "radius"],
        "cuboid" | "rectangle" => &["shape", "pose", "half_extents"],
        "segment" => &["shape", "pose", "a", "b"],
        "triangle" => &["shape", "pose", "a", "b", "c"],
        _ => &["shape", "pose", "points"],
    };
    only(v, field, keys, &format!("a {name}"))?;
    let shape = match name {
        "point" => ShapeSpec::Point(if v.get("a").is_some() { vec("a")? } else { vec![0.0; dim] }),
        "sphere" | "circle" => ShapeSpec::Ball(sized("radius", true)?),
        "capsule" => ShapeSpec::Capsule(sized("half_height", true)?, sized("radius", true)?),
        "cuboid" | "rectangle" => {
            let f = join(field, "half_extents");
            let h = vec("half_extents")?;
            for (i, x) in h.iter().enumerate() {
                size(*x, &format!("{f}[{i}]"), false)?;
            }
            ShapeSpec::Cuboid(h)
        }
        "cylinder" | "cone" if dim == 2 => {
            return Err(err(&join(field, "shape"), format!("'{name}' is 3D only")));
        }
        "cylinder" => ShapeSpec::Cylinder(sized("half_height", false)?, sized("radius", false)?),
        "cone" => ShapeSpec::Cone(sized("half_height", false)?, sized("radius", false)?),
        "segment" => ShapeSpec::Segment(vec("a")?, vec("b")?),
        "triangle" => ShapeSpec::Triangle(vec("a")?, vec("b")?, vec("c")?),
        "hull" | "polygon" => {
            let f = join(field, "points");
            let pts = get(v, "points", field)?;
            let arr = pts
                .as_array()
                .ok_or_else(|| err(&f, format!("expected an array of points, found {}", kind(pts))))?;
            if arr.is_empty() {
                return Err(err(&f, "needs at least one point"));
            }
            ShapeSpec::Points(
                arr.iter()
                    .enumerate()
                    .map(|(i, p)| vector(p, &format!("{f}[{i}]"), dim))
                    .collect::<Result<_, _>>()?,
            )
        }
        other => {
            return Err(err(
                &join(field, "shape"),
                format!(
                    "unknown shape '{other}' (point, sphere, circle, capsule, cuboid, rectangle, cylinder, cone, segment, triangle, hull, polygon)"
                ),
            ));
        }
    };
    let pose = match v.get("pose") {
        None => PoseSpec {
            translation: vec![0.0; dim],
            rotation: if dim == 3 { vec![0.0, 0.0, 0.0, 1.0] } else { vec![0.0] },
        },
        Some(p) => {
            let pf = join(field, "pose");
            if !p.is_object() {
                return Err(err(&pf, format!("expected an object, found {}", kind(p))));
            }
            only(p, &pf, &["translation", "rotation"], "a pose")?;
            let translation = match p.get("translation") {
                Some(t) => vector(t, &join(&pf, "translation"), dim)?,
                None => vec![0.0; dim],
            };
            let rf = join(&pf, "rotation");
            let rotation = match (p.get("rotation"), dim) {
                (None, 3) => vec![0.0, 0.0, 0.0, 1.0],
                (None, _) => vec![0.0],
                (Some(r), 3) => {
                    let q = vector(r, &rf, 4)?;
                    let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
                    if n <= 1e-12 {
                        return Err(err(&rf, "a zero quaternion is not a rotation"));
                    }
                    q.iter().map(|x| x / n).collect()
                }
                (Some(r), _) => vec![number(r, &format!("{rf} (an angle in radians)"))?],
            };
            PoseSpec { translation, rotation }
        }
    };
    Ok(Body { shape, pose })
}

/// Parses a scene from JSON text.
pub fn parse_scene(text: &str) -> Result<Scene, SceneError> {
    let v: Value = serde_json::from_str(text).map_err(|e| match non_finite_token(text) {
        Some((line, column, token)) => err(
            "",
            format!(
                "line {line} column {column}: {token} is not a JSON number (JSON has no NaN or Infinity; coordinates must be finite)"
            ),
        ),
        None => err("", format!("not valid JSON: {e}")),
    })?;
    if !v.is_object() {
        return Err(err("", format!("expected a JSON object, found {}", kind(&v))));
    }
    only(
        &v,
        "",
        &["dim", "precision", "a", "b", "query", "motion", "spin", "directional", "speculative"],
        "a scene",
    )?;
    let dim = match get(&v, "dim", "")?.as_u64() {
        Some(2) => 2,
        Some(3) => 3,
        _ => return Err(err("dim", "expected 2 or 3")),
    };
    let f64 = match v.get("precision").map(|p| p.as_str()) {
        None | Some(Some("f64")) => true,
        Some(Some("f32")) => false,
        _ => return Err(err("precision", "expected \"f32\" or \"f64\"")),
    };
    let a = parse_body(get(&v, "a", "")?, "a", dim)?;
    let b = parse_body(get(&v, "b", "")?, "b", dim)?;
    let query = match get(&v, "query", "")?.as_str() {
        Some("distance") => QueryKind::Distance,
        Some("intersects") => QueryKind::Intersects,
        Some("contact") => QueryKind::Contact,
        Some("cast") => QueryKind::Cast,
        Some("manifold") => QueryKind::Manifold,
        _ => {
            return Err(err(
                "query",
                "expected \"distance\", \"intersects\", \"contact\", \"cast\" or \"manifold\"",
            ));
        }
    };
    let motion = match (query, v.get("motion")) {
        (QueryKind::Cast, None) => return Err(err("motion", "missing (a cast needs A's motion)")),
        (_, Some(m)) => Some(vector(m, "motion", dim)?),
        _ => None,
    };
    let spin = match v.get("spin") {
        None => None,
        Some(x) if dim == 2 => Some(vec![number(x, "spin")?]),
        Some(x) => Some(vector(x, "spin", dim)?),
    };
    let directional = match v.get("directional") {
        None => false,
        Some(x) => x
            .as_bool()
            .ok_or_else(|| err("directional", format!("expected true or false, found {}", kind(x))))?,
    };
    let speculative = match v.get("speculative") {
        None => 0.0,
        Some(x) => number(x, "speculative")?,
    };
    Ok(Scene { dim, f64, a, b, query, motion, spin, directional, speculative })
}

/// Spaces the scene can be instantiated in, with the dimension-specific
/// shapes and rotations.
pub trait SceneSpace: Space + EpaSpace {
    /// Builds the shape (validated).
    fn build(spec: &ShapeSpec, field: &str) -> Result<Box<dyn Shape<Self>>, SceneError>;
    /// Builds the pose.
    fn pose(spec: &PoseSpec) -> Pose<Self>;
    /// A vector from f64 coordinates.
    fn from_f64(c: &[f64]) -> Self;
    /// The coordinates in f64.
    fn to_f64(self) -> Vec<f64>;
    /// An angular velocity from f64 components (2D: one, 3D: three).
    fn angular(c: &[f64]) -> Self::AngularVelocity;
    /// The pair's contact manifold (3D: `polytope_manifold`, 2D:
    /// `polygon_manifold`), or an error where a shape has no faces.
    fn manifold(
        scene: &Scene,
        pose_a: &Pose<Self>,
        pose_b: &Pose<Self>,
        contact: &Contact<Self>,
    ) -> Result<ContactManifold<Self>, SceneError>;
}

/// The error for a shape a manifold cannot take.
fn no_faces(field: &str) -> SceneError {
    err(
        field,
        "a manifold needs a shape with faces: cuboid, hull or polygon, sphere or circle, capsule, cylinder, cone",
    )
}

fn shape_err(field: &str, e: gjk_shapes::ShapeError) -> SceneError {
    err(field, e.to_string())
}

fn common<V: SceneSpace>(spec: &ShapeSpec, field: &str) -> Option<Result<Box<dyn Shape<V>>, SceneError>> {
    let s = |x: f64| V::Scalar::from_f64(x);
    let f = |e| shape_err(field, e);
    Some(match spec {
        ShapeSpec::Point(p) => {
            Point::new(V::from_f64(p)).map(|x| Box::new(x) as Box<dyn Shape<V>>).map_err(f)
        }
        ShapeSpec::Ball(r) => Ball::new(s(*r)).map(|x| Box::new(x) as Box<dyn Shape<V>>).map_err(f),
        ShapeSpec::Capsule(h, r) => {
            Capsule::new(s(*h), s(*r)).map(|x| Box::new(x) as Box<dyn Shape<V>>).map_err(f)
        }
        ShapeSpec::Cuboid(h) => {
            Cuboid::new(V::from_f64(h)).map(|x| Box::new(x) as Box<dyn Shape<V>>).map_err(f)
        }
        ShapeSpec::Segment(a, b) => {
            Segment::new(V::from_f64(a), V::from_f64(b)).map(|x| Box::new(x) as Box<dyn Shape<V>>).map_err(f)
        }
        ShapeSpec::Triangle(a, b, c) => Triangle::new(V::from_f64(a), V::from_f64(b), V::from_f64(c))
            .map(|x| Box::new(x) as Box<dyn Shape<V>>)
            .map_err(f),
        _ => return None,
    })
}

/// The 3D shapes with faces beyond those of every space: cylinders and
/// cones (their caps as [`gjk_epa::tuning::DISC_FACE_POINTS`] rim points).
fn revolved_faces<V>(spec: &ShapeSpec, field: &str) -> Option<Result<Box<dyn PolyhedronFaces<V>>, SceneError>>
where
    V: SceneSpace + gjk_core::internal::Vector3,
{
    let s = |x: f64| V::Scalar::from_f64(x);
    let f = |e| shape_err(field, e);
    Some(match spec {
        ShapeSpec::Cylinder(h, r) => {
            Cylinder::new(s(*h), s(*r)).map(|x| Box::new(x) as Box<dyn PolyhedronFaces<V>>).map_err(f)
        }
        ShapeSpec::Cone(h, r) => {
            Cone::new(s(*h), s(*r)).map(|x| Box::new(x) as Box<dyn PolyhedronFaces<V>>).map_err(f)
        }
        _ => return None,
    })
}

/// No 2D shape has faces beyond those of every space.
fn no_more_faces<V: SceneSpace + gjk_core::internal::Vector2>(
    _: &ShapeSpec,
    _: &str,
) -> Option<Result<Box<dyn PolygonEdges<V>>, SceneError>> {
    None
}

/// `SceneSpace::manifold` for a space whose faces trait is `$faces`, whose
/// point sets build a `$hull`, whose manifold is `gjk_epa::$query`, and
/// whose own shapes with faces `$more` builds.
macro_rules! manifold_fn {
    ($s:ty, $faces:ident, $hull:ident, $query:ident, $more:ident) => {
        fn manifold(
            scene: &Scene,
            pose_a: &Pose<Self>,
            pose_b: &Pose<Self>,
            contact: &Contact<Self>,
        ) -> Result<ContactManifold<Self>, SceneError> {
            let faces = |spec: &ShapeSpec, field: &str| -> Result<Box<dyn $faces<Self>>, SceneError> {
                if let Some(more) = $more::<Self>(spec, field) {
                    return more;
                }
                let f = |e| shape_err(field, e);
                Ok(match spec {
                    ShapeSpec::Cuboid(h) => Box::new(Cuboid::new(Self::from_f64(h)).map_err(f)?),
                    ShapeSpec::Ball(r) => Box::new(Ball::new(*r as $s).map_err(f)?),
                    ShapeSpec::Capsule(h, r) => Box::new(Capsule::new(*h as $s, *r as $s).map_err(f)?),
                    ShapeSpec::Points(p) => {
                        let pts: Vec<Self> = p.iter().map(|c| Self::from_f64(c)).collect();
                        Box::new($hull::new(&pts).map_err(f)?)
                    }
                    _ => return Err(no_faces(field)),
                })
            };
            let (a, b) = (faces(&scene.a.shape, "a")?, faces(&scene.b.shape, "b")?);
            Ok(gjk_epa::$query(&*a, pose_a, &*b, pose_b, contact, scene.speculative as $s))
        }
    };
}

macro_rules! scene_space3 {
    ($v:ty, $q:ty, $s:ty) => {
        impl SceneSpace for $v {
            fn build(spec: &ShapeSpec, field: &str) -> Result<Box<dyn Shape<Self>>, SceneError> {
                if let Some(r) = common::<Self>(spec, field) {
                    return r;
                }
                let f = |e| shape_err(field, e);
                match spec {
                    ShapeSpec::Cylinder(h, r) => Cylinder::new(*h as $s, *r as $s)
                        .map(|x| Box::new(x) as Box<dyn Shape<Self>>)
                        .map_err(f),
                    ShapeSpec::Cone(h, r) => {
                        Cone::new(*h as $s, *r as $s).map(|x| Box::new(x) as Box<dyn Shape<Self>>).map_err(f)
                    }
                    ShapeSpec::Points(p) => {
                        let pts: Vec<Self> = p.iter().map(|c| Self::from_f64(c)).collect();
                        ConvexHull::new(&pts).map(|x| Box::new(x) as Box<dyn Shape<Self>>).map_err(f)
                    }
                    _ => unreachable!("common shapes handled above"),
                }
            }
            fn pose(spec: &PoseSpec) -> Pose<Self> {
                let r = &spec.rotation;
                Pose::new(
                    <$q>::from_xyzw(r[0] as $s, r[1] as $s, r[2] as $s, r[3] as $s).normalize(),
                    Self::from_f64(&spec.translation),
                )
            }
            fn from_f64(c: &[f64]) -> Self {
                <$v>::new(c[0] as $s, c[1] as $s, c[2] as $s)
            }
            fn angular(c: &[f64]) -> Self {
                Self::from_f64(c)
            }
            fn to_f64(self) -> Vec<f64> {
                vec![self.x as f64, self.y as f64, self.z as f64]
            }
            manifold_fn!($s, PolyhedronFaces, ConvexHull, polytope_manifold, revolved_faces);
        }
    };
}

macro_rules! scene_space2 {
    ($v:ty, $s:ty) => {
        impl SceneSpace for $v {
            fn build(spec: &ShapeSpec, field: &str) -> Result<Box<dyn Shape<Self>>, SceneError> {
                if let Some(r) = common::<Self>(spec, field) {
                    return r;
                }
                match spec {
                    ShapeSpec::Points(p) => {
                        let pts: Vec<Self> = p.iter().map(|c| Self::from_f64(c)).collect();
                        ConvexPolygon::new(&pts)
                            .map(|x| Box::new(x) as Box<dyn Shape<Self>>)
                            .map_err(|e| shape_err(field, e))
                    }
                    _ => Err(err(field, "a 3D shape in a 2D scene")),
                }
            }
            fn pose(spec: &PoseSpec) -> Pose<Self> {
                Pose::new(Rot2::<$s>::from_angle(spec.rotation[0] as $s), Self::from_f64(&spec.translation))
            }
            fn from_f64(c: &[f64]) -> Self {
                <$v>::new(c[0] as $s, c[1] as $s)
            }
            fn angular(c: &[f64]) -> $s {
                c[0] as $s
            }
            fn to_f64(self) -> Vec<f64> {
                vec![self.x as f64, self.y as f64]
            }
            manifold_fn!($s, PolygonEdges, ConvexPolygon, polygon_manifold, no_more_faces);
        }
    };
}

scene_space3!(Vec3, Quat, f32);
scene_space3!(DVec3, DQuat, f64);
scene_space2!(Vec2, f32);
scene_space2!(DVec2, f64);

/// A scene's pair built in space `V`.
pub struct Pair<V: SceneSpace> {
    /// Shape A.
    pub a: Box<dyn Shape<V>>,
    /// A's pose.
    pub pose_a: Pose<V>,
    /// Shape B.
    pub b: Box<dyn Shape<V>>,
    /// B's pose.
    pub pose_b: Pose<V>,
}

impl<V: SceneSpace> Pair<V> {
    /// Builds the pair of a scene.
    pub fn new(scene: &Scene) -> Result<Self, SceneError> {
        Ok(Self {
            a: V::build(&scene.a.shape, "a")?,
            pose_a: V::pose(&scene.a.pose),
            b: V::build(&scene.b.shape, "b")?,
            pose_b: V::pose(&scene.b.pose),
        })
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Separated => "separated",
        Status::Touching => "touching",
        Status::Intersecting => "intersecting",
        Status::IterationLimit => "iteration_limit",
        Status::Beyond => "beyond",
        Status::InvalidInput => "invalid_input",
    }
}

/// Runs the scene's query in space `V` and returns the JSON answer.
pub fn run_query<V: SceneSpace>(scene: &Scene) -> Result<Value, SceneError> {
    let p = Pair::<V>::new(scene)?;
    let v = |x: V| json!(x.to_f64());
    let out = match scene.query {
        QueryKind::Distance | QueryKind::Intersects => {
            let r = gjk_shapes::distance(&*p.a, &p.pose_a, &*p.b, &p.pose_b);
            let hit = if scene.query == QueryKind::Intersects {
                gjk_shapes::try_intersects(&*p.a, &p.pose_a, &*p.b, &p.pose_b).ok()
            } else {
                Some(r.intersects())
            };
            // An overlap's normal is only GJK's last search direction, and
            // invalid input has no points: `null`, not a guess.
            let valid = r.status != Status::InvalidInput;
            let separates = valid && r.status != Status::Intersecting;
            json!({
                "distance": valid.then(|| r.distance.to_f64()),
                "point_a": if valid { v(r.point_a) } else { Value::Null },
                "point_b": if valid { v(r.point_b) } else { Value::Null },
                "normal": if separates { v(r.normal) } else { Value::Null },
                "intersecting": hit, "depth": null, "toi": null, "manifold": null,
                "iterations": r.iterations, "status": status_name(r.status),
            })
        }
        QueryKind::Contact | QueryKind::Manifold => {
            let c = gjk_epa::contact(&*p.a, &p.pose_a, &*p.b, &p.pose_b);
            let status = match c.status {
                ContactStatus::Separated => "separated",
                ContactStatus::Touching => "touching",
                ContactStatus::Penetrating => "penetrating",
                ContactStatus::Indeterminate => "indeterminate",
                ContactStatus::Beyond => "beyond",
                ContactStatus::InvalidInput => "invalid_input",
            };
            // A depth only for shapes in contact (0 where they touch); no
            // points or normal for invalid input or an undecided contact.
            let known = !matches!(c.status, ContactStatus::InvalidInput | ContactStatus::Indeterminate);
            let mut out = json!({
                "distance": known.then(|| c.distance.to_f64()),
                "point_a": if known { v(c.point_a) } else { Value::Null },
                "point_b": if known { v(c.point_b) } else { Value::Null },
                "normal": if known { v(c.normal) } else { Value::Null },
                "intersecting": c.is_contact(),
                "depth": (known && c.is_contact()).then(|| c.depth.to_f64()),
                "toi": null, "manifold": null,
                "iterations": c.gjk_iterations + c.epa_iterations, "status": status,
            });
            if scene.query == QueryKind::Manifold {
                let m = V::manifold(scene, &p.pose_a, &p.pose_b, &c)?;
                let points: Vec<Value> = m
                    .points()
                    .iter()
                    .map(|q| {
                        json!({"point_a": v(q.point_a), "point_b": v(q.point_b), "depth": q.depth.to_f64(), "id": q.id})
                    })
                    .collect();
                out["manifold"] = json!({"normal": v(m.normal), "points": points});
            }
            out
        }
        QueryKind::Cast => {
            let m = V::from_f64(scene.motion.as_deref().unwrap_or(&[0.0, 0.0, 0.0]));
            let opts = CastOptions::default();
            let (pa, pb) = (&p.pose_a, &p.pose_b);
            let h = match (&scene.spin, scene.directional) {
                // A turning as it moves: the nonlinear cast.
                (Some(w), false) => gjk_shapes::cast_shape_nonlinear(
                    &*p.a,
                    &Motion::new(*pa, m, V::angular(w)),
                    &*p.b,
                    &Motion::fixed(*pb),
                    &opts,
                ),
                (Some(w), true) => gjk_epa::cast_shape_nonlinear_directional(
                    &*p.a,
                    &Motion::new(*pa, m, V::angular(w)),
                    &*p.b,
                    &Motion::fixed(*pb),
                    &opts,
                ),
                (None, false) => gjk_shapes::cast_shape(&*p.a, pa, m, &*p.b, pb, V::ZERO, &opts),
                (None, true) => gjk_epa::cast_shape_directional(&*p.a, pa, m, &*p.b, pb, V::ZERO, &opts),
            };
            let status = match h.status {
                CastStatus::Hit => "hit",
                CastStatus::StartsInside => "starts_inside",
                CastStatus::Miss => "miss",
                CastStatus::IterationLimit => "iteration_limit",
                CastStatus::InvalidInput => "invalid_input",
            };
            let hit = h.is_hit();
            json!({
                "distance": null, "point_a": if hit { v(h.point_a) } else { Value::Null },
                "point_b": if hit { v(h.point_b) } else { Value::Null },
                "normal": if hit { v(h.normal) } else { Value::Null },
                "intersecting": h.status == CastStatus::StartsInside, "depth": null,
                "toi": if hit { json!(h.fraction.to_f64()) } else { Value::Null },
                "manifold": null, "iterations": h.iterations, "status": status,
            })
        }
    };
    Ok(out)
}

/// Runs a scene in the precision and dimension it names.
pub fn query(scene: &Scene) -> Result<Value, SceneError> {
    match (scene.dim, scene.f64) {
        (3, true) => run_query::<DVec3>(scene),
        (3, false) => run_query::<Vec3>(scene),
        (2, true) => run_query::<DVec2>(scene),
        _ => run_query::<Vec2>(scene),
    }
}

/// Every GJK iteration of the scene's pair (world frame), with the final
/// result.
pub fn trace<V: SceneSpace>(
    scene: &Scene,
) -> Result<(Vec<Iteration<V>>, gjk_core::DistanceResult<V>), SceneError> {
    let p = Pair::<V>::new(scene)?;
    let ta = Transformed::new(&*p.a, p.pose_a).map_err(|e| err("a.pose", e.to_string()))?;
    let tb = Transformed::new(&*p.b, p.pose_b).map_err(|e| err("b.pose", e.to_string()))?;
    let mut log = Vec::new();
    let r = gjk_core::distance_with(&ta, &tb, &GjkConfig::default(), None, &mut log);
    Ok((log, r))
}

/// A text line per iteration.
pub fn trace_text<V: SceneSpace>(log: &[Iteration<V>], r: &gjk_core::DistanceResult<V>) -> String {
    let f = |x: V| format!("{:?}", x.to_f64().iter().map(|c| (c * 1e9).round() / 1e9).collect::<Vec<_>>());
    let mut s = String::new();
    for it in log {
        let pts: Vec<String> = it.simplex.points().iter().map(|p| f(p.w)).collect();
        s += &format!(
            "iteration {}: direction {} support {} simplex [{}] closest {} bounds [{:.9}, {:.9}]\n",
            it.iteration,
            f(it.direction),
            f(it.support.w),
            pts.join(", "),
            f(it.closest),
            it.lower_bound.to_f64(),
            it.upper_bound.to_f64()
        );
    }
    // A normal only where it separates: an overlap's is GJK's last search
    // direction, and invalid input has none.
    let normal = match r.status {
        Status::Intersecting => "none (overlapping: a contact query gives EPA's)".to_string(),
        Status::InvalidInput => "none".to_string(),
        _ => f(r.normal),
    };
    s +=
        &format!("result: {} distance {:.9} normal {}\n", status_name(r.status), r.distance.to_f64(), normal);
    s
}

/// An SVG picture (2D scenes) of the Minkowski difference `A − B`, the
/// simplex of every iteration (light to dark), the barycode regions of the
/// last triangle simplex, the origin and the final closest point.
pub fn trace_svg<V: SceneSpace + Vector2>(
    scene: &Scene,
    log: &[Iteration<V>],
    r: &gjk_core::DistanceResult<V>,
) -> Result<String, SceneError> {
    let p = Pair::<V>::new(scene)?;
    let ta = Transformed::new(&*p.a, p.pose_a).map_err(|e| err("a.pose", e.to_string()))?;
    let tb = Transformed::new(&*p.b, p.pose_b).map_err(|e| err("b.pose", e.to_string()))?;
    // The outline of A − B from its support mapping in 256 directions.
    const DIRECTIONS: usize = 256;
    let outline: Vec<(f64, f64)> = (0..DIRECTIONS)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / DIRECTIONS as f64;
            let d = V::new2(V::Scalar::from_f64(a.cos()), V::Scalar::from_f64(a.sin()));
            let w = gjk_core::internal::minkowski_support(&ta, &tb, d).w;
            (w.x().to_f64(), w.y().to_f64())
        })
        .collect();
    let mut xs: Vec<f64> = outline.iter().map(|p| p.0).chain([0.0]).collect();
    let mut ys: Vec<f64> = outline.iter().map(|p| p.1).chain([0.0]).collect();
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    let (x0, x1, y0, y1) = (xs[0], xs[xs.len() - 1], ys[0], ys[ys.len() - 1]);
    let span = (x1 - x0).max(y1 - y0).max(1e-12) * 1.1;
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let size = 600.0;
    let map = |x: f64, y: f64| ((x - cx) / span * size + size / 2.0, size / 2.0 - (y - cy) / span * size);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let path: Vec<String> = outline
        .iter()
        .map(|&(x, y)| {
            let (u, v) = map(x, y);
            format!("{u:.2},{v:.2}")
        })
        .collect();
    s += &format!(
        "<polygon points=\"{}\" fill=\"#dde8f5\" stroke=\"#4477aa\" stroke-width=\"1.5\"/>\n",
        path.join(" ")
    );
    let n = log.len().max(1);
    for (k, it) in log.iter().enumerate() {
        let shade = 200 - (160 * (k + 1) / n) as i32;
        let pts: Vec<String> = it
            .simplex
            .points()
            .iter()
            .map(|p| {
                let (u, v) = map(p.w.x().to_f64(), p.w.y().to_f64());
                format!("{u:.2},{v:.2}")
            })
            .collect();
        s += &format!(
            "<polygon points=\"{}\" fill=\"none\" stroke=\"rgb({shade},{shade},{shade})\" stroke-width=\"1\"/>\n",
            pts.join(" ")
        );
    }
    // The barycode regions of the last triangle simplex (Zhang et al.,
    // Fig. 1a): the lines through its edges split the plane into seven
    // regions, each named by the signs of the barycentric coordinates.
    if let Some(tri) = log.iter().rev().map(|it| it.simplex).find(|s| s.len() == 3) {
        let w: Vec<(f64, f64)> = tri.points().iter().map(|p| (p.w.x().to_f64(), p.w.y().to_f64())).collect();
        let far = span * 4.0;
        for i in 0..3 {
            let (a, b) = (w[i], w[(i + 1) % 3]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let l = dx.hypot(dy).max(1e-300);
            let (p, q) =
                (map(a.0 - dx / l * far, a.1 - dy / l * far), map(a.0 + dx / l * far, a.1 + dy / l * far));
            s += &format!(
                "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
                p.0, p.1, q.0, q.1
            );
        }
        let area = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
            (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
        };
        let total = area(w[0], w[1], w[2]);
        let code = |x: (f64, f64)| {
            let (u, v, t) =
                (area(x, w[1], w[2]) / total, area(w[0], x, w[2]) / total, area(w[0], w[1], x) / total);
            ((u > 0.0) as u8) << 2 | ((v > 0.0) as u8) << 1 | (t > 0.0) as u8
        };
        let c = ((w[0].0 + w[1].0 + w[2].0) / 3.0, (w[0].1 + w[1].1 + w[2].1) / 3.0);
        let mut probes = vec![c];
        for i in 0..3 {
            let (a, b) = (w[i], w[(i + 1) % 3]);
            let m = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            probes.push((2.0 * m.0 - c.0, 2.0 * m.1 - c.1));
            probes.push((2.0 * a.0 - c.0, 2.0 * a.1 - c.1));
        }
        for x in probes {
            let (u, v) = map(x.0, x.1);
            s += &format!(
                "<text x=\"{u:.2}\" y=\"{v:.2}\" font-size=\"12\" fill=\"#777\" text-anchor=\"middle\">{:03b}</text>\n",
                code(x)
            );
        }
    }
    let (ox, oy) = map(0.0, 0.0);
    s += &format!(
        "<circle cx=\"{ox:.2}\" cy=\"{oy:.2}\" r=\"4\" fill=\"black\"/><text x=\"{:.2}\" y=\"{:.2}\" font-size=\"12\">origin</text>\n",
        ox + 6.0,
        oy - 6.0
    );
    let v = r.point_a - r.point_b;
    let (vx, vy) = map(v.x().to_f64(), v.y().to_f64());
    s += &format!(
        "<line x1=\"{ox:.2}\" y1=\"{oy:.2}\" x2=\"{vx:.2}\" y2=\"{vy:.2}\" stroke=\"#cc3311\" stroke-width=\"2\"/><circle cx=\"{vx:.2}\" cy=\"{vy:.2}\" r=\"4\" fill=\"#cc3311\"/>\n"
    );
    s += &format!(
        "<text x=\"10\" y=\"20\" font-size=\"14\">A − B, {} iterations, {} at distance {:.6}</text>\n</svg>\n",
        log.len(),
        status_name(r.status),
        r.distance.to_f64()
    );
    Ok(s)
}
