//! Rigid motions that turn as well as translate, and the nonlinear shape
//! cast: the time of impact of two such motions by conservative
//! advancement.
//!
//! Conservative advancement (Mirtich, *Impulse-based Dynamic Simulation of
//! Rigid Body Systems*, 1996, §4.3; the form of Zhang, Redon, Lee and
//! Kim, *Continuous Collision Detection for Articulated Models using
//! Taylor Models and Temporal Culling*, 2007, §3): at time `t` the
//! distance query gives the closest points' normal `n`, and the shapes
//! are apart along `n` by `s`. While they move, a point of A's core moves
//! along `n` no faster than `v_A · n + |n × ω_A| r_A` (its centre's
//! velocity, plus its turn about the centre: `(ω × x) · n = x · (n × ω)`,
//! with `r_A` the farthest any point of the core lies from its centre; a
//! round shape's height along `n` is its core's plus its radius, whatever
//! the turn, so a ball turning about its centre does not close the gap),
//! and a point of B's core along `−n` no faster than the same for B. The
//! sum `μ` bounds how fast
//! the gap along `n` closes, and the distance is at least that gap, so
//! the shapes stay at least `target` apart until `t + (s − target) / μ`.
//! The cast steps there and asks again; each step is safe, so the time it
//! stops at is never past the first contact.
//!
//! The same advancement runs on a caller's signed distance
//! ([`cast_shape_nonlinear_measured`]; gjk-epa's contact query, which
//! sizes overlaps by EPA) for casts that start in contact: the gap along
//! a fixed `n` bounds the signed distance from below overlapping too, so
//! the steps stay safe, and the goal becomes the starting distance less
//! the tolerance.
//!
//! # Steps
//!
//! At most `NONLINEAR_CAST_MAX_STEPS` steps. Each step runs a distance query
//! at the current time and advances by the larger of two proven-safe
//! intervals: the gap along the normal over the fastest closing speed any
//! orientation allows (`(v_A − v_B) · n + |n × ω_A| r_A + |n × ω_B| r_B`), or
//! the root of `now · Δ + accel · Δ²/2 = gap`, with `now` the closing speed
//! at this orientation (support points along `n × ω`) and
//! `accel = |ω| |n × ω| r` per shape. In both, `r` is the shape's reach about
//! its centre, or, for a round shape, how far its core reaches from the
//! turn's axis through the centre (`turn_reach`), so a ball turning about its
//! centre or a capsule about its axis adds nothing. A shape whose core has an
//! axis (`Shape::core_axis`) also bounds its turn's part of the first speed
//! by `|n × ω| · arm + |ω⊥| · reach_p` and keeps the smaller (`TurnSpeed`):
//! turning about its own axis leaves it where it was; a wheel rolling on a
//! road steps as if it only slid.
//!
//! Exits: within the tolerance of the target (a hit; at step 0,
//! `StartsInside`); neither bound ever closes the gap, or the step passes
//! `max_fraction` (a miss); a gap along the normal at the target while the
//! distance is not, a step below the rounding of `t`, or the cap
//! (`IterationLimit`, `fraction` safe); NaN anywhere (`InvalidInput`).
//!
//! Casts that start in contact (`cast_shape_nonlinear_measured`) run the same
//! loop on the signed distance toward a goal below the start (the start less
//! the tolerance and the slack: the larger of the tolerance and the
//! measure's band), and where the shapes turn they try a third bound: the gap
//! along `n` at `t + Δ` is at least `n · (c_B − c_A) − along · Δ − top_A(Δ) −
//! top_B(Δ) − accel · Δ²/2`, which is concave in `Δ`, so one value at least
//! the goal proves the whole step. It is tried at most
//! `NONLINEAR_CAST_PROBES` times a step, and only where it could allow
//! `NONLINEAR_CAST_PROBE_GAIN` times more than the first two. Where the
//! measure's normal gives a support gap short of its distance by more than
//! the slack, the pair moved apart along it by `NONLINEAR_CAST_NORMAL_SHIFT`
//! of the size is measured again by GJK and the better normal kept. A measure
//! that cannot size an overlap ends the cast `StartsInside` at step 0 and
//! `IterationLimit` after.

