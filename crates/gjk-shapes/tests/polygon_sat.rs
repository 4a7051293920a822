//! The boolean test of polygon pairs by the boundary walk on `B − A` and,
//! where it leaves the pair open, the separating-axis theorem
//! (`POLYGON_SAT_LIMIT`, no warm-start cache): verdicts against brute force
//! (f64 distances over all edge pairs plus containment) and against GJK
//! (the same query with a cache runs GJK), on pairs placed apart, touching,
//! slightly overlapping and deeply overlapping, for sizes on both sides of
//! the limit, sharp and round, f32 and f64; plus the edge kernel against a
//! brute-force maximum and hand-made exact contacts. The distance alone
//! (`distance_value`) of the same pairs, which the test measures where it
//! is exact, against brute force, the full query (GJK) and itself with the
//! shapes swapped. And the walk's view helpers (supports, point
//! separation, edge distance) against brute force.

use gjk_shapes::gjk_core::internal::Vector2;
use gjk_shapes::gjk_core::{Real, SimplexCache};
use gjk_shapes::glam::{DVec2, Vec2};
use gjk_shapes::tuning::POLYGON_SAT_LIMIT;
use gjk_shapes::{
    ConvexPolygon, Pose, Rot2, Rounded, Shape, Space, distance_value, intersects, intersects_with,
};
use gjk_testkit::{Rng, brute_closest_2d, polygon};

/// Whether `p` lies in the counter-clockwise convex polygon `poly`.
fn inside(poly: &[DVec2], p: DVec2) -> bool {
    (0..poly.len()).all(|i| {
        let (s, e) = (poly[i], poly[(i + 1) % poly.len()]);
        (e - s).perp_dot(p - s) >= 0.0
    })
}

