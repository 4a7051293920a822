//! GJK's steps alone, ours and parry's: every query of a 3D set is run
//! once with its support calls recorded, then replayed with "shapes" that
//! hand back the recorded points in order (no search at all), beside the
//! real queries on the same pairs. Ours runs `gjk_core::distance_value_with`
//! (the search the `distance` rows time), parry its
//! `distance_support_map_support_map`. A replay costs a query's steps
//! (directions, sub-distance solves, bookkeeping) and nothing of its
//! supports, so parry's real time over our replayed time bounds the
//! `distance` row's ratio that any support function could reach, with our
//! steps as they are (medians of 11 passes, ns per query: the real
//! queries raced against each other, then the replays, as the compare
//! binary races its rows).
//! `cargo run --release -p gjk-bench --example replayed_supports -- [VERTICES] [SET]`
//! (SET: distant, touching, overlap or shallow; 256 touching by default).
use gjk_bench::*;
use gjk_core::glam::Vec3;
use gjk_core::{GjkConfig, NO_INDEX, SupportMap};
use gjk_shapes::{Placed, Pose};
use std::cell::{Cell, RefCell};
use std::hint::black_box;

/// Timed passes (the median is reported).
const PASSES: usize = 11;

/// One of our hulls with its support answers logged.
struct Logged<'a, S> {
    shape: &'a S,
    log: RefCell<Vec<(Vec3, u32)>>,
}

impl<S: SupportMap<Vec3>> SupportMap<Vec3> for Logged<'_, S> {
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_indexed(dir).0
    }
    fn support_indexed(&self, dir: Vec3) -> (Vec3, u32) {
        let r = self.shape.support_indexed(dir);
        self.log.borrow_mut().push(r);
        r
    }
    fn support_from(&self, dir: Vec3, hint: u32) -> (Vec3, u32) {
        let r = self.shape.support_from(dir, hint);
        self.log.borrow_mut().push(r);
        r
    }
    fn center(&self) -> Option<Vec3> {
        self.shape.center()
    }
}

/// Recorded answers handed back in order, whatever the direction.
struct Replay<'a> {
    log: &'a [(Vec3, u32)],
    next: Cell<usize>,
    center: Option<Vec3>,
}

impl Replay<'_> {
    #[inline(always)]
    fn take(&self) -> (Vec3, u32) {
        let i = self.next.get();
        self.next.set(i + 1);
        // Past the log (a replay that strayed): a point the check below
        // catches as a different answer.
        self.log.get(i).copied().unwrap_or((Vec3::ZERO, NO_INDEX))
    }
}

impl SupportMap<Vec3> for Replay<'_> {
    fn support(&self, _: Vec3) -> Vec3 {
        self.take().0
    }
    fn support_indexed(&self, _: Vec3) -> (Vec3, u32) {
        self.take()
    }
    fn support_from(&self, _: Vec3, _: u32) -> (Vec3, u32) {
        self.take()
    }
    fn center(&self) -> Option<Vec3> {
        self.center
    }
}

/// Parry's polyhedron with its local support answers logged.
struct PeerLogged<'a> {
    shape: &'a parry3d::shape::ConvexPolyhedron,
    log: RefCell<Vec<Vec3>>,
}

impl parry3d::shape::SupportMap for PeerLogged<'_> {
    fn local_support_point(&self, dir: Vec3) -> Vec3 {
        let p = parry3d::shape::SupportMap::local_support_point(self.shape, dir);
        self.log.borrow_mut().push(p);
        p
    }
}

/// Parry's recorded local answers handed back in order.
struct PeerReplay<'a> {
    log: &'a [Vec3],
    next: Cell<usize>,
}

