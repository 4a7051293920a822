//! `--screenshot PATH --frames N`: render N frames, save the window as a
//! PNG, then exit (for tests and docs).
//!
//! Pipelines compile asynchronously (slowly under software rendering), so
//! the first frames can be empty. A captured frame that is blank (one
//! colour) is thrown away and another is taken a few frames later.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

/// Frames between a blank capture and the next try.
pub const RETRY_FRAMES: u32 = 10;
/// Frames to wait in all before giving up with an error.
pub const TIMEOUT_FRAMES: u32 = 2000;
/// A capture with fewer distinct colours than this counts as blank.
pub const MIN_COLOURS: usize = 16;

/// The capture plan.
#[derive(Resource, Debug)]
pub struct Capture {
    path: PathBuf,
    /// Frame at which to ask for the next capture.
    next: u32,
    seen: u32,
    pending: bool,
    saved: bool,
}

/// A plugin that captures after `frames` frames and exits.
pub fn plugin(path: PathBuf, frames: u32) -> impl Fn(&mut App) {
    move |app: &mut App| {
        let _ = std::fs::remove_file(&path);
        app.insert_resource(Capture {
            path: path.clone(),
            next: frames,
            seen: 0,
            pending: false,
            saved: false,
        })
        .add_systems(Update, capture);
    }
}

fn capture(mut commands: Commands, mut plan: ResMut<Capture>, mut exit: MessageWriter<AppExit>) {
    plan.seen += 1;
    if plan.saved {
        exit.write(AppExit::Success);
        return;
    }
    if plan.seen > TIMEOUT_FRAMES {
        error!("no non-blank frame to save to {}", plan.path.display());
        exit.write(AppExit::from_code(1));
        return;
    }
    if !plan.pending && plan.seen >= plan.next {
        plan.pending = true;
        commands.spawn(Screenshot::primary_window()).observe(check_and_save);
    }
}

fn check_and_save(shot: On<ScreenshotCaptured>, mut plan: ResMut<Capture>) {
    plan.pending = false;
    let rgb = match shot.image.clone().try_into_dynamic() {
        Ok(img) => img.to_rgb8(),
        Err(e) => {
            error!("cannot read the screenshot: {e}");
            plan.next = plan.seen + RETRY_FRAMES;
            return;
        }
    };
    let mut colours = std::collections::HashSet::new();
    for p in rgb.pixels().step_by(97) {
        colours.insert(p.0);
        if colours.len() >= MIN_COLOURS {
            break;
        }
    }
    if colours.len() < MIN_COLOURS {
        // Still warming up: try again shortly.
        plan.next = plan.seen + RETRY_FRAMES;
        return;
    }
    match rgb.save_with_format(&plan.path, image::ImageFormat::Png) {
        Ok(()) => {
            info!("screenshot saved to {}", plan.path.display());
            plan.saved = true;
        }
        Err(e) => error!("cannot save {}: {e}", plan.path.display()),
    }
}
