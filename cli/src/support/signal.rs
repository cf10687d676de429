//! Signals for the FFT demo: the embedded default, and reading and writing CSV (decimals of
//! any length and magnitude), WAV, raw little-endian f64 pairs and raw df64 or qf128 words.
//! Everything is held block-scaled ([`BlockScaled`]), so no value a file can hold is lost on
//! the way in or out.

use std::path::Path;

use astro_float::BigFloat;
use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;

use df64gl::fft::scale::{format_decimal, ldexp, parse_wide_decimal};
use df64gl::fft::{BlockScaled, FftPrecision};
use df64gl::numeric::oracle::big;
use df64gl::numeric::qf128::{ComplexQf128, Qf128};

use crate::error::ExperimentError;

/// Input and output file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SignalFormat {
    /// Text, one sample a line: `re,im` or a single real value, decimals of any length and
    /// exponent (read at 256 bits); `#` starts a comment, a header line of names is skipped.
    /// Written with as many significant digits as the precision holds (f32 9, df64 17,
    /// qf128 36).
    Csv,
    /// PCM or float WAV; the first channel, integers scaled to [-1, 1).
    Wav,
    /// Little-endian f64 pairs re, im (16 bytes a sample).
    Raw,
    /// Little-endian f32 words re.hi, re.lo, im.hi, im.lo (16 bytes a sample).
    RawDf64,
    /// Little-endian f32 words, four for re then four for im (32 bytes a sample).
    RawQf128,
}

impl SignalFormat {
    /// From the file extension (.csv/.txt, .wav, .df64, .qf128, anything else raw f64).
    pub fn from_path(path: &Path) -> Self {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("csv") | Some("txt") => SignalFormat::Csv,
            Some("wav") => SignalFormat::Wav,
            Some("df64") => SignalFormat::RawDf64,
            Some("qf128") => SignalFormat::RawQf128,
            _ => SignalFormat::Raw,
        }
    }

    /// f32 words a sample in the raw word formats.
    fn words(self) -> Option<usize> {
        match self {
            SignalFormat::RawDf64 => Some(4),
            SignalFormat::RawQf128 => Some(8),
            _ => None,
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
    ExperimentError::Input(format!("{}: {detail}", path.display()))
}

/// Reads a signal; `format` defaults to the one the extension names.
pub fn read_signal(
    path: &Path,
    format: Option<SignalFormat>,
) -> Result<BlockScaled, ExperimentError> {
    let format = format.unwrap_or_else(|| SignalFormat::from_path(path));
    let scaled = match format {
        SignalFormat::Csv => {
            let bytes = std::fs::read(path).map_err(io_err(path))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                bad(
                    path,
                    format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
                )
            })?;
            BlockScaled::from_big(&parse_csv(&text).map_err(|e| bad(path, e))?)
        }
        SignalFormat::Raw => {
            let bytes = std::fs::read(path).map_err(io_err(path))?;
            BlockScaled::from_f64(&parse_raw_f64(&bytes).map_err(|e| bad(path, e))?)
        }
        SignalFormat::RawDf64 | SignalFormat::RawQf128 => {
            let bytes = std::fs::read(path).map_err(io_err(path))?;
            BlockScaled::from_qf128(
                &parse_raw_words(&bytes, format).map_err(|e| bad(path, e))?,
                0,
            )
        }
        SignalFormat::Wav => BlockScaled::from_f64(&read_wav(path)?),
    }
    .map_err(|e| match e {
        df64gl::fft::FftError::NonFinite(i) => bad(
            path,
            format!("sample {i} is NaN or infinite: the FFT needs finite input"),
        ),
        e => e.into(),
    })?;
    if scaled.is_empty() {
        return Err(bad(path, "no samples".into()));
    }
    Ok(scaled)
}

/// `re,im` or one real value a line, each a decimal of any length; errors name the line and
/// the field.
pub fn parse_csv(text: &str) -> Result<Vec<[BigFloat; 2]>, String> {
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
        let parsed: Vec<Option<BigFloat>> = fields.iter().map(|f| parse_wide_decimal(f)).collect();
        if out.is_empty() && parsed.iter().all(Option::is_none) {
            continue; // a header of column names on the first data line
        }
        if let Some(k) = parsed.iter().position(Option::is_none) {
            let f = fields[k];
            let why = if [
                "nan",
                "inf",
                "infinity",
                "+inf",
                "-inf",
                "-infinity",
                "+infinity",
            ]
            .contains(&f.to_ascii_lowercase().as_str())
            {
                "is not finite: the FFT needs finite input"
            } else {
                "is not a decimal number (digits, an optional sign, point and exponent of at most 5 digits)"
            };
            return Err(format!(
                "line {}, field {}: `{f}` {why}",
                line_no + 1,
                k + 1
            ));
        }
        let v: Vec<BigFloat> = parsed.into_iter().flatten().collect();
        match v.len() {
            1 => out.push([v[0].clone(), big(0.0)]),
            2 => out.push([v[0].clone(), v[1].clone()]),
            n => {
                return Err(format!(
                    "line {}: {n} values; expected `re,im` or one real value",
                    line_no + 1
                ))
            }
        }
    }
    Ok(out)
}

