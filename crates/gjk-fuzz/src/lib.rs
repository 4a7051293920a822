//! A fuzz harness that runs on the stable toolchain: [`fuzz_one`] turns
//! arbitrary bytes into a pair of shapes (point sets, spheres, capsules,
//! boxes, hulls; f32 and f64; 2D and 3D), poses and radii — NaN, infinities,
//! huge and tiny values included — and runs every query on them, checking
//! that nothing panics, nothing returns NaN and every loop ends.
//!
//! The `gjk-fuzz` binary feeds it seeded random byte strings (or files);
//! the same function can back a `cargo fuzz` / libFuzzer target.
#![warn(missing_docs)]

use gjk_core::glam::{DQuat, DVec2, DVec3, Vec2, Vec3};
use gjk_core::{CastOptions, Status};
use gjk_epa::ContactStatus;
use gjk_shapes::{Ball, Capsule, ConvexHull, ConvexPolygon, Cuboid, Pose, Shape};

/// Reads values from the input, repeating it when it runs out.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        if self.data.is_empty() {
            return 0;
        }
        let b = self.data[self.at % self.data.len()];
        self.at += 1;
        b
    }
    /// A float: mostly ordinary values; one in 256 each NaN, +∞,
    /// −∞, huge (1e7), tiny (1e-6) or zero.
    fn float(&mut self) -> f64 {
        let tag = self.byte();
        let raw = u16::from_le_bytes([self.byte(), self.byte()]) as f64 / 65535.0 * 4.0 - 2.0;
        match tag {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => f64::NEG_INFINITY,
            3 => raw * 1e7,
            4 => raw * 1e-6,
            5 => 0.0,
            _ => raw,
        }
    }
    fn count(&mut self, max: usize) -> usize {
        1 + self.byte() as usize % max
    }
}

/// Outcome counters of one or many fuzz inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Queries run.
    pub queries: u64,
    /// Results that carried NaN or infinity in an output that must be finite.
    pub non_finite: u64,
    /// Queries answered with an invalid-input status.
    pub invalid: u64,
}

impl Outcome {
    /// Adds another outcome.
    pub fn add(&mut self, o: Outcome) {
        self.queries += o.queries;
        self.non_finite += o.non_finite;
        self.invalid += o.invalid;
    }
}

fn check_shapes3(
    a: &dyn Shape<DVec3>,
    pa: &Pose<DVec3>,
    b: &dyn Shape<DVec3>,
    pb: &Pose<DVec3>,
    o: &mut Outcome,
) {
    let r = gjk_shapes::distance(a, pa, b, pb);
    o.queries += 1;
    if r.status == Status::InvalidInput {
        o.invalid += 1;
    } else if !(r.distance.is_finite()
        && r.normal.is_finite()
        && r.point_a.is_finite()
        && r.point_b.is_finite())
    {
        o.non_finite += 1;
    }
    let _ = gjk_shapes::try_intersects(a, pa, b, pb);
    // The distance alone: finite and not negative when it answers.
    let v = gjk_shapes::distance_value(a, pa, b, pb);
    o.queries += 1;
    match v {
        Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
        Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
        _ => {}
    }
    // Contact generation with a prediction (its far-pair early exit).
    if let Some(c) = gjk_epa::contact_within(a, pa, b, pb, 0.1) {
        o.queries += 1;
        if c.status != ContactStatus::InvalidInput && !(c.depth.is_finite() && c.normal.is_finite()) {
            o.non_finite += 1;
        }
    }
    let c = gjk_epa::contact(a, pa, b, pb);
    o.queries += 2;
    if c.status != ContactStatus::InvalidInput
        && !(c.depth.is_finite() && c.normal.is_finite() && c.point_a.is_finite())
    {
        o.non_finite += 1;
    }
    let h =
        gjk_shapes::cast_shape(a, pa, DVec3::new(3.0, 0.5, 0.0), b, pb, DVec3::ZERO, &CastOptions::default());
    o.queries += 1;
    if !h.normal.is_finite() || !h.fraction.is_finite() {
        o.non_finite += 1;
    }
    let ray = gjk_shapes::cast_ray(b, pb, pa.translation, DVec3::X, 100.0);
    o.queries += 1;
    if !ray.normal.is_finite() {
        o.non_finite += 1;
    }
}

/// A 3D shape from the input (or `None` when its constructor rejects it,
/// which is itself the expected answer to bad sizes).
fn shape3(b: &mut Bytes) -> Option<Box<dyn Shape<DVec3>>> {
    Some(match b.byte() % 5 {
        0 => Box::new(Ball::new(b.float()).ok()?),
        1 => Box::new(Capsule::new(b.float(), b.float()).ok()?),
        2 => Box::new(Cuboid::new(DVec3::new(b.float(), b.float(), b.float())).ok()?),
        _ => {
            let n = b.count(12);
            let pts: Vec<DVec3> = (0..n).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
            Box::new(ConvexHull::new(&pts).ok()?)
        }
    })
}

fn pose3(b: &mut Bytes) -> Pose<DVec3> {
    let q = DQuat::from_xyzw(b.float(), b.float(), b.float(), b.float());
    let q = if q.is_finite() && q.length() > 1e-6 {
        q.normalize()
    } else if b.byte().is_multiple_of(2) {
        DQuat::IDENTITY
    } else {
        q
    };
    Pose::new(q, DVec3::new(b.float(), b.float(), b.float()))
}

