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

/// Cylinders and cones open as themselves (a cone's body turns about its
/// centre of mass, so its body's pose is not the file's, but the shape
/// lands where the file puts it): the distance is `gjk query`'s, and the
/// cone's apex is where the file's pose puts its own `(0, h, 0)`.
#[test]
fn cylinders_and_cones_open_as_themselves() {
    let text = r#"{"dim": 3,
        "a": {"shape": "cylinder", "half_height": 0.5, "radius": 0.4,
              "pose": {"translation": [0.2, 0.1, -0.3], "rotation": [0.1, 0.2, 0.0, 0.97]}},
        "b": {"shape": "cone", "half_height": 0.6, "radius": 0.3,
              "pose": {"translation": [1.4, 0.9, 0.2], "rotation": [0.0, 0.3, 0.4, 0.86]}},
        "query": "distance"}"#;
    let path = std::env::temp_dir().join(format!("demo-revolved-scene-{}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let loaded = load_pair(&path);
    std::fs::remove_file(&path).unwrap();
    let pair = loaded.unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(pair.a.0, demo::physics::Collider::Cylinder(_)), "{:?}", pair.a.0);
    assert!(matches!(pair.b.0, demo::physics::Collider::Cone(_)), "{:?}", pair.b.0);
    let r = distance(pair.a.0.shape(), &pair.a.1, pair.b.0.shape(), &pair.b.1);
    let expected =
        gjk_cli::query(&gjk_cli::parse_scene(text).unwrap()).unwrap()["distance"].as_f64().unwrap();
    assert!(expected > 0.1 && (r.distance as f64 - expected).abs() < 1e-4, "{} vs {expected}", r.distance);
    // The apex: the file's pose applied to (0, h, 0), against the body's
    // support along the cone's axis.
    let q = gjk_shapes::glam::Quat::from_xyzw(0.0, 0.3, 0.4, 0.86).normalize();
    let axis = q * gjk_shapes::glam::Vec3::Y;
    let apex = gjk_shapes::glam::Vec3::new(1.4, 0.9, 0.2) + axis * 0.6;
    let local = pair.b.1.inverse_transform_vector(axis);
    let top = pair.b.1.transform_point(pair.b.0.shape().support(local));
    assert!((top - apex).length() < 1e-5, "{top} vs {apex}");
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
