//! RGBA32F textures, the engine's only storage, and the helpers that lay 1-D arrays onto them.

use std::rc::Rc;

use bytemuck::Pod;
use glow::HasContext;

use super::context::{GlContext, Shared};
use super::error::{GlError, GlResult};
use super::framebuffer::Framebuffer;

/// Bytes in one RGBA32F texel.
pub(crate) const TEXEL_BYTES: usize = 16;

/// An RGBA32F texture with NEAREST sampling and no mipmaps, so `texelFetch` reads stored bits.
pub struct Texture {
    shared: Rc<Shared>,
    pub(crate) id: glow::Texture,
    /// TEXTURE_2D, or TEXTURE_2D_ARRAY for a layered texture.
    pub(crate) target: u32,
    width: u32,
    height: u32,
    layers: u32,
}

/// The storage formats a [`Texture`] can have.
const RGBA32F: u32 = glow::RGBA32F;
const RGBA8: u32 = glow::RGBA8;

impl Texture {
    /// Allocates a `width x height` texture (contents undefined until written).
    pub fn new(ctx: &GlContext, width: u32, height: u32) -> GlResult<Self> {
        Self::allocate(ctx, width, height, None, RGBA32F)
    }

    /// Allocates a `width x height` RGBA8 texture: 8-bit colour, for a program that draws a
    /// picture (the probe shader's green and red); read it back with
    /// [`Framebuffer::read_rgba8`](super::Framebuffer::read_rgba8).
    pub(crate) fn new_rgba8(ctx: &GlContext, width: u32, height: u32) -> GlResult<Self> {
        Self::allocate(ctx, width, height, None, RGBA8)
    }

    /// Allocates a `width x height x layers` RGBA32F array texture (`sampler2DArray`); each
    /// layer can be a color attachment of its own ([`Framebuffer::from_layers`]).
    pub(crate) fn new_array(
        ctx: &GlContext,
        width: u32,
        height: u32,
        layers: u32,
    ) -> GlResult<Self> {
        let max = ctx.info().max_array_texture_layers;
        if layers == 0 || layers > max {
            return Err(GlError::TooLarge {
                what: format!("array texture of {layers} layers"),
                width: width as u64,
                height: height as u64,
                max,
            });
        }
        Self::allocate(ctx, width, height, Some(layers), RGBA32F)
    }

