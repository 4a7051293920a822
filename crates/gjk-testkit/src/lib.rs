//! Test support for the gjk crates: a seeded RNG, shape generators and
//! independent oracles. Shares no code with the libraries it checks.
//!
//! The oracles share no code with the library:
//! - [`brute_distance_2d`] / [`brute_distance_3d`]: minimum over every
//!   feature pair of the two point sets (segment–segment in 2D;
//!   vertex–triangle and segment–segment in 3D), in f64. Exact for disjoint
//!   hulls, since the closest pair always lies on such a pair.
//! - [`reference_gjk`]: the divide-and-conquer least-squares GJK of the
//!   seed document, a slow but simple second opinion.
//! - [`sat_disjoint_2d`] / [`sat_disjoint_3d`]: whether two point sets'
//!   hulls are apart, by separating axes over every candidate the point
//!   sets make; with [`first_root`] (a dense scan and bisection), the
//!   first contact along a motion.
#![allow(clippy::needless_range_loop, clippy::collapsible_if)]

use glam::{DMat3, DQuat, DVec2, DVec3};

/// SplitMix64: tiny, seeded, reproducible.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }
    /// Uniform in `lo..=hi_incl`.
    pub fn usize(&mut self, lo: usize, hi_incl: usize) -> usize {
        lo + (self.next_u64() % (hi_incl - lo + 1) as u64) as usize
    }
    /// A uniformly random unit vector in 2D.
    pub fn unit2(&mut self) -> DVec2 {
        let a = self.range(0.0, std::f64::consts::TAU);
        DVec2::new(a.cos(), a.sin())
    }
    /// A uniformly random unit vector in 3D.
    pub fn unit3(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = v.length_squared();
            if l > 1e-4 && l <= 1.0 {
                return v / l.sqrt();
            }
        }
    }
    /// A random rotation.
    pub fn quat(&mut self) -> DQuat {
        let axis = self.unit3();
        DQuat::from_axis_angle(axis, self.range(0.0, std::f64::consts::TAU))
    }
}

/// A random convex polygon: `n` points on an ellipse (all in convex
/// position), rotated, centred at the origin.
pub fn polygon(rng: &mut Rng, n: usize) -> Vec<DVec2> {
    let (rx, ry) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let rot = rng.range(0.0, std::f64::consts::TAU);
    let (s, c) = rot.sin_cos();
    let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, std::f64::consts::TAU)).collect();
    angles.sort_by(f64::total_cmp);
    angles
        .into_iter()
        .map(|a| {
            let p = DVec2::new(rx * a.cos(), ry * a.sin());
            DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y)
        })
        .collect()
}

/// A random convex polyhedron's vertices: `n` points on an ellipsoid.
pub fn polyhedron(rng: &mut Rng, n: usize) -> Vec<DVec3> {
    let radii = DVec3::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let q = rng.quat();
    (0..n).map(|_| q * (rng.unit3() * radii)).collect()
}

/// Mean of 2D points.
pub fn centroid2(p: &[DVec2]) -> DVec2 {
    p.iter().copied().sum::<DVec2>() / p.len() as f64
}
/// Mean of 3D points.
pub fn centroid3(p: &[DVec3]) -> DVec3 {
    p.iter().copied().sum::<DVec3>() / p.len() as f64
}

/// Squared distance between segments `p0 p1` and `q0 q1`.
pub fn segment_segment_sq3(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    segment_segment3(p0, p1, q0, q1).0
}

/// Closest points between segments `p0 p1` and `q0 q1`, Ericson's clamped
/// solution (Real-Time Collision Detection 5.1.9): `(squared distance, on
/// first, on second)`.
pub fn segment_segment3(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> (f64, DVec3, DVec3) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return (r.length_squared(), p0, q0);
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    let c1 = p0 + d1 * s;
    let c2 = q0 + d2 * t;
    ((c1 - c2).length_squared(), c1, c2)
}

