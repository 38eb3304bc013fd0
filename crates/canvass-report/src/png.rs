//! A chart as PNG: its SVG rasterised by resvg at twice its size (sharp on high-density screens), with the
//! report's fonts.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{Options, Tree};

use crate::fonts::database;

/// How many pixels per SVG unit.
const SCALE: f32 = 2.0;

/// The SVG could not be rasterised.
#[derive(Debug, thiserror::Error)]
#[error("the chart could not be rasterised: {0}")]
pub struct RasterError(String);

/// The SVG document as a PNG image.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    let options = Options { fontdb: database(), ..Options::default() };
    let tree = Tree::from_str(svg, &options).map_err(|error| RasterError(error.to_string()))?;
    let size = tree.size().to_int_size().scale_by(SCALE).ok_or_else(|| RasterError("no size".to_owned()))?;
    let mut pixmap =
        Pixmap::new(size.width(), size.height()).ok_or_else(|| RasterError("an empty image".to_owned()))?;
    resvg::render(&tree, Transform::from_scale(SCALE, SCALE), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|error| RasterError(error.to_string()))
}
