//! Cylinders and cones standing on a flat cap or face, nearly parallel to
//! it: the pairs of `gjk-bench curved-caps` and of the test
//! `curved_caps` (docs/reliability.md, *Curved caps nearly parallel to a
//! face*); and rays tangent to them ([`tangent_ray`]: `gjk-bench
//! curved-casts`, docs/reliability.md, *Casts grazing curved shapes*);
//! and cylinders and cones overlapping by an exact depth ([`contact_pair`]:
//! `gjk-bench curved-contacts`, docs/reliability.md, *EPA on curved
//! shapes*).
//!
//! The oracle is exact. The lower shape is an upright cylinder or a box
//! wide enough to be a floor, whose top is the plane `y = top` in its
//! frame; the upper shape's lowest point comes from its pose in closed form
//! ([`gjk_testkit::revolved_lowest`]); where that point lies well over the
//! top, the gap is its height above it (negative: the overlap, whose least
//! push is along the top's normal for the shallow overlaps made here).
use gjk_core::glam::{DQuat, DVec3, Quat, Vec3};
use gjk_core::{CastOptions, CastStatus, Status};
use gjk_epa::{ContactStatus, EpaStatus, contact};
use gjk_shapes::{Cone, Cuboid, Cylinder, Pose, cast_ray, cast_shape, distance, distance_value, intersects};
use gjk_testkit::{Revolved, Rng, revolved_contains, revolved_distance, revolved_height, revolved_lowest};

/// The lower shape: an upright cylinder `(half height, radius)` or a box of
/// these half extents.
#[derive(Clone, Copy, Debug)]
pub enum Lower {
    /// An upright cylinder: its top cap is the top.
    Cylinder(f64, f64),
    /// A box: its `+Y` face is the top.
    Box(DVec3),
}

impl Lower {
    /// Height of the top and how far from the axis a point over it may lie.
    pub fn top(self) -> (f64, f64) {
        match self {
            Lower::Cylinder(h, r) => (h, r),
            Lower::Box(half) => (half.y, half.x.min(half.z)),
        }
    }
}

/// How far the upper shape's axis leans from the lower one's, by kind.
pub const TILTS: [&str; 5] = ["0", "1e-9", "1e-6", "≤ 0.3", "π − ≤ 1e-6"];

/// One pair: the shapes, their world poses and the tilt's kind (an index
/// into [`TILTS`]).
#[derive(Clone, Copy, Debug)]
pub struct CapPair {
    /// The shape below.
    pub lower: Lower,
    /// The shape above: its kind, half height and radius.
    pub upper: (Revolved, f64, f64),
    /// The lower shape's pose.
    pub pose_a: Pose<DVec3>,
    /// The upper shape's pose.
    pub pose_b: Pose<DVec3>,
    /// The tilt's kind.
    pub tilt: usize,
}

/// Pair `case` of the seeded sequence of `rng`: cylinders (even cases)
/// and cones on an upright cylinder's cap or (cases `4..8` mod 8) a box's
/// face, tilted 0, 1e-9, 1e-6, up to 0.3 rad or within 1e-6 of upside
/// down, 0.3 to 1e-9 of their size apart or together (a third as far
/// together: shallow overlaps only), the whole pair moved by a random
/// rigid motion.
pub fn cap_pair(rng: &mut Rng, case: usize) -> CapPair {
    let kind = if case.is_multiple_of(2) { Revolved::Cylinder } else { Revolved::Cone };
    let (h1, r1) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-0.5, 1.0)));
    let (h2, r2) = (10f64.powf(rng.range(-1.0, 1.0)), r1 * rng.range(0.05, 0.5));
    let size = h1.max(r1).max(h2);
    let lower =
        if case % 8 >= 4 { Lower::Box(DVec3::new(4.0 * r1, h1, 4.0 * r1)) } else { Lower::Cylinder(h1, r1) };
    let tilt = rng.usize(0, TILTS.len() - 1);
    let angle = match tilt {
        0 => 0.0,
        1 => 1e-9,
        2 => 1e-6,
        3 => rng.range(0.0, 0.3),
        _ => std::f64::consts::PI - rng.range(0.0, 1e-6),
    };
    let lean = {
        let u = rng.unit3();
        DVec3::new(u.x, 0.0, u.z).normalize_or(DVec3::X)
    };
    let q =
        DQuat::from_axis_angle(lean, angle) * DQuat::from_rotation_y(rng.range(0.0, std::f64::consts::TAU));
    let apart = [0.3, 1e-3, 1e-6, 1e-9][rng.usize(0, 3)] * size * rng.range(-0.3, 1.0);
    // Placed so that the lowest point lies `apart` above the top (with
    // overlaps of at most 2 % of the smaller shape: see `cap_gap`).
    let side = DVec3::new(rng.range(-0.3, 0.3) * r1, 0.0, rng.range(-0.3, 0.3) * r1);
    let low = revolved_lowest(kind, h2, r2, q, side).y;
    let t = side + DVec3::Y * (lower.top().0 + apart.max(-0.02 * r1.min(h1)) - low);
    let (wq, wt) =
        (rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * size);
    CapPair {
        lower,
        upper: (kind, h2, r2),
        pose_a: Pose::new(wq, wt),
        pose_b: Pose::new(wq * q, wq * t + wt),
        tilt,
    }
}

/// A pose from a quaternion's `[x, y, z, w]` and a translation (the
/// tests' exact inputs).
pub fn pose(rotation: [f64; 4], translation: [f64; 3]) -> Pose<DVec3> {
    let [x, y, z, w] = rotation;
    // The recorded bits, as given.
    Pose { rotation: DQuat::from_xyzw(x, y, z, w), translation: DVec3::from_array(translation) }
}

