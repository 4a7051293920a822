//! # gjk-core
//!
//! GJK (Gilbert–Johnson–Keerthi) distance, closest points, separating normal
//! and boolean intersection for any pair of convex shapes described by a
//! support mapping, in 2D and 3D, `f32` and `f64`, without allocation and
//! without `std` (enable the `libm` feature instead of `std`).
//!
//! - [`distance`] / [`distance_warm`] / [`distance_with`]: the distance, the
//!   witness points on A and B (exact convex combinations of support
//!   points), the unit normal from A to B, the final simplex with its source
//!   points, the iteration count and a [`Status`] saying what it all means.
//! - [`distance_value`] / [`distance_value_with`]: the distance alone (the
//!   barycode paper's "level 2"), the same value without the rest.
//! - [`first_support`], [`start_proves_beyond`], [`distance_from`]: a cold
//!   query's first step on its own, to reject far pairs after one support
//!   call and go on from it otherwise.
//! - [`intersects`] / [`try_intersects`] / [`intersects_with`]: a yes/no
//!   answer with the early exits of the barycode paper, no distance work.
//! - [`ball_test`]: shapes that name an inner and an outer ball
//!   ([`SupportMap::center_radii`]) settle far and deeply overlapping pairs
//!   with no support call; the boolean test and the distance alone ask it
//!   first.
//! - [`GjkSolver`]: the same algorithm driven one iteration at a time by the
//!   caller, for debug drawing; [`Recorder`] collects iterations of a normal
//!   query at zero cost when off.
//! - [`SimplexCache`]: warm starting between frames.
//! - [`SupportMap::support_search`] / [`SupportMap::climb_step`]: shapes
//!   that hill-climb over their vertices hand over their climbs a step at a
//!   time, and [`minkowski_support`] steps both shapes' climbs in turn, so
//!   that their memory loads overlap.
//! - [`cast_ray`] / [`cast_shape`]: ray casts and linear shape casts (time
//!   of impact), with a margin for round shapes and target distances.
//!
//! Conventions: the Minkowski difference is `A − B`; `normal` points from A
//! to B; all outputs are in the frame the support functions answer in.
//!
//! ```
//! use gjk_core::{SupportMap, glam::DVec3};
//!
//! /// Bring your own shape: a support function is all GJK needs.
//! struct Ball { centre: DVec3, radius: f64 }
//! impl SupportMap<DVec3> for Ball {
//!     fn support(&self, d: DVec3) -> DVec3 {
//!         self.centre + d.normalize_or_zero() * self.radius
//!     }
//! }
//!
//! let cube: Vec<DVec3> = (0..8)
//!     .map(|i| DVec3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
//!     .collect();
//! let ball = Ball { centre: DVec3::new(3.0, 0.5, 0.5), radius: 1.0 };
//! let r = gjk_core::distance(cube.as_slice(), &ball);
//! assert!((r.distance - 1.0).abs() < 1e-9);
//! assert!((r.point_a.x - 1.0).abs() < 1e-9 && (r.point_b.x - 2.0).abs() < 1e-9);
//! assert!(!gjk_core::intersects(cube.as_slice(), &ball));
//! ```
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

pub use glam;

mod cast;
mod gjk;
mod kernel;
mod query;
mod real;
mod simplex;
pub mod solver2d;
pub mod solver3d;
mod support;
mod vector;

pub use cast::{
    CAST_BISECTIONS, CastHit, CastOptions, CastStatus, cast_ray, cast_ray_with, cast_shape, cast_shape_with,
};
pub use gjk::{
    DEEP_BAND_FLOOR, DEFAULT_MAX_ITERATIONS, DistanceResult, GjkConfig, GjkSolver, MAX_VERIFY_CANDIDATES,
    SOURCE_SCALE_WEIGHT, Status, Step,
};
pub use kernel::{ESCAPE_TILT, MAX_ESCAPES, MAX_REFINES};
pub use query::{
    BALL_ROUNDING, BallTest, GjkError, Iteration, IterationBuffer, Recorder, SimplexCache, ball_test,
    ball_test_of, distance, distance_from, distance_value, distance_value_or, distance_value_with,
    distance_warm, distance_with, first_support, intersects, intersects_with, intersects_within,
    start_proves_beyond, try_intersects, warm_exit,
};
pub use real::Real;
pub use simplex::{MAX_SIMPLEX_POINTS, NO_INDEX, Reduced, Simplex, SupportPoint};
pub use support::{
    Climb, InLanes, Search, SupportFn, SupportMap, minkowski_support, minkowski_support_from, support_fn,
};
pub use vector::{SubSolver, Vector, Vector2, Vector3};