/// Closest point of triangle `a b c` to `p` (Ericson 5.1.5, Voronoi
/// regions); degenerate triangles are handled through their edges.
pub fn point_triangle(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> DVec3 {
    let n = (b - a).cross(c - a);
    if n.length_squared() <= 1e-24 * (b - a).length_squared().max((c - a).length_squared()).powi(2) {
        let mut best = segment_segment3(p, p, a, b);
        for (u, v) in [(b, c), (a, c)] {
            let r = segment_segment3(p, p, u, v);
            if r.0 < best.0 {
                best = r;
            }
        }
        return best.2;
    }
    let ab = b - a;
    let ac = c - a;
    let ap = p - a;
    let d1 = ab.dot(ap);
    let d2 = ac.dot(ap);
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let d3 = ab.dot(bp);
    let d4 = ac.dot(bp);
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return a + ab * v;
    }
    let cp = p - c;
    let d5 = ab.dot(cp);
    let d6 = ac.dot(cp);
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return a + ac * w;
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return b + (c - b) * w;
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    a + ab * v + ac * w
}

/// Brute-force distance between the hulls of two disjoint 2D point sets:
/// the minimum over every pair of segments (point pairs included).
pub fn brute_distance_2d(a: &[DVec2], b: &[DVec2]) -> f64 {
    brute_closest_2d(a, b).0
}

/// [`brute_distance_2d`] with the closest points `(distance, on A, on B)`.
pub fn brute_closest_2d(a: &[DVec2], b: &[DVec2]) -> (f64, DVec2, DVec2) {
    let l = |p: DVec2| p.extend(0.0);
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    for i in 0..a.len() {
        for j in i..a.len() {
            for k in 0..b.len() {
                for m in k..b.len() {
                    let r = segment_segment3(l(a[i]), l(a[j]), l(b[k]), l(b[m]));
                    if r.0 < best.0 {
                        best = r;
                    }
                }
            }
        }
    }
    (best.0.sqrt(), best.1.truncate(), best.2.truncate())
}

/// Brute-force distance between the hulls of two disjoint 3D point sets:
/// every vertex against every triangle (both ways) and every segment pair.
pub fn brute_distance_3d(a: &[DVec3], b: &[DVec3]) -> f64 {
    brute_closest_3d(a, b).0
}

/// [`brute_distance_3d`] with the closest points `(distance, on A, on B)`.
pub fn brute_closest_3d(a: &[DVec3], b: &[DVec3]) -> (f64, DVec3, DVec3) {
    let mut best = (f64::INFINITY, DVec3::ZERO, DVec3::ZERO);
    // Vertices of `other` against triangles of `pts`; `flip` when `pts` is B.
    let tri = |pts: &[DVec3], other: &[DVec3], flip: bool, best: &mut (f64, DVec3, DVec3)| {
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                for k in j + 1..pts.len() {
                    for &p in other {
                        let q = point_triangle(p, pts[i], pts[j], pts[k]);
                        let d = (p - q).length_squared();
                        if d < best.0 {
                            *best = if flip { (d, p, q) } else { (d, q, p) };
                        }
                    }
                }
            }
        }
    };
    if a.len() >= 3 {
        tri(a, b, false, &mut best);
    }
    if b.len() >= 3 {
        tri(b, a, true, &mut best);
    }
    for i in 0..a.len() {
        for j in i..a.len() {
            for k in 0..b.len() {
                for m in k..b.len() {
                    let r = segment_segment3(a[i], a[j], b[k], b[m]);
                    if r.0 < best.0 {
                        best = r;
                    }
                }
            }
        }
    }
    (best.0.sqrt(), best.1, best.2)
}

/// Support height of a point set along `n`: `max p·n`.
pub fn height3(p: &[DVec3], n: DVec3) -> f64 {
    p.iter().map(|q| q.dot(n)).fold(f64::NEG_INFINITY, f64::max)
}
/// Support height of a 2D point set along `n`: `max p·n`.
pub fn height2(p: &[DVec2], n: DVec2) -> f64 {
    p.iter().map(|q| q.dot(n)).fold(f64::NEG_INFINITY, f64::max)
}

