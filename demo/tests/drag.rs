//! Dragging, headless with `MinimalPlugins`: scripted drags (grab, move the
//! target over many frames, release) of every shape kind into every other,
//! into a pile and into the ground. Nothing may leave the ground's area
//! while dragged or in the second after release, sink below the ground,
//! turn NaN, leave the hand faster than `MAX_DRAG_SPEED`, be knocked
//! faster than twice that (an elastic push by a far heavier body at that
//! speed), or gain energy after release beyond the bound each test states.
//! (A ball pushed away rolls on without rolling resistance, and may roll
//! off the ground's edge later: that is no launch.)

use bevy::prelude::*;
use demo::physics::{self, Body, Collider, Dragged, FIXED_DT, LINEAR_SLOP, MAX_DRAG_SPEED, SimSettings};
use demo::scene::{GROUND_HALF, scene_bodies};
use gjk_shapes::{Ball, Capsule, ConvexHull, Cuboid, Cylinder, Pose};

/// Bodies farther than this from the origin (horizontally) have left the
/// ground's area.
const WORLD_RADIUS: f32 = GROUND_HALF.x;
/// The fastest any body but the dragged one may move: twice the drag's
/// speed bound.
const KNOCK_SPEED: f32 = 2.0 * MAX_DRAG_SPEED;
/// How far a body's lowest point may dip below the ground's top: ten slops
/// (the solver allows `LINEAR_SLOP` and corrects a fifth of the rest per
/// substep).
const SINK_ALLOWANCE: f32 = 10.0 * LINEAR_SLOP;

/// An app with only the simulation, and the ground.
fn sim_app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(physics::plugin);
    let ground = Collider::Cuboid(Cuboid::new(GROUND_HALF).unwrap());
    app.world_mut().spawn(Body::fixed(ground, Pose::from_translation(Vec3::new(0.0, -GROUND_HALF.y, 0.0))));
    app
}

/// Every shape kind the demo simulates, as a body resting on the ground
/// at `x` (its lowest point at y = 0.01).
fn kinds(x: f32) -> Vec<(&'static str, Body)> {
    let hull = ConvexHull::new(&[
        Vec3::new(0.5, -0.4, 0.3),
        Vec3::new(-0.5, -0.4, 0.3),
        Vec3::new(0.0, -0.4, -0.5),
        Vec3::new(0.1, 0.5, 0.0),
        Vec3::new(0.4, 0.1, -0.3),
    ])
    .unwrap();
    let colliders = [
        ("cuboid", Collider::Cuboid(Cuboid::new(Vec3::new(0.5, 0.4, 0.5)).unwrap())),
        ("ball", Collider::Ball(Ball::new(0.5).unwrap())),
        ("capsule", Collider::Capsule(Capsule::new(0.5, 0.35).unwrap())),
        ("cylinder", Collider::Cylinder(Cylinder::new(0.35, 0.4).unwrap())),
        ("cone", Collider::cone(0.45, 0.4).unwrap()),
        ("hull", Collider::Hull(std::sync::Arc::new(hull))),
    ];
    colliders
        .into_iter()
        .map(|(name, c)| {
            let lowest = c.shape().support(-Vec3::Y).y;
            (name, Body::dynamic(c, Pose::from_translation(Vec3::new(x, 0.01 - lowest, 0.0))))
        })
        .collect()
}

/// What a scripted drag observed.
#[derive(Debug, Default)]
struct Observed {
    /// Largest horizontal distance from the origin of any body, until a
    /// second after release.
    farthest: f32,
    /// Largest speed of any body but the dragged one.
    fastest: f32,
    /// Lowest point of any dynamic body.
    lowest: f32,
    /// Total energy at release, and the most it reached afterwards.
    at_release: f32,
    after_release: f32,
    /// Largest speed of the dragged body at release.
    release_speed: f32,
}