/// The largest separation of `b` from `a`'s edge lines (f64, world frame,
/// every edge against every vertex).
fn edge_separation(a: &[DVec2], b: &[DVec2]) -> f64 {
    (0..a.len())
        .map(|i| {
            let (s, e) = (a[i], a[(i + 1) % a.len()]);
            let n = DVec2::new(e.y - s.y, s.x - e.x).normalize();
            b.iter().map(|q| n.dot(*q - s)).fold(f64::INFINITY, f64::min)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Brute-force signed distance between two convex polygons (counter-
/// clockwise vertices, one frame): apart, the least distance over all edge
/// pairs; overlapping (one holds a vertex of the other, or edges cross),
/// minus the penetration depth (the least overlap along the edge normals).
fn brute(a: &[DVec2], b: &[DVec2]) -> f64 {
    let d = brute_closest_2d(a, b).0;
    if d > 0.0 && !a.iter().any(|p| inside(b, *p)) && !b.iter().any(|p| inside(a, *p)) {
        return d;
    }
    edge_separation(a, b).max(edge_separation(b, a)).min(0.0)
}

/// The world vertices of a posed polygon, in f64.
fn world<V: Space + Vector2>(p: &ConvexPolygon<V>, pose: &Pose<V>, f: impl Fn(V) -> DVec2) -> Vec<DVec2> {
    p.vertices().iter().map(|v| f(pose.transform_point(*v))).collect()
}

/// How a pair is placed.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// B's centre at a random distance, up to twice the sizes apart.
    Random,
    /// Moved along the brute-force closest points until touching.
    Touching,
    /// Touching, then pushed apart (positive) or together (negative) by
    /// this fraction of the size.
    Nudged(f64),
}

/// Places B relative to A (world frame, f64) and returns B's translation.
fn place(rng: &mut Rng, a: &[DVec2], b_local: &[DVec2], angle: f64, size: f64, how: Place) -> DVec2 {
    let at = |t: DVec2| {
        let pose = Pose::new(Rot2::from_angle(angle), t);
        b_local.iter().map(|p| pose.transform_point(*p)).collect::<Vec<_>>()
    };
    let dir = rng.unit2();
    match how {
        Place::Random => dir * rng.range(0.0, 4.0) * size,
        Place::Touching | Place::Nudged(_) => {
            // Start well apart, then move along the closest points.
            let t = dir * 6.0 * size;
            let (d, pa, pb) = brute_closest_2d(a, &at(t));
            let n = (pb - pa) / d;
            let push = if let Place::Nudged(f) = how { f * size } else { 0.0 };
            t - n * (d - push)
        }
    }
}

/// One pair checked at `V`'s precision: the boolean against brute force
/// outside the ambiguous band `amb` (relative to `size`), and against GJK.
/// Returns whether the pair was decided (outside the band).
fn check<V: Space + Vector2>(
    a: &ConvexPolygon<V>,
    b: &ConvexPolygon<V>,
    pose_b: Pose<V>,
    margin: f64,
    (size, amb): (f64, f64),
    to64: impl Fn(V) -> DVec2 + Copy,
    ctx: &str,
) -> bool {
    let id = Pose::IDENTITY;
    let truth = brute(&world(a, &id, to64), &world(b, &pose_b, to64)) - margin;
    let r = V::Scalar::from_f64(margin / 2.0);
    let (ra, rb) = (Rounded::new(a, r).unwrap(), Rounded::new(b, r).unwrap());
    let (sat, gjk) = if margin > 0.0 {
        let mut cache = SimplexCache::new();
        let g = intersects_with(&ra, &id, &rb, &pose_b, &Default::default(), Some(&mut cache));
        (intersects(&ra, &id, &rb, &pose_b), g)
    } else {
        let mut cache = SimplexCache::new();
        let g = intersects_with(a, &id, b, &pose_b, &Default::default(), Some(&mut cache));
        (intersects(a, &id, b, &pose_b), g)
    };
    let gjk = gjk.unwrap_or_else(|e| panic!("{ctx}: GJK failed: {e:?}"));
    if truth.abs() <= amb * size {
        // Within rounding of contact: either answer is defensible, but the
        // two tests must not disagree by more than the band.
        return false;
    }
    let full = gjk_shapes::distance(a, &id, b, &pose_b);
    assert_eq!(
        sat,
        truth < 0.0,
        "{ctx}: brute-force distance {truth:e} (size {size:e}); gjk {gjk}, full {} {:?} tol {}",
        full.distance.to_f64(),
        full.status,
        full.tolerance.to_f64()
    );
    assert_eq!(sat, gjk, "{ctx}: the SAT and GJK verdicts differ (distance {truth:e})");
    true
}

#[test]
fn sat_boolean_matches_brute_force_and_gjk() {
    let mut rng = Rng::new(7301);
    let (mut decided, mut touching_true) = (0usize, 0usize);
    // Pairs within the limit (tested by the SAT) and past it (by GJK).
    let (mut within, mut past) = (0usize, 0usize);
    for k in 0..4000 {
        let (n, m) = (rng.usize(3, 28), rng.usize(3, 28));
        let size = [1e-3, 1.0, 1e3][k % 3];
        let flat = if k % 7 == 6 { 0.05 } else { 1.0 };
        let pa: Vec<DVec2> =
            polygon(&mut rng, n).iter().map(|p| DVec2::new(p.x, p.y * flat) * size).collect();
        let pb: Vec<DVec2> = polygon(&mut rng, m).iter().map(|p| *p * size).collect();
        let (a64, b64) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
        if a64.vertices().len() * b64.vertices().len() <= POLYGON_SAT_LIMIT {
            within += 1;
        } else {
            past += 1;
        }
        let how = match k % 5 {
            0 | 1 => Place::Random,
            2 => Place::Touching,
            3 => Place::Nudged(rng.range(-0.05, 0.05)),
            _ => Place::Nudged([1e-3, -1e-3, 1e-5, -1e-5][rng.usize(0, 3)]),
        };
        let angle = rng.range(-3.2, 3.2);
        let t = place(&mut rng, a64.vertices(), b64.vertices(), angle, size, how);
        let margin = if k % 4 == 3 { rng.range(0.0, 0.2) * size } else { 0.0 };
        let ctx = format!("pair {k} ({n}×{m}, {how:?}, size {size:e}, margin {margin:e})");
        let pose64 = Pose::new(Rot2::from_angle(angle), t);
        // f64: the zero band is ~1e-13 of the size.
        decided += usize::from(check(&a64, &b64, pose64, margin, (size, 1e-9), |v| v, &format!("{ctx} f64")));
        // Exactly touching pairs (f64 construction, rounding only) meet.
        if matches!(how, Place::Touching) && margin == 0.0 {
            let (a, b, p) = (&a64, &b64, &pose64);
            let mut c = SimplexCache::new();
            let g = intersects_with(a, &Pose::IDENTITY, b, p, &Default::default(), Some(&mut c));
            let d = gjk_shapes::distance(a, &Pose::IDENTITY, b, p);
            let tr = brute(&world(a, &Pose::IDENTITY, |v| v), &world(b, p, |v| v));
            assert!(
                intersects(a, &Pose::IDENTITY, b, p),
                "{ctx}: a touching pair reported apart; gjk {g:?} dist {d:?} brute {tr:e}"
            );
            touching_true += 1;
        }
        // f32: the band is 256 ulps of the scale of A − B (up to a few sizes).
        let (a32, b32) = (
            ConvexPolygon::new(&pa.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>()).unwrap(),
            ConvexPolygon::new(&pb.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>()).unwrap(),
        );
        let pose32 = Pose::new(Rot2::from_angle(angle as f32), t.as_vec2());
        check(&a32, &b32, pose32, margin, (size, 3e-4), |v: Vec2| v.as_dvec2(), &format!("{ctx} f32"));
        if matches!(how, Place::Touching) && margin == 0.0 {
            let mut c = SimplexCache::new();
            let g = intersects_with(&a32, &Pose::IDENTITY, &b32, &pose32, &Default::default(), Some(&mut c));
            let d = gjk_shapes::distance(&a32, &Pose::IDENTITY, &b32, &pose32);
            let tr = brute(
                &world(&a32, &Pose::IDENTITY, |v| v.as_dvec2()),
                &world(&b32, &pose32, |v| v.as_dvec2()),
            );
            assert!(
                intersects(&a32, &Pose::IDENTITY, &b32, &pose32),
                "{ctx} f32: a touching pair reported apart; gjk {g:?} dist {} {:?} tol {} brute {tr:e}",
                d.distance,
                d.status,
                d.tolerance
            );
        }
    }
    // The placements exercise every outcome, and the sizes both sides of
    // the limit.
    assert!(decided > 2800 && touching_true > 500, "decided {decided}, touching {touching_true}");
    assert!(within > 1000 && past > 500, "within the limit {within}, past it {past}");
}

/// The distance alone of one pair at `V`'s precision, with radii summing
/// to `margin`: the brute-force distance (clamped at 0) within `tol` of
/// `size`, the full query's (GJK's) distance within its zero band, and the
/// same with the shapes swapped.
fn check_distance<V: Space + Vector2>(
    a: &ConvexPolygon<V>,
    b: &ConvexPolygon<V>,
    pose_b: Pose<V>,
    margin: f64,
    (size, tol): (f64, f64),
    to64: impl Fn(V) -> DVec2 + Copy,
    ctx: &str,
) {
    let id = Pose::IDENTITY;
    let truth = (brute(&world(a, &id, to64), &world(b, &pose_b, to64)) - margin).max(0.0);
    let r = V::Scalar::from_f64(margin / 2.0);
    let (ra, rb) = (Rounded::new(a, r).unwrap(), Rounded::new(b, r).unwrap());
    let (v, full, swapped) = (
        distance_value(&ra, &id, &rb, &pose_b).unwrap_or_else(|e| panic!("{ctx}: {e:?}")),
        gjk_shapes::distance(&ra, &id, &rb, &pose_b),
        distance_value(&rb, &pose_b, &ra, &id).unwrap_or_else(|e| panic!("{ctx} swapped: {e:?}")),
    );
    let v = v.to_f64();
    assert!((v - truth).abs() <= tol * size, "{ctx}: distance {v:e}, brute force {truth:e}");
    let (d, band) = (full.distance.to_f64(), full.tolerance.to_f64());
    assert!((v - d).abs() <= band.max(tol * size), "{ctx}: distance {v:e}, full query {d:e} (band {band:e})");
    let w = swapped.to_f64();
    assert!((v - w).abs() <= tol * size, "{ctx}: distance {v:e}, swapped {w:e}");
}

#[test]
fn sat_distance_matches_brute_force_gjk_and_swap() {
    let mut rng = Rng::new(7305);
    let (mut within, mut touching) = (0usize, 0usize);
    for k in 0..4000 {
        let (n, m) = (rng.usize(3, 24), rng.usize(3, 24));
        let size = [1e-3, 1.0, 1e3][k % 3];
        let flat = if k % 7 == 6 { 0.05 } else { 1.0 };
        let pa: Vec<DVec2> =
            polygon(&mut rng, n).iter().map(|p| DVec2::new(p.x, p.y * flat) * size).collect();
        let pb: Vec<DVec2> = polygon(&mut rng, m).iter().map(|p| *p * size).collect();
        let (a64, b64) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
        within += usize::from(a64.vertices().len() * b64.vertices().len() <= POLYGON_SAT_LIMIT);
        let how = match k % 5 {
            0 => Place::Random,
            1 | 2 => Place::Touching,
            3 => Place::Nudged(rng.range(-0.05, 0.05)),
            _ => Place::Nudged([1e-3, -1e-3, 1e-6, -1e-6][rng.usize(0, 3)]),
        };
        touching += usize::from(matches!(how, Place::Touching));
        let angle = rng.range(-3.2, 3.2);
        let t = place(&mut rng, a64.vertices(), b64.vertices(), angle, size, how);
        let margin = if k % 4 == 3 { rng.range(0.0, 0.2) * size } else { 0.0 };
        let ctx = format!("pair {k} ({n}×{m}, {how:?}, size {size:e}, margin {margin:e})");
        let pose64 = Pose::new(Rot2::from_angle(angle), t);
        check_distance(&a64, &b64, pose64, margin, (size, 1e-9), |v| v, &format!("{ctx} f64"));
        let (a32, b32) = (
            ConvexPolygon::new(&pa.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>()).unwrap(),
            ConvexPolygon::new(&pb.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>()).unwrap(),
        );
        let pose32 = Pose::new(Rot2::from_angle(angle as f32), t.as_vec2());
        check_distance(
            &a32,
            &b32,
            pose32,
            margin,
            (size, 3e-4),
            |v: Vec2| v.as_dvec2(),
            &format!("{ctx} f32"),
        );
    }
    assert!(within > 1500 && touching > 1500, "within the limit {within}, touching {touching}");
}

/// Signed distance of `p` from the counter-clockwise convex polygon
/// `poly` (f64): negative inside.
fn signed_distance(poly: &[DVec2], p: DVec2) -> f64 {
    if inside(poly, p) {
        return -edge_separation(poly, &[p]).abs();
    }
    (0..poly.len())
        .map(|i| {
            let (s, e) = (poly[i], poly[(i + 1) % poly.len()]);
            let d = e - s;
            (p - (s + d * ((p - s).dot(d) / d.length_squared()).clamp(0.0, 1.0))).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The full distance of polygon pairs whose outer balls are apart, which
/// the boundary walk answers instead of GJK (`iterations` 0): against
/// brute force (the distance over all edge pairs; the points on their
/// polygons, `normal · distance` apart, the normal separating by the
/// distance), against GJK (the same query with a warm-start cache, which
/// runs GJK), with the shapes swapped, under a rigid motion of both (A
/// posed too), rounded, in f32, at sizes 1e-6 to 1e6; and its simplex: in A's frame, its
/// witness points the result's, its vertex indices naming its points, and
/// a warm start from it giving the same distance.
#[test]
fn walk_full_distance_matches_brute_force_gjk_and_swap() {
    use gjk_shapes::gjk_core::{GjkConfig, Status, SupportMap};
    use gjk_shapes::{distance, distance_with};
    let mut rng = Rng::new(7311);
    let mut walked = 0usize;
    let cases = 3000;
    for k in 0..cases {
        let (n, m) = (rng.usize(3, 40), rng.usize(3, 40));
        let size = [1e-6, 1e-3, 1.0, 1e3, 1e6][k % 5];
        let flat = if k % 7 == 6 { 0.05 } else { 1.0 };
        let pa: Vec<DVec2> =
            polygon(&mut rng, n).iter().map(|p| DVec2::new(p.x, p.y * flat) * size).collect();
        let pb: Vec<DVec2> = polygon(&mut rng, m).iter().map(|p| *p * size).collect();
        let (a, b) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
        // B's centre beyond the outer balls by 0.1 % to three times them.
        let (ca, cb) = (a.center().unwrap(), b.center().unwrap());
        let reach = a.center_radii().unwrap().1 + b.center_radii().unwrap().1;
        let angle = rng.range(-3.2, 3.2);
        let rot = Rot2::from_angle(angle);
        let centre = ca + rng.unit2() * reach * rng.range(1.001, 4.0);
        let pose_b0 = Pose::new(rot, centre - Pose::new(rot, DVec2::ZERO).transform_point(cb));
        // Both moved by one rigid motion (the answers move with it).
        let motion =
            Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 10.0) * size);
        let (pose_a, pose_b) = (motion, motion.mul(&pose_b0));
        let (wa, wb) = (world(&a, &pose_a, |v| v), world(&b, &pose_b, |v| v));
        let (truth, ..) = brute_closest_2d(&wa, &wb);
        let ctx = format!("pair {k} ({n}×{m}, size {size:e}, distance {truth:e})");
        let tol = 1e-9 * size;

        let r = distance(&a, &pose_a, &b, &pose_b);
        walked += usize::from(r.iterations == 0);
        assert_eq!(r.status, Status::Separated, "{ctx}");
        assert!((r.distance - truth).abs() <= tol, "{ctx}: {:e}", r.distance);
        assert_eq!(r.lower_bound, r.distance, "{ctx}: the walk proves its distance");
        assert!((r.normal.length() - 1.0).abs() < 1e-12, "{ctx}: normal {:?}", r.normal);
        assert!(signed_distance(&wa, r.point_a).abs() <= tol, "{ctx}: point_a off A");
        assert!(signed_distance(&wb, r.point_b).abs() <= tol, "{ctx}: point_b off B");
        assert!((r.point_b - r.point_a - r.normal * r.distance).length() <= tol, "{ctx}: points vs normal");
        let lowest_b = wb.iter().map(|q| r.normal.dot(*q)).fold(f64::INFINITY, f64::min);
        let highest_a = wa.iter().map(|q| r.normal.dot(*q)).fold(f64::NEG_INFINITY, f64::max);
        assert!((lowest_b - highest_a - r.distance).abs() <= tol, "{ctx}: the normal does not separate");

        // GJK on the same pair (a cache sends the query to GJK).
        let mut cache = SimplexCache::new();
        let g = distance_with(&a, &pose_a, &b, &pose_b, &GjkConfig::default(), Some(&mut cache));
        assert_eq!(g.status, Status::Separated, "{ctx}: GJK");
        assert!(g.iterations > 0, "{ctx}: GJK made no support call");
        assert!((g.distance - r.distance).abs() <= tol, "{ctx}: GJK {:e}", g.distance);
        assert!((g.normal - r.normal).length() <= 1e-6, "{ctx}: GJK normal {:?} vs {:?}", g.normal, r.normal);

        // Swapped: the same distance, the normal reversed, the points swapped.
        let s = distance(&b, &pose_b, &a, &pose_a);
        assert!((s.distance - r.distance).abs() <= tol, "{ctx}: swapped {:e}", s.distance);
        assert!((s.normal + r.normal).length() <= 1e-6, "{ctx}: swapped normal");

        // The simplex, in A's frame: its witnesses are the result's points,
        // its indices name its vertices, and a warm start from it agrees.
        let (sa, sb) = r.simplex.witness_points();
        let (sa, sb) = (pose_a.transform_point(sa), pose_a.transform_point(sb));
        assert!((sa - r.point_a).length() <= tol && (sb - r.point_b).length() <= tol, "{ctx}: witnesses");
        let b_in_a = pose_a.inverse().mul(&pose_b);
        for p in r.simplex.points() {
            assert_eq!(p.a, a.vertices()[p.index_a as usize], "{ctx}: A's index");
            let q = b_in_a.transform_point(b.vertices()[p.index_b as usize]);
            assert!((p.b - q).length() <= tol, "{ctx}: B's index");
            assert_eq!(p.w, p.a - p.b, "{ctx}: w");
        }
        let mut warm = SimplexCache::new();
        warm.store(&r.simplex);
        let w = distance_with(&a, &pose_a, &b, &pose_b, &GjkConfig::default(), Some(&mut warm));
        assert!((w.distance - r.distance).abs() <= tol, "{ctx}: warm {:e}", w.distance);

        // Rounded: the radii off the distance, separated or touching.
        let radius = (truth / 2.0) * rng.range(0.0, 1.2);
        let (ra, rb) = (Rounded::new(&a, radius).unwrap(), Rounded::new(&b, radius).unwrap());
        let rr = distance(&ra, &pose_a, &rb, &pose_b);
        let gap = truth - 2.0 * radius;
        if gap > rr.tolerance {
            assert_eq!(rr.status, Status::Separated, "{ctx}: rounded");
            assert!((rr.distance - gap).abs() <= tol, "{ctx}: rounded {:e} vs {gap:e}", rr.distance);
        } else {
            assert!(rr.status.is_contact(), "{ctx}: rounded {:?} (gap {gap:e})", rr.status);
        }

        // f32: the same pair to its precision.
        let to32 = |v: &[DVec2]| v.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>();
        let (a32, b32) = (ConvexPolygon::new(&to32(&pa)).unwrap(), ConvexPolygon::new(&to32(&pb)).unwrap());
        let p32 =
            |p: Pose<DVec2>| Pose::new(Rot2::from_angle(p.rotation.angle() as f32), p.translation.as_vec2());
        let r32 = distance(&a32, &p32(pose_a), &b32, &p32(pose_b));
        assert_eq!(r32.status, Status::Separated, "{ctx}: f32");
        assert!((r32.distance as f64 - truth).abs() <= 3e-4 * size, "{ctx}: f32 {:e}", r32.distance);
    }
    // Nearly every pair took the walk (the rest, a rounding case, GJK).
    assert!(walked * 100 >= cases * 99, "walked {walked} of {cases}");
}

/// One pair near contact (f64 or f32 through `to64`) by the full query,
/// which the walk answers where it ends outside or within the zero band
/// (`iterations` 0): separated with the brute-force distance, or touching
/// with a verified normal (the shapes overlap by at most the band along
/// it) where brute force says they are within the band; its simplex's
/// witnesses are its points. Every answer, the walk's or GJK's, agrees
/// with GJK (the same query with a cache) and brute force outside the
/// band. Returns whether the walk answered.
fn check_full_near_contact<V: Space + Vector2>(
    a: &ConvexPolygon<V>,
    b: &ConvexPolygon<V>,
    (pose_a, pose_b): (Pose<V>, Pose<V>),
    (size, tol): (f64, f64),
    to64: impl Fn(V) -> DVec2 + Copy,
    ctx: &str,
) -> bool {
    use gjk_shapes::gjk_core::{GjkConfig, Status};
    let (wa, wb) = (world(a, &pose_a, to64), world(b, &pose_b, to64));
    let truth = brute(&wa, &wb);
    let r = gjk_shapes::distance(a, &pose_a, b, &pose_b);
    let (d, band, n) = (r.distance.to_f64(), r.tolerance.to_f64(), to64(r.normal));
    let tol = tol * size;
    let mut cache = SimplexCache::new();
    let g = gjk_shapes::distance_with(a, &pose_a, b, &pose_b, &GjkConfig::default(), Some(&mut cache));
    let gband = g.tolerance.to_f64();
    // Outside both bands (and the rounding): the same verdict as GJK and
    // brute force, and the same distance.
    if truth.abs() > 2.0 * band.max(gband) + tol {
        assert_eq!(r.status.is_contact(), truth < 0.0, "{ctx}: {:?}, brute force {truth:e}", r.status);
        assert_eq!(
            r.status.is_contact(),
            g.status.is_contact(),
            "{ctx}: {:?} vs GJK {:?}",
            r.status,
            g.status
        );
        assert!((d - truth.max(0.0)).abs() <= tol, "{ctx}: {d:e} vs brute force {truth:e}");
    }
    if r.iterations != 0 {
        return false;
    }
    let (sa, sb) = r.simplex.witness_points();
    let (sa, sb) = (to64(pose_a.transform_point(sa)), to64(pose_a.transform_point(sb)));
    assert!((sa - to64(r.point_a)).length() <= tol, "{ctx}: witness on A");
    assert!((sb - to64(r.point_b)).length() <= tol, "{ctx}: witness on B");
    let lowest_b = wb.iter().map(|q| n.dot(*q)).fold(f64::INFINITY, f64::min);
    let highest_a = wa.iter().map(|q| n.dot(*q)).fold(f64::NEG_INFINITY, f64::max);
    match r.status {
        Status::Separated => {
            assert!((d - truth).abs() <= tol, "{ctx}: separated {d:e}, brute force {truth:e}");
            assert!((lowest_b - highest_a - d).abs() <= tol, "{ctx}: the normal does not separate");
        }
        Status::Touching => {
            assert!(d <= band, "{ctx}: touching at {d:e} (band {band:e})");
            assert!(truth.abs() <= band + tol, "{ctx}: touching, brute force {truth:e} (band {band:e})");
            // Verified: along the normal the shapes overlap by at most the band.
            assert!(
                highest_a - lowest_b <= band + tol,
                "{ctx}: overlap {:e} along the normal",
                highest_a - lowest_b
            );
        }
        other => panic!("{ctx}: the walk answered {other:?}"),
    }
    true
}

/// The full query on polygon pairs near contact (touching, and pushed
/// apart or together by 1e-9 to 3 % of their size; sizes 1e-6 to 1e6), f64 and f32, posed by
/// one rigid motion: [`check_full_near_contact`]; the walk answers most
/// touching pairs (the rest, where it ends on a far edge's inner side or
/// deeper than the band, go to GJK).
#[test]
fn walk_full_distance_near_contact_matches_brute_force_and_gjk() {
    let mut rng = Rng::new(7312);
    let (mut walked, mut touching) = (0usize, 0usize);
    for k in 0..3000 {
        let (n, m) = (rng.usize(3, 40), rng.usize(3, 40));
        let size = [1e-6, 1e-3, 1.0, 1e3, 1e6][k % 5];
        let pa: Vec<DVec2> = polygon(&mut rng, n).iter().map(|p| *p * size).collect();
        let pb: Vec<DVec2> = polygon(&mut rng, m).iter().map(|p| *p * size).collect();
        let (a, b) = (ConvexPolygon::new(&pa).unwrap(), ConvexPolygon::new(&pb).unwrap());
        let how = match k % 4 {
            0 | 1 => Place::Touching,
            2 => Place::Nudged([1e-9, -1e-9, 1e-6, -1e-6][rng.usize(0, 3)]),
            _ => Place::Nudged(rng.range(-0.03, 0.03)),
        };
        let angle = rng.range(-3.2, 3.2);
        let t = place(&mut rng, a.vertices(), b.vertices(), angle, size, how);
        let motion =
            Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 10.0) * size);
        let (pose_a, pose_b) = (motion, motion.mul(&Pose::new(Rot2::from_angle(angle), t)));
        let ctx = format!("pair {k} ({n}×{m}, {how:?}, size {size:e})");
        let w = check_full_near_contact(&a, &b, (pose_a, pose_b), (size, 1e-9), |v| v, &format!("{ctx} f64"));
        walked += usize::from(w);
        touching += usize::from(matches!(how, Place::Touching));
        let to32 = |v: &[DVec2]| v.iter().map(|p| p.as_vec2()).collect::<Vec<Vec2>>();
        let (a32, b32) = (ConvexPolygon::new(&to32(&pa)).unwrap(), ConvexPolygon::new(&to32(&pb)).unwrap());
        let p32 =
            |p: Pose<DVec2>| Pose::new(Rot2::from_angle(p.rotation.angle() as f32), p.translation.as_vec2());
        check_full_near_contact(
            &a32,
            &b32,
            (p32(pose_a), p32(pose_b)),
            (size, 3e-4),
            |v: Vec2| v.as_dvec2(),
            &format!("{ctx} f32"),
        );
    }
    assert!(walked > touching, "the walk answered {walked} pairs ({touching} touching)");
}

#[test]
fn exact_contacts_and_vertex_regions() {
    let sq = |lo: DVec2, s: f64| {
        ConvexPolygon::new(&[lo, lo + DVec2::X * s, lo + DVec2::ONE * s, lo + DVec2::Y * s]).unwrap()
    };
    let a = sq(DVec2::ZERO, 1.0);
    let id = Pose::IDENTITY;
    // Flush edges, a vertex on an edge, corners meeting: all touch exactly.
    let flush = sq(DVec2::new(1.0, 0.25), 1.0);
    let tri =
        ConvexPolygon::new(&[DVec2::new(1.0, 0.5), DVec2::new(2.0, 0.0), DVec2::new(2.0, 1.0)]).unwrap();
    let corner = sq(DVec2::ONE, 1.0);
    for (b, name) in [(&flush, "flush"), (&tri, "vertex on edge"), (&corner, "corners")] {
        assert!(intersects(&a, &id, b, &id), "{name}");
    }
    // A gap of 1e-3: beyond any band. Diagonal corner to corner is a
    // vertex–vertex region (the edge normals bound the gap by 1e-3 but the
    // distance is 1e-3·√2): still apart.
    for g in [1e-3, 1e-9] {
        let apart = sq(DVec2::new(1.0 + g, 0.25), 1.0);
        let diag = sq(DVec2::ONE + g, 1.0);
        assert!(!intersects(&a, &id, &apart, &id), "edge gap {g}");
        assert!(!intersects(&a, &id, &diag, &id), "corner gap {g}");
        // Overlapping by the same amount.
        let over = sq(DVec2::new(1.0 - g, 0.25), 1.0);
        assert!(intersects(&a, &id, &over, &id), "overlap {g}");
    }
    // Round: corners 1e-3·√2 apart, radii summing to just more and less.
    let diag = sq(DVec2::ONE + 1e-3, 1.0);
    let gap = 1e-3 * 2f64.sqrt();
    for (r, hit) in [(gap / 2.0 * 1.001, true), (gap / 2.0 * 0.999, false)] {
        let (ra, rb) = (Rounded::new(&a, r).unwrap(), Rounded::new(&diag, r).unwrap());
        assert_eq!(intersects(&ra, &id, &rb, &id), hit, "rounded corners, radius {r}");
    }
}

#[test]
fn face_separation_is_the_largest_edge_separation() {
    let mut rng = Rng::new(7302);
    for k in 0..2000 {
        let (n, m) = (rng.usize(3, 30), rng.usize(3, 30));
        let a = ConvexPolygon::new(&polygon(&mut rng, n)).unwrap();
        let b = ConvexPolygon::new(&polygon(&mut rng, m)).unwrap();
        let pose = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 4.0));
        let placed = gjk_shapes::Placed::new(&b, &pose);
        let (va, vb) = (a.core_polygon().unwrap(), placed.core_polygon().unwrap());
        // Brute force in the shared frame: every edge of A against every
        // vertex of B.
        let bw: Vec<DVec2> = (0..vb.vertices.len()).map(|j| vb.vertex(j)).collect();
        let seps: Vec<f64> = (0..va.vertices.len())
            .map(|i| {
                let (nrm, p) = (va.normal(i), va.vertex(i));
                bw.iter().map(|q| nrm.dot(*q - p)).fold(f64::INFINITY, f64::min)
            })
            .collect();
        let max = seps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (s, e) = va.face_separation(&vb, f64::INFINITY);
        assert!((s - max).abs() <= 1e-12 * 8.0, "pair {k}: {s} vs {max}");
        assert!((seps[e] - s).abs() <= 1e-12 * 8.0, "pair {k}: edge {e} gives {} not {s}", seps[e]);
        // With a limit: past it, an edge beyond it (the scan may stop
        // early); below it, the same maximum.
        let stop = max - rng.range(-0.5, 0.5);
        let (s2, e2) = va.face_separation(&vb, stop);
        if max > stop {
            assert!(s2 > stop && (seps[e2] - s2).abs() <= 1e-12 * 8.0, "pair {k}: stop {stop}, got {s2}");
        } else {
            assert!((s2 - max).abs() <= 1e-12 * 8.0, "pair {k}: stop {stop}, got {s2} not {max}");
        }
    }
}

