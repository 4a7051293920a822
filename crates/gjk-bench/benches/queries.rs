//! Criterion benches of the main queries on the 3D distant set (32
//! vertices) and the 2D distant set (12 vertices), and of building hulls
//! of 1 024 points (the paper's largest size), ours and parry's.
use criterion::{Criterion, criterion_group, criterion_main};
use gjk_bench::*;
use gjk_shapes::Pose;
use std::hint::black_box;

fn queries(c: &mut Criterion) {
    let plan = Plan::QUICK;
    let s3 = make_set3(7, 32, Kind::Distant, &plan);
    let s2 = make_set2(8, 12, Kind::Distant, &plan);
    let id = Pose::IDENTITY;
    c.bench_function("3d distance n=32 (ours)", |b| {
        b.iter(|| {
            for (a, bb, p) in &s3.pairs {
                black_box(gjk_shapes::distance(&s3.ours[*a], &id, &s3.ours[*bb], p).distance);
            }
        })
    });
    c.bench_function("3d intersects n=32 (ours)", |b| {
        b.iter(|| {
            for (a, bb, p) in &s3.pairs {
                black_box(gjk_shapes::intersects(&s3.ours[*a], &id, &s3.ours[*bb], p));
            }
        })
    });
    c.bench_function("2d distance n=12 (ours)", |b| {
        b.iter(|| {
            for (a, bb, p) in &s2.pairs {
                black_box(gjk_shapes::distance(&s2.ours[*a], &Pose::IDENTITY, &s2.ours[*bb], p).distance);
            }
        })
    });
}

fn hull_building(c: &mut Criterion) {
    let s3 = make_set3(9, 1024, Kind::Distant, &Plan::QUICK);
    let points = &s3.local[0];
    c.bench_function("3d hull of 1024 points (ours)", |b| {
        b.iter(|| black_box(gjk_shapes::ConvexHull::new(points).map(|h| h.vertices().len())))
    });
    c.bench_function("3d hull of 1024 points (parry)", |b| {
        b.iter(|| {
            black_box(parry3d::shape::ConvexPolyhedron::from_convex_hull(points).map(|h| h.points().len()))
        })
    });
}

criterion_group!(benches, queries, hull_building);
criterion_main!(benches);
