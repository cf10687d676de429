//! One library's compute pipelines and buffers on a wgpu device: the accuracy kernel and the
//! dependent chain timed at two lengths, on the library's compute harness
//! (`df64gl::export::wgpu_compute`).

use super::*;

/// The bench's own buffers (group 1) and its two kernels for one call.
pub(super) fn kernels(source: &str, call: &str, arg: &str) -> String {
    format!(
        "{source}\n\
         // ---- df64gl bench wgsl\n\
         struct BenchParams {{ n: u32, count: u32, c: vec2<f32> }}\n\
         @group(1) @binding(0) var<storage, read> bench_in: array<vec4<f32>>;\n\
         @group(1) @binding(1) var<storage, read_write> bench_out: array<vec4<f32>>;\n\
         @group(1) @binding(2) var<uniform> bench: BenchParams;\n\
         @compute @workgroup_size(64)\n\
         fn bench_accuracy(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= bench.count) {{ return; }}\n\
         \x20   let t = bench_in[id.x];\n\
         \x20   let a = t.xy;\n\
         \x20   let b = t.zw;\n\
         \x20   bench_out[id.x] = vec4<f32>({call}, 0.0, 0.0);\n\
         }}\n\
         @compute @workgroup_size(64)\n\
         fn bench_chain(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= bench.count) {{ return; }}\n\
         \x20   var x = vec2<f32>(1.0 + f32(id.x % 256u) * 1e-4, f32(id.x / 256u) * 1e-12);\n\
         \x20   for (var i = 0u; i < bench.n; i++) {{\n\
         \x20       let a = {arg};\n\
         \x20       let b = bench.c;\n\
         \x20       x = {call};\n\
         \x20   }}\n\
         \x20   bench_out[id.x] = vec4<f32>(x, 0.0, 1.0);\n\
         }}\n"
    )
}

/// One library's pipelines and buffers on a device.
pub(super) struct Rig<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    accuracy: wgpu::ComputePipeline,
    chain: wgpu::ComputePipeline,
    lib_group: wgpu::BindGroup,
    io_group: wgpu::BindGroup,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    readback: wgpu::Buffer,
    params: wgpu::Buffer,
    capacity: u32,
}

