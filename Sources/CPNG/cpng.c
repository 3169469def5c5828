#include "CPNG.h"
#include "fast_png.h"

#include <libdeflate.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
  char *err;
  size_t err_size;
  char *warn;
  size_t warn_size;
} cpng_io;

static void cpng_copy(char *dst, size_t dst_size, const char *msg) {
  if (dst == NULL || dst_size == 0) return;
  snprintf(dst, dst_size, "%s", msg);
}

static void cpng_error_fn(png_structp png, png_const_charp msg) {
  cpng_io *io = (cpng_io *)png_get_error_ptr(png);
  if (io != NULL && io->err != NULL && io->err[0] == '\0') cpng_copy(io->err, io->err_size, msg);
  png_longjmp(png, 1);
}

static void cpng_warning_fn(png_structp png, png_const_charp msg) {
  cpng_io *io = (cpng_io *)png_get_error_ptr(png);
  if (io == NULL || io->warn == NULL || io->warn_size == 0) return;
  size_t used = strlen(io->warn);
  if (used + 3 >= io->warn_size) return;
  snprintf(io->warn + used, io->warn_size - used, "%s%s", used ? "; " : "", msg);
}

static void cpng_read_fn(png_structp png, png_bytep out, png_size_t count) {
  cpng_io *io = (cpng_io *)png_get_io_ptr(png);
  if (count > io->size - io->offset) {
    png_error(png, "the file ends early (truncated)");
  }
  memcpy(out, io->data + io->offset, count);
  io->offset += count;
}

static int cpng_check_signature(const uint8_t *data, size_t size, char *err, size_t err_size) {
  if (size == 0) {
    cpng_copy(err, err_size, "the file is empty");
    return -1;
  }
  if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
    cpng_copy(err, err_size, "not a PNG file (the PNG signature is missing)");
    return -1;
  }
  return 0;
}

static png_structp cpng_new_reader(cpng_io *io) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, io, cpng_error_fn, cpng_warning_fn);
  if (png == NULL) return NULL;
  png_set_read_fn(png, io, cpng_read_fn);
  // An ICC profile libpng dislikes is a warning, not a reason to refuse the image.
  png_set_benign_errors(png, 1);
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
  png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
  // Our own pixel limit is checked by the caller; keep libpng's generous one.
  png_set_user_limits(png, 0x7fffffffL, 0x7fffffffL);
  // Text, palette-suggestion and other metadata chunks change no pixel, and
  // libpng 1.6.39 allocates their claimed length before reading them (a 122-byte
  // file claiming a 1.7 GB sPLT chunk made it allocate and touch 1.7 GB): they are
  // skipped unread, as unknown chunks are. No other chunk can hold more than
  // the file does.
  static const png_byte skipped[] = {'t', 'E', 'X', 't', '\0', 'z', 'T', 'X', 't', '\0', 'i', 'T', 'X', 't', '\0',
                                     's', 'P', 'L', 'T', '\0', 'e', 'X', 'I', 'f', '\0', 'p', 'C', 'A', 'L', '\0',
                                     's', 'C', 'A', 'L', '\0', 'h', 'I', 'S', 'T', '\0'};
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof(skipped) / 5));
  png_set_chunk_malloc_max(png, io->size > 0 ? io->size : 1);
  return png;
}

static uint32_t cpng_get32(const uint8_t *p);

/* The compressed image data a file can hold: the lengths of its IDAT chunks up to
   IEND, each cut to what the file holds. A walk over lengths and types only, so a
   caller can bound what the data can inflate to before allocating for it. */
static uint64_t cpng_idat_bytes(const uint8_t *data, size_t size) {
  uint64_t total = 0;
  size_t pos = 8;
  while (pos <= size && size - pos >= 8) {
    uint32_t length = cpng_get32(data + pos);
    const uint8_t *type = data + pos + 4;
    size_t available = size - pos - 8;
    if (!memcmp(type, "IDAT", 4)) total += length < available ? length : available;
    if (!memcmp(type, "IEND", 4) || length >= available) break;
    pos += 12 + (size_t)length;
  }
  return total;
}

