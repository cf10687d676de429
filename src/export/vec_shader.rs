//! The shader code that runs one vector or matrix routine of `df64_vec.glsl` on operands read as
//! flat df64 numbers and hands back its result components two at a time, in GLSL and in WGSL:
//! what every check (GL, WebGL 2, WebGPU) and the sweeps wrap in their own input and output.
//!
//! The code defines `df64gl_vec_out(e, t)`: evaluation `e`'s result components `2t` and `2t + 1`
//! as one vec4 (hi, lo, hi, lo; zeros past the last). It reads operand number `j` of evaluation
//! `e` through `df64gl_in(e, j)` (a vec2: hi, lo), which the harness defines. Operands are packed
//! as [`VecShape::numbers`] says: vectors component by component, matrices column by column, f32
//! operands as (value, 0).

use crate::numeric::vec_catalog::{VecOpRow, VecShape};

/// Output texels (two components each) of one evaluation of `row`.
pub(crate) fn out_texels(row: &VecOpRow) -> usize {
    row.output_numbers().div_ceil(2)
}

/// Input texels (two numbers each) of one evaluation of `row`.
pub(crate) fn in_texels(row: &VecOpRow) -> usize {
    row.input_numbers().div_ceil(2)
}

/// The language the code is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    Glsl,
    Wgsl,
}

impl Lang {
    fn f32_vec(self, n: usize) -> String {
        match (self, n) {
            (Lang::Glsl, 1) => "float".into(),
            (Lang::Glsl, _) => format!("vec{n}"),
            (Lang::Wgsl, 1) => "f32".into(),
            (Lang::Wgsl, _) => format!("vec{n}<f32>"),
        }
    }

    fn mat4(self) -> &'static str {
        match self {
            Lang::Glsl => "mat4",
            Lang::Wgsl => "mat4x4<f32>",
        }
    }
}

/// The constructor of one operand from the numbers `first..first + shape.numbers()`.
fn operand(lang: Lang, shape: VecShape, first: usize) -> String {
    let words = |n: usize, word: &str| -> Vec<String> {
        (first..first + n).map(|j| format!("n{j}.{word}")).collect()
    };
    let join = |v: Vec<String>| v.join(", ");
    match shape {
        VecShape::Df64 => format!("n{first}"),
        VecShape::F32 => format!("n{first}.x"),
        VecShape::F32Vec(n) => format!("{}({})", lang.f32_vec(n), join(words(n, "x"))),
        VecShape::F32Mat4 => format!("{}({})", lang.mat4(), join(words(16, "x"))),
        VecShape::Df64Vec(n) => format!(
            "df64vec{n}({}({}), {}({}))",
            lang.f32_vec(n),
            join(words(n, "x")),
            lang.f32_vec(n),
            join(words(n, "y"))
        ),
        VecShape::Df64Mat4 => format!(
            "df64mat4({}({}), {}({}))",
            lang.mat4(),
            join(words(16, "x")),
            lang.mat4(),
            join(words(16, "y"))
        ),
    }
}

/// Result component `k` of a value `r` of `shape`, as a df64 pair expression.
fn component(lang: Lang, shape: VecShape, k: usize) -> String {
    const XYZW: [&str; 4] = ["x", "y", "z", "w"];
    let pair = |hi: String, lo: String| match lang {
        Lang::Glsl => format!("vec2({hi}, {lo})"),
        Lang::Wgsl => format!("vec2<f32>({hi}, {lo})"),
    };
    match shape {
        VecShape::Df64 => "r".into(),
        VecShape::F32 => pair("r".into(), "0.0".into()),
        VecShape::F32Vec(_) => pair(format!("r.{}", XYZW[k % 4]), "0.0".into()),
        VecShape::Df64Vec(_) => pair(
            format!("r.hi.{}", XYZW[k % 4]),
            format!("r.lo.{}", XYZW[k % 4]),
        ),
        VecShape::F32Mat4 => pair(format!("r[{}][{}]", k / 4, k % 4), "0.0".into()),
        VecShape::Df64Mat4 => pair(
            format!("r.hi[{}][{}]", k / 4, k % 4),
            format!("r.lo[{}][{}]", k / 4, k % 4),
        ),
    }
}

