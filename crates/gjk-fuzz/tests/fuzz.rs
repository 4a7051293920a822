//! Twenty thousand fuzz inputs in the default test run: no panic, no NaN.
#[test]
fn twenty_thousand_inputs() {
    let mut total = gjk_fuzz::Outcome::default();
    for seed in 0..20_000 {
        total.add(gjk_fuzz::fuzz_one(&gjk_fuzz::random_input(seed, 256)));
    }
    assert_eq!(total.non_finite, 0, "{total:?}");
    // The inputs really exercise both valid and invalid paths.
    assert!(total.invalid > 1000 && total.invalid < total.queries / 2, "{total:?}");
    // Degenerate inputs: empty, one byte, all zeros, all ones.
    for data in [&[][..], &[7u8][..], &[0u8; 64][..], &[255u8; 64][..]] {
        let _ = gjk_fuzz::fuzz_one(data);
    }
}
