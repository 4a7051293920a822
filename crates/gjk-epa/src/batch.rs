//! The contact query over a batch of posed pairs, in order: on rayon's
//! thread pool with the `rayon` feature (shapes then `Sync`), else on the
//! calling thread.

use gjk_shapes::internal::{MaybeSync, map_in_order};
use gjk_shapes::{PosedPair, Shape, Space};

use crate::contact::{Contact, contact};
use crate::epa::EpaSpace;

/// Contacts of every pair, in order (as [`contact`] one by one).
///
/// ```
/// use gjk_epa::{ContactStatus, contact_batch};
/// use gjk_shapes::{Ball, Pose, PosedPair, glam::Vec3};
/// let ball = Ball::new(0.5f32).unwrap();
/// let pairs: Vec<_> = [0.8f32, 2.0]
///     .iter()
///     .map(|&x| PosedPair { a: &ball, pose_a: Pose::IDENTITY, b: &ball,
///                           pose_b: Pose::from_translation(Vec3::X * x) })
///     .collect();
/// let c = contact_batch(&pairs);
/// assert_eq!(c[0].status, ContactStatus::Penetrating);
/// assert_eq!(c[1].status, ContactStatus::Separated);
/// ```
pub fn contact_batch<V, A, B>(pairs: &[PosedPair<'_, V, A, B>]) -> Vec<Contact<V>>
where
    V: Space + EpaSpace,
    A: Shape<V> + MaybeSync + ?Sized,
    B: Shape<V> + MaybeSync + ?Sized,
{
    map_in_order(pairs, |p| contact(p.a, &p.pose_a, p.b, &p.pose_b))
}
