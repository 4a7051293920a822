//! Rotations and poses for each space (2D/3D, f32/f64).

use core::fmt::Debug;

use gjk_core::glam::{DMat3, DQuat, DVec2, DVec3, Mat3, Quat, Vec2, Vec3};
use gjk_core::{Real, Vector};

/// A 2D rotation stored as its cosine and sine (glam has no 2D rotation type).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(deny_unknown_fields))]
pub struct Rot2<S> {
    /// `cos θ`.
    pub cos: S,
    /// `sin θ`.
    pub sin: S,
}

/// Scalars with the trigonometry 2D rotations need (`f32`, `f64`).
pub trait Angle: Real {
    /// `(sin x, cos x)`.
    fn sin_cos(self) -> (Self, Self);
    /// `atan2(self, x)`.
    fn atan2(self, x: Self) -> Self;
}

impl Angle for f32 {
    fn sin_cos(self) -> (f32, f32) {
        f32::sin_cos(self)
    }
    fn atan2(self, x: f32) -> f32 {
        f32::atan2(self, x)
    }
}

impl Angle for f64 {
    fn sin_cos(self) -> (f64, f64) {
        f64::sin_cos(self)
    }
    fn atan2(self, x: f64) -> f64 {
        f64::atan2(self, x)
    }
}

impl<S: Angle> Rot2<S> {
    /// The rotation by `angle` radians (counter-clockwise).
    pub fn from_angle(angle: S) -> Self {
        let (sin, cos) = angle.sin_cos();
        Self { cos, sin }
    }
    /// The angle in radians, in `(−π, π]`.
    pub fn angle(self) -> S {
        self.sin.atan2(self.cos)
    }
}

/// A space the shapes live in: one of glam's `Vec2`, `DVec2`, `Vec3`,
/// `DVec3`, with its rotation type and the few component-wise operations
/// support mappings need.
pub trait Space: Vector {
    /// The rotation type: [`Rot2`] in 2D, glam's quaternion in 3D.
    type Rotation: Copy + Debug + PartialEq + Send + Sync + 'static;
    /// The identity rotation.
    const IDENTITY: Self::Rotation;
    /// `r · v`.
    fn rotate(r: &Self::Rotation, v: Self) -> Self;
    /// `r⁻¹ · v`.
    fn inverse_rotate(r: &Self::Rotation, v: Self) -> Self;
    /// `a · b` (apply `b` first).
    fn compose(a: &Self::Rotation, b: &Self::Rotation) -> Self::Rotation;
    /// `r⁻¹`.
    fn invert(r: &Self::Rotation) -> Self::Rotation;
    /// Whether the rotation is finite and (to 1e-3) unit.
    fn rotation_is_valid(r: &Self::Rotation) -> bool;
    /// `r` as a unit rotation: itself where its norm is 1 to a few ulps,
    /// else divided by its norm; `None` where that is zero or not finite.
    fn normalized_rotation(r: &Self::Rotation) -> Option<Self::Rotation>;
    /// Component-wise product.
    fn mul_elem(a: Self, b: Self) -> Self;
    /// `|mag|` with the sign of `sign` per component (`+` for `+0`).
    fn copysign(mag: Self, sign: Self) -> Self;
    /// The smallest component.
    fn min_elem(self) -> Self::Scalar;
    /// Component `i`.
    fn component(self, i: usize) -> Self::Scalar;
    /// A vector with every component `s`.
    fn splat(s: Self::Scalar) -> Self;
    /// A rotation as a matrix: applying it costs a matrix product instead
    /// of a quaternion sandwich, worth it for one rotation applied many times.
    type Matrix: Copy + Debug + PartialEq + Send + Sync + 'static;
    /// The matrix of `r`.
    fn matrix(r: &Self::Rotation) -> Self::Matrix;
    /// `m · v`.
    fn mat_mul(m: &Self::Matrix, v: Self) -> Self;
    /// `mᵀ · v` (the inverse rotation).
    fn mat_tmul(m: &Self::Matrix, v: Self) -> Self;
    /// An angular velocity in the world frame, radians per unit of time: a
    /// scalar in 2D (counter-clockwise), a vector in 3D (axis × rate).
    type AngularVelocity: Copy + Debug + PartialEq + Default + Send + Sync + 'static;
    /// The rotation made by turning at `w` for time `t` (`exp(t w)`).
    fn rotation_after(w: &Self::AngularVelocity, t: Self::Scalar) -> Self::Rotation;
    /// The vector `u` with `(w × r) · n = r · u` for every `r`: `n × w` in
    /// 3D, `w (n.y, −n.x)` in 2D. A point at `r` from the centre of the
    /// turn moves along `n` at `r · u`.
    fn turn_direction(w: &Self::AngularVelocity, n: Self) -> Self;
    /// `|w|`, radians per unit of time.
    fn angular_speed(w: &Self::AngularVelocity) -> Self::Scalar;
    /// Two unit vectors spanning the plane a turn at `w` moves points in
    /// (perpendicular to its axis in 3D, the plane itself in 2D), in the
    /// frame of a body turned by `frame`: a point's distance from the axis
    /// is its length in that plane, and the turn keeps it.
    fn turn_plane(w: &Self::AngularVelocity, frame: &Self::Rotation) -> [Self; 2];
    /// How fast a turn at `w` turns a body (turned by `frame`) other than
    /// about its own `axis` (a unit vector of the body's frame): `|w × a|`
    /// for the world axis `a` in 3D (the angle between `w` and `a` is
    /// the same all through the turn, so this is too), `|w|` in 2D (a
    /// turn in the plane is never about a line of it).
    fn turn_off_axis(w: &Self::AngularVelocity, frame: &Self::Rotation, axis: Self) -> Self::Scalar;
    /// `√s`.
    fn sqrt(s: Self::Scalar) -> Self::Scalar;
    /// Whether every component of `w` is finite.
    fn angular_is_finite(w: &Self::AngularVelocity) -> bool;
}

