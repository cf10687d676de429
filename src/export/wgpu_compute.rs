//! The wgpu compute harness shared by the WGSL export's check ([`check_wgpu`]) and the command
//! line's WGSL benchmark: bind-group entries for compute buffers, the one place a compute
//! pipeline is made ([`compute_pipeline`]), waiting on the device, the validation scope around
//! building a pipeline, and reading a result buffer back.
//!
//! [`check_wgpu`]: super::wgpu_check::check_wgpu

/// A buffer binding visible to compute shaders (`dynamic`: with a dynamic offset).
pub fn compute_buffer_entry(
    binding: u32,
    ty: wgpu::BufferBindingType,
    dynamic: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: dynamic,
            min_binding_size: None,
        },
        count: None,
    }
}

/// The compute pipeline of `entry` in `module` under `layout` (its label the entry's name), with
/// wgpu's default compilation options and no pipeline cache. Build it inside [`validated`]: a
/// shader that does not compile is reported there, not here.
pub fn compute_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry: &str,
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(entry),
        layout: Some(layout),
        module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// Runs `future` to completion on this thread, calling `between` while it is pending (wgpu's
/// futures complete when the device is polled).
pub fn block_on<F: std::future::Future>(future: F, mut between: impl FnMut()) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        between();
    }
}

/// Waits for the device, with an error for a device that cannot.
pub fn wait(device: &wgpu::Device) -> Result<(), String> {
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map(|_| ())
        .map_err(|e| format!("waiting for the device: {e}"))
}

/// Runs `build` inside error scopes: its value, or the errors as text (the internal one first): a shader that
/// does not compile or a layout that does not match (validation), a translation the back end
/// cannot make (internal: wgpu's GL back end on a context without compute shaders), or memory.
/// Without the internal scope such an error reaches wgpu's default handler, which panics.
pub fn validated<T>(device: &wgpu::Device, build: impl FnOnce() -> T) -> Result<T, String> {
    let memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = build();
    // Innermost first: scopes pop in the reverse order of their pushes. An internal error is
    // the cause where there is one (a pipeline not built is then invalid where it is used), so
    // it is named first.
    let mut errors = [None, None, None];
    for (k, scope) in [validation, internal, memory].into_iter().enumerate() {
        errors[k] = block_on(scope.pop(), || {
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
        })
        .map(|e| e.to_string());
    }
    let [validation, internal, memory] = errors;
    let errors: Vec<String> = [internal, validation, memory]
        .into_iter()
        .flatten()
        .collect();
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(errors.join("; then "))
    }
}

/// The first `bytes` of a `MAP_READ` buffer (after the copy into it was submitted) as f32
/// words.
pub fn read_back_f32(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    bytes: u64,
) -> Result<Vec<f32>, String> {
    let slice = buffer.slice(0..bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    wait(device)?;
    match rx.recv() {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("reading the results back: {e}")),
        Err(_) => return Err("the device never answered the read-back".into()),
    }
    let words = {
        let view = slice
            .get_mapped_range()
            .map_err(|e| format!("reading the results back: {e}"))?;
        bytemuck::cast_slice::<u8, f32>(&view).to_vec()
    };
    buffer.unmap();
    Ok(words)
}
