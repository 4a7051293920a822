//! The scene: ground, cuboids, a capsule, a sphere and a hull; camera and
//! lights; meshes kept in sync with the simulation.

use std::sync::Arc;

use bevy::asset::RenderAssetUsages;
use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::light::GlobalAmbientLight;
use bevy::math::primitives::{
    Capsule3d, Cone as ConeMesh, Cuboid as BoxMesh, Cylinder as CylinderMesh, Sphere as SphereMesh,
};
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use gjk_shapes::{Ball, Capsule, ConvexHull, Cuboid, Cylinder, Pose};

use crate::physics::{Body, Collider};

/// Half extents of the ground slab (its top is at y = 0).
pub const GROUND_HALF: Vec3 = Vec3::new(12.0, 0.5, 12.0);
/// Cuboids in a fresh scene.
pub const DEFAULT_CUBOIDS: usize = 6;
/// Camera distance from its focus at start.
pub const CAMERA_DISTANCE: f32 = 16.0;

/// Scene options the panel edits.
#[derive(Resource, Clone, Copy, Debug)]
pub struct SceneSettings {
    /// Cuboids spawned by a reset.
    pub cuboids: usize,
}

impl Default for SceneSettings {
    fn default() -> Self {
        Self { cuboids: DEFAULT_CUBOIDS }
    }
}

/// Ask for a fresh scene.
#[derive(Message, Clone, Copy, Debug)]
pub struct ResetScene;

/// Ask for one more body.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnShape {
    /// A cuboid.
    Cuboid,
    /// A sphere.
    Sphere,
    /// A capsule.
    Capsule,
    /// A cylinder.
    Cylinder,
    /// A cone.
    Cone,
    /// A convex hull.
    Hull,
}

/// A pair loaded from a scene file (`--scene`), shown instead of the
/// default scene.
#[derive(Resource, Clone, Debug)]
pub struct ScenePair {
    /// Shape A and its pose.
    pub a: (Collider, Pose<Vec3>),
    /// Shape B and its pose.
    pub b: (Collider, Pose<Vec3>),
}

/// Half thickness of the slab a 2D scene's polygons and rectangles are
/// extruded to (circles become spheres and 2D capsules 3D ones: their
/// sections in the z = 0 plane are the 2D shapes, and the closest points of
/// shapes symmetric about that plane lie in it, so distances are the 2D
/// ones).
pub const SLAB_HALF_THICKNESS: f32 = 0.05;

fn collider_from(spec: &gjk_scene::ShapeSpec, dim: usize) -> Result<Collider, String> {
    use gjk_scene::ShapeSpec as S;
    let v = |c: &[f64]| Vec3::new(c[0] as f32, c[1] as f32, if dim == 3 { c[2] as f32 } else { 0.0 });
    let hull = |pts: Vec<Vec3>| {
        ConvexHull::new(&pts).map(|h| Collider::Hull(Arc::new(h))).map_err(|e| e.to_string())
    };
    // 2D polygons become prisms across the z = 0 plane.
    let slab = |pts: Vec<Vec3>| -> Vec<Vec3> {
        if dim == 3 {
            return pts;
        }
        pts.iter().flat_map(|p| [p.with_z(-SLAB_HALF_THICKNESS), p.with_z(SLAB_HALF_THICKNESS)]).collect()
    };
    match spec {
        S::Ball(r) => Ball::new(*r as f32).map(Collider::Ball).map_err(|e| e.to_string()),
        S::Capsule(h, r) => {
            Capsule::new(*h as f32, *r as f32).map(Collider::Capsule).map_err(|e| e.to_string())
        }
        S::Cuboid(h) if dim == 2 => Cuboid::new(Vec3::new(h[0] as f32, h[1] as f32, SLAB_HALF_THICKNESS))
            .map(Collider::Cuboid)
            .map_err(|e| e.to_string()),
        S::Cuboid(h) => Cuboid::new(v(h)).map(Collider::Cuboid).map_err(|e| e.to_string()),
        S::Cylinder(h, r) => {
            Cylinder::new(*h as f32, *r as f32).map(Collider::Cylinder).map_err(|e| e.to_string())
        }
        S::Cone(h, r) => Collider::cone(*h as f32, *r as f32).map_err(|e| e.to_string()),
        S::Point(p) => hull(vec![v(p)]),
        S::Segment(a, b) => hull(vec![v(a), v(b)]),
        S::Triangle(a, b, c) => hull(slab(vec![v(a), v(b), v(c)])),
        S::Points(p) => hull(slab(p.iter().map(|c| v(c)).collect())),
    }
}

