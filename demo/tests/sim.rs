//! The simulation, headless with `MinimalPlugins`: resting, stacking, no
//! tunnelling through the ground, no energy gain.

use bevy::prelude::*;
use demo::physics::{self, Body, Collider, FIXED_DT, SimSettings};
use demo::scene::{GROUND_HALF, scene_bodies};
use gjk_shapes::{Cuboid, Pose};

/// An app with only the simulation, and the ground.
fn sim_app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(physics::plugin);
    let ground = Collider::Cuboid(Cuboid::new(GROUND_HALF).unwrap());
    app.world_mut().spawn(Body::fixed(ground, Pose::from_translation(Vec3::new(0.0, -GROUND_HALF.y, 0.0))));
    app
}

fn cube(half: f32, at: Vec3, yaw: f32) -> Body {
    Body::dynamic(
        Collider::Cuboid(Cuboid::new(Vec3::splat(half)).unwrap()),
        Pose::new(Quat::from_rotation_y(yaw), at),
    )
}

/// Runs `seconds` of simulated time, one fixed step per schedule run,
/// calling `each` after every step.
fn run(app: &mut App, seconds: f32, mut each: impl FnMut(&mut World)) {
    let steps = (seconds / FIXED_DT).round() as usize;
    for _ in 0..steps {
        app.world_mut().run_schedule(FixedUpdate);
        each(app.world_mut());
    }
}

fn bodies(world: &mut World) -> Vec<Body> {
    world.query::<&Body>().iter(world).filter(|b| b.is_dynamic()).cloned().collect()
}

#[test]
fn dropped_box_comes_to_rest_and_stays() {
    let mut app = sim_app();
    app.world_mut().spawn(cube(0.5, Vec3::new(0.3, 3.0, -0.2), 0.4));
    let mut lowest = f32::INFINITY;
    run(&mut app, 3.0, |w| lowest = lowest.min(bodies(w)[0].pose.translation.y));
    let rest = bodies(app.world_mut())[0].clone();
    // Resting on a face: centre at the half extent, within the slop.
    assert!((rest.pose.translation.y - 0.5).abs() < 0.02, "rest height {}", rest.pose.translation.y);
    assert!(
        rest.vel.length() < 0.05 && rest.ang_vel.length() < 0.1,
        "still moving: {:?} {:?}",
        rest.vel,
        rest.ang_vel
    );
    assert!(lowest > 0.5 - 0.05, "sank to {lowest}");
    // And stays there for another 5 s, with no drift.
    run(&mut app, 5.0, |_| {});
    let later = bodies(app.world_mut())[0].clone();
    assert!(
        later.pose.translation.distance(rest.pose.translation) < 0.01,
        "drifted to {:?}",
        later.pose.translation
    );
}

#[test]
fn stack_of_five_stands_for_ten_seconds() {
    let mut app = sim_app();
    for i in 0..5 {
        app.world_mut().spawn(cube(
            0.5,
            Vec3::new(0.0, 0.5 + 1.0 * i as f32 + 0.01 * i as f32, 0.0),
            0.05 * i as f32,
        ));
    }
    let start = bodies(app.world_mut());
    run(&mut app, 10.0, |_| {});
    let end = bodies(app.world_mut());
    for (a, b) in start.iter().zip(&end) {
        let d = (b.pose.translation - a.pose.translation).with_y(0.0).length();
        assert!(d < 0.05, "box moved sideways by {d}");
        assert!((b.pose.translation.y - a.pose.translation.y).abs() < 0.06, "box moved vertically");
    }
    let top = end.iter().map(|b| b.pose.translation.y).fold(0.0, f32::max);
    assert!(top > 4.4, "the stack fell: top at {top}");
}

#[test]
fn nothing_passes_through_the_ground_and_energy_does_not_grow() {
    let mut app = sim_app();
    // The full demo scene, dropped from its start poses.
    for b in scene_bodies(8).into_iter().filter(|b| b.is_dynamic()) {
        app.world_mut().spawn(b);
    }
    app.world_mut().resource_mut::<SimSettings>().restitution = 0.0;
    let g = app.world().resource::<SimSettings>().gravity;
    let energy = |w: &mut World| bodies(w).iter().map(|b| b.energy(g)).sum::<f32>();
    let mut prev = energy(app.world_mut());
    let start = prev;
    let mut worst_gain = 0.0f32;
    run(&mut app, 8.0, |w| {
        for b in bodies(w) {
            // The body's lowest point (its support along −Y) stays above
            // the ground's top (y = 0), give or take ten times the slop.
            let local = b.pose.inverse_transform_vector(-Vec3::Y);
            let lowest = b.pose.transform_point(b.collider.shape().support(local)).y;
            assert!(
                lowest > -10.0 * physics::LINEAR_SLOP,
                "a body sank to {lowest}: {:?}",
                b.pose.translation
            );
        }
        let e = energy(w);
        worst_gain = worst_gain.max(e - prev);
        prev = e;
    });
    // Tolerance: 1 % of the starting energy per step for rounding and
    // contact activation; the total must not rise.
    assert!(worst_gain < 0.01 * start.abs().max(1.0), "energy jumped by {worst_gain}");
    assert!(prev <= start + 1e-3 * start.abs(), "energy grew from {start} to {prev}");
}