/// Little-endian f64 pairs.
pub fn parse_raw_f64(bytes: &[u8]) -> Result<Vec<Complex64>, String> {
    if !bytes.len().is_multiple_of(16) {
        return Err(format!(
            "{} bytes is not a whole number of (re, im) f64 pairs (16 bytes each): {} bytes \
             left over after sample {}",
            bytes.len(),
            bytes.len() % 16,
            bytes.len() / 16
        ));
    }
    let f = |b: &[u8]| f64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    Ok(bytes
        .chunks_exact(16)
        .map(|c| Complex64::new(f(&c[..8]), f(&c[8..])))
        .collect())
}

/// Little-endian df64 or qf128 words (re's words, then im's).
pub fn parse_raw_words(bytes: &[u8], format: SignalFormat) -> Result<Vec<ComplexQf128>, String> {
    let words = format.words().unwrap_or(4);
    let size = 4 * words;
    if !bytes.len().is_multiple_of(size) {
        return Err(format!(
            "{} bytes is not a whole number of samples of {words} f32 words ({size} bytes each): \
             {} bytes left over after sample {}",
            bytes.len(),
            bytes.len() % size,
            bytes.len() / size
        ));
    }
    Ok(bytes
        .chunks_exact(size)
        .map(|c| {
            let w: Vec<f32> = c
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap_or([0; 4])))
                .collect();
            let half = words / 2;
            let part = |ws: &[f32]| {
                let mut x = [0.0f32; 4];
                x[..ws.len()].copy_from_slice(ws);
                Qf128 { x }
            };
            ComplexQf128::new(part(&w[..half]), part(&w[half..]))
        })
        .collect())
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
            let scale = 2f64.powi(spec.bits_per_sample.clamp(1, 32) as i32 - 1);
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

/// Significant decimal digits written for each precision's results: enough to give back every
/// bit the precision holds.
pub fn csv_digits(precision: FftPrecision) -> usize {
    match precision {
        FftPrecision::F32 => 9,
        FftPrecision::Df64 => 17,
        FftPrecision::Qf128 => 36,
        FftPrecision::F64 => 17,
    }
}

