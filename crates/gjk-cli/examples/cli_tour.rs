//! Scene files from code: parse a scene, run its query, trace its
//! iterations. `cargo run -p gjk-cli --example cli_tour`
use gjk_cli::{parse_scene, query, trace, trace_text};
use gjk_core::glam::DVec2;

fn main() {
    let scene = parse_scene(
        r#"{"dim": 2, "a": {"shape": "rectangle", "half_extents": [1, 0.5]},
            "b": {"shape": "circle", "radius": 0.5, "pose": {"translation": [3, 0]}},
            "query": "distance"}"#,
    )
    .expect("a valid scene");
    let answer = query(&scene).expect("runs");
    println!("{}", serde_json::to_string_pretty(&answer).unwrap());
    assert_eq!(answer["distance"], 1.5);
    // The trace runs the same query: its answer and as many iterations.
    let t = trace::<DVec2>(&scene).expect("runs");
    print!("{}", trace_text(&t));
    assert_eq!(t.answer, answer);
    assert_eq!(Some(t.iterations.len() as u64), answer["iterations"].as_u64());
    // Errors name the field.
    let err = parse_scene(r#"{"dim": 2, "a": {"shape": "circle"}}"#).unwrap_err();
    println!("error: {err}");
    assert_eq!(err.field, "a.radius");
}
