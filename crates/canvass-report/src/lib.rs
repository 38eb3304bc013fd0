//! Canvass reports: a survey's results drawn as charts (SVG through plotters, PNG through resvg) and laid out as a
//! report a person reads (one HTML document, or an A4 PDF made here with krilla), in the fonts kept in `fonts/`.

pub mod chart;
pub mod fonts;
pub mod html;
pub mod pdf;
pub mod png;
pub mod svg;
pub mod view;

pub use chart::{Chart, Plot, Table};