int cpng_read_header(const uint8_t *data, size_t size, cpng_info *info, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  if (cpng_check_signature(data, size, err, err_size) != 0) return -1;
  cpng_io io = {data, size, 0, err, err_size, NULL, 0};
  png_structp png = cpng_new_reader(&io);
  if (png == NULL) {
    cpng_copy(err, err_size, "libpng could not start (out of memory)");
    return -1;
  }
  png_infop pinfo = png_create_info_struct(png);
  if (pinfo == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, pinfo ? &pinfo : NULL, NULL);
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not read the header");
    return -1;
  }
  png_read_info(png, pinfo);
  info->width = png_get_image_width(png, pinfo);
  info->height = png_get_image_height(png, pinfo);
  info->bit_depth = png_get_bit_depth(png, pinfo);
  info->color_type = png_get_color_type(png, pinfo);
  info->interlaced = png_get_interlace_type(png, pinfo) != PNG_INTERLACE_NONE;
  info->has_trns = png_get_valid(png, pinfo, PNG_INFO_tRNS) != 0;
  png_destroy_read_struct(&png, &pinfo, NULL);
  info->idat_bytes = cpng_idat_bytes(data, size);
  return 0;
}

static uint32_t cpng_get32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static int cpng_paeth(int a, int b, int c) {
  int p = a + b - c;
  int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
  return (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
}

/* The common case without libpng: a non-interlaced 8- or 16-bit RGB or RGBA file
   whose chunks are all ones that change nothing in the pixels. libdeflate
   inflates about three times faster than zlib. Returns 1 when decoded, 0 when the
   file is not such a file or anything is amiss (libpng then decodes it, or
   reports the error in its own words). */
static int cpng_decode_fast(const uint8_t *data, size_t size, int depth, void *out, size_t out_size) {
  if (size < 8 + 25) return 0;
  size_t pos = 8;
  uint32_t width = 0, height = 0;
  int bit_depth = 0, color_type = 0, seen_ihdr = 0, seen_iend = 0, in_idat = 0, idat_ended = 0;
  size_t idat_total = 0;
  /* First walk: check every chunk and its CRC, and add up the IDAT bytes. */
  while (pos + 12 <= size) {
    uint32_t length = cpng_get32(data + pos);
    const uint8_t *type = data + pos + 4;
    if (length > size - pos - 12) return 0;
    if (libdeflate_crc32(0, type, length + 4) != cpng_get32(data + pos + 8 + length)) return 0;
    if (!seen_ihdr && memcmp(type, "IHDR", 4)) return 0; /* IHDR comes first */
    if (!memcmp(type, "IHDR", 4)) {
      if (length != 13 || seen_ihdr) return 0;
      const uint8_t *h = data + pos + 8;
      width = cpng_get32(h);
      height = cpng_get32(h + 4);
      bit_depth = h[8];
      color_type = h[9];
      if (h[10] != 0 || h[11] != 0 || h[12] != 0) return 0; /* compression, filter, interlace */
      seen_ihdr = 1;
    } else if (!memcmp(type, "IDAT", 4)) {
      if (idat_ended) return 0; /* IDAT chunks must be consecutive */
      idat_total += length;
      in_idat = 1;
      pos += 12 + length;
      continue;
    } else if (!memcmp(type, "IEND", 4)) {
      seen_iend = 1;
      break;
    } else if (memcmp(type, "sRGB", 4) && memcmp(type, "gAMA", 4) && memcmp(type, "cHRM", 4) &&
               memcmp(type, "pHYs", 4) && memcmp(type, "tEXt", 4) && memcmp(type, "tIME", 4)) {
      return 0; /* tRNS, iCCP, PLTE, ...: libpng's business */
    }
    if (in_idat) idat_ended = 1;
    pos += 12 + length;
  }
  if (!seen_ihdr || !seen_iend || idat_total == 0 || width == 0 || height == 0) return 0;
  if (bit_depth != depth || (bit_depth != 8 && bit_depth != 16) || (color_type != 2 && color_type != 6)) return 0;
  const size_t channels = color_type == 6 ? 4 : 3;
  const size_t sample_bytes = (size_t)bit_depth / 8;
  const size_t bpp = channels * sample_bytes;
  const size_t line = (size_t)width * bpp;
  const size_t out_line = (size_t)width * 4 * sample_bytes;
  if ((size_t)height * out_line > out_size) return 0;
  const size_t raw_size = (line + 1) * (size_t)height;

  uint8_t *idat = (uint8_t *)malloc(idat_total);
  uint8_t *raw = (uint8_t *)malloc(raw_size);
  if (idat == NULL || raw == NULL) {
    free(idat);
    free(raw);
    return 0;
  }
  size_t filled = 0;
  for (pos = 8; pos + 12 <= size;) {
    uint32_t length = cpng_get32(data + pos);
    if (!memcmp(data + pos + 4, "IDAT", 4)) {
      memcpy(idat + filled, data + pos + 8, length);
      filled += length;
    } else if (!memcmp(data + pos + 4, "IEND", 4)) {
      break;
    }
    pos += 12 + length;
  }
  struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
  size_t got = 0;
  enum libdeflate_result result =
      inflater ? libdeflate_zlib_decompress(inflater, idat, idat_total, raw, raw_size, &got) : LIBDEFLATE_BAD_DATA;
  libdeflate_free_decompressor(inflater);
  free(idat);
  if (result != LIBDEFLATE_SUCCESS || got != raw_size) {
    free(raw);
    return 0;
  }
  /* Unfilter in place, row by row, then widen to RGBA in native byte order. */
  uint8_t *previous = NULL;
  for (uint32_t y = 0; y < height; y++) {
    uint8_t *row = raw + (size_t)y * (line + 1);
    uint8_t filter = row[0];
    uint8_t *restrict b = row + 1;
    switch (filter) {
      case 0:
        break;
      case 1:
        for (size_t i = bpp; i < line; i++) b[i] = (uint8_t)(b[i] + b[i - bpp]);
        break;
      case 2:
        if (previous)
          for (size_t i = 0; i < line; i++) b[i] = (uint8_t)(b[i] + previous[i]);
        break;
      case 3:
        for (size_t i = 0; i < line; i++) {
          int left = i >= bpp ? b[i - bpp] : 0;
          int up = previous ? previous[i] : 0;
          b[i] = (uint8_t)(b[i] + ((left + up) >> 1));
        }
        break;
      case 4:
        for (size_t i = 0; i < line; i++) {
          int left = i >= bpp ? b[i - bpp] : 0;
          int up = previous ? previous[i] : 0;
          int corner = (previous && i >= bpp) ? previous[i - bpp] : 0;
          b[i] = (uint8_t)(b[i] + cpng_paeth(left, up, corner));
        }
        break;
      default:
        free(raw);
        return 0;
    }
    previous = b;
    uint8_t *dst = (uint8_t *)out + (size_t)y * out_line;
    if (sample_bytes == 1) {
      if (channels == 4) {
        memcpy(dst, b, line);
      } else {
        for (uint32_t x = 0; x < width; x++) {
          dst[4 * x] = b[3 * x];
          dst[4 * x + 1] = b[3 * x + 1];
          dst[4 * x + 2] = b[3 * x + 2];
          dst[4 * x + 3] = 255;
        }
      }
    } else {
      uint16_t *d16 = (uint16_t *)dst;
      for (uint32_t x = 0; x < width; x++) {
        for (size_t c = 0; c < 4; c++) {
          uint16_t v = 65535;
          if (c < channels) {
            const uint8_t *sample = b + (x * channels + c) * 2;
            v = (uint16_t)((sample[0] << 8) | sample[1]);
          }
          d16[4 * x + c] = v;
        }
      }
    }
  }
  free(raw);
  return 1;
}

/* Every colour type becomes RGBA at `depth` (8 or native-endian 16 bits). */
static void cpng_set_rgba(png_structp png, png_infop pinfo, int depth) {
  int color_type = png_get_color_type(png, pinfo);
  int bit_depth = png_get_bit_depth(png, pinfo);
  png_set_expand(png);  // palette -> RGB, grey < 8 bits -> 8 bits, tRNS -> alpha
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  if (depth == 8) {
    if (bit_depth == 16) png_set_scale_16(png);
  } else if (bit_depth < 16) {
    png_set_expand_16(png);
  }
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, pinfo, PNG_INFO_tRNS)) {
    png_set_add_alpha(png, depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
  }
  if (depth == 16) {
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) png_set_swap(png);  // PNG is big-endian
  }
}