use gjk_core::{CastHit, CastOptions, CastStatus, GjkConfig, Real, SimplexCache, Status, SupportMap};

use crate::query::distance_local;
use crate::shape::{CoreOf, Shape};
use crate::space::{Pose, Space};
use crate::wrappers::Placed;

/// The most steps (distance queries) a nonlinear cast makes. Each step
/// is safe, so a cast that reaches it returns
/// [`CastStatus::IterationLimit`] with a fraction before which the shapes
/// provably stay apart. Grazing passes take the most steps: a step
/// covers the gap over the fastest closing speed, so a pass at gap `g`
/// by shapes closing at up to `μ` takes about `μ / g` steps per unit of
/// time.
pub const NONLINEAR_CAST_MAX_STEPS: u32 = 256;

/// How close to `target_distance` the shapes are when a nonlinear cast
/// reports a hit, relative to the smaller shape's reach about its centre
/// (the farthest its points lie from it; the larger one's where the
/// smaller is a point), and never less than the distance query's zero
/// band: the hit's distance is in `[target, target + tolerance]`.
pub const NONLINEAR_CAST_TOLERANCE: f64 = 1e-4;

/// In a cast that starts in contact ([`cast_shape_nonlinear_measured`]),
/// where the measure's normal falls short of its distance (a normal near
/// touching, rounded), the cast measures the pair again moved apart along
/// it by this fraction of the smaller shape's reach (plus any overlap)
/// and keeps the normal found there where its gap is the larger.
pub const NONLINEAR_CAST_NORMAL_SHIFT: f64 = 0.1;

/// How many longer steps a cast that starts in contact
/// ([`cast_shape_nonlinear_measured`]) tries per step for shapes that
/// turn (a third bound: one support call per turning shape each): the
/// furthest step the current support points' speeds allow, then halving
/// towards the step the first two bounds proved. Its room is a tolerance
/// or two, which the first two bounds cross in steps far shorter than the
/// motion: without it a plank tipping on the floor runs out of steps
/// before upright (`a_tipping_plank_runs_free_until_it_passes_upright`,
/// gjk-epa). The plain casts skip it: there it costs more support calls
/// than it saves (`gjk-bench nonlinear-casts`).
pub const NONLINEAR_CAST_PROBES: u32 = 3;

/// The third bound is probed only where the furthest step it could allow
/// is longer than the proven one by this factor.
pub const NONLINEAR_CAST_PROBE_GAIN: f64 = 1.25;

/// A rigid motion over time: the shape starts at `start` and its centre
/// (`local_center`, a point of the shape's frame, e.g. its centre of
/// mass) moves in a straight line at `linear` while the shape turns about
/// that centre at `angular` (both in the world frame, per unit of time).
///
/// ```
/// use gjk_shapes::{Motion, Pose, glam::Vec2};
/// // Spins half a turn per unit of time about its local point (1, 0), which drifts along +y.
/// let m = Motion::new(Pose::<Vec2>::IDENTITY, Vec2::Y, std::f32::consts::PI)
///     .with_local_center(Vec2::X);
/// let p = m.pose_at(1.0);
/// assert!((p.transform_point(Vec2::X) - Vec2::new(1.0, 1.0)).length() < 1e-6); // the centre moved
/// assert!((p.transform_point(Vec2::ZERO) - Vec2::new(2.0, 1.0)).length() < 1e-6); // the origin turned about it
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<V: Space> {
    /// The pose at time 0.
    pub start: Pose<V>,
    /// The point the shape turns about, in the shape's frame.
    pub local_center: V,
    /// The centre's velocity (world frame, per unit of time).
    pub linear: V,
    /// The angular velocity (world frame, radians per unit of time): a
    /// scalar in 2D, axis × rate in 3D.
    pub angular: V::AngularVelocity,
}

impl<V: Space> Motion<V> {
    /// Starts at `start`, moves at `linear` and turns at `angular` about
    /// the shape's local origin.
    pub fn new(start: Pose<V>, linear: V, angular: V::AngularVelocity) -> Self {
        Self { start, local_center: V::ZERO, linear, angular }
    }