/// A pose rounded to `f32`.
pub fn pose_f32(p: &Pose<DVec3>) -> Pose<Vec3> {
    let q = p.rotation;
    Pose::new(
        Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32).normalize(),
        p.translation.as_vec3(),
    )
}

/// A pose of `f32` in `f64`, exactly.
pub fn pose_f64(p: &Pose<Vec3>) -> Pose<DVec3> {
    let q = p.rotation;
    // The f32 pose's own bits (not normalised again in f64).
    Pose {
        rotation: DQuat::from_xyzw(q.x.into(), q.y.into(), q.z.into(), q.w.into()),
        translation: p.translation.as_dvec3(),
    }
}

/// The poses the queries read: as given (`f64`) or rounded to `f32`, in
/// `f64` (so that the oracle reads the very inputs of the `f32` queries).
pub fn read_poses(pair: &CapPair, f32_: bool) -> (Pose<DVec3>, Pose<DVec3>) {
    if f32_ {
        (pose_f64(&pose_f32(&pair.pose_a)), pose_f64(&pose_f32(&pair.pose_b)))
    } else {
        (pair.pose_a, pair.pose_b)
    }
}

/// The exact gap of the pair at poses `pa`, `pb` (its oracle), or `None`
/// where the upper shape's lowest point does not lie well over the top.
pub fn cap_gap(pair: &CapPair, pa: &Pose<DVec3>, pb: &Pose<DVec3>) -> Option<f64> {
    let inv = pa.rotation.conjugate();
    let (q, t) = (inv * pb.rotation, inv * (pb.translation - pa.translation));
    let (kind, h, r) = pair.upper;
    let p = revolved_lowest(kind, h, r, q, t);
    let (top, reach) = pair.lower.top();
    (p.x.hypot(p.z) < 0.9 * reach).then_some(p.y - top)
}

/// The zero band of the pair at poses `pa`, `pb`: `256 ε` of twice the
/// largest coordinate of `A − B` in A's frame, bounded above (the queries'
/// own `tolerance`, from the points they see, is at most this).
pub fn cap_band(pair: &CapPair, pa: &Pose<DVec3>, pb: &Pose<DVec3>, f32_: bool) -> f64 {
    let eps = if f32_ { f64::from(f32::EPSILON) } else { f64::EPSILON };
    let t = pa.rotation.conjugate() * (pb.translation - pa.translation);
    let (top, reach) = pair.lower.top();
    let size = top.max(reach) + t.abs().max_element() + pair.upper.1.max(pair.upper.2);
    256.0 * eps * 2.0 * size
}

/// The queries' answers on one pair, in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct Answers {
    /// The full distance's status.
    pub status: Status,
    /// The full distance.
    pub distance: f64,
    /// `distance_value` (NaN for an error).
    pub value: f64,
    /// The boolean test.
    pub intersects: bool,
    /// The contact's signed distance: its distance, or minus its depth.
    pub signed: f64,
    /// EPA's status, where it ran.
    pub epa: Option<EpaStatus>,
}

/// `$run!(a, pose_a, b, pose_b)` on a pair's shapes (`$lower`, a
/// [`Lower`]; `$upper`, kind, half height and radius) at its poses, in
/// `f64` or (`$f32`) on its poses and sizes rounded to `f32`.
macro_rules! on_shapes {
    ($lower:expr, $upper:expr, $pose_a:expr, $pose_b:expr, $f32:expr, $run:ident) => {{
        let (lower, (kind, h, r)) = ($lower, $upper);
        if $f32 {
            let (pa, pb) = (pose_f32(&$pose_a), pose_f32(&$pose_b));
            let (h, r) = (h as f32, r as f32);
            match (lower, kind) {
                (Lower::Cylinder(h1, r1), Revolved::Cylinder) => {
                    $run!(Cylinder::new(h1 as f32, r1 as f32).unwrap(), pa, Cylinder::new(h, r).unwrap(), pb)
                }
                (Lower::Cylinder(h1, r1), Revolved::Cone) => {
                    $run!(Cylinder::new(h1 as f32, r1 as f32).unwrap(), pa, Cone::new(h, r).unwrap(), pb)
                }
                (Lower::Box(half), Revolved::Cylinder) => {
                    $run!(Cuboid::new(half.as_vec3()).unwrap(), pa, Cylinder::new(h, r).unwrap(), pb)
                }
                (Lower::Box(half), Revolved::Cone) => {
                    $run!(Cuboid::new(half.as_vec3()).unwrap(), pa, Cone::new(h, r).unwrap(), pb)
                }
            }
        } else {
            let (pa, pb) = ($pose_a, $pose_b);
            match (lower, kind) {
                (Lower::Cylinder(h1, r1), Revolved::Cylinder) => {
                    $run!(Cylinder::new(h1, r1).unwrap(), pa, Cylinder::new(h, r).unwrap(), pb)
                }
                (Lower::Cylinder(h1, r1), Revolved::Cone) => {
                    $run!(Cylinder::new(h1, r1).unwrap(), pa, Cone::new(h, r).unwrap(), pb)
                }
                (Lower::Box(half), Revolved::Cylinder) => {
                    $run!(Cuboid::new(half).unwrap(), pa, Cylinder::new(h, r).unwrap(), pb)
                }
                (Lower::Box(half), Revolved::Cone) => {
                    $run!(Cuboid::new(half).unwrap(), pa, Cone::new(h, r).unwrap(), pb)
                }
            }
        }
    }};
}

