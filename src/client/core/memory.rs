//! Resident memory. glibc's allocator gives each thread that allocates while another holds
//! the lock an arena of its own, up to eight per core, and keeps what is freed in each;
//! Bevy's task pools run on a thread per core. So the same scene's resident memory grew
//! with the machine's cores and varied between runs with how threads happened to meet.
//! The client caps the arenas before any thread starts, and hands freed memory back to the
//! system once a screen has opened (loading a table frees most of what it allocated).
//!
//! Bevy's renderer packs meshes that share a vertex layout into shared buffers ("slabs"),
//! and each shared slab keeps an offset allocator with room for 131,072 allocations: a
//! table of about 4 MiB, written in full when the slab is made. A table here holds a few
//! dozen meshes (1.5 MiB of vertices and indices on the 30 × 30 board with 40 tanks) in
//! three such slabs (one per vertex layout and index size), so the bookkeeping outweighed
//! the meshes eight times over. The client gives every mesh a buffer of its own instead,
//! as Bevy does on WebGL; a few dozen buffers cost nothing worth counting.

use bevy::prelude::*;
use bevy::render::mesh::allocator::MeshAllocatorSettings;
use bevy::render::slab_allocator::SlabAllocatorSettings;

use crate::client::core::Screen;

/// Arenas glibc may make: enough that the render and main threads rarely wait on each
/// other's allocations.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MOST_ARENAS: i32 = 4;

/// Frames after a screen changes before freed memory is handed back: by then the table's
/// meshes are built and its pipelines compiled.
const TRIM_AFTER: u32 = 120;

/// Caps glibc's arenas; call before any thread starts (elsewhere it does nothing).
#[allow(unsafe_code, reason = "a call into the C library with no pointers")]
pub fn limit_arenas() {
    // SAFETY: mallopt takes two integers and only sets an allocator parameter.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MOST_ARENAS);
    }
}

/// Hands the heap's free pages back to the system.
#[allow(unsafe_code, reason = "a call into the C library with no pointers")]
fn trim() {
    // SAFETY: malloc_trim takes an integer and only releases free memory.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::malloc_trim(0);
    }
}

#[derive(Resource, Default)]
struct TrimIn(Option<u32>);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<TrimIn>()
        .add_systems(Last, trim_after_opening);
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        render.insert_resource(own_buffer_per_mesh());
    }
}

/// Mesh allocation with no shared slab: every mesh's vertices and indices are at or over
/// the size that earns a buffer of its own.
fn own_buffer_per_mesh() -> MeshAllocatorSettings {
    MeshAllocatorSettings {
        slab_allocator_settings: SlabAllocatorSettings {
            large_threshold: 0,
            ..default()
        },
        ..default()
    }
}

/// Hands back now what opening the last screen freed, if the client has not yet: the frame
/// benchmark reads resident memory as a table holds it once that is done, however short
/// the run.
#[cfg(feature = "dev")]
pub(crate) fn trim_if_pending(world: &mut World) {
    if let Some(mut countdown) = world.get_resource_mut::<TrimIn>()
        && countdown.0.take().is_some()
    {
        trim();
    }
}

fn trim_after_opening(screen: Option<Res<State<Screen>>>, mut countdown: ResMut<TrimIn>) {
    if screen.is_some_and(|s| s.is_changed()) {
        countdown.0 = Some(TRIM_AFTER);
    }
    match countdown.0 {
        Some(0) => {
            trim();
            countdown.0 = None;
        }
        Some(n) => countdown.0 = Some(n - 1),
        None => {}
    }
}

/// Resident memory of this process in KiB, from `/proc/self/status`.
#[must_use]
pub fn resident_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

/// A line of `/proc/self/status` in KiB (`VmRSS:`, `VmHWM:` …).
#[must_use]
pub fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