int cpng_decode(const uint8_t *data, size_t size, int depth, cpng_decoder decoder, void *out, size_t out_size,
                char *err, size_t err_size, char *warn, size_t warn_size) {
  if (err_size) err[0] = '\0';
  if (warn_size) warn[0] = '\0';
  if (cpng_check_signature(data, size, err, err_size) != 0) return -1;
  if (decoder != CPNG_DECODER_LIBPNG && cpng_decode_fast(data, size, depth, out, out_size)) return 0;
  if (decoder == CPNG_DECODER_FAST) return 1;
  cpng_io io = {data, size, 0, err, err_size, warn, warn_size};
  png_structp png = cpng_new_reader(&io);
  if (png == NULL) {
    cpng_copy(err, err_size, "libpng could not start (out of memory)");
    return -1;
  }
  png_infop pinfo = png_create_info_struct(png);
  png_bytep *volatile rows = NULL;
  if (pinfo == NULL || setjmp(png_jmpbuf(png))) {
    free(rows);
    png_destroy_read_struct(&png, pinfo ? &pinfo : NULL, NULL);
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not decode the image");
    return -1;
  }
  png_read_info(png, pinfo);
  png_uint_32 width = png_get_image_width(png, pinfo);
  png_uint_32 height = png_get_image_height(png, pinfo);
  cpng_set_rgba(png, pinfo, depth);
  png_set_interlace_handling(png);
  png_read_update_info(png, pinfo);

  size_t row_bytes = (size_t)width * 4 * (size_t)(depth / 8);
  if (png_get_rowbytes(png, pinfo) != row_bytes || row_bytes * height > out_size) {
    cpng_copy(err, err_size, "internal: unexpected row size after expansion to RGBA");
    png_longjmp(png, 1);
  }
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (rows == NULL) {
    cpng_copy(err, err_size, "out of memory for row pointers");
    png_longjmp(png, 1);
  }
  for (png_uint_32 y = 0; y < height; y++) rows[y] = (png_bytep)out + (size_t)y * row_bytes;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  rows = NULL;
  png_destroy_read_struct(&png, &pinfo, NULL);
  return 0;
}