/// Every query on the pair, in `f64` or (`f32_`) on its poses and sizes
/// rounded to `f32`.
pub fn cap_answers(pair: &CapPair, f32_: bool) -> Answers {
    macro_rules! run {
        ($a:expr, $pa:expr, $b:expr, $pb:expr) => {{
            let (a, pa, b, pb) = (&$a, &$pa, &$b, &$pb);
            let d = distance(a, pa, b, pb);
            let c = contact(a, pa, b, pb);
            let signed = if c.status == ContactStatus::Penetrating { -c.depth } else { c.distance };
            Answers {
                status: d.status,
                distance: f64::from(d.distance),
                value: distance_value(a, pa, b, pb).map(f64::from).unwrap_or(f64::NAN),
                intersects: intersects(a, pa, b, pb),
                signed: f64::from(signed),
                epa: c.epa_status,
            }
        }};
    }
    on_shapes!(pair.lower, pair.upper, pair.pose_a, pair.pose_b, f32_, run)
}

/// The wrong answers on one pair: indices into [`WRONG`] (distance,
/// distance alone, boolean, contact).
pub const WRONG: [&str; 4] = ["distance", "distance_value", "intersects", "contact"];

/// The verdict on one pair: `None` where the oracle has no gap, else the
/// gap, the band and which answers are wrong ([`WRONG`]). Outside the band
/// the boolean must be right, the distances must be within 4 bands of the
/// gap (`Separated`) or 0 (`Intersecting`), and so must the contact unless
/// EPA reports a bound rather than a depth (its cap on a curved shape).
pub fn cap_verdict(pair: &CapPair, f32_: bool) -> Option<(f64, f64, [bool; 4], Answers)> {
    let (pa, pb) = read_poses(pair, f32_);
    let gap = cap_gap(pair, &pa, &pb)?;
    let band = cap_band(pair, &pa, &pb, f32_);
    let a = cap_answers(pair, f32_);
    Some((gap, band, judge(gap, band, &a), a))
}

/// Offsets of [`tangent_ray`], in zero bands (negative: inwards).
pub const RAY_BANDS: [f64; 8] = [-100.0, -12.0, -3.0, -1.5, 1.5, 3.0, 12.0, 100.0];

/// Where a [`TangentRay`] touches its shape: the side, or the cap (a
/// cylinder's top or bottom, a cone's base).
pub const RAY_PARTS: [&str; 2] = ["side", "cap"];

/// A ray tangent to a cylinder or cone at a point of its side or a cap
/// (clear of the rims), moved along that point's outward normal by
/// [`RAY_BANDS`]`[bands]` zero bands: outwards it passes that far outside
/// (the solid lies behind the tangent plane), inwards it runs through the
/// interior point `inner`.
#[derive(Clone, Copy, Debug)]
pub struct TangentRay {
    /// The shape: kind, half height, radius.
    pub shape: (Revolved, f64, f64),
    /// The shape's pose.
    pub pose: Pose<DVec3>,
    /// The ray's start and its direction (the fraction runs over `0..=1`).
    pub origin: DVec3,
    /// The ray over its whole length.
    pub dir: DVec3,
    /// Index into [`RAY_BANDS`].
    pub bands: usize,
    /// Index into [`RAY_PARTS`].
    pub part: usize,
    /// The zero band the offset counts in: `256 ε` of twice the ray's
    /// largest coordinate in the shape's frame plus the shape's size.
    pub band: f64,
}

/// Ray `case` of the seeded sequence of `rng` (cylinders on even cases,
/// `f32_`: bands of `f32`), or `None` where an inward ray's interior point
/// falls outside (a rim within the offset).
pub fn tangent_ray(rng: &mut Rng, case: usize, f32_: bool) -> Option<TangentRay> {
    let kind = if case.is_multiple_of(2) { Revolved::Cylinder } else { Revolved::Cone };
    let (h, r) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-1.0, 1.0)));
    let size = h.max(r);
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let radial = DVec3::new(phi.cos(), 0.0, phi.sin());
    let part = rng.usize(0, 1);
    let (p, n) = match (kind, part) {
        (Revolved::Cylinder, 0) => (radial * r + DVec3::Y * (rng.range(-0.9, 0.9) * h), radial),
        (Revolved::Cone, 0) => {
            let y = rng.range(-0.9, 0.9) * h;
            (
                radial * (r * (h - y) / (2.0 * h)) + DVec3::Y * y,
                (radial + DVec3::Y * (r / (2.0 * h))).normalize(),
            )
        }
        (Revolved::Cylinder, _) if rng.usize(0, 1) == 0 => {
            (radial * (r * rng.range(0.0, 0.9)) + DVec3::Y * h, DVec3::Y)
        }
        _ => (radial * (r * rng.range(0.0, 0.9)) - DVec3::Y * h, -DVec3::Y),
    };
    let dir = {
        let u = rng.unit3();
        (u - n * n.dot(u)).normalize()
    };
    let bands = rng.usize(0, RAY_BANDS.len() - 1);
    let (q, t) =
        (rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * size);
    let len = rng.range(1.0, 5.0) * size;
    let eps = if f32_ { f64::from(f32::EPSILON) } else { f64::EPSILON };
    let band = 256.0 * eps * 2.0 * (t.abs().max_element() + size + len);
    let at = p + n * (RAY_BANDS[bands] * band);
    if RAY_BANDS[bands] < 0.0 && !revolved_contains(kind, h, r, at) {
        return None;
    }
    let start = at - dir * len;
    Some(TangentRay {
        shape: (kind, h, r),
        pose: Pose::new(q, t),
        origin: q * start + t,
        dir: q * (dir * (2.0 * len)),
        bands,
        part,
        band,
    })
}