/// Solves the normal equations `(HᵀH) t = Hᵀ o` by Gaussian elimination with
/// partial pivoting (sizes up to 3); `None` when singular.
fn least_squares(h: &[Vec<f64>], o: &[f64]) -> Option<Vec<f64>> {
    let n = h.len(); // columns
    let mut m = vec![vec![0.0; n + 1]; n];
    for i in 0..n {
        for j in 0..n {
            m[i][j] = h[i].iter().zip(&h[j]).map(|(x, y)| x * y).sum();
        }
        m[i][n] = h[i].iter().zip(o).map(|(x, y)| x * y).sum();
    }
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        for r in 0..n {
            if r != c {
                let f = m[r][c] / m[c][c];
                for k in c..=n {
                    m[r][k] -= f * m[c][k];
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

fn sub(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}
fn norm(a: &[f64]) -> f64 {
    a.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The seed's `closest-simplex-points`: closest pair of two simplices with
/// matching vertex lists, by least squares on the affine hull and recursion
/// into the leave-one-out faces when the solution is outside.
pub fn closest_simplex_points(sa: &[Vec<f64>], sb: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let obs = sub(&sa[0], &sb[0]);
    let design: Vec<Vec<f64>> = (1..sa.len()).map(|i| sub(&obs, &sub(&sa[i], &sb[i]))).collect();
    if let Some(t) = least_squares(&design, &obs) {
        if t.iter().all(|&x| x > 0.0) && t.iter().sum::<f64>() < 1.0 {
            let mut pa = sa[0].clone();
            let mut pb = sb[0].clone();
            for (i, &ti) in t.iter().enumerate() {
                for d in 0..pa.len() {
                    pa[d] += ti * (sa[i + 1][d] - sa[0][d]);
                    pb[d] += ti * (sb[i + 1][d] - sb[0][d]);
                }
            }
            return (pa, pb);
        }
    }
    if sa.len() == 1 {
        return (sa[0].clone(), sb[0].clone());
    }
    let mut best: Option<(Vec<f64>, Vec<f64>)> = None;
    for skip in 0..sa.len() {
        let la: Vec<_> = sa.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, p)| p.clone()).collect();
        let lb: Vec<_> = sb.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, p)| p.clone()).collect();
        let r = closest_simplex_points(&la, &lb);
        if best.as_ref().is_none_or(|(x, y)| norm(&sub(&r.0, &r.1)) < norm(&sub(x, y))) {
            best = Some(r);
        }
    }
    best.expect("non-empty simplex")
}

/// The seed's whole GJK (divide-and-conquer least squares), on point sets
/// given as coordinate vectors; returns the distance. Slow reference only.
pub fn reference_gjk(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let dim = a[0].len();
    let support = |pts: &[Vec<f64>], d: &[f64]| {
        pts.iter()
            .max_by(|x, y| {
                let dx: f64 = x.iter().zip(d).map(|(p, q)| p * q).sum();
                let dy: f64 = y.iter().zip(d).map(|(p, q)| p * q).sum();
                dx.total_cmp(&dy)
            })
            .unwrap()
            .clone()
    };
    let centre = |pts: &[Vec<f64>]| {
        (0..dim).map(|d| pts.iter().map(|p| p[d]).sum::<f64>() / pts.len() as f64).collect::<Vec<_>>()
    };
    let (mut sa, mut sb): (Vec<Vec<f64>>, Vec<Vec<f64>>) = (vec![], vec![]);
    let mut closest = (centre(a), centre(b));
    for _ in 0..1000 {
        let dir = sub(&closest.0, &closest.1);
        let neg: Vec<f64> = dir.iter().map(|x| -x).collect();
        let ca = support(a, &neg);
        let cb = support(b, &dir);
        let lhs = -dir.iter().map(|x| x * x).sum::<f64>() + 1e-12;
        let rhs: f64 = sub(&ca, &cb).iter().zip(&neg).map(|(x, y)| x * y).sum();
        if lhs >= rhs {
            break;
        }
        let mut na = vec![ca];
        na.extend(sa.iter().cloned());
        let mut nb = vec![cb];
        nb.extend(sb.iter().cloned());
        // Keep only the simplex vertices the closest point needs: the seed
        // returns the sub-simplex; we re-derive it by dropping a vertex while
        // the closest pair does not change.
        let r = closest_simplex_points(&na, &nb);
        let mut keep_a = na.clone();
        let mut keep_b = nb.clone();
        let mut i = 0;
        while i < keep_a.len() && keep_a.len() > 1 {
            let la: Vec<_> =
                keep_a.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, p)| p.clone()).collect();
            let lb: Vec<_> =
                keep_b.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, p)| p.clone()).collect();
            let r2 = closest_simplex_points(&la, &lb);
            if (norm(&sub(&r2.0, &r2.1)) - norm(&sub(&r.0, &r.1))).abs() <= 1e-12 * (1.0 + norm(&r.0)) {
                keep_a = la;
                keep_b = lb;
            } else {
                i += 1;
            }
        }
        sa = keep_a;
        sb = keep_b;
        if sa.len() > dim {
            return 0.0;
        }
        closest = r;
    }
    norm(&sub(&closest.0, &closest.1))
}

