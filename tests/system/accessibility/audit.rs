//! What the accessibility test checks on each page, in one browser session: `<html lang>`, axe-core's WCAG 2.1 A
//! and AA rules (desktop width) or horizontal overflow (phone width), the rating row's layout, and screenshots.
//! Problems are collected as findings, so one run lists them all.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use fantoccini::Client;
use serde_json::{json, Value};

use super::super::chromium::{browser, Driver};

/// The window widths the pages are checked at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// 1280x900: axe-core runs here, and the rating's choices stand in one row.
    Desktop,
    /// 390 CSS pixels wide: nothing may overflow horizontally.
    Phone,
}

impl Width {
    fn pixels(self) -> u32 {
        match self {
            Width::Desktop => 1280,
            Width::Phone => 390,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Width::Desktop => "desktop",
            Width::Phone => "phone",
        }
    }
}

/// axe-core's `axe.min.js` as `npm ci` in `tests/browser` installs it (pinned in its package-lock.json).
pub fn axe_source() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(path).ok()
}

/// Runs axe-core (injected just before, as the pages allow no scripts of their own) with the WCAG 2.0 and 2.1 A
/// and AA rules; answers `{lang, violations: [{id, impact, help, targets}]}` or `{lang, error}`.
const RUN_AXE: &str = r"
const done = arguments[arguments.length - 1];
const lang = document.documentElement.lang;
axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    resultTypes: ['violations'],
}).then(
    (result) => done({lang, violations: result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
    }))}),
    (error) => done({lang, error: String(error)}),
);";

/// The page's `<html lang>`, and whether it is wider than the viewport.
const OVERFLOW: &str = r"
const root = document.documentElement;
return {lang: root.lang, scrollWidth: root.scrollWidth, clientWidth: root.clientWidth};";

/// The layout of the radio inputs named `arguments[0]`: each one's label box, whether it has an accessible name,
/// and the viewport's width.
const RADIO_BOXES: &str = r"
const inputs = [...document.querySelectorAll('input[type=radio]')].filter((i) => i.name === arguments[0]);
const named = (i) => [...i.labels].some((l) => l.textContent.trim() !== '')
    || (i.getAttribute('aria-label') || '').trim() !== '' || i.hasAttribute('aria-labelledby');
return {
    viewport: document.documentElement.clientWidth,
    radios: inputs.map((i) => {
        const box = (i.labels[0] || i).getBoundingClientRect();
        return {value: i.value, named: named(i), top: box.top, bottom: box.bottom, left: box.left, right: box.right};
    }),
};";

/// The box of the page's `main` in page coordinates, 16 px larger on each side, as Chrome DevTools clips a
/// screenshot.
const MAIN_BOX: &str = r"
const box = document.querySelector('main').getBoundingClientRect();
const x = Math.max(0, box.left + window.scrollX - 16), y = Math.max(0, box.top + window.scrollY - 16);
return {x, y, width: box.right + window.scrollX + 16 - x, height: box.bottom + window.scrollY + 16 - y, scale: 1};";

/// One browser session checking page after page; what is wrong is kept in `findings`.
pub struct Audit {
    /// The WebDriver session.
    pub client: Client,
    driver_url: String,
    axe: String,
    width: Width,
    /// Every problem found, one line each, naming the page kind, language and width.
    pub findings: Vec<String>,
    /// Pages checked.
    pub pages: usize,
}

impl Audit {
    /// An audit in a new session of `driver`, injecting `axe` (axe-core's source) into each page checked at
    /// desktop width, having shown that axe-core finds what a page gets wrong. [`Audit::resize`] sets the width
    /// before the first page.
    pub async fn start(driver: &Driver, axe: String) -> Audit {
        let client = browser(driver).await;
        let mut audit =
            Audit { client, driver_url: driver.url(), axe, width: Width::Desktop, findings: Vec::new(), pages: 0 };
        audit.canary().await;
        audit
    }

    /// axe-core, as injected and run here, reports a radio without a label and a page without a language: the
    /// silence on the real pages is axe-core's verdict, not a harness that checks nothing.
    async fn canary(&mut self) {
        let page = "data:text/html,<!DOCTYPE html><html><title>Canary</title><main><input type=radio></main></html>";
        self.client.goto(page).await.unwrap();
        self.page("canary", "").await;
        self.pages = 0;
        let found = std::mem::take(&mut self.findings);
        for rule in ["axe label ", "axe html-has-lang "] {
            assert!(
                found.iter().any(|f| f.contains(rule)),
                "axe-core did not report {rule:?} on the canary: {found:?}"
            );
        }
    }

    /// The width pages are checked at now.
    pub fn width(&self) -> Width {
        self.width
    }

    /// Resizes the window (once per width: the page kinds are walked at one width, then at the other).
    pub async fn resize(&mut self, width: Width) {
        self.client.set_window_size(width.pixels(), 900).await.unwrap();
        let inner = self.client.execute("return window.innerWidth", vec![]).await.unwrap();
        assert_eq!(inner, json!(width.pixels()), "the viewport did not take the {} width", width.name());
        self.width = width;
    }

    fn found(&mut self, kind: &str, lang: &str, what: impl std::fmt::Display) {
        self.findings.push(format!("{kind} ({lang}, {}): {what}", self.width.name()));
    }

