//! How the npm module stores a routine's known answers: lossless and about half of their plain
//! base64, so that a page checking every routine stays small. The numbers of each array
//! are written column by column (each field of the rows together: exponents and zero words line
//! up), the exact value's high word XORed with the f64 sum of the mirror's words (the two agree
//! in sign, exponent and most of the fraction, so the XOR is mostly zero bytes), then the whole
//! deflated (RFC 1951) and put in base64. `js/src/check/known-answers.js` undoes each step.

use base64::Engine;

use crate::error::ExperimentError;

/// A routine's numbers in the stored order: the f32s, the f64s, the kinds.
pub type AnswerNumbers = (Vec<f32>, Vec<f64>, Vec<u8>);

/// Where a row's mirror words are, which tells the row widths too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PackLayout {
    /// A scalar routine of `words`-word numbers: per case a, b, the mirror's words and the bound
    /// (f32s), the exact value's three words (f64s).
    Scalar {
        /// f32 words per number: 2 for df64, 4 for qf128.
        words: usize,
    },
    /// A vector routine: per evaluation its operands' words and each component's two mirror
    /// words (f32s); per component the exact value's three words and the unit's size (f64s).
    Vector {
        /// Two-word numbers in an evaluation's operands.
        inputs: usize,
        /// Components of its result.
        outputs: usize,
    },
}

impl PackLayout {
    /// f32s per row (a case, or an evaluation).
    fn f32_row(self) -> usize {
        match self {
            PackLayout::Scalar { words } => 3 * words + 1,
            PackLayout::Vector { inputs, outputs } => 2 * (inputs + outputs),
        }
    }

    /// f64s per row (a case, or a component).
    fn f64_row(self) -> usize {
        match self {
            PackLayout::Scalar { .. } => 3,
            PackLayout::Vector { .. } => 4,
        }
    }

    /// The f64 sum, in order, of the mirror's words of f64 row `row`; zero where it is not
    /// finite (a NaN's bits need not survive a round trip through a JavaScript number).
    fn mirror_sum(self, f32s: &[f32], row: usize) -> f64 {
        let words = match self {
            PackLayout::Scalar { words } => {
                let at = row * self.f32_row() + 2 * words;
                f32s.get(at..at + words)
            }
            PackLayout::Vector { inputs, outputs } => {
                let at = (row / outputs.max(1)) * self.f32_row()
                    + 2 * inputs
                    + 2 * (row % outputs.max(1));
                f32s.get(at..at + 2)
            }
        };
        let sum = words
            .unwrap_or(&[])
            .iter()
            .fold(0.0f64, |s, &w| s + f64::from(w));
        if sum.is_finite() {
            sum
        } else {
            0.0
        }
    }
}

/// `values` (rows of `width` words) as columns; of columns of `width` words, the rows again.
fn columns<T: Copy>(values: &[T], width: usize) -> Vec<T> {
    let rows = values.len() / width.max(1);
    let mut out = Vec::with_capacity(values.len());
    for col in 0..width {
        out.extend((0..rows).filter_map(|r| values.get(r * width + col)));
    }
    out
}

/// The bytes before deflating: the f32s' bits by columns, the f64s' bits by columns (the first
/// column XORed with the mirror sums), the kinds.
fn transformed(
    layout: PackLayout,
    f32s: &[f32],
    f64s: &[f64],
    kinds: &[u8],
) -> Result<Vec<u8>, ExperimentError> {
    let (w32, w64) = (layout.f32_row(), layout.f64_row());
    let rows64 = f64s.len() / w64;
    if !f32s.len().is_multiple_of(w32) || !f64s.len().is_multiple_of(w64) || kinds.len() != rows64 {
        return Err(ExperimentError::Invalid(format!(
            "known answers of {} f32s, {} f64s and {} kinds do not fit the layout {layout:?}",
            f32s.len(),
            f64s.len(),
            kinds.len()
        )));
    }
    let mut wide: Vec<u64> = f64s.iter().map(|x| x.to_bits()).collect();
    for row in 0..rows64 {
        if let Some(w) = wide.get_mut(row * w64) {
            *w ^= layout.mirror_sum(f32s, row).to_bits();
        }
    }
    let narrow: Vec<u32> = f32s.iter().map(|x| x.to_bits()).collect();
    let mut bytes = Vec::with_capacity(4 * f32s.len() + 8 * f64s.len() + kinds.len());
    for w in columns(&narrow, w32) {
        bytes.extend(w.to_le_bytes());
    }
    for w in columns(&wide, w64) {
        bytes.extend(w.to_le_bytes());
    }
    bytes.extend(kinds);
    Ok(bytes)
}

