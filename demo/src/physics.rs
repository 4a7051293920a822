//! Our own rigid-body step: gravity, contacts from gjk-epa (manifolds for
//! polytope pairs), sequential impulses with friction, restitution and warm
//! starting, split-impulse position correction (no energy added), sleeping.

use std::sync::Arc;

use bevy::prelude::*;
use gjk_epa::{
    ContactStatus, EpaConfig, ManifoldWorkspace, PolyhedronFaces, contact_with, polytope_manifold_with,
};
use gjk_shapes::gjk_core::GjkConfig;
use gjk_shapes::{Ball, Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Shape, ShapeError, Transformed};

/// Fixed simulation step (seconds).
pub const FIXED_DT: f32 = 1.0 / 60.0;
/// Substeps per fixed step.
pub const SUBSTEPS: usize = 2;
/// Velocity solver iterations per substep.
pub const VELOCITY_ITERATIONS: usize = 12;
/// Contacts are built for pairs closer than this (speculative contacts).
pub const SPECULATIVE_DISTANCE: f32 = 0.05;
/// Penetration allowed without position correction.
pub const LINEAR_SLOP: f32 = 0.005;
/// Fraction of the penetration corrected per substep (split impulse).
pub const POSITION_CORRECTION: f32 = 0.2;
/// Approach speed below which contacts do not bounce.
pub const RESTITUTION_THRESHOLD: f32 = 1.0;
/// A body slower than these for `SLEEP_TIME` goes to sleep.
pub const SLEEP_LINEAR: f32 = 0.04;
/// Angular counterpart of `SLEEP_LINEAR` (rad/s).
pub const SLEEP_ANGULAR: f32 = 0.08;
/// Seconds of stillness before sleeping.
pub const SLEEP_TIME: f32 = 0.5;
/// The grab is a soft constraint (Box2D's mouse joint): a spring of this
/// frequency (Hz) pulls the grab point to the cursor.
pub const DRAG_FREQUENCY: f32 = 5.0;
/// Damping ratio of the grab's spring (1: critically damped).
pub const DRAG_DAMPING_RATIO: f32 = 0.7;
/// Largest force of the grab per unit of the body's mass (m/s², about
/// 20 g): it lifts and pushes, but cannot crush a body through another or
/// through the ground (`drag_into_the_ground_cannot_force_a_body_through`).
pub const MAX_DRAG_ACCELERATION: f32 = 200.0;
/// Angular damping of a dragged body (1/s), so that it hangs still.
pub const DRAG_ANGULAR_DAMPING: f32 = 4.0;
/// Fastest a dragged body moves (m/s), and so the fastest it leaves the
/// hand on release.
pub const MAX_DRAG_SPEED: f32 = 10.0;
/// Fastest a dragged body turns (rad/s).
pub const MAX_DRAG_SPIN: f32 = 10.0;
/// A contact point with no id in last step's points takes the impulses of
/// last step's point nearest it within this distance: a manifold reduced
/// to four of its clipped points, or a reference face that changed sides,
/// names nearby points by other features.
pub const WARM_START_RADIUS: f32 = 0.05;

/// A collision shape.
#[derive(Clone, Debug)]
pub enum Collider {
    /// A box.
    Cuboid(Cuboid<Vec3>),
    /// A sphere.
    Ball(Ball<f32>),
    /// A capsule along local Y.
    Capsule(Capsule<f32>),
    /// A cylinder along local Y (exact: its caps are faces of eight rim
    /// points, its side a line).
    Cylinder(Cylinder<f32>),
    /// A cone along local Y, apex up, shifted so that its centre of mass
    /// (a quarter of its height above its base) is the body's origin: the
    /// body turns about it. Build it with [`Collider::cone`].
    Cone(Transformed<Cone<f32>, Vec3>),
    /// A convex hull.
    Hull(Arc<ConvexHull<Vec3>>),
}

impl Collider {
    /// A cone of half height `h` (apex at `+h`, base at `−h` in its own
    /// frame) and base radius `r`, its own frame `cone_offset` above the
    /// body's origin.
    pub fn cone(h: f32, r: f32) -> Result<Self, ShapeError> {
        let cone = Cone::new(h, r)?;
        Transformed::new(cone, Pose::from_translation(Vec3::Y * (0.5 * h))).map(Collider::Cone)
    }