    /// Checks the page shown, of kind `kind` in language `lang`: its `<html lang>`, and at desktop width axe-core's
    /// violations, at phone width horizontal overflow (one script each, with the language read along).
    pub async fn page(&mut self, kind: &str, lang: &str) {
        self.pages += 1;
        let result = match self.width {
            Width::Desktop => self.client.execute_async(&format!("{}\n;{RUN_AXE}", self.axe), vec![]).await,
            Width::Phone => self.client.execute(OVERFLOW, vec![]).await,
        };
        let result = result.unwrap();
        if result["lang"] != json!(lang) {
            self.found(kind, lang, format!("<html lang> is {}", result["lang"]));
        }
        match self.width {
            Width::Desktop => self.violations(kind, lang, &result),
            Width::Phone => self.overflow(kind, lang, &result),
        }
    }

    fn violations(&mut self, kind: &str, lang: &str, result: &Value) {
        if let Some(error) = result.get("error") {
            return self.found(kind, lang, format!("axe-core failed: {error}"));
        }
        let Some(violations) = result["violations"].as_array() else {
            return self.found(kind, lang, format!("axe-core answered no violations list: {result}"));
        };
        for violation in violations {
            let text = |key: &str| violation[key].as_str().unwrap_or_default().to_owned();
            let targets: Vec<&str> =
                violation["targets"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let (id, impact, help) = (text("id"), text("impact"), text("help"));
            self.found(kind, lang, format!("axe {id} [{impact}] {help}; targets: {}", targets.join(", ")));
        }
    }

    fn overflow(&mut self, kind: &str, lang: &str, widths: &Value) {
        let (scroll, client) = (&widths["scrollWidth"], &widths["clientWidth"]);
        if !scroll.as_f64().zip(client.as_f64()).is_some_and(|(scroll, client)| scroll <= client) {
            self.found(kind, lang, format!("overflows horizontally: scrollWidth {scroll} > clientWidth {client}"));
        }
    }

    /// Checks the rating item whose radios are named `name`: eleven choices, each with an accessible name; at
    /// desktop width in one row (every label box crosses one horizontal line), at phone width inside the viewport.
    pub async fn rating_row(&mut self, name: &str, lang: &str) {
        let layout = self.client.execute(RADIO_BOXES, vec![json!(name)]).await.unwrap();
        let radios = layout["radios"].as_array().cloned().unwrap_or_default();
        let kind = "rating item";
        if radios.len() != 11 {
            return self.found(kind, lang, format!("{} radio inputs, not 11", radios.len()));
        }
        for radio in radios.iter().filter(|r| r["named"] != json!(true)) {
            let value = radio["value"].as_str().unwrap_or_default();
            self.found(kind, lang, format!("the choice {value} has no accessible name"));
        }
        let edge = |key: &'static str| radios.iter().filter_map(move |r| r[key].as_f64());
        match self.width {
            Width::Desktop => {
                let (lowest_top, highest_bottom) =
                    (edge("top").fold(f64::MIN, f64::max), edge("bottom").fold(f64::MAX, f64::min));
                if lowest_top >= highest_bottom {
                    self.found(kind, lang, format!("the eleven choices are not in one row: {}", tops(&radios)));
                }
            }
            Width::Phone => {
                let viewport = layout["viewport"].as_f64().unwrap_or_default();
                if edge("left").any(|left| left < 0.0) || edge("right").any(|right| right > viewport) {
                    self.found(kind, lang, format!("choices reach outside the {viewport} px viewport"));
                }
            }
        }
    }

    /// Takes a PNG of the page's `main` whole (with a margin), below the fold too, as `<name>-<desktop|phone>.png`:
    /// into `docs/respondent-pages/` when `UPDATE_SCREENSHOTS` is set (the docs embed them), else into
    /// `target/screenshots/`. Chrome DevTools takes it: WebDriver's element screenshot stops at the viewport.
    pub async fn screenshot(&mut self, name: &str) {
        let clip = self.client.execute(MAIN_BOX, vec![]).await.unwrap();
        let command = json!({"cmd": "Page.captureScreenshot", "params": {
            "format": "png", "captureBeyondViewport": true, "clip": clip,
        }});
        let session = self.client.session_id().await.unwrap().expect("a session");
        let url = format!("{}/session/{session}/goog/cdp/execute", self.driver_url);
        let reply: Value = reqwest::Client::new().post(url).json(&command).send().await.unwrap().json().await.unwrap();
        let data = reply["value"]["data"].as_str().unwrap_or_else(|| panic!("no screenshot: {reply}"));
        let png = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
        if png.len() > 150_000 {
            self.found("screenshot", name, format!("{} bytes: keep it under 150 KB", png.len()));
        }
        let directory = screenshot_directory();
        std::fs::create_dir_all(&directory).unwrap();
        std::fs::write(directory.join(format!("{name}-{}.png", self.width.name())), png).unwrap();
    }
}

fn tops(radios: &[Value]) -> String {
    let tops: Vec<String> =
        radios.iter().map(|r| format!("{}@{}", r["value"].as_str().unwrap_or_default(), r["top"])).collect();
    tops.join(" ")
}

fn screenshot_directory() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
        return root.join("docs/respondent-pages");
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir));
    target.join("screenshots")
}
