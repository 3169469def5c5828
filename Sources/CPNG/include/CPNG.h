// Private libpng plumbing for GLESGlass. libpng reports errors with longjmp, which
// Swift cannot cross, so every call that may fail lives here and returns a status
// and a message instead.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

/// What a PNG header says, before any pixel is decoded.
typedef struct {
  uint32_t width;
  uint32_t height;
  int bit_depth;     // bits per sample in the file: 1, 2, 4, 8 or 16
  int color_type;    // PNG colour type in the file
  int interlaced;    // 1 for Adam7
  int has_trns;      // 1 when a tRNS chunk gives transparency
  uint64_t idat_bytes;  // compressed image data: the lengths of the IDAT chunks, as far as the file holds them
} cpng_info;

/// Which decoder `cpng_decode` runs.
typedef enum {
  CPNG_DECODER_AUTO = 0,    // the fast path when the file is one it handles, else libpng
  CPNG_DECODER_FAST = 1,    // the fast path only: returns 1 when the file is not one it handles
  CPNG_DECODER_LIBPNG = 2,  // libpng only
} cpng_decoder;

/// Reads the signature and IHDR, and adds up the IDAT lengths (no CRC is
/// checked). Returns 0, or -1 with a message in `err`.
int cpng_read_header(const uint8_t *data, size_t size, cpng_info *info,
                     char *err, size_t err_size);

/// Decodes to RGBA: 8 bits per channel when `depth` is 8, native-endian 16 bits
/// when 16. `out` holds width * height * 4 * depth / 8 bytes. Warnings libpng only
/// warns about (a bad ICC profile, say) are collected in `warn`. Returns 0, or -1
/// with a message in `err`, or 1 when `decoder` is CPNG_DECODER_FAST and the file
/// is not one the fast path handles (or is damaged: the fast path gives no message).
int cpng_decode(const uint8_t *data, size_t size, int depth, cpng_decoder decoder, void *out, size_t out_size,
                char *err, size_t err_size, char *warn, size_t warn_size);

/// A row-by-row decode of a non-interlaced PNG, to RGBA as `cpng_decode` gives
/// it: memory for one row at a time. `data` must stay valid until closed.
typedef struct cpng_rows cpng_rows;

/// Reads the header and sets up the decode. Returns NULL with a message in `err`.
cpng_rows *cpng_rows_open(const uint8_t *data, size_t size, int depth, char *err, size_t err_size);

/// Decodes the next `count` rows into `out`, each width * 4 * depth / 8 bytes.
/// Returns 0, or -1 with a message (the reader is then spent).
int cpng_rows_read(cpng_rows *rows, void *out, uint32_t count, char *err, size_t err_size);

/// Reads what follows the last row (the file's end, its checksums), as
/// `cpng_decode` does. Returns 0, or -1 with a message.
int cpng_rows_finish(cpng_rows *rows, char *err, size_t err_size);

/// What libpng warned about so far, separated by "; ".
const char *cpng_rows_warnings(const cpng_rows *rows);

/// Frees the reader.
void cpng_rows_close(cpng_rows *rows);

/// Encodes RGBA rows (8 bits, or native-endian 16 bits when `depth` is 16) to a
/// whole PNG file in memory: rows filtered by `filter` (0 none, 1 Sub, 2 Up),
/// then libdeflate at level `compression` (0 = stored to 12 = smallest). Returns
/// 0 with the file in `*png` (free it with `cpng_free`) and its length in
/// `*png_size`, or -1 with a message.
int cpng_encode(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes, int compression,
                int filter, uint8_t **png, size_t *png_size, char *err, size_t err_size);

/// Encodes like `cpng_encode` with glass-gpu's fast encoder (fast_png.c): rows
/// Paeth-filtered with SIMD, then per band of rows (about `band_bytes` filtered
/// bytes; 0: the default, 256 KiB; tests vary it) one dynamic-Huffman block of
/// literals and runs of zeros, its code built from a sample of the band's rows,
/// or the band stored when that is smaller. A 16-bit band whose every sample's
/// two bytes are equal (an 8-bit image widened, v * 257) is also searched for
/// matches of two samples or more (a hash of each pair's 4 bytes). Every size is
/// checked for overflow, and the stream is written into a buffer of its bound
/// with an end that each band checks before it is written. Returns 0 with the
/// file in `*png` (free it with `cpng_free`), or -1 with a message.
int cpng_encode_fast(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                     size_t band_bytes, uint8_t **png, size_t *png_size, char *err, size_t err_size);

/// `cpng_encode_fast` with the zlib stream's buffer `capacity` bytes (0: the
/// bound it computes). For tests: a capacity under what the image needs fails
/// with a message, and nothing is written past the buffer.
int cpng_encode_fast_capacity(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                              size_t band_bytes, size_t capacity, uint8_t **png, size_t *png_size, char *err,
                              size_t err_size);

/// Whether the fast encoder's Paeth filter may use AVX2 where the CPU has it
/// (1, the default) or runs SSE2 (0): both write the same bytes.
void cpng_fast_set_simd(int avx2);
int cpng_fast_simd(void);

/// Encodes with libpng's own writer at zlib `level` and its default filter
/// choice: the benchmark's comparison. Free the file with `cpng_free`.
int cpng_encode_libpng(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes, int level,
                       uint8_t **png, size_t *png_size, char *err, size_t err_size);

/// Frees a file any encoder here made.
void cpng_free(uint8_t *png);

#endif