/* Row-by-row decoding through libpng, for images much larger than what is made
   of them: memory is one row, not the image. Each call sets its own error jump,
   so libpng's longjmp never crosses a frame outside this file. */
struct cpng_rows {
  png_structp png;
  png_infop info;
  cpng_io io;
  size_t row_bytes;
  uint32_t rows_left;
  int failed;
  char warnings[2048];
};

cpng_rows *cpng_rows_open(const uint8_t *data, size_t size, int depth, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  if (cpng_check_signature(data, size, err, err_size) != 0) return NULL;
  cpng_rows *volatile rows = (cpng_rows *)calloc(1, sizeof(cpng_rows));
  if (rows == NULL) {
    cpng_copy(err, err_size, "out of memory");
    return NULL;
  }
  rows->io = (cpng_io){data, size, 0, err, err_size, rows->warnings, sizeof(rows->warnings)};
  rows->png = cpng_new_reader(&rows->io);
  if (rows->png == NULL) {
    cpng_copy(err, err_size, "libpng could not start (out of memory)");
    free(rows);
    return NULL;
  }
  rows->info = png_create_info_struct(rows->png);
  if (rows->info == NULL || setjmp(png_jmpbuf(rows->png))) {
    png_destroy_read_struct(&rows->png, rows->info ? &rows->info : NULL, NULL);
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not decode the image");
    free(rows);
    return NULL;
  }
  png_read_info(rows->png, rows->info);
  if (png_get_interlace_type(rows->png, rows->info) != PNG_INTERLACE_NONE) {
    cpng_copy(err, err_size, "internal: an interlaced image cannot be decoded row by row");
    png_longjmp(rows->png, 1);
  }
  cpng_set_rgba(rows->png, rows->info, depth);
  png_read_update_info(rows->png, rows->info);
  uint32_t width = png_get_image_width(rows->png, rows->info);
  rows->row_bytes = (size_t)width * 4 * (size_t)(depth / 8);
  if (png_get_rowbytes(rows->png, rows->info) != rows->row_bytes) {
    cpng_copy(err, err_size, "internal: unexpected row size after expansion to RGBA");
    png_longjmp(rows->png, 1);
  }
  rows->rows_left = png_get_image_height(rows->png, rows->info);
  return rows;
}

