//! Batch queries: a slice of posed pairs in, a vector of results out. With
//! the `rayon` feature the batch runs on rayon's thread pool, and the shapes
//! must be `Sync`; without it, in order on the calling thread, any shapes.
//! The library's shapes are plain data (`Send + Sync`), so any number of
//! threads may query them at once.

use gjk_core::DistanceResult;

use crate::query::{distance, intersects};
use crate::shape::Shape;
use crate::space::{Pose, Space};

/// `Sync` where the `rayon` feature is on (the batch runs on its pool);
/// no bound otherwise.
#[cfg(feature = "rayon")]
pub trait MaybeSync: Sync {}
#[cfg(feature = "rayon")]
impl<T: Sync + ?Sized> MaybeSync for T {}
/// `Sync` where the `rayon` feature is on (the batch runs on its pool);
/// no bound otherwise.
#[cfg(not(feature = "rayon"))]
pub trait MaybeSync {}
#[cfg(not(feature = "rayon"))]
impl<T: ?Sized> MaybeSync for T {}

/// `f` over every item, in order: on rayon's pool with the `rayon` feature,
/// else on the calling thread. The one loop behind every batch query.
pub fn map_in_order<P, T, F>(items: &[P], f: F) -> Vec<T>
where
    P: MaybeSync,
    T: Send,
    F: Fn(&P) -> T + MaybeSync + Send,
{
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        items.iter().map(f).collect()
    }
}

/// One pair of a batch.
#[derive(Clone, Copy, Debug)]
pub struct PosedPair<'s, V: Space, A: ?Sized, B: ?Sized> {
    /// Shape A.
    pub a: &'s A,
    /// A's pose.
    pub pose_a: Pose<V>,
    /// Shape B.
    pub b: &'s B,
    /// B's pose.
    pub pose_b: Pose<V>,
}

/// Distances of every pair, in order.
///
/// ```
/// use gjk_shapes::{Ball, Pose, PosedPair, distance_batch, glam::Vec3};
/// let ball = Ball::new(0.5f32).unwrap();
/// let pairs: Vec<_> = (1..=3)
///     .map(|k| PosedPair { a: &ball, pose_a: Pose::IDENTITY, b: &ball,
///                          pose_b: Pose::from_translation(Vec3::X * k as f32 * 2.0) })
///     .collect();
/// let d: Vec<f32> = distance_batch(&pairs).iter().map(|r| r.distance).collect();
/// assert_eq!(d, vec![1.0, 3.0, 5.0]);
/// ```
pub fn distance_batch<V, A, B>(pairs: &[PosedPair<'_, V, A, B>]) -> Vec<DistanceResult<V>>
where
    V: Space,
    A: Shape<V> + MaybeSync + ?Sized,
    B: Shape<V> + MaybeSync + ?Sized,
{
    map_in_order(pairs, |p| distance(p.a, &p.pose_a, p.b, &p.pose_b))
}

/// Boolean tests of every pair, in order.
pub fn intersects_batch<V, A, B>(pairs: &[PosedPair<'_, V, A, B>]) -> Vec<bool>
where
    V: Space,
    A: Shape<V> + MaybeSync + ?Sized,
    B: Shape<V> + MaybeSync + ?Sized,
{
    map_in_order(pairs, |p| intersects(p.a, &p.pose_a, p.b, &p.pose_b))
}
