//! `df64gl`: parses the command line and hands it to [`df64gl_cli::commands::run`].

use std::process::ExitCode;

use clap::Parser;

use df64gl_cli::commands::args::Cli;
use df64gl_cli::commands::run;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("df64gl: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