int cpng_rows_read(cpng_rows *rows, void *out, uint32_t count, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  rows->io.err = err;
  rows->io.err_size = err_size;
  if (rows->failed || count > rows->rows_left) {
    cpng_copy(err, err_size, rows->failed ? "libpng failed earlier" : "internal: more rows asked than the image has");
    return -1;
  }
  uint8_t *volatile target = (uint8_t *)out;
  if (setjmp(png_jmpbuf(rows->png))) {
    rows->failed = 1;
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not decode the image");
    return -1;
  }
  for (uint32_t i = 0; i < count; i++) {
    png_read_row(rows->png, target + (size_t)i * rows->row_bytes, NULL);
    rows->rows_left--;
  }
  return 0;
}

int cpng_rows_finish(cpng_rows *rows, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  rows->io.err = err;
  rows->io.err_size = err_size;
  if (rows->failed || rows->rows_left != 0) {
    cpng_copy(err, err_size, rows->failed ? "libpng failed earlier" : "internal: rows left unread");
    return -1;
  }
  if (setjmp(png_jmpbuf(rows->png))) {
    rows->failed = 1;
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not decode the image");
    return -1;
  }
  png_read_end(rows->png, NULL);
  return 0;
}

const char *cpng_rows_warnings(const cpng_rows *rows) { return rows->warnings; }

void cpng_rows_close(cpng_rows *rows) {
  if (rows == NULL) return;
  png_destroy_read_struct(&rows->png, &rows->info, NULL);
  free(rows);
}

static void cpng_put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Writes one PNG chunk at `out`: length, type, data, CRC (libdeflate's crc32 is
   the PNG CRC). Returns the bytes written, 12 + length. */
static size_t cpng_chunk(uint8_t *out, const char *type, const uint8_t *data, size_t length) {
  cpng_put32(out, (uint32_t)length);
  memcpy(out + 4, type, 4);
  if (length) memcpy(out + 8, data, length);
  cpng_put32(out + 8 + length, libdeflate_crc32(0, out + 4, 4 + length));
  return 12 + length;
}

/* What an encoding thread keeps between encodes: the filtered rows, the
   compressed data and libdeflate's compressor. A fresh 8 MB buffer per 1080p
   frame costs thousands of page faults, more than the filter itself. Freed when
   the thread ends. */
typedef struct {
  uint8_t *filtered;
  size_t filtered_capacity;
  uint8_t *compressed;
  size_t compressed_capacity;
  struct libdeflate_compressor *compressor;
  int level;
} cpng_scratch;

static pthread_key_t cpng_scratch_key;
static pthread_once_t cpng_scratch_once = PTHREAD_ONCE_INIT;

static void cpng_scratch_free(void *value) {
  cpng_scratch *scratch = (cpng_scratch *)value;
  if (scratch == NULL) return;
  free(scratch->filtered);
  free(scratch->compressed);
  if (scratch->compressor) libdeflate_free_compressor(scratch->compressor);
  free(scratch);
}

static void cpng_scratch_make_key(void) { pthread_key_create(&cpng_scratch_key, cpng_scratch_free); }

/* This thread's scratch with room for `filtered_size` bytes of rows and a
   compressor of `level`, or NULL when memory runs out. Buffers that grew past
   64 MiB are not kept for the next encode (see cpng_scratch_release). */
