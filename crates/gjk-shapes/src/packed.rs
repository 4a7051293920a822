//! Vertex lists in structure-of-arrays blocks, for a linear-scan support
//! that the compiler vectorises.
//!
//! A linear scan over `[Vec3]` does one dot product and one unpredictable
//! branch per vertex. Here the vertices sit in blocks of [`LANES`]: the
//! x coordinates of four vertices, then their y, then (3D) their z. Each
//! block is four dot products in parallel and a lane-wise select, with no
//! branch; one reduction over the lanes ends the scan.

use gjk_core::Real;

use crate::space::Space;

/// Vertices per block (one SSE register of f32).
pub const LANES: usize = 4;

/// Points stored in blocks of [`LANES`] by coordinate. The last block is
/// padded with copies of the last point, whose indices are past the end and
/// never win a tie against the point they copy.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PackedPoints<S> {
    /// Block `b` holds `V::DIM` rows: `data[b * DIM + k][lane]` is
    /// coordinate `k` of point `b * LANES + lane`.
    data: Vec<[S; LANES]>,
    len: usize,
}

impl<S: Real> PackedPoints<S> {
    /// Packs `points` (none is allowed: the scan then returns 0).
    pub(crate) fn new<V: Space<Scalar = S>>(points: &[V]) -> Self {
        let blocks = points.len().div_ceil(LANES);
        let mut data = vec![[S::ZERO; LANES]; blocks * V::DIM];
        for (r, row) in data.iter_mut().enumerate() {
            let (b, k) = (r / V::DIM, r % V::DIM);
            for (lane, x) in row.iter_mut().enumerate() {
                *x = points[(b * LANES + lane).min(points.len() - 1)].component(k);
            }
        }
        Self { data, len: points.len() }
    }

    /// Index of the point furthest along `dir`, first on ties: the same
    /// answer as a sequential scan with `>`. Branch-free within a block: a
    /// single block (up to four points) takes one select chain over its
    /// lanes; more blocks take one pass that carries each lane's best value
    /// and index, then the smallest index among the lanes holding the
    /// maximum. A NaN direction gives 0.
    #[inline(always)]
    pub(crate) fn argmax<V: Space<Scalar = S>>(&self, dir: V) -> usize {
        let dim = V::DIM;
        let d: [S; 3] =
            [dir.component(0), dir.component(1), if dim == 3 { dir.component(2) } else { S::ZERO }];
        self.argmax_of(d, dim)
    }

    /// [`Self::argmax`] of a direction given by its coordinates (`d[2]`
    /// unused in 2D): the 2D callers that hold coordinates skip building a
    /// vector from them.
    #[inline(always)]
    pub(crate) fn argmax_of(&self, d: [S; 3], dim: usize) -> usize {
        // The dot products of one block, in glam's order (x, then + y, then + z)
        // so that values and ties match `Vector::dot` exactly. A function
        // forced inline, not a closure, which the inliner left out of line
        // (the 8-vertex rows of `gjk-bench compare`).
        #[inline(always)]
        fn dots<S: Real>(rows: &[[S; LANES]], d: &[S; 3], dim: usize) -> [S; LANES] {
            let mut out = [S::ZERO; LANES];
            for lane in 0..LANES {
                let mut s = rows[0][lane] * d[0] + rows[1][lane] * d[1];
                if dim == 3 {
                    s += rows[2][lane] * d[2];
                }
                out[lane] = s;
            }
            out
        }
        let dots = |rows: &[[S; LANES]]| dots(rows, &d, dim);
        let Some(first) = self.data.get(..dim) else { return 0 };
        let mut best = dots(first);
        if self.data.len() == dim {
            // One block (up to four points): a select chain over its lanes
            // (`>`: the first maximum; a NaN never wins, so 0).
            let (mut i, mut m) = (0, best[0]);
            for (lane, &x) in best.iter().enumerate().skip(1) {
                (i, m) = if x > m { (lane, x) } else { (i, m) };
            }
            return i.min(self.len - 1);
        }
        // Several blocks: one pass that carries each lane's index. (A
        // second pass that finds the maximum again ends on a data-dependent
        // branch; see docs/decisions.md for the measurements.)
        let mut at: [u32; LANES] = core::array::from_fn(|lane| lane as u32);
        let mut key = at;
        // Bounded by the block count.
        for rows in self.data.chunks_exact(dim).skip(1) {
            for k in &mut key {
                *k += LANES as u32;
            }
            let v = dots(rows);
            for lane in 0..LANES {
                // `>` keeps the earlier block on ties.
                let up = v[lane] > best[lane];
                best[lane] = if up { v[lane] } else { best[lane] };
                at[lane] = if up { key[lane] } else { at[lane] };
            }
        }
        // 2D scans take the cheaper reduction for a single maximal lane;
        // in 3D it vectorised the block loop above worse, so 3D keeps the
        // tree (the 32–64-vertex rows; docs/decisions.md).
        let first = if dim == 2 { first_max(&best, &at) } else { lane_max(&best, &at).1 };
        first.min(self.len - 1)
    }
}

