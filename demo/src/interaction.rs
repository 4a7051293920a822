//! Mouse interaction: pick a body with our own ray cast, drag it on a plane
//! facing the camera, orbit (right button) and zoom (wheel) the camera.
//! The orbit follows the cursor's position from frame to frame, not raw
//! device motion, so it works with every pointer (a tablet, a remote
//! desktop, synthetic events under Xvfb).

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use gjk_shapes::cast_ray;

use crate::physics::{Body, Dragged};
use crate::scene::OrbitCamera;

/// Radians of orbit per pixel of mouse motion.
pub const ORBIT_SPEED: f32 = 0.006;
/// Zoom factor per wheel line.
pub const ZOOM_STEP: f32 = 0.9;
/// Closest and farthest camera distances.
pub const ZOOM_RANGE: (f32, f32) = (3.0, 60.0);

/// The selected body (the last one clicked) and the drag plane.
#[derive(Resource, Default, Debug)]
pub struct Selection {
    /// The selected body, whose pairs the overlay measures.
    pub selected: Option<Entity>,
    /// Distance of the drag plane along the camera's view direction.
    pub drag_depth: Option<f32>,
}

/// Picking, dragging and the orbit camera.
pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>().add_systems(Update, (pick_and_drag, orbit_camera));
}

/// The cursor position of the last frame the orbit button was held.
#[derive(Default)]
pub struct LastCursor(Option<Vec2>);

/// Turns the orbit by the cursor's motion since the last frame the orbit
/// button was held (`cursor`: where it is now, `None` outside the window).
pub fn orbit_by_cursor(orbit: &mut OrbitCamera, last: &mut LastCursor, cursor: Option<Vec2>, held: bool) {
    if let (true, Some(now), Some(before)) = (held, cursor, last.0) {
        let delta = now - before;
        orbit.yaw -= delta.x * ORBIT_SPEED;
        orbit.pitch = (orbit.pitch + delta.y * ORBIT_SPEED).clamp(0.05, 1.5);
    }
    last.0 = if held { cursor } else { None };
}

/// The world-space ray under the cursor.
fn cursor_ray(window: &Window, camera: &Camera, cam_t: &GlobalTransform) -> Option<Ray3d> {
    let cursor = window.cursor_position()?;
    camera.viewport_to_world(cam_t, cursor).ok()
}

fn pick_and_drag(
    mut commands: Commands,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    egui_input: Option<Res<EguiWantsInput>>,
    mut selection: ResMut<Selection>,
    mut bodies: Query<(Entity, &mut Body, Option<&mut Dragged>)>,
) {
    let (camera, cam_t) = *camera;
    let Some(ray) = cursor_ray(&window, camera, cam_t) else { return };
    let over_ui = egui_input.is_some_and(|w| w.wants_pointer_input());
    if buttons.just_pressed(MouseButton::Left) && !over_ui {
        // Nearest hit of the cursor ray over all movable bodies.
        let mut best: Option<(Entity, f32, Vec3)> = None;
        for (e, body, _) in &bodies {
            if !body.is_dynamic() {
                continue;
            }
            let Some(hit) = cast_ray(body.collider.shape(), &body.pose, ray.origin, *ray.direction, 1000.0)
            else {
                continue;
            };
            if hit.is_hit() && best.is_none_or(|b| hit.fraction < b.1) {
                best = Some((e, hit.fraction, hit.point_a));
            }
        }
        if let Some((e, _, point)) = best
            && let Ok((_, mut body, _)) = bodies.get_mut(e)
        {
            selection.selected = Some(e);
            selection.drag_depth = Some((point - cam_t.translation()).dot(*cam_t.forward()));
            body.asleep = false;
            commands
                .entity(e)
                .insert(Dragged { grab_local: body.pose.inverse_transform_point(point), target: point });
        }
    }
    if buttons.pressed(MouseButton::Left)
        && let (Some(depth), Some(e)) = (selection.drag_depth, selection.selected)
        && let Ok((_, _, Some(mut drag))) = bodies.get_mut(e)
    {
        // The cursor ray meets the plane facing the camera at the grab depth.
        let along = ray.direction.dot(*cam_t.forward());
        if along > 1e-4 {
            let t = depth / along;
            let mut target = ray.origin + *ray.direction * t;
            target.y = target.y.max(0.05);
            drag.target = target;
        }
    }
    if buttons.just_released(MouseButton::Left) {
        selection.drag_depth = None;
        for (e, _, d) in &bodies {
            if d.is_some() {
                commands.entity(e).remove::<Dragged>();
            }
        }
    }
}

/// Orbit (right button held, from cursor positions) and zoom (wheel).
pub fn orbit_camera(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    scroll: Res<AccumulatedMouseScroll>,
    egui_input: Option<Res<EguiWantsInput>>,
    mut last: Local<LastCursor>,
    mut cam: Query<(&mut OrbitCamera, &mut Transform)>,
) {
    let over_ui = egui_input.is_some_and(|w| w.wants_pointer_input());
    for (mut orbit, mut t) in &mut cam {
        // An orbit started over the panel is the panel's.
        let held = buttons.pressed(MouseButton::Right) && (last.0.is_some() || !over_ui);
        orbit_by_cursor(&mut orbit, &mut last, window.cursor_position(), held);
        if scroll.delta.y != 0.0 && !over_ui {
            orbit.distance =
                (orbit.distance * ZOOM_STEP.powf(scroll.delta.y)).clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        }
        *t = orbit.transform();
    }
}