/// 2D points as coordinate vectors (for the reference solver).
pub fn v2(p: &[DVec2]) -> Vec<Vec<f64>> {
    p.iter().map(|q| vec![q.x, q.y]).collect()
}
/// 3D points as coordinate vectors (for the reference solver).
pub fn v3(p: &[DVec3]) -> Vec<Vec<f64>> {
    p.iter().map(|q| vec![q.x, q.y, q.z]).collect()
}

/// A random rigid motion in 3D.
pub fn rigid3(rng: &mut Rng, reach: f64) -> (DMat3, DVec3) {
    let q = rng.quat();
    (DMat3::from_quat(q), rng.unit3() * rng.range(0.0, reach))
}

/// The literal Minkowski-difference brute force: all points `aᵢ − bⱼ`, and
/// the distance from the origin to their hull as the minimum over every
/// vertex, segment and triangle of them. O((nm)³): small sets only. Valid
/// when the origin is outside the hull (disjoint shapes).
pub fn brute_minkowski_3d(a: &[DVec3], b: &[DVec3]) -> f64 {
    let w: Vec<DVec3> = a.iter().flat_map(|p| b.iter().map(move |q| *p - *q)).collect();
    let mut best = f64::INFINITY;
    for i in 0..w.len() {
        best = best.min(w[i].length_squared());
        for j in i + 1..w.len() {
            best = best.min(segment_segment_sq3(w[i], w[j], DVec3::ZERO, DVec3::ZERO));
            for k in j + 1..w.len() {
                best = best.min(point_triangle(DVec3::ZERO, w[i], w[j], w[k]).length_squared());
            }
        }
    }
    best.sqrt()
}

/// The literal brute force for the penetration depth of two overlapping
/// point sets' hulls: over every plane through three points `aᵢ − bⱼ` with
/// all of them on one side, the least distance from the origin to it
/// (negative where the origin lies outside, so the shapes are apart).
/// O((nm)⁴): small sets only (8 × 8 points: ~3 M products).
pub fn brute_depth_3d(a: &[DVec3], b: &[DVec3]) -> f64 {
    let w: Vec<DVec3> = a.iter().flat_map(|p| b.iter().map(move |q| *p - *q)).collect();
    facet_planes(&w, 1e-12).iter().map(|(_, d)| *d).fold(f64::INFINITY, f64::min)
}

/// The eight corners of a box with half extents `half`, rotation `rot` and
/// centre `centre`.
pub fn box_corners(half: DVec3, rot: DMat3, centre: DVec3) -> Vec<DVec3> {
    (0..8)
        .map(|i| {
            let s = DVec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            rot * (s * half) + centre
        })
        .collect()
}

/// Separating-axis test for two oriented boxes (Gottschalk): the 15 axes
/// (3 + 3 face normals, 9 edge cross products). Returns the smallest
/// overlap along any axis (positive: overlapping by that much; negative:
/// separated along that axis) and that axis, pointing from A to B.
pub fn box_box_sat(ha: DVec3, ra: DMat3, ca: DVec3, hb: DVec3, rb: DMat3, cb: DVec3) -> (f64, DVec3) {
    let axes_a = [ra.x_axis, ra.y_axis, ra.z_axis];
    let axes_b = [rb.x_axis, rb.y_axis, rb.z_axis];
    let mut axes: Vec<DVec3> = axes_a.iter().chain(axes_b.iter()).copied().collect();
    for a in axes_a {
        for b in axes_b {
            let c = a.cross(b);
            if c.length_squared() > 1e-18 {
                axes.push(c.normalize());
            }
        }
    }
    let t = cb - ca;
    let mut best = (f64::INFINITY, DVec3::X);
    for n in axes {
        let pa: f64 = (0..3).map(|i| (axes_a[i].dot(n) * ha[i]).abs()).sum();
        let pb: f64 = (0..3).map(|i| (axes_b[i].dot(n) * hb[i]).abs()).sum();
        let dist = t.dot(n);
        let overlap = pa + pb - dist.abs();
        if overlap < best.0 {
            best = (overlap, if dist >= 0.0 { n } else { -n });
        }
    }
    best
}