/// [`lane_max`]'s index alone, cheaper in the common case of a single lane
/// holding the maximum: that lane's index is the OR of every lane's index
/// masked by "equals the maximum" (lane-wise, with no branch on which
/// lane); the tree runs only for ties across lanes or a NaN maximum.
#[inline(always)]
fn first_max<S: Real>(best: &[S; LANES], at: &[u32; LANES]) -> usize {
    // The maximum spread to every lane in two lane-wise steps (pairs
    // swapped, then halves), written as whole-array operations so that
    // they stay in one register.
    let hi = |x: S, y: S| if y > x { y } else { x };
    let m = best;
    let m = [hi(m[0], m[1]), hi(m[1], m[0]), hi(m[2], m[3]), hi(m[3], m[2])];
    let m = [hi(m[0], m[2]), hi(m[1], m[3]), hi(m[2], m[0]), hi(m[3], m[1])];
    let (mut count, mut index) = (0u32, 0u32);
    for lane in 0..LANES {
        let hit = u32::from(best[lane] == m[lane]);
        count += hit;
        index |= at[lane] & hit.wrapping_neg();
    }
    // Exit: one lane holds the maximum (a well-predicted branch: ties
    // across lanes need equal products of different vertices).
    if count == 1 { index as usize } else { lane_max(best, at).1 }
}

/// The largest of the lanes' best values and the smallest index among the
/// lanes holding it: the first maximum overall when each lane carries its
/// first maximum. A NaN maximum matches no lane: index 0.
#[inline(always)]
fn lane_max<S: Real>(best: &[S; LANES], at: &[u32; LANES]) -> (S, usize) {
    // Two levels of pairwise selects (a tree, not a chain), written as
    // whole-array steps (pairs swapped, then halves) so that they stay in
    // vector registers: the maximum ends up in every lane, then the
    // smallest index among the lanes equal to it (the same tree on
    // scalars cost far more: docs/decisions.md).
    const _: () = assert!(LANES == 4, "the tree below names four lanes");
    let hi = |x: S, y: S| if y > x { y } else { x };
    let lo = |x: u32, y: u32| if y < x { y } else { x };
    let m = best;
    let m = [hi(m[0], m[1]), hi(m[1], m[0]), hi(m[2], m[3]), hi(m[3], m[2])];
    let m = [hi(m[0], m[2]), hi(m[1], m[3]), hi(m[2], m[0]), hi(m[3], m[1])];
    let k: [u32; LANES] = core::array::from_fn(|l| if best[l] == m[l] { at[l] } else { u32::MAX });
    let k = [lo(k[0], k[1]), lo(k[1], k[0]), lo(k[2], k[3]), lo(k[3], k[2])];
    let first = lo(k[0], k[2]);
    (m[0], if first == u32::MAX { 0 } else { first as usize })
}

