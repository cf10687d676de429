//! The qf128 WGSL export as the df64 one plus what it adds: `df64gl wgsl --qf128` is
//! `df64gl wgsl` with another first line and two blocks inserted (qf128's constants, its
//! functions), so the npm module stores the df64 text once and composes the qf128 one.

use crate::error::ExperimentError;

/// Lines that must agree after a candidate match before it is taken as the end of an inserted
/// block (a single `}` or blank line matches anywhere). Any split that composes both texts
/// back is right; the last check in [`compose`] holds it to that.
const ANCHOR_LINES: usize = 8;

/// `df64` cut into pieces and the texts `both` puts around them: `both` is
/// `inserted[0] + df64_pieces[1] + inserted[1] + df64_pieces[2] + ...`, where `inserted[0]`
/// replaces `df64_pieces[0]` (the first line) and `inserted[k]` follows piece `k`.
#[derive(Debug, PartialEq)]
pub struct Composition {
    /// The df64 text, cut where the qf128 text inserts a block.
    pub df64_pieces: Vec<String>,
    /// The qf128 text's first line, then the block after each piece but the first.
    pub inserted: Vec<String>,
}

impl Composition {
    /// The df64 text again.
    pub fn df64(&self) -> String {
        self.df64_pieces.concat()
    }

    /// The composed text.
    pub fn both(&self) -> String {
        let mut out = self.inserted.first().cloned().unwrap_or_default();
        for (k, piece) in self.df64_pieces.iter().enumerate().skip(1) {
            out.push_str(piece);
            if let Some(extra) = self.inserted.get(k) {
                out.push_str(extra);
            }
        }
        out
    }
}

/// Splits `both` into `df64`'s lines and the blocks between them; an error where `both` is not
/// `df64` with its first line replaced and whole lines inserted.
pub fn compose(df64: &str, both: &str) -> Result<Composition, ExperimentError> {
    let a: Vec<&str> = df64.split_inclusive('\n').collect();
    let b: Vec<&str> = both.split_inclusive('\n').collect();
    let (Some(first_a), Some(first_b)) = (a.first(), b.first()) else {
        return Err(ExperimentError::Invalid("an empty WGSL export".into()));
    };
    let agrees = |i: usize, j: usize| {
        let n = ANCHOR_LINES.min(a.len() - i);
        j + n <= b.len() && (0..n).all(|t| a[i + t] == b[j + t])
    };
    let mut df64_pieces = vec![first_a.to_string()];
    let mut inserted = vec![first_b.to_string()];
    let (mut i, mut j) = (1, 1);
    let mut piece = String::new();
    while i < a.len() {
        if j < b.len() && a[i] == b[j] {
            piece.push_str(a[i]);
            i += 1;
            j += 1;
            continue;
        }
        // An inserted block: from j to the first line after which df64's text goes on.
        let start = j;
        while j < b.len() && !agrees(i, j) {
            j += 1;
        }
        if j >= b.len() {
            return Err(ExperimentError::Invalid(format!(
                "the qf128 WGSL export does not contain the df64 one's line {}: not a df64 \
                 export with blocks inserted",
                i + 1
            )));
        }
        df64_pieces.push(std::mem::take(&mut piece));
        inserted.push(b[start..j].concat());
    }
    df64_pieces.push(piece);
    inserted.push(b[j..].concat());
    let composition = Composition {
        df64_pieces,
        inserted,
    };
    if composition.df64() != df64 || composition.both() != both {
        return Err(ExperimentError::Invalid(
            "the composed WGSL differs from the exports".into(),
        ));
    }
    Ok(composition)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(prefix: &str, n: usize) -> String {
        (0..n).map(|k| format!("{prefix} {k}\n")).collect()
    }

    #[test]
    fn a_replaced_first_line_and_two_insertions_compose_back() {
        let body = lines("df64", 40);
        let df64 = format!("// df64\n{body}");
        let (head, tail) = body.split_at(body.find("df64 20").unwrap());
        let both = format!(
            "// df64 and qf128\n{head}{}{tail}{}",
            lines("const", 3),
            lines("fn qf", 5)
        );
        let c = compose(&df64, &both).unwrap();
        assert_eq!(c.df64(), df64);
        assert_eq!(c.both(), both);
        // The df64 text appears once: its pieces are df64's lines, the insertions qf128's only.
        assert_eq!(c.inserted.len(), 3);
        assert!(c.inserted.iter().skip(1).all(|t| !t.contains("df64 ")));
    }

    #[test]
    fn a_changed_line_is_an_error() {
        let df64 = format!("// a\n{}", lines("x", 20));
        let both = df64.replace("x 10\n", "y 10\n").replace("// a", "// b");
        assert!(compose(&df64, &both).is_err());
    }
}