    /// Where the shape's own frame lies in the body's: at the origin for
    /// every shape but a cone, whose centre of mass, `h / 2` below its own
    /// origin, is the body's.
    pub fn own_frame(&self) -> Pose<Vec3> {
        match self {
            Collider::Cone(c) => c.pose(),
            _ => Pose::IDENTITY,
        }
    }

    /// The shape as a trait object.
    pub fn shape(&self) -> &dyn Shape<Vec3> {
        match self {
            Collider::Cuboid(c) => c,
            Collider::Ball(b) => b,
            Collider::Capsule(c) => c,
            Collider::Cylinder(c) => c,
            Collider::Cone(c) => c,
            Collider::Hull(h) => h.as_ref(),
        }
    }

    /// The shape's faces, for contact manifolds (a capsule's are its core
    /// segment's ends, a ball's its centre: a capsule lying on a box gets
    /// two points).
    pub fn faces(&self) -> &dyn PolyhedronFaces<Vec3> {
        match self {
            Collider::Cuboid(c) => c,
            Collider::Ball(b) => b,
            Collider::Capsule(c) => c,
            Collider::Cylinder(c) => c,
            Collider::Cone(c) => c,
            Collider::Hull(h) => h.as_ref(),
        }
    }

    /// Radius of a ball around the local origin holding the shape.
    pub fn bounding_radius(&self) -> f32 {
        match self {
            Collider::Cuboid(c) => c.half_extents().length(),
            Collider::Ball(b) => b.radius(),
            Collider::Capsule(c) => c.half_height() + c.radius(),
            Collider::Cylinder(c) => c.half_height().hypot(c.disc_radius()),
            // The apex, 3h/2 up, or the base's rim, h/2 down.
            Collider::Cone(c) => {
                (1.5 * c.shape.half_height()).max((0.5 * c.shape.half_height()).hypot(c.shape.base_radius()))
            }
            Collider::Hull(h) => h.vertices().iter().map(|v| v.length()).fold(0.0, f32::max),
        }
    }

    /// Mass and principal inertia (density 1, inertia about the origin).
    pub fn mass_properties(&self) -> (f32, Vec3) {
        let box_props = |h: Vec3| {
            let m = 8.0 * h.x * h.y * h.z;
            (m, Vec3::new(h.y * h.y + h.z * h.z, h.x * h.x + h.z * h.z, h.x * h.x + h.y * h.y) * (m / 3.0))
        };
        match self {
            Collider::Cuboid(c) => box_props(c.half_extents()),
            Collider::Ball(b) => {
                let m = 4.0 / 3.0 * std::f32::consts::PI * b.radius().powi(3);
                (m, Vec3::splat(0.4 * m * b.radius() * b.radius()))
            }
            Collider::Capsule(c) => {
                box_props(Vec3::new(c.radius(), c.half_height() + c.radius(), c.radius()))
            }
            Collider::Cylinder(c) => {
                // A solid cylinder: `m r² / 2` about its axis, `m (3 r² +
                // H²) / 12` across it (height `H = 2 h`).
                let (r2, h) = (c.disc_radius() * c.disc_radius(), c.half_height());
                let m = std::f32::consts::PI * r2 * 2.0 * h;
                let across = m * (3.0 * r2 + 4.0 * h * h) / 12.0;
                (m, Vec3::new(across, 0.5 * m * r2, across))
            }
            Collider::Cone(c) => {
                // A solid cone about its centre of mass: `3 m r² / 10`
                // about its axis, `3 m (r² + h²) / 20` across it (`3 m (r²
                // / 20 + H² / 80)` for the height `H = 2 h`).
                let (r2, h) = (c.shape.base_radius() * c.shape.base_radius(), c.shape.half_height());
                let m = std::f32::consts::PI * r2 * 2.0 * h / 3.0;
                let across = 0.15 * m * (r2 + h * h);
                (m, Vec3::new(across, 0.3 * m * r2, across))
            }
            Collider::Hull(h) => {
                let ext = h.vertices().iter().fold(Vec3::ZERO, |e, v| e.max(v.abs()));
                let (m, i) = box_props(ext);
                // A hull fills roughly half its bounding box.
                (m * 0.5, i * 0.5)
            }
        }
    }
}