/// Grabs `dragged` at its centre, moves the target along `path` (one point
/// per fixed step), releases, then runs `settle` seconds; checks every
/// step that all is finite.
fn drag(app: &mut App, dragged: Entity, path: &[Vec3], settle: f32) -> Observed {
    let g = app.world().resource::<SimSettings>().gravity;
    let mut seen = Observed { lowest: f32::INFINITY, ..Observed::default() };
    // The total energy; `near`: whether the farthest body still counts.
    let observe = |w: &mut World, seen: &mut Observed, near: bool| {
        let mut energy = 0.0;
        for (e, b) in w.query::<(Entity, &Body)>().iter(w).filter(|(_, b)| b.is_dynamic()) {
            assert!(b.pose.is_valid() && b.vel.is_finite() && b.ang_vel.is_finite(), "not finite: {b:?}");
            let t = b.pose.translation;
            let over_ground = t.x.abs() < GROUND_HALF.x && t.z.abs() < GROUND_HALF.z;
            if near {
                seen.farthest = seen.farthest.max(t.with_y(0.0).length());
            }
            if e != dragged {
                seen.fastest = seen.fastest.max(b.vel.length());
            }
            if over_ground {
                let local = b.pose.inverse_transform_vector(-Vec3::Y);
                seen.lowest = seen.lowest.min(b.pose.transform_point(b.collider.shape().support(local)).y);
            }
            energy += b.energy(g);
        }
        energy
    };
    app.world_mut().entity_mut(dragged).insert(Dragged { grab_local: Vec3::ZERO, target: path[0] });
    for &target in path {
        app.world_mut().get_mut::<Dragged>(dragged).unwrap().target = target;
        app.world_mut().run_schedule(FixedUpdate);
        observe(app.world_mut(), &mut seen, true);
    }
    app.world_mut().entity_mut(dragged).remove::<Dragged>();
    seen.release_speed = app.world().get::<Body>(dragged).unwrap().vel.length();
    seen.at_release = observe(app.world_mut(), &mut seen, true);
    seen.after_release = seen.at_release;
    for k in 0..(settle / FIXED_DT) as usize {
        app.world_mut().run_schedule(FixedUpdate);
        let e = observe(app.world_mut(), &mut seen, k as f32 * FIXED_DT < 1.0);
        seen.after_release = seen.after_release.max(e);
    }
    seen
}

/// The checks every drag must pass.
fn check(app: &mut App, seen: &Observed, what: &str) {
    assert!(seen.farthest < WORLD_RADIUS, "{what}: left the ground's area: {seen:?}");
    assert!(seen.lowest > -SINK_ALLOWANCE, "{what}: sank: {seen:?}");
    assert!(seen.release_speed <= MAX_DRAG_SPEED * 1.001, "{what}: released too fast: {seen:?}");
    assert!(seen.fastest <= KNOCK_SPEED, "{what}: launched: {seen:?}");
    let bound = energy_bound(app, seen.at_release);
    assert!(seen.after_release <= bound, "{what}: energy over {bound}: {seen:?}");
}

/// A straight path from `from` to `to` over `seconds`, then held there
/// for `hold` seconds.
fn path(from: Vec3, to: Vec3, seconds: f32, hold: f32) -> Vec<Vec3> {
    let n = (seconds / FIXED_DT) as usize;
    let mut p: Vec<Vec3> = (1..=n).map(|k| from.lerp(to, k as f32 / n as f32)).collect();
    p.extend(std::iter::repeat_n(to, (hold / FIXED_DT) as usize));
    p
}

/// The energy a body may gain after release: what lifting every dynamic
/// body out of the deepest overlap the drag left (`SINK_ALLOWANCE`) costs,
/// as the position correction may do, plus 1 % of the energy at release.
fn energy_bound(app: &mut App, at_release: f32) -> f32 {
    let g = app.world().resource::<SimSettings>().gravity;
    let w = app.world_mut();
    let lift: f32 =
        w.query::<&Body>().iter(w).filter(|b| b.is_dynamic()).map(|b| g * SINK_ALLOWANCE / b.inv_mass).sum();
    at_release + lift + 0.01 * at_release.abs()
}

