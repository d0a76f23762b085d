//! The `tsume` command-line program.
mod cli;

fn main() {
    std::process::exit(cli::run());
}