/// A simulated body.
#[derive(Component, Clone, Debug)]
pub struct Body {
    /// Position and orientation.
    pub pose: Pose<Vec3>,
    /// Linear velocity.
    pub vel: Vec3,
    /// Angular velocity (world frame).
    pub ang_vel: Vec3,
    /// 1 / mass (0 for static bodies).
    pub inv_mass: f32,
    /// Inverse principal inertia in the body frame.
    pub inv_inertia: Vec3,
    /// The shape.
    pub collider: Collider,
    /// Seconds spent below the sleep thresholds.
    pub still_time: f32,
    /// Whether the body is asleep (skipped until touched).
    pub asleep: bool,
}

impl Body {
    /// A dynamic body of density 1.
    pub fn dynamic(collider: Collider, pose: Pose<Vec3>) -> Self {
        let (m, i) = collider.mass_properties();
        Self {
            pose,
            vel: Vec3::ZERO,
            ang_vel: Vec3::ZERO,
            inv_mass: 1.0 / m,
            inv_inertia: i.recip(),
            collider,
            still_time: 0.0,
            asleep: false,
        }
    }

    /// A body that never moves.
    pub fn fixed(collider: Collider, pose: Pose<Vec3>) -> Self {
        Self { inv_mass: 0.0, inv_inertia: Vec3::ZERO, ..Self::dynamic(collider, pose) }
    }

    /// Whether the solver moves this body.
    pub fn is_dynamic(&self) -> bool {
        self.inv_mass > 0.0
    }

    /// `I⁻¹ · v` in the world frame.
    fn inv_inertia_world(&self, v: Vec3) -> Vec3 {
        let q = self.pose.rotation;
        q * (self.inv_inertia * (q.inverse() * v))
    }

    /// Kinetic plus potential energy under `gravity` (per unit density).
    pub fn energy(&self, gravity: f32) -> f32 {
        if !self.is_dynamic() {
            return 0.0;
        }
        let m = 1.0 / self.inv_mass;
        let q = self.pose.rotation;
        let local_w = q.inverse() * self.ang_vel;
        let inertia = self.inv_inertia.recip();
        0.5 * m * self.vel.length_squared()
            + 0.5 * (local_w * inertia).dot(local_w)
            + m * gravity * self.pose.translation.y
    }
}

/// A body being dragged: a soft constraint of bounded force
/// ([`MAX_DRAG_ACCELERATION`]) pulls the grab point (in the body frame)
/// towards `target`; the body stays dynamic, so what blocks it holds it.
#[derive(Component, Clone, Copy, Debug)]
pub struct Dragged {
    /// Grab point in the body frame.
    pub grab_local: Vec3,
    /// Where the grab point should be.
    pub target: Vec3,
}

/// Tunables the panel edits.
#[derive(Resource, Clone, Copy, Debug)]
pub struct SimSettings {
    /// Gravity magnitude along −Y (m/s²).
    pub gravity: f32,
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution (bounciness) coefficient.
    pub restitution: f32,
    /// Whether stepping is paused.
    pub paused: bool,
    /// Steps to run even while paused.
    pub pending_steps: u32,
}

impl Default for SimSettings {
    fn default() -> Self {
        Self { gravity: 9.81, friction: 0.6, restitution: 0.1, paused: false, pending_steps: 0 }
    }
}

/// One contact point as the solver sees it.
#[derive(Clone, Copy, Debug)]
pub struct ContactPoint {
    /// Point on A.
    pub point_a: Vec3,
    /// Point on B.
    pub point_b: Vec3,
    /// Penetration (negative: speculative gap).
    pub depth: f32,
    /// Which features make it (`gjk_epa::ManifoldPoint::id`): last step's
    /// point of the same pair with the same id hands on its impulses.
    pub id: u32,
    /// Whether its impulses were handed on from last step (warm start).
    pub carried: bool,
    /// The relative normal velocity the solver aims for at least: the
    /// gap over the step for speculative points, a bounce for fast impacts.
    min_normal_velocity: f32,
    normal_impulse: f32,
    tangent_impulse: [f32; 2],
    pseudo_impulse: f32,
}

/// The contacts of one pair.
#[derive(Clone, Debug)]
pub struct PairContacts {
    /// First body.
    pub a: Entity,
    /// Second body.
    pub b: Entity,
    /// Normal from A to B.
    pub normal: Vec3,
    /// Up to four points.
    pub points: Vec<ContactPoint>,
}

