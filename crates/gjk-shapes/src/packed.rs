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
        // The dot products of one block, in glam's order (x, then + y, then + z)
        // so that values and ties match `Vector::dot` exactly. A function
        // forced inline, not a closure: left to the inliner, the closure
        // was called out of line once the support grew (+20 % instructions
        // on 8-vertex hulls).
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
        // branch; see docs/benchmarks.md for the measurements.)
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
        let mut max = best[0];
        for &b in &best[1..] {
            max = if b > max { b } else { max };
        }
        // The smallest index among the lanes holding the maximum is the
        // first maximum overall. A NaN maximum matches no lane: 0.
        let mut first = u32::MAX;
        for lane in 0..LANES {
            first = if (best[lane] == max) & (at[lane] < first) { at[lane] } else { first };
        }
        if first == u32::MAX { 0 } else { (first as usize).min(self.len - 1) }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primitives::argmax;
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
