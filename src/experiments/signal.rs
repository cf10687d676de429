//! Signals for the FFT demo: the embedded default, and reading and writing CSV, WAV and raw
//! little-endian f64 files.

use std::path::Path;

use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;

use super::ExperimentError;

/// Input and output file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SignalFormat {
    /// Text, one sample a line: `re,im` or a single real value; `#` starts a comment, a
    /// header line of names is skipped.
    Csv,
    /// PCM or float WAV; the first channel, integers scaled to [-1, 1).
    Wav,
    /// Little-endian f64 pairs re, im (16 bytes a sample).
    Raw,
}

impl SignalFormat {
    /// From the file extension (.csv/.txt, .wav, anything else raw).
    pub fn from_path(path: &Path) -> Self {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("csv") | Some("txt") => SignalFormat::Csv,
            Some("wav") => SignalFormat::Wav,
            _ => SignalFormat::Raw,
        }
    }
}

/// Tones at the default signal's bins: (bin, amplitude). Levels from 1 down to 1e-12 so the
/// spectrum shows which precision resolves which tone (f32's noise floor hides the small ones).
pub const DEFAULT_TONES: [(usize, f64); 5] = [
    (1000, 1.0),
    (4321, 1e-3),
    (12345, 1e-6),
    (20000, 1e-9),
    (30000, 1e-12),
];

/// The embedded default: `n` samples of the tones above (exact bins for n = 2^16, scaled
/// proportionally for other sizes) plus seeded uniform noise of amplitude 1e-14 on each part.
pub fn default_signal(n: usize) -> Vec<Complex64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2007);
    (0..n)
        .map(|t| {
            let mut z = Complex64::new(0.0, 0.0);
            for (bin, amp) in DEFAULT_TONES {
                let k = (bin * n / 65536) % n.max(1);
                // (k t mod n) keeps the angle exact before the f64 sin/cos.
                let phase = 2.0 * std::f64::consts::PI * ((k * t) % n) as f64 / n as f64;
                z += Complex64::new(phase.cos(), phase.sin()) * amp;
            }
            z + Complex64::new(rng.gen_range(-1e-14..1e-14), rng.gen_range(-1e-14..1e-14))
        })
        .collect()
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> ExperimentError + '_ {
    move |e| ExperimentError::Io(path.display().to_string(), e)
}

fn bad(path: &Path, detail: String) -> ExperimentError {
    ExperimentError::Invalid(format!("{}: {detail}", path.display()))
}

/// Reads a signal; `format` defaults to the one the extension names.
pub fn read_signal(
    path: &Path,
    format: Option<SignalFormat>,
) -> Result<Vec<Complex64>, ExperimentError> {
    let format = format.unwrap_or_else(|| SignalFormat::from_path(path));
    let values = match format {
        SignalFormat::Csv => {
            parse_csv(path, &std::fs::read_to_string(path).map_err(io_err(path))?)?
        }
        SignalFormat::Raw => {
            let bytes = std::fs::read(path).map_err(io_err(path))?;
            if bytes.len() % 16 != 0 {
                return Err(bad(
                    path,
                    format!(
                        "{} bytes is not a whole number of (re, im) f64 pairs (16 bytes each)",
                        bytes.len()
                    ),
                ));
            }
            bytes
                .chunks_exact(16)
                .map(|c| {
                    let f = |b: &[u8]| f64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                    Complex64::new(f(&c[..8]), f(&c[8..]))
                })
                .collect()
        }
        SignalFormat::Wav => read_wav(path)?,
    };
    if values.is_empty() {
        return Err(bad(path, "no samples".into()));
    }
    if let Some(i) = values
        .iter()
        .position(|z| !z.re.is_finite() || !z.im.is_finite())
    {
        return Err(bad(
            path,
            format!("sample {i} is NaN or infinite: the FFT needs finite input"),
        ));
    }
    Ok(values)
}

fn parse_csv(path: &Path, text: &str) -> Result<Vec<Complex64>, ExperimentError> {
    let mut out = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line
            .split([',', ';', '\t', ' '])
            .filter(|f| !f.is_empty())
            .collect();
        let parsed: Result<Vec<f64>, _> = fields.iter().map(|f| f.parse::<f64>()).collect();
        match parsed {
            Ok(v) if v.len() == 1 => out.push(Complex64::new(v[0], 0.0)),
            Ok(v) if v.len() == 2 => out.push(Complex64::new(v[0], v[1])),
            Ok(v) => {
                return Err(bad(
                    path,
                    format!(
                        "line {}: {} values; expected `re,im` or one real value",
                        line_no + 1,
                        v.len()
                    ),
                ))
            }
            // A header of column names on the first data line.
            Err(_) if out.is_empty() && fields.iter().all(|f| f.parse::<f64>().is_err()) => {}
            Err(e) => return Err(bad(path, format!("line {}: {e} in `{line}`", line_no + 1))),
        }
    }
    Ok(out)
}

