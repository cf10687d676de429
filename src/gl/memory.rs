//! How much memory a context's textures can take now, where the driver says: what plans check
//! before they allocate, so that a transform too large for the device is refused with a
//! message instead of an abort (the host's allocator) or a process killed for memory (Linux
//! overcommits, and a software rasterizer keeps its textures in host memory).

use super::GlContext;

/// Sets the budget by hand, in bytes or with a `K`, `M` or `G` suffix (powers of 1024): for
/// a driver that says nothing, or to keep plans smaller than the device allows.
pub const MEMORY_BUDGET_ENV: &str = "DF64GL_MEMORY_BUDGET";

/// `GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX`: kilobytes of video memory free now.
const NVX_AVAILABLE_VIDMEM_KB: u32 = 0x9049;

/// The bytes textures can take now and where that figure comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryBudget {
    /// Bytes free for textures.
    pub bytes: u64,
    /// Where the figure comes from, for messages.
    pub source: String,
    /// Whether the textures live in host memory (a software rasterizer), so that host-side
    /// copies of the data count against the same budget.
    pub host: bool,
}

impl GlContext {
    /// The memory textures can take now: `DF64GL_MEMORY_BUDGET` if set, the free video
    /// memory where the driver reports it (`GL_NVX_gpu_memory_info`), the host's available
    /// memory for Mesa's software rasterizers (their textures are host memory); `None` where
    /// nothing says (plans then rely on the driver's `GL_OUT_OF_MEMORY`).
    pub fn memory_budget(&self) -> Result<Option<MemoryBudget>, String> {
        if let Ok(text) = std::env::var(MEMORY_BUDGET_ENV) {
            let bytes = parse_bytes(&text).ok_or_else(|| {
                format!(
                    "{MEMORY_BUDGET_ENV}={text:?} is not a size: give bytes, or a number with \
                     K, M or G (for example 512M)"
                )
            })?;
            return Ok(Some(MemoryBudget {
                bytes,
                source: format!("{MEMORY_BUDGET_ENV}={text}"),
                host: self.info().software_rasterizer(),
            }));
        }
        let gl = self.gl();
        if glow::HasContext::supported_extensions(gl).contains("GL_NVX_gpu_memory_info") {
            let kb = unsafe { glow::HasContext::get_parameter_i32(gl, NVX_AVAILABLE_VIDMEM_KB) };
            if kb > 0 {
                return Ok(Some(MemoryBudget {
                    bytes: kb as u64 * 1024,
                    source: "the video memory the driver reports free \
                             (GL_NVX_gpu_memory_info)"
                        .into(),
                    host: false,
                }));
            }
        }
        if self.info().software_rasterizer() {
            if let Some(bytes) = host_memory_available() {
                return Ok(Some(MemoryBudget {
                    bytes,
                    source: format!(
                        "the host's available memory ({} keeps textures in host memory)",
                        self.info().renderer
                    ),
                    host: true,
                }));
            }
        }
        Ok(None)
    }
}

/// The host's available memory now: `MemAvailable` of `/proc/meminfo`, in bytes (Linux;
/// `None` elsewhere). What a command checks before it allocates its host-side copies.
pub fn host_memory_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// "123", "512K", "512M", "2G" (powers of 1024) to bytes.
fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, shift) = match t.chars().last()?.to_ascii_uppercase() {
        'K' => (&t[..t.len() - 1], 10),
        'M' => (&t[..t.len() - 1], 20),
        'G' => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()?
        .checked_mul(1u64 << shift)
}

/// Bytes as a reader takes them in: "1.5 GiB", "96 MiB", "512 bytes".
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (name, shift) in UNITS {
        if bytes >= 1u128 << shift {
            return format!("{:.1} {name}", bytes as f64 / (1u128 << shift) as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_suffixes() {
        assert_eq!(parse_bytes("123"), Some(123));
        assert_eq!(parse_bytes("512K"), Some(512 << 10));
        assert_eq!(parse_bytes(" 3m "), Some(3 << 20));
        assert_eq!(parse_bytes("2G"), Some(2 << 30));
        assert_eq!(parse_bytes("G"), None);
        assert_eq!(parse_bytes("-1"), None);
        assert_eq!(parse_bytes("99999999999G"), None);
        assert_eq!(parse_bytes("1.5G"), None);
    }

    #[test]
    fn bytes_read_in_the_largest_whole_unit() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