/// Contacts of the last step (drawn by the overlay, reused for warm
/// starting).
#[derive(Resource, Default, Debug)]
pub struct Contacts {
    /// One entry per touching (or nearly touching) pair.
    pub pairs: Vec<PairContacts>,
}

/// Steps counted since start (for tests and the panel).
#[derive(Resource, Default, Debug)]
pub struct StepCount(pub u64);

/// The simulation as a plugin: one step per `FixedUpdate`.
pub fn plugin(app: &mut App) {
    app.init_resource::<SimSettings>()
        .init_resource::<Contacts>()
        .init_resource::<StepCount>()
        .insert_resource(Time::<Fixed>::from_seconds(FIXED_DT as f64))
        .add_systems(FixedUpdate, step_system);
}

fn step_system(
    mut settings: ResMut<SimSettings>,
    mut contacts: ResMut<Contacts>,
    mut count: ResMut<StepCount>,
    mut bodies: Query<(Entity, &mut Body, Option<&Dragged>)>,
) {
    if settings.paused {
        if settings.pending_steps == 0 {
            return;
        }
        settings.pending_steps -= 1;
    }
    let mut list: Vec<(Entity, Body, Option<Dragged>)> =
        bodies.iter().map(|(e, b, d)| (e, b.clone(), d.copied())).collect();
    list.sort_by_key(|(e, _, _)| *e);
    let mut ents: Vec<Entity> = list.iter().map(|(e, _, _)| *e).collect();
    let mut bs: Vec<Body> = list.iter().map(|(_, b, _)| b.clone()).collect();
    let drags: Vec<Option<Dragged>> = list.iter().map(|(_, _, d)| *d).collect();
    for _ in 0..SUBSTEPS {
        step(&mut bs, &drags, &ents, &settings, &mut contacts, FIXED_DT / SUBSTEPS as f32);
    }
    for (e, b) in ents.drain(..).zip(bs) {
        if let Ok((_, mut body, _)) = bodies.get_mut(e) {
            *body = b;
        }
    }
    count.0 += 1;
}

