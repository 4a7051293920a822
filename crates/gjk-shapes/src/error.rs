//! The error a shape constructor gives.

/// Why a shape could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeError {
    /// A point set needs at least one point.
    EmptyPointSet,
    /// A coordinate, radius, size or pose component was NaN or infinite.
    NonFinite,
    /// A radius was negative.
    NegativeRadius,
    /// A size (half extent, half height, cylinder or cone radius) was zero
    /// or negative.
    NonPositiveSize,
    /// A rotation was not a unit quaternion / unit 2D rotation.
    InvalidRotation,
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            ShapeError::EmptyPointSet => "a point set needs at least one point",
            ShapeError::NonFinite => "a coordinate or size is NaN or infinite",
            ShapeError::NegativeRadius => "a radius is negative",
            ShapeError::NonPositiveSize => "a size is zero or negative",
            ShapeError::InvalidRotation => "a rotation is not a unit rotation",
        })
    }
}

impl std::error::Error for ShapeError {}