macro_rules! impl_space2 {
    ($v:ty, $s:ty) => {
        impl Space for $v {
            type Rotation = Rot2<$s>;
            type Matrix = Rot2<$s>;
            #[inline]
            fn matrix(r: &Rot2<$s>) -> Rot2<$s> {
                *r
            }
            #[inline]
            fn mat_mul(m: &Rot2<$s>, v: Self) -> Self {
                <Self as Space>::rotate(m, v)
            }
            #[inline]
            fn mat_tmul(m: &Rot2<$s>, v: Self) -> Self {
                <Self as Space>::inverse_rotate(m, v)
            }
            const IDENTITY: Rot2<$s> = Rot2 { cos: 1.0, sin: 0.0 };
            #[inline]
            fn rotate(r: &Rot2<$s>, v: Self) -> Self {
                <$v>::new(r.cos * v.x - r.sin * v.y, r.sin * v.x + r.cos * v.y)
            }
            #[inline]
            fn inverse_rotate(r: &Rot2<$s>, v: Self) -> Self {
                <$v>::new(r.cos * v.x + r.sin * v.y, -r.sin * v.x + r.cos * v.y)
            }
            #[inline]
            fn compose(a: &Rot2<$s>, b: &Rot2<$s>) -> Rot2<$s> {
                Rot2 { cos: a.cos * b.cos - a.sin * b.sin, sin: a.sin * b.cos + a.cos * b.sin }
            }
            #[inline]
            fn invert(r: &Rot2<$s>) -> Rot2<$s> {
                Rot2 { cos: r.cos, sin: -r.sin }
            }
            fn normalized_rotation(r: &Rot2<$s>) -> Option<Rot2<$s>> {
                let n2 = r.cos * r.cos + r.sin * r.sin;
                if (n2 - 1.0).abs() <= 8.0 * <$s>::EPSILON {
                    return Some(*r);
                }
                let n = n2.sqrt();
                (n > 0.0 && n.is_finite()).then(|| Rot2 { cos: r.cos / n, sin: r.sin / n })
            }
            fn rotation_is_valid(r: &Rot2<$s>) -> bool {
                r.cos.is_finite() && r.sin.is_finite() && ((r.cos * r.cos + r.sin * r.sin) - 1.0).abs() < 1e-3
            }
            #[inline]
            fn mul_elem(a: Self, b: Self) -> Self {
                a * b
            }
            #[inline]
            fn copysign(mag: Self, sign: Self) -> Self {
                mag.abs().copysign(sign)
            }
            #[inline]
            fn min_elem(self) -> $s {
                self.min_element()
            }
            #[inline]
            fn component(self, i: usize) -> $s {
                self[i]
            }
            #[inline]
            fn splat(s: $s) -> Self {
                <$v>::splat(s)
            }
            type AngularVelocity = $s;
            #[inline]
            fn rotation_after(w: &$s, t: $s) -> Rot2<$s> {
                Rot2::from_angle(*w * t)
            }
            #[inline]
            fn turn_direction(w: &$s, n: Self) -> Self {
                <$v>::new(n.y, -n.x) * *w
            }
            #[inline]
            fn angular_speed(w: &$s) -> $s {
                w.abs()
            }
            #[inline]
            fn turn_plane(_: &$s, _: &Rot2<$s>) -> [Self; 2] {
                [<$v>::X, <$v>::Y]
            }
            #[inline]
            fn turn_off_axis(w: &$s, _: &Rot2<$s>, _: Self) -> $s {
                w.abs()
            }
            #[inline]
            fn sqrt(s: $s) -> $s {
                s.sqrt()
            }
            #[inline]
            fn angular_is_finite(w: &$s) -> bool {
                w.is_finite()
            }
        }
    };
}