static cpng_scratch *cpng_scratch_get(size_t filtered_size, int level) {
  pthread_once(&cpng_scratch_once, cpng_scratch_make_key);
  cpng_scratch *scratch = (cpng_scratch *)pthread_getspecific(cpng_scratch_key);
  if (scratch == NULL) {
    scratch = (cpng_scratch *)calloc(1, sizeof(cpng_scratch));
    if (scratch == NULL || pthread_setspecific(cpng_scratch_key, scratch) != 0) {
      free(scratch);
      return NULL;
    }
  }
  if (scratch->compressor == NULL || scratch->level != level) {
    if (scratch->compressor) libdeflate_free_compressor(scratch->compressor);
    scratch->compressor = libdeflate_alloc_compressor(level);
    scratch->level = level;
    if (scratch->compressor == NULL) return NULL;
  }
  if (scratch->filtered_capacity < filtered_size) {
    free(scratch->filtered);
    scratch->filtered = (uint8_t *)malloc(filtered_size ? filtered_size : 1);
    scratch->filtered_capacity = scratch->filtered ? filtered_size : 0;
    if (scratch->filtered == NULL) return NULL;
  }
  size_t bound = libdeflate_zlib_compress_bound(scratch->compressor, filtered_size);
  if (scratch->compressed_capacity < bound) {
    free(scratch->compressed);
    scratch->compressed = (uint8_t *)malloc(bound);
    scratch->compressed_capacity = scratch->compressed ? bound : 0;
    if (scratch->compressed == NULL) return NULL;
  }
  return scratch;
}

/* After an encode: a thread that encoded a huge image does not keep its buffers. */
static void cpng_scratch_release(cpng_scratch *scratch) {
  const size_t keep = (size_t)64 << 20;
  if (scratch->filtered_capacity > keep) {
    free(scratch->filtered);
    scratch->filtered = NULL;
    scratch->filtered_capacity = 0;
  }
  if (scratch->compressed_capacity > keep) {
    free(scratch->compressed);
    scratch->compressed = NULL;
    scratch->compressed_capacity = 0;
  }
}

/* The bytes before the image data: signature, IHDR, sRGB, gAMA, cHRM. */
#define CPNG_HEAD_BYTES (8 + (12 + 13) + (12 + 1) + (12 + 4) + (12 + 32))

/* Writes the signature and the chunks before the image data, which say RGBA at
   `depth` bits, sRGB; returns CPNG_HEAD_BYTES. */
static size_t cpng_put_head(uint8_t *file, uint32_t width, uint32_t height, int depth) {
  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  uint8_t ihdr[13];
  cpng_put32(ihdr, width);
  cpng_put32(ihdr + 4, height);
  ihdr[8] = (uint8_t)depth;
  ihdr[9] = 6;  // RGBA
  ihdr[10] = ihdr[11] = ihdr[12] = 0;
  const uint8_t srgb[1] = {0};  // perceptual intent
  uint8_t gama[4];
  cpng_put32(gama, 45455);
  // cHRM of sRGB (BT.709 primaries, D65), times 100000, as libpng writes it.
  static const uint32_t chrm_values[8] = {31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000};
  uint8_t chrm[32];
  for (int i = 0; i < 8; i++) cpng_put32(chrm + 4 * i, chrm_values[i]);
  size_t at = 8;
  memcpy(file, signature, 8);
  at += cpng_chunk(file + at, "IHDR", ihdr, 13);
  at += cpng_chunk(file + at, "sRGB", srgb, 1);
  at += cpng_chunk(file + at, "gAMA", gama, 4);
  at += cpng_chunk(file + at, "cHRM", chrm, 32);
  return at;
}

