//! Criterion benches of the main queries on the 3D distant set (32
//! vertices) and the 2D distant set (12 vertices), ours and parry's.
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

criterion_group!(benches, queries);
criterion_main!(benches);