    fn allocate(
        ctx: &GlContext,
        width: u32,
        height: u32,
        layers: Option<u32>,
        format: u32,
    ) -> GlResult<Self> {
        let max = ctx.info().max_texture_size;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(GlError::TooLarge {
                what: "texture".into(),
                width: width as u64,
                height: height as u64,
                max,
            });
        }
        let gl = ctx.gl();
        let id = unsafe { gl.create_texture() }.map_err(GlError::Create)?;
        let target = if layers.is_some() {
            glow::TEXTURE_2D_ARRAY
        } else {
            glow::TEXTURE_2D
        };
        let tex = Texture {
            shared: ctx.shared.clone(),
            id,
            target,
            width,
            height,
            layers: layers.unwrap_or(1),
        };
        unsafe {
            gl.bind_texture(target, Some(id));
            gl.tex_parameter_i32(target, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
            gl.tex_parameter_i32(target, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
            gl.tex_parameter_i32(target, glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE as i32);
            gl.tex_parameter_i32(target, glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE as i32);
            gl.tex_parameter_i32(target, glow::TEXTURE_MAX_LEVEL, 0);
            match layers {
                Some(l) => {
                    gl.tex_storage_3d(target, 1, format, width as i32, height as i32, l as i32)
                }
                None => gl.tex_storage_2d(target, 1, format, width as i32, height as i32),
            }
            gl.bind_texture(target, None);
        }
        ctx.check(if format == RGBA8 {
            "glTexStorage(RGBA8)"
        } else {
            "glTexStorage(RGBA32F)"
        })?;
        Ok(tex)
    }

    /// Allocates a texture and fills it from `data` (exactly `width * height` texels).
    pub fn with_data<T: Pod>(
        ctx: &GlContext,
        width: u32,
        height: u32,
        data: &[T],
    ) -> GlResult<Self> {
        let tex = Self::new(ctx, width, height)?;
        tex.upload(ctx, data)?;
        Ok(tex)
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Texels in one layer.
    pub fn texels(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// 1 for a plain 2D texture.
    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// A 2-D array texture (layers), not a 2-D one.
    pub(crate) fn is_array(&self) -> bool {
        self.target == glow::TEXTURE_2D_ARRAY
    }

    fn expect_bytes(&self, got: usize) -> GlResult<()> {
        let expected = self.texels() * TEXEL_BYTES;
        if got != expected {
            return Err(GlError::SizeMismatch {
                got,
                expected,
                width: self.width,
                height: self.height,
            });
        }
        Ok(())
    }

    /// Replaces the whole texture with `data`; any `Pod` type whose bytes make whole texels.
    pub fn upload<T: Pod>(&self, ctx: &GlContext, data: &[T]) -> GlResult<()> {
        if self.is_array() {
            return Err(GlError::Unsupported(
                "uploading to an array texture (write its layers with a pass)".into(),
            ));
        }
        let bytes: &[u8] = bytemuck::cast_slice(data);
        self.expect_bytes(bytes.len())?;
        let gl = ctx.gl();
        unsafe {
            gl.bind_texture(glow::TEXTURE_2D, Some(self.id));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
            gl.tex_sub_image_2d(
                glow::TEXTURE_2D,
                0,
                0,
                0,
                self.width as i32,
                self.height as i32,
                glow::RGBA,
                glow::FLOAT,
                glow::PixelUnpackData::Slice(Some(bytes)),
            );
            gl.bind_texture(glow::TEXTURE_2D, None);
        }
        ctx.check("glTexSubImage2D(RGBA, FLOAT)")
    }

    /// Reads the texture back (through a temporary framebuffer, as the paper's readback does).
    pub fn read<T: Pod>(&self, ctx: &GlContext) -> GlResult<Vec<T>> {
        let fb = Framebuffer::new(ctx, &[self])?;
        fb.read(ctx, 0)
    }
}

impl Drop for Texture {
    fn drop(&mut self) {
        unsafe { self.shared.gl.delete_texture(self.id) };
    }
}

/// How `len` elements lie on a `width x height` texture, `per_texel` elements a texel, row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Elements.
    pub len: usize,
    /// Elements per texel.
    pub per_texel: usize,
    /// Texture width.
    pub width: u32,
    /// Texture height.
    pub height: u32,
}

impl Layout {
    /// The paper's layout for N = 2^m texels: W = 2^ceil(m/2), H = 2^floor(m/2).
    pub fn power_of_two(len: usize, max_texture_size: u32) -> GlResult<Self> {
        if len == 0 || !len.is_power_of_two() {
            return Err(GlError::TooLarge {
                what: format!("power-of-two layout of {len} elements (not a power of two)"),
                width: len as u64,
                height: 1,
                max: max_texture_size,
            });
        }
        let m = len.trailing_zeros();
        let width = 1u64 << m.div_ceil(2);
        let height = 1u64 << (m / 2);
        Self::checked(
            len,
            1,
            width,
            height,
            max_texture_size,
            "power-of-two layout",
        )
    }

    /// `len` = odd 2^m elements with the paper's power-of-two width, W = 2^ceil(m/2), and
    /// H = odd 2^floor(m/2) (the power-of-two layout when odd = 1): the shaders find a texel
    /// with a shift and a mask, whatever the height.
    pub(crate) fn power_of_two_width(len: usize, max_texture_size: u32) -> GlResult<Self> {
        if len == 0 {
            return Self::power_of_two(len, max_texture_size);
        }
        let m = len.trailing_zeros();
        let width = 1u64 << m.div_ceil(2);
        let height = len as u64 / width;
        Self::checked(
            len,
            1,
            width,
            height,
            max_texture_size,
            "power-of-two-width layout",
        )
    }

    /// Any `len`, padded up to whole rows: as square as the texture limit allows.
    pub fn padded(len: usize, per_texel: usize, max_texture_size: u32) -> GlResult<Self> {
        let per_texel = per_texel.max(1);
        let texels = len.max(1).div_ceil(per_texel) as u64;
        let mut width = (texels as f64).sqrt().ceil() as u64;
        width = width.clamp(1, max_texture_size.max(1) as u64);
        let height = texels.div_ceil(width);
        Self::checked(
            len,
            per_texel,
            width,
            height,
            max_texture_size,
            "array layout",
        )
    }

    fn checked(
        len: usize,
        per_texel: usize,
        width: u64,
        height: u64,
        max: u32,
        what: &str,
    ) -> GlResult<Self> {
        if width > max as u64 || height > max as u64 {
            return Err(GlError::TooLarge {
                what: format!("{what} of {len} elements"),
                width,
                height,
                max,
            });
        }
        Ok(Layout {
            len,
            per_texel,
            width: width as u32,
            height: height as u32,
        })
    }

    /// Texels in the texture (width x height).
    pub fn texels(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Element slots including padding.
    pub fn capacity(&self) -> usize {
        self.texels() * self.per_texel
    }

    /// Texel coordinate of element `i`.
    pub fn coord(&self, i: usize) -> (u32, u32) {
        let t = i / self.per_texel;
        (
            (t % self.width as usize) as u32,
            (t / self.width as usize) as u32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_layout_is_paper_shape() {
        let l = Layout::power_of_two(1 << 5, 16384).unwrap();
        assert_eq!((l.width, l.height), (8, 4));
        let l = Layout::power_of_two(1 << 6, 16384).unwrap();
        assert_eq!((l.width, l.height), (8, 8));
        assert!(Layout::power_of_two(12, 16384).is_err());
        let err = Layout::power_of_two(1 << 30, 16384)
            .unwrap_err()
            .to_string();
        assert!(err.contains("16384"), "{err}");
    }

    #[test]
    fn power_of_two_width_layout_keeps_the_paper_shape_and_takes_odd_factors() {
        for m in 1..20 {
            let p = Layout::power_of_two(1 << m, 16384).unwrap();
            assert_eq!(Layout::power_of_two_width(1 << m, 16384).unwrap(), p);
            let l = Layout::power_of_two_width(3 << m, 16384).unwrap();
            assert_eq!((l.width, l.height), (p.width, 3 * p.height));
            assert_eq!(l.texels(), 3 << m);
        }
        assert!(Layout::power_of_two_width(3 << 29, 16384).is_err());
    }

    #[test]
    fn padded_layout_covers_len() {
        for len in [1usize, 2, 3, 7, 100, 1000, 65537] {
            for per in [1usize, 2, 4] {
                let l = Layout::padded(len, per, 16384).unwrap();
                assert!(l.capacity() >= len);
                assert!(l.capacity() < len + per * l.width as usize + per);
            }
        }
        assert_eq!(Layout::padded(10, 2, 16384).unwrap().coord(9), (1, 1));
    }
}