fn read_wav(path: &Path) -> Result<Vec<Complex64>, ExperimentError> {
    let wav_err = |e: hound::Error| bad(path, format!("not a readable WAV file: {e}"));
    let mut reader = hound::WavReader::open(path).map_err(wav_err)?;
    let spec = reader.spec();
    let channels = spec.channels.max(1) as usize;
    let samples: Vec<f64> = match spec.sample_format {
        hound::SampleFormat::Float => reader
            .samples::<f32>()
            .map(|s| s.map(|v| v as f64))
            .collect::<Result<_, _>>()
            .map_err(wav_err)?,
        hound::SampleFormat::Int => {
            let scale = 2f64.powi(spec.bits_per_sample as i32 - 1);
            reader
                .samples::<i32>()
                .map(|s| s.map(|v| v as f64 / scale))
                .collect::<Result<_, _>>()
                .map_err(wav_err)?
        }
    };
    Ok(samples
        .chunks(channels)
        .map(|frame| Complex64::new(frame[0], 0.0))
        .collect())
}

/// Writes `values` as CSV (`re,im`, 17 significant digits) or raw f64 pairs.
pub fn write_signal(
    path: &Path,
    format: Option<SignalFormat>,
    values: &[Complex64],
) -> Result<(), ExperimentError> {
    let format = format.unwrap_or_else(|| SignalFormat::from_path(path));
    let bytes: Vec<u8> = match format {
        SignalFormat::Csv => {
            let mut s = String::from("re,im\n");
            for z in values {
                s.push_str(&format!("{:.16e},{:.16e}\n", z.re, z.im));
            }
            s.into_bytes()
        }
        SignalFormat::Raw => values
            .iter()
            .flat_map(|z| z.re.to_le_bytes().into_iter().chain(z.im.to_le_bytes()))
            .collect(),
        SignalFormat::Wav => {
            return Err(bad(
                path,
                "WAV output is not supported (a spectrum is complex): write .csv or raw".into(),
            ))
        }
    };
    std::fs::write(path, bytes).map_err(io_err(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_reads_pairs_reals_headers_and_reports_bad_lines() {
        let p = Path::new("x.csv");
        let v = parse_csv(p, "re,im\n1,2\n# comment\n3.5, -4\n").unwrap();
        assert_eq!(v, vec![Complex64::new(1.0, 2.0), Complex64::new(3.5, -4.0)]);
        let v = parse_csv(p, "0.5\n-1e-3\n").unwrap();
        assert_eq!(v[1], Complex64::new(-1e-3, 0.0));
        let e = parse_csv(p, "1,2\n3,x\n").unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        let e = parse_csv(p, "1,2,3\n").unwrap_err().to_string();
        assert!(e.contains("re,im"), "{e}");
    }

    #[test]
    fn files_round_trip_and_bad_files_are_clear() {
        let dir = std::env::temp_dir().join(format!("df64gl-signal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let v = vec![
            Complex64::new(0.1, -2.5e-300),
            Complex64::new(1.0 / 3.0, 7.0),
        ];
        for name in ["a.csv", "a.raw"] {
            let p = dir.join(name);
            write_signal(&p, None, &v).unwrap();
            assert_eq!(read_signal(&p, None).unwrap(), v, "{name}");
        }
        let p = dir.join("odd.raw");
        std::fs::write(&p, [0u8; 20]).unwrap();
        assert!(read_signal(&p, None)
            .unwrap_err()
            .to_string()
            .contains("16 bytes"));
        let p = dir.join("t.wav");
        let spec = hound::WavSpec {
            channels: 2,
            sample_rate: 8000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(&p, spec).unwrap();
        for s in [16384i16, 1, -32768, 2] {
            w.write_sample(s).unwrap();
        }
        w.finalize().unwrap();
        let got = read_signal(&p, None).unwrap();
        assert_eq!(
            got,
            vec![Complex64::new(0.5, 0.0), Complex64::new(-1.0, 0.0)]
        );
        let p = dir.join("bad.wav");
        std::fs::write(&p, b"not a wav").unwrap();
        assert!(read_signal(&p, None)
            .unwrap_err()
            .to_string()
            .contains("WAV"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn default_signal_has_its_tones_in_their_bins() {
        let n = 1 << 12;
        let mut x = default_signal(n);
        rustfft::FftPlanner::<f64>::new()
            .plan_fft_forward(n)
            .process(&mut x);
        for (bin, amp) in DEFAULT_TONES {
            let k = bin * n / 65536;
            let got = x[k].norm() / n as f64;
            assert!(
                (got - amp).abs() < 1e-13 + amp * 1e-9,
                "bin {k}: {got} vs {amp}"
            );
        }
    }
}