/// Reads a scene file's pair for the demo. 2D scenes are shown in the
/// z = 0 plane (polygons as thin prisms, circles as spheres).
pub fn load_pair(path: &std::path::Path) -> Result<ScenePair, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let scene = gjk_scene::parse_scene(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let dim = scene.dim;
    let pose = |p: &gjk_scene::PoseSpec| {
        let r = &p.rotation;
        let t = &p.translation;
        if dim == 2 {
            return Pose::new(Quat::from_rotation_z(r[0] as f32), Vec3::new(t[0] as f32, t[1] as f32, 0.0));
        }
        Pose::new(
            Quat::from_xyzw(r[0] as f32, r[1] as f32, r[2] as f32, r[3] as f32).normalize(),
            Vec3::new(t[0] as f32, t[1] as f32, t[2] as f32),
        )
    };
    // The file places a shape's own frame; a body's origin is where its
    // collider puts it (a cone's centre of mass).
    let body = |spec: &gjk_scene::Body, field: &str| -> Result<(Collider, Pose<Vec3>), String> {
        let c = collider_from(&spec.shape, dim).map_err(|e| format!("{field}: {e}"))?;
        let at = pose(&spec.pose).mul(&c.own_frame().inverse());
        Ok((c, at))
    };
    Ok(ScenePair { a: body(&scene.a, "a")?, b: body(&scene.b, "b")? })
}

/// A body for a scene-file shape: dynamic when it has volume, else fixed.
fn pair_body(collider: &Collider, pose: Pose<Vec3>) -> Body {
    let (m, _) = collider.mass_properties();
    if m.is_finite() && m > 1e-9 {
        Body::dynamic(collider.clone(), pose)
    } else {
        Body::fixed(collider.clone(), pose)
    }
}

/// Marks every entity a reset removes.
#[derive(Component)]
pub struct SceneEntity;

/// The orbit camera's state.
#[derive(Component, Clone, Copy, Debug)]
pub struct OrbitCamera {
    /// Point looked at.
    pub focus: Vec3,
    /// Rotation about Y (radians).
    pub yaw: f32,
    /// Elevation (radians).
    pub pitch: f32,
    /// Distance from the focus.
    pub distance: f32,
}

impl OrbitCamera {
    /// The camera transform for this state.
    pub fn transform(&self) -> Transform {
        let dir =
            Vec3::new(self.pitch.cos() * self.yaw.sin(), self.pitch.sin(), self.pitch.cos() * self.yaw.cos());
        Transform::from_translation(self.focus + dir * self.distance).looking_at(self.focus, Vec3::Y)
    }
}

/// Scene setup, resets, spawning and mesh sync.
pub fn plugin(app: &mut App) {
    app.init_resource::<SceneSettings>()
        .add_message::<ResetScene>()
        .add_message::<SpawnShape>()
        .insert_resource(ClearColor(Color::srgb(0.09, 0.10, 0.13)))
        .insert_resource(GlobalAmbientLight { brightness: 400.0, ..default() })
        .add_systems(Startup, (setup_camera, spawn_scene))
        .add_systems(Update, (reset_scene, spawn_requested, sync_transforms));
}

