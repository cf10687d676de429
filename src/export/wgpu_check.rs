//! The known-answer check of the WGSL export on a wgpu device: the same cases, the same judge
//! and the same kind of verdict as the WebGL check (`check` in `js/`) and [`check_context`]
//! (GL). Every routine runs as a compute entry point of one module (the export plus one entry
//! point per routine) on its cases; the results are judged against the oracle's value within
//! the routine's bound and compared bit for bit with the CPU mirror.
//!
//! [`check_context`]: super::context_check::check_context

use std::time::Instant;

use serde::Serialize;

use super::known::{
    judge_routines, judge_vec_routines, known_answers, KnownSet, KnownVecSet, RoutineCheck,
};
use super::wgpu_compute::{compute_buffer_entry, compute_pipeline, read_back_f32, validated, wait};
use super::wgsl::{wgsl_call, wgsl_export, WgslOptions, ZeroBuffer};
use crate::probe::ProbeError;

/// What to check.
#[derive(Debug, Clone, Default)]
pub struct WgpuCheckOptions {
    /// The qf128 routines too.
    pub qf128: bool,
    /// The unprotected translation instead of the export (to show what a compiler does to
    /// plain expressions; it is expected to fail where the compiler rewrites them).
    pub unprotected: bool,
    /// Only these routines (names of the known-answer sets: "add", "exp", ...).
    pub routines: Option<Vec<String>>,
    /// Check this WGSL instead of the export (it must hold df64 and, with `qf128`, qf128,
    /// with the barrier's buffer, if any, at @group(0) @binding(0) of the kind `zero`): for a
    /// modified or deliberately broken build.
    pub source: Option<String>,
    /// The kind of buffer the export's barrier reads (default: storage, as exported).
    pub zero: ZeroBuffer,
}

/// What [`check_wgpu`] found.
#[derive(Debug, Clone, Serialize)]
pub struct WgpuCheck {
    /// Every routine within its bound.
    pub pass: bool,
    /// Why, in a sentence.
    pub reason: String,
    /// Each df64 routine checked.
    pub routines: Vec<RoutineCheck>,
    /// Each vector and matrix routine checked.
    pub vectors: Vec<RoutineCheck>,
    /// Each qf128 routine checked (with `qf128`).
    pub qf128: Option<Vec<RoutineCheck>>,
    /// Milliseconds the check took (module, pipelines, dispatches, read-back).
    pub ms: f64,
}

/// The check's own buffers: the cases' operands and the results.
const IO_GROUP: u32 = 1;

