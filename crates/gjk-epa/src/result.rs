//! What a contact query returns, and the shallow band its paths share.

use gjk_core::{Real, Vector};

use crate::epa::EpaStatus;

/// What a contact query found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactStatus {
    /// Apart by `distance` (> 0); the points are the closest points.
    Separated,
    /// In contact within the zero band: `distance` and `depth` are 0 and
    /// `normal` separates the shapes.
    Touching,
    /// Overlapping by `depth` (> 0) along `normal`; `point_a` is A's deepest
    /// point inside B and `point_b` B's deepest inside A.
    Penetrating,
    /// Overlapping, but neither depth nor normal could be determined (EPA
    /// could not build a polytope); only "they overlap" is known.
    Indeterminate,
    /// Apart by more than the prediction distance
    /// ([`GjkConfig::max_distance`](gjk_core::GjkConfig::max_distance)); the query stopped as soon as that was
    /// proven. `distance` is a proven lower bound, `normal` separates.
    Beyond,
    /// A pose, size or support point was NaN or infinite. `distance` is
    /// infinite (never read as contact), depth 0.
    InvalidInput,
}

/// A contact between two shapes (all vectors in the world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<V: Vector> {
    /// What was found.
    pub status: ContactStatus,
    /// Separation (0 unless separated).
    pub distance: V::Scalar,
    /// Penetration depth (0 unless penetrating).
    pub depth: V::Scalar,
    /// Unit normal pointing from A to B: moving B by `depth · normal`
    /// separates penetrating shapes.
    pub normal: V,
    /// Contact point on A.
    pub point_a: V,
    /// Contact point on B.
    pub point_b: V,
    /// GJK support calls (0 when two polygons' separating-axis test
    /// settled the contact: see [`contact_local`](crate::internal::contact_local)).
    pub gjk_iterations: u32,
    /// EPA support calls (0 when EPA was not needed).
    pub epa_iterations: u32,
    /// EPA's own status when it ran (an `IterationLimit` there means
    /// `depth` is a lower bound).
    pub epa_status: Option<EpaStatus>,
}

impl<V: Vector> Contact<V> {
    /// `distance − depth`: positive apart, negative overlapping.
    #[inline]
    pub fn signed_distance(&self) -> V::Scalar {
        self.distance - self.depth
    }

    /// Whether the shapes touch or overlap.
    #[inline]
    pub fn is_contact(&self) -> bool {
        matches!(
            self.status,
            ContactStatus::Touching | ContactStatus::Penetrating | ContactStatus::Indeterminate
        )
    }

    pub(crate) fn invalid() -> Self {
        Self {
            status: ContactStatus::InvalidInput,
            distance: V::Scalar::INFINITY,
            depth: V::Scalar::ZERO,
            normal: V::X,
            point_a: V::ZERO,
            point_b: V::ZERO,
            gjk_iterations: 0,
            epa_iterations: 0,
            epa_status: None,
        }
    }
}

/// Depths below this fraction of the shapes' size are re-measured by GJK
/// (√ε-ish: where EPA's face normals stop being trustworthy).
pub fn shallow_band<S: Real>() -> S {
    // 2^-26 ≈ 1.5e-8 for f64, 2^-12 ≈ 2.4e-4 for f32: about √ε.
    if S::EPSILON < S::from_f64(1e-10) { S::from_f64(1.0 / 67_108_864.0) } else { S::from_f64(1.0 / 4096.0) }
}