fn setup_camera(mut commands: Commands, pair: Option<Res<ScenePair>>) {
    let mut orbit =
        OrbitCamera { focus: Vec3::new(0.0, 1.5, 0.0), yaw: 0.6, pitch: 0.45, distance: CAMERA_DISTANCE };
    if let Some(p) = pair {
        // Frame the pair: the world box around both, from their supports
        // along the six axis directions.
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for (c, pose) in [&p.a, &p.b] {
            for d in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z] {
                let q = pose.transform_point(c.shape().support(pose.inverse_transform_vector(d)));
                lo = lo.min(q);
                hi = hi.max(q);
            }
        }
        orbit.focus = (lo + hi) * 0.5;
        orbit.distance = ((hi - lo).length() * 1.8).clamp(0.05, 1e4);
    }
    commands.spawn((Camera3d::default(), Tonemapping::None, orbit.transform(), orbit));
    commands.spawn((
        DirectionalLight { illuminance: 6000.0, shadow_maps_enabled: false, ..default() },
        Transform::from_xyz(4.0, 10.0, 6.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// A pleasant colour for body `i`.
fn palette(i: usize) -> Color {
    const COLOURS: [(f32, f32, f32); 6] = [
        (0.35, 0.55, 0.85),
        (0.85, 0.55, 0.30),
        (0.40, 0.75, 0.50),
        (0.70, 0.45, 0.75),
        (0.80, 0.75, 0.40),
        (0.45, 0.70, 0.75),
    ];
    let (r, g, b) = COLOURS[i % COLOURS.len()];
    Color::srgb(r, g, b)
}

/// The default hull: a slightly irregular dodecahedron-like point set.
pub fn default_hull() -> Arc<ConvexHull<Vec3>> {
    let phi = (1.0 + 5f32.sqrt()) / 2.0;
    let mut pts = Vec::new();
    for i in 0..8 {
        pts.push(Vec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        ));
    }
    for (a, b) in [(1.0 / phi, phi), (-1.0 / phi, phi), (1.0 / phi, -phi), (-1.0 / phi, -phi)] {
        pts.push(Vec3::new(0.0, a, b));
        pts.push(Vec3::new(a, b, 0.0));
        pts.push(Vec3::new(b, 0.0, a));
    }
    let scaled: Vec<Vec3> = pts.iter().map(|p| *p * Vec3::new(0.45, 0.55, 0.5)).collect();
    Arc::new(ConvexHull::new(&scaled).expect("a fixed, valid point set"))
}

/// A flat-shaded mesh of a hull.
pub fn hull_mesh(hull: &ConvexHull<Vec3>) -> Mesh {
    let (mut pos, mut nrm) = (Vec::new(), Vec::new());
    for f in hull.faces() {
        let [a, b, c] = f.map(|i| hull.vertices()[i as usize]);
        let n = (b - a).cross(c - a).normalize_or_zero();
        for p in [a, b, c] {
            pos.push(p.to_array());
            nrm.push(n.to_array());
        }
    }
    let count = pos.len() as u32;
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default())
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, pos)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, nrm)
        .with_inserted_indices(Indices::U32((0..count).collect()))
}

/// The render mesh of a collider.
pub fn collider_mesh(c: &Collider) -> Mesh {
    match c {
        Collider::Cuboid(b) => BoxMesh::from_size(b.half_extents() * 2.0).into(),
        Collider::Ball(b) => SphereMesh::new(b.radius()).mesh().uv(24, 16),
        Collider::Capsule(c) => Capsule3d::new(c.radius(), c.half_height() * 2.0).into(),
        Collider::Cylinder(c) => {
            CylinderMesh::new(c.disc_radius(), c.half_height() * 2.0).mesh().resolution(48).into()
        }
        Collider::Cone(c) => {
            let mesh: Mesh = ConeMesh { radius: c.shape.base_radius(), height: c.shape.half_height() * 2.0 }
                .mesh()
                .resolution(48)
                .into();
            mesh.translated_by(c.pose().translation)
        }
        Collider::Hull(h) => hull_mesh(h),
    }
}

/// Spawns a body with its mesh.
pub fn spawn_body(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    body: Body,
    colour: Color,
) -> Entity {
    let mesh = meshes.add(collider_mesh(&body.collider));
    let material =
        materials.add(StandardMaterial { base_color: colour, perceptual_roughness: 0.7, ..default() });
    let t = Transform::from_translation(body.pose.translation).with_rotation(body.pose.rotation);
    commands.spawn((Mesh3d(mesh), MeshMaterial3d(material), t, body, SceneEntity)).id()
}

