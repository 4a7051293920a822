//! # gjk-epa
//!
//! Penetration depth, normal and contact points for overlapping convex
//! shapes (the Expanding Polytope Algorithm, 2D and 3D), a one-call
//! [`contact`] query for the shapes of [`gjk_shapes`], and contact
//! manifolds for polytope pairs.
//!
//! - [`contact`]: separated → distance, closest points, normal; touching →
//!   depth 0 with a valid normal; penetrating → depth, normal from A to B,
//!   the deepest point of each shape. Round shapes run on their cores and
//!   add the radii: no EPA when only the rounded margins overlap. Two
//!   polygon cores (2D) are settled exactly, with no GJK or EPA, by a walk
//!   on the boundary of `B − A` and the separating-axis theorem.
//! - [`penetration`]: EPA itself, from any GJK simplex holding the origin,
//!   with fixed capacities, a named
//!   iteration cap and an explicit [`EpaStatus::Indeterminate`].
//! - [`polytope_manifold`]: up to four points for face contacts (box–box),
//!   by clipping the incident face against the reference face; the
//!   contact's single point where no face carries it (edge to edge).
//!   [`polygon_manifold`]: the same in 2D, up
//!   to two points (Box2D's `b2CollidePolygons`).
//! - [`cast_shape_directional`], [`cast_shape_nonlinear_directional`]:
//!   linear and nonlinear shape casts that a contact at the start does not
//!   stop unless the motion deepens it (overlaps sized by EPA).
//!
//! ```
//! use gjk_epa::{ContactStatus, contact, polytope_manifold};
//! use gjk_shapes::{Cuboid, Pose, glam::Vec3};
//! let ground = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
//! let crate_box = Cuboid::new(Vec3::splat(0.5)).unwrap();
//! let (pg, pc) = (Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)), Pose::from_translation(Vec3::new(0.0, 0.49, 0.0)));
//! let c = contact(&ground, &pg, &crate_box, &pc);
//! assert_eq!(c.status, ContactStatus::Penetrating);
//! assert!((c.depth - 0.01).abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-5);
//! let m = polytope_manifold(&ground, &pg, &crate_box, &pc, &c, 0.0);
//! assert_eq!(m.len(), 4); // the whole bottom face rests on the ground
//! ```
#![warn(missing_docs)]

mod batch;
mod cast;
mod contact;
mod epa;
mod manifold;
mod pairs;
mod result;
mod sat;

pub use batch::contact_batch;
pub use cast::{
    cast_shape_directional, cast_shape_directional_with, cast_shape_nonlinear_directional,
    cast_shape_nonlinear_directional_with,
};
pub use contact::{Contact, ContactStatus, contact, contact_with, contact_within};
pub use epa::{EpaConfig, EpaSpace, EpaStatus, Penetration, penetration};
pub use manifold::{
    ContactManifold, MAX_MANIFOLD_POINTS, ManifoldPoint, ManifoldWorkspace, PolygonEdges, PolyhedronFaces,
    SINGLE_POINT_ID, polygon_manifold, polytope_manifold, polytope_manifold_with,
};

/// The tuning constants, for this workspace's crates and tests: not part
/// of the library's promise, and free to change.
#[doc(hidden)]
pub mod tuning {
    pub use crate::epa::{DEFAULT_EPA_ITERATIONS, EPA_MAX_FACES, EPA_MAX_VERTICES, EPA_ROUNDING_ULPS};
    pub use crate::manifold::{
        DISC_FACE_POINTS, FACE_CONTACT_TOLERANCE, MANIFOLD_EXHAUSTIVE_POINTS, REFERENCE_FACE_BIAS,
        RIM_FACE_ALIGNMENT, SIDE_NORMAL_SAMPLES, SIDE_REFINE_STEPS,
    };
    pub use crate::pairs::polygons::POLYGON_CONTACT_WALK_PAIRS;
}

/// The hooks this workspace's tools build on (the contact in one frame,
/// the polygon separating-axis test): not part of the library's promise,
/// and free to change.
#[doc(hidden)]
pub mod internal {
    pub use crate::contact::{contact_local, contact_local_traced, contact_traced, shallow_band};
    pub use crate::manifold::FaceScore;
    pub use crate::sat::{PolygonSeparation, polygon_separation};
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The guide's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide.md")]
struct GuideDoctests;