/// Fibonacci-sphere directions: `n` nearly evenly spaced unit vectors.
pub fn sphere_samples(n: usize) -> Vec<DVec3> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let a = golden * i as f64;
            DVec3::new(r * a.cos(), y, r * a.sin())
        })
        .collect()
}

/// Squared distance from `p` to the segment `a b`.
pub fn point_segment_sq(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    segment_segment_sq3(p, p, a, b)
}

/// The rotation of fcl issue #493 (tilted kissing boxes), verbatim from the
/// report (`shared/cases/README.md`, case 3).
#[allow(clippy::excessive_precision)]
pub fn fcl493_rotation() -> DMat3 {
    DMat3::from_cols_array(&[
        0.96193976625564348026,
        -0.19134171618254486313,
        -0.19509032201612822033,
        0.15401279915737359216,
        0.96936494951283913579,
        -0.19134171618254486313,
        0.22572537250328919556,
        0.15401279915737359216,
        0.96193976625564348026,
    ])
}

/// A solid of revolution about its local Y axis: a cylinder, or a cone
/// with its apex at `+h` and its base at `−h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revolved {
    /// A cylinder of half height `h` and radius `r`.
    Cylinder,
    /// A cone of half height `h` and base radius `r`, apex at `+h`.
    Cone,
}

/// The lowest point (least `y`) of a cylinder or cone of half height `h`
/// and radius `r` posed by rotation `q` and translation `t`: the lowest
/// of its apex (cone) or of the rim points lowest along `−Y` across the
/// axis `a = q·Y`. That rim point lies along the unit of `−Y`'s part across
/// the axis, `(a.x a.y, −s², a.z a.y) / s` with `s = √(a.x² + a.z²)`
/// computed directly (not as `√(1 − a.y²)`, which cancels for nearly
/// upright axes). An upright shape's whole cap is lowest: its centre
/// plus any rim direction would do; the cap's centre is returned.
pub fn revolved_lowest(kind: Revolved, h: f64, r: f64, q: DQuat, t: DVec3) -> DVec3 {
    let a = q * DVec3::Y;
    let s = (a.x * a.x + a.z * a.z).sqrt();
    let u = if s > 0.0 { DVec3::new(a.x * a.y, -s * s, a.z * a.y) / s } else { DVec3::ZERO };
    let local = match kind {
        Revolved::Cylinder => {
            let base = if a.y >= 0.0 { -a * h } else { a * h };
            base + u * r
        }
        Revolved::Cone => {
            let (apex, rim) = (a * h, -a * h + u * r);
            if apex.y <= rim.y { apex } else { rim }
        }
    };
    t + local
}

/// The distance from `p` to a cylinder or cone ([`Revolved`]) of half
/// height `h` and radius `r` in its own frame (0 inside): the distance in
/// the plane of the axis and `p` from `(ρ, y)`, `ρ = √(x² + z²)`, to the
/// half section (a rectangle, or the triangle of the axis, the apex and
/// the base's rim), which holds the nearest point of the solid.
pub fn revolved_distance(kind: Revolved, h: f64, r: f64, p: DVec3) -> f64 {
    let q = DVec2::new(p.x.hypot(p.z), p.y);
    let section: &[DVec2] = match kind {
        Revolved::Cylinder => &[DVec2::new(0.0, -h), DVec2::new(r, -h), DVec2::new(r, h), DVec2::new(0.0, h)],
        Revolved::Cone => &[DVec2::new(0.0, -h), DVec2::new(r, -h), DVec2::new(0.0, h)],
    };
    // Counter-clockwise: inside where every edge has `q` on its left.
    let n = section.len();
    let inside = (0..n).all(|i| (section[(i + 1) % n] - section[i]).perp_dot(q - section[i]) >= 0.0);
    if inside {
        return 0.0;
    }
    (0..n)
        .map(|i| point_segment_sq2(q, section[i], section[(i + 1) % n]).sqrt())
        .fold(f64::INFINITY, f64::min)
}

