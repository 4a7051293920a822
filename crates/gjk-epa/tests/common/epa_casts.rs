//! gjk-epa's casts answering the cast tests' [`Answer`]s (see
//! `gjk-core/tests/common/cast_answer.rs`).
#![allow(dead_code)]

use super::cast_answer::{Answer, shape};
use gjk_epa::{EpaConfig, EpaSpace};
use gjk_shapes::gjk_core::{CastOptions, GjkConfig};
use gjk_shapes::{Motion, Pose, Shape, Space};

pub fn cast_shape_directional<V: Space + EpaSpace, A: Shape<V> + ?Sized, B: Shape<V> + ?Sized>(
    a: &A,
    pa: &Pose<V>,
    ma: V,
    b: &B,
    pb: &Pose<V>,
    mb: V,
    options: &CastOptions<V::Scalar>,
) -> Answer<V> {
    shape(gjk_epa::cast_shape_directional(a, pa, ma, b, pb, mb, options), options.max_fraction)
}

#[allow(clippy::too_many_arguments)]
pub fn cast_shape_directional_with<V: Space + EpaSpace, A: Shape<V> + ?Sized, B: Shape<V> + ?Sized>(
    a: &A,
    pa: &Pose<V>,
    ma: V,
    b: &B,
    pb: &Pose<V>,
    mb: V,
    options: &CastOptions<V::Scalar>,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
) -> Answer<V> {
    shape(gjk_epa::cast_shape_directional_with(a, pa, ma, b, pb, mb, options, gjk, epa), options.max_fraction)
}

pub fn cast_shape_nonlinear_directional<V: Space + EpaSpace, A: Shape<V> + ?Sized, B: Shape<V> + ?Sized>(
    a: &A,
    ma: &Motion<V>,
    b: &B,
    mb: &Motion<V>,
    options: &CastOptions<V::Scalar>,
) -> Answer<V> {
    shape(gjk_epa::cast_shape_nonlinear_directional(a, ma, b, mb, options), options.max_fraction)
}

pub fn cast_shape_nonlinear_directional_with<
    V: Space + EpaSpace,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
>(
    a: &A,
    ma: &Motion<V>,
    b: &B,
    mb: &Motion<V>,
    options: &CastOptions<V::Scalar>,
    gjk: &GjkConfig<V::Scalar>,
    epa: &EpaConfig<V::Scalar>,
) -> Answer<V> {
    shape(
        gjk_epa::cast_shape_nonlinear_directional_with(a, ma, b, mb, options, gjk, epa),
        options.max_fraction,
    )
}
