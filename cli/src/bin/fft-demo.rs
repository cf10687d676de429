//! `fft-demo`: parses the command line and hands it to
//! [`df64gl_cli::commands::fft_demo::run_fft_demo`].

use std::process::ExitCode;

use clap::Parser;

use df64gl_cli::commands::fft_demo::{run_fft_demo, FftDemoCli};

fn main() -> ExitCode {
    match run_fft_demo(FftDemoCli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fft-demo: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
