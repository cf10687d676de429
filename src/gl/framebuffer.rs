//! Framebuffer objects with 1 to 8 color attachments (qf128 writes several at once).

use std::rc::Rc;

use bytemuck::Pod;
use glow::HasContext;

use super::context::{GlContext, Shared};
use super::error::{framebuffer_status_name, GlError, GlResult};
use super::texture::{Texture, TEXEL_BYTES};

/// A framebuffer object with 1 to 8 color attachments of equal size (layers of textures).
pub struct Framebuffer {
    shared: Rc<Shared>,
    id: glow::Framebuffer,
    width: u32,
    height: u32,
    attachments: usize,
}

impl Framebuffer {
    /// Attaches `targets` (same size) as color attachments 0.. and checks completeness.
    pub fn new(ctx: &GlContext, targets: &[&Texture]) -> GlResult<Self> {
        let layers: Vec<(&Texture, u32)> = targets.iter().map(|t| (*t, 0)).collect();
        Self::from_layers(ctx, &layers)
    }

    /// Attaches texture layers as color attachments 0.. (a plain 2D texture's only layer is
    /// 0); one fragment program can then write several layers of an array texture at once.
    pub fn from_layers(ctx: &GlContext, targets: &[(&Texture, u32)]) -> GlResult<Self> {
        let max = ctx
            .info()
            .max_color_attachments
            .min(ctx.info().max_draw_buffers);
        if targets.is_empty() || targets.len() > max as usize {
            return Err(GlError::TooManyAttachments(targets.len(), max));
        }
        let (width, height) = (targets[0].0.width(), targets[0].0.height());
        let gl = ctx.gl();
        let id = unsafe { gl.create_framebuffer() }.map_err(GlError::Create)?;
        let fb = Framebuffer {
            shared: ctx.shared.clone(),
            id,
            width,
            height,
            attachments: targets.len(),
        };
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(id));
            for (i, (t, layer)) in targets.iter().enumerate() {
                let attachment = glow::COLOR_ATTACHMENT0 + i as u32;
                if t.is_array() {
                    gl.framebuffer_texture_layer(
                        glow::FRAMEBUFFER,
                        attachment,
                        Some(t.id),
                        0,
                        *layer as i32,
                    );
                } else {
                    gl.framebuffer_texture_2d(
                        glow::FRAMEBUFFER,
                        attachment,
                        glow::TEXTURE_2D,
                        Some(t.id),
                        0,
                    );
                }
            }
            let bufs: Vec<u32> = (0..targets.len())
                .map(|i| glow::COLOR_ATTACHMENT0 + i as u32)
                .collect();
            gl.draw_buffers(&bufs);
        }
        ctx.check("glFramebufferTexture2D")?;
        let status = unsafe { gl.check_framebuffer_status(glow::FRAMEBUFFER) };
        let mismatch = targets
            .iter()
            .any(|(t, layer)| t.width() != width || t.height() != height || *layer >= t.layers());
        unsafe { gl.bind_framebuffer(glow::FRAMEBUFFER, None) };
        if status != glow::FRAMEBUFFER_COMPLETE || mismatch {
            let status = if mismatch {
                glow::FRAMEBUFFER_INCOMPLETE_ATTACHMENT
            } else {
                status
            };
            return Err(GlError::IncompleteFramebuffer {
                status,
                status_name: framebuffer_status_name(status),
                attachments: targets.len(),
                width,
                height,
            });
        }
        Ok(fb)
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Color attachments (draw buffers).
    pub fn attachments(&self) -> usize {
        self.attachments
    }

    /// Binds for drawing with the viewport covering every texel.
    pub(crate) fn bind(&self, ctx: &GlContext) {
        let gl = ctx.gl();
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.id));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
        }
    }

    /// Reads color attachment `index` back as `T`s.
    pub fn read<T: Pod>(&self, ctx: &GlContext, index: usize) -> GlResult<Vec<T>> {
        let texels = self.width as usize * self.height as usize;
        let bytes = texels * TEXEL_BYTES;
        let elem = std::mem::size_of::<T>().max(1);
        if !bytes.is_multiple_of(elem) || index >= self.attachments {
            return Err(GlError::SizeMismatch {
                got: elem,
                expected: bytes,
                width: self.width,
                height: self.height,
            });
        }
        let mut out: Vec<T> = vec![T::zeroed(); bytes / elem];
        self.read_pixels(ctx, index, glow::FLOAT, bytemuck::cast_slice_mut(&mut out))?;
        Ok(out)
    }

    /// glReadPixels of attachment `index` as RGBA of `kind` into `out`.
    fn read_pixels(
        &self,
        ctx: &GlContext,
        index: usize,
        kind: u32,
        out: &mut [u8],
    ) -> GlResult<()> {
        let gl = ctx.gl();
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.id));
            gl.read_buffer(glow::COLOR_ATTACHMENT0 + index as u32);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
            gl.read_pixels(
                0,
                0,
                self.width as i32,
                self.height as i32,
                glow::RGBA,
                kind,
                glow::PixelPackData::Slice(Some(out)),
            );
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, None);
        }
        ctx.check(if kind == glow::FLOAT {
            "glReadPixels(RGBA, FLOAT)"
        } else {
            "glReadPixels(RGBA, UNSIGNED_BYTE)"
        })
    }
}

impl Framebuffer {
    /// Reads an 8-bit colour attachment (an RGBA8 texture) back as bytes, four a texel.
    pub fn read_rgba8(&self, ctx: &GlContext, index: usize) -> GlResult<Vec<u8>> {
        if index >= self.attachments {
            return Err(GlError::SizeMismatch {
                got: index,
                expected: self.attachments,
                width: self.width,
                height: self.height,
            });
        }
        let mut out = vec![0u8; self.width as usize * self.height as usize * 4];
        self.read_pixels(ctx, index, glow::UNSIGNED_BYTE, &mut out)?;
        Ok(out)
    }
}

impl Drop for Framebuffer {
    fn drop(&mut self) {
        unsafe { self.shared.gl.delete_framebuffer(self.id) };
    }
}