/// One substep of length `h` on plain data (used by the system and tests).
pub fn step(
    bodies: &mut [Body],
    drags: &[Option<Dragged>],
    ids: &[Entity],
    settings: &SimSettings,
    contacts: &mut Contacts,
    h: f32,
) {
    let n = bodies.len();
    let saved_mass: Vec<(f32, Vec3)> = bodies.iter().map(|b| (b.inv_mass, b.inv_inertia)).collect();
    for (b, d) in bodies.iter_mut().zip(drags) {
        if d.is_some() {
            b.asleep = false;
            b.still_time = 0.0;
            b.ang_vel /= 1.0 + h * DRAG_ANGULAR_DAMPING;
        }
        if b.is_dynamic() && !b.asleep {
            b.vel.y -= settings.gravity * h;
        }
    }
    let mut grabs: Vec<Grab> = bodies
        .iter()
        .zip(drags)
        .enumerate()
        .filter_map(|(i, (b, d))| Grab::new(i, b, d.as_ref()?, h))
        .collect();

    // Narrow phase over all pairs near each other.
    let old = std::mem::take(&mut contacts.pairs);
    let gjk = GjkConfig::default();
    let epa = EpaConfig::default();
    // One scratch space for every pair's manifold.
    let mut workspace = ManifoldWorkspace::new();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (&bodies[i], &bodies[j]);
            let moving_a = saved_mass[i].0 > 0.0 && !a.asleep;
            let moving_b = saved_mass[j].0 > 0.0 && !b.asleep;
            if !moving_a && !moving_b && drags[i].is_none() && drags[j].is_none() {
                // Both still: keep last step's contacts (for the overlay and
                // for warm starting when they wake).
                if let Some(prev) = old.iter().find(|p| p.a == ids[i] && p.b == ids[j]) {
                    contacts.pairs.push(prev.clone());
                }
                continue;
            }
            let reach = a.collider.bounding_radius() + b.collider.bounding_radius() + SPECULATIVE_DISTANCE;
            if a.pose.translation.distance_squared(b.pose.translation) > reach * reach {
                continue;
            }
            let c = contact_with(a.collider.shape(), &a.pose, b.collider.shape(), &b.pose, &gjk, &epa, None);
            if c.status == ContactStatus::InvalidInput || c.status == ContactStatus::Indeterminate {
                continue;
            }
            if c.status == ContactStatus::Separated && c.distance > SPECULATIVE_DISTANCE {
                continue;
            }
            let mut pair = PairContacts { a: ids[i], b: ids[j], normal: c.normal, points: Vec::new() };
            let point = |pa: Vec3, pb: Vec3, depth: f32, id: u32| ContactPoint {
                point_a: pa,
                point_b: pb,
                depth,
                id,
                carried: false,
                min_normal_velocity: 0.0,
                normal_impulse: 0.0,
                tangent_impulse: [0.0; 2],
                pseudo_impulse: 0.0,
            };
            let m = polytope_manifold_with(
                &mut workspace,
                a.collider.faces(),
                &a.pose,
                b.collider.faces(),
                &b.pose,
                &c,
                SPECULATIVE_DISTANCE,
            );
            pair.normal = m.normal;
            pair.points.extend(m.points().iter().map(|p| point(p.point_a, p.point_b, p.depth, p.id)));
            // Warm start from last step's points made by the same features
            // (however far a fast slide carried them), else from the
            // nearest one close by.
            if let Some(prev) = old.iter().find(|p| p.a == pair.a && p.b == pair.b) {
                for p in &mut pair.points {
                    let nearest = || {
                        prev.points
                            .iter()
                            .filter(|q| q.point_b.distance(p.point_b) < WARM_START_RADIUS)
                            .min_by(|q, r| {
                                q.point_b.distance(p.point_b).total_cmp(&r.point_b.distance(p.point_b))
                            })
                    };
                    if let Some(q) = prev.points.iter().find(|q| q.id == p.id).or_else(nearest) {
                        p.normal_impulse = q.normal_impulse;
                        p.tangent_impulse = q.tangent_impulse;
                        p.carried = true;
                    }
                }
            }
            // A moving body wakes a sleeping one it touches.
            let speed = |b: &Body| b.vel.length() + b.ang_vel.length();
            if bodies[i].asleep && (speed(&bodies[j]) > SLEEP_LINEAR || drags[j].is_some()) {
                bodies[i].asleep = false;
                bodies[i].still_time = 0.0;
            }
            if bodies[j].asleep && (speed(&bodies[i]) > SLEEP_LINEAR || drags[i].is_some()) {
                bodies[j].asleep = false;
                bodies[j].still_time = 0.0;
            }
            contacts.pairs.push(pair);
        }
    }
    let index: std::collections::HashMap<Entity, usize> =
        ids.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    // Sleeping bodies take part as immovable.
    let inv = |b: &Body| if b.asleep { (0.0, Vec3::ZERO) } else { (b.inv_mass, b.inv_inertia) };
    let solid: Vec<(f32, Vec3)> = bodies.iter().map(inv).collect();
    for (b, s) in bodies.iter_mut().zip(&solid) {
        b.inv_mass = s.0;
        b.inv_inertia = s.1;
    }

    // Velocity targets from the velocities before solving.
    for pair in &mut contacts.pairs {
        let (ia, ib) = (index[&pair.a], index[&pair.b]);
        for p in &mut pair.points {
            let at = midpoint(p);
            let rel = velocity_at(&bodies[ib], at - bodies[ib].pose.translation)
                - velocity_at(&bodies[ia], at - bodies[ia].pose.translation);
            let vn = rel.dot(pair.normal);
            // A speculative point may close at most its gap this substep.
            p.min_normal_velocity = if p.depth < 0.0 {
                p.depth / h
            } else if -vn > RESTITUTION_THRESHOLD {
                -settings.restitution * vn
            } else {
                0.0
            };
        }
    }
    // Warm start.
    for pair in &contacts.pairs {
        let (ia, ib) = (index[&pair.a], index[&pair.b]);
        let (t1, t2) = tangents(pair.normal);
        for p in &pair.points {
            let impulse =
                pair.normal * p.normal_impulse + t1 * p.tangent_impulse[0] + t2 * p.tangent_impulse[1];
            apply(bodies, ia, ib, midpoint(p), impulse);
        }
    }
    // Sequential impulses on velocities, and pseudo-velocities for
    // position correction kept apart so that correction adds no energy.
    let mut pseudo: Vec<(Vec3, Vec3)> = vec![(Vec3::ZERO, Vec3::ZERO); n];
    for _ in 0..VELOCITY_ITERATIONS {
        for g in &mut grabs {
            g.solve(&mut bodies[g.body]);
        }
        for pair in &mut contacts.pairs {
            let (ia, ib) = (index[&pair.a], index[&pair.b]);
            let nrm = pair.normal;
            let (t1, t2) = tangents(nrm);
            for p in &mut pair.points {
                let at = midpoint(p);
                let (ra, rb) = (at - bodies[ia].pose.translation, at - bodies[ib].pose.translation);
                let rel = velocity_at(&bodies[ib], rb) - velocity_at(&bodies[ia], ra);
                // Normal: speculative (allow closing the gap), or bounce.
                let vn = rel.dot(nrm);
                let kn = effective_mass(bodies, ia, ib, ra, rb, nrm);
                if kn <= 0.0 {
                    continue;
                }
                let d_lambda = (p.min_normal_velocity - vn) / kn;
                let new = (p.normal_impulse + d_lambda).max(0.0);
                let applied = new - p.normal_impulse;
                p.normal_impulse = new;
                apply(bodies, ia, ib, at, nrm * applied);
                // Friction, clamped by the normal impulse.
                for (k, t) in [t1, t2].into_iter().enumerate() {
                    let rel = velocity_at(&bodies[ib], rb) - velocity_at(&bodies[ia], ra);
                    let kt = effective_mass(bodies, ia, ib, ra, rb, t);
                    if kt <= 0.0 {
                        continue;
                    }
                    let limit = settings.friction * p.normal_impulse;
                    let new = (p.tangent_impulse[k] - rel.dot(t) / kt).clamp(-limit, limit);
                    let applied = new - p.tangent_impulse[k];
                    p.tangent_impulse[k] = new;
                    apply(bodies, ia, ib, at, t * applied);
                }
                // Split impulse: push apart penetration beyond the slop.
                if p.depth > LINEAR_SLOP {
                    let pv = |i: usize, r: Vec3| pseudo[i].0 + pseudo[i].1.cross(r);
                    let vp = (pv(ib, rb) - pv(ia, ra)).dot(nrm);
                    let goal = POSITION_CORRECTION * (p.depth - LINEAR_SLOP) / h;
                    let new = (p.pseudo_impulse + (goal - vp) / kn).max(0.0);
                    let applied = new - p.pseudo_impulse;
                    p.pseudo_impulse = new;
                    let imp = nrm * applied;
                    let (ba, bb) = (&bodies[ia], &bodies[ib]);
                    let (da, dwa) = (-imp * ba.inv_mass, ba.inv_inertia_world(ra.cross(-imp)));
                    let (db, dwb) = (imp * bb.inv_mass, bb.inv_inertia_world(rb.cross(imp)));
                    pseudo[ia].0 += da;
                    pseudo[ia].1 += dwa;
                    pseudo[ib].0 += db;
                    pseudo[ib].1 += dwb;
                }
            }
        }
    }

    // Integrate, restore masses, manage sleep.
    for (i, b) in bodies.iter_mut().enumerate() {
        b.inv_mass = saved_mass[i].0;
        b.inv_inertia = saved_mass[i].1;
        if !b.is_dynamic() || b.asleep {
            continue;
        }
        if drags[i].is_some() {
            b.vel = b.vel.clamp_length_max(MAX_DRAG_SPEED);
            b.ang_vel = b.ang_vel.clamp_length_max(MAX_DRAG_SPIN);
        }
        let v = b.vel + pseudo[i].0;
        let w = b.ang_vel + pseudo[i].1;
        b.pose.translation += v * h;
        let dq = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * b.pose.rotation;
        let q = b.pose.rotation;
        b.pose.rotation = Quat::from_xyzw(
            q.x + 0.5 * h * dq.x,
            q.y + 0.5 * h * dq.y,
            q.z + 0.5 * h * dq.z,
            q.w + 0.5 * h * dq.w,
        )
        .normalize();
        if drags[i].is_some() {
            continue;
        }
        if b.vel.length() < SLEEP_LINEAR && b.ang_vel.length() < SLEEP_ANGULAR {
            b.still_time += h;
            if b.still_time > SLEEP_TIME {
                b.asleep = true;
                b.vel = Vec3::ZERO;
                b.ang_vel = Vec3::ZERO;
            }
        } else {
            b.still_time = 0.0;
        }
    }
}