/// Runs the known answers of the WGSL export on `device` and judges them. Blocks until the
/// device is done. Never panics for a device that fails: compile errors and validation errors
/// come back as the verdict's reason (an `Err` only when the known answers or the export
/// themselves cannot be had).
pub fn check_wgpu(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    options: &WgpuCheckOptions,
) -> Result<WgpuCheck, ProbeError> {
    let t0 = Instant::now();
    let fail = |detail: String| ProbeError::Wgsl { detail };
    let known = known_answers().map_err(fail)?;
    let source = match &options.source {
        Some(s) => s.clone(),
        None => wgsl_export(&WgslOptions {
            functions: true,
            qf128: options.qf128,
            group: 0,
            binding: 0,
            zero: options.zero,
            protected: !options.unprotected,
        })?,
    };
    let only = options.routines.clone();
    if let Some(names) = &only {
        let unknown: Vec<&String> = names
            .iter()
            .filter(|n| {
                !known.df64.routines.iter().any(|r| &r.name == *n)
                    && !known.qf128.routines.iter().any(|r| &r.name == *n)
                    && !known.df64vec.routines.iter().any(|r| &r.name == *n)
            })
            .collect();
        if !unknown.is_empty() {
            return Err(fail(format!("no routine {unknown:?} in the known answers")));
        }
    }
    let chosen = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|n| n == name));
    let mut out = WgpuCheck {
        pass: false,
        reason: String::new(),
        routines: Vec::new(),
        vectors: Vec::new(),
        qf128: None,
        ms: 0.0,
    };
    let mut sets = vec![("df64", &known.df64)];
    if options.qf128 {
        sets.push(("qf128", &known.qf128));
    }
    let mut off = Vec::new();
    let describe = |label: &str, r: &RoutineCheck| {
        format!(
            "{label} {} {:.3} {} (bound {}, {} of {})",
            r.name, r.worst, r.unit, r.bound, r.failed, r.cases
        )
    };
    let named_vector = known.df64vec.routines.iter().any(|r| chosen(&r.name));
    for (label, set) in sets {
        let named = set.routines.iter().any(|r| chosen(&r.name));
        if !(named || label == "df64" && named_vector) {
            return Err(fail(format!(
                "the routines named include no {label} routine"
            )));
        }
        let job = scalar_job(&source, set, &chosen).map_err(fail)?;
        let results = match run_set(device, queue, options.zero, &job) {
            Ok(r) => r,
            Err(reason) => {
                out.reason = format!("the {label} known answers could not run: {reason}");
                out.ms = t0.elapsed().as_secs_f64() * 1e3;
                return Ok(out);
            }
        };
        let words = set.words;
        let got = |k: usize, i: usize| {
            let at = results.row_start.get(k)? + 4 * i;
            results.words.get(at..at + words)
        };
        let rows = judge_routines(set, &chosen, &got).map_err(fail)?;
        off.extend(
            rows.iter()
                .filter(|r| r.failed > 0)
                .map(|r| describe(label, r)),
        );
        if label == "df64" {
            out.routines = rows;
        } else {
            out.qf128 = Some(rows);
        }
    }
    if named_vector {
        let set = &known.df64vec;
        let job = vec_job(&source, set, &chosen).map_err(fail)?;
        let results = match run_set(device, queue, options.zero, &job) {
            Ok(r) => r,
            Err(reason) => {
                out.reason = format!("the vector known answers could not run: {reason}");
                out.ms = t0.elapsed().as_secs_f64() * 1e3;
                return Ok(out);
            }
        };
        let got = |k: usize, e: usize, i: usize| {
            let r = set.routines.get(k)?;
            let at = results.row_start.get(k)? + 4 * e * r.outputs.div_ceil(2) + 2 * i;
            results.words.get(at..at + 2)
        };
        let rows = judge_vec_routines(set, &chosen, &got).map_err(fail)?;
        off.extend(
            rows.iter()
                .filter(|r| r.failed > 0)
                .map(|r| describe("df64", r)),
        );
        out.vectors = rows;
    }
    out.pass = off.is_empty();
    out.reason = if off.is_empty() {
        format!(
            "df64{} exact here",
            if options.qf128 { " and qf128" } else { "" }
        )
    } else {
        format!("routines off their bounds: {}", off.join(", "))
    };
    out.ms = t0.elapsed().as_secs_f64() * 1e3;
    Ok(out)
}

/// The words every case returned: routine k's output texel i at `row_start[k] + 4 i`.
struct SetResults {
    words: Vec<f32>,
    row_start: Vec<usize>,
}

/// What one compute run of a set needs: the shader (the export, the check's buffers, one entry
/// point `df64gl_known_k` per chosen routine), the operand texels, and per routine its first
/// output texel, how many, and where its operands start.
struct ComputeJob {
    text: String,
    input: Vec<f32>,
    ranges: Vec<[u32; 3]>,
    chosen: Vec<bool>,
}

const IO_DECLARATIONS: &str = "// ---- df64gl's known-answer check\n\
     @group(1) @binding(0) var<storage, read> df64gl_in: array<vec4<f32>>;\n\
     @group(1) @binding(1) var<storage, read_write> df64gl_out: array<vec4<f32>>;\n\
     struct Df64glRange { first: u32, count: u32, input: u32, width: u32 }\n\
     @group(1) @binding(2) var<uniform> df64gl_range: Df64glRange;\n";

