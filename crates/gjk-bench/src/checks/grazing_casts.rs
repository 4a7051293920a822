//! Grazing casts in f32 (docs/reliability.md, *Grazing rays*): rays aimed
//! at the middle of two of a hull's points or tangent at a vertex, and linear
//! shape casts whose motion is tangent to the two hulls' Minkowski
//! difference at a vertex, each nudged sideways by up to 5 zero bands.
//! Counted: hits where the motion's segment passes further from the target
//! than 1, 1.5 and 2 times any zero band the cast can use (`256 ε` times a
//! bound on its scale), and misses where it passes deeper inside than 1.5
//! such bands. The truth is an `f64` distance between the segment and the
//! target's points, and for a miss the depth of the segment inside their
//! hull (its face planes, the least over them, maximised along the
//! segment).
//! Also counted: casts that ended at the iteration cap.
//! `cargo run --release -p gjk-bench -- grazing-casts [CASTS]`
//! (default 200 000 rays of each aim and 100 000 shape casts).
use gjk_core::glam::{DVec3, Vec3};
use gjk_core::{CastOptions, CastStatus, cast_ray, cast_shape};
use gjk_testkit::{Rng, polyhedron};

/// `256 ε` (f32): a zero band per unit of scale.
const BAND: f64 = 256.0 * f32::EPSILON as f64;

/// The depth of the segment `o + t d`, `t ∈ [0, 1]`, inside the hull of
/// `pts` (negative where it stays outside): the least over the face
/// planes, maximised over `t` by ternary search (the least of affine
/// functions is concave).
fn chord_depth(pts: &[DVec3], o: DVec3, d: DVec3) -> f64 {
    let hull = gjk_shapes::ConvexHull::new(pts).expect("a solid cloud");
    let v = hull.vertices();
    let inside = v.iter().sum::<DVec3>() / v.len() as f64;
    let planes: Vec<(DVec3, f64)> = hull
        .faces()
        .iter()
        .map(|f| {
            let [x, y, z] = f.map(|i| v[i as usize]);
            let n = (y - x).cross(z - x).normalize();
            let n = if n.dot(inside - x) > 0.0 { -n } else { n };
            (n, n.dot(x))
        })
        .collect();
    let depth = |t: f64| planes.iter().map(|(n, off)| off - n.dot(o + d * t)).fold(f64::INFINITY, f64::min);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    // Bounded: each pass keeps two thirds of the interval.
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if depth(m1) < depth(m2) {
            lo = m1;
        } else {
            hi = m2;
        }
    }
    depth(0.5 * (lo + hi))
}

/// Tallies of one kind of cast: casts, hits, hits beyond 1, 1.5 and 2
/// bands, misses deeper than 1.5 bands, casts that reached the iteration
/// cap.
#[derive(Default)]
struct Tally {
    casts: usize,
    hits: usize,
    false_hits: [usize; 3],
    false_misses: usize,
    capped: usize,
}

impl Tally {
    /// One cast of the segment `o + t d` against the cloud `target`, with
    /// the cast's band bound `band`.
    fn add(&mut self, status: Option<CastStatus>, target: &[DVec3], (o, d): (DVec3, DVec3), band: f64) {
        let hit = matches!(status, Some(CastStatus::Hit | CastStatus::StartsInside));
        let segment = [o, o + d];
        let miss = gjk_core::distance(segment.as_slice(), target).distance;
        self.casts += 1;
        self.hits += usize::from(hit);
        self.capped += usize::from(status == Some(CastStatus::IterationLimit));
        for (n, f) in self.false_hits.iter_mut().zip([1.0, 1.5, 2.0]) {
            *n += usize::from(hit && miss > f * band);
        }
        self.false_misses += usize::from(!hit && miss == 0.0 && chord_depth(target, o, d) > 1.5 * band);
    }

    fn row(&self, name: &str) {
        let [a, b, c] = self.false_hits;
        println!(
            "| {name} | {} | {} | {a} | {b} | {c} | {} | {} |",
            self.casts, self.hits, self.false_misses, self.capped
        );
    }
}

/// The largest coordinate magnitude of a cloud.
fn reach(pts: &[Vec3]) -> f32 {
    pts.iter().map(|p| p.abs().max_element()).fold(0.0, f32::max)
}

