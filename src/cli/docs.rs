//! `fabric docs`: each fabric's documentation (a page per switch, the fabric's page with its
//! topology, one self-contained HTML page) written to `<out>/<fabric>/`, or checked with
//! `--check` as `fabric compile --check` checks goldens.

use std::path::PathBuf;

use crate::error::{Failure, exit};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Fabric files (YAML).
    #[arg(required = true)]
    fabrics: Vec<PathBuf>,
    /// Root folder of the documentation: each fabric's goes to `<out>/<fabric file stem>/`.
    #[arg(long, default_value = "docs/fabrics")]
    out: PathBuf,
    /// Write nothing; exit 1 and print a diff when a file is stale.
    #[arg(long)]
    check: bool,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    super::distinct_folders(&args.fabrics, &args.out, "docs")?;
    let (fabrics, clean) = super::check_all(&args.fabrics, false, color)?;
    if !clean {
        return Ok(exit::FINDINGS);
    }
    let mut stale = 0;
    for (path, fabric) in &fabrics {
        let name = super::stem(path)?;
        let source = crate::input::read_string(path, crate::fabric::load::MAX_BYTES as u64)
            .map_err(Failure)?;
        // Pages cite the file by its name, so the docs do not depend on where they are made.
        let file = path
            .file_name()
            .map_or(name.clone(), |f| f.to_string_lossy().into_owned());
        let files = crate::docs::render(fabric, &name, &file, &source);
        let dir = args.out.join(&name);
        let gone = format!("not made from {} any more", path.display());
        let synced = super::sync_folder(
            &dir,
            &files,
            &crate::docs::is_doc_file,
            args.check,
            &gone,
            color,
        )?;
        stale += synced.stale;
        if !args.check {
            outln!(
                "{}: {} file(s) → {}/ ({} written, {} unchanged, {} removed)",
                path.display(),
                files.len(),
                dir.display(),
                synced.written,
                synced.unchanged,
                synced.removed
            );
        }
    }
    if args.check {
        if stale > 0 {
            errln!("{stale} doc file(s) are stale; run `fabric docs` and commit the result");
            return Ok(exit::FINDINGS);
        }
        outln!("docs are up to date");
    }
    Ok(exit::OK)
}