/// A capsule dropped nearly level lands on one end, tips over and comes to
/// rest lying down: its axis level, its centre a radius up, still. Its
/// manifold with the ground has both ends of its core (gjk-epa's capsule
/// faces); with the single deepest point before, the resting capsule kept
/// moving (up to 0.095 m/s over the last 3 s).
#[test]
fn dropped_capsule_comes_to_rest_lying_down() {
    use gjk_shapes::Capsule;
    let mut app = sim_app();
    let (half_height, radius) = (0.6, 0.25);
    let lying = Quat::from_rotation_y(0.7) * Quat::from_rotation_z(std::f32::consts::FRAC_PI_2 - 0.15);
    let capsule = Collider::Capsule(Capsule::new(half_height, radius).unwrap());
    app.world_mut().spawn(Body::dynamic(capsule, Pose::new(lying, Vec3::new(0.4, 1.5, -0.3))));
    run(&mut app, 4.0, |_| {});
    let rest = bodies(app.world_mut())[0].clone();
    let axis = rest.pose.rotation * Vec3::Y;
    assert!(axis.y.abs() < 0.02, "not lying level: axis {axis:?}");
    assert!((rest.pose.translation.y - radius).abs() < 0.02, "rest height {}", rest.pose.translation.y);
    // Still for another 3 s: no rocking from end to end, no creeping.
    let mut worst = 0.0f32;
    run(&mut app, 3.0, |w| {
        let b = bodies(w)[0].clone();
        worst = worst.max(b.vel.length() + b.ang_vel.length() * half_height);
    });
    let later = bodies(app.world_mut())[0].clone();
    assert!(worst < 0.05, "kept moving: up to {worst} m/s");
    assert!(
        later.pose.translation.distance(rest.pose.translation) < 0.01,
        "drifted to {:?}",
        later.pose.translation
    );
}

/// A cone dropped base down comes to rest standing on its base (four
/// rim points), its body's origin, its centre of mass, a quarter of its
/// height up, and still; it turns about that centre, not the middle of
/// its height.
#[test]
fn dropped_cone_comes_to_rest_on_its_base() {
    let (half_height, radius) = (0.4, 0.45);
    let mut app = sim_app();
    let q = Quat::from_rotation_y(0.4) * Quat::from_rotation_z(0.12);
    let cone = Collider::cone(half_height, radius).unwrap();
    app.world_mut().spawn(Body::dynamic(cone, Pose::new(q, Vec3::new(0.3, 1.2, -0.2))));
    run(&mut app, 4.0, |_| {});
    let rest = bodies(app.world_mut())[0].clone();
    let axis = rest.pose.rotation * Vec3::Y;
    let ctx = format!("axis {axis:?}, centre {:?}", rest.pose.translation);
    assert!(axis.y > 0.999, "not standing: {ctx}");
    assert!((rest.pose.translation.y - 0.5 * half_height).abs() < 0.02, "rest height: {ctx}");
    let mut worst = 0.0f32;
    run(&mut app, 2.0, |w| {
        let b = bodies(w)[0].clone();
        worst = worst.max(b.vel.length() + b.ang_vel.length() * 1.5 * half_height);
    });
    assert!(worst < 0.05, "kept moving: up to {worst} m/s ({ctx})");
}