int cpng_encode_fast_capacity(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                              size_t band_bytes, size_t capacity, uint8_t **png, size_t *png_size, char *err,
                              size_t err_size) {
  if (err_size) err[0] = '\0';
  *png = NULL;
  *png_size = 0;
  if (width == 0 || height == 0 || (depth != 8 && depth != 16)) {
    cpng_copy(err, err_size, "the image is empty or its depth is not 8 or 16 bits");
    return -1;
  }
  // Every size checked: a row, the pixels' extent, the bound, the file.
  size_t line, extent, bound, total;
  if (__builtin_mul_overflow((size_t)width, (size_t)(depth == 16 ? 8 : 4), &line) || row_bytes < line ||
      __builtin_mul_overflow((size_t)(height - 1), row_bytes, &extent) ||
      __builtin_add_overflow(extent, line, &extent)) {
    cpng_copy(err, err_size, "the image's rows are shorter than its width or do not fit in memory");
    return -1;
  }
  bound = cpng_fast_zlib_bound(line, height, band_bytes);
  if (capacity == 0) capacity = bound;
  if (bound == 0 || __builtin_add_overflow(capacity, (size_t)(CPNG_HEAD_BYTES + 8 + 4 + 12), &total)) {
    cpng_copy(err, err_size, "the PNG file of the image would not fit in memory");
    return -1;
  }
  uint8_t *file = (uint8_t *)malloc(total);
  if (file == NULL) {
    cpng_copy(err, err_size, "out of memory for the PNG file");
    return -1;
  }
  size_t at = cpng_put_head(file, width, height, depth);
  uint8_t *stream = file + at + 8;
  size_t length = 0;
  const int status = cpng_fast_zlib(pixels, width, height, depth, row_bytes, band_bytes, stream, capacity, &length);
  if (status != 0) {
    free(file);
    cpng_copy(err, err_size,
              status == -1 ? "out of memory for a band of the PNG"
                           : "the PNG's image data would pass the end of its buffer (the encoder's size bound is "
                             "wrong); nothing was written past it");
    return -1;
  }
  if (length > 0x7FFFFFFFu) {
    // Over a chunk's limit (a gigapixel of noise): one IDAT per 1 GiB.
    const size_t chunk = (size_t)1 << 30;
    const size_t chunks = (length + chunk - 1) / chunk;
    uint8_t *split = (uint8_t *)malloc(at + length + 12 * chunks + 12);
    if (split == NULL) {
      free(file);
      cpng_copy(err, err_size, "out of memory for the PNG file");
      return -1;
    }
    memcpy(split, file, at);
    size_t to = at;
    for (size_t offset = 0; offset < length; offset += chunk) {
      to += cpng_chunk(split + to, "IDAT", stream + offset, length - offset < chunk ? length - offset : chunk);
    }
    free(file);
    file = split;
    at = to;
  } else {
    // The stream was written in place, after room for the chunk's length and type.
    cpng_put32(file + at, (uint32_t)length);
    memcpy(file + at + 4, "IDAT", 4);
    cpng_put32(file + at + 8 + length, libdeflate_crc32(0, file + at + 4, length + 4));
    at += 12 + length;
  }
  at += cpng_chunk(file + at, "IEND", NULL, 0);
  *png = file;
  *png_size = at;
  return 0;
}

int cpng_encode_fast(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                     size_t band_bytes, uint8_t **png, size_t *png_size, char *err, size_t err_size) {
  return cpng_encode_fast_capacity(pixels, width, height, depth, row_bytes, band_bytes, 0, png, png_size, err,
                                   err_size);
}