/// Runs the check with the command line's remaining arguments.
pub fn run(args: &[String]) {
    let casts: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    println!(
        "| casts | count | hits | hits beyond 1 band | 1.5 | 2 | misses deeper than 1.5 | at the iteration cap |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut rng = Rng::new(99);
    let (mut through, mut tangent) = (Tally::default(), Tally::default());
    for i in 0..casts {
        let cloud: Vec<Vec3> = polyhedron(&mut rng, [8, 16, 32][i % 3]).iter().map(|p| p.as_vec3()).collect();
        let c64: Vec<DVec3> = cloud.iter().map(|p| p.as_dvec3()).collect();
        let band = BAND * 4.0 * f64::from(reach(&cloud));
        // Aimed at the middle of two points (mostly through the hull, or
        // beside an edge), and tangent at the vertex along `u`; both
        // nudged by up to 5 bands.
        let (j, k) = (rng.usize(0, cloud.len() - 1), rng.usize(0, cloud.len() - 1));
        let dir = rng.unit3();
        let aim = (c64[j] + c64[k]) * 0.5 + dir.any_orthonormal_vector() * band * rng.range(-5.0, 5.0);
        let u = rng.unit3();
        let vertex = *c64.iter().max_by(|x, y| x.dot(u).total_cmp(&y.dot(u))).expect("points");
        let t = u.any_orthonormal_vector();
        let turn = rng.range(0.0, std::f64::consts::TAU);
        let along = t * turn.cos() + u.cross(t) * turn.sin();
        let touch = vertex + u * band * rng.range(-5.0, 5.0);
        for (tally, aim, dir) in [(&mut through, aim, dir), (&mut tangent, touch, along)] {
            let d = (dir * 6.0).as_vec3();
            let o = aim.as_vec3() - d * 0.5;
            let r = cast_ray(cloud.as_slice(), o, d, 1.0, 0.0);
            let bound = BAND * f64::from(o.abs().max_element() + d.abs().max_element() + reach(&cloud));
            tally.add(r.map(|r| r.status), &c64, (o.as_dvec3(), d.as_dvec3()), bound);
        }
    }
    through.row("rays at two points' middle, hulls of 8 – 32 points");
    tangent.row("rays tangent at a vertex, same hulls");
    let mut shapes = Tally::default();
    for i in 0..casts / 2 {
        let n = [8, 12][i % 2];
        let a: Vec<Vec3> = polyhedron(&mut rng, n).iter().map(|p| p.as_vec3()).collect();
        let b: Vec<Vec3> = polyhedron(&mut rng, n).iter().map(|p| p.as_vec3()).collect();
        let diff: Vec<DVec3> = b.iter().flat_map(|q| a.iter().map(move |p| (*q - *p).as_dvec3())).collect();
        let extent = diff.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max);
        // The motion tangent to B − A at its vertex along `u`, nudged
        // along `u`: B placed so that the motion from the origin grazes it.
        let u = rng.unit3();
        let vertex = *diff.iter().max_by(|x, y| x.dot(u).total_cmp(&y.dot(u))).expect("points");
        let t = u.any_orthonormal_vector();
        let turn = rng.range(0.0, std::f64::consts::TAU);
        let dir = t * turn.cos() + u.cross(t) * turn.sin();
        let motion = dir * 8.0;
        let aim = vertex + u * (BAND * 2.0 * extent) * rng.range(-5.0, 5.0);
        let shift = (motion * 0.5 - aim).as_vec3();
        let b: Vec<Vec3> = b.iter().map(|p| *p + shift).collect();
        let m = motion.as_vec3();
        let r = cast_shape(a.as_slice(), m, b.as_slice(), Vec3::ZERO, &CastOptions::default());
        let diff: Vec<DVec3> =
            b.iter().flat_map(|q| a.iter().map(move |p| q.as_dvec3() - p.as_dvec3())).collect();
        let bound = BAND * (f64::from(m.abs().max_element()) + 2.0 * extent);
        shapes.add(r.map(|r| r.status), &diff, (DVec3::ZERO, m.as_dvec3()), bound);
    }
    shapes.row("shape casts, hulls of 8 and 12 points");
}
