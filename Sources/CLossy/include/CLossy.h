// Private JPEG and WebP plumbing for GLESGlass: libjpeg-turbo (its TurboJPEG API)
// and libwebp encode 8-bit RGBA, tagged sRGB with an ICC profile, and decode the
// JPEG and WebP inputs a scene or a command reads (header first, then the pixels
// into memory the caller allocated once the header's size has been checked).
#ifndef CLOSSY_H
#define CLOSSY_H

#include <stddef.h>
#include <stdint.h>

/// The ICC profile both formats embed: sRGB (IEC 61966-2-1), ICC version 2,
/// made from its primaries, D50 white and transfer curve. Its length in `*size`.
const uint8_t *clossy_srgb_profile(size_t *size);

/// Whether every pixel of 8-bit RGBA `pixels` (`count` of them) is opaque.
int clossy_is_opaque(const uint8_t *pixels, size_t count);

/// JPEG of 8-bit RGBA (alpha ignored) at `quality` 1...100, 4:2:0 chroma, with
/// the sRGB profile in an APP2 marker. Returns 0 with the file in `*out` (free it
/// with `clossy_free`), or -1 with a message.
int clossy_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, int quality, uint8_t **out,
                       size_t *out_size, char *err, size_t err_size);

/// Lossy WebP of 8-bit RGBA (alpha kept where any pixel is not opaque) at
/// `quality` 1...100, in the extended format with the sRGB profile in an ICCP
/// chunk. Returns 0 with the file in `*out` (free it with `clossy_free`), or -1
/// with a message.
int clossy_encode_webp(const uint8_t *pixels, uint32_t width, uint32_t height, int quality, uint8_t **out,
                       size_t *out_size, char *err, size_t err_size);

/// Frees what an encoder or decoder here returned.
void clossy_free(uint8_t *data);

/// Decodes a JPEG (libjpeg-turbo) or WebP (libwebp) to 8-bit RGBA, opaque for a
/// JPEG. Returns 0 with the pixels in `*out` (free with `clossy_free`) and the
/// size, or -1 with a message.
int clossy_decode_jpeg(const uint8_t *data, size_t size, uint8_t **out, uint32_t *width, uint32_t *height,
                       char *err, size_t err_size);
int clossy_decode_webp(const uint8_t *data, size_t size, uint8_t **out, uint32_t *width, uint32_t *height,
                       char *err, size_t err_size);

/// What a JPEG's frame header says (libjpeg-turbo reads the markers up to the
/// first scan, no pixel data): its size, TurboJPEG's chroma subsampling
/// (`TJSAMP_*`) and colour space (`TJCS_*`: 0 RGB, 1 YCbCr, 2 grey, 3 CMYK,
/// 4 YCCK). Returns 0, or -1 with a message.
int clossy_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *subsampling,
                       int *colorspace, char *err, size_t err_size);

/// Decodes a JPEG into `out`, `width` x `height` 8-bit RGBA (opaque), which must
/// be the header's size. A warning of libjpeg-turbo's (truncated data, a corrupt
/// entropy-coded segment) stops the decode and fails it, as an error does.
/// Returns 0, or -1 with a message.
int clossy_decode_jpeg_into(const uint8_t *data, size_t size, uint8_t *out, uint32_t width, uint32_t height,
                            char *err, size_t err_size);

/// What a WebP's headers say (libwebp's WebPGetFeatures, no pixel data): its
/// size, whether it has alpha, whether it is animated, and whether it is lossy
/// (1), lossless (2) or mixed (0). Returns 0, or -1 with a message.
int clossy_webp_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *has_alpha,
                       int *has_animation, int *format, char *err, size_t err_size);

/// Decodes a still WebP into `out`, `width` x `height` 8-bit RGBA (straight
/// alpha), which must be the header's size. Returns 0, or -1 with a message.
int clossy_decode_webp_into(const uint8_t *data, size_t size, uint8_t *out, uint32_t width, uint32_t height,
                            char *err, size_t err_size);

/// The ICC profile a JPEG (APP2 markers) or WebP (ICCP chunk) holds, copied to
/// `*out` (free with `clossy_free`); returns 0, 1 when it has none, -1 on a damaged file.
int clossy_embedded_profile(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size);

#endif