/// A routine's answers as the module stores them: base64 of the deflated, transformed numbers.
pub fn pack(
    layout: PackLayout,
    f32s: &[f32],
    f64s: &[f64],
    kinds: &[u8],
) -> Result<String, ExperimentError> {
    let bytes = transformed(layout, f32s, f64s, kinds)?;
    let deflated = miniz_oxide::deflate::compress_to_vec(&bytes, 10);
    Ok(base64::engine::general_purpose::STANDARD.encode(deflated))
}

/// The numbers back from [`pack`]'s text, given how many of each there are: what the npm
/// module's reader does, here to prove the form loses nothing.
pub fn unpack(
    layout: PackLayout,
    text: &str,
    counts: (usize, usize, usize),
) -> Result<AnswerNumbers, ExperimentError> {
    let bad = |why: &str| ExperimentError::Invalid(format!("packed known answers: {why}"));
    let deflated = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| bad(&e.to_string()))?;
    let bytes =
        miniz_oxide::inflate::decompress_to_vec(&deflated).map_err(|e| bad(&format!("{e:?}")))?;
    let (n32, n64, nk) = counts;
    if bytes.len() != 4 * n32 + 8 * n64 + nk {
        return Err(bad("the length does not match the counts"));
    }
    let (narrow, rest) = bytes.split_at(4 * n32);
    let (wide, kinds) = rest.split_at(8 * n64);
    let narrow: Vec<u32> = narrow
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let wide: Vec<u64> = wide
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect();
    let (w32, w64) = (layout.f32_row(), layout.f64_row());
    let f32s: Vec<f32> = columns(&narrow, n32 / w32.max(1))
        .into_iter()
        .map(f32::from_bits)
        .collect();
    let mut wide = columns(&wide, n64 / w64.max(1));
    for row in 0..n64 / w64 {
        if let Some(w) = wide.get_mut(row * w64) {
            *w ^= layout.mirror_sum(&f32s, row).to_bits();
        }
    }
    Ok((
        f32s,
        wide.into_iter().map(f64::from_bits).collect(),
        kinds.to_vec(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_bits(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
    }

    #[test]
    fn a_scalar_routine_comes_back_bit_for_bit_nans_and_infinities_included() {
        // Two df64 cases: an ordinary one and one whose mirror is a NaN with a payload.
        let nan = f32::from_bits(0x7fc0_1234);
        let f32s = [
            3.0,
            1e-8,
            2.0,
            -1e-9,
            6.0,
            2e-8,
            0.5, //
            nan,
            0.0,
            1.0,
            0.0,
            nan,
            f32::INFINITY,
            0.5,
        ];
        let f64s = [
            6.000_000_02,
            1e-25,
            -1e-42,
            f64::from_bits(0x7ff8_0000_0000_0abc),
            0.0,
            0.0,
        ];
        let kinds = [0u8, 1];
        let layout = PackLayout::Scalar { words: 2 };
        let text = pack(layout, &f32s, &f64s, &kinds).unwrap();
        let (a, b, c) = unpack(layout, &text, (14, 6, 2)).unwrap();
        assert!(a.iter().zip(&f32s).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert!(same_bits(&b, &f64s));
        assert_eq!(c, kinds);
    }

    #[test]
    fn a_vector_routine_comes_back_bit_for_bit() {
        // Two evaluations of a routine of one two-word input and two outputs.
        let f32s = [
            1.0, 1e-9, 2.0, 3e-9, -4.0, 0.0, 5.0, 1e-8, 6.0, -2e-9, 7.0, 0.0,
        ];
        let f64s = [
            2.0,
            1e-30,
            0.0,
            7.105_427_357_601_002e-15,
            -4.0,
            0.0,
            0.0,
            2.842_170_943_040_401e-14,
            6.0,
            0.0,
            0.0,
            2.842_170_943_040_401e-14,
            7.0,
            0.0,
            0.0,
            2.842_170_943_040_401e-14,
        ];
        let kinds = [0u8, 2, 0, 3];
        let layout = PackLayout::Vector {
            inputs: 1,
            outputs: 2,
        };
        let text = pack(layout, &f32s, &f64s, &kinds).unwrap();
        let (a, b, c) = unpack(layout, &text, (12, 16, 4)).unwrap();
        assert_eq!(a, f32s);
        assert!(same_bits(&b, &f64s));
        assert_eq!(c, kinds);
    }

    #[test]
    fn numbers_that_do_not_fit_the_layout_are_an_error() {
        let layout = PackLayout::Scalar { words: 2 };
        assert!(pack(layout, &[1.0; 6], &[0.0; 3], &[0]).is_err());
        assert!(pack(layout, &[1.0; 7], &[0.0; 3], &[0, 0]).is_err());
    }
}
