//! Posed ray and shape casts: computed in the target's (ray) or A's
//! (shape cast) frame, round shapes exactly as cores plus radii.

use gjk_core::{CastHit, CastOptions, CastStatus, GjkConfig, Real, SimplexCache, Status};

use crate::query::distance_local;
use crate::shape::{CoreOf, Shape};
use crate::space::{Pose, Space};
use crate::wrappers::Placed;

/// Casts the ray `origin + t · dir`, `t ∈ [0, max_fraction]`, against
/// `shape` at `pose` (world frame in and out): the first hit, with the
/// surface's outward normal there, or `None` if the ray passes by.
///
/// ```
/// use gjk_core::CastStatus;
/// use gjk_shapes::{Ball, Pose, cast_ray, glam::Vec3};
/// let ball = Ball::new(1.0f32).unwrap();
/// let at = Pose::from_translation(Vec3::new(5.0, 0.0, 0.0));
/// let hit = cast_ray(&ball, &at, Vec3::ZERO, Vec3::X, 100.0).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// assert!((hit.fraction - 4.0).abs() < 1e-6);         // exact: the core is a point
/// assert_eq!(hit.normal, -Vec3::X);
/// ```
pub fn cast_ray<V, S>(
    shape: &S,
    pose: &Pose<V>,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
) -> Option<CastHit<V>>
where
    V: Space,
    S: Shape<V> + ?Sized,
{
    cast_ray_with(shape, pose, origin, dir, max_fraction, &GjkConfig::default(), None)
}

/// [`cast_ray`] with a configuration and an optional warm-start cache (in
/// the shape's frame).
pub fn cast_ray_with<V, S>(
    shape: &S,
    pose: &Pose<V>,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Space,
    S: Shape<V> + ?Sized,
{
    if !pose.is_valid() {
        return Some(invalid());
    }
    let o = pose.inverse_transform_point(origin);
    let d = pose.inverse_transform_vector(dir);
    let mut h = gjk_core::cast_ray_with(&CoreOf(shape), o, d, max_fraction, shape.radius(), config, cache)?;
    if h.is_hit() {
        h.point_a = pose.transform_point(h.point_a);
        h.point_b = pose.transform_point(h.point_b);
    }
    h.normal = pose.transform_vector(h.normal);
    Some(h)
}

/// The answer to an invalid pose: no motion is safe.
fn invalid<V: Space>() -> CastHit<V> {
    CastHit {
        status: CastStatus::InvalidInput,
        fraction: V::Scalar::ZERO,
        point_a: V::ZERO,
        point_b: V::ZERO,
        normal: V::X,
        iterations: 0,
        starts_in_contact: false,
    }
}

/// Linear shape cast of `a` at `pose_a` moving by `motion_a` against `b` at
/// `pose_b` moving by `motion_b` (translations over one step, world frame).
/// Returns the time of impact as `fraction`, the contact points at that
/// time and B's outward normal there (from B towards A), or `None` if they
/// never meet. `options.target_distance` adds a skin.
///
/// ```
/// use gjk_core::{CastOptions, CastStatus};
/// use gjk_shapes::{Ball, Cuboid, Pose, cast_shape, glam::Vec3};
/// let ball = Ball::new(0.5f32).unwrap();
/// let wall = Cuboid::new(Vec3::new(0.5, 5.0, 5.0)).unwrap();
/// let hit = cast_shape(&ball, &Pose::IDENTITY, Vec3::new(10.0, 0.0, 0.0),
///                      &wall, &Pose::from_translation(Vec3::new(6.0, 0.0, 0.0)), Vec3::ZERO,
///                      &CastOptions::default()).unwrap();
/// assert_eq!(hit.status, CastStatus::Hit);
/// assert!((hit.fraction - 0.5).abs() < 1e-6); // the ball's surface meets x = 5.5 after 5 units
/// assert!((hit.normal + Vec3::X).length() < 1e-6); // the wall's face, facing the ball
/// ```
pub fn cast_shape<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    motion_a: V,
    b: &B,
    pose_b: &Pose<V>,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    cast_shape_with(a, pose_a, motion_a, b, pose_b, motion_b, options, &GjkConfig::default(), None)
}

/// [`cast_shape`] with a configuration and an optional warm-start cache (in
/// A's frame).
#[allow(clippy::too_many_arguments)]
pub fn cast_shape_with<V, A, B>(
    a: &A,
    pose_a: &Pose<V>,
    motion_a: V,
    b: &B,
    pose_b: &Pose<V>,
    motion_b: V,
    options: &CastOptions<V::Scalar>,
    config: &GjkConfig<V::Scalar>,
    cache: Option<&mut SimplexCache<V>>,
) -> Option<CastHit<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let b_local = Placed::new(b, &pose_a.inv_mul(pose_b));
    let (ma, mb) = (pose_a.inverse_transform_vector(motion_a), pose_a.inverse_transform_vector(motion_b));
    let (ra, rb) = (a.radius(), b_local.radius());
    let opts = CastOptions { target_distance: options.target_distance + ra + rb, ..*options };
    if !pose_a.is_valid() || !pose_b.is_valid() {
        return Some(invalid());
    }
    let mut h = gjk_core::cast_shape_with(&CoreOf(a), ma, &CoreOf(&b_local), mb, &opts, config, cache)?;
    if h.status == CastStatus::StartsInside {
        // Already within reach: the distance query's normal (from A to B,
        // reversed), when it has one.
        let d = distance_local(a, &b_local, config, None);
        if matches!(d.status, Status::Separated | Status::Touching) {
            h.normal = -d.normal;
        }
        h.point_a = d.point_a;
        h.point_b = d.point_b;
    } else if h.status == CastStatus::Hit {
        // The normal is from B towards A: the rounded surfaces lie the
        // radii out from the cores' points along it.
        h.point_a = h.point_a - h.normal * ra;
        h.point_b = h.point_b + h.normal * rb;
    }
    if h.is_hit() {
        h.point_a = pose_a.transform_point(h.point_a);
        h.point_b = pose_a.transform_point(h.point_b);
    }
    h.normal = pose_a.transform_vector(h.normal);
    Some(h)
}
