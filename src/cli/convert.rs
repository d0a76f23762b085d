//! `tsume convert`: problems between formats.

use tsume::problem::{load_arg, OutputFormat};

pub(super) fn run_convert(input: &str, to: OutputFormat) -> i32 {
    let mut code = 0;
    let mut first = true;
    for result in load_arg(input) {
        match result {
            Ok(problem) => {
                let text = problem.write(to);
                // Multi-record KIF/KI2/CSA output: separate records.
                if !first && matches!(to, OutputFormat::Kif | OutputFormat::Ki2) {
                    println!();
                } else if !first && to == OutputFormat::Csa {
                    println!("/");
                }
                print!("{text}");
                first = false;
            }
            Err(e) => {
                eprintln!("error: {e}");
                code = 2;
            }
        }
    }
    code
}