    /// A shape that stays at `pose`.
    pub fn fixed(pose: Pose<V>) -> Self {
        Self::new(pose, V::ZERO, V::AngularVelocity::default())
    }

    /// The same motion turning about `local_center` (a point of the
    /// shape's frame) instead, which then moves at `linear`.
    pub fn with_local_center(self, local_center: V) -> Self {
        Self { local_center, ..self }
    }

    /// The pose at time `t`: turned by `exp(t · angular)` about the
    /// centre, the centre moved by `t · linear`.
    pub fn pose_at(&self, t: V::Scalar) -> Pose<V> {
        let rotation = V::compose(&V::rotation_after(&self.angular, t), &self.start.rotation);
        let centre = self.start.transform_point(self.local_center) + self.linear * t;
        Pose::new(rotation, centre - V::rotate(&rotation, self.local_center))
    }

    /// Whether the start pose is valid and every vector finite.
    pub fn is_valid(&self) -> bool {
        self.start.is_valid()
            && self.local_center.is_finite()
            && self.linear.is_finite()
            && V::angular_is_finite(&self.angular)
    }
}

/// An upper bound on how far any point of `shape` lies from `c` (both in
/// the shape's frame): the farthest corner of the box of the shape's
/// support points along the axes, or the outer ball about the shape's
/// centre where the shape knows one and it is tighter.
pub fn reach_from<V, S>(shape: &S, c: V) -> V::Scalar
where
    V: Space,
    S: SupportMap<V> + ?Sized,
{
    let axes: [V; 3] = core::array::from_fn(|i| if i < V::DIM { V::axis(i) } else { V::ZERO });
    reach_within(shape, c, &axes[..V::DIM])
}

/// [`reach_from`] measured within the span of the orthonormal `axes`:
/// how far any point of `shape` lies from `c` once projected on it (the
/// box of its support points along the axes, or its outer ball).
fn reach_within<V, S>(shape: &S, c: V, axes: &[V]) -> V::Scalar
where
    V: Space,
    S: SupportMap<V> + ?Sized,
{
    let (mut corner, mut centre_offset) = (V::Scalar::ZERO, V::Scalar::ZERO);
    let centre = shape.center();
    for &e in axes {
        let hi = (shape.support(e) - c).dot(e);
        let lo = (c - shape.support(-e)).dot(e);
        let far = hi.max(lo).max(V::Scalar::ZERO);
        corner += far * far;
        if let Some(centre) = centre {
            let d = (centre - c).dot(e);
            centre_offset += d * d;
        }
    }
    let corner = V::sqrt(corner);
    match (centre, shape.center_radii()) {
        (Some(_), Some((_, outer))) => (V::sqrt(centre_offset) + outer).min(corner),
        _ => corner,
    }
}

/// How far the points a turn of `m` moves lie from its axis through the
/// centre (in 2D, from the centre), given the shape's whole `reach`: for
/// a round shape, its core's (its height along any direction is its
/// core's plus its radius) measured across the axis, four support calls;
/// for a sharp one, `reach` itself (measured across the axis, the four
/// calls cost more than the steps they save: `gjk-bench nonlinear-casts`);
/// 0 where nothing turns. It
/// bounds both the speed of a turn along a direction (`|n × ω|` times it:
/// `(ω × r) · n = r · (n × ω)` sees only `r`'s part off the axis) and how
/// fast that speed changes (`|ω| |n × ω|` times it).
fn turn_reach<V, S>(shape: &S, m: &Motion<V>, reach: V::Scalar) -> (V::Scalar, u32)
where
    V: Space,
    S: Shape<V> + ?Sized,
{
    if V::angular_speed(&m.angular) == V::Scalar::ZERO {
        return (V::Scalar::ZERO, 0);
    }
    if shape.radius() > V::Scalar::ZERO {
        let plane = V::turn_plane(&m.angular, &m.start.rotation);
        (reach_within(&CoreOf(shape), m.local_center, &plane), 4)
    } else {
        (reach, 0)
    }
}

