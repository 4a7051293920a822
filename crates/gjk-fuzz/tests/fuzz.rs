//! Twenty thousand fuzz inputs in the default test run: no panic, no NaN.
#[test]
fn twenty_thousand_inputs() {
    let mut total = gjk_fuzz::Outcome::default();
    for seed in 0..20_000 {
        total.add(gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256)));
    }
    assert_eq!(total.non_finite, 0, "{total:?}");
    // Warm-started answers equal cold ones, caches handed on included.
    assert_eq!(total.disagreeing, 0, "{total:?}");
    // The inputs really exercise both valid and invalid paths.
    assert!(total.invalid > 1000 && total.invalid < total.queries / 2, "{total:?}");
    // And hulls large enough to hill-climb, cold and warm-started.
    assert!(total.climbing_hulls > 1000 && total.climbing_polygons > 300, "{total:?}");
    assert!(total.compared > 10_000, "{total:?}");
    // Degenerate inputs: empty, one byte, all zeros, all ones.
    for data in [&[][..], &[7u8][..], &[0u8; 64][..], &[255u8; 64][..]] {
        let _ = gjk_fuzz::fuzz_one(data);
    }
}

/// Inputs the fuzzer found, kept by seed (`random_input(seed, 256)`), each
/// a warm-started answer that differed from the cold one:
/// - 1604, 34026, 43329, 67559: a hull of points doubled 1e-12 apart came
///   out folded and its supports climbed up to 1.7 short (the hull
///   builder's plane check);
/// - 2698, 5345, 7723, 8082, 11032: a polygon of 1e-6 size posed by an
///   offset near 1 against a larger one: in A's frame its edges are
///   shorter than an ulp, the boundary walk misordered them and claimed a
///   distance up to 2.6 times too large, or a gap where the pair overlaps
///   (the walk's certificate);
/// - 41255: a polygon's climb from a handed-on cache's vertex stopped at a
///   near-duplicate twin that tied with it, 0.3 short (the climb's slack);
/// - 170086, 399647: the walk's certificate, checking the end vertex's
///   neighbours only, passed where a twin hid a higher vertex behind it
///   (the certificate climbs);
/// - 589381, 794429: f32 polygons a few units across placed 1.9e5 – 7e6
///   apart, where B's vertices in A's frame fall on a grid 0.5 apart: the
///   walk ended, proven, on an edge of B blurred by that grid, and the
///   feature placed again with that edge's own normal claimed 6.55e6 for
///   7.15e6, its point on B far off B (the foot check,
///   `POLYGON_WALK_FOOT_ULPS`);
/// - 1607516, 2915896, 3050211: f32 hulls of doubled points 1e6 across,
///   where rounding left twins a few ulps apart joined by an edge: a
///   hinted climb stopped where the way up led through the twin (their
///   heights tie), and a warm distance claimed 494 380 for an overlapping
///   pair (`HULL_EDGE_RESOLVED_ULPS`: such hulls scan);
/// - 4818664: a distance cache handed from an overlapping pair (a
///   tetrahedron round the origin) to a hull 1e-6 across and a ball 0.8
///   away, in f32: the rebuilt tetrahedron was too thin for its distance
///   from the origin, its solve claimed the origin by rounding, and the
///   warm distance said `Intersecting` (a warm-start simplex must now
///   weigh to the origin to count as enclosing it).
#[test]
fn inputs_the_fuzzer_found() {
    for seed in
        [1604, 34026, 43329, 67559, 2698, 5345, 7723, 8082, 11032, 41255, 170086, 399647, 589381, 794429]
    {
        let o = gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256));
        assert!(o.queries > 0, "seed {seed}: {o:?}");
        assert_eq!((o.non_finite, o.disagreeing, o.disagreeing_extreme), (0, 0, 0), "seed {seed}: {o:?}");
    }
}