/// The grab of one dragged body for one substep: a soft point constraint
/// (Box2D v3's mouse joint, "soft step" form: Catto, *Solver2D*, 2024)
/// whose accumulated impulse is clamped to the force bound.
struct Grab {
    /// Index of the body.
    body: usize,
    /// Grab point relative to the body's centre (world frame).
    r: Vec3,
    /// Position error: grab point minus target.
    error: Vec3,
    /// Inverse of the grab point's effective mass matrix.
    mass: Mat3,
    /// Soft-constraint coefficients: bias per unit error, mass and
    /// impulse scales.
    bias_rate: f32,
    mass_scale: f32,
    impulse_scale: f32,
    /// Impulse so far this substep, and its bound (force bound × step).
    impulse: Vec3,
    max_impulse: f32,
}

impl Grab {
    /// The grab of body `i`, or `None` for a body that cannot move.
    fn new(i: usize, b: &Body, d: &Dragged, h: f32) -> Option<Self> {
        if !b.is_dynamic() || !d.target.is_finite() {
            return None;
        }
        let grab = b.pose.transform_point(d.grab_local);
        let r = grab - b.pose.translation;
        // K = m⁻¹ I − [r]ₓ I⁻¹ [r]ₓ in the world frame.
        let rot = Mat3::from_quat(b.pose.rotation);
        let inv_i = rot * Mat3::from_diagonal(b.inv_inertia) * rot.transpose();
        let rx =
            Mat3::from_cols(Vec3::new(0.0, r.z, -r.y), Vec3::new(-r.z, 0.0, r.x), Vec3::new(r.y, -r.x, 0.0));
        let k = Mat3::from_diagonal(Vec3::splat(b.inv_mass)) - rx * inv_i * rx;
        let mass = k.inverse();
        if !mass.is_finite() {
            return None;
        }
        let omega = 2.0 * std::f32::consts::PI * DRAG_FREQUENCY;
        let a1 = 2.0 * DRAG_DAMPING_RATIO + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Some(Self {
            body: i,
            r,
            error: grab - d.target,
            mass,
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
            impulse: Vec3::ZERO,
            max_impulse: MAX_DRAG_ACCELERATION / b.inv_mass * h,
        })
    }

