//! Casts that start in contact: a contact the motion does not deepen does
//! not stop them (parry's `stop_at_penetration: false` and its
//! "directional" nonlinear mode).
//!
//! Where the shapes start within the target distance, the cast measures
//! their signed distance `d₀` at time 0 (overlaps by EPA, through
//! [`contact_local`]) and looks for the first time they are closer than
//! `d₀` by the tolerance ([`NONLINEAR_CAST_TOLERANCE`]), by conservative
//! advancement on the signed distance ([`cast_shape_nonlinear_measured`]).
//! Under a linear motion the signed distance is convex in time (the
//! distance from a point moving on a line to a convex set, signed), so a
//! contact that the motion does not deepen at once is never deepened
//! later: such a cast steps once and misses (`None`).

use gjk_core::{CastHit, CastOptions, CastStatus, GjkConfig, Real, SimplexCache};
use gjk_shapes::internal::{Separation, cast_shape_nonlinear_measured, reach_from};
use gjk_shapes::{Motion, Placed, Pose, Shape, Space, cast_shape_with};
#[cfg(doc)]
use gjk_shapes::{cast_shape_nonlinear, tuning::NONLINEAR_CAST_TOLERANCE};

use crate::contact::{ContactStatus, contact_local};
use crate::epa::{EpaConfig, EpaSpace};

/// Linear shape cast ([`gjk_shapes::cast_shape`]: motions over one step,
/// world frame) that starting contact does not stop. Where the shapes
/// start within `options.target_distance`, overlapping included, the
/// cast reports the first time they are closer than at the start by at
/// least the tolerance ([`NONLINEAR_CAST_TOLERANCE`] of the smaller
/// shape's reach) and at most the tolerance plus a slack (the larger of
/// the tolerance and twice the contact query's zero band, which in f32
/// grows with the larger shape): a [`CastStatus::Hit`] there, with
/// the contact points and normal at that time (for an overlap, the
/// deepest points and B's outward normal), or `None` where the motion
/// slides along or leaves the contact (the whole motion is free; the
/// contact query at the start says whether they touched). Shapes that start beyond the target distance get
/// [`gjk_shapes::cast_shape`]'s answer. [`CastStatus::StartsInside`] only
/// where the shapes overlap by a depth EPA could not find
/// ([`ContactStatus::Indeterminate`]).
///
/// ```
/// use gjk_core::{CastOptions, CastStatus};
/// use gjk_epa::cast_shape_directional;
/// use gjk_shapes::{Cuboid, Pose, glam::Vec3};
/// let floor = Cuboid::new(Vec3::new(10.0, 0.5, 10.0)).unwrap();
/// let crate_box = Cuboid::new(Vec3::splat(0.5)).unwrap();
/// let (below, on) = (Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)), Pose::from_translation(Vec3::new(0.0, 0.5, 0.0)));
/// let opts = CastOptions::default();
/// // Resting on the floor: sliding along it or lifting off runs free …
/// let slide = cast_shape_directional(&crate_box, &on, Vec3::new(3.0, 0.0, 0.0), &floor, &below, Vec3::ZERO, &opts);
/// assert!(slide.is_none());
/// let lift = cast_shape_directional(&crate_box, &on, Vec3::new(1.0, 2.0, 0.0), &floor, &below, Vec3::ZERO, &opts);
/// assert!(lift.is_none());
/// // … pressing into it stops at once (within the tolerance and, in f32, the
/// // contact query's zero band for a floor this size, ~10⁻³).
/// let press = cast_shape_directional(&crate_box, &on, Vec3::new(1.0, -1.0, 0.0), &floor, &below, Vec3::ZERO, &opts)
///     .unwrap();
/// assert_eq!(press.status, CastStatus::Hit);
/// assert!(press.fraction < 2e-3 && (press.normal - Vec3::Y).length() < 1e-5); // the floor's, facing up
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shape_directional<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    motion_a: V,
    b: &B,
    pose_b: &Pose<V>,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (gjk, epa) = (GjkConfig::default(), EpaConfig::default());
    cast_shape_directional_with(a, pose_a, motion_a, b, pose_b, motion_b, options, &gjk, &epa)
}