/// What a cast of [`tangent_ray`] got wrong: the verdict (a hit for a ray
/// passing more than 1.5 bands outside, or a miss for one running more
/// than 1.5 bands inside), the iteration cap, and for a hit a point further
/// than 4 bands from the shape. With the cast's status (`None`: a miss).
pub fn tangent_ray_verdict(ray: &TangentRay, f32_: bool) -> ([bool; 3], Option<CastStatus>) {
    let (kind, h, r) = ray.shape;
    let (status, fraction) = if f32_ {
        let pose = pose_f32(&ray.pose);
        let (o, d) = (ray.origin.as_vec3(), ray.dir.as_vec3());
        let hit = match kind {
            Revolved::Cylinder => cast_ray(&Cylinder::new(h as f32, r as f32).unwrap(), &pose, o, d, 1.0),
            Revolved::Cone => cast_ray(&Cone::new(h as f32, r as f32).unwrap(), &pose, o, d, 1.0),
        };
        hit.map(|h| (h.status, f64::from(h.fraction)))
    } else {
        let hit = match kind {
            Revolved::Cylinder => {
                cast_ray(&Cylinder::new(h, r).unwrap(), &ray.pose, ray.origin, ray.dir, 1.0)
            }
            Revolved::Cone => cast_ray(&Cone::new(h, r).unwrap(), &ray.pose, ray.origin, ray.dir, 1.0),
        };
        hit.map(|h| (h.status, h.fraction))
    }
    .map_or((None, 1.0), |(s, f)| (Some(s), f));
    let k = RAY_BANDS[ray.bands];
    let hit = matches!(status, Some(CastStatus::Hit | CastStatus::StartsInside));
    let wrong_verdict = k.abs() > 1.5 && hit != (k < 0.0);
    // The hit point, in the shape's frame (the f32 cast's own inputs).
    let pose = if f32_ { pose_f64(&pose_f32(&ray.pose)) } else { ray.pose };
    let (o, d) = if f32_ {
        (ray.origin.as_vec3().as_dvec3(), ray.dir.as_vec3().as_dvec3())
    } else {
        (ray.origin, ray.dir)
    };
    let local = pose.rotation.conjugate() * (o + d * fraction - pose.translation);
    let off = status == Some(CastStatus::Hit) && revolved_distance(kind, h, r, local) > 4.0 * ray.band;
    ([wrong_verdict, status == Some(CastStatus::IterationLimit), off], status)
}

/// The pair of [`cap_pair`] cast: the upper shape dropped along the lower
/// one's up axis by twice its gap (f64), so that it lands at fraction 0.5
/// exactly. `None` where the pair overlaps, lies within two bands or has
/// no oracle gap; else whether the cast is wrong (not a hit, or landing
/// more than 4 bands of the drop from 0.5), with its status (`None`: a
/// miss).
pub fn drop_verdict(pair: &CapPair) -> Option<(bool, Option<CastStatus>)> {
    let (pa, pb) = (pair.pose_a, pair.pose_b);
    let gap = cap_gap(pair, &pa, &pb)?;
    let band = cap_band(pair, &pa, &pb, false);
    if gap <= 2.0 * band {
        return None;
    }
    let motion = pa.rotation * DVec3::NEG_Y * (2.0 * gap);
    let options = CastOptions::default();
    let (kind, h, r) = pair.upper;
    macro_rules! cast {
        ($a:expr) => {{
            let a = &$a;
            match kind {
                Revolved::Cylinder => {
                    cast_shape(a, &pa, DVec3::ZERO, &Cylinder::new(h, r).unwrap(), &pb, motion, &options)
                }
                Revolved::Cone => {
                    cast_shape(a, &pa, DVec3::ZERO, &Cone::new(h, r).unwrap(), &pb, motion, &options)
                }
            }
        }};
    }
    let hit = match pair.lower {
        Lower::Cylinder(h1, r1) => cast!(Cylinder::new(h1, r1).unwrap()),
        Lower::Box(half) => cast!(Cuboid::new(half).unwrap()),
    };
    let wrong =
        hit.is_none_or(|h| h.status != CastStatus::Hit || (h.fraction - 0.5).abs() * 2.0 * gap > 4.0 * band);
    Some((wrong, hit.map(|h| h.status)))
}

/// Two cylinders side by side (or a capsule beside a cylinder): B's axis
/// turned from A's by a tilt ([`TILTS`]-like: 0, 1e-9, 1e-6, 1e-2 or up to
/// 1.5 rad) about their common perpendicular, so that the axes' nearest
/// points are A's at `axial` and B's centre, `r_a + r_b + gap` apart along
/// that perpendicular: the gap is exact.
#[derive(Clone, Copy, Debug)]
pub struct SidePair {
    /// A: an upright cylinder (half height, radius).
    pub a: (f64, f64),
    /// B: a cylinder (`false`) or a capsule (`true`), half height, radius.
    pub b: (bool, f64, f64),
    /// A's pose.
    pub pose_a: Pose<DVec3>,
    /// B's pose.
    pub pose_b: Pose<DVec3>,
    /// The tilt's kind: an index into [`SIDE_TILTS`].
    pub tilt: usize,
}

/// The tilts of [`SidePair`].
pub const SIDE_TILTS: [&str; 5] = ["0", "1e-9", "1e-6", "1e-2", "≤ 1.5"];

