//! The distance alone (`distance_value`, the Barycode paper's "level 2"):
//! exactly the full query's distance on every pair where that is final
//! (separated, touching, overlapping), infinity past `max_distance`, errors
//! for invalid input; and against the brute-force distance.

use gjk_core::glam::{DVec2, DVec3, Vec2, Vec3};
use gjk_core::{GjkConfig, GjkError, Status, distance, distance_value, distance_value_with, distance_with};
use gjk_testkit::*;

/// The value against the full query on the same inputs (to the bit).
fn agrees<V, A, B>(a: &A, b: &B, config: &GjkConfig<V::Scalar>, ctx: &str) -> Status
where
    V: gjk_core::Vector,
    A: gjk_core::SupportMap<V> + ?Sized,
    B: gjk_core::SupportMap<V> + ?Sized,
{
    let full = distance_with(a, b, config, None, &mut ());
    let value = distance_value_with(a, b, config);
    let want = match full.status {
        Status::Separated | Status::Touching | Status::Intersecting => Ok(full.distance),
        Status::Beyond => Ok(<V::Scalar as gjk_core::Real>::INFINITY),
        Status::InvalidInput => Err(GjkError::InvalidInput),
        Status::IterationLimit => Err(GjkError::IterationLimit),
    };
    assert_eq!(value, want, "{ctx}: {:?}", full.status);
    full.status
}

/// The point of `pts` with the largest `key`.
fn extreme<P: Copy>(pts: &[P], key: impl Fn(&P) -> f64) -> P {
    *pts.iter().max_by(|x, y| key(x).total_cmp(&key(y))).expect("points")
}

#[test]
fn value_is_the_full_querys_distance() {
    let mut rng = Rng::new(6060);
    let mut seen = [0usize; 4];
    for i in 0..4000 {
        let (na, nb) = (rng.usize(1, 12), rng.usize(1, 12));
        // B moved so that its lowest vertex along `u` sits on A's highest,
        // then by `gap` along `u`: touching at a shared vertex (gap 0),
        // apart or overlapping.
        let gap = match i % 4 {
            0 => 0.0,
            1 => rng.range(-1.0, 0.0),
            _ => rng.range(0.0, 2.0),
        };
        let config = if i % 3 == 0 { GjkConfig::within(rng.range(0.0, 1.0)) } else { GjkConfig::default() };
        let status = if i % 2 == 0 {
            let a = polyhedron(&mut rng, na);
            let b0 = polyhedron(&mut rng, nb);
            let u = rng.unit3();
            let shift = extreme(&a, |p| p.dot(u)) - extreme(&b0, |p| -p.dot(u)) + u * gap;
            let b: Vec<DVec3> = b0.iter().map(|p| *p + shift).collect();
            let (a32, b32): (Vec<Vec3>, Vec<Vec3>) =
                (a.iter().map(|p| p.as_vec3()).collect(), b.iter().map(|p| p.as_vec3()).collect());
            let config32 = GjkConfig::within(config.max_distance as f32);
            agrees(a32.as_slice(), b32.as_slice(), &config32, &format!("pair {i} f32"));
            agrees(a.as_slice(), b.as_slice(), &config, &format!("pair {i}"))
        } else {
            let a = polygon(&mut rng, na.max(3));
            let b0 = polygon(&mut rng, nb.max(3));
            let u = DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
            let shift = extreme(&a, |p| p.dot(u)) - extreme(&b0, |p| -p.dot(u)) + u * gap;
            let b: Vec<DVec2> = b0.iter().map(|p| *p + shift).collect();
            let (a32, b32): (Vec<Vec2>, Vec<Vec2>) =
                (a.iter().map(|p| p.as_vec2()).collect(), b.iter().map(|p| p.as_vec2()).collect());
            let config32 = GjkConfig::within(config.max_distance as f32);
            agrees(a32.as_slice(), b32.as_slice(), &config32, &format!("pair {i} f32"));
            agrees(a.as_slice(), b.as_slice(), &config, &format!("pair {i}"))
        };
        let k = match status {
            Status::Separated => 0,
            Status::Touching => 1,
            Status::Intersecting => 2,
            _ => 3,
        };
        seen[k] += 1;
    }
    // Every outcome exercised: separated, touching, overlapping, beyond.
    assert!(seen.iter().all(|&c| c > 200), "outcomes {seen:?}");
}

/// Against brute force over the vertices (disjoint pairs), at scales from
/// 1e-6 to 1e6, with A and B swapped.
#[test]
fn value_against_brute_force() {
    let mut rng = Rng::new(6161);
    for i in 0..3000 {
        let scale = 10f64.powi(rng.usize(0, 12) as i32 - 6);
        let (na, nb) = (rng.usize(4, 16), rng.usize(4, 16));
        let a: Vec<DVec3> = polyhedron(&mut rng, na).iter().map(|p| *p * scale).collect();
        let b0: Vec<DVec3> = polyhedron(&mut rng, nb).iter().map(|p| *p * scale).collect();
        let u = rng.unit3();
        let lift = height3(&a, u) + height3(&b0, -u) + rng.range(1e-3, 2.0) * scale;
        let b: Vec<DVec3> = b0.iter().map(|p| *p + u * lift).collect();
        let truth = brute_distance_3d(&a, &b);
        let tol = 1e-9 * scale;
        let ab = distance_value(a.as_slice(), b.as_slice()).unwrap();
        let ba = distance_value(b.as_slice(), a.as_slice()).unwrap();
        assert!((ab - truth).abs() <= tol && (ba - truth).abs() <= tol, "pair {i}: {ab} {ba} vs {truth}");
    }
}