/// Runs every query on the pair the bytes describe. Panics (the fuzzer's
/// failure signal) only if a query does; returns what it saw.
pub fn fuzz_one(data: &[u8]) -> Outcome {
    let mut b = Bytes { data, at: 0 };
    let mut o = Outcome::default();
    // 3D posed shapes, f64.
    if let (Some(a), Some(c)) = (shape3(&mut b), shape3(&mut b)) {
        let (pa, pc) = (pose3(&mut b), pose3(&mut b));
        check_shapes3(&*a, &pa, &*c, &pc, &mut o);
    }
    // Raw point sets through gjk-core, f32 and f64, 2D and 3D.
    let n = b.count(10);
    let m = b.count(10);
    let p3: Vec<DVec3> = (0..n).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
    let q3: Vec<DVec3> = (0..m).map(|_| DVec3::new(b.float(), b.float(), b.float())).collect();
    let f3: Vec<Vec3> = p3.iter().map(|p| p.as_vec3()).collect();
    let g3: Vec<Vec3> = q3.iter().map(|p| p.as_vec3()).collect();
    let p2: Vec<DVec2> = p3.iter().map(|p| p.truncate()).collect();
    let q2: Vec<DVec2> = q3.iter().map(|p| p.truncate()).collect();
    let f2: Vec<Vec2> = f3.iter().map(|p| p.truncate()).collect();
    let g2: Vec<Vec2> = g3.iter().map(|p| p.truncate()).collect();
    let mut raw = |d: f64, n_ok: bool, st: Status| {
        o.queries += 1;
        if st == Status::InvalidInput {
            o.invalid += 1;
        } else if !(d.is_finite() && n_ok) {
            o.non_finite += 1;
        }
    };
    let r = gjk_core::distance(p3.as_slice(), q3.as_slice());
    raw(r.distance, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(f3.as_slice(), g3.as_slice());
    raw(r.distance as f64, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(p2.as_slice(), q2.as_slice());
    raw(r.distance, r.normal.is_finite(), r.status);
    let r = gjk_core::distance(f2.as_slice(), g2.as_slice());
    raw(r.distance as f64, r.normal.is_finite(), r.status);
    for v in [
        gjk_core::distance_value(p3.as_slice(), q3.as_slice()),
        gjk_core::distance_value(f2.as_slice(), g2.as_slice()).map(f64::from),
    ] {
        o.queries += 1;
        match v {
            Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
            Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
            _ => {}
        }
    }
    let _ = gjk_core::try_intersects(p3.as_slice(), q3.as_slice());
    let _ = gjk_core::try_intersects(f2.as_slice(), g2.as_slice());
    let _ = gjk_core::cast_ray(
        p3.as_slice(),
        DVec3::new(b.float(), b.float(), b.float()),
        DVec3::X,
        10.0,
        b.float().abs(),
    );
    // The box separating-axis distance on raw views (any axes, extents
    // and centres, as a caller of the public function could pass them):
    // `None` or a finite distance, never NaN.
    let view = |b: &mut Bytes| gjk_shapes::BoxView {
        half: DVec3::new(b.float(), b.float(), b.float()),
        axes: [0; 3].map(|_| DVec3::new(b.float(), b.float(), b.float())),
        center: DVec3::new(b.float(), b.float(), b.float()),
    };
    let (va, vb) = (view(&mut b), view(&mut b));
    let narrow = |v: &gjk_shapes::BoxView<DVec3>| gjk_shapes::BoxView {
        half: v.half.as_vec3(),
        axes: v.axes.map(|a| a.as_vec3()),
        center: v.center.as_vec3(),
    };
    for d in [gjk_shapes::box_gap(&va, &vb), gjk_shapes::box_gap(&narrow(&va), &narrow(&vb)).map(f64::from)] {
        o.queries += 1;
        if d.is_some_and(|d| !(d.is_finite() && d >= 0.0)) {
            o.non_finite += 1;
        }
    }
    // 2D polygons through the posed API and EPA.
    if let (Ok(pa), Ok(pb)) = (ConvexPolygon::new(&f2), ConvexPolygon::new(&g2)) {
        let pose =
            Pose::from_angle_translation(b.float() as f32, Vec2::new(b.float() as f32, b.float() as f32));
        let c = gjk_epa::contact(&pa, &Pose::IDENTITY, &pb, &pose);
        o.queries += 1;
        if c.status != ContactStatus::InvalidInput && !(c.depth.is_finite() && c.normal.is_finite()) {
            o.non_finite += 1;
        }
        // The distance alone (the polygon boundary walk and separating-axis
        // test near contact), and the boolean test.
        o.queries += 1;
        match gjk_shapes::distance_value(&pa, &Pose::IDENTITY, &pb, &pose) {
            Ok(v) if !(v.is_finite() && v >= 0.0) => o.non_finite += 1,
            Err(gjk_core::GjkError::InvalidInput) => o.invalid += 1,
            _ => {}
        }
        o.queries += 1;
        let _ = gjk_shapes::try_intersects(&pa, &Pose::IDENTITY, &pb, &pose);
        // The walk's closest features on the views, from any direction:
        // `None` or finite.
        let placed = gjk_shapes::Placed::new(&pb, &pose);
        if let (Some(va), Some(vb)) = (pa.core_polygon(), placed.core_polygon()) {
            let d = Vec2::new(b.float() as f32, b.float() as f32);
            o.queries += 1;
            if let Some(c) = gjk_shapes::polygon_closest(&va, &vb, d) {
                let finite = c.separation.is_finite()
                    && c.normal.is_finite()
                    && c.point_a.is_finite()
                    && c.point_b.is_finite();
                o.non_finite += u64::from(!finite);
            }
        }
    }
    o
}

/// A seeded stream of pseudo-random inputs (xorshift), for the binary and
/// the tests.
pub fn random_input(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}
