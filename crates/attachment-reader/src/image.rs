//! Images (PNG, JPEG, GIF, WebP): decoded, turned upright by their EXIF orientation, scaled so the
//! long side is at most [`IMAGE_MAX_SIDE`] and encoded in at most [`IMAGE_MAX_ENCODED_BYTES`].
//!
//! The pixel count the header declares is checked before any pixel is decoded (a decompression
//! bomb is refused), and the decoder's allocations are capped. A PNG or JPEG already within both
//! caps and upright is given as it is. Otherwise a picture drawn with few colours (PNG, GIF) is
//! encoded as PNG when that fits, and anything else, or a PNG that does not fit, as JPEG at falling
//! quality, then smaller, until it fits. A GIF gives its first frame.

use crate::caps::{IMAGE_MAX_ENCODED_BYTES, IMAGE_MAX_SIDE, MAX_IMAGE_PIXELS};
use crate::sniff::Format;
use crate::{Image, mib};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use std::io::Cursor;

/// JPEG qualities tried, best first, before the image is made smaller.
const QUALITIES: [u8; 4] = [85, 75, 60, 45];
/// The smallest long side an image is shrunk to while it does not fit.
const MIN_SIDE: u32 = 200;

pub(crate) fn read(bytes: &[u8], format: &Format) -> Result<Image, String> {
    let image_format = match format {
        Format::Png => ImageFormat::Png,
        Format::Jpeg => ImageFormat::Jpeg,
        Format::Gif => ImageFormat::Gif,
        Format::Webp => ImageFormat::WebP,
        _ => return Err("it is not an image this crate decodes".to_string()),
    };
    let label = format.label().to_string();
    let mut reader = ImageReader::with_format(Cursor::new(bytes), image_format);
    let mut limits = Limits::default();
    // Room for the largest image allowed, at 16 bits a channel with alpha.
    limits.max_alloc = Some(MAX_IMAGE_PIXELS * 8 + 64 * 1024 * 1024);
    reader.limits(limits);
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| format!("its header cannot be read ({e})"))?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err("it declares no pixels".to_string());
    }
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_IMAGE_PIXELS {
        return Err(format!(
            "it declares {width}×{height} pixels, more than the {} megapixels decoded (a \
             decompression bomb, or an image too large to read)",
            MAX_IMAGE_PIXELS / 1_000_000
        ));
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut img = DynamicImage::from_decoder(decoder)
        .map_err(|e| format!("its pixels cannot be decoded ({e})"))?;
    let mut notes = Vec::new();
    if matches!(format, Format::Gif) {
        notes.push("A GIF: its first frame is given.".to_string());
    }
    let upright = orientation == Orientation::NoTransforms;
    if matches!(format, Format::Png | Format::Jpeg)
        && upright
        && width.max(height) <= IMAGE_MAX_SIDE
        && bytes.len() <= IMAGE_MAX_ENCODED_BYTES
    {
        return Ok(Image {
            bytes: bytes.to_vec(),
            mime: if matches!(format, Format::Png) {
                "image/png"
            } else {
                "image/jpeg"
            }
            .to_string(),
            width,
            height,
            original_width: width,
            original_height: height,
            original_format: label,
            notes,
        });
    }
    if !upright {
        img.apply_orientation(orientation);
        notes.push("Turned upright as its EXIF orientation says.".to_string());
    }
    let opaque = !img.color().has_alpha() || img.to_rgba8().pixels().all(|p| p.0[3] == 255);
    let img = if opaque {
        DynamicImage::ImageRgb8(img.to_rgb8())
    } else {
        DynamicImage::ImageRgba8(img.to_rgba8())
    };
    let drawn = matches!(format, Format::Png | Format::Gif);
    let mut side = IMAGE_MAX_SIDE.min(img.width().max(img.height()));
    loop {
        let scaled = fit(&img, side);
        if drawn {
            let png = encode_png(&scaled)?;
            if png.len() <= IMAGE_MAX_ENCODED_BYTES {
                return Ok(finish(
                    png,
                    "image/png",
                    &scaled,
                    width,
                    height,
                    label,
                    notes,
                ));
            }
        }
        let flat = if opaque {
            scaled.clone()
        } else {
            flatten(&scaled)
        };
        for q in QUALITIES {
            let jpeg = encode_jpeg(&flat, q)?;
            if jpeg.len() <= IMAGE_MAX_ENCODED_BYTES {
                notes.push(format!("Encoded as JPEG at quality {q}."));
                if !opaque {
                    notes.push("Its transparency was flattened onto white.".to_string());
                }
                return Ok(finish(
                    jpeg,
                    "image/jpeg",
                    &flat,
                    width,
                    height,
                    label,
                    notes,
                ));
            }
        }
        if side <= MIN_SIDE {
            return Err(format!(
                "it cannot be encoded in {} even at {side} pixels",
                mib(IMAGE_MAX_ENCODED_BYTES as u64)
            ));
        }
        side = (side * 3 / 4).max(MIN_SIDE);
    }
}

fn finish(
    bytes: Vec<u8>,
    mime: &str,
    img: &DynamicImage,
    original_width: u32,
    original_height: u32,
    original_format: String,
    mut notes: Vec<String>,
) -> Image {
    if (img.width(), img.height()) != (original_width, original_height)
        && (img.height(), img.width()) != (original_width, original_height)
    {
        notes.insert(
            0,
            format!(
                "Scaled from {original_width}×{original_height} to {}×{}.",
                img.width(),
                img.height()
            ),
        );
    }
    Image {
        bytes,
        mime: mime.to_string(),
        width: img.width(),
        height: img.height(),
        original_width,
        original_height,
        original_format,
        notes,
    }
}

/// The image scaled down so its long side is at most `side` (never up).
fn fit(img: &DynamicImage, side: u32) -> DynamicImage {
    let (w, h) = (img.width(), img.height());
    let long = w.max(h);
    if long <= side {
        return img.clone();
    }
    let scale = f64::from(side) / f64::from(long);
    let nw = ((f64::from(w) * scale).round() as u32).clamp(1, side);
    let nh = ((f64::from(h) * scale).round() as u32).clamp(1, side);
    // Area-averaging: fast, and without aliasing when shrinking.
    img.thumbnail_exact(nw, nh)
}

/// An image with alpha laid onto white.
fn flatten(img: &DynamicImage) -> DynamicImage {
    let mut rgb = image::RgbImage::new(img.width(), img.height());
    for (src, dst) in img.to_rgba8().pixels().zip(rgb.pixels_mut()) {
        let [r, g, b, a] = src.0;
        let blend =
            |c: u8| ((u16::from(c) * u16::from(a) + 255 * (255 - u16::from(a))) / 255) as u8;
        dst.0 = [blend(r), blend(g), blend(b)];
    }
    DynamicImage::ImageRgb8(rgb)
}

fn encode_png(img: &DynamicImage) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive);
    img.write_with_encoder(encoder)
        .map_err(|e| format!("it cannot be encoded as PNG ({e})"))?;
    Ok(out)
}

fn encode_jpeg(img: &DynamicImage, quality: u8) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = JpegEncoder::new_with_quality(&mut out, quality);
    encoder
        .encode_image(img)
        .map_err(|e| format!("it cannot be encoded as JPEG ({e})"))?;
    Ok(out)
}