/// Pair `case` of the seeded sequence of `rng` (capsules on odd cases).
pub fn side_pair(rng: &mut Rng, case: usize) -> SidePair {
    let capsule = case % 2 == 1;
    let (h1, r1) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-1.0, 1.0)));
    let (h2, r2) = (10f64.powf(rng.range(-1.0, 1.0)), 10f64.powf(rng.range(-1.0, 1.0)));
    let size = h1.max(r1).max(h2).max(r2);
    let tilt = rng.usize(0, SIDE_TILTS.len() - 1);
    let angle = [0.0, 1e-9, 1e-6, 1e-2, rng.range(0.0, 1.5)][tilt];
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let across = DVec3::new(phi.cos(), 0.0, phi.sin());
    let q =
        DQuat::from_axis_angle(across, angle) * DQuat::from_rotation_y(rng.range(0.0, std::f64::consts::TAU));
    let gap =
        ([0.3, 1e-3, 1e-6, 1e-9][rng.usize(0, 3)] * size * rng.range(-0.3, 1.0)).max(-0.02 * r1.min(r2));
    let c = across * (r1 + r2 + gap) + DVec3::Y * (rng.range(-0.5, 0.5) * h1);
    let (wq, wt) =
        (rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)) * size);
    SidePair {
        a: (h1, r1),
        b: (capsule, h2, r2),
        pose_a: Pose::new(wq, wt),
        pose_b: Pose::new(wq * q, wq * c + wt),
        tilt,
    }
}

/// The gap of a [`SidePair`] (the axes' distance along their common
/// perpendicular, less the radii, from the poses), its zero band (`256 ε`
/// of twice the size), and the unit perpendicular from A's axis towards
/// B's, in A's frame.
pub fn side_gap(pair: &SidePair) -> (f64, f64, DVec3) {
    let (pa, pb) = (pair.pose_a, pair.pose_b);
    let inv = pa.rotation.conjugate();
    let (q, t) = (inv * pb.rotation, inv * (pb.translation - pa.translation));
    let m = DVec3::Y.cross(q * DVec3::Y);
    // Parallel axes (no turn left after rounding): the distance across.
    let across = if m.length() > 1e-14 { m.normalize() } else { DVec3::new(t.x, 0.0, t.z).normalize() };
    let lines = t.dot(across);
    let ((h1, r1), (_, h2, r2)) = (pair.a, pair.b);
    let band = 256.0 * f64::EPSILON * 2.0 * (t.abs().max_element() + h1.max(r1).max(h2).max(r2));
    (lines.abs() - r1 - r2, band, across * lines.signum())
}

/// A [`SidePair`] apart by more than 4 bands, B cast towards A along the
/// common perpendicular by twice the gap (f64), so that it lands at
/// fraction 0.5: the cast's status and its error in zero bands (`None`
/// for pairs closer; a status `None`: a miss, at error infinity).
pub fn side_cast_verdict(pair: &SidePair) -> Option<(Option<CastStatus>, f64)> {
    let (gap, band, across) = side_gap(pair);
    if gap <= 4.0 * band {
        return None;
    }
    let (pa, pb) = (pair.pose_a, pair.pose_b);
    let motion = pa.rotation * (-across * (2.0 * gap));
    let ((h1, r1), (capsule, h2, r2)) = (pair.a, pair.b);
    let (a, options) = (Cylinder::new(h1, r1).unwrap(), CastOptions::default());
    let hit = if capsule {
        cast_shape(&a, &pa, DVec3::ZERO, &gjk_shapes::Capsule::new(h2, r2).unwrap(), &pb, motion, &options)
    } else {
        cast_shape(&a, &pa, DVec3::ZERO, &Cylinder::new(h2, r2).unwrap(), &pb, motion, &options)
    };
    Some((hit.map(|h| h.status), hit.map_or(f64::INFINITY, |h| (h.fraction - 0.5).abs() * 2.0 * gap / band)))
}

/// The verdict on a [`SidePair`] (f64), judged as [`cap_verdict`]'s: the
/// gap (from the poses: the axes' distance along their common
/// perpendicular, less the radii), the band and the wrong answers.
pub fn side_verdict(pair: &SidePair) -> (f64, f64, [bool; 4]) {
    let (pa, pb) = (pair.pose_a, pair.pose_b);
    let (gap, band, _) = side_gap(pair);
    let ((h1, r1), (capsule, h2, r2)) = (pair.a, pair.b);
    let a = Cylinder::new(h1, r1).unwrap();
    let answers = |d: gjk_core::DistanceResult<DVec3>,
                   value: f64,
                   intersects: bool,
                   c: gjk_epa::Contact<DVec3>| Answers {
        status: d.status,
        distance: d.distance,
        value,
        intersects,
        signed: if c.status == ContactStatus::Penetrating { -c.depth } else { c.distance },
        epa: c.epa_status,
    };
    macro_rules! run {
        ($b:expr) => {{
            let b = &$b;
            answers(
                distance(&a, &pa, b, &pb),
                distance_value(&a, &pa, b, &pb).unwrap_or(f64::NAN),
                intersects(&a, &pa, b, &pb),
                contact(&a, &pa, b, &pb),
            )
        }};
    }
    let got = if capsule {
        run!(gjk_shapes::Capsule::new(h2, r2).unwrap())
    } else {
        run!(Cylinder::new(h2, r2).unwrap())
    };
    (gap, band, judge(gap, band, &got))
}

/// The wrong answers ([`WRONG`]) of `a` against the exact `gap`, outside
/// the band (see [`cap_verdict`]).
fn judge(gap: f64, band: f64, a: &Answers) -> [bool; 4] {
    let tol = 4.0 * band;
    let mut wrong = [false; 4];
    if gap > band {
        wrong[0] = a.status != Status::Separated || (a.distance - gap).abs() > tol;
        // (NaN, an error, is wrong too.)
        wrong[1] = (a.value - gap).abs() > tol || a.value.is_nan();
        wrong[2] = a.intersects;
    } else if gap < -band {
        wrong[0] = a.status != Status::Intersecting;
        wrong[1] = a.value != 0.0;
        wrong[2] = !a.intersects;
    }
    let bounded = matches!(a.epa, Some(EpaStatus::IterationLimit | EpaStatus::Stalled));
    wrong[3] = gap.abs() > band && !bounded && (a.signed - gap).abs() > tol;
    wrong
}

