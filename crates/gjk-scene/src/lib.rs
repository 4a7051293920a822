//! The scene-file format shared by the `gjk` command and the demo: a pair
//! of shapes, their poses and a query, read strictly (unknown keys,
//! non-finite numbers and invalid sizes are errors naming the field and
//! index). The format is documented in `docs/scene-format.md`.
//!
//! ```
//! let scene = gjk_scene::parse_scene(r#"{"dim": 2, "a": {"shape": "circle", "radius": 1},
//!     "b": {"shape": "circle", "radius": 1, "pose": {"translation": [3, 0]}}, "query": "distance"}"#).unwrap();
//! assert_eq!(scene.b.pose.translation, vec![3.0, 0.0]);
//! let bad = gjk_scene::parse_scene(r#"{"dim": 2, "a": {"shape": "circle", "centre": [3, 0], "radius": 1},
//!     "b": {"shape": "circle", "radius": 1}, "query": "distance"}"#).unwrap_err();
//! assert_eq!(bad.field, "a.centre");
//! ```
#![warn(missing_docs)]

use std::fmt;

use serde_json::Value;
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

impl SceneError {
    /// An error at `field`.
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        SceneError { field: field.to_string(), message: message.into() }
    }
}

fn err(field: &str, message: impl Into<String>) -> SceneError {
    SceneError::new(field, message)
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
