//! The startup measurement: the time to the first rendered frame and the resident memory,
//! of the client or of an empty Bevy app beside it.

use bevy::prelude::*;

use crate::client::core::launch::{BuildApp, Launch};

/// When the process started, for the startup measurement.
#[derive(Resource)]
struct Started(std::time::Instant);

/// Opens `launch` (or, with `empty_app`, an app with nothing but a camera), prints the
/// time to the first rendered frame and the resident memory after 120 frames, and exits.
///
/// # Errors
/// No display to open a window on.
pub fn measure(launch: Launch, build: BuildApp) -> Result<(), String> {
    let started = Started(std::time::Instant::now());
    let mut app = if launch.empty_app {
        let mut app = App::new();
        app.add_plugins(DefaultPlugins)
            .add_systems(Startup, |mut commands: Commands| {
                commands.spawn(Camera3d::default());
            });
        app
    } else {
        build(launch)?
    };
    app.insert_resource(started)
        .add_systems(Last, measure_frames);
    app.run();
    Ok(())
}

fn measure_frames(
    frames: Res<bevy::diagnostic::FrameCount>,
    started: Res<Started>,
    mut exit: MessageWriter<AppExit>,
) {
    // Rendering is pipelined: frame 1's image is drawn while frame 2 runs.
    if frames.0 == 2 {
        println!(
            "first frame: {:.0} ms after start",
            started.0.elapsed().as_secs_f64() * 1000.0
        );
    }
    if frames.0 == 120 {
        println!(
            "resident memory after 120 frames: {} MiB",
            crate::client::core::memory::resident_kib()
                .map_or("?".to_string(), |k| (k / 1024).to_string())
        );
        exit.write(AppExit::Success);
    }
}