fn entry_point(k: usize, value: &str) -> String {
    format!(
        "@compute @workgroup_size(64)\n\
         fn df64gl_known_{k}(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= df64gl_range.count) {{ return; }}\n\
         \x20   let i = df64gl_range.first + id.x;\n\
         {value}\
         }}\n"
    )
}

/// The scalar routines of a set: two texels a case (a, b), one out.
fn scalar_job(
    source: &str,
    set: &KnownSet,
    chosen: &dyn Fn(&str) -> bool,
) -> Result<ComputeJob, String> {
    let (ty, pick) = if set.words == 2 {
        ("vec2<f32>", ".xy")
    } else {
        ("vec4<f32>", "")
    };
    let mut text = format!("{source}\n{IO_DECLARATIONS}");
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            continue;
        }
        let call = wgsl_call(&r.call).map_err(|e| e.to_string())?;
        let value = if set.words == 2 {
            format!("vec4<f32>({call}, 0.0, 0.0)")
        } else {
            call
        };
        text.push_str(&entry_point(
            k,
            &format!(
                "\x20   let a: {ty} = df64gl_in[2u * i]{pick};\n\
                 \x20   let b: {ty} = df64gl_in[2u * i + 1u]{pick};\n\
                 \x20   df64gl_out[i] = {value};\n"
            ),
        ));
    }
    let cases: usize = set.routines.iter().map(|r| r.cases).sum();
    let mut input = vec![0f32; 8 * cases.max(1)];
    let mut ranges = Vec::new();
    let mut c = 0;
    for r in &set.routines {
        ranges.push([c as u32, r.cases as u32, 0]);
        for _ in 0..r.cases {
            let case = set.case(c).ok_or("known answers end early")?;
            input[8 * c..8 * c + case.a.len()].copy_from_slice(case.a);
            input[8 * c + 4..8 * c + 4 + case.b.len()].copy_from_slice(case.b);
            c += 1;
        }
    }
    Ok(ComputeJob {
        text,
        input,
        ranges,
        chosen: set.routines.iter().map(|r| chosen(&r.name)).collect(),
    })
}

/// The vector routines: each evaluation's operand texels in, its result texels out; each
/// routine's `df64gl_vec_out` and `df64gl_in` renamed for it (WGSL has no overloading).
fn vec_job(
    source: &str,
    set: &KnownVecSet,
    chosen: &dyn Fn(&str) -> bool,
) -> Result<ComputeJob, String> {
    let mut text = format!("{source}\n{IO_DECLARATIONS}");
    let mut input = Vec::new();
    let mut ranges = Vec::new();
    let mut first = 0u32;
    for (k, r) in set.routines.iter().enumerate() {
        let (t_in, t_out) = (r.inputs.div_ceil(2), r.outputs.div_ceil(2));
        let base = input.len() / 4;
        for e in 0..r.evaluations {
            let words = set.operands(k, e).ok_or("vector known answers end early")?;
            let mut texels = vec![0f32; 4 * t_in];
            texels[..words.len()].copy_from_slice(words);
            input.extend(texels);
        }
        let count = (t_out * r.evaluations) as u32;
        ranges.push([first, count, base as u32]);
        first += count;
        if !chosen(&r.name) {
            continue;
        }
        text.push_str(&format!(
            "fn df64gl_vin_{k}(e: i32, j: i32) -> vec2<f32> {{\n\
             \x20   let q = df64gl_in[df64gl_range.input + u32(e * {t_in} + j / 2)];\n\
             \x20   if ((j - 2 * (j / 2)) == 0) {{ return q.xy; }}\n\
             \x20   return q.zw;\n}}\n{}",
            r.wgsl
                .replace("df64gl_vec_out", &format!("df64gl_vec_out_{k}"))
                .replace("df64gl_in(", &format!("df64gl_vin_{k}("))
        ));
        text.push_str(&entry_point(
            k,
            &format!(
                "\x20   let e = i32(id.x) / {t_out};\n\
                 \x20   df64gl_out[i] = df64gl_vec_out_{k}(e, i32(id.x) - {t_out} * e);\n"
            ),
        ));
    }
    if input.is_empty() {
        input.resize(4, 0.0);
    }
    Ok(ComputeJob {
        text,
        input,
        ranges,
        chosen: set.routines.iter().map(|r| chosen(&r.name)).collect(),
    })
}