/// How fast a turn can move a shape's points along a direction `n`, as
/// the first step bound takes it: at most `|n × ω|` times its turn reach
/// ([`turn_reach`]), and, for a shape whose core has an axis
/// ([`Shape::core_axis`]), at most `|n × ω| · arm + spin`.
///
/// Why the second: turning about the core's own axis leaves the shape
/// where it was, so a turn `ω` about the centre `c` moves the shape as
/// the part of `ω` across the axis, `ω⊥`, turning it about the axis's
/// point `p` nearest `c`, plus `p`'s own motion, `ω × (p − c)`. Along `n`
/// the first moves a point at `y` by `(y − p) · (n × ω⊥)`, at most
/// `|ω⊥|` times the core's reach from `p`, and the second by
/// `(p − c) · (n × ω)`, at most `|n × ω|` times `arm = |p − c|`. The
/// angle between `ω` and the turning axis never changes, so neither does
/// `|ω⊥|`, and `spin = |ω⊥| · reach`. A wheel rolling on a road turns
/// about its own axis alone: `arm = spin = 0`, and its steps are as long
/// as if it only slid.
#[derive(Clone, Copy, Debug)]
struct TurnSpeed<S> {
    /// The turn reach.
    reach: S,
    /// The centre's distance from the core's axis (the turn reach where
    /// the core has none).
    arm: S,
    /// `|ω⊥|` times the core's reach from the axis's point nearest the
    /// centre (0 where the core has no axis).
    spin: S,
}

impl<S: Real> TurnSpeed<S> {
    /// The bound on the speed along `n`, given `|n × ω|`.
    #[inline]
    fn along(&self, across: S) -> S {
        (across * self.reach).min(across * self.arm + self.spin)
    }
}

/// The [`TurnSpeed`] of `shape` turning by `m`, given its turn reach,
/// with the support calls it made: the core's axis is used in 3D only
/// (in 2D a turn is about a point, and `ω⊥` is the whole turn).
fn turn_speed<V, S>(shape: &S, m: &Motion<V>, reach: V::Scalar) -> (TurnSpeed<V::Scalar>, u32)
where
    V: Space,
    S: Shape<V> + ?Sized,
{
    let plain = TurnSpeed { reach, arm: reach, spin: V::Scalar::ZERO };
    if V::DIM < 3 || V::angular_speed(&m.angular) == V::Scalar::ZERO {
        return (plain, 0);
    }
    let Some((p, a)) = shape.core_axis() else { return (plain, 0) };
    let Some(a) = a.try_normalize() else { return (plain, 0) };
    let c = m.local_center;
    let foot = p + a * (c - p).dot(a);
    let arm = (c - foot).length();
    let spin = V::turn_off_axis(&m.angular, &m.start.rotation, a) * reach_from(&CoreOf(shape), foot);
    let calls = 2 * V::DIM as u32;
    if arm.is_finite() && spin.is_finite() { (TurnSpeed { reach, arm, spin }, calls) } else { (plain, calls) }
}