/// [`cast_shape_directional`] with the distance and penetration queries'
/// configurations.
#[allow(clippy::too_many_arguments)]
pub fn cast_shape_directional_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    motion_a: V,
    b: &B,
    pose_b: &Pose<V>,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let hit = cast_shape_with(a, pose_a, motion_a, b, pose_b, motion_b, options, gjk, None);
    if hit.is_none_or(|h| h.status != CastStatus::StartsInside) {
        return hit;
    }
    // In contact at the start: the same motions as rigid motions that do
    // not turn, cast on the signed distance.
    let still = V::AngularVelocity::default();
    let (ma, mb) = (Motion::new(*pose_a, motion_a, still), Motion::new(*pose_b, motion_b, still));
    let mut h = cast_shape_nonlinear_directional_with(a, &ma, b, &mb, options, gjk, epa)?;
    // The linear cast found them in contact, whatever the measure's
    // rounding says at the same instant.
    h.starts_in_contact = h.status != CastStatus::InvalidInput;
    Some(h)
}

/// Nonlinear shape cast ([`cast_shape_nonlinear`]: rigid motions that
/// turn) that starting contact does not stop: as
/// [`cast_shape_directional`], the contact the shapes start in (within
/// `options.target_distance`, overlapping included) ends the cast only
/// once the motion makes it deeper by the tolerance; a turn that lifts or
/// slides the contact runs free until another part of the shapes comes
/// closer than they started. Shapes that start beyond the target
/// distance get [`cast_shape_nonlinear`]'s answer (within its tolerance).
///
/// Balls rolling, and capsules rolling about their own axis, run free:
/// their turns do not move their cores. A sharp shape that keeps rolling
/// while in contact (a cylinder on the road) advances in steps of about
/// the tolerance over its rim speed and can end
/// [`CastStatus::IterationLimit`], whose fraction is still safe: the
/// bound of each step (module docs of [`gjk_shapes`]' `motion.rs`) cannot
/// tell a cylinder's rim from a box's corner.
///
/// ```
/// use gjk_core::{CastOptions, CastStatus};
/// use gjk_epa::cast_shape_nonlinear_directional;
/// use gjk_shapes::{Motion, Pose, Rectangle, glam::Vec2};
/// // A 2 × 0.5 plank lying on the floor tips up about its left corner, a
/// // quarter turn per unit of time: free until it stands upright (after 1),
/// // then its top corner swings down into the floor.
/// let plank = Rectangle::new(Vec2::new(1.0, 0.25)).unwrap();
/// let floor = Rectangle::new(Vec2::new(10.0, 0.5)).unwrap();
/// let tip = Motion::new(Pose::from_translation(Vec2::new(1.0, 0.25)), Vec2::ZERO, std::f32::consts::FRAC_PI_2)
///     .with_local_center(Vec2::new(-1.0, -0.25));
/// let ground = Motion::fixed(Pose::from_translation(Vec2::new(0.0, -0.5)));
/// let opts = CastOptions { max_fraction: 2.0, ..CastOptions::default() };
/// let hit = cast_shape_nonlinear_directional(&plank, &tip, &floor, &ground, &opts).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// assert!(hit.fraction > 1.0 && hit.fraction < 1.002);
/// ```
pub fn cast_shape_nonlinear_directional<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    cast_shape_nonlinear_directional_with(
        a,
        motion_a,
        b,
        motion_b,
        options,
        &GjkConfig::default(),
        &EpaConfig::default(),
    )
}

/// [`cast_shape_nonlinear_directional`] with the distance and penetration
/// queries' configurations.
pub fn cast_shape_nonlinear_directional_with<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Scalar>,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let mut cache = SimplexCache::default();
    // The contact query calls cores within its zero band touching (depth
    // 0), and that band grows with the coordinates of `A − B` (the larger
    // shape's size and their offset): the cast's tolerance must not be
    // finer. Twice the band, from each shape's reach about its origin.
    let (reach_a, reach_b) = (reach_from(a, V::ZERO), reach_from(b, V::ZERO));
    let zero_tolerance = gjk.sanitized().zero_tolerance;
    let measure = |a: &A, b: &Placed<&B, V>| {
        let scale = reach_a + reach_b + b.to_outer(V::ZERO).length();
        let band = (zero_tolerance + zero_tolerance) * scale;
        let c = contact_local(a, b, gjk, epa, Some(&mut cache));
        let signed_distance = match c.status {
            // Overlapping by an unknown depth: the cast cannot tell
            // deeper from shallower.
            ContactStatus::Indeterminate => return None,
            ContactStatus::InvalidInput => V::Scalar::NAN,
            _ => c.signed_distance(),
        };
        Some(Separation {
            signed_distance,
            normal: c.normal,
            point_a: c.point_a,
            point_b: c.point_b,
            band,
            support_calls: c.gjk_iterations + c.epa_iterations,
        })
    };
    cast_shape_nonlinear_measured(a, motion_a, b, motion_b, options, measure)
}
