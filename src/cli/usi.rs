//! `tsume usi`: the USI mate engine on stdin/stdout.

/// Run the engine loop on stdin and stdout until `quit` or end of input.
/// A closed stdout (the GUI went away) ends the loop quietly; input that
/// cannot be read (stdin a directory, ...) or output that cannot be
/// written is an error with exit code 2.
pub(super) fn run_usi() -> i32 {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout();
    match tsume::usi_engine::run(stdin, stdout) {
        Ok(()) => 0,
        Err(e) if super::output::is_closed(&e) => 0,
        Err(e) => super::output::usage(format_args!("usi: {}", super::output::plain(&e))),
    }
}