/// A cylinder dropped upright onto the ground comes to rest standing on
/// its cap (the manifold's four rim points hold it: gjk-epa's cylinder
/// faces), its centre half its height up; one dropped lying down comes to
/// rest on its side, its centre a radius up (the two ends of its lowest
/// line), in either case still.
#[test]
fn dropped_cylinders_come_to_rest_standing_or_lying() {
    use gjk_shapes::Cylinder;
    let (half_height, radius) = (0.4, 0.3);
    for (lying, height) in [(false, half_height), (true, radius)] {
        let mut app = sim_app();
        let tilt = if lying { std::f32::consts::FRAC_PI_2 - 0.1 } else { 0.1 };
        let q = Quat::from_rotation_y(0.4) * Quat::from_rotation_z(tilt);
        let cylinder = Collider::Cylinder(Cylinder::new(half_height, radius).unwrap());
        app.world_mut().spawn(Body::dynamic(cylinder, Pose::new(q, Vec3::new(0.3, 1.2, -0.2))));
        run(&mut app, 4.0, |_| {});
        let rest = bodies(app.world_mut())[0].clone();
        let axis = rest.pose.rotation * Vec3::Y;
        let ctx = format!("lying {lying}: axis {axis:?}, centre {:?}", rest.pose.translation);
        if lying {
            assert!(axis.y.abs() < 0.02, "not lying level: {ctx}");
        } else {
            assert!(axis.y.abs() > 0.999, "not standing: {ctx}");
        }
        assert!((rest.pose.translation.y - height).abs() < 0.02, "rest height: {ctx}");
        let mut worst = 0.0f32;
        run(&mut app, 2.0, |w| {
            let b = bodies(w)[0].clone();
            worst = worst.max(b.vel.length() + b.ang_vel.length() * half_height.max(radius));
        });
        assert!(worst < 0.05, "kept moving: up to {worst} m/s ({ctx})");
    }
}

/// A pile of three logs (capsules lying along x): two side by side on the
/// ground, one in the groove on top. Each pair of logs lies along each
/// other, and their manifold is the two ends of the common stretch
/// (gjk-epa's lines side by side), so the top log rests level, at
/// `r + √3 r`, and still. With the contact's one point per pair, it sank
/// 0.03 (12 % of its radius) into the groove and tilted by 0.008 rad,
/// still creeping after 8 s.
#[test]
fn a_pile_of_logs_rests_level() {
    use gjk_shapes::Capsule;
    let mut app = sim_app();
    let (half_height, radius) = (1.0, 0.25);
    let log = || Collider::Capsule(Capsule::new(half_height, radius).unwrap());
    let along_x = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    for z in [-radius, radius] {
        app.world_mut().spawn(Body::dynamic(log(), Pose::new(along_x, Vec3::new(0.0, radius, z))));
    }
    let rest_y = radius + 3f32.sqrt() * radius;
    let top = app
        .world_mut()
        .spawn(Body::dynamic(log(), Pose::new(along_x, Vec3::new(0.3, rest_y + 0.01, 0.0))))
        .id();
    run(&mut app, 6.0, |_| {});
    let mut worst = 0.0f32;
    run(&mut app, 2.0, |w| {
        let b = w.get::<Body>(top).unwrap();
        worst = worst.max(b.vel.length() + b.ang_vel.length() * half_height);
    });
    let b = app.world().get::<Body>(top).unwrap().clone();
    let axis = b.pose.rotation * Vec3::Y;
    let ctx = format!("top log at {:?}, axis {axis:?}", b.pose.translation);
    assert!((b.pose.translation.y - rest_y).abs() < 0.005, "rest height {rest_y}: {ctx}");
    assert!(axis.y.abs() < 1e-3 && axis.z.abs() < 1e-3, "not level along x: {ctx}");
    assert!(worst < 0.005, "kept moving: up to {worst} m/s ({ctx})");
}

/// A box sliding fast over the ground (10 m/s: 0.08 m a substep, more
/// than the 0.05 m within which the demo used to match a point with last
/// step's) hands its contact points' impulses on from step to step: they
/// are matched by their feature ids (`gjk_epa::ManifoldPoint::id`). Before,
/// every step started its points from zero.
#[test]
fn a_box_sliding_fast_hands_on_its_impulses() {
    let mut app = sim_app();
    app.world_mut().resource_mut::<SimSettings>().friction = 0.05;
    let mut b = cube(0.5, Vec3::new(-6.0, 0.5 - 0.002, 0.0), 0.3);
    b.vel = Vec3::new(10.0, 0.0, 0.0);
    app.world_mut().spawn(b);
    let (mut points, mut carried) = (0, 0);
    let mut first = true;
    run(&mut app, 0.5, |w| {
        if std::mem::take(&mut first) {
            // The first step has nothing to hand on.
            return;
        }
        for p in w.resource::<physics::Contacts>().pairs.iter().flat_map(|pair| &pair.points) {
            points += 1;
            carried += usize::from(p.carried);
        }
    });
    let end = bodies(app.world_mut())[0].clone();
    assert!(end.vel.x > 8.0 && end.pose.translation.x > -2.0, "not sliding: {:?}", end);
    assert!(points >= 4 * 28, "{points} contact points in 29 steps");
    assert_eq!(carried, points, "{carried} of {points} points carried on");
}

