//! The casts' answers in the form the cast tests check them: a miss spelled
//! out as a status with the whole motion free, and a shape cast's normal
//! from A to B (the library returns `None` for a miss and B's outward
//! normal, facing A: `cast_normals_face_what_moves` pins that convention).
//! Shared by the cast tests of gjk-core, gjk-shapes and gjk-epa.
#![allow(dead_code)]

use gjk_core::{CastHit, Vector};

/// What a cast found, a miss included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastStatus {
    /// `gjk_core::CastStatus::Hit`.
    Hit,
    /// `gjk_core::CastStatus::StartsInside`.
    StartsInside,
    /// `None`: no contact within the maximum fraction.
    Miss,
    /// `gjk_core::CastStatus::IterationLimit`.
    IterationLimit,
    /// `gjk_core::CastStatus::InvalidInput`.
    InvalidInput,
}

/// A cast's answer: `CastHit`'s fields, a miss at `max_fraction`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer<V: Vector> {
    pub status: CastStatus,
    pub fraction: V::Scalar,
    pub point_a: V,
    pub point_b: V,
    /// A ray's: the surface's outward normal; a shape cast's: from A to B.
    pub normal: V,
    pub iterations: u32,
    pub starts_in_contact: bool,
}

impl<V: Vector> Answer<V> {
    /// Whether the cast touches the target (`Hit` or `StartsInside`).
    pub fn is_hit(&self) -> bool {
        matches!(self.status, CastStatus::Hit | CastStatus::StartsInside)
    }
}

/// A ray cast's answer.
pub fn ray<V: Vector>(h: Option<CastHit<V>>, max_fraction: V::Scalar) -> Answer<V> {
    answer(h, max_fraction, false)
}

/// A shape cast's answer (normal from A to B).
pub fn shape<V: Vector>(h: Option<CastHit<V>>, max_fraction: V::Scalar) -> Answer<V> {
    answer(h, max_fraction, true)
}

fn answer<V: Vector>(h: Option<CastHit<V>>, max_fraction: V::Scalar, flip: bool) -> Answer<V> {
    match h {
        None => Answer {
            status: CastStatus::Miss,
            fraction: max_fraction,
            point_a: V::ZERO,
            point_b: V::ZERO,
            normal: V::X,
            iterations: 0,
            starts_in_contact: false,
        },
        Some(h) => Answer {
            status: match h.status {
                gjk_core::CastStatus::Hit => CastStatus::Hit,
                gjk_core::CastStatus::StartsInside => CastStatus::StartsInside,
                gjk_core::CastStatus::IterationLimit => CastStatus::IterationLimit,
                gjk_core::CastStatus::InvalidInput => CastStatus::InvalidInput,
            },
            fraction: h.fraction,
            point_a: h.point_a,
            point_b: h.point_b,
            normal: if flip { -h.normal } else { h.normal },
            iterations: h.iterations,
            starts_in_contact: h.starts_in_contact,
        },
    }
}

/// gjk-core's casts, answering [`Answer`]s.
pub mod core {
    use super::{Answer, ray, shape};
    use gjk_core::{CastOptions, GjkConfig, SimplexCache, SupportMap, Vector};

    pub fn cast_ray<V: Vector, S: SupportMap<V> + ?Sized>(
        s: &S,
        origin: V,
        dir: V,
        max_fraction: V::Scalar,
        radius: V::Scalar,
    ) -> Answer<V> {
        ray(gjk_core::cast_ray(s, origin, dir, max_fraction, radius), max_fraction)
    }

    pub fn cast_ray_with<V: Vector, S: SupportMap<V> + ?Sized>(
        s: &S,
        origin: V,
        dir: V,
        max_fraction: V::Scalar,
        radius: V::Scalar,
        config: &GjkConfig<V::Scalar>,
        cache: Option<&mut SimplexCache<V>>,
    ) -> Answer<V> {
        ray(gjk_core::cast_ray_with(s, origin, dir, max_fraction, radius, config, cache), max_fraction)
    }

    pub fn cast_shape<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(
        a: &A,
        ma: V,
        b: &B,
        mb: V,
        options: &CastOptions<V::Scalar>,
    ) -> Answer<V> {
        shape(gjk_core::cast_shape(a, ma, b, mb, options), options.max_fraction)
    }

    pub fn cast_shape_with<V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized>(
        a: &A,
        ma: V,
        b: &B,
        mb: V,
        options: &CastOptions<V::Scalar>,
        config: &GjkConfig<V::Scalar>,
        cache: Option<&mut SimplexCache<V>>,
    ) -> Answer<V> {
        shape(gjk_core::cast_shape_with(a, ma, b, mb, options, config, cache), options.max_fraction)
    }
}