/// Nonlinear shape cast (time of impact of two rigid motions that turn):
/// the first time `t ∈ [0, max_fraction]` at which `a` moving by
/// `motion_a` and `b` moving by `motion_b` come within
/// `options.target_distance`, with the closest points (world frame) and
/// B's outward normal at that time (from B towards A).
///
/// By conservative advancement (module docs): the shapes provably stay at
/// least `target_distance` apart over `[0, fraction)`, and at a
/// [`CastStatus::Hit`] they are apart by at most `target_distance` plus
/// the tolerance ([`NONLINEAR_CAST_TOLERANCE`]). `None`: they stay
/// apart until `max_fraction`. [`CastStatus::StartsInside`]:
/// within reach already at time 0 (fraction 0, the distance query's
/// points and normal there; for an overlap the normal is not a
/// separating one; gjk-epa's `cast_shape_nonlinear_directional` goes on
/// from such a start unless the motion deepens the contact). [`CastStatus::IterationLimit`]: the steps ran out
/// ([`NONLINEAR_CAST_MAX_STEPS`], a grazing pass), and the fraction is
/// a time before which they provably stay apart. [`CastStatus::InvalidInput`]:
/// NaN or infinity in a motion or the options, or in a support point.
/// `iterations` counts the support calls made.
///
/// ```
/// use gjk_core::{CastOptions, CastStatus};
/// use gjk_shapes::{Cuboid, Motion, Pose, cast_shape_nonlinear, glam::Vec3};
/// // A 4 × 0.2 × 0.2 bar spinning a quarter turn per unit of time about z,
/// // with a wall 1.5 from its centre: its tip reaches the wall after 30°.
/// let bar = Cuboid::new(Vec3::new(2.0, 0.1, 0.1)).unwrap();
/// let wall = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
/// let spin = Motion::new(Pose::IDENTITY, Vec3::ZERO, Vec3::Z * std::f32::consts::FRAC_PI_2);
/// let at = Motion::fixed(Pose::from_translation(Vec3::new(0.0, 2.0, 0.0)));
/// let hit = cast_shape_nonlinear(&bar, &spin, &wall, &at, &CastOptions::default()).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// // The tip's height: 2 sin θ + 0.1 cos θ = 1.5.
/// let theta = hit.fraction * std::f32::consts::FRAC_PI_2;
/// assert!((2.0 * theta.sin() + 0.1 * theta.cos() - 1.5).abs() < 1e-3);
/// assert!((hit.normal + Vec3::Y).length() < 1e-3); // the wall's face, facing the bar
/// ```
pub fn cast_shape_nonlinear<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    cast_shape_nonlinear_with(a, motion_a, b, motion_b, options, &GjkConfig::default())
}

/// [`cast_shape_nonlinear`] with the distance queries' configuration.
pub fn cast_shape_nonlinear_with<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
    config: &GjkConfig<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let mut cache = SimplexCache::default();
    let measure = |a: &A, b: &Placed<&B, V>| {
        let r = distance_local(a, b, config, Some(&mut cache));
        // A NaN distance reads as invalid input in `advance`.
        let distance = if r.status == Status::InvalidInput { V::Scalar::NAN } else { r.distance };
        Some(Separation {
            signed_distance: distance,
            normal: r.normal,
            point_a: r.point_a,
            point_b: r.point_b,
            band: r.tolerance,
            support_calls: r.iterations,
        })
    };
    advance(a, motion_a, b, motion_b, options, false, measure)
}

/// How far apart two shapes are at one instant of a nonlinear cast, as
/// its distance query measures it (in A's frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation<V: Space> {
    /// The distance where the shapes are apart, minus the penetration
    /// depth where they overlap (0 where they touch).
    pub signed_distance: V::Scalar,
    /// Unit normal from A to B: the closest points' direction apart, the
    /// direction B leaves A by where they overlap.
    pub normal: V,
    /// The closest (or deepest) point of A.
    pub point_a: V,
    /// The closest (or deepest) point of B.
    pub point_b: V,
    /// The measure's zero band: a hit is called within `max(band,
    /// tolerance)` of the goal.
    pub band: V::Scalar,
    /// Support calls the measure made.
    pub support_calls: u32,
}

/// The nonlinear cast with a caller's measure of signed distance (such as
/// gjk-epa's contact query, which sizes overlaps by EPA), for casts that
/// start in contact: where the shapes start within
/// `options.target_distance` (overlapping included), that contact does
/// not stop the cast. The cast then looks for the first time the shapes
/// are closer than they started, by at least the tolerance
/// ([`NONLINEAR_CAST_TOLERANCE`]) and at most twice it: a motion that
/// slides along the contact or leaves it runs free, one that drives the
/// shapes deeper stops as soon as it does. Shapes that start beyond the
/// target distance get [`cast_shape_nonlinear`]'s answer.
///
/// `measure(a, b)` gets `b` placed in A's frame and returns the
/// [`Separation`] there, or `None` where the shapes overlap by a depth it
/// could not find (then the cast ends [`CastStatus::StartsInside`] at time
/// 0, or [`CastStatus::IterationLimit`] later, safe up to its fraction).
/// A non-finite signed distance ends it [`CastStatus::InvalidInput`].
/// Each step stays safe whatever the measure's rounding: it is bounded
/// by the gap along the measure's normal, from the shapes' own support
/// points.
pub fn cast_shape_nonlinear_measured<V, A, B, M>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
    measure: M,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    M: FnMut(&A, &Placed<&B, V>) -> Option<Separation<V>>,
{
    advance(a, motion_a, b, motion_b, options, true, measure)
}

