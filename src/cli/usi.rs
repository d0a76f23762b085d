//! `tsume usi`: the USI mate engine on stdin/stdout.

/// Run the engine loop on stdin and stdout until `quit` or end of input.
/// A closed stdout (the GUI went away) ends the loop quietly.
pub(super) fn run_usi() -> i32 {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout();
    match tsume::usi_engine::run(stdin, stdout) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
