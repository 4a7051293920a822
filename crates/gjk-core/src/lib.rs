//! # gjk-core
//!
//! GJK (Gilbert–Johnson–Keerthi) distance, closest points, separating normal
//! and boolean intersection for any pair of convex shapes described by a
//! support mapping, in 2D and 3D, `f32` and `f64`, without allocation and
//! without `std` (enable the `libm` feature instead of `std`).
//!
//! - [`distance`] / [`distance_with`]: the distance, the
//!   witness points on A and B (exact convex combinations of support
//!   points), the unit normal from A to B, the final simplex with its source
//!   points, the iteration count and a [`Status`] saying what it all means.
//! - [`distance_value`] / [`distance_value_with`]: the distance alone (the
//!   barycode paper's "level 2"), the same value without the rest.
//! - [`intersects`] / [`try_intersects`] / [`intersects_with`]: a yes/no
//!   answer with the early exits of the barycode paper, no distance work.
//! - Shapes that name an inner and an outer ball
//!   ([`SupportMap::center_radii`]) settle far and deeply overlapping pairs
//!   with no support call; the boolean test and the distance alone ask
//!   their balls first.
//! - [`GjkSolver`]: the same algorithm driven one iteration at a time by the
//!   caller, for debug drawing; [`Recorder`] collects iterations of a normal
//!   query at zero cost when off.
//! - [`SimplexCache`]: warm starting between frames (`distance_with(a, b,
//!   &config, Some(&mut cache), &mut ())`).
//! - [`SupportMap::support_search`] / [`SupportMap::climb_step`]: shapes
//!   that hill-climb over their vertices hand over their climbs a step at a
//!   time, and the queries step both shapes' climbs in turn, so that their
//!   memory loads overlap.
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
mod config;
mod gjk;
mod kernel;
mod query;
mod real;
mod simplex;
#[doc(hidden)]
pub mod solver2d;
#[doc(hidden)]
pub mod solver3d;
mod subsolver;
mod support;
mod vector;

pub use cast::{CastHit, CastOptions, CastStatus, cast_ray, cast_ray_with, cast_shape, cast_shape_with};
pub use gjk::{DEFAULT_MAX_ITERATIONS, DistanceResult, GjkConfig, GjkSolver, Status, Step};
pub use query::{
    GjkError, Iteration, IterationBuffer, Recorder, SimplexCache, distance, distance_value,
    distance_value_with, distance_with, intersects, intersects_with, try_intersects,
};
pub use real::Real;
pub use simplex::{NO_INDEX, Simplex, SupportPoint};
pub use support::{SupportMap, support_fn};
pub use vector::Vector;

/// The tuning constants, for this workspace's crates and tests: not part
/// of the library's promise, and free to change.
#[doc(hidden)]
pub mod tuning {
    pub use crate::cast::CAST_BISECTIONS;
    pub use crate::gjk::MAX_VERIFY_CANDIDATES;
    pub use crate::kernel::{ESCAPE_TILT, MAX_ESCAPES, MAX_REFINES};
    pub use crate::query::BALL_ROUNDING;
    pub use crate::simplex::{DEEP_BAND_FLOOR, SOURCE_SCALE_WEIGHT};
}

/// The hooks this workspace's sibling crates build on (the query split into
/// its steps, bounding-ball tests, the lanes adapter, stepped climbs): not
/// part of the library's promise, and free to change.
#[doc(hidden)]
pub mod internal {
    pub use crate::query::{
        BallTest, ball_test, ball_test_of, distance_from, distance_value_or, distance_warm, first_support,
        intersects_within, start_proves_beyond, warm_exit,
    };
    pub use crate::subsolver::SubSolver;
    pub use crate::subsolver::{MAX_SIMPLEX_POINTS, Reduced};
    pub use crate::support::{Climb, InLanes, Search, SupportFn, minkowski_support, minkowski_support_from};
    pub use crate::vector::{Vector2, Vector3};
}