/// Writes `values` as CSV (`re,im`, [`csv_digits`] significant digits, any magnitude), raw
/// f64 pairs, or raw df64/qf128 words (values must then lie in f32's exponent range).
pub fn write_signal(
    path: &Path,
    format: Option<SignalFormat>,
    values: &BlockScaled,
    precision: FftPrecision,
) -> Result<(), ExperimentError> {
    let format = format.unwrap_or_else(|| SignalFormat::from_path(path));
    let bytes: Vec<u8> = match format {
        SignalFormat::Csv => {
            let digits = csv_digits(precision);
            let f64_ok = precision != FftPrecision::Qf128;
            let mut s = String::from("re,im\n");
            let as_f64 = if f64_ok { values.to_f64().ok() } else { None };
            for i in 0..values.len() {
                match &as_f64 {
                    // f64 holds f32 and df64 results to the digits written.
                    Some(v) => s.push_str(&format!(
                        "{:.*e},{:.*e}\n",
                        digits - 1,
                        v[i].re,
                        digits - 1,
                        v[i].im
                    )),
                    None => {
                        let [re, im] = values.to_big(i);
                        s.push_str(&format!(
                            "{},{}\n",
                            format_decimal(&re, digits),
                            format_decimal(&im, digits)
                        ));
                    }
                }
            }
            s.into_bytes()
        }
        SignalFormat::Raw => values
            .to_f64()
            .map_err(|e| bad(path, format!("{e}")))?
            .iter()
            .flat_map(|z| z.re.to_le_bytes().into_iter().chain(z.im.to_le_bytes()))
            .collect(),
        SignalFormat::RawDf64 | SignalFormat::RawQf128 => {
            let per_part = format.words().unwrap_or(4) / 2;
            let mut out = Vec::with_capacity(values.len() * per_part * 8);
            for (i, z) in values.words.iter().enumerate() {
                for part in [z.re, z.im] {
                    let words: Vec<f32> = if per_part == 2 {
                        let d = part.to_df64();
                        vec![d.hi, d.lo]
                    } else {
                        part.x.to_vec()
                    };
                    for w in words {
                        let v = ldexp(w as f64, values.exponent) as f32;
                        if !v.is_finite() {
                            return Err(bad(
                                path,
                                format!(
                                    "element {i} exceeds f32's exponent range, which raw words \
                                     cannot hold: write .csv instead"
                                ),
                            ));
                        }
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            out
        }
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

    fn f64s(v: &[[BigFloat; 2]]) -> Vec<Complex64> {
        v.iter()
            .map(|[re, im]| {
                Complex64::new(
                    df64gl::numeric::oracle::to_f64(re),
                    df64gl::numeric::oracle::to_f64(im),
                )
            })
            .collect()
    }

    #[test]
    fn csv_reads_pairs_reals_headers_and_reports_bad_lines() {
        let v = parse_csv("re,im\n1,2\n# comment\n3.5, -4\n").unwrap();
        assert_eq!(
            f64s(&v),
            vec![Complex64::new(1.0, 2.0), Complex64::new(3.5, -4.0)]
        );
        let v = parse_csv("0.5\n-1e-3\n1e400,-2.5e-400\n").unwrap();
        assert_eq!(f64s(&v)[1], Complex64::new(-1e-3, 0.0));
        // Beyond f64's range, still finite and exact in the oracle.
        assert_eq!(v[2][0].exponent(), Some(1329));
        let e = parse_csv("1,2\n3,x\n").unwrap_err();
        assert!(e.contains("line 2, field 2") && e.contains("`x`"), "{e}");
        let e = parse_csv("1,2,3\n").unwrap_err();
        assert!(e.contains("re,im"), "{e}");
        let e = parse_csv("1,2\nnan,0\n").unwrap_err();
        assert!(
            e.contains("line 2, field 1") && e.contains("not finite"),
            "{e}"
        );
    }

    #[test]
    fn files_round_trip_at_full_precision_and_bad_files_are_clear() {
        let dir = std::env::temp_dir().join(format!("df64gl-signal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let v = vec![
            Complex64::new(0.1, -2.5e-300),
            Complex64::new(1.0 / 3.0, 7.0),
        ];
        let data = BlockScaled::from_f64(&v).unwrap();
        // -2.5e-300 lies about 2^-999 below the largest part (7): flushed, and counted.
        assert_eq!(data.underflow.flushed, 1);
        let kept = data.to_f64().unwrap();
        for name in ["a.csv", "a.raw", "a.qf128"] {
            let p = dir.join(name);
            write_signal(&p, None, &data, FftPrecision::Qf128).unwrap();
            assert_eq!(
                read_signal(&p, None).unwrap().to_f64().unwrap(),
                kept,
                "{name}"
            );
        }
        // qf128 words survive CSV: 36 digits give back every word.
        let third = parse_wide_decimal("0.333333333333333333333333333333333333333333").unwrap();
        let q = BlockScaled::from_big(&[[third, big(1e-20)]]).unwrap();
        let p = dir.join("q.csv");
        write_signal(&p, None, &q, FftPrecision::Qf128).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        // qf128 holds 1/3 to about 29 digits; 36 are written so the words come back exactly.
        assert!(
            text.contains("3.33333333333333333333333333333")
                && text.contains(",9.99999999999999945153271454209571652e-21"),
            "{text}"
        );
        assert_eq!(read_signal(&p, None).unwrap().words, q.words);
        let p = dir.join("d.df64");
        write_signal(&p, None, &q, FftPrecision::Df64).unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().len(), 16);
        let big_values = BlockScaled::from_f64(&[Complex64::new(1e300, 0.0)]).unwrap();
        let e = write_signal(&p, None, &big_values, FftPrecision::Df64)
            .unwrap_err()
            .to_string();
        assert!(e.contains("element 0") && e.contains(".csv"), "{e}");

        let p = dir.join("odd.raw");
        std::fs::write(&p, [0u8; 20]).unwrap();
        let e = read_signal(&p, None).unwrap_err().to_string();
        assert!(
            e.contains("16 bytes") && e.contains("after sample 1"),
            "{e}"
        );
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
        let got = read_signal(&p, None).unwrap().to_f64().unwrap();
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
