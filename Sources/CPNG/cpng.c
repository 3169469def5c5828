#include "CPNG.h"

#include <png.h>
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
  return png;
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
  return 0;
}

int cpng_decode(const uint8_t *data, size_t size, int depth, void *out, size_t out_size,
                char *err, size_t err_size, char *warn, size_t warn_size) {
  if (err_size) err[0] = '\0';
  if (warn_size) warn[0] = '\0';
  if (cpng_check_signature(data, size, err, err_size) != 0) return -1;
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
  int color_type = png_get_color_type(png, pinfo);
  int bit_depth = png_get_bit_depth(png, pinfo);

  // Every colour type becomes RGBA at the requested depth.
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

int cpng_encode_file(const char *path, const void *pixels, uint32_t width, uint32_t height,
                     int depth, size_t row_bytes, int compression, char *err, size_t err_size) {
  if (err_size) err[0] = '\0';
  FILE *file = fopen(path, "wb");
  if (file == NULL) {
    snprintf(err, err_size, "cannot open for writing");
    return -1;
  }
  cpng_io io = {NULL, 0, 0, err, err_size, NULL, 0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, cpng_error_fn, cpng_warning_fn);
  png_infop pinfo = png ? png_create_info_struct(png) : NULL;
  png_bytep *volatile rows = NULL;
  if (png == NULL || pinfo == NULL) {
    fclose(file);
    cpng_copy(err, err_size, "libpng could not start (out of memory)");
    png_destroy_write_struct(&png, pinfo ? &pinfo : NULL);
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    png_destroy_write_struct(&png, &pinfo);
    fclose(file);
    if (err_size && err[0] == '\0') cpng_copy(err, err_size, "libpng could not encode the image");
    return -1;
  }
  png_init_io(png, file);
  png_set_IHDR(png, pinfo, width, height, depth, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB_gAMA_and_cHRM(png, pinfo, PNG_sRGB_INTENT_PERCEPTUAL);
  png_set_compression_level(png, compression);
  if (compression <= 3) png_set_filter(png, 0, PNG_FILTER_SUB | PNG_FILTER_UP);
  png_write_info(png, pinfo);
  if (depth == 16) {
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) png_set_swap(png);
  }
  rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
  if (rows == NULL) {
    cpng_copy(err, err_size, "out of memory for row pointers");
    png_longjmp(png, 1);
  }
  for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)pixels + (size_t)y * row_bytes;
  png_write_image(png, rows);
  png_write_end(png, pinfo);
  free(rows);
  rows = NULL;
  png_destroy_write_struct(&png, &pinfo);
  if (fclose(file) != 0) {
    cpng_copy(err, err_size, "the file could not be completed (disk full?)");
    return -1;
  }
  return 0;
}
