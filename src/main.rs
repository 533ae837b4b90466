//! Tanktable's one binary: the 3D client without arguments, headless subcommands with.
fn main() -> std::process::ExitCode {
    tanktable::cli::main()
}
