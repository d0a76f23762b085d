//! `tsume report`: the composer's report as an HTML page or Markdown.

use super::check::{exit_code, prepare, run_audit, AuditArgs};
use super::emit;

pub(super) fn run_report(args: AuditArgs, out: Option<String>) -> i32 {
    let (problem, opts) = match prepare(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let markdown = out.as_deref().is_some_and(|p| {
        let p = p.to_ascii_lowercase();
        p.ends_with(".md") || p.ends_with(".markdown")
    });
    let a = run_audit(&problem, opts, args.hash);
    let text = if markdown {
        tsume::report::markdown(&problem, &a)
    } else {
        tsume::report::html(&problem, &a)
    };
    match out {
        None => {
            let code = emit(&text);
            if code != 0 {
                return code;
            }
        }
        Some(path) => {
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("error: writing {path}: {e}");
                return 2;
            }
            eprintln!("{}: {} ({})", path, a.verdict.as_str(), a.reason);
        }
    }
    exit_code(a.verdict)
}