macro_rules! impl_space3 {
    ($v:ty, $s:ty, $q:ty, $m:ty) => {
        impl Space for $v {
            type Rotation = $q;
            type Matrix = $m;
            #[inline]
            fn matrix(r: &$q) -> $m {
                <$m>::from_quat(*r)
            }
            #[inline]
            fn mat_mul(m: &$m, v: Self) -> Self {
                *m * v
            }
            #[inline]
            fn mat_tmul(m: &$m, v: Self) -> Self {
                <$v>::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v))
            }
            const IDENTITY: $q = <$q>::IDENTITY;
            #[inline]
            fn rotate(r: &$q, v: Self) -> Self {
                *r * v
            }
            #[inline]
            fn inverse_rotate(r: &$q, v: Self) -> Self {
                r.inverse() * v
            }
            #[inline]
            fn compose(a: &$q, b: &$q) -> $q {
                *a * *b
            }
            #[inline]
            fn invert(r: &$q) -> $q {
                r.inverse()
            }
            fn normalized_rotation(r: &$q) -> Option<$q> {
                let n2 = r.length_squared();
                if (n2 - 1.0).abs() <= 8.0 * <$s>::EPSILON {
                    return Some(*r);
                }
                let n = n2.sqrt();
                (n > 0.0 && n.is_finite()).then(|| *r / n)
            }
            fn rotation_is_valid(r: &$q) -> bool {
                r.is_finite() && (r.length_squared() - 1.0).abs() < 1e-3
            }
            #[inline]
            fn mul_elem(a: Self, b: Self) -> Self {
                a * b
            }
            #[inline]
            fn copysign(mag: Self, sign: Self) -> Self {
                mag.abs().copysign(sign)
            }
            #[inline]
            fn min_elem(self) -> $s {
                self.min_element()
            }
            #[inline]
            fn component(self, i: usize) -> $s {
                self[i]
            }
            #[inline]
            fn splat(s: $s) -> Self {
                <$v>::splat(s)
            }
            type AngularVelocity = $v;
            #[inline]
            fn rotation_after(w: &$v, t: $s) -> $q {
                <$q>::from_scaled_axis(*w * t)
            }
            #[inline]
            fn turn_direction(w: &$v, n: Self) -> Self {
                n.cross(*w)
            }
            #[inline]
            fn angular_speed(w: &$v) -> $s {
                w.length()
            }
            #[inline]
            fn turn_plane(w: &$v, frame: &$q) -> [Self; 2] {
                match (frame.inverse() * *w).try_normalize() {
                    Some(axis) => {
                        let (e1, e2) = axis.any_orthonormal_pair();
                        [e1, e2]
                    }
                    // No turn: any plane (nothing turns in it).
                    None => [<$v>::X, <$v>::Y],
                }
            }
            #[inline]
            fn turn_off_axis(w: &$v, frame: &$q, axis: Self) -> $s {
                w.cross(*frame * axis).length()
            }
            #[inline]
            fn sqrt(s: $s) -> $s {
                s.sqrt()
            }
            #[inline]
            fn angular_is_finite(w: &$v) -> bool {
                w.is_finite()
            }
        }
    };
}

impl_space2!(Vec2, f32);
impl_space2!(DVec2, f64);
impl_space3!(Vec3, f32, Quat, Mat3);
impl_space3!(DVec3, f64, DQuat, DMat3);

/// A rigid motion: rotation, then translation (`p ↦ R p + t`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Pose<V: Space> {
    /// The rotation.
    pub rotation: V::Rotation,
    /// The translation.
    pub translation: V,
}

/// `(rotation, translation)`, as glam and Bevy's `Transform` hold them
/// (`Pose::from((t.rotation, t.translation))`); normalised as [`Pose::new`].
impl<V: Space> From<(V::Rotation, V)> for Pose<V> {
    #[inline]
    fn from((rotation, translation): (V::Rotation, V)) -> Self {
        Self::new(rotation, translation)
    }
}

