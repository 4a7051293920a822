//! `--scene FILE`: a scene file's pair, 2D or 3D, opens as two bodies whose
//! distance is the file's answer (checked against `gjk query`'s library).

use demo::scene::load_pair;
use gjk_shapes::distance;
use std::path::{Path, PathBuf};

fn cases() -> PathBuf {
    // The run-time variable first: CI's shared target directory can hold a
    // test binary built in another checkout, whose compile-time path may be gone.
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), PathBuf::from);
    dir.join("../crates/gjk-cli/tests/cases")
}

#[test]
fn scene_pairs_keep_their_distances() {
    for name in
        ["5_fcl_293_separated_boxes.json", "7_dolfinx_3653_point_vs_hull.json", "2_box2d_short_edge.json"]
    {
        let path = cases().join(name);
        let pair = load_pair(&path).unwrap_or_else(|e| panic!("{e}"));
        let r = distance(pair.a.0.shape(), &pair.a.1, pair.b.0.shape(), &pair.b.1);
        let text = std::fs::read_to_string(&path).unwrap();
        let expected =
            gjk_cli::query(&gjk_cli::parse_scene(&text).unwrap()).unwrap()["distance"].as_f64().unwrap();
        assert!((r.distance as f64 - expected).abs() < 1e-4, "{name}: {} vs {expected}", r.distance);
    }
}

#[test]
fn bad_scene_files_are_errors() {
    let bad = std::env::temp_dir().join(format!("demo-bad-scene-{}.json", std::process::id()));
    std::fs::write(&bad, r#"{"dim": 3, "a": {"shape": "sphere"}}"#).unwrap();
    let loaded = load_pair(&bad);
    // Removed before the checks, so a failing run leaves nothing behind.
    std::fs::remove_file(&bad).unwrap();
    let err = loaded.unwrap_err();
    assert!(err.contains("a.radius"), "{err}");
    assert!(load_pair(Path::new("/no/such/file.json")).is_err());
}