/// Conservative advancement (module docs) to the first time the signed
/// distance falls within the tolerance of the goal: `target_distance`,
/// or, for a `directional` cast of shapes that start within it, the
/// starting distance less the tolerance and the hit slack.
fn advance<V, A, B, M>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
    directional: bool,
    mut measure: M,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    M: FnMut(&A, &Placed<&B, V>) -> Option<Separation<V>>,
{
    let zero = V::Scalar::ZERO;
    let target = options.target_distance;
    let t_max = options.max_fraction;
    let mut out = CastHit {
        status: CastStatus::InvalidInput,
        fraction: zero,
        point_a: V::ZERO,
        point_b: V::ZERO,
        normal: V::X,
        iterations: 0,
        starts_in_contact: false,
    };
    if !motion_a.is_valid()
        || !motion_b.is_valid()
        || target.is_nan()
        || target < zero
        || !target.is_finite()
        || t_max.is_nan()
    {
        return Some(out);
    }
    // How far each shape's points lie from its centre (frame-free: a turn
    // keeps it).
    let ra = reach_from(a, motion_a.local_center);
    let rb = reach_from(b, motion_b.local_center);
    // What a turn moves: round shapes' cores, at their distance from the
    // turn's axis (`turn_reach`: a ball turning about its centre, or a
    // capsule about its own axis, does not close any gap).
    let ((ta, calls_a), (tb, calls_b)) = (turn_reach(a, motion_a, ra), turn_reach(b, motion_b, rb));
    if !ra.is_finite() || !rb.is_finite() || !ta.is_finite() || !tb.is_finite() {
        return Some(out);
    }
    // And what a turn about a core's own axis does not move (a wheel's
    // roll: `TurnSpeed`).
    let ((speed_a, axis_a), (speed_b, axis_b)) = (turn_speed(a, motion_a, ta), turn_speed(b, motion_b, tb));
    out.iterations = 2 * V::DIM as u32 * 2 + calls_a + calls_b + axis_a + axis_b;
    let size = if ra > zero && rb > zero { ra.min(rb) } else { ra.max(rb) };
    let tolerance = V::Scalar::from_f64(NONLINEAR_CAST_TOLERANCE) * size;
    let closing = motion_a.linear - motion_b.linear;
    // The signed distance the cast stops at (within the hit slack above).
    let mut goal = target;
    let mut t = zero;
    // Loop bound: NONLINEAR_CAST_MAX_STEPS distance queries; `t` grows
    // by a positive step each time round or the loop returns.
    for step in 0..NONLINEAR_CAST_MAX_STEPS {
        let pose_a = motion_a.pose_at(t);
        let pose_b = motion_b.pose_at(t);
        let b_local = Placed::new(b, &pose_a.inv_mul(&pose_b));
        out.fraction = t;
        let Some(r) = measure(a, &b_local) else {
            // An overlap of unknown depth (exit: stopped at the start, or
            // undecided and safe up to `t`).
            out.starts_in_contact |= step == 0;
            out.status = if step == 0 { CastStatus::StartsInside } else { CastStatus::IterationLimit };
            return Some(out);
        };
        out.iterations += r.support_calls;
        if !r.signed_distance.is_finite() {
            // A support point held NaN or infinity (exit: invalid input).
            out.status = CastStatus::InvalidInput;
            return Some(out);
        }
        out.point_a = pose_a.transform_point(r.point_a);
        out.point_b = pose_a.transform_point(r.point_b);
        // B's outward normal, from B towards A (`CastHit`'s convention).
        out.normal = -pose_a.transform_vector(r.normal);
        let slack = tolerance.max(r.band);
        if directional && step == 0 && r.signed_distance <= target + slack {
            // Starting in contact: the goal is that contact made deeper
            // by the tolerance, so that a hit (within the slack above the
            // goal) lies at least the tolerance below the start.
            goal = r.signed_distance - tolerance - slack;
            out.starts_in_contact = true;
        }
        if r.signed_distance <= goal + slack {
            // Within the tolerance of the goal (exit: a hit, or within
            // reach from the start).
            out.starts_in_contact |= step == 0;
            out.status = if step == 0 { CastStatus::StartsInside } else { CastStatus::Hit };
            return Some(out);
        }
        // The gap along the normal, from the shapes' own support points
        // (exact for this direction whatever the normal's rounding; the
        // signed distance is at least it, apart or overlapping), and never
        // more than the measured distance.
        let mut n = r.normal;
        let (mut sa, mut sb) = (a.support(n), b_local.support(-n));
        let mut gap = n.dot(sb) - n.dot(sa);
        out.iterations += 2;
        if directional && gap < r.signed_distance - slack {
            // The measure's normal falls short of its own distance: near
            // touching, a normal is only as good as the rounding of a tiny
            // gap (10⁻⁴ rad in f32), and tilting the plane by that much
            // costs the gap along it the angle times the shapes' extent (a
            // crate tipping on a floor 10 wide lost 10⁻³, more than the
            // room a cast that starts in contact has). The normal of the
            // same pair moved apart along it is exact to the rounding of a
            // gap `NONLINEAR_CAST_NORMAL_SHIFT` of the size; kept where
            // its own gap is the larger.
            let rel = pose_a.inv_mul(&pose_b);
            let shift =
                zero.max(-r.signed_distance) + V::Scalar::from_f64(NONLINEAR_CAST_NORMAL_SHIFT) * size;
            let moved = Placed::new(b, &Pose::new(rel.rotation, rel.translation + n * shift));
            let g = distance_local(a, &moved, &GjkConfig::default(), None);
            out.iterations += g.iterations + 2;
            if matches!(g.status, Status::Separated | Status::Touching) {
                let m = g.normal;
                let (ma, mb) = (a.support(m), b_local.support(-m));
                let other = m.dot(mb) - m.dot(ma);
                if other > gap {
                    (n, sa, sb, gap) = (m, ma, mb, other);
                }
            }
        }
        let room = gap.min(r.signed_distance) - goal;
        if room.is_nan() || room <= zero {
            // No safe step: the gap along the normal is at the goal while
            // the distance is not (exit: undecided, safe up to `t`).
            out.status = if room.is_nan() { CastStatus::InvalidInput } else { CastStatus::IterationLimit };
            return Some(out);
        }
        let nw = pose_a.transform_vector(n);
        let (ua, ub) = (V::turn_direction(&motion_a.angular, nw), V::turn_direction(&motion_b.angular, -nw));
        let (la, lb) = (ua.length(), ub.length());
        let along = closing.dot(nw);
        // First bound: the closing speed over every orientation.
        let fastest = along + speed_a.along(la) + speed_b.along(lb);
        // Second bound: the closing speed at this orientation, from the
        // shapes' support points along `u` (a turn moves a point at `r`
        // from its centre along `n` at `r · u`), and how fast a turn can
        // raise it (`|w| |u| reach`): the gap closes by at most
        // `now · Δ + accel · Δ² / 2`.
        let mut now = along;
        if la > zero {
            let u = pose_a.inverse_transform_vector(ua);
            now += (CoreOf(a).support(u) - motion_a.local_center).dot(u);
            out.iterations += 1;
        }
        if lb > zero {
            let u = pose_a.inverse_transform_vector(ub);
            now += (CoreOf(&b_local).support(u) - b_local.to_outer(motion_b.local_center)).dot(u);
            out.iterations += 1;
        }
        let accel =
            V::angular_speed(&motion_a.angular) * la * ta + V::angular_speed(&motion_b.angular) * lb * tb;
        if fastest.is_nan() || now.is_nan() || accel.is_nan() {
            out.status = CastStatus::InvalidInput;
            return Some(out);
        }
        let inf = V::Scalar::INFINITY;
        let first = if fastest > zero { room / fastest } else { inf };
        let two = V::Scalar::ONE + V::Scalar::ONE;
        let second = if accel > zero {
            let root = V::sqrt(now * now + two * accel * room);
            // The positive root of `accel Δ² / 2 + now Δ = room`, in the
            // form without cancellation.
            if now > zero { two * room / (now + root) } else { (root - now) / accel }
        } else if now > zero {
            room / now
        } else {
            inf
        };
        // Either bound proves the shapes apart over its interval.
        let mut advance = first.max(second);
        if directional && accel > zero && advance < t_max - t {
            // Third bound, for shapes that turn: the height of A's points
            // along `n` after `Δ` is at most their height now plus `Δ`
            // times their speed along it, plus the turn's curvature
            // (`accel · Δ² / 2`), so A's top is at most its support along
            // `n + Δ u` (one support call), and likewise B's. That bound
            // on the gap at `t + Δ`, `L(Δ)`, is concave in `Δ` (a support
            // function is convex), so `L(Δ) ≥ goal` proves the whole of
            // `[t, t + Δ]` safe. The first two bounds take every point's
            // speed as if it were the support's; this one lets a fast
            // point that lies deep below the support (the far corner of a
            // plank tipping on the floor) count only once it can get
            // there. Probed at the furthest step it can allow (the
            // current supports' own speeds), then halving towards the
            // step already proven.
            let (ca, cb) = (motion_a.local_center, b_local.to_outer(motion_b.local_center));
            let (ua, ub) = (pose_a.inverse_transform_vector(ua), pose_a.inverse_transform_vector(ub));
            let slope = along + (sa - ca).dot(ua) + (sb - cb).dot(ub);
            let root = V::sqrt(slope * slope + two * accel * room);
            let reachable = if slope > zero { two * room / (slope + root) } else { (root - slope) / accel };
            let mut hi = reachable.min(t_max - t);
            if hi > advance * V::Scalar::from_f64(NONLINEAR_CAST_PROBE_GAIN) {
                // The gap the bound must keep: `goal`, plus what the
                // supports' gap exceeds the measured distance by.
                let floor = goal + (gap - gap.min(r.signed_distance));
                let base = n.dot(cb - ca);
                let mut lo = advance;
                // Loop bound: NONLINEAR_CAST_PROBES probes.
                for probe in 0..NONLINEAR_CAST_PROBES {
                    let d = if probe == 0 { hi } else { (lo + hi) / two };
                    let (da, db) = (n + ua * d, -n + ub * d);
                    // (The cores' heights plus the radii: see `ta`.)
                    let top_a = if la > zero {
                        (CoreOf(a).support(da) - ca).dot(da) + a.radius()
                    } else {
                        (sa - ca).dot(n)
                    };
                    let top_b = if lb > zero {
                        (CoreOf(&b_local).support(db) - cb).dot(db) + b.radius()
                    } else {
                        (cb - sb).dot(n)
                    };
                    out.iterations += u32::from(la > zero) + u32::from(lb > zero);
                    let bound = base - along * d - top_a - top_b - accel * d * d / two;
                    if bound >= floor {
                        lo = d;
                        if probe == 0 {
                            // The furthest step allowed (exit: the probes).
                            break;
                        }
                    } else {
                        hi = d;
                    }
                }
                advance = lo;
            }
        }
        if advance == inf {
            // The gap along `n` never closes (exit: a miss, free to the end).
            return None;
        }
        let next = t + advance;
        if next >= t_max {
            // Apart until the end of the motion (exit: a miss, free to the
            // end).
            return None;
        }
        if next.is_nan() || next <= t {
            // The step is below the rounding of `t` (exit: undecided, safe
            // up to `t`).
            out.status = CastStatus::IterationLimit;
            return Some(out);
        }
        t = next;
    }
    // The step budget ran out (exit: undecided, safe up to `t`).
    out.fraction = t;
    out.status = CastStatus::IterationLimit;
    Some(out)
}