int cpng_encode(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes, int compression,
                int filter, uint8_t **png, size_t *png_size, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  *png = NULL;
  *png_size = 0;
  const int bpp = depth == 16 ? 8 : 4;  // bytes per pixel
  const size_t line = (size_t)width * bpp;
  const size_t filtered_size = (line + 1) * (size_t)height;
  cpng_scratch *scratch = cpng_scratch_get(filtered_size, compression);
  if (scratch == NULL) {
    cpng_copy(err, err_size, "out of memory for the filtered image");
    return -1;
  }
  uint8_t *filtered = scratch->filtered;
  // Filter (the default): Up, each byte minus the byte one row above (the first
  // row has none). It costs one subtraction, vectorises, and on rendered UIs and
  // photos gives smaller files than Sub that deflate faster (glass-gpu-bench
  // encode). Sub (each byte minus the byte one pixel left) is kept for that
  // comparison; 0 stores rows unfiltered. 16-bit samples are written big-endian,
  // as PNG wants: rows are swapped first, then filtered in place, Sub from the
  // right and Up from the bottom row, so each byte still sees unfiltered ones.
  const uint16_t probe = 1;
  const int little_endian = *(const uint8_t *)&probe == 1;
  const int up = filter == 2, sub = filter == 1;
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *restrict row = (const uint8_t *)pixels + (size_t)y * row_bytes;
    uint8_t *out = filtered + (size_t)y * (line + 1);
    uint8_t *restrict bytes = out + 1;
    out[0] = (uint8_t)(up ? (y > 0 ? 2 : 0) : sub ? 1 : 0);
    if (depth == 16 && little_endian) {
      for (size_t i = 0; i < line; i += 2) {
        bytes[i] = row[i + 1];
        bytes[i + 1] = row[i];
      }
    } else if (depth == 8 && up && y > 0) {
      const uint8_t *restrict above = row - row_bytes;
      for (size_t i = 0; i < line; i++) bytes[i] = (uint8_t)(row[i] - above[i]);
    } else if (depth == 8 && sub) {
      for (size_t i = 0; i < (size_t)bpp && i < line; i++) bytes[i] = row[i];
      for (size_t i = bpp; i < line; i++) bytes[i] = (uint8_t)(row[i] - row[i - bpp]);
    } else {
      memcpy(bytes, row, line);
    }
    if (depth == 16 && sub) {
      for (size_t i = line; i-- > (size_t)bpp;) bytes[i] = (uint8_t)(bytes[i] - bytes[i - bpp]);
    }
  }
  if (up && depth == 16) {
    for (uint32_t y = height; y-- > 1;) {
      uint8_t *restrict bytes = filtered + (size_t)y * (line + 1) + 1;
      const uint8_t *restrict above = bytes - (line + 1);
      for (size_t i = 0; i < line; i++) bytes[i] = (uint8_t)(bytes[i] - above[i]);
    }
  }
  uint8_t *compressed = scratch->compressed;
  size_t compressed_size =
      libdeflate_zlib_compress(scratch->compressor, filtered, filtered_size, compressed, scratch->compressed_capacity);
  if (compressed_size == 0) {
    cpng_scratch_release(scratch);
    cpng_copy(err, err_size, "the compressed image did not fit its buffer");
    return -1;
  }

  // The file: signature, IHDR, sRGB, gAMA, cHRM, IDAT in chunks of at most 1 MiB, IEND.
  const size_t idat_max = (size_t)1 << 20;
  const size_t idat_chunks = (compressed_size + idat_max - 1) / idat_max;
  const size_t size = CPNG_HEAD_BYTES + compressed_size + 12 * idat_chunks + 12;
  uint8_t *file = (uint8_t *)malloc(size);
  if (file == NULL) {
    cpng_scratch_release(scratch);
    cpng_copy(err, err_size, "out of memory for the PNG file");
    return -1;
  }
  size_t at = cpng_put_head(file, width, height, depth);
  for (size_t offset = 0; offset < compressed_size; offset += idat_max) {
    size_t length = compressed_size - offset < idat_max ? compressed_size - offset : idat_max;
    at += cpng_chunk(file + at, "IDAT", compressed + offset, length);
  }
  at += cpng_chunk(file + at, "IEND", NULL, 0);
  cpng_scratch_release(scratch);
  *png = file;
  *png_size = at;
  return 0;
}

void cpng_free(uint8_t *png) { free(png); }

/* libpng's own writer, for the benchmark's comparison: a growing buffer. */
typedef struct {
  uint8_t *data;
  size_t size, capacity;
  int failed;
} cpng_sink;

static void cpng_sink_write(png_structp png, png_bytep bytes, png_size_t count) {
  cpng_sink *sink = (cpng_sink *)png_get_io_ptr(png);
  if (sink->size + count > sink->capacity) {
    size_t capacity = (sink->capacity + count) * 2;
    uint8_t *grown = (uint8_t *)realloc(sink->data, capacity);
    if (grown == NULL) {
      sink->failed = 1;
      png_error(png, "out of memory for the PNG file");
    }
    sink->data = grown;
    sink->capacity = capacity;
  }
  memcpy(sink->data + sink->size, bytes, count);
  sink->size += count;
}

static void cpng_sink_flush(png_structp png) { (void)png; }

int cpng_encode_libpng(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes, int level,
                       uint8_t **png_out, size_t *png_size, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  *png_out = NULL;
  *png_size = 0;
  cpng_io io = {NULL, 0, 0, err, err_size, NULL, 0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, cpng_error_fn, cpng_warning_fn);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  cpng_sink sink = {NULL, 0, 0, 0};
  uint8_t *swapped = NULL;
  if (info == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : NULL);
    free(sink.data);
    free(swapped);
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not write the image");
    return -1;
  }
  png_set_write_fn(png, &sink, cpng_sink_write, cpng_sink_flush);
  png_set_compression_level(png, level);
  png_set_IHDR(png, info, width, height, depth, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info(png, info);
  const uint16_t probe = 1;
  if (depth == 16 && *(const uint8_t *)&probe == 1) png_set_swap(png);
  for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)pixels + (size_t)y * row_bytes);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  *png_out = sink.data;
  *png_size = sink.size;
  return 0;
}