impl parry3d::shape::SupportMap for PeerReplay<'_> {
    fn local_support_point(&self, _: Vec3) -> Vec3 {
        let i = self.next.get();
        self.next.set(i + 1);
        self.log.get(i).copied().unwrap_or(Vec3::ZERO)
    }
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(256);
    let Some(i) = [8usize, 16, 32, 64, 256, 1024].iter().position(|&m| m == n) else {
        eprintln!("vertices: one of 8, 16, 32, 64, 256, 1024");
        return;
    };
    let name = std::env::args().nth(2).unwrap_or_else(|| "touching".into());
    let Some(k) = KINDS.iter().chain(&EXTRA_KINDS).position(|kind| kind.name() == name) else {
        eprintln!("set: distant, touching, overlap or shallow");
        return;
    };
    let kind = KINDS.iter().chain(&EXTRA_KINDS).nth(k).copied().unwrap_or(Kind::Touching);
    let set = make_set3(set_seed(2000, i, k), n, kind, &Plan::FULL);
    let cfg = GjkConfig::default();
    let placed = |b: usize, pose: &Pose<Vec3>| Placed::new(&set.ours[b], pose);
    let pposes: Vec<parry3d::math::Pose> =
        set.pairs.iter().map(|p| parry3d::math::Pose::from_parts(p.2.translation, p.2.rotation)).collect();

    // Record: ours (A as it is, B placed in A's frame) and parry's.
    let mut ours_logs = Vec::new();
    let mut peer_logs = Vec::new();
    let (mut calls, mut peer_calls) = (0usize, 0usize);
    for (k, (a, b, pose)) in set.pairs.iter().enumerate() {
        let pb = placed(*b, pose);
        let (la, lb) = (
            Logged { shape: &set.ours[*a], log: RefCell::new(Vec::new()) },
            Logged { shape: &pb, log: RefCell::new(Vec::new()) },
        );
        let real = gjk_core::distance_value_with(&la, &lb, &cfg);
        let (la, lb) = (la.log.into_inner(), lb.log.into_inner());
        calls += la.len();
        let centers = (set.ours[*a].center(), pb.center());
        let replayed = gjk_core::distance_value_with(
            &Replay { log: &la, next: Cell::new(0), center: centers.0 },
            &Replay { log: &lb, next: Cell::new(0), center: centers.1 },
            &cfg,
        );
        assert_eq!(real, replayed, "pair {k}: our replay strayed from the recorded search");
        ours_logs.push((la, lb, centers));

        let (pa, pb) = (
            PeerLogged { shape: &set.peer[*a], log: RefCell::new(Vec::new()) },
            PeerLogged { shape: &set.peer[*b], log: RefCell::new(Vec::new()) },
        );
        let real = parry3d::query::details::distance_support_map_support_map(&pposes[k], &pa, &pb);
        let (pa, pb) = (pa.log.into_inner(), pb.log.into_inner());
        peer_calls += pa.len();
        let replayed = parry3d::query::details::distance_support_map_support_map(
            &pposes[k],
            &PeerReplay { log: &pa, next: Cell::new(0) },
            &PeerReplay { log: &pb, next: Cell::new(0) },
        );
        assert_eq!(real, replayed, "pair {k}: parry's replay strayed from the recorded search");
        peer_logs.push((pa, pb));
    }
    let m = set.pairs.len();
    let id = Pose::IDENTITY;
    // Real queries against each other, then replays against each other, as
    // the compare binary races its rows (interleaved passes, one untimed
    // pass each first): the replays' logs stay out of the real queries'
    // caches.
    let (ours, peer) = race(
        PASSES,
        m,
        |k| {
            let (a, b, pose) = &set.pairs[k];
            black_box(gjk_shapes::distance_value(&set.ours[*a], &id, &set.ours[*b], pose).ok());
        },
        |k| {
            let (a, b, _) = &set.pairs[k];
            black_box(parry3d::query::details::distance_support_map_support_map(
                &pposes[k],
                &set.peer[*a],
                &set.peer[*b],
            ));
        },
    );
    let (ours_replay, peer_replay) = race(
        PASSES,
        m,
        |k| {
            let (la, lb, c) = &ours_logs[k];
            black_box(
                gjk_core::distance_value_with(
                    &Replay { log: la, next: Cell::new(0), center: c.0 },
                    &Replay { log: lb, next: Cell::new(0), center: c.1 },
                    &cfg,
                )
                .ok(),
            );
        },
        |k| {
            let (pa, pb) = &peer_logs[k];
            black_box(parry3d::query::details::distance_support_map_support_map(
                &pposes[k],
                &PeerReplay { log: pa, next: Cell::new(0) },
                &PeerReplay { log: pb, next: Cell::new(0) },
            ));
        },
    );
    println!("| {n} vertices, {name} | ns per query | support calls per query |");
    println!("|---|---|---|");
    println!("| ours (`gjk_shapes::distance_value`) | {ours:.1} | {:.2} |", calls as f64 / m as f64);
    println!("| ours replayed (steps alone) | {ours_replay:.1} | |");
    println!("| parry | {peer:.1} | {:.2} |", peer_calls as f64 / m as f64);
    println!("| parry replayed (steps alone) | {peer_replay:.1} | |");
    println!();
    println!("ratio parry/ours: {:.2}", peer / ours);
    println!("bound with free supports (parry / ours replayed): {:.2}", peer / ours_replay);
    println!("steps alone, parry's / ours: {:.2}", peer_replay / ours_replay);
}