/// The orbit camera turns by the cursor's motion between frames (no raw
/// device motion needed): a window whose cursor moves 100 px right and
/// 50 px down with the right button held turns the camera by
/// `ORBIT_SPEED` per pixel; without the button it does not turn.
#[test]
fn camera_orbits_from_cursor_motion() {
    use bevy::window::PrimaryWindow;
    use demo::interaction::{ORBIT_SPEED, orbit_camera};
    use demo::scene::OrbitCamera;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(bevy::input::InputPlugin).add_systems(Update, orbit_camera);
    let window = app.world_mut().spawn((Window::default(), PrimaryWindow)).id();
    let start = OrbitCamera { focus: Vec3::ZERO, yaw: 0.3, pitch: 0.5, distance: 10.0 };
    let cam = app.world_mut().spawn((start, Transform::default())).id();
    let move_to = |app: &mut App, at: Vec2, held: bool| {
        app.world_mut().get_mut::<Window>(window).unwrap().set_cursor_position(Some(at));
        let mut buttons = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        if held {
            buttons.press(MouseButton::Right);
        } else {
            buttons.release(MouseButton::Right);
        }
        app.update();
        *app.world().get::<OrbitCamera>(cam).unwrap()
    };
    // Moves without the button: no turn.
    move_to(&mut app, Vec2::new(300.0, 200.0), false);
    let idle = move_to(&mut app, Vec2::new(350.0, 260.0), false);
    assert_eq!((idle.yaw, idle.pitch), (start.yaw, start.pitch));
    // Held: the first frame only takes the position, then each frame turns
    // by the motion since the last.
    let mut now = Vec2::new(350.0, 260.0);
    move_to(&mut app, now, true);
    for _ in 0..10 {
        now += Vec2::new(10.0, 5.0);
        move_to(&mut app, now, true);
    }
    let turned = *app.world().get::<OrbitCamera>(cam).unwrap();
    assert!((turned.yaw - (start.yaw - 100.0 * ORBIT_SPEED)).abs() < 1e-5, "{turned:?}");
    assert!((turned.pitch - (start.pitch + 50.0 * ORBIT_SPEED)).abs() < 1e-5, "{turned:?}");
    // Released: further motion does not turn it.
    let after = move_to(&mut app, now + Vec2::new(80.0, 0.0), false);
    assert_eq!(after.yaw, turned.yaw);
}

/// `--dump-state`: on exit, every body's shape (in the scene format: each
/// reads back through `gjk_scene::parse_scene`), pose and velocity, as the
/// simulation holds them.
#[test]
fn dump_state_writes_every_body_on_exit() {
    let path = std::env::temp_dir().join(format!("demo-dump-{}.json", std::process::id()));
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(physics::plugin)
        .add_plugins(demo::dump::plugin(path.clone()));
    for b in scene_bodies(4) {
        app.world_mut().spawn(b);
    }
    run(&mut app, 0.5, |_| {});
    app.world_mut().write_message(AppExit::Success);
    app.update();
    let text = std::fs::read_to_string(&path).expect("the dump");
    std::fs::remove_file(&path).ok();
    let dump: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut held: Vec<(Entity, Body)> =
        app.world_mut().query::<(Entity, &Body)>().iter(app.world()).map(|(e, b)| (e, b.clone())).collect();
    held.sort_by_key(|(e, _)| *e);
    let list = dump["bodies"].as_array().unwrap();
    assert_eq!(list.len(), held.len());
    assert!(dump["steps"].as_u64().unwrap() >= 30, "{}", dump["steps"]);
    let v3 = |v: &serde_json::Value| Vec3::from_array([0, 1, 2].map(|k| v[k].as_f64().unwrap() as f32));
    for ((_, b), d) in held.iter().zip(list) {
        assert_eq!(v3(&d["position"]), b.pose.translation);
        assert_eq!(v3(&d["velocity"]), b.vel);
        assert_eq!(v3(&d["angular_velocity"]), b.ang_vel);
        assert_eq!(d["dynamic"], b.is_dynamic());
        // The shape reads as a scene file's shape A.
        let scene =
            format!(r#"{{"dim": 3, "a": {}, "b": {{"shape": "point"}}, "query": "distance"}}"#, d["shape"]);
        gjk_scene::parse_scene(&scene).unwrap_or_else(|e| panic!("{}: {e}", d["shape"]));
    }
}