/// The support function of a cylinder or cone ([`Revolved`]) of half
/// height `h` and radius `r` in its own frame: the largest `p · n` over
/// the solid, reached on a cap's rim (cylinder: `r·|n⊥| + h·|n_y|`, `n⊥`
/// the part of `n` across the axis) or at the apex or the base's rim
/// (cone: `max(h·n_y, r·|n⊥| − h·n_y)`).
pub fn revolved_height(kind: Revolved, h: f64, r: f64, n: DVec3) -> f64 {
    let across = n.x.hypot(n.z);
    match kind {
        Revolved::Cylinder => r * across + h * n.y.abs(),
        Revolved::Cone => (h * n.y).max(r * across - h * n.y),
    }
}

/// Whether `p` lies in the cylinder or cone ([`Revolved`]) of half height
/// `h` and radius `r`, in its own frame.
pub fn revolved_contains(kind: Revolved, h: f64, r: f64, p: DVec3) -> bool {
    revolved_distance(kind, h, r, p) == 0.0
}

/// Squared distance from `p` to the segment `a b` in the plane.
fn point_segment_sq2(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let e = b - a;
    let t =
        if e.length_squared() > 0.0 { ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (a + e * t - p).length_squared()
}

/// The facet planes `(n, d)` of a point set's hull (outward unit normal,
/// `n·x ≤ d` inside), by brute force over every three points: a plane with
/// every point on one side (within 1e-10 of the set's size) is a facet's.
/// Coplanar facets' triangles give one plane. O(n⁴): small sets only.
pub fn hull_planes(v: &[DVec3]) -> Vec<(DVec3, f64)> {
    facet_planes(v, 1e-10)
}

/// [`hull_planes`] with points within `slack` of the set's size counted on
/// a plane.
fn facet_planes(v: &[DVec3], slack: f64) -> Vec<(DVec3, f64)> {
    let scale = v.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()));
    let mut out: Vec<(DVec3, f64)> = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            for k in j + 1..v.len() {
                let n = (v[j] - v[i]).cross(v[k] - v[i]);
                let len = n.length();
                if len <= 1e-12 * scale * scale {
                    continue;
                }
                let n = n / len;
                let d = n.dot(v[i]);
                // All points on one side (rounding allowed): a facet's
                // plane, oriented outwards.
                let slack = slack * scale;
                let (above, below) = v.iter().fold((false, false), |(u, l), p| {
                    let h = n.dot(*p) - d;
                    (u || h > slack, l || h < -slack)
                });
                let plane = match (above, below) {
                    (false, _) => (n, d),
                    (true, false) => (-n, -d),
                    _ => continue,
                };
                if !out.iter().any(|q| (q.0 - plane.0).length() < 1e-9) {
                    out.push(plane);
                }
            }
        }
    }
    out
}

/// The edge lines `(n, d)` of a 2D point set's hull (outward unit normal,
/// `n·x ≤ d` inside), by brute force over every two points: a line with
/// every point on one side (within 1e-10 of the set's size) is an edge's.
/// O(n³): small sets only.
pub fn hull_lines(v: &[DVec2]) -> Vec<(DVec2, f64)> {
    let scale = v.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()));
    let mut out: Vec<(DVec2, f64)> = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            let Some(n) = (v[j] - v[i]).perp().try_normalize() else { continue };
            let d = n.dot(v[i]);
            let slack = 1e-10 * scale;
            let (above, below) = v.iter().fold((false, false), |(u, l), p| {
                let h = n.dot(*p) - d;
                (u || h > slack, l || h < -slack)
            });
            let line = match (above, below) {
                (false, _) => (n, d),
                (true, false) => (-n, -d),
                _ => continue,
            };
            if !out.iter().any(|q| (q.0 - line.0).length() < 1e-9) {
                out.push(line);
            }
        }
    }
    out
}

