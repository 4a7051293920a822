//! The stepped support search (`SupportMap::support_search` and
//! `climb_step`) for a caller's own climbing shape: `minkowski_support`
//! steps the two shapes' climbs in turn, reaches each shape's scan height,
//! the queries give the scan's answers, and a climb that never finishes
//! ends at its step budget.

use gjk_core::glam::DVec2;
use gjk_core::internal::{Climb, Search, minkowski_support, minkowski_support_from};
use gjk_core::{NO_INDEX, SupportMap, distance};
use gjk_testkit::*;
use std::cell::RefCell;

/// A convex polygon (vertices in cyclic order) that climbs over its cycle
/// of vertices, from vertex 0 or the hint, logging each step's `id`.
struct Ring<'a> {
    pts: Vec<DVec2>,
    id: u8,
    log: &'a RefCell<Vec<u8>>,
}

impl SupportMap<DVec2> for Ring<'_> {
    fn support(&self, dir: DVec2) -> DVec2 {
        self.pts.as_slice().support(dir)
    }
    fn vertex(&self, index: u32) -> Option<DVec2> {
        self.pts.get(index as usize).copied()
    }
    fn support_search(&self, dir: DVec2, hint: u32) -> Search<DVec2> {
        let at = if (hint as usize) < self.pts.len() { hint } else { 0 };
        let best = self.pts[at as usize].dot(dir);
        Search::Climbing(Climb { dir, at, best, steps: self.pts.len() as u32 })
    }
    fn climb_step(&self, c: &mut Climb<DVec2>) -> bool {
        self.log.borrow_mut().push(self.id);
        let n = self.pts.len();
        let from = c.at as usize;
        for j in [(from + 1) % n, (from + n - 1) % n] {
            let x = self.pts[j].dot(c.dir);
            if x > c.best {
                c.best = x;
                c.at = j as u32;
            }
        }
        c.at as usize == from
    }
}

#[test]
fn caller_climbs_step_in_turn_and_reach_the_scan() {
    let mut rng = Rng::new(120);
    let log = RefCell::new(Vec::new());
    let mut alternating = 0;
    for _ in 0..300 {
        let (na, nb) = (rng.usize(3, 60), rng.usize(3, 60));
        let pa = polygon(&mut rng, na);
        let shift = rng.unit2() * 3.0;
        let pb: Vec<DVec2> = polygon(&mut rng, nb).iter().map(|p| *p + shift).collect();
        let a = Ring { pts: pa.clone(), id: 0, log: &log };
        let b = Ring { pts: pb.clone(), id: 1, log: &log };
        for _ in 0..10 {
            let d = rng.unit2() * rng.range(0.1, 10.0);
            let hint = (rng.usize(0, na - 1) as u32, NO_INDEX);
            for p in [minkowski_support(&a, &b, d), minkowski_support_from(&a, &b, d, hint)] {
                assert_eq!(p.a, pa[p.index_a as usize]);
                assert_eq!(p.b, pb[p.index_b as usize]);
                assert_eq!(p.a.dot(d), height2(&pa, d), "A along {d}");
                assert_eq!(p.b.dot(-d), height2(&pb, -d), "B along {}", -d);
            }
            // The log: A, B, A, B, … for as long as both take steps.
            let steps = std::mem::take(&mut *log.borrow_mut());
            let pairs = steps.len() / 2;
            if steps.chunks(2).take(pairs).all(|s| s == [0, 1]) {
                alternating += 1;
            }
        }
        // The queries on the climbing shapes give the slices' answers.
        let (r, s) = (distance(&a, &b), distance(pa.as_slice(), pb.as_slice()));
        assert_eq!(r.status, s.status);
        assert!((r.distance - s.distance).abs() <= 1e-9 * (1.0 + s.distance));
        assert!((r.distance - brute_distance_2d(&pa, &pb)).abs() <= 1e-9);
        log.borrow_mut().clear();
    }
    assert_eq!(alternating, 3000, "every call stepped the climbs in turn");
}

/// A shape whose climb never says it is finished (a broken graph): the
/// Minkowski support still ends, after the climb's step budget, at the
/// vertex the climb stands at.
#[test]
fn a_climb_that_never_finishes_ends_at_its_budget() {
    struct Stuck<'a>(&'a RefCell<u32>);
    impl SupportMap<DVec2> for Stuck<'_> {
        fn support(&self, _: DVec2) -> DVec2 {
            DVec2::ZERO
        }
        fn vertex(&self, index: u32) -> Option<DVec2> {
            (index == 7).then_some(DVec2::new(1.0, 2.0))
        }
        fn support_search(&self, dir: DVec2, _: u32) -> Search<DVec2> {
            Search::Climbing(Climb { dir, at: 7, best: 0.0, steps: 25 })
        }
        fn climb_step(&self, _: &mut Climb<DVec2>) -> bool {
            *self.0.borrow_mut() += 1;
            false
        }
    }
    let count = RefCell::new(0);
    let tri = [DVec2::ZERO, DVec2::X, DVec2::Y];
    let p = minkowski_support(&Stuck(&count), &tri, DVec2::X);
    assert_eq!(*count.borrow(), 25);
    assert_eq!((p.a, p.index_a), (DVec2::new(1.0, 2.0), 7));
    // Both climbing: the longer budget bounds the loop.
    *count.borrow_mut() = 0;
    let p = minkowski_support(&Stuck(&count), &Stuck(&count), DVec2::X);
    assert_eq!(*count.borrow(), 50);
    assert_eq!(p.w, DVec2::ZERO);
    // A climb that ends off the shape's vertices gives a NaN point: the
    // query reports invalid input instead of a wrong answer.
    struct Lost;
    impl SupportMap<DVec2> for Lost {
        fn support(&self, _: DVec2) -> DVec2 {
            DVec2::ZERO
        }
        fn support_search(&self, dir: DVec2, _: u32) -> Search<DVec2> {
            Search::Climbing(Climb { dir, at: 3, best: 0.0, steps: 4 })
        }
    }
    assert!(minkowski_support(&Lost, &tri, DVec2::X).w.is_nan());
    assert_eq!(distance(&Lost, &tri).status, gjk_core::Status::InvalidInput);
}