/// The sets of [`ContactPair`]: how the curved shapes meet.
pub const CONTACT_KINDS: [&str; 5] = [
    "crossed cylinders",
    "parallel cylinders",
    "cylinder on its side",
    "cone on its side",
    "turned on a box",
];

/// The depths of [`ContactPair`], in units of the smaller radius.
pub const CONTACT_DEPTHS: [f64; 4] = [0.3, 1e-2, 1e-4, 1e-6];

/// Two shapes overlapping by an exact depth along an exact normal, for EPA
/// on curved surfaces (`gjk-bench curved-contacts`, docs/reliability.md,
/// *EPA on curved shapes*):
/// - *crossed cylinders*: A upright (`Y`), B's axis turned from it by
///   0.5 – π/2 about `Z`, the axes `r_a + r_b − depth` apart along `Z`;
/// - *parallel cylinders*: both upright, as far apart along `Z`, B shifted
///   along the axes by up to half the shorter half height;
/// - *cylinder on its side*, *cone on its side* (a line of the side
///   lowest) and *turned on a box* (a cylinder or cone turned at random):
///   sunk by `depth` into the top of a box of half extents `(8, 2, 8)`.
///
/// The depth is the least over unit `n` of the separation along `n`
/// ([`contact_separation`]), and each set's construction puts that least
/// at the normal: for the cylinders, with half heights ≥ 1 and depths ≤
/// 0.3, every `n` off `Z` gains more across the axes than it loses
/// (crossed: `h·sin 0.5 ≥ 0.48` against `depth ≤ 0.3`); on the box, B's
/// footprint lies within the top, 3 or more from its sides. The whole pair
/// is moved by a random rigid motion.
#[derive(Clone, Copy, Debug)]
pub struct ContactPair {
    /// The shape below: an upright cylinder, or the box.
    pub lower: Lower,
    /// The shape above: its kind, half height and radius.
    pub upper: (Revolved, f64, f64),
    /// A's pose.
    pub pose_a: Pose<DVec3>,
    /// B's pose.
    pub pose_b: Pose<DVec3>,
    /// The set: an index into [`CONTACT_KINDS`].
    pub kind: usize,
    /// An index into [`CONTACT_DEPTHS`].
    pub depth_kind: usize,
    /// The exact depth.
    pub depth: f64,
    /// The exact normal, from A to B (world frame).
    pub normal: DVec3,
}

impl ContactPair {
    /// The same pair scaled by `k` about the world origin (sizes,
    /// positions and the depth; the normal stays).
    pub fn scaled(&self, k: f64) -> Self {
        let lower = match self.lower {
            Lower::Cylinder(h, r) => Lower::Cylinder(h * k, r * k),
            Lower::Box(half) => Lower::Box(half * k),
        };
        let pose = |p: &Pose<DVec3>| Pose::new(p.rotation, p.translation * k);
        let (kind, h, r) = self.upper;
        Self {
            lower,
            upper: (kind, h * k, r * k),
            pose_a: pose(&self.pose_a),
            pose_b: pose(&self.pose_b),
            depth: self.depth * k,
            ..*self
        }
    }
}

/// Pair `case` of the seeded sequence of `rng`: set `case % 5`, depth
/// `(case / 5) % 4`.
pub fn contact_pair(rng: &mut Rng, case: usize) -> ContactPair {
    let kind = case % CONTACT_KINDS.len();
    let depth_kind = (case / CONTACT_KINDS.len()) % CONTACT_DEPTHS.len();
    let (ha, ra) = (rng.range(1.0, 3.0), rng.range(0.3, 1.0));
    let (hb, rb) = (rng.range(1.0, 3.0), rng.range(0.3, 1.0));
    let depth = CONTACT_DEPTHS[depth_kind] * ra.min(rb);
    let spin = DQuat::from_rotation_y(rng.range(0.0, std::f64::consts::TAU));
    // B's pose in A's frame, B's kind, the shape below and the normal.
    let (q, t, upper, lower, normal) = match kind {
        0 | 1 => {
            let (q, along) = if kind == 0 {
                (DQuat::from_rotation_z(rng.range(0.5, std::f64::consts::FRAC_PI_2)), 0.0)
            } else {
                (DQuat::IDENTITY, rng.range(-0.5, 0.5) * ha.min(hb))
            };
            let t = DVec3::new(0.0, along, ra + rb - depth);
            (q, t, Revolved::Cylinder, Lower::Cylinder(ha, ra), DVec3::Z)
        }
        _ => {
            let upper = if kind == 2 || (kind == 4 && case.is_multiple_of(2)) {
                Revolved::Cylinder
            } else {
                Revolved::Cone
            };
            let q = match kind {
                // The axis level: a line of the side lowest.
                2 => spin * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2),
                // The axis (apex to base) rising by the half angle ψ from
                // level: the line from the apex to the base's rim lowest.
                3 => {
                    let psi = (rb / (2.0 * hb)).atan();
                    spin * DQuat::from_rotation_arc(DVec3::Y, DVec3::new(-psi.cos(), -psi.sin(), 0.0))
                }
                _ => rng.quat(),
            };
            let lower = Lower::Box(DVec3::new(8.0, 2.0, 8.0));
            let side = DVec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0));
            let low = revolved_lowest(upper, hb, rb, q, side).y;
            let t = side + DVec3::Y * (lower.top().0 - depth - low);
            (q, t, upper, lower, DVec3::Y)
        }
    };
    let (wq, wt) = (rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)));
    ContactPair {
        lower,
        upper: (upper, hb, rb),
        pose_a: Pose::new(wq, wt),
        pose_b: Pose::new(wq * q, wq * t + wt),
        kind,
        depth_kind,
        depth,
        normal: wq * normal,
    }
}