/// First `t` in `[0, t_max]` where `f` drops to zero: a scan of `samples`
/// steps for the first sign change, then bisection; `None` when `f` stays
/// positive at every sample.
pub fn first_root(f: &dyn Fn(f64) -> f64, t_max: f64, samples: usize) -> Option<f64> {
    if f(0.0) <= 0.0 {
        return Some(0.0);
    }
    let mut prev = 0.0;
    for k in 1..=samples {
        let t = t_max * k as f64 / samples as f64;
        if f(t) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..100 {
                let m = 0.5 * (lo + hi);
                if f(m) > 0.0 { lo = m } else { hi = m }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

/// Whether the hulls of two point sets are disjoint, by the separating
/// axis theorem over a superset of its axes: the normals of every three
/// points of either set, and the cross products of every two points'
/// segment of A with every two points' of B (a hull's faces and edges
/// are among them, so an overlap is never called disjoint, and any axis
/// found separates).
pub fn sat_disjoint_3d(a: &[DVec3], b: &[DVec3]) -> bool {
    let apart = |axis: DVec3| {
        if axis.length_squared() < 1e-20 {
            return false;
        }
        let (mut lo_a, mut hi_a, mut lo_b, mut hi_b) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for p in a {
            lo_a = lo_a.min(p.dot(axis));
            hi_a = hi_a.max(p.dot(axis));
        }
        for p in b {
            lo_b = lo_b.min(p.dot(axis));
            hi_b = hi_b.max(p.dot(axis));
        }
        hi_a < lo_b || hi_b < lo_a
    };
    for set in [a, b] {
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                for k in j + 1..set.len() {
                    if apart((set[j] - set[i]).cross(set[k] - set[i])) {
                        return true;
                    }
                }
            }
        }
    }
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            for k in 0..b.len() {
                for l in k + 1..b.len() {
                    if apart((a[j] - a[i]).cross(b[l] - b[k])) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether two 2D point sets' hulls are disjoint: separating axes over
/// the normals of every two points' segment of either set (a superset of
/// the edges' normals).
pub fn sat_disjoint_2d(a: &[DVec2], b: &[DVec2]) -> bool {
    for set in [a, b] {
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                let axis = (set[j] - set[i]).perp();
                let span = |s: &[DVec2]| {
                    s.iter()
                        .fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.dot(axis)), hi.max(p.dot(axis))))
                };
                let ((lo_a, hi_a), (lo_b, hi_b)) = (span(a), span(b));
                if axis.length_squared() > 1e-20 && (hi_a < lo_b || hi_b < lo_a) {
                    return true;
                }
            }
        }
    }
    false
}

/// The distance between two 3D point sets' hulls, or −1 where they
/// overlap: the brute-force closest points, proven apart by their own
/// direction where it separates the sets (it always does for disjoint
/// hulls), else decided by [`sat_disjoint_3d`].
pub fn signed_gap_3d(a: &[DVec3], b: &[DVec3]) -> f64 {
    let (d, pa, pb) = brute_closest_3d(a, b);
    let axis = pb - pa;
    let hi_a = a.iter().map(|p| p.dot(axis)).fold(f64::MIN, f64::max);
    let lo_b = b.iter().map(|p| p.dot(axis)).fold(f64::MAX, f64::min);
    if (d > 0.0 && hi_a < lo_b) || sat_disjoint_3d(a, b) { d } else { -1.0 }
}

/// [`signed_gap_3d`] in 2D, with [`sat_disjoint_2d`].
pub fn signed_gap_2d(a: &[DVec2], b: &[DVec2]) -> f64 {
    let (d, pa, pb) = brute_closest_2d(a, b);
    let axis = pb - pa;
    let hi_a = a.iter().map(|p| p.dot(axis)).fold(f64::MIN, f64::max);
    let lo_b = b.iter().map(|p| p.dot(axis)).fold(f64::MAX, f64::min);
    if (d > 0.0 && hi_a < lo_b) || sat_disjoint_2d(a, b) { d } else { -1.0 }
}
