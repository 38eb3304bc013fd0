//! A chart as PNG: its SVG rasterised by resvg at twice its size (sharp on high-density screens), with the
//! report's fonts; a chart too tall for that (a Dropdown of hundreds of options) at the scale that keeps the image
//! within [`MAX_PIXELS`], so no request holds more than 64 MiB of pixels.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};

use crate::fonts::database;

/// How many pixels per SVG unit.
const SCALE: f32 = 2.0;

/// The most pixels an image holds (four bytes each).
pub const MAX_PIXELS: f32 = 16.0 * 1024.0 * 1024.0;

/// The SVG could not be rasterised.
#[derive(Debug, thiserror::Error)]
#[error("the chart could not be rasterised: {0}")]
pub struct RasterError(String);

/// The SVG document as a PNG image.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    let options = Options { fontdb: database(), ..Options::default() };
    let tree = Tree::from_str(svg, &options).map_err(|error| RasterError(error.to_string()))?;
    let units = tree.size().width() * tree.size().height();
    let scale = SCALE.min((MAX_PIXELS / units).sqrt());
    let (width, height) = ((tree.size().width() * scale).floor(), (tree.size().height() * scale).floor());
    let mut pixmap =
        Pixmap::new(width as u32, height as u32).ok_or_else(|| RasterError("an empty image".to_owned()))?;
    resvg::render(&tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|error| RasterError(error.to_string()))
}