/// The separation of the pair at poses `pa`, `pb` along the unit `n`
/// (world frame, from A to B), from the shapes' support functions in
/// closed form ([`gjk_testkit::revolved_height`], a box's `Σ hᵢ·|nᵢ|`):
/// `h_A(n) + h_B(−n) − (c_B − c_A)·n`, how far B must move along `n` to
/// clear A. Its least over `n` is the depth; along a contact's normal it
/// is the depth that normal proves.
pub fn contact_separation(pair: &ContactPair, pa: &Pose<DVec3>, pb: &Pose<DVec3>, n: DVec3) -> f64 {
    let na = pa.rotation.conjugate() * n;
    let ha = match pair.lower {
        Lower::Cylinder(h, r) => revolved_height(Revolved::Cylinder, h, r, na),
        Lower::Box(half) => half.dot(na.abs()),
    };
    let (kind, h, r) = pair.upper;
    let hb = revolved_height(kind, h, r, pb.rotation.conjugate() * -n);
    ha + hb - (pb.translation - pa.translation).dot(n)
}

/// The wrong answers of a contact: indices into [`CONTACT_WRONG`].
pub const CONTACT_WRONG: [&str; 3] = ["status", "depth", "normal"];

/// A contact's answer, in `f64`.
#[derive(Clone, Copy, Debug)]
pub struct ContactAnswer {
    /// The contact's status.
    pub status: ContactStatus,
    /// Its depth.
    pub depth: f64,
    /// Its normal.
    pub normal: DVec3,
    /// EPA's status, where it ran.
    pub epa: Option<EpaStatus>,
    /// EPA's support calls.
    pub epa_iterations: u32,
}

impl ContactAnswer {
    /// The answer of contact `c`, in `f64`.
    pub fn of<V: gjk_shapes::Space>(c: &gjk_epa::Contact<V>) -> Self {
        use gjk_core::Real;
        let n = |i| c.normal.component(i).to_f64();
        Self {
            status: c.status,
            depth: c.depth.to_f64(),
            normal: DVec3::new(n(0), n(1), n(2)),
            epa: c.epa_status,
            epa_iterations: c.epa_iterations,
        }
    }
}

/// The contact on the pair, in `f64` or (`f32_`) on its poses and sizes
/// rounded to `f32`.
pub fn contact_answer(pair: &ContactPair, f32_: bool) -> ContactAnswer {
    macro_rules! run {
        ($a:expr, $pa:expr, $b:expr, $pb:expr) => {
            ContactAnswer::of(&contact(&$a, &$pa, &$b, &$pb))
        };
    }
    on_shapes!(pair.lower, pair.upper, pair.pose_a, pair.pose_b, f32_, run)
}

/// The verdict on one pair: the zero band (`256 ε` of twice the size of
/// `A − B` in A's frame), the answer and which parts are wrong
/// ([`CONTACT_WRONG`]). Deeper than 4 bands, the contact must be
/// `Penetrating`; its depth within 4 bands of the exact one (or, within
/// 4 bands, at most that far); and its normal must prove its depth: the
/// separation along it ([`contact_separation`], at the poses the query
/// read) within 4 bands of the depth. (Along a normal `θ` off on a surface
/// of curvature radius `R`, the separation exceeds the depth by about
/// `R·θ²/2`.)
pub fn contact_verdict(pair: &ContactPair, f32_: bool) -> (f64, ContactAnswer, [bool; 3]) {
    let (pa, pb) = if f32_ {
        (pose_f64(&pose_f32(&pair.pose_a)), pose_f64(&pose_f32(&pair.pose_b)))
    } else {
        (pair.pose_a, pair.pose_b)
    };
    let eps = if f32_ { f64::from(f32::EPSILON) } else { f64::EPSILON };
    let t = pa.rotation.conjugate() * (pb.translation - pa.translation);
    let (top, reach) = pair.lower.top();
    let size = top.max(reach) + t.abs().max_element() + pair.upper.1.max(pair.upper.2);
    let band = 256.0 * eps * 2.0 * size;
    let got = contact_answer(pair, f32_);
    let deep = pair.depth > 4.0 * band;
    let status = if deep {
        got.status != ContactStatus::Penetrating
    } else {
        !matches!(got.status, ContactStatus::Penetrating | ContactStatus::Touching)
    };
    let depth =
        if deep { (got.depth - pair.depth).abs() > 4.0 * band } else { got.depth > pair.depth + 4.0 * band };
    let normal = got.status == ContactStatus::Penetrating
        && (contact_separation(pair, &pa, &pb, got.normal) - got.depth).abs() > 4.0 * band;
    (band, got, [status, depth, normal])
}

/// The tilts of [`ConePair`] (rad).
pub const CONE_TILTS: [f64; 5] = [0.0, 1e-9, 1e-6, 1e-3, 0.1];

/// A cylinder A and a cone B built as the parallel
/// cylinders of [`ContactPair`] (B's axis turned by [`CONE_TILTS`] about
/// the axes' common perpendicular, `r_a + r_b − depth` along it, shifted
/// along the axes by up to half the shorter half height), but long: half
/// heights 1 to 1 000 radii. The depth is not known in closed form (the
/// cone's sloping side need not leave the least push along the
/// perpendicular); what is checked is that the contact's normal proves its
/// depth ([`cone_excess`]).
#[derive(Clone, Copy, Debug)]
pub struct ConePair {
    /// A: half height and radius.
    pub a: (f64, f64),
    /// B: half height and base radius.
    pub b: (f64, f64),
    /// A's pose.
    pub pose_a: Pose<DVec3>,
    /// B's pose.
    pub pose_b: Pose<DVec3>,
    /// An index into [`CONE_TILTS`].
    pub tilt: usize,
    /// An index into [`CONTACT_DEPTHS`].
    pub depth_kind: usize,
}