impl<'a> Rig<'a> {
    pub(super) fn new(
        device: &'a wgpu::Device,
        queue: &'a wgpu::Queue,
        lib: &WgslLibrary,
        call: &str,
        arg: &str,
        capacity: u32,
    ) -> Result<Self, String> {
        use wgpu::util::DeviceExt;
        let built = validated(device, || {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("df64gl bench wgsl"),
                source: wgpu::ShaderSource::Wgsl(kernels(&lib.source, call, arg).into()),
            });
            let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
            let lib_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("library"),
                entries: &lib
                    .buffers
                    .iter()
                    .map(|b| {
                        compute_buffer_entry(
                            b.binding,
                            if b.uniform {
                                wgpu::BufferBindingType::Uniform
                            } else {
                                storage(true)
                            },
                            false,
                        )
                    })
                    .collect::<Vec<_>>(),
            });
            let io_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("bench"),
                entries: &[
                    compute_buffer_entry(0, storage(true), false),
                    compute_buffer_entry(1, storage(false), false),
                    compute_buffer_entry(2, wgpu::BufferBindingType::Uniform, false),
                ],
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("df64gl bench wgsl"),
                bind_group_layouts: &[Some(&lib_layout), Some(&io_layout)],
                immediate_size: 0,
            });
            let pipeline = |entry: &str| compute_pipeline(device, &layout, &module, entry);
            let (accuracy, chain) = (pipeline("bench_accuracy"), pipeline("bench_chain"));
            let lib_buffers: Vec<wgpu::Buffer> = lib
                .buffers
                .iter()
                .map(|b| {
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("library buffer"),
                        contents: &b.contents,
                        usage: if b.uniform {
                            wgpu::BufferUsages::UNIFORM
                        } else {
                            wgpu::BufferUsages::STORAGE
                        },
                    })
                })
                .collect();
            let lib_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("library"),
                layout: &lib_layout,
                entries: &lib
                    .buffers
                    .iter()
                    .zip(&lib_buffers)
                    .map(|(b, buf)| wgpu::BindGroupEntry {
                        binding: b.binding,
                        resource: buf.as_entire_binding(),
                    })
                    .collect::<Vec<_>>(),
            });
            let bytes = 16 * capacity as u64;
            let make = |usage, size| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("bench"),
                    size,
                    usage,
                    mapped_at_creation: false,
                })
            };
            use wgpu::BufferUsages as U;
            let input = make(U::STORAGE | U::COPY_DST, bytes);
            let output = make(U::STORAGE | U::COPY_SRC, bytes);
            let readback = make(U::MAP_READ | U::COPY_DST, bytes);
            let params = make(U::UNIFORM | U::COPY_DST, 16);
            let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("bench"),
                layout: &io_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: input.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: output.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: params.as_entire_binding(),
                    },
                ],
            });
            Rig {
                device,
                queue,
                accuracy,
                chain,
                lib_group,
                io_group,
                input,
                output,
                readback,
                params,
                capacity,
            }
        });
        built.map_err(|e| format!("{}: {e}", lib.name))
    }

    /// Runs `pipeline` over `count` lanes with chain length `n` and constant `c`; with
    /// `read`, returns the output words.
    pub(super) fn dispatch(
        &self,
        accuracy: bool,
        count: u32,
        n: u32,
        c: Df64,
        read: bool,
    ) -> Result<Vec<f32>, String> {
        let count = count.min(self.capacity);
        let mut params = [0u8; 16];
        params[0..4].copy_from_slice(&n.to_le_bytes());
        params[4..8].copy_from_slice(&count.to_le_bytes());
        params[8..12].copy_from_slice(&c.hi.to_le_bytes());
        params[12..16].copy_from_slice(&c.lo.to_le_bytes());
        self.queue.write_buffer(&self.params, 0, &params);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(if accuracy {
                &self.accuracy
            } else {
                &self.chain
            });
            pass.set_bind_group(0, &self.lib_group, &[]);
            pass.set_bind_group(1, &self.io_group, &[]);
            pass.dispatch_workgroups(count.div_ceil(64), 1, 1);
        }
        let bytes = 16 * count as u64;
        if read {
            encoder.copy_buffer_to_buffer(&self.output, 0, &self.readback, 0, bytes);
        }
        self.queue.submit([encoder.finish()]);
        wait(self.device)?;
        if !read {
            return Ok(Vec::new());
        }
        read_back_f32(self.device, &self.readback, bytes)
    }

    /// Worst and RMS error in ulp48 over the pairs, against their exact values.
    pub(super) fn accuracy(
        &self,
        pairs: &[(Df64, Df64)],
        exact: &[BigFloat],
    ) -> Result<(f64, f64), String> {
        let input: Vec<f32> = pairs
            .iter()
            .flat_map(|(a, b)| [a.hi, a.lo, b.hi, b.lo])
            .collect();
        self.queue
            .write_buffer(&self.input, 0, bytemuck::cast_slice(&input));
        let out = self.dispatch(true, pairs.len() as u32, 0, Df64 { hi: 0.0, lo: 0.0 }, true)?;
        let (mut worst, mut sum) = (0f64, 0f64);
        for i in 0..pairs.len() {
            let got = match out.get(4 * i..4 * i + 2) {
                Some(w) => Df64 { hi: w[0], lo: w[1] },
                None => return Err("the read-back is short".into()),
            };
            let Some(x) = exact.get(i) else {
                return Err("fewer exact values than pairs".into());
            };
            let e = error_ulp48(got, x);
            worst = worst.max(e);
            sum += e * e;
        }
        Ok((worst, (sum / pairs.len().max(1) as f64).sqrt()))
    }

    /// ns per op per lane: chains of `n2` and `n1` ops, the difference, best of three; the
    /// longer chain grows until that difference reaches [`MIN_SECONDS`] (a cheap op's chain
    /// of 80 is lost in the dispatch's own time).
    pub(super) fn cost(
        &self,
        lanes: u32,
        (n1, n2): (u32, u32),
        c: f64,
    ) -> Result<Option<f64>, String> {
        let c = Df64::from_f64(c);
        self.dispatch(false, lanes, 1, c, false)?;
        let time = |n| -> Result<f64, String> {
            let t = Instant::now();
            self.dispatch(false, lanes, n, c, false)?;
            Ok(t.elapsed().as_secs_f64())
        };
        let mut n2 = n2;
        loop {
            let mut best = f64::INFINITY;
            for _ in 0..3 {
                best = best.min(time(n2)? - time(n1)?);
            }
            if best >= MIN_SECONDS || n2 >= MAX_CHAIN {
                let ns = best * 1e9 / ((n2 - n1) as f64 * lanes as f64);
                return Ok((ns > 0.0).then_some(ns));
            }
            n2 = (n1 + 4 * (n2 - n1)).min(MAX_CHAIN);
        }
    }
}

/// The timed difference a cost is read from, at least.
pub const MIN_SECONDS: f64 = 0.02;
/// The longest chain a cost times.
pub(super) const MAX_CHAIN: u32 = 1 << 16;

/// A failure of the device or of a library's shader on it (exit status 1, not a usage error).
pub(super) fn device_error(detail: String) -> ExperimentError {
    ExperimentError::Probe(ProbeError::Wgsl { detail })
}