    /// One velocity iteration of the grab on its body.
    fn solve(&mut self, b: &mut Body) {
        let cdot = b.vel + b.ang_vel.cross(self.r);
        let delta = -(self.mass * (cdot + self.error * self.bias_rate)) * self.mass_scale
            - self.impulse * self.impulse_scale;
        let old = self.impulse;
        self.impulse = (old + delta).clamp_length_max(self.max_impulse);
        let applied = self.impulse - old;
        b.vel += applied * b.inv_mass;
        b.ang_vel += b.inv_inertia_world(self.r.cross(applied));
    }
}

fn midpoint(p: &ContactPoint) -> Vec3 {
    (p.point_a + p.point_b) * 0.5
}

fn velocity_at(b: &Body, r: Vec3) -> Vec3 {
    b.vel + b.ang_vel.cross(r)
}

fn effective_mass(bodies: &[Body], ia: usize, ib: usize, ra: Vec3, rb: Vec3, n: Vec3) -> f32 {
    let (a, b) = (&bodies[ia], &bodies[ib]);
    let ta = a.inv_inertia_world(ra.cross(n)).cross(ra);
    let tb = b.inv_inertia_world(rb.cross(n)).cross(rb);
    a.inv_mass + b.inv_mass + n.dot(ta + tb)
}

/// Applies `impulse` at `at` to B and its opposite to A.
fn apply(bodies: &mut [Body], ia: usize, ib: usize, at: Vec3, impulse: Vec3) {
    let ra = at - bodies[ia].pose.translation;
    let dwa = bodies[ia].inv_inertia_world(ra.cross(-impulse));
    let a = &mut bodies[ia];
    a.vel -= impulse * a.inv_mass;
    a.ang_vel += dwa;
    let rb = at - bodies[ib].pose.translation;
    let dwb = bodies[ib].inv_inertia_world(rb.cross(impulse));
    let b = &mut bodies[ib];
    b.vel += impulse * b.inv_mass;
    b.ang_vel += dwb;
}

/// Two unit tangents orthogonal to `n`.
fn tangents(n: Vec3) -> (Vec3, Vec3) {
    let t1 = n.any_orthonormal_vector();
    (t1, n.cross(t1))
}
