//! gjk-shapes' casts answering the cast tests' [`Answer`]s (see
//! `gjk-core/tests/common/cast_answer.rs`). Shared by the cast tests of
//! gjk-shapes and gjk-epa.
#![allow(dead_code)]

use super::cast_answer::{Answer, ray, shape};
use gjk_shapes::gjk_core::CastOptions;
use gjk_shapes::{Motion, Pose, Shape, Space};

pub fn cast_ray<V: Space, S: Shape<V> + ?Sized>(
    s: &S,
    pose: &Pose<V>,
    origin: V,
    dir: V,
    max_fraction: V::Scalar,
) -> Answer<V> {
    ray(gjk_shapes::cast_ray(s, pose, origin, dir, max_fraction), max_fraction)
}

pub fn cast_shape<V: Space, A: Shape<V> + ?Sized, B: Shape<V> + ?Sized>(
    a: &A,
    pa: &Pose<V>,
    ma: V,
    b: &B,
    pb: &Pose<V>,
    mb: V,
    options: &CastOptions<V::Scalar>,
) -> Answer<V> {
    shape(gjk_shapes::cast_shape(a, pa, ma, b, pb, mb, options), options.max_fraction)
}

pub fn cast_shape_nonlinear<V: Space, A: Shape<V> + ?Sized, B: Shape<V> + ?Sized>(
    a: &A,
    ma: &Motion<V>,
    b: &B,
    mb: &Motion<V>,
    options: &CastOptions<V::Scalar>,
) -> Answer<V> {
    shape(gjk_shapes::cast_shape_nonlinear(a, ma, b, mb, options), options.max_fraction)
}