fn vec_out(lang: Lang, row: &VecOpRow) -> String {
    let n_in = row.input_numbers();
    let n_out = row.output_numbers();
    let mut s = match lang {
        Lang::Glsl => format!("// {}\nvec4 df64gl_vec_out(int e, int t) {{\n", row.name),
        Lang::Wgsl => format!(
            "// {}\nfn df64gl_vec_out(e: i32, t: i32) -> vec4<f32> {{\n",
            row.name
        ),
    };
    for j in 0..n_in {
        s.push_str(&match lang {
            Lang::Glsl => format!("    vec2 n{j} = df64gl_in(e, {j});\n"),
            Lang::Wgsl => format!("    let n{j} = df64gl_in(e, {j});\n"),
        });
    }
    let mut first = 0;
    let mut args = Vec::new();
    for (i, shape) in row.inputs.iter().enumerate() {
        let value = operand(lang, *shape, first);
        s.push_str(&match lang {
            Lang::Glsl => format!("    {} x{i} = {value};\n", shape.glsl_type()),
            Lang::Wgsl => format!("    let x{i} = {value};\n"),
        });
        args.push(format!("x{i}"));
        first += shape.numbers();
    }
    s.push_str(&match lang {
        Lang::Glsl => format!(
            "    {} r = {}({});\n",
            row.output.glsl_type(),
            row.function,
            args.join(", ")
        ),
        Lang::Wgsl => format!("    let r = {}({});\n", row.function, args.join(", ")),
    });
    let zero = match lang {
        Lang::Glsl => "vec2(0.0)",
        Lang::Wgsl => "vec2<f32>(0.0)",
    };
    for t in 0..n_out.div_ceil(2) {
        let c0 = component(lang, row.output, 2 * t);
        let c1 = if 2 * t + 1 < n_out {
            component(lang, row.output, 2 * t + 1)
        } else {
            zero.to_string()
        };
        s.push_str(&match lang {
            Lang::Glsl => format!("    if (t == {t}) return vec4({c0}, {c1});\n"),
            Lang::Wgsl => format!("    if (t == {t}) {{ return vec4<f32>({c0}, {c1}); }}\n"),
        });
    }
    s.push_str(match lang {
        Lang::Glsl => "    return vec4(0.0);\n}\n",
        Lang::Wgsl => "    return vec4<f32>(0.0);\n}\n",
    });
    s
}

/// `vec4 df64gl_vec_out(int e, int t)` for `row`, in GLSL (any of the export's dialects).
pub fn vec_out_glsl(row: &VecOpRow) -> String {
    vec_out(Lang::Glsl, row)
}

/// `fn df64gl_vec_out(e: i32, t: i32) -> vec4<f32>` for `row`, in WGSL.
pub fn vec_out_wgsl(row: &VecOpRow) -> String {
    vec_out(Lang::Wgsl, row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::vec_catalog::vec_op;

    #[test]
    fn operands_and_components_are_laid_out_as_the_catalog_counts_them() {
        let row = vec_op("transform_point").unwrap();
        let g = vec_out_glsl(row);
        assert!(
            g.contains("vec2 n21 = df64gl_in(e, 21);") && !g.contains("n22"),
            "{g}"
        );
        assert!(g.contains("mat4 x0 = mat4(n0.x, n1.x,"), "{g}");
        assert!(g.contains(
            "df64vec3 x1 = df64vec3(vec3(n16.x, n17.x, n18.x), vec3(n16.y, n17.y, n18.y));"
        ));
        assert!(g.contains("vec3 x2 = vec3(n19.x, n20.x, n21.x);"));
        assert!(
            g.contains("if (t == 1) return vec4(vec2(r.hi.z, r.lo.z), vec2(0.0));"),
            "{g}"
        );
        let w = vec_out_wgsl(vec_op("mat4_mul").unwrap());
        assert!(w.contains("let x1 = df64mat4(mat4x4<f32>(n16.x,"), "{w}");
        assert!(w.contains("if (t == 7) { return vec4<f32>(vec2<f32>(r.hi[3][2], r.lo[3][2]), vec2<f32>(r.hi[3][3], r.lo[3][3])); }"), "{w}");
        assert_eq!(out_texels(vec_op("vec3_dot").unwrap()), 1);
        assert_eq!(in_texels(vec_op("mat4_mul").unwrap()), 16);
    }
}
