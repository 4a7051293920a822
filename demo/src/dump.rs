//! `--dump-state PATH`: on exit, every body's shape, pose and velocity as
//! JSON, for tests and bug reports. Shapes and poses are written in the
//! scene-file format (docs/scene-format.md), so a body can be pasted into a
//! scene file as it is.

use std::path::PathBuf;

use bevy::prelude::*;
use serde_json::{Value, json};

use crate::physics::{Body, Collider, StepCount};

/// Writes the state to `path` when the app exits.
pub fn plugin(path: PathBuf) -> impl Fn(&mut App) {
    move |app: &mut App| {
        app.insert_resource(DumpPath(path.clone())).add_systems(Last, dump_on_exit);
    }
}

/// Where the state goes.
#[derive(Resource, Clone, Debug)]
pub struct DumpPath(pub PathBuf);

/// A shape in the scene-file format, with the pose of its own frame.
fn shape_json(collider: &Collider, pose: Value) -> Value {
    match collider {
        Collider::Cuboid(c) => {
            json!({"shape": "cuboid", "half_extents": c.half_extents().to_array(), "pose": pose})
        }
        Collider::Ball(b) => json!({"shape": "sphere", "radius": b.radius(), "pose": pose}),
        Collider::Capsule(c) => {
            json!({"shape": "capsule", "half_height": c.half_height(), "radius": c.radius(), "pose": pose})
        }
        Collider::Cylinder(c) => {
            json!({"shape": "cylinder", "half_height": c.half_height(), "radius": c.disc_radius(), "pose": pose})
        }
        Collider::Cone(c) => json!({
            "shape": "cone", "half_height": c.shape.half_height(), "radius": c.shape.base_radius(), "pose": pose
        }),
        Collider::Hull(h) => {
            let points: Vec<[f32; 3]> = h.vertices().iter().map(|v| v.to_array()).collect();
            json!({"shape": "hull", "points": points, "pose": pose})
        }
    }
}

/// The state of every body: `shape` (scene format, its `pose` that of the
/// shape's own frame: a cone's sits a quarter of its height below the
/// body's centre of mass), `velocity` and `angular_velocity` (world frame,
/// at the centre of mass), `position` (the centre of mass), `dynamic`,
/// `asleep`; and the steps simulated.
pub fn state_json(world: &mut World) -> Value {
    let mut bodies: Vec<(Entity, Body)> =
        world.query::<(Entity, &Body)>().iter(world).map(|(e, b)| (e, b.clone())).collect();
    bodies.sort_by_key(|(e, _)| *e);
    let list: Vec<Value> = bodies
        .iter()
        .map(|(_, b)| {
            let own = b.pose.mul(&b.collider.own_frame());
            let pose =
                json!({"translation": own.translation.to_array(), "rotation": own.rotation.to_array()});
            json!({
                "shape": shape_json(&b.collider, pose),
                "position": b.pose.translation.to_array(),
                "velocity": b.vel.to_array(),
                "angular_velocity": b.ang_vel.to_array(),
                "dynamic": b.is_dynamic(),
                "asleep": b.asleep,
            })
        })
        .collect();
    let steps = world.get_resource::<StepCount>().map_or(0, |s| s.0);
    json!({"steps": steps, "bodies": list})
}

fn dump_on_exit(world: &mut World) {
    let exiting = world.get_resource::<Messages<AppExit>>().is_some_and(|m| !m.is_empty());
    if !exiting {
        return;
    }
    let Some(path) = world.get_resource::<DumpPath>().map(|p| p.0.clone()) else { return };
    let text = serde_json::to_string_pretty(&state_json(world)).unwrap_or_default();
    match std::fs::write(&path, text) {
        Ok(()) => info!("state written to {}", path.display()),
        Err(e) => error!("--dump-state {}: {e}", path.display()),
    }
}