fn run_set(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    zero_kind: ZeroBuffer,
    job: &ComputeJob,
) -> Result<SetResults, String> {
    use wgpu::util::DeviceExt;
    let (text, input) = (&job.text, &job.input);
    let cases: usize = job.ranges.iter().map(|r| r[1] as usize).sum();
    let row_start: Vec<usize> = job.ranges.iter().map(|r| 4 * r[0] as usize).collect();

    let out_size = (16 * cases.max(1)) as u64;
    let out_buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("df64gl known-answer results"),
        size: out_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let read_buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("df64gl known-answer read-back"),
        size: out_size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    // Everything the set builds, in one validation scope: a shader that does not compile
    // is the error.
    validated(device, || {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("df64gl known answers"),
            source: wgpu::ShaderSource::Wgsl(text.as_str().into()),
        });
        let zero_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("df64gl barrier zero"),
            entries: &[compute_buffer_entry(
                0,
                match zero_kind {
                    ZeroBuffer::Storage => wgpu::BufferBindingType::Storage { read_only: true },
                    ZeroBuffer::Uniform => wgpu::BufferBindingType::Uniform,
                },
                false,
            )],
        });
        let storage = |binding: u32, read_only: bool| {
            compute_buffer_entry(
                binding,
                wgpu::BufferBindingType::Storage { read_only },
                false,
            )
        };
        let io_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("df64gl known-answer buffers"),
            entries: &[
                storage(0, true),
                storage(1, false),
                compute_buffer_entry(2, wgpu::BufferBindingType::Uniform, true),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("df64gl known answers"),
            bind_group_layouts: &[Some(&zero_layout), Some(&io_layout)],
            immediate_size: 0,
        });
        let zero = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("df64gl barrier zero"),
            contents: &[0u8; 16],
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::STORAGE,
        });
        let in_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("df64gl known-answer operands"),
            contents: bytemuck::cast_slice(input),
            usage: wgpu::BufferUsages::STORAGE,
        });
        // Each routine's range at its own 256-byte slot of one uniform buffer (dynamic offsets).
        let slot = 256usize;
        let mut ranges = vec![0u32; slot / 4 * job.ranges.len().max(1)];
        for (k, r) in job.ranges.iter().enumerate() {
            ranges[k * slot / 4..k * slot / 4 + 3].copy_from_slice(r);
        }
        let range_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("df64gl known-answer ranges"),
            contents: bytemuck::cast_slice(&ranges),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let zero_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("df64gl barrier zero"),
            layout: &zero_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: zero.as_entire_binding(),
            }],
        });
        let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("df64gl known-answer buffers"),
            layout: &io_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: in_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: out_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &range_buffer,
                        offset: 0,
                        size: wgpu::BufferSize::new(16),
                    }),
                },
            ],
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("df64gl known answers"),
        });
        for (k, r) in job.ranges.iter().enumerate() {
            if !job.chosen.get(k).copied().unwrap_or(false) {
                continue;
            }
            let entry = format!("df64gl_known_{k}");
            let pipeline = compute_pipeline(device, &layout, &module, &entry);
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(&entry),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &zero_group, &[]);
            pass.set_bind_group(IO_GROUP, &io_group, &[(k * slot) as u32]);
            pass.dispatch_workgroups(r[1].div_ceil(64), 1, 1);
        }
        encoder.copy_buffer_to_buffer(&out_buffer, 0, &read_buffer, 0, out_size);
        queue.submit([encoder.finish()]);
    })?;
    wait(device)?;
    let words = read_back_f32(device, &read_buffer, out_size)?;
    Ok(SetResults { words, row_start })
}
