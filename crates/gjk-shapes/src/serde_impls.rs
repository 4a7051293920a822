//! `serde` support (feature `serde`): shapes, wrappers and poses serialize
//! as their defining fields (glam's vectors and quaternions as arrays), and
//! deserialize through their constructors, so that a file can never build
//! a shape the constructors would refuse: a negative radius, a NaN, a
//! non-unit rotation or an empty point set is a [`ShapeError`], reported
//! as the deserializer's error. Hulls and polygons serialize as their
//! vertices (`{"points": [...]}`) and are rebuilt from them (the same
//! vertices, in the same order, so cached vertex indices still hold).
//! [`Placed`](crate::Placed), the queries' internal form with a matrix,
//! has no serde form: serialize a [`Transformed`] or a [`Pose`] instead.

use gjk_core::Real;
use gjk_core::internal::{Vector2, Vector3};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::hull::ConvexHull;
use crate::polygon::ConvexPolygon;
use crate::primitives::{Ball, Capsule, Cone, Cuboid, Cylinder, Point, Segment, Triangle};
use crate::shape::ShapeError;
use crate::space::{Pose, Space};
use crate::wrappers::{MinkowskiSum, Rounded, Swept, Transformed};

/// Deserializes `$raw` (a private mirror of the fields, unknown fields
/// refused) and builds `$ty` from it with `$make`, whose [`ShapeError`]
/// becomes the deserializer's error.
macro_rules! checked {
    ($ty:ty, $raw:ty, [$($gen:tt)*], |$r:ident| $make:expr) => {
        impl<'de, $($gen)*> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let $r = <$raw>::deserialize(d)?;
                let made: Result<Self, ShapeError> = $make;
                made.map_err(D::Error::custom)
            }
        }
    };
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointRaw<V> {
    p: V,
}
checked!(Point<V>, PointRaw<V>, [V: Space + Deserialize<'de>], |r| Point::new(r.p));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BallRaw<S> {
    radius: S,
}
checked!(Ball<S>, BallRaw<S>, [S: Real + Deserialize<'de>], |r| Ball::new(r.radius));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SizesRaw<S> {
    half_height: S,
    radius: S,
}
checked!(Capsule<S>, SizesRaw<S>, [S: Real + Deserialize<'de>], |r| Capsule::new(r.half_height, r.radius));
checked!(Cylinder<S>, SizesRaw<S>, [S: Real + Deserialize<'de>], |r| Cylinder::new(r.half_height, r.radius));
checked!(Cone<S>, SizesRaw<S>, [S: Real + Deserialize<'de>], |r| Cone::new(r.half_height, r.radius));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CuboidRaw<V> {
    half_extents: V,
}
checked!(Cuboid<V>, CuboidRaw<V>, [V: Space + Deserialize<'de>], |r| Cuboid::new(r.half_extents));

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "V: Deserialize<'de>"))]
struct PointsRaw<const N: usize, V> {
    #[serde(with = "serde_arrays")]
    points: [V; N],
}

/// Fixed-size arrays of any length through a sequence (serde's own impls
/// cover them; this names the bound in one place).
mod serde_arrays {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, D, V, const N: usize>(d: D) -> Result<[V; N], D::Error>
    where
        D: Deserializer<'de>,
        V: Deserialize<'de>,
    {
        let v = Vec::<V>::deserialize(d)?;
        let len = v.len();
        v.try_into().map_err(|_| serde::de::Error::invalid_length(len, &"the shape's number of points"))
    }
}
checked!(Segment<V>, PointsRaw<2, V>, [V: Space + Deserialize<'de>], |r| {
    let [a, b] = r.points;
    Segment::new(a, b)
});
checked!(Triangle<V>, PointsRaw<3, V>, [V: Space + Deserialize<'de>], |r| {
    let [a, b, c] = r.points;
    Triangle::new(a, b, c)
});

/// A hull's or polygon's serde form: its vertices.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CloudRaw<V> {
    points: Vec<V>,
}

impl<V: Space + Vector3 + Serialize> Serialize for ConvexHull<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        CloudRaw { points: self.vertices().to_vec() }.serialize(s)
    }
}
checked!(ConvexHull<V>, CloudRaw<V>, [V: Space + Vector3 + Deserialize<'de>], |r| ConvexHull::new(&r.points));

impl<V: Space + Vector2 + Serialize> Serialize for ConvexPolygon<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        CloudRaw { points: self.vertices().to_vec() }.serialize(s)
    }
}
checked!(ConvexPolygon<V>, CloudRaw<V>, [V: Space + Vector2 + Deserialize<'de>], |r| ConvexPolygon::new(&r.points));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseRaw<R, V> {
    rotation: R,
    translation: V,
}
checked!(Pose<V>, PoseRaw<V::Rotation, V>, [V: Space<Rotation: Deserialize<'de>> + Deserialize<'de>], |r| {
    // A file's rotation must be unit (to 1e-3): a stretched one is a
    // mistake in the file, not rounding; within that it is normalised.
    if !r.translation.is_finite() {
        Err(ShapeError::NonFinite)
    } else if !V::rotation_is_valid(&r.rotation) {
        Err(ShapeError::InvalidRotation)
    } else {
        Ok(Pose::new(r.rotation, r.translation))
    }
});

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundedRaw<T, S> {
    shape: T,
    radius: S,
}
checked!(Rounded<T, S>, RoundedRaw<T, S>, [T: Deserialize<'de>, S: Real + Deserialize<'de>], |r| {
    Rounded::new(r.shape, r.radius)
});

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransformedRaw<T, P, V> {
    shape: T,
    pose: P,
    /// Ones where left out.
    scale: Option<V>,
}
checked!(
    Transformed<T, V>,
    TransformedRaw<T, Pose<V>, V>,
    [T: Deserialize<'de>, V: Space<Rotation: Deserialize<'de>> + Deserialize<'de>],
    |r| Transformed::with_scale(r.shape, r.pose, r.scale.unwrap_or(V::splat(V::Scalar::ONE)))
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SweptRaw<T, V> {
    shape: T,
    motion: V,
}
checked!(Swept<T, V>, SweptRaw<T, V>, [T: Deserialize<'de>, V: Space + Deserialize<'de>], |r| Swept::new(
    r.shape, r.motion
));

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SumRaw<A, B> {
    a: A,
    b: B,
}
checked!(MinkowskiSum<A, B>, SumRaw<A, B>, [A: Deserialize<'de>, B: Deserialize<'de>], |r| Ok(
    MinkowskiSum::new(r.a, r.b)
));
