//! Rebuilds the crate when a migration changes: `embed_migrations!` does not notice new files by itself.

fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
