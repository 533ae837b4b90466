//! The player's settings: how the table is drawn (smoothing, shadows), the interface's
//! size, and whether ending with actions left asks first. Kept in `graphics.ron` in the
//! data folder; `table::graphics` applies them and draws their window.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The settings' file in the data folder.
pub(crate) const FILE: &str = "graphics.ron";

/// How the table is drawn.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Graphics {
    pub antialiasing: Antialiasing,
    /// Lights cast the shadows each table gives them; off, none does.
    pub shadows: bool,
    /// Ending an activation or a turn with actions left asks first.
    pub confirm_ends: bool,
    /// The panels' and labels' size, in percent (Ctrl+plus, Ctrl+minus, Ctrl+0).
    pub ui_scale: u16,
}

impl Graphics {
    /// The smallest and largest interface scales, in percent.
    pub const UI_SCALES: std::ops::RangeInclusive<u16> = 50..=250;

    /// The interface scale as a factor.
    #[must_use]
    pub fn ui_zoom(&self) -> f32 {
        f32::from(
            self.ui_scale
                .clamp(*Self::UI_SCALES.start(), *Self::UI_SCALES.end()),
        ) / 100.0
    }
}

impl Default for Graphics {
    fn default() -> Self {
        Self {
            antialiasing: Antialiasing::default(),
            shadows: true,
            confirm_ends: true,
            ui_scale: 100,
        }
    }
}

/// How edges are smoothed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Antialiasing {
    /// The renderer decides ([`Antialiasing::resolve`]): SMAA on a software renderer,
    /// 2× multisampling on a GPU.
    #[default]
    Auto,
    /// Four samples a pixel: the smoothest edges and the largest cost.
    Msaa4,
    /// Two samples a pixel.
    Msaa2,
    /// Subpixel morphological smoothing, after the table is drawn.
    Smaa,
    /// Fast approximate smoothing, after the table is drawn.
    Fxaa,
    /// None: edges show their steps.
    Off,
}

impl Antialiasing {
    pub const ALL: [Self; 6] = [
        Self::Auto,
        Self::Msaa4,
        Self::Msaa2,
        Self::Smaa,
        Self::Fxaa,
        Self::Off,
    ];

    /// The smoothing drawn with: the choice itself, or for `Auto` the one that suits the
    /// renderer. Under software rendering (Mesa's llvmpipe, a virtual machine without a
    /// GPU) four samples a pixel cost the most of all: every fragment on an edge is shaded
    /// once per triangle that touches the pixel and four samples are stored and resolved,
    /// on the CPU, while SMAA's three passes over the finished image cost less and look
    /// nearly the same (`docs/performance.md`: 1280 × 720, a lit table 240 ms against
    /// 290–410 ms a frame). On a GPU it is the other way round: SMAA's passes over a
    /// 1080p image take about a millisecond of the GPU, more than the samples of 2× or
    /// 4× multisampling, and 2× is the cheapest smoothing of all there (an H200 on 4
    /// cores at 1080p: the lit tables at 1.22–1.44× the empty app, against 1.39–1.61×
    /// with 4×, 1.43–1.66× with SMAA and 1.45–1.71× with FXAA).
    #[must_use]
    pub fn resolve(self, software: bool) -> Self {
        match self {
            Self::Auto if software => Self::Smaa,
            Self::Auto => Self::Msaa2,
            chosen => chosen,
        }
    }

    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Auto => "Automatic (default)",
            Self::Msaa4 => "Multisampling 4×",
            Self::Msaa2 => "Multisampling 2×",
            Self::Smaa => "SMAA",
            Self::Fxaa => "FXAA",
            Self::Off => "Off",
        }
    }

    /// What the choice does and costs, for its tooltip.
    #[must_use]
    pub fn about(self) -> &'static str {
        match self {
            Self::Auto => {
                "Multisampling 2× on a graphics card, the cheapest smoothing there; SMAA on software rendering (no GPU), where it is the cheapest and looks nearly the same"
            }
            Self::Msaa4 => {
                "Every pixel's edges are sampled four times: the smoothest hexes, tanks and lines, and the GPU's largest cost (about a quarter more frame time on a fast card at 1080p)"
            }
            Self::Msaa2 => {
                "Two samples a pixel: edges a little less smooth than 4×, for about 0.7 ms less a frame on a fast card at 1080p (the cheapest smoothing on a graphics card)"
            }
            Self::Smaa => {
                "Edges are found and blended after the table is drawn: close to multisampling on still pictures, a little softer on the thinnest lines, and cheap (the cheapest smoothing on software rendering)"
            }
            Self::Fxaa => {
                "One quick pass after the table is drawn: slightly soft on fine lines; on a graphics card no cheaper than multisampling 2×"
            }
            Self::Off => "No smoothing: the fastest, and edges show their steps",
        }
    }

    /// The multisampling of a camera drawing with this choice (`Auto` as on a GPU: see
    /// [`Antialiasing::resolve`]).
    #[must_use]
    pub fn msaa(self) -> Msaa {
        match self {
            Self::Msaa4 => Msaa::Sample4,
            Self::Auto | Self::Msaa2 => Msaa::Sample2,
            Self::Smaa | Self::Fxaa | Self::Off => Msaa::Off,
        }
    }

    /// The name `bench-frames --antialiasing` takes.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Msaa4 => "msaa4",
            Self::Msaa2 => "msaa2",
            Self::Smaa => "smaa",
            Self::Fxaa => "fxaa",
            Self::Off => "off",
        }
    }

    /// The choice named `key` ([`Antialiasing::key`]).
    #[must_use]
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.key() == key)
    }
}

/// The settings in `path`: the defaults when there is no file, and with a sentence when
/// there is one that does not read.
#[must_use]
pub fn read(path: &std::path::Path) -> (Graphics, Option<String>) {
    match std::fs::read_to_string(path) {
        Ok(text) => match crate::data::load_ron::<Graphics>(&path.display().to_string(), &text) {
            Ok((graphics, _)) => (graphics, None),
            Err(problems) => (
                Graphics::default(),
                Some(format!(
                    "{problems}\n(the default settings are used until these are saved again)"
                )),
            ),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Graphics::default(), None),
        Err(e) => (
            Graphics::default(),
            Some(format!(
                "{}: {e} (the default settings are used)",
                path.display()
            )),
        ),
    }
}

/// Writes the settings to `path`, atomically.
///
/// # Errors
/// A sentence when the file cannot be written.
pub fn write(path: &std::path::Path, graphics: &Graphics) -> Result<(), String> {
    let text = crate::data::to_ron_pretty(graphics)?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    crate::data::write_atomic(path, &text).map_err(|e| format!("{}: {e}", path.display()))
}
