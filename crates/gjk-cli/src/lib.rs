//! The queries the `gjk` command runs on a scene file
//! ([`gjk_scene`]: the format it shares with the demo), and its traces.
#![warn(missing_docs)]

use gjk_core::glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};
use gjk_core::internal::Vector2;
use gjk_core::{CastOptions, CastStatus, Iteration, Real, Recorder, Status, SupportMap, SupportPoint};
use gjk_epa::{Contact, ContactManifold, ContactStatus, EpaSpace, PolygonEdges, PolyhedronFaces};
pub use gjk_scene::{Body, PoseSpec, QueryKind, Scene, SceneError, ShapeSpec, parse_scene};
pub use gjk_shapes::internal::Route;
use gjk_shapes::{
    Ball, Capsule, Cone, ConvexHull, ConvexPolygon, CoreOf, Cuboid, Cylinder, Motion, Point, Pose, Rot2,
    Segment, Shape, Space, Transformed, Triangle,
};
use serde_json::{Value, json};

fn err(field: &str, message: impl Into<String>) -> SceneError {
    SceneError::new(field, message)
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
    Ok(run_query_traced::<V, ()>(scene, &mut ())?.1)
}

/// [`run_query`] with a recorder of GJK's iterations (on the cores, in A's
/// frame, as the query runs it) and the route that settled the pair
/// (`None` for casts, which run many GJK queries).
pub fn run_query_traced<V: SceneSpace, R: Recorder<V>>(
    scene: &Scene,
    recorder: &mut R,
) -> Result<(Option<Route>, Value), SceneError> {
    let p = Pair::<V>::new(scene)?;
    let v = |x: V| json!(x.to_f64());
    let out = match scene.query {
        QueryKind::Distance | QueryKind::Intersects => {
            let (route, r) =
                gjk_shapes::internal::distance_traced(&*p.a, &p.pose_a, &*p.b, &p.pose_b, recorder);
            let hit = if scene.query == QueryKind::Intersects {
                gjk_shapes::try_intersects(&*p.a, &p.pose_a, &*p.b, &p.pose_b).ok()
            } else {
                Some(r.intersects())
            };
            // An overlap's normal is only GJK's last search direction, and
            // invalid input has no points: `null`, not a guess.
            let valid = r.status != Status::InvalidInput;
            let separates = valid && r.status != Status::Intersecting;
            (
                Some(route),
                json!({
                    "distance": valid.then(|| r.distance.to_f64()),
                    "point_a": if valid { v(r.point_a) } else { Value::Null },
                    "point_b": if valid { v(r.point_b) } else { Value::Null },
                    "normal": if separates { v(r.normal) } else { Value::Null },
                    "intersecting": hit, "depth": null, "toi": null, "manifold": null,
                    "iterations": r.iterations, "epa_iterations": null,
                    "route": route.name(), "status": status_name(r.status),
                }),
            )
        }
        QueryKind::Contact | QueryKind::Manifold => {
            let (route, c) = gjk_epa::internal::contact_traced(&*p.a, &p.pose_a, &*p.b, &p.pose_b, recorder);
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
                "iterations": c.gjk_iterations,
                "epa_iterations": c.epa_status.is_some().then_some(c.epa_iterations),
                "route": route.name(), "status": status,
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
            (Some(route), out)
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
            let status = match h.map(|h| h.status) {
                Some(CastStatus::Hit) => "hit",
                Some(CastStatus::StartsInside) => "starts_inside",
                None => "miss",
                Some(CastStatus::IterationLimit) => "iteration_limit",
                Some(CastStatus::InvalidInput) => "invalid_input",
            };
            // Points, normal and time only where the cast met B.
            let hit = h.filter(|h| h.is_hit());
            (
                None,
                json!({
                    "distance": null, "point_a": hit.map(|h| v(h.point_a)),
                    "point_b": hit.map(|h| v(h.point_b)),
                    "normal": hit.map(|h| v(h.normal)),
                    "intersecting": h.is_some_and(|h| h.status == CastStatus::StartsInside), "depth": null,
                    "toi": hit.map(|h| h.fraction.to_f64()),
                    "manifold": null, "iterations": h.map(|h| h.iterations), "epa_iterations": null,
                    "route": null, "status": status,
                }),
            )
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

/// What `gjk trace` shows: the scene's query as it ran, the route that
/// settled the pair and GJK's iterations (world frame; on the cores of
/// round shapes, as the query runs them), with the query's JSON answer.
#[derive(Clone, Debug)]
pub struct Trace<V: SceneSpace> {
    /// The route that settled the pair.
    pub route: Route,
    /// GJK's iterations in the world frame (empty where no GJK ran).
    pub iterations: Vec<Iteration<V>>,
    /// The query's answer, as `gjk query` prints it.
    pub answer: Value,
    /// A's pose (the frame the query ran in).
    pub pose_a: Pose<V>,
}

/// An iteration recorded in A's frame, moved to the world.
fn iteration_to_world<V: SceneSpace>(it: &Iteration<V>, pose: &Pose<V>) -> Iteration<V> {
    let point = |p: SupportPoint<V>| SupportPoint {
        w: pose.transform_vector(p.w),
        a: pose.transform_point(p.a),
        b: pose.transform_point(p.b),
        ..p
    };
    Iteration {
        direction: pose.transform_vector(it.direction),
        support: point(it.support),
        simplex: gjk_shapes::simplex_to_world(&it.simplex, pose),
        closest: pose.transform_vector(it.closest),
        ..*it
    }
}

/// Traces the scene's query (distance, intersects, contact or manifold; an
/// `intersects` scene traces the distance query its answer's iterations
/// come from). Casts are refused: they run many GJK queries.
pub fn trace<V: SceneSpace>(scene: &Scene) -> Result<Trace<V>, SceneError> {
    if scene.query == QueryKind::Cast {
        return Err(err(
            "query",
            "gjk trace follows distance, intersects, contact and manifold queries; a cast runs many (gjk query prints its answer)",
        ));
    }
    let mut log: Vec<Iteration<V>> = Vec::new();
    let (route, answer) = run_query_traced::<V, _>(scene, &mut log)?;
    let pose_a = V::pose(&scene.a.pose);
    let iterations = log.iter().map(|it| iteration_to_world(it, &pose_a)).collect();
    Ok(Trace { route: route.unwrap_or(Route::InvalidInput), iterations, answer, pose_a })
}

/// The trace as JSON: `route`, `iterations` (each `iteration`,
/// `direction`, `support`, `simplex`, `closest`, `lower_bound`,
/// `upper_bound`) and `result` (the query's answer).
pub fn trace_json<V: SceneSpace>(t: &Trace<V>) -> Value {
    let v = |x: V| json!(x.to_f64());
    let its: Vec<Value> = t
        .iterations
        .iter()
        .map(|it| {
            json!({
                "iteration": it.iteration,
                "direction": v(it.direction),
                "support": v(it.support.w),
                "simplex": it.simplex.points().iter().map(|p| v(p.w)).collect::<Vec<_>>(),
                "closest": v(it.closest),
                "lower_bound": it.lower_bound.to_f64(),
                "upper_bound": it.upper_bound.to_f64(),
            })
        })
        .collect();
    json!({"route": t.route.name(), "iterations": its, "result": t.answer})
}

/// The trace as text: the route, a line per GJK iteration, the result.
pub fn trace_text<V: SceneSpace>(t: &Trace<V>) -> String {
    let f = |x: V| format!("{:?}", x.to_f64().iter().map(|c| (c * 1e9).round() / 1e9).collect::<Vec<_>>());
    let mut s = format!("route: {}\n", t.route.name());
    for it in &t.iterations {
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
    let a = &t.answer;
    let num = |k: &str| a[k].as_f64().map_or("none".to_string(), |x| format!("{x:.9}"));
    let vec = |k: &str| match a[k].as_array() {
        Some(c) => format!(
            "{:?}",
            c.iter().map(|x| (x.as_f64().unwrap_or(f64::NAN) * 1e9).round() / 1e9).collect::<Vec<_>>()
        ),
        None => "none".to_string(),
    };
    s += &format!(
        "result: {} distance {} depth {} normal {} iterations {} epa_iterations {}\n",
        a["status"].as_str().unwrap_or("?"),
        num("distance"),
        num("depth"),
        vec("normal"),
        a["iterations"],
        a["epa_iterations"].as_u64().map_or("none".to_string(), |n| n.to_string()),
    );
    s
}

/// A round length for a scale bar about `target` long: 1, 2 or 5 × 10ᵏ.
fn round_length(target: f64) -> f64 {
    let k = target.log10().floor();
    let base = 10f64.powf(k);
    [5.0, 2.0, 1.0].into_iter().map(|m| m * base).find(|&l| l <= target).unwrap_or(base)
}

/// A length for a label: few digits, any scale.
fn short(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if (1e-3..1e4).contains(&x.abs()) {
        format!("{}", (x * 1e3).round() / 1e3)
    } else {
        format!("{x:.0e}")
    }
}

/// Bounds of a set of points (x0, x1, y0, y1).
fn bounds(points: impl IntoIterator<Item = (f64, f64)>) -> (f64, f64, f64, f64) {
    points.into_iter().fold((f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY), |b, p| {
        (b.0.min(p.0), b.1.max(p.0), b.2.min(p.1), b.3.max(p.1))
    })
}

/// A square view of the plane drawn into a square of the picture.
#[derive(Clone, Copy)]
struct View {
    /// The plane's centre.
    c: (f64, f64),
    /// Plane units per picture pixel.
    unit: f64,
    /// The picture square's top-left corner and side.
    at: (f64, f64),
    side: f64,
}

impl View {
    /// The view of `b` (padded by a tenth) in the square at `at`, `side` wide.
    fn fit(b: (f64, f64, f64, f64), at: (f64, f64), side: f64) -> Self {
        let span = (b.1 - b.0).max(b.3 - b.2).max(1e-300) * 1.2;
        View { c: ((b.0 + b.1) / 2.0, (b.2 + b.3) / 2.0), unit: span / side, at, side }
    }
    fn map(&self, p: (f64, f64)) -> (f64, f64) {
        (
            self.at.0 + self.side / 2.0 + (p.0 - self.c.0) / self.unit,
            self.at.1 + self.side / 2.0 - (p.1 - self.c.1) / self.unit,
        )
    }
    fn points(&self, ps: &[(f64, f64)]) -> String {
        ps.iter()
            .map(|&p| {
                let (u, v) = self.map(p);
                format!("{u:.2},{v:.2}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Colours of the picture (Paul Tol's bright scheme, readable in print).
const OUTLINE: &str = "#4477aa";
const CLOSEST: &str = "#cc3311";
const PENETRATION: &str = "#228833";
/// Side of the main plot and of the zoomed inset, in pixels.
const PLOT: f64 = 600.0;
const INSET: f64 = 190.0;
/// Heights of the title band and the legend band.
const TITLE: f64 = 50.0;
const LEGEND: f64 = 96.0;
/// The inset is drawn where the final simplex and the closest point span
/// less than this fraction of the main plot.
const INSET_BELOW: f64 = 0.08;

/// The drawn parts of one view: outlines, simplices, barycode regions,
/// origin, closest point, penetration; clipped to the view's square.
fn draw_view(out: &mut String, view: &View, parts: &Parts, id: &str, detail: bool) {
    let (x, y, side) = (view.at.0, view.at.1, view.side);
    *out += &format!(
        "<clipPath id=\"{id}\"><rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\"/></clipPath>\n<g clip-path=\"url(#{id})\">\n<rect x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" fill=\"white\" stroke=\"#333\"/>\n"
    );
    if let Some(full) = &parts.full {
        *out += &format!(
            "<polygon points=\"{}\" fill=\"none\" stroke=\"{OUTLINE}\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>\n",
            view.points(full)
        );
    }
    *out += &format!(
        "<polygon points=\"{}\" fill=\"#dde8f5\" fill-opacity=\"0.7\" stroke=\"{OUTLINE}\" stroke-width=\"1.5\"/>\n",
        view.points(&parts.core)
    );
    if detail && let Some(tri) = &parts.triangle {
        barycode(out, view, tri);
    }
    let n = parts.simplices.len();
    for (k, sim) in parts.simplices.iter().enumerate() {
        let last = k + 1 == n;
        let shade = 200 - (150 * (k + 1) / n.max(1)) as i32;
        let (colour, width) =
            if last { ("#000".to_string(), 2.5) } else { (format!("rgb({shade},{shade},{shade})"), 1.0) };
        let element = if sim.len() >= 3 { "polygon" } else { "polyline" };
        *out += &format!(
            "<{element} points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{width}\"/>\n",
            view.points(sim)
        );
        if last {
            for &p in sim {
                let (u, v) = view.map(p);
                *out += &format!("<circle cx=\"{u:.2}\" cy=\"{v:.2}\" r=\"3.5\" fill=\"#000\"/>\n");
            }
        }
    }
    let (ox, oy) = view.map((0.0, 0.0));
    if let Some(q) = parts.penetration {
        let (u, v) = view.map(q);
        *out += &format!(
            "<line x1=\"{ox:.2}\" y1=\"{oy:.2}\" x2=\"{u:.2}\" y2=\"{v:.2}\" stroke=\"{PENETRATION}\" stroke-width=\"2.5\"/><circle cx=\"{u:.2}\" cy=\"{v:.2}\" r=\"4\" fill=\"{PENETRATION}\"/>\n"
        );
    }
    if let Some(q) = parts.closest {
        let (u, v) = view.map(q);
        *out += &format!(
            "<line x1=\"{ox:.2}\" y1=\"{oy:.2}\" x2=\"{u:.2}\" y2=\"{v:.2}\" stroke=\"{CLOSEST}\" stroke-width=\"2\"/><circle cx=\"{u:.2}\" cy=\"{v:.2}\" r=\"4\" fill=\"{CLOSEST}\"/>\n"
        );
    }
    *out += &format!(
        "<circle cx=\"{ox:.2}\" cy=\"{oy:.2}\" r=\"4.5\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>\n"
    );
    // The origin's label on whichever side keeps it inside the square.
    let (lx, anchor) = if ox > x + side - 60.0 { (ox - 8.0, "end") } else { (ox + 8.0, "start") };
    let ly = if oy < y + 20.0 { oy + 18.0 } else { oy - 8.0 };
    *out += &format!(
        "<text x=\"{lx:.2}\" y=\"{ly:.2}\" font-size=\"12\" text-anchor=\"{anchor}\">origin</text>\n"
    );
    scale_bar(out, view);
    *out += "</g>\n";
}

/// A scale bar in the view's lower-left corner: a round length in plane
/// units about a fifth of the square.
fn scale_bar(out: &mut String, view: &View) {
    let length = round_length(view.side / 5.0 * view.unit);
    let px = length / view.unit;
    let (x, y) = (view.at.0 + 12.0, view.at.1 + view.side - 14.0);
    *out += &format!(
        "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"16\" fill=\"white\" fill-opacity=\"0.8\"/><line x1=\"{x:.2}\" y1=\"{y:.2}\" x2=\"{:.2}\" y2=\"{y:.2}\" stroke=\"#000\" stroke-width=\"3\"/><text x=\"{:.2}\" y=\"{:.2}\" font-size=\"11\">{}</text>\n",
        x - 4.0,
        y - 12.0,
        px + 60.0,
        x + px,
        x + px + 6.0,
        y + 4.0,
        short(length)
    );
}

/// The barycode regions of a triangle simplex (Zhang et al., Fig. 1a): the
/// lines through its edges split the plane into seven regions, each named
/// by the signs of the barycentric coordinates; the origin's is shaded.
fn barycode(out: &mut String, view: &View, w: &[(f64, f64)]) {
    let area =
        |p: (f64, f64), q: (f64, f64), r: (f64, f64)| (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
    let total = area(w[0], w[1], w[2]);
    if total == 0.0 {
        return;
    }
    let far = view.side * view.unit * 4.0;
    for i in 0..3 {
        let (a, b) = (w[i], w[(i + 1) % 3]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let l = dx.hypot(dy).max(1e-300);
        let (p, q) = (
            view.map((a.0 - dx / l * far, a.1 - dy / l * far)),
            view.map((a.0 + dx / l * far, a.1 + dy / l * far)),
        );
        *out += &format!(
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
            p.0, p.1, q.0, q.1
        );
    }
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
    let origin = code((0.0, 0.0));
    for x in probes {
        let (u, v) = view.map(x);
        let k = code(x);
        let weight = if k == origin { "bold" } else { "normal" };
        *out += &format!(
            "<text x=\"{u:.2}\" y=\"{v:.2}\" font-size=\"12\" fill=\"#777\" font-weight=\"{weight}\" text-anchor=\"middle\">{k:03b}</text>\n"
        );
    }
}

/// What a trace picture draws, in plane coordinates.
struct Parts {
    /// The outline of the cores' difference, the set GJK iterated on.
    core: Vec<(f64, f64)>,
    /// The outline of the shapes' difference, where radii round the cores.
    full: Option<Vec<(f64, f64)>>,
    /// Every iteration's simplex.
    simplices: Vec<Vec<(f64, f64)>>,
    /// The last triangle simplex, for its barycode regions.
    triangle: Option<Vec<(f64, f64)>>,
    /// The point of `A − B` nearest the origin (apart or touching).
    closest: Option<(f64, f64)>,
    /// `normal × depth`, the penetration vector (contacts that overlap).
    penetration: Option<(f64, f64)>,
}

/// The outline of `A − B` from the support mapping in 256 directions.
fn outline<V: SceneSpace + Vector2>(a: &dyn SupportMap<V>, b: &dyn SupportMap<V>) -> Vec<(f64, f64)> {
    const DIRECTIONS: usize = 256;
    (0..DIRECTIONS)
        .map(|k| {
            let t = k as f64 * std::f64::consts::TAU / DIRECTIONS as f64;
            let d = V::new2(V::Scalar::from_f64(t.cos()), V::Scalar::from_f64(t.sin()));
            let w = gjk_core::internal::minkowski_support(&a, &b, d).w;
            (w.x().to_f64(), w.y().to_f64())
        })
        .collect()
}

/// An SVG picture of a 2D trace: the Minkowski difference `A − B` of the
/// cores GJK ran on (and of the round shapes, dashed), every iteration's
/// simplex (light to dark; the final one bold, its points dotted), the
/// barycode regions of the last triangle simplex, the origin, the closest
/// point (or the penetration vector of an overlapping contact), a scale
/// bar, a legend, and an inset zoomed on the final simplex and the closest
/// point when they are small in the whole picture.
pub fn trace_svg<V: SceneSpace + Vector2>(scene: &Scene, t: &Trace<V>) -> Result<String, SceneError> {
    let p = Pair::<V>::new(scene)?;
    let ta = Transformed::new(&*p.a, p.pose_a).map_err(|e| err("a.pose", e.to_string()))?;
    let tb = Transformed::new(&*p.b, p.pose_b).map_err(|e| err("b.pose", e.to_string()))?;
    let (ca, cb) = (CoreOf(&ta), CoreOf(&tb));
    let xy = |w: V| (w.x().to_f64(), w.y().to_f64());
    let round = p.a.radius() + p.b.radius() > V::Scalar::ZERO;
    let answer = &t.answer;
    let vector =
        |k: &str| answer[k].as_array().map(|c| (c[0].as_f64().unwrap_or(0.0), c[1].as_f64().unwrap_or(0.0)));
    let apart = matches!(answer["status"].as_str(), Some("separated" | "touching" | "beyond"));
    let closest = match (apart, vector("point_a"), vector("point_b")) {
        (true, Some(a), Some(b)) => Some((a.0 - b.0, a.1 - b.1)),
        _ => None,
    };
    let penetration = match (answer["depth"].as_f64(), vector("normal")) {
        (Some(d), Some(n)) if d > 0.0 => Some((n.0 * d, n.1 * d)),
        _ => None,
    };
    let simplices: Vec<Vec<(f64, f64)>> =
        t.iterations.iter().map(|it| it.simplex.points().iter().map(|q| xy(q.w)).collect()).collect();
    let parts = Parts {
        core: outline::<V>(&ca, &cb),
        full: round.then(|| outline::<V>(&ta, &tb)),
        triangle: t
            .iterations
            .iter()
            .rev()
            .map(|it| it.simplex)
            .find(|s| s.len() == 3)
            .map(|s| s.points().iter().map(|q| xy(q.w)).collect()),
        simplices,
        closest,
        penetration,
    };
    // The main view: both outlines and the origin.
    let everything =
        bounds(parts.core.iter().chain(parts.full.iter().flatten()).copied().chain([(0.0, 0.0)]));
    let main = View::fit(everything, (0.0, TITLE), PLOT);
    // The detail: the final simplex, the origin and the closest point.
    let detail = bounds(
        parts
            .simplices
            .last()
            .into_iter()
            .flatten()
            .copied()
            .chain([(0.0, 0.0)])
            .chain(parts.closest)
            .chain(parts.penetration),
    );
    let detail_span = (detail.1 - detail.0).max(detail.3 - detail.2);
    let total_span = main.side * main.unit;
    let inset = (detail_span < INSET_BELOW * total_span).then(|| {
        // At least a few pixels' worth of the main view, so a point-sized
        // detail still shows its neighbourhood.
        let pad = (total_span * 0.002).max(detail_span * 0.25);
        View::fit(
            (detail.0 - pad, detail.1 + pad, detail.2 - pad, detail.3 + pad),
            (PLOT - INSET - 8.0, TITLE + 8.0),
            INSET,
        )
    });
    let height = TITLE + PLOT + LEGEND;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{PLOT}\" height=\"{height}\" viewBox=\"0 0 {PLOT} {height}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let distance =
        answer["distance"].as_f64().map_or("no distance".to_string(), |d| format!("distance {}", short(d)));
    s += &format!(
        "<text x=\"8\" y=\"20\" font-size=\"14\">A − B: {}</text>\n<text x=\"8\" y=\"40\" font-size=\"13\" fill=\"#333\">{} GJK iterations · {} · {}</text>\n",
        t.route.name(),
        t.iterations.len(),
        answer["status"].as_str().unwrap_or("?"),
        distance
    );
    draw_view(&mut s, &main, &parts, "main", true);
    if let Some(v) = &inset {
        // Where the inset sits in the main view, and the inset itself.
        let (a, b) = (
            main.map((v.c.0 - v.side / 2.0 * v.unit, v.c.1 + v.side / 2.0 * v.unit)),
            main.map((v.c.0 + v.side / 2.0 * v.unit, v.c.1 - v.side / 2.0 * v.unit)),
        );
        s += &format!(
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"none\" stroke=\"#e68a00\" stroke-width=\"1.5\"/>\n",
            a.0 - 2.0,
            a.1 - 2.0,
            (b.0 - a.0) + 4.0,
            (b.1 - a.1) + 4.0
        );
        draw_view(&mut s, v, &parts, "inset", false);
        s += &format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{INSET}\" height=\"{INSET}\" fill=\"none\" stroke=\"#e68a00\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#e68a00\">zoom ×{}</text>\n",
            v.at.0,
            v.at.1,
            v.at.0 + 6.0,
            v.at.1 + 14.0,
            short(round_length(main.unit / v.unit))
        );
    }
    legend(&mut s, TITLE + PLOT, round);
    s += "</svg>\n";
    Ok(s)
}

/// The legend band below the plot: two columns of a symbol and its label.
fn legend(s: &mut String, top: f64, round: bool) {
    // Each symbol drawn with its left end at (x, y).
    type Symbol = fn(f64, f64) -> String;
    let mut items: Vec<(Symbol, &str)> = vec![
        (
            |x, y| {
                format!(
                    "<rect x=\"{x}\" y=\"{}\" width=\"24\" height=\"12\" fill=\"#dde8f5\" stroke=\"{OUTLINE}\" stroke-width=\"1.5\"/>",
                    y - 6.0
                )
            },
            "A − B of the cores (what GJK searches)",
        ),
        (
            |x, y| {
                format!(
                    "<polyline points=\"{x},{} {},{} {},{}\" fill=\"none\" stroke=\"#aaa\"/>",
                    y + 4.0,
                    x + 12.0,
                    y - 6.0,
                    x + 24.0,
                    y + 4.0
                )
            },
            "simplex per iteration, light to dark",
        ),
        (
            |x, y| {
                format!(
                    "<polyline points=\"{x},{} {},{} {},{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"2.5\"/>",
                    y + 4.0,
                    x + 12.0,
                    y - 6.0,
                    x + 24.0,
                    y + 4.0
                )
            },
            "final simplex",
        ),
        (
            |x, y| {
                format!(
                    "<circle cx=\"{}\" cy=\"{y}\" r=\"4.5\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>",
                    x + 12.0
                )
            },
            "origin",
        ),
        (
            |x, y| {
                format!(
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{CLOSEST}\" stroke-width=\"2\"/>",
                    x + 24.0
                )
            },
            "closest point of A − B to the origin",
        ),
        (
            |x, y| {
                format!(
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{PENETRATION}\" stroke-width=\"2.5\"/>",
                    x + 24.0
                )
            },
            "penetration: normal × depth",
        ),
        (
            |x, y| format!("<text x=\"{x}\" y=\"{}\" font-size=\"11\" fill=\"#777\">101</text>", y + 4.0),
            "barycode regions of the last triangle",
        ),
    ];
    if round {
        items.insert(
            1,
            (
                |x, y| format!("<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{OUTLINE}\" stroke-dasharray=\"6 4\"/>", x + 24.0),
                "A − B of the round shapes",
            ),
        );
    }
    for (k, (symbol, label)) in items.iter().enumerate() {
        let (x, y) = (12.0 + 300.0 * (k / 4) as f64, top + 20.0 + 22.0 * (k % 4) as f64);
        *s += &symbol(x, y);
        *s += &format!("<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"12\">{label}</text>\n", x + 32.0, y + 4.0);
    }
}