/// The boundary walk's view helpers against brute force in the shared
/// frame, on polygons of 3–120 vertices (supports by scan up to eight, by
/// hill climbing beyond) placed by random rigid motions: `support_along`
/// reaches the largest height along random directions (and answers some
/// vertex for zero and NaN ones), `point_separation` is the largest signed
/// distance of a point from the edge lines at the edge it names, and
/// `edge_distance_squared` is the point's squared distance from the edge
/// segment (foot clamped to its ends).
#[test]
fn view_support_point_separation_and_edge_distance_match_brute_force() {
    let mut rng = Rng::new(7331);
    let (mut climbed, mut clamped) = (0usize, 0usize);
    for k in 0..3000 {
        let n = if k % 2 == 0 { rng.usize(3, 8) } else { rng.usize(9, 120) };
        let b = ConvexPolygon::new(&polygon(&mut rng, n)).unwrap();
        let pose = Pose::new(Rot2::from_angle(rng.range(-3.2, 3.2)), rng.unit2() * rng.range(0.0, 4.0));
        let placed = gjk_shapes::Placed::new(&b, &pose);
        let v = placed.core_polygon().unwrap();
        let len = v.vertices.len();
        climbed += usize::from(len > 8);
        let w: Vec<DVec2> = (0..len).map(|j| v.vertex(j)).collect();
        // Supports: the height reached is the largest (to rounding).
        let d = rng.unit2() * rng.range(1e-3, 10.0);
        let top = w.iter().map(|p| p.dot(d)).fold(f64::NEG_INFINITY, f64::max);
        let i = v.support_along(d);
        assert!(i < len && top - w[i].dot(d) <= 1e-12 * d.length() * 8.0, "polygon {k} ({len}): {i}");
        for odd in [DVec2::ZERO, DVec2::splat(f64::NAN)] {
            assert!(v.support_along(odd) < len, "polygon {k}: {odd}");
        }
        // Point separation and edge distance, for points inside and out.
        let q = rng.unit2() * rng.range(0.0, 5.0) + pose.translation;
        let seps: Vec<f64> = (0..len).map(|e| v.normal(e).dot(q - w[e])).collect();
        let max = seps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (s, e) = v.point_separation(q);
        assert!(
            (s - max).abs() <= 1e-12 * 8.0 && (seps[e] - s).abs() <= 1e-12 * 8.0,
            "polygon {k}: {s} vs {max}"
        );
        let (p0, p1) = (w[e], w[(e + 1) % len]);
        let t = (q - p0).dot(p1 - p0) / (p1 - p0).length_squared();
        clamped += usize::from(!(0.0..=1.0).contains(&t));
        let truth = (q - (p0 + (p1 - p0) * t.clamp(0.0, 1.0))).length_squared();
        let got = v.edge_distance_squared(e, q);
        assert!((got - truth).abs() <= 1e-12 * (1.0 + truth), "polygon {k}: edge {e}: {got} vs {truth}");
    }
    assert!(climbed > 1000 && clamped > 100, "climbed {climbed}, clamped feet {clamped}");
}
