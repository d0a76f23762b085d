//! `tsume convert`: problems between formats.

use super::output::{emit, error, Emitted};
use super::USAGE;
use tsume::problem::{load_arg, OutputFormat};

pub(super) fn run_convert(input: &str, to: OutputFormat) -> i32 {
    let mut code = 0;
    let mut first = true;
    for result in load_arg(input) {
        match result {
            Ok(problem) => {
                let mut text = String::new();
                // Multi-record KIF/KI2/CSA output: separate records.
                if !first && matches!(to, OutputFormat::Kif | OutputFormat::Ki2) {
                    text.push('\n');
                } else if !first && to == OutputFormat::Csa {
                    text.push_str("/\n");
                }
                text.push_str(&problem.write(to));
                first = false;
                match emit(&text) {
                    Emitted::Done => {}
                    Emitted::Closed => return code,
                    Emitted::Failed => return USAGE,
                }
            }
            Err(e) => {
                error(e);
                code = USAGE;
            }
        }
    }
    code
}
