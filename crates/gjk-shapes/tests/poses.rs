//! Poses from the rotations users hold: normalised when their norm is off,
//! refused with a named error when they cannot be, and never read as
//! contact by a query.

use gjk_shapes::gjk_core::Status;
use gjk_shapes::glam::{DQuat, DVec3, Quat, Vec3};
use gjk_shapes::{Cuboid, Pose, ShapeError, distance, intersects, try_intersects};
use gjk_testkit::Rng;

/// A quaternion off unit norm by any factor (1 ± 1e-3, 2, 1e-3, 1e3) gives
/// the pose of the unit quaternion: the same distances, to rounding.
#[test]
fn non_unit_rotations_are_normalised() {
    let mut rng = Rng::new(56);
    let cube = Cuboid::new(DVec3::new(1.0, 0.5, 0.25)).unwrap();
    for _ in 0..2000 {
        let axis = rng.unit3();
        let q = DQuat::from_axis_angle(axis, rng.range(-3.0, 3.0));
        let at = rng.unit3() * rng.range(2.0, 5.0);
        let unit = Pose::new(q, at);
        for k in [1.0 + 1e-3, 1.0 - 1e-3, 2.0, 1e-3, 1e3] {
            let scaled = Pose::new(q * k, at);
            assert!((scaled.rotation.length() - 1.0).abs() < 1e-12, "{k}: {:?}", scaled.rotation);
            let (a, b) = (
                distance(&cube, &Pose::IDENTITY, &cube, &unit),
                distance(&cube, &Pose::IDENTITY, &cube, &scaled),
            );
            assert_eq!(a.status, b.status, "{k}");
            assert!((a.distance - b.distance).abs() <= 1e-12 * (1.0 + a.distance), "{k}: {a:?} {b:?}");
            assert_eq!(Pose::try_new(q * k, at), Ok(scaled));
        }
        // A unit rotation is kept to the bit.
        assert_eq!(Pose::new(q.normalize(), at).rotation, q.normalize());
    }
}

/// Rotations that cannot be normalised and translations that are not
/// finite are named errors; queries on such a pose answer `InvalidInput`
/// with an infinite distance, and the boolean test says no.
#[test]
fn invalid_poses_are_errors_not_contact() {
    let cube = Cuboid::new(Vec3::splat(1.0)).unwrap();
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let nan = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    assert_eq!(Pose::try_new(zero, Vec3::X), Err(ShapeError::InvalidRotation));
    assert_eq!(Pose::try_new(nan, Vec3::X), Err(ShapeError::InvalidRotation));
    assert_eq!(Pose::try_new(Quat::IDENTITY, Vec3::new(f32::INFINITY, 0.0, 0.0)), Err(ShapeError::NonFinite));
    for bad in [Pose::new(zero, Vec3::ZERO), Pose::new(nan, Vec3::ZERO), Pose::from_translation(Vec3::NAN)] {
        // Overlapping cubes, had the pose been usable.
        let r = distance(&cube, &Pose::IDENTITY, &cube, &bad);
        assert_eq!(r.status, Status::InvalidInput, "{bad:?}");
        assert_eq!(r.distance, f32::INFINITY, "{bad:?}: invalid input reads as contact");
        assert!(!r.intersects());
        assert!(!intersects(&cube, &Pose::IDENTITY, &cube, &bad));
        assert!(try_intersects(&cube, &bad, &cube, &Pose::IDENTITY).is_err());
        assert!(!bad.is_valid(), "{bad:?}");
    }
}

/// The tuple conversions glam and Bevy users reach for.
#[test]
fn poses_convert_from_rotation_translation_pairs() {
    let q = Quat::from_rotation_y(0.3);
    let p: Pose<Vec3> = (q * 3.0, Vec3::X).into();
    assert!((p.rotation.length() - 1.0).abs() < 1e-6);
    let (r, t): (Quat, Vec3) = p.into();
    assert!(r.abs_diff_eq(q, 1e-6) && t == Vec3::X);
}