impl<S: Real> PackedPoints<S> {
    /// The smallest `x·dx + y·dy` over 2D points (the first two rows of
    /// each block): lane-wise minima, then one across the lanes; no
    /// branch per point. `+∞` for no points.
    #[inline(always)]
    pub(crate) fn min_dot2(&self, dx: S, dy: S) -> S {
        let mut low = [S::INFINITY; LANES];
        // Bounded by the block count.
        for rows in self.data.chunks_exact(2) {
            for lane in 0..LANES {
                let h = rows[0][lane] * dx + rows[1][lane] * dy;
                low[lane] = if h < low[lane] { h } else { low[lane] };
            }
        }
        let mut min = low[0];
        for &h in &low[1..] {
            min = if h < min { h } else { min };
        }
        min
    }
}

impl<S: Real> PackedPoints<S> {
    /// The separating-axis kernel of two 2D polygons F and G: over the
    /// edges `i` of F (outward normal `n_i` in `normals`, first vertex `p_i`
    /// in `self`, both in F's frame), the largest separation
    /// `min_q (M n_i)·q + n_i·(t − p_i)` with `q` over `other` (G's vertices
    /// in G's frame), `M` (row-major, `rot`) the rotation from F's frame to
    /// G's and `t` G's origin in F's frame. Returns that separation and its
    /// edge (the first on ties). Stops at the first block of four edges
    /// whose best exceeds `stop`, returning that edge: a separating axis
    /// is all a boolean test needs.
    ///
    /// Four edges at a time, one per lane: each of G's vertices is one
    /// multiply–add and one minimum per lane, with no branch per vertex
    /// (an edge at a time spent most of its work turning and reducing
    /// lanes; see docs/decisions.md). Padding lanes repeat the last edge
    /// and the last vertex, so they change nothing. The caller keeps the
    /// inputs small enough that no product overflows (NaN never wins).
    #[inline(always)]
    pub(crate) fn max_face_separation(
        &self,
        normals: &PackedPoints<S>,
        other: &PackedPoints<S>,
        rot: [S; 4],
        t: [S; 2],
        stop: S,
    ) -> (S, usize) {
        let mut best = [-S::INFINITY; LANES];
        let mut at = [0u32; LANES];
        // Bounded by F's block count (edges and vertices pair up block by block).
        for (b, (nb, pb)) in normals.data.chunks_exact(2).zip(self.data.chunks_exact(2)).enumerate() {
            let (nx, ny, px, py) = (nb[0], nb[1], pb[0], pb[1]);
            let mut dx = [S::ZERO; LANES];
            let mut dy = [S::ZERO; LANES];
            let mut sep = [S::INFINITY; LANES];
            for l in 0..LANES {
                dx[l] = rot[0] * nx[l] + rot[1] * ny[l];
                dy[l] = rot[2] * nx[l] + rot[3] * ny[l];
            }
            // Bounded by G's block count.
            for q in other.data.chunks_exact(2) {
                for (&qx, &qy) in q[0].iter().zip(&q[1]) {
                    for l in 0..LANES {
                        let h = dx[l] * qx + dy[l] * qy;
                        sep[l] = if h < sep[l] { h } else { sep[l] };
                    }
                }
            }
            let mut top = -S::INFINITY;
            for l in 0..LANES {
                sep[l] += nx[l] * (t[0] - px[l]) + ny[l] * (t[1] - py[l]);
                let up = sep[l] > best[l];
                best[l] = if up { sep[l] } else { best[l] };
                at[l] = if up { (b * LANES + l) as u32 } else { at[l] };
                top = if sep[l] > top { sep[l] } else { top };
            }
            // Exit: a separating axis beyond `stop` (rarely taken on the
            // pairs that reach this test past the balls, so predictable).
            if top > stop {
                break;
            }
        }
        let (max, first) = lane_max(&best, &at);
        (max, first.min(self.len.saturating_sub(1)))
    }
}