/// Pair `case` of the seeded sequence of `rng`: depth `case % 4`.
pub fn cone_pair(rng: &mut Rng, case: usize) -> ConePair {
    let aspect = 10f64.powf(rng.range(0.0, 3.0));
    let (ra, rb) = (rng.range(0.3, 1.0), rng.range(0.3, 1.0));
    let (ha, hb) = (ra * aspect, rb * aspect * rng.range(0.5, 2.0));
    let depth_kind = case % CONTACT_DEPTHS.len();
    let depth = CONTACT_DEPTHS[depth_kind] * ra.min(rb);
    let tilt = rng.usize(0, CONE_TILTS.len() - 1);
    let q = DQuat::from_rotation_z(CONE_TILTS[tilt]);
    let t = DVec3::new(0.0, rng.range(-0.5, 0.5) * ha.min(hb), ra + rb - depth);
    let (wq, wt) = (rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)));
    ConePair {
        a: (ha, ra),
        b: (hb, rb),
        pose_a: Pose::new(wq, wt),
        pose_b: Pose::new(wq * q, wq * t + wt),
        tilt,
        depth_kind,
    }
}

/// The contact on a [`ConePair`] (`f64`, or `f32_` on its poses and sizes
/// rounded to `f32`), and, where it is `Penetrating`, how far the
/// separation along its normal (the support functions in closed form, at
/// the poses the query read) lies from its depth, relative to the pair's
/// size (the longer half height plus the radii). A normal `θ` off moves
/// that separation by up to the size times `θ` (the flat strip of `A − B`
/// along the axes), so rounding-level normals give 1e-9 or less in `f64`.
pub fn cone_excess(pair: &ConePair, f32_: bool) -> (ContactAnswer, Option<f64>) {
    let ((ha, ra), (hb, rb)) = (pair.a, pair.b);
    let (got, pa, pb) = if f32_ {
        let (pa, pb) = (pose_f32(&pair.pose_a), pose_f32(&pair.pose_b));
        let (a, b) = (Cylinder::new(ha as f32, ra as f32).unwrap(), Cone::new(hb as f32, rb as f32).unwrap());
        // The sizes as the query read them, too.
        (ContactAnswer::of(&contact(&a, &pa, &b, &pb)), pose_f64(&pa), pose_f64(&pb))
    } else {
        let (a, b) = (Cylinder::new(ha, ra).unwrap(), Cone::new(hb, rb).unwrap());
        (ContactAnswer::of(&contact(&a, &pair.pose_a, &b, &pair.pose_b)), pair.pose_a, pair.pose_b)
    };
    if got.status != ContactStatus::Penetrating {
        return (got, None);
    }
    let (ha, ra, hb, rb) = if f32_ {
        (f64::from(ha as f32), f64::from(ra as f32), f64::from(hb as f32), f64::from(rb as f32))
    } else {
        (ha, ra, hb, rb)
    };
    let n = got.normal.normalize();
    let sep = revolved_height(Revolved::Cylinder, ha, ra, pa.rotation.conjugate() * n)
        + revolved_height(Revolved::Cone, hb, rb, pb.rotation.conjugate() * -n)
        - (pb.translation - pa.translation).dot(n);
    (got, Some((sep - got.depth).abs() / (ha.max(hb) + ra + rb)))
}

/// A ball whose centre lies inside an upright cylinder (uniform over its
/// volume), both moved by a random rigid motion: the contact's depth is
/// exact, the centre's distance to the cylinder's boundary plus the
/// ball's radius, `min(r − ρ, h − |y|) + r_b` (to part them the centre
/// must leave the cylinder and then clear it by the radius; the nearest
/// way out is through the side or a cap).
#[derive(Clone, Copy, Debug)]
pub struct BallInCylinder {
    /// The cylinder's half height and radius.
    pub cylinder: (f64, f64),
    /// The ball's radius.
    pub radius: f64,
    /// The cylinder's pose.
    pub pose_cylinder: Pose<DVec3>,
    /// The ball's pose.
    pub pose_ball: Pose<DVec3>,
    /// The exact depth.
    pub depth: f64,
    /// Whether the nearest way out is through the side (else a cap).
    pub side: bool,
}

/// The next [`BallInCylinder`] of the seeded sequence of `rng`.
pub fn ball_in_cylinder(rng: &mut Rng) -> BallInCylinder {
    let (h, r, radius) = (rng.range(0.1, 3.0), rng.range(0.1, 2.0), rng.range(0.1, 2.0));
    let rho = r * rng.f64().sqrt();
    let angle = rng.range(0.0, std::f64::consts::TAU);
    let y = rng.range(-h, h);
    let centre = DVec3::new(rho * angle.cos(), y, rho * angle.sin());
    let pose_cylinder =
        Pose::new(rng.quat(), DVec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)));
    let pose_ball = Pose::new(rng.quat(), pose_cylinder.transform_point(centre));
    BallInCylinder {
        cylinder: (h, r),
        radius,
        pose_cylinder,
        pose_ball,
        depth: (r - rho).min(h - y.abs()) + radius,
        side: r - rho < h - y.abs(),
    }
}

/// The contact of the ball (A) and the cylinder (B) of a [`BallInCylinder`]
/// (f64).
pub fn ball_in_cylinder_contact(pair: &BallInCylinder) -> ContactAnswer {
    let ((h, r), ball) = (pair.cylinder, gjk_shapes::Ball::new(pair.radius).unwrap());
    ContactAnswer::of(&contact(&ball, &pair.pose_ball, &Cylinder::new(h, r).unwrap(), &pair.pose_cylinder))
}