/// Every kind dragged into every other: lifted, pushed through the other's
/// place at a fifth of a metre above the ground, held there, released.
#[test]
fn drag_every_kind_into_every_other() {
    for k in 0..6 {
        for j in 0..6 {
            let mut app = sim_app();
            let (name, mover) = kinds(-3.0).swap_remove(k);
            let (other_name, other) = kinds(0.0).swap_remove(j);
            let start = mover.pose.translation;
            let mover = app.world_mut().spawn(mover).id();
            app.world_mut().spawn(other);
            let into = Vec3::new(0.6, 0.2, 0.0);
            let route =
                [path(start, start + Vec3::Y, 0.3, 0.0), path(start + Vec3::Y, into, 1.0, 0.7)].concat();
            let seen = drag(&mut app, mover, &route, 3.0);
            check(&mut app, &seen, &format!("{name} into {other_name}"));
        }
    }
}

/// A box driven down into the ground (its target a metre below it) and a
/// ball caught between a dragged box and the ground: neither goes through.
#[test]
fn drag_into_the_ground_cannot_force_a_body_through() {
    let mut app = sim_app();
    let (_, cube) = kinds(0.0).swap_remove(0);
    let start = cube.pose.translation;
    let cube = app.world_mut().spawn(cube).id();
    let seen = drag(&mut app, cube, &path(start, start - 1.5 * Vec3::Y, 0.5, 1.5), 2.0);
    check(&mut app, &seen, "a box into the ground");

    let mut app = sim_app();
    let (_, ball) = kinds(0.0).swap_remove(1);
    app.world_mut().spawn(ball);
    let (_, cube) = kinds(0.0).swap_remove(0);
    let above = cube.pose.translation + Vec3::Y * 1.2;
    let cube = app.world_mut().spawn(Body { pose: Pose::from_translation(above), ..cube }).id();
    let seen = drag(&mut app, cube, &path(above, above - 3.0 * Vec3::Y, 0.5, 1.5), 2.0);
    check(&mut app, &seen, "a box pressing a ball into the ground");
}

/// A cuboid dragged fast into a pile of five boxes, side-on at mid height,
/// and released there: the pile may fall, but nothing is launched.
#[test]
fn drag_into_a_pile() {
    let mut app = sim_app();
    for k in 0..5 {
        let at = Vec3::new(0.0, 0.41 + 0.82 * k as f32, 0.0);
        app.world_mut().spawn(Body::dynamic(
            Collider::Cuboid(Cuboid::new(Vec3::new(0.5, 0.4, 0.5)).unwrap()),
            Pose::from_translation(at),
        ));
    }
    // Let the pile settle first.
    for _ in 0..60 {
        app.world_mut().run_schedule(FixedUpdate);
    }
    let (_, cube) = kinds(-4.0).swap_remove(0);
    let start = cube.pose.translation;
    let cube = app.world_mut().spawn(cube).id();
    let mid = Vec3::new(1.0, 2.0, 0.0);
    let route =
        [path(start, start + 1.6 * Vec3::Y, 0.3, 0.0), path(start + 1.6 * Vec3::Y, mid, 0.4, 0.5)].concat();
    let seen = drag(&mut app, cube, &route, 4.0);
    check(&mut app, &seen, "a box into a pile");
}

/// The reported case: in the default scene, the capsule dragged into the
/// ball and let go (three times, at three speeds, each from a fresh
/// scene as after a reset): the ball is pushed, not launched.
#[test]
fn drag_the_capsule_into_the_ball_and_let_go() {
    for round in 0..3 {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins).add_plugins(physics::plugin);
        let ids: Vec<(Entity, Collider)> = scene_bodies(6)
            .into_iter()
            .map(|b| {
                let c = b.collider.clone();
                (app.world_mut().spawn(b).id(), c)
            })
            .collect();
        let find = |want: fn(&Collider) -> bool| ids.iter().find(|(_, c)| want(c)).unwrap().0;
        let capsule = find(|c| matches!(c, Collider::Capsule(_)));
        let ball = find(|c| matches!(c, Collider::Ball(_)));
        for _ in 0..90 {
            app.world_mut().run_schedule(FixedUpdate);
        }
        let from = app.world().get::<Body>(capsule).unwrap().pose.translation;
        let at = app.world().get::<Body>(ball).unwrap().pose.translation;
        let beyond = at + (at - from).normalize() * 0.8 + Vec3::Y * 0.1 * round as f32;
        let seen = drag(&mut app, capsule, &path(from, beyond, 0.4 + 0.2 * round as f32, 0.3), 3.0);
        check(&mut app, &seen, &format!("round {round}"));
    }
}
