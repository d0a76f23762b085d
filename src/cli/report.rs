//! `tsume report`: the composer's report as an HTML page or Markdown, or
//! the solution tree as KIF.

use super::check::{exit_code, prepare, run_audit, AuditArgs};
use super::output::{emit, note, plain, usage};
use std::io::Write;

pub(super) fn run_report(args: AuditArgs, out: Option<String>) -> i32 {
    let (problem, opts) = match prepare(&args) {
        Ok(x) => x,
        Err(e) => return usage(e),
    };
    let ext = out.as_deref().map(|p| {
        std::path::Path::new(p)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default()
    });
    // Open the output before the audit, which can take long.
    let file = match out.as_deref().map(std::fs::File::create).transpose() {
        Ok(f) => f,
        Err(e) => {
            return usage(format_args!(
                "cannot write {}: {}",
                out.unwrap_or_default(),
                plain(&e)
            ))
        }
    };
    let a = match run_audit(&problem, opts, args.hash) {
        Ok(a) => a,
        Err(e) => return usage(e),
    };
    let text = match ext.as_deref() {
        Some("md" | "markdown") => tsume::report::markdown(&problem, &a),
        Some("kif" | "kifu") => tsume::report::kif(&problem, &a),
        _ => tsume::report::html(&problem, &a),
    };
    match (file, out) {
        (Some(mut file), Some(path)) => {
            if let Err(e) = file.write_all(text.as_bytes()) {
                return usage(format_args!("cannot write {path}: {}", plain(&e)));
            }
            note(format_args!(
                "{}: {} ({})",
                path,
                a.verdict.as_str(),
                tsume::report::reason::english(&a.reason)
            ));
            exit_code(a.verdict)
        }
        _ => emit(&text).code(exit_code(a.verdict)),
    }
}
