// The fast encoder's zlib stream (fast_png.c), private to CPNG.
#ifndef CPNG_FAST_PNG_H
#define CPNG_FAST_PNG_H

#include <stddef.h>
#include <stdint.h>

/// The most bytes `cpng_fast_zlib` writes for rows of `line` bytes (filter byte
/// not counted), `height` of them, in bands of `band_bytes` (0: the default);
/// 0 when that does not fit a size_t.
size_t cpng_fast_zlib_bound(size_t line, uint32_t height, size_t band_bytes);

/// Writes the zlib stream of the filtered image to `out`, which holds
/// `capacity` bytes (the bound is always enough), and its length to `*length`.
/// Returns 0; -1 when memory for a band runs out; -2 when the stream would not
/// fit `capacity` (checked before each band is written: nothing is written
/// past it).
int cpng_fast_zlib(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                   size_t band_bytes, uint8_t *out, size_t capacity, size_t *length);

#endif