#[test]
fn invalid_input_is_an_error() {
    let a = [DVec3::ZERO, DVec3::X, DVec3::Y];
    let nan = [DVec3::new(f64::NAN, 0.0, 0.0), DVec3::X];
    let inf = [DVec3::new(f64::INFINITY, 0.0, 0.0)];
    assert_eq!(distance_value(a.as_slice(), nan.as_slice()), Err(GjkError::InvalidInput));
    assert_eq!(distance_value(inf.as_slice(), a.as_slice()), Err(GjkError::InvalidInput));
    // A degenerate pair (one point each, coincident) measures 0.
    let p = [DVec3::ONE];
    assert_eq!(distance_value(p.as_slice(), p.as_slice()), Ok(0.0));
    assert_eq!(distance(p.as_slice(), p.as_slice()).distance, 0.0);
}

/// The rarer exits: boxes whose faces are parallel to within 1e-13 to
/// 1e-7 radians (where the solver's escapes break ties between support
/// points), f32 and f64, and iteration caps of 1 to 4 (the cap is an
/// error exactly when the full query stops at it).
#[test]
fn value_agrees_on_near_parallel_faces_and_caps() {
    use gjk_core::glam::{DMat3, DQuat};
    let mut rng = Rng::new(6262);
    let (mut capped, mut escaped) = (0, 0);
    for i in 0..3000 {
        let tilt = 10f64.powf(rng.range(-13.0, -7.0));
        let axis = rng.unit3();
        let rot = DMat3::from_quat(DQuat::from_axis_angle(axis, tilt));
        let ha = DVec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        let hb = DVec3::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0), rng.range(0.2, 1.0));
        // B above A's top face, offset sideways, apart by a small gap.
        let side = DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0));
        let centre = side + DVec3::Y * (ha.y + hb.y + rng.range(0.0, 0.05));
        let a = box_corners(ha, DMat3::IDENTITY, DVec3::ZERO);
        let b = box_corners(hb, rot, centre);
        let config = if i % 3 == 0 {
            GjkConfig { max_iterations: rng.usize(1, 4) as u32, ..GjkConfig::default() }
        } else {
            GjkConfig::default()
        };
        let status = agrees(a.as_slice(), b.as_slice(), &config, &format!("boxes {i}"));
        capped += usize::from(status == Status::IterationLimit);
        let (a32, b32): (Vec<Vec3>, Vec<Vec3>) =
            (a.iter().map(|p| p.as_vec3()).collect(), b.iter().map(|p| p.as_vec3()).collect());
        agrees(
            a32.as_slice(),
            b32.as_slice(),
            &GjkConfig { max_iterations: config.max_iterations, ..GjkConfig::default() },
            &format!("boxes {i} f32"),
        );
        // An escape searches off `−v`: a direction that is not the negated
        // closest point of the step before.
        let mut rec = Vec::new();
        let full = distance_with(a.as_slice(), b.as_slice(), &GjkConfig::default(), None, &mut rec);
        let off = rec.windows(2).any(|w| w[1].direction != -w[0].closest);
        escaped += usize::from(off && full.status == Status::Separated);
    }
    assert!(capped > 100, "caps exercised: {capped}");
    assert!(escaped > 10, "escapes exercised: {escaped}");
}

/// A disc that names its balls and counts its support calls.
struct CountedDisc {
    centre: DVec2,
    radius: f64,
    calls: std::cell::Cell<u32>,
}

impl gjk_core::SupportMap<DVec2> for CountedDisc {
    fn support(&self, d: DVec2) -> DVec2 {
        self.calls.set(self.calls.get() + 1);
        self.centre + d.normalize_or_zero() * self.radius
    }
    fn center(&self) -> Option<DVec2> {
        Some(self.centre)
    }
    fn center_radii(&self) -> Option<(f64, f64)> {
        Some((self.radius, self.radius))
    }
}

#[test]
fn deep_overlap_needs_no_support_call() {
    // The balls decide a deep overlap before the first support call; a
    // shallow one (inside the balls' slack) and a separated pair still
    // search. The answers are the full query's either way.
    let disc = |x: f64| CountedDisc { centre: DVec2::new(x, 0.3), radius: 1.0, calls: Default::default() };
    // Within the zero band of the pair's reach (about 4): undecided.
    let shallow = 2.0 - GjkConfig::<f64>::default().zero_tolerance;
    for (x, want_calls) in [(0.5, false), (1.9, false), (shallow, true), (2.5, true)] {
        let (a, b) = (disc(0.0), disc(x));
        let value = distance_value(&a, &b).unwrap();
        let calls = a.calls.get() + b.calls.get();
        assert_eq!(calls > 0, want_calls, "x = {x}: {calls} support calls");
        let full = distance(&a, &b);
        assert_eq!(value, full.distance, "x = {x}");
        assert_eq!(value == 0.0, x < 2.0, "x = {x}: {value}");
    }
}