/// `(rotation, translation)`.
impl<V: Space> From<Pose<V>> for (V::Rotation, V) {
    #[inline]
    fn from(p: Pose<V>) -> Self {
        (p.rotation, p.translation)
    }
}

impl<V: Space> Default for Pose<V> {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl<V: Space> Pose<V> {
    /// No motion.
    pub const IDENTITY: Self = Self { rotation: V::IDENTITY, translation: V::ZERO };

    /// A pose from a rotation and a translation. A rotation whose norm is
    /// not 1 is normalised; one that cannot be (zero, NaN) is kept, and
    /// queries on the pose answer `InvalidInput` ([`Self::try_new`] says so
    /// at once).
    #[inline]
    pub fn new(rotation: V::Rotation, translation: V) -> Self {
        Self { rotation: V::normalized_rotation(&rotation).unwrap_or(rotation), translation }
    }

    /// [`Self::new`], or the reason the pose is unusable: a translation
    /// that is not finite, a rotation that is zero or not finite.
    ///
    /// ```
    /// use gjk_shapes::{Pose, ShapeError, glam::{Quat, Vec3}};
    /// let p = Pose::try_new(Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), Vec3::X).unwrap();
    /// assert_eq!(p.rotation, Quat::IDENTITY); // normalised
    /// let bad = Pose::try_new(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::X);
    /// assert_eq!(bad, Err(ShapeError::InvalidRotation));
    /// ```
    pub fn try_new(rotation: V::Rotation, translation: V) -> Result<Self, crate::error::ShapeError> {
        if !translation.is_finite() {
            return Err(crate::error::ShapeError::NonFinite);
        }
        let rotation = V::normalized_rotation(&rotation).ok_or(crate::error::ShapeError::InvalidRotation)?;
        Ok(Self { rotation, translation })
    }

    /// A pure translation.
    #[inline]
    pub fn from_translation(translation: V) -> Self {
        Self { rotation: V::IDENTITY, translation }
    }

    /// A pure rotation.
    #[inline]
    pub fn from_rotation(rotation: V::Rotation) -> Self {
        Self { rotation, translation: V::ZERO }
    }

    /// `R p + t`.
    #[inline]
    pub fn transform_point(&self, p: V) -> V {
        V::rotate(&self.rotation, p) + self.translation
    }

    /// `R v` (directions and normals).
    #[inline]
    pub fn transform_vector(&self, v: V) -> V {
        V::rotate(&self.rotation, v)
    }

    /// `R⁻¹ (p − t)`.
    #[inline]
    pub fn inverse_transform_point(&self, p: V) -> V {
        V::inverse_rotate(&self.rotation, p - self.translation)
    }

    /// `R⁻¹ v`.
    #[inline]
    pub fn inverse_transform_vector(&self, v: V) -> V {
        V::inverse_rotate(&self.rotation, v)
    }

    /// The inverse motion.
    #[inline]
    pub fn inverse(&self) -> Self {
        let r = V::invert(&self.rotation);
        Self { rotation: r, translation: -V::rotate(&r, self.translation) }
    }

    /// `self ∘ other`: apply `other`, then `self`.
    #[inline]
    pub fn mul(&self, other: &Self) -> Self {
        Self {
            rotation: V::compose(&self.rotation, &other.rotation),
            translation: self.transform_point(other.translation),
        }
    }

    /// `self⁻¹ ∘ other`: `other` expressed in this pose's local frame. The
    /// translations are subtracted first, so two poses far from the origin
    /// give an accurate relative pose.
    #[inline]
    pub fn inv_mul(&self, other: &Self) -> Self {
        let inv = V::invert(&self.rotation);
        Self {
            rotation: V::compose(&inv, &other.rotation),
            translation: V::rotate(&inv, other.translation - self.translation),
        }
    }

    /// Whether the translation is finite and the rotation finite and unit.
    pub fn is_valid(&self) -> bool {
        self.translation.is_finite() && V::rotation_is_valid(&self.rotation)
    }
}

impl<V> Pose<V>
where
    V: Space<Rotation = Rot2<<V as Vector>::Scalar>>,
    V::Scalar: Angle,
{
    /// A 2D pose from an angle (radians, counter-clockwise) and a translation.
    pub fn from_angle_translation(angle: V::Scalar, translation: V) -> Self {
        Self::new(Rot2::from_angle(angle), translation)
    }
}

/// `S::ONE / (1 + 1)` without a literal (generic code).
#[inline]
pub(crate) fn half<S: Real>() -> S {
    S::ONE / (S::ONE + S::ONE)
}
