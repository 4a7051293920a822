//! The egui side panel: simulation controls, scene options, overlay
//! toggles and the selected pair's readouts.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::explain::ExplainMode;
use crate::overlay::{Overlays, PairReadout};
use crate::physics::{Body, SimSettings, StepCount};
use crate::scene::{ResetScene, SceneSettings, SpawnShape};

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 270.0;

/// The side panel.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, panel);
}

#[allow(clippy::too_many_arguments)]
fn panel(
    mut contexts: EguiContexts,
    mut sim: ResMut<SimSettings>,
    mut scene: ResMut<SceneSettings>,
    mut overlays: ResMut<Overlays>,
    readout: Res<PairReadout>,
    steps: Res<StepCount>,
    bodies: Query<&Body>,
    mut reset: MessageWriter<ResetScene>,
    mut spawn: MessageWriter<SpawnShape>,
    mut explain: ResMut<ExplainMode>,
) -> Result {
    if explain.on {
        // The explain mode draws its own panel.
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    egui::Panel::left("gjk_panel").exact_size(PANEL_WIDTH).show(&mut root, |ui| {
        ui.heading("GJK demo");
        ui.label("Left-drag a shape to move it; right-drag to orbit; wheel to zoom.");
        if ui.button("Explain GJK in 2D (E)").clicked() {
            explain.on = true;
        }
        ui.separator();
        ui.horizontal(|ui| {
            let label = if sim.paused { "▶ Run" } else { "⏸ Pause" };
            if ui.button(label).clicked() {
                sim.paused = !sim.paused;
            }
            if ui.button("Step").clicked() {
                sim.paused = true;
                sim.pending_steps += 1;
            }
            if ui.button("Reset").clicked() {
                reset.write(ResetScene);
            }
        });
        ui.label(format!(
            "step {} · {} bodies ({} asleep)",
            steps.0,
            bodies.iter().count(),
            bodies.iter().filter(|b| b.asleep).count()
        ));
        ui.add(egui::Slider::new(&mut sim.gravity, 0.0..=20.0).text("gravity"));
        ui.add(egui::Slider::new(&mut sim.friction, 0.0..=1.5).text("friction"));
        ui.add(egui::Slider::new(&mut sim.restitution, 0.0..=1.0).text("restitution"));
        ui.add(egui::Slider::new(&mut scene.cuboids, 1..=20).text("cuboids (on reset)"));
        ui.horizontal_wrapped(|ui| {
            ui.label("spawn:");
            for (name, shape) in [
                ("cuboid", SpawnShape::Cuboid),
                ("sphere", SpawnShape::Sphere),
                ("capsule", SpawnShape::Capsule),
                ("cylinder", SpawnShape::Cylinder),
                ("cone", SpawnShape::Cone),
                ("hull", SpawnShape::Hull),
            ] {
                if ui.button(name).clicked() {
                    spawn.write(shape);
                }
            }
        });
        ui.separator();
        ui.label("Overlays");
        ui.checkbox(&mut overlays.closest_points, "closest points (selected ↔ others)");
        ui.checkbox(&mut overlays.contacts, "contact points and normals");
        ui.checkbox(&mut overlays.simplex, "GJK simplex of the selected pair");
        let n = readout.iterations.len();
        if n > 0 {
            let mut k = overlays.simplex_step.min(n - 1);
            ui.add(egui::Slider::new(&mut k, 0..=n - 1).text("iteration"));
            overlays.simplex_step = if k == n - 1 { usize::MAX } else { k };
        }
        ui.separator();
        ui.label("Selected pair");
        match readout.other {
            None => {
                ui.label("click a shape to select it");
            }
            Some(_) => {
                ui.label(format!("distance: {:.4}", readout.distance));
                ui.label(format!("penetration depth: {:.4}", readout.depth));
                ui.label(format!(
                    "GJK status: {}",
                    readout.status.map_or("-".to_string(), |s| format!("{s:?}"))
                ));
                ui.label(format!(
                    "iterations: GJK {} · EPA {}",
                    readout.gjk_iterations, readout.epa_iterations
                ));
                ui.label(format!("distance query: {:.2} µs", readout.query_micros));
            }
        }
    });
    Ok(())
}
