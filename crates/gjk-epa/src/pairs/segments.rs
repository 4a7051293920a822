//! Two segment or point cores (capsules, balls): the contact in closed form.

use gjk_core::{GjkConfig, Real};
use gjk_shapes::internal::BoxView;
use gjk_shapes::{Shape, Space};

use super::{classify_exact, exact_contact};
use crate::result::{Contact, shallow_band};

/// Two shapes whose cores are segments or points ([`Shape::core_segment`]:
/// capsules and balls, [`gjk_shapes::internal::segment_cores`]): the contact from
/// the cores' closest points in closed form
/// ([`gjk_shapes::internal::closest_on_segments`]), classified as
/// [`contact_from_core`] does. Only where the cores are apart by more than
/// [`shallow_band`] of the pair's reach: nearer, the direction between
/// the points is ill-conditioned (and crossing cores have none), and GJK,
/// its refinement and EPA decide (`None`), as for non-finite values.
pub(crate) fn contact<V, A, B>(
    a: &A,
    b: &B,
    (sa, sb): (BoxView<V>, BoxView<V>),
    gjk: &GjkConfig<V::Scalar>,
) -> Option<Contact<V>>
where
    V: Space,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let margin = ra + rb;
    let reach = (sb.center - sa.center).length() + sa.half.length() + sb.half.length();
    if !(reach * reach).is_finite() || !margin.is_finite() {
        return None;
    }
    let (core_a, core_b) = gjk_shapes::internal::closest_on_segments(&sa, &sb);
    let d = core_b - core_a;
    let core_gap = d.length();
    if core_gap.partial_cmp(&(shallow_band::<V::Scalar>() * reach)) != Some(core::cmp::Ordering::Greater) {
        return None;
    }
    let n = d * (V::Scalar::ONE / core_gap);
    let config = gjk.sanitized();
    let band = config.zero_tolerance * reach.max(margin);
    let classified = classify_exact(core_gap - margin, band, config.max_distance);
    Some(exact_contact(classified, n, (core_a, core_b), (ra, rb)))
}
