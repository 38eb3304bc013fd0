//! The fonts every chart and report is set in, kept in the repository (`fonts/`, DejaVu Sans under the Bitstream
//! Vera licence, `fonts/LICENSE`): the same glyphs measured by plotters, drawn by resvg and embedded in the PDF,
//! whatever the machine has installed. DejaVu Sans covers the Latin, Greek and Cyrillic scripts.

use std::sync::{Arc, OnceLock};

use plotters::style::FontStyle;
use resvg::usvg::fontdb::Database;

/// The family name charts ask for.
pub const FAMILY: &str = "DejaVu Sans";

/// The regular face.
pub const REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The bold face.
pub const BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Makes the faces known to plotters, which measures text with them (once per process).
pub fn register_for_charts() {
    static REGISTERED: OnceLock<()> = OnceLock::new();
    REGISTERED.get_or_init(|| {
        // Both faces are valid TrueType files (the tests draw with them); a failure leaves plotters' own error.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, REGULAR);
        let _ = plotters::style::register_font(FAMILY, FontStyle::Bold, BOLD);
    });
}

/// The faces as resvg and the PDF's SVG find them (once per process), the family answering for `sans-serif` too.
pub fn database() -> Arc<Database> {
    static DATABASE: OnceLock<Arc<Database>> = OnceLock::new();
    DATABASE
        .get_or_init(|| {
            let mut database = Database::new();
            database.load_font_data(REGULAR.to_vec());
            database.load_font_data(BOLD.to_vec());
            database.set_sans_serif_family(FAMILY);
            Arc::new(database)
        })
        .clone()
}