impl<S: Real> PackedPoints<S> {
    /// The largest signed distance of the point `(x, y)` from the edge
    /// lines of a 2D polygon F (outward normals `normals`, first vertices
    /// `self`, all in F's frame): `(separation, edge)`, the first edge on
    /// ties. At most 0 exactly when the point is in F (up to rounding).
    /// One multiply–add pair and one select per edge, four edges a block,
    /// no branch; padding lanes repeat the last edge, so they change
    /// nothing. The caller keeps the inputs finite and small enough that
    /// no product overflows.
    #[inline(always)]
    pub(crate) fn max_point_separation(&self, normals: &PackedPoints<S>, x: S, y: S) -> (S, usize) {
        let mut best = [-S::INFINITY; LANES];
        // Each lane's edge index as a scalar of the same type, stepped a
        // block at a time, so that its select is the same vector select as
        // the values' (as `u32`s the compiler picked the lanes' indices one
        // by one). Exact below 2²⁴.
        let step = S::from_f64(LANES as f64);
        let mut key: [S; LANES] = core::array::from_fn(|lane| S::from_f64(lane as f64));
        let mut at = key;
        // Bounded by F's block count.
        for (nb, pb) in normals.data.chunks_exact(2).zip(self.data.chunks_exact(2)) {
            for l in 0..LANES {
                let s = nb[0][l] * (x - pb[0][l]) + nb[1][l] * (y - pb[1][l]);
                let up = s > best[l];
                best[l] = if up { s } else { best[l] };
                at[l] = if up { key[l] } else { at[l] };
            }
            for k in &mut key {
                *k += step;
            }
        }
        let at = at.map(|k| k.to_f64() as u32);
        let (max, first) = lane_max(&best, &at);
        (max, first.min(self.len.saturating_sub(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::argmax;
    use gjk_core::glam::{DVec2, Vec3};

    #[test]
    fn matches_the_sequential_scan_including_ties() {
        // A small LCG keeps the test free of dependencies.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 33) as f64 / (1u64 << 31) as f64) * 2.0 - 1.0
        };
        // One block and up to eighteen.
        for n in 1..72 {
            for _ in 0..50 {
                // Coarse grid values make ties frequent.
                let pts: Vec<Vec3> =
                    (0..n).map(|_| Vec3::new((rnd() * 2.0).round() as f32, rnd() as f32, 0.0)).collect();
                let packed = PackedPoints::new(&pts);
                for d in [Vec3::X, -Vec3::X, Vec3::new(rnd() as f32, rnd() as f32, rnd() as f32)] {
                    assert_eq!(packed.argmax(d), argmax(&pts, d), "n = {n}, d = {d}");
                }
                let p2: Vec<DVec2> = (0..n).map(|_| DVec2::new(rnd().round(), rnd())).collect();
                let packed2 = PackedPoints::new(&p2);
                for d in [DVec2::X, DVec2::new(rnd(), rnd())] {
                    assert_eq!(packed2.argmax(d), argmax(&p2, d), "n = {n}, d = {d}");
                    // The same products as the sequential minimum, so equal.
                    let low = p2.iter().map(|p| p.x * d.x + p.y * d.y).fold(f64::INFINITY, f64::min);
                    assert_eq!(packed2.min_dot2(d.x, d.y), low, "n = {n}, d = {d}");
                }
            }
        }
        // A NaN direction gives 0, with one block (up to four points) or more.
        for n in [1, 3, 4, 5, 7, 12, 33, 64] {
            let pts: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32, 1.0, -(i as f32))).collect();
            assert_eq!(PackedPoints::new(&pts).argmax(Vec3::splat(f32::NAN)), 0, "n = {n}");
        }
    }
}
