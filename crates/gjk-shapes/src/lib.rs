//! # gjk-shapes
//!
//! Support mappings for [`gjk_core`]: the shapes and wrappers users reach
//! for, and pose-aware queries.
//!
//! - 3D: [`Point`], [`Sphere`], [`Capsule`], [`Cuboid`], [`Cylinder`],
//!   [`Cone`], [`Segment`], [`Triangle`], [`ConvexHull`] (from a point cloud,
//!   hill-climbing support on large hulls).
//! - 2D: [`Point`], [`Circle`], [`Capsule`], [`Rectangle`], [`Segment`],
//!   [`Triangle`], [`ConvexPolygon`] (counter-clockwise, hill climbing).
//! - Wrappers: [`Transformed`] (pose and scale), [`Rounded`] (`⊕ ball`),
//!   [`Swept`] (moved by a translation), [`MinkowskiSum`].
//! - [`Pose`] and the queries [`distance`] / [`distance_value`] /
//!   [`intersects`], which work in A's frame and treat round shapes as a
//!   core plus a radius, exactly. Polygon pairs take a walk on the
//!   boundary of `B − A` first (exact closest features in a few steps),
//!   small polygon pairs and box pairs the separating-axis theorem where it
//!   decides, GJK otherwise.
//! - [`cast_ray`] / [`cast_shape`]: ray casts and linear shape casts (time
//!   of impact) on posed shapes, exact for round shapes;
//!   [`cast_shape_nonlinear`]: the time of impact of shapes that turn as
//!   they move ([`Motion`]), by conservative advancement.
//!
//! Every shape is generic over the space: glam's `Vec2`, `DVec2`, `Vec3`
//! or `DVec3` (f32 or f64). Constructors validate and return
//! [`ShapeError`] for bad input; queries never panic. With the `serde`
//! feature, shapes, wrappers and poses serialize as their defining fields
//! and deserialize through the same constructors (a bad file is an error,
//! never a bad shape); hulls and polygons as their vertices.
//!
//! ```
//! use gjk_shapes::{Capsule, ConvexPolygon, Pose, distance, intersects, glam::DVec2};
//! let hex: Vec<DVec2> = (0..6).map(|i| {
//!     let a = i as f64 * std::f64::consts::TAU / 6.0;
//!     DVec2::new(a.cos(), a.sin())
//! }).collect();
//! let hexagon = ConvexPolygon::new(&hex).unwrap();
//! let pill = Capsule::new(1.0, 0.25).unwrap(); // along local Y
//! let at = Pose::from_angle_translation(0.0, DVec2::new(3.0, 0.0));
//! let r = distance(&hexagon, &Pose::IDENTITY, &pill, &at);
//! assert!((r.distance - 1.75).abs() < 1e-12);
//! assert!(!intersects(&hexagon, &Pose::IDENTITY, &pill, &at));
//! ```
#![warn(missing_docs)]

pub use gjk_core;
pub use gjk_core::glam;

mod batch;
mod cast;
mod error;
mod geometry;
mod hull;
mod motion;
mod obb;
mod packed;
mod pairs;
mod polygon;
mod primitives;
mod query;
#[cfg(feature = "serde")]
mod serde_impls;
mod shape;
mod space;
mod wrappers;

pub use batch::{PosedPair, distance_batch, intersects_batch};
pub use cast::{cast_ray, cast_ray_with, cast_shape, cast_shape_with};
pub use hull::{ConvexHull, HullFace};
pub use motion::{Motion, cast_shape_nonlinear, cast_shape_nonlinear_with};
pub use polygon::ConvexPolygon;
pub use primitives::{
    Ball, Capsule, Circle, Cone, Cuboid, Cylinder, Point, Rectangle, Segment, Sphere, Triangle,
};
pub use query::{
    distance, distance_value, distance_value_with, distance_with, intersects, intersects_with,
    simplex_to_world, try_intersects,
};
pub use shape::{CoreOf, Shape, ShapeError};
pub use space::{Angle, Pose, Rot2, Space};
pub use wrappers::{MinkowskiSum, Placed, Rounded, Swept, Transformed};

/// The tuning constants, for this workspace's crates and tests: not part
/// of the library's promise, and free to change.
#[doc(hidden)]
pub mod tuning {
    pub use crate::geometry::{POLYGON_CLIMB_SLACK_ULPS, RADII_MARGIN, RADII_ROUNDING};
    pub use crate::hull::{
        FACE_MERGE_TOLERANCE, FACE_MERGE_ULPS, HULL_EDGE_RESOLVED_ULPS, HULL_FOLD_TOLERANCE,
        HULL_HINT_CLIMB_LIMIT, HULL_NODE_DEGREE, HULL_REL_TOLERANCE, HULL_RING_DEGREE, HULL_RING_LIMIT,
        HULL_RING_MIN, HULL_SCAN_LIMIT, MAX_START_GRID, START_CELLS_PER_VERTEX, START_GRID,
    };
    pub use crate::motion::{
        NONLINEAR_CAST_MAX_STEPS, NONLINEAR_CAST_NORMAL_SHIFT, NONLINEAR_CAST_PROBE_GAIN,
        NONLINEAR_CAST_PROBES, NONLINEAR_CAST_TOLERANCE,
    };
    pub use crate::obb::{BOX_PARALLEL_SKIP, BOX_ROUNDING};
    pub use crate::pairs::{
        POLYGON_SAT_LIMIT, POLYGON_SAT_REACH_RATIO, POLYGON_WALK_CERT_ULPS, POLYGON_WALK_EDGE_ULPS,
        POLYGON_WALK_FOOT_ULPS, POLYGON_WALK_PAIRS,
    };
    pub use crate::polygon::POLYGON_SCAN_LIMIT;
}

/// The hooks this workspace's sibling crates build on (box and segment
/// views, the polygon walk, the posed layer's steps): not part of the
/// library's promise, and free to change.
#[doc(hidden)]
pub mod internal {
    pub use crate::batch::{MaybeSync, map_in_order};
    pub use crate::hull::{face_merge_tolerance, start_grid};
    pub use crate::motion::{Separation, cast_shape_nonlinear_measured, reach_from};
    pub use crate::obb::{
        BoxSeparation, BoxView, PointBox, box_gap, box_separation, box_separation_until, closest_on_segments,
        point_and_box, point_box,
    };
    pub use crate::pairs::{Pair, PolygonClosest, box_cores, classify, polygon_closest, segment_cores};
    pub use crate::query::{
        Route, add_radii, distance_local, distance_local_traced, distance_traced, to_world,
    };
    pub use crate::shape::PolygonView;
}
