//! The query of a sendout's QR code, and the code drawn as SVG or PNG (`qrcode`, PNG encoded by `image`).

use std::io::Cursor;

use canvass_domain::error::FieldError;
use image::{ImageFormat, Luma};
use qrcode::render::svg;
use qrcode::QrCode;
use serde::Deserialize;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// The narrowest and widest PNG, and the default width.
pub const SIZES: std::ops::RangeInclusive<u32> = 128..=2048;
const DEFAULT_SIZE: u32 = 512;

/// What the code is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum QrFormat {
    /// `image/svg+xml`, drawn to scale.
    #[default]
    Svg,
    /// `image/png`, `size` pixels wide and high.
    Png,
}

/// The query of `GET .../sendouts/{sendoutId}/qr`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QrQuery {
    /// `svg` (default) or `png`.
    #[param(inline)]
    pub format: Option<QrFormat>,
    /// The width and height, 128 to 2048 (default 512): a PNG's in pixels exactly; an SVG's (which scales) as near
    /// as whole modules allow, never more.
    #[param(minimum = 128, maximum = 2048)]
    pub size: Option<u32>,
}

/// A drawn code: its content type and bytes.
pub struct QrImage {
    /// `image/svg+xml` or `image/png`.
    pub content_type: &'static str,
    /// The file.
    pub bytes: Vec<u8>,
}

impl QrQuery {
    /// The format and width asked for: `size` outside [`SIZES`] names `size`.
    pub fn checked(&self) -> Result<(QrFormat, u32), FieldError> {
        let format = self.format.unwrap_or_default();
        match (format, self.size) {
            (_, Some(size)) if !SIZES.contains(&size) => {
                Err(FieldError::new("size", format!("must be {} to {} pixels, not {size}", SIZES.start(), SIZES.end())))
            }
            (_, size) => Ok((format, size.unwrap_or(DEFAULT_SIZE))),
        }
    }
}

/// `url` as a QR code in `format` (a PNG `size` pixels square, the code centred in its quiet zone; an SVG of whole
/// modules, at most `size` wide), or `None` when the URL is too long for any QR code.
pub fn draw(url: &str, format: QrFormat, size: u32) -> Option<QrImage> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    match format {
        QrFormat::Svg => {
            let text = code.render::<svg::Color<'_>>().max_dimensions(size, size).build();
            Some(QrImage { content_type: "image/svg+xml", bytes: text.into_bytes() })
        }
        QrFormat::Png => {
            let drawn = code.render::<Luma<u8>>().max_dimensions(size, size).build();
            // The largest whole module that fits, centred on a white square of exactly `size`.
            let mut square = image::GrayImage::from_pixel(size, size, Luma([255]));
            let (x, y) = (size.saturating_sub(drawn.width()) / 2, size.saturating_sub(drawn.height()) / 2);
            image::imageops::overlay(&mut square, &drawn, i64::from(x), i64::from(y));
            let mut bytes = Cursor::new(Vec::new());
            square.write_to(&mut bytes, ImageFormat::Png).ok()?;
            Some(QrImage { content_type: "image/png", bytes: bytes.into_inner() })
        }
    }
}

/// The body of a QR code as the document states it: an SVG or PNG file.
pub struct QrFile;

impl PartialSchema for QrFile {
    fn schema() -> RefOr<Schema> {
        super::schemas::binary_file("The QR code")
    }
}

impl ToSchema for QrFile {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked_and_a_png_is_exactly_as_wide_as_asked() {
        let query = |format, size| QrQuery { format, size };
        assert_eq!(query(None, None).checked(), Ok((QrFormat::Svg, 512)));
        assert_eq!(query(Some(QrFormat::Png), None).checked(), Ok((QrFormat::Png, 512)));
        for size in [127, 2049, 0] {
            assert_eq!(query(Some(QrFormat::Png), Some(size)).checked().unwrap_err().field, "size");
        }
        assert_eq!(query(None, Some(300)).checked(), Ok((QrFormat::Svg, 300)), "an SVG takes a size too");
        for size in [128, 333, 2048] {
            let png = draw("https://survey.example/s/1-abc", QrFormat::Png, size).unwrap();
            let read = image::load_from_memory_with_format(&png.bytes, ImageFormat::Png).unwrap();
            assert_eq!((read.width(), read.height()), (size, size));
        }
        let svg = draw("https://survey.example/s/1-abc", QrFormat::Svg, 512).unwrap();
        assert!(String::from_utf8(svg.bytes).unwrap().starts_with("<?xml"));
    }
}