/// The bodies of a fresh scene with `cuboids` boxes (no meshes: tests use
/// this too).
pub fn scene_bodies(cuboids: usize) -> Vec<Body> {
    let ground = Collider::Cuboid(Cuboid::new(GROUND_HALF).expect("positive"));
    let mut bodies = vec![Body::fixed(ground, Pose::from_translation(Vec3::new(0.0, -GROUND_HALF.y, 0.0)))];
    for i in 0..cuboids {
        let half = Vec3::new(0.5, 0.4 + 0.1 * (i % 3) as f32, 0.5);
        let (x, z, y) = if i < 3 {
            (-2.5, 0.0, 0.05 + half.y + i as f32 * 1.02)
        } else {
            (1.0 + 1.3 * (i - 3) as f32, -2.0, half.y + 1.5)
        };
        let q = Quat::from_rotation_y(0.3 * i as f32);
        bodies.push(Body::dynamic(
            Collider::Cuboid(Cuboid::new(half).expect("positive")),
            Pose::new(q, Vec3::new(x, y, z)),
        ));
    }
    let capsule = Collider::Capsule(Capsule::new(0.5, 0.35).expect("valid"));
    bodies.push(Body::dynamic(capsule, Pose::new(Quat::from_rotation_z(1.2), Vec3::new(2.5, 2.0, 1.5))));
    bodies.push(Body::dynamic(
        Collider::Ball(Ball::new(0.55).expect("valid")),
        Pose::from_translation(Vec3::new(0.0, 1.2, 2.5)),
    ));
    bodies.push(Body::dynamic(
        Collider::Hull(default_hull()),
        Pose::from_translation(Vec3::new(-1.0, 2.5, -3.0)),
    ));
    bodies.push(Body::dynamic(
        Collider::Cylinder(Cylinder::new(0.35, 0.4).expect("valid")),
        Pose::new(Quat::from_rotation_x(0.4), Vec3::new(-2.6, 1.5, 2.2)),
    ));
    bodies.push(Body::dynamic(
        Collider::cone(0.45, 0.4).expect("valid"),
        Pose::new(Quat::from_rotation_z(0.3), Vec3::new(1.2, 1.4, 3.4)),
    ));
    bodies
}

fn spawn_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    settings: Res<SceneSettings>,
    pair: Option<Res<ScenePair>>,
) {
    if let Some(p) = pair {
        spawn_body(&mut commands, &mut meshes, &mut materials, pair_body(&p.a.0, p.a.1), palette(0));
        spawn_body(&mut commands, &mut meshes, &mut materials, pair_body(&p.b.0, p.b.1), palette(1));
        return;
    }
    for (i, body) in scene_bodies(settings.cuboids).into_iter().enumerate() {
        let colour = if i == 0 { Color::srgb(0.28, 0.30, 0.33) } else { palette(i - 1) };
        spawn_body(&mut commands, &mut meshes, &mut materials, body, colour);
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each argument is a resource or query it needs
fn reset_scene(
    mut events: MessageReader<ResetScene>,
    mut commands: Commands,
    old: Query<Entity, With<SceneEntity>>,
    meshes: ResMut<Assets<Mesh>>,
    materials: ResMut<Assets<StandardMaterial>>,
    settings: Res<SceneSettings>,
    mut contacts: ResMut<crate::physics::Contacts>,
    pair: Option<Res<ScenePair>>,
) {
    if events.read().count() == 0 {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    contacts.pairs.clear();
    spawn_scene(commands, meshes, materials, settings, pair);
}

fn spawn_requested(
    mut events: MessageReader<SpawnShape>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    bodies: Query<&Body>,
) {
    for (k, ev) in events.read().enumerate() {
        let n = bodies.iter().count() + k;
        let collider = match ev {
            SpawnShape::Cuboid => Collider::Cuboid(Cuboid::new(Vec3::new(0.5, 0.35, 0.6)).expect("positive")),
            SpawnShape::Sphere => Collider::Ball(Ball::new(0.45).expect("valid")),
            SpawnShape::Capsule => Collider::Capsule(Capsule::new(0.4, 0.3).expect("valid")),
            SpawnShape::Cylinder => Collider::Cylinder(Cylinder::new(0.35, 0.4).expect("valid")),
            SpawnShape::Cone => Collider::cone(0.4, 0.45).expect("valid"),
            SpawnShape::Hull => Collider::Hull(default_hull()),
        };
        let x = ((n * 37) % 7) as f32 - 3.0;
        let pose =
            Pose::new(Quat::from_rotation_y(n as f32), Vec3::new(x * 0.8, 5.0, ((n * 13) % 5) as f32 - 2.0));
        spawn_body(&mut commands, &mut meshes, &mut materials, Body::dynamic(collider, pose), palette(n));
    }
}

fn sync_transforms(mut q: Query<(&Body, &mut Transform)>) {
    for (b, mut t) in &mut q {
        t.translation = b.pose.translation;
        t.rotation = b.pose.rotation;
    }
}
