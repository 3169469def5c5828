#include "CLossy.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

static void clossy_copy(char *dst, size_t dst_size, const char *msg) {
  if (dst != NULL && dst_size > 0) snprintf(dst, dst_size, "%s", msg);
}

// MARK: The sRGB profile

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static uint32_t s15f16(double v) { return (uint32_t)(int32_t)lround(v * 65536.0); }

static size_t put_xyz(uint8_t *p, double x, double y, double z) {
  memcpy(p, "XYZ ", 4);
  memset(p + 4, 0, 4);
  put32(p + 8, s15f16(x));
  put32(p + 12, s15f16(y));
  put32(p + 16, s15f16(z));
  return 20;
}

#define CLOSSY_CURVE_POINTS 1024
static uint8_t clossy_profile[4096];
static size_t clossy_profile_size;
static pthread_once_t clossy_profile_once = PTHREAD_ONCE_INIT;

// The profile, made once: header, tag table, then each tag's data on a 4-byte
// boundary. Colorants are sRGB's primaries adapted to D50 (Bradford), as the
// ICC's sRGB profiles give them; the three curves share one table of the sRGB
// transfer function.
static void clossy_make_profile(void) {
  uint8_t *p = clossy_profile;
  memset(p, 0, sizeof clossy_profile);
  const char *description = "sRGB IEC61966-2.1 (glass-gpu)";
  const char *copyright = "No copyright, use freely";
  enum { tags = 9 };
  size_t at = 128 + 4 + 12 * tags;
  uint8_t *table = p + 132;
  put32(p + 128, tags);
  int tag = 0;
#define CLOSSY_TAG(sig, offset, length)          \
  do {                                           \
    memcpy(table + 12 * tag, sig, 4);            \
    put32(table + 12 * tag + 4, (uint32_t)(offset)); \
    put32(table + 12 * tag + 8, (uint32_t)(length)); \
    tag++;                                       \
  } while (0)
  // desc: textDescriptionType, ASCII only.
  size_t start = at, text = strlen(description) + 1;
  memcpy(p + at, "desc", 4);
  put32(p + at + 8, (uint32_t)text);
  memcpy(p + at + 12, description, text);
  at += 12 + text + 4 + 4 + 2 + 1 + 67;
  CLOSSY_TAG("desc", start, at - start);
  at = (at + 3) & ~(size_t)3;
  // cprt: textType.
  start = at;
  text = strlen(copyright) + 1;
  memcpy(p + at, "text", 4);
  memcpy(p + at + 8, copyright, text);
  at += 8 + text;
  CLOSSY_TAG("cprt", start, at - start);
  at = (at + 3) & ~(size_t)3;
  // White point and colorants.
  static const double xyz[4][3] = {{0.9642, 1.0, 0.8249},
                                   {0.4360747, 0.2225045, 0.0139322},
                                   {0.3850649, 0.7168786, 0.0971045},
                                   {0.1430804, 0.0606169, 0.7141733}};
  static const char *names[4] = {"wtpt", "rXYZ", "gXYZ", "bXYZ"};
  for (int i = 0; i < 4; i++) {
    CLOSSY_TAG(names[i], at, 20);
    at += put_xyz(p + at, xyz[i][0], xyz[i][1], xyz[i][2]);
  }
  // The curve: the sRGB transfer function sampled at 1024 points.
  start = at;
  memcpy(p + at, "curv", 4);
  put32(p + at + 8, CLOSSY_CURVE_POINTS);
  for (int i = 0; i < CLOSSY_CURVE_POINTS; i++) {
    double v = (double)i / (CLOSSY_CURVE_POINTS - 1);
    double linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    long q = lround(linear * 65535.0);
    p[at + 12 + 2 * i] = (uint8_t)(q >> 8);
    p[at + 13 + 2 * i] = (uint8_t)q;
  }
  at += 12 + 2 * CLOSSY_CURVE_POINTS;
  CLOSSY_TAG("rTRC", start, at - start);
  CLOSSY_TAG("gTRC", start, at - start);
  CLOSSY_TAG("bTRC", start, at - start);
#undef CLOSSY_TAG
  // The header.
  put32(p, (uint32_t)at);
  put32(p + 8, 0x02100000);  // version 2.1
  memcpy(p + 12, "mntr", 4);
  memcpy(p + 16, "RGB ", 4);
  memcpy(p + 20, "XYZ ", 4);
  static const uint16_t date[6] = {2026, 11, 26, 0, 0, 0};
  for (int i = 0; i < 6; i++) {
    p[24 + 2 * i] = (uint8_t)(date[i] >> 8);
    p[25 + 2 * i] = (uint8_t)date[i];
  }
  memcpy(p + 36, "acsp", 4);
  put32(p + 68, s15f16(0.9642));  // the PCS illuminant, D50
  put32(p + 72, s15f16(1.0));
  put32(p + 76, s15f16(0.8249));
  clossy_profile_size = at;
}

const uint8_t *clossy_srgb_profile(size_t *size) {
  pthread_once(&clossy_profile_once, clossy_make_profile);
  *size = clossy_profile_size;
  return clossy_profile;
}

int clossy_is_opaque(const uint8_t *pixels, size_t count) {
  uint8_t all = 255;
  for (size_t i = 0; i < count; i++) all &= pixels[4 * i + 3];
  return all == 255;
}

void clossy_free(uint8_t *data) { free(data); }

// MARK: JPEG

int clossy_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, int quality, uint8_t **out,
                       size_t *out_size, char *err, size_t err_size) {
  *out = NULL;
  *out_size = 0;
  if (width == 0 || height == 0 || width > 65535 || height > 65535) {
    clossy_copy(err, err_size, "JPEG holds images of 1 to 65535 pixels a side");
    return -1;
  }
  tjhandle handle = tjInitCompress();
  if (handle == NULL) {
    clossy_copy(err, err_size, "libjpeg-turbo could not start");
    return -1;
  }
  unsigned char *jpeg = NULL;
  unsigned long jpeg_size = 0;
  int status = tjCompress2(handle, pixels, (int)width, (int)width * 4, (int)height, TJPF_RGBA, &jpeg, &jpeg_size,
                           TJSAMP_420, quality, TJFLAG_ACCURATEDCT);
  if (status != 0) {
    clossy_copy(err, err_size, tjGetErrorStr2(handle));
    tjFree(jpeg);
    tjDestroy(handle);
    return -1;
  }
  tjDestroy(handle);
  // The profile goes in an APP2 marker ("ICC_PROFILE", chunk 1 of 1) after the
  // markers that must come first (SOI, then JFIF's APP0).
  size_t profile_size;
  const uint8_t *profile = clossy_srgb_profile(&profile_size);
  size_t insert = 2;
  if (jpeg_size > 4 && jpeg[2] == 0xFF && jpeg[3] == 0xE0) insert = 4 + (((size_t)jpeg[4] << 8) | jpeg[5]);
  const size_t marker = 2 + 2 + 12 + 2 + profile_size;
  uint8_t *file = (uint8_t *)malloc(jpeg_size + marker);
  if (file == NULL || insert > jpeg_size) {
    free(file);
    tjFree(jpeg);
    clossy_copy(err, err_size, file == NULL ? "out of memory for the JPEG file" : "libjpeg-turbo wrote no JPEG");
    return -1;
  }
  memcpy(file, jpeg, insert);
  uint8_t *m = file + insert;
  m[0] = 0xFF;
  m[1] = 0xE2;
  m[2] = (uint8_t)((marker - 2) >> 8);
  m[3] = (uint8_t)(marker - 2);
  memcpy(m + 4, "ICC_PROFILE", 12);
  m[16] = 1;
  m[17] = 1;
  memcpy(m + 18, profile, profile_size);
  memcpy(file + insert + marker, jpeg + insert, jpeg_size - insert);
  tjFree(jpeg);
  *out = file;
  *out_size = jpeg_size + marker;
  return 0;
}

int clossy_decode_jpeg(const uint8_t *data, size_t size, uint8_t **out, uint32_t *width, uint32_t *height,
                       char *err, size_t err_size) {
  *out = NULL;
  tjhandle handle = tjInitDecompress();
  if (handle == NULL) {
    clossy_copy(err, err_size, "libjpeg-turbo could not start");
    return -1;
  }
  int w, h, subsampling, colorspace;
  if (tjDecompressHeader3(handle, data, (unsigned long)size, &w, &h, &subsampling, &colorspace) != 0) {
    clossy_copy(err, err_size, tjGetErrorStr2(handle));
    tjDestroy(handle);
    return -1;
  }
  uint8_t *pixels = (uint8_t *)malloc((size_t)w * (size_t)h * 4);
  if (pixels == NULL ||
      tjDecompress2(handle, data, (unsigned long)size, pixels, w, w * 4, h, TJPF_RGBA, TJFLAG_ACCURATEDCT) != 0) {
    clossy_copy(err, err_size, pixels == NULL ? "out of memory" : tjGetErrorStr2(handle));
    free(pixels);
    tjDestroy(handle);
    return -1;
  }
  tjDestroy(handle);
  *out = pixels;
  *width = (uint32_t)w;
  *height = (uint32_t)h;
  return 0;
}

// The Swift side names CMYK and YCCK by these values (CLossy.h).
_Static_assert(TJCS_CMYK == 3 && TJCS_YCCK == 4, "TurboJPEG's colour spaces");

int clossy_jpeg_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *subsampling,
                       int *colorspace, char *err, size_t err_size) {
  *width = *height = 0;
  tjhandle handle = tjInitDecompress();
  if (handle == NULL) {
    clossy_copy(err, err_size, "libjpeg-turbo could not start");
    return -1;
  }
  int w = 0, h = 0;
  int status = tjDecompressHeader3(handle, data, (unsigned long)size, &w, &h, subsampling, colorspace);
  if (status != 0) clossy_copy(err, err_size, tjGetErrorStr2(handle));
  tjDestroy(handle);
  if (status != 0) return -1;
  if (w <= 0 || h <= 0) {
    clossy_copy(err, err_size, "the frame header gives no size");
    return -1;
  }
  *width = (uint32_t)w;
  *height = (uint32_t)h;
  return 0;
}

int clossy_decode_jpeg_into(const uint8_t *data, size_t size, uint8_t *out, uint32_t width, uint32_t height,
                            char *err, size_t err_size) {
  tjhandle handle = tjInitDecompress();
  if (handle == NULL) {
    clossy_copy(err, err_size, "libjpeg-turbo could not start");
    return -1;
  }
  int w = 0, h = 0, subsampling, colorspace;
  int status = tjDecompressHeader3(handle, data, (unsigned long)size, &w, &h, &subsampling, &colorspace);
  if (status == 0 && ((uint32_t)w != width || (uint32_t)h != height)) {
    clossy_copy(err, err_size, "the header's size changed between two reads");
    tjDestroy(handle);
    return -1;
  }
  // The accurate (islow) IDCT, as libjpeg's default and Pillow use; a warning
  // stops the decode, so that a damaged file is refused, not shown with grey or
  // smeared blocks.
  if (status == 0)
    status = tjDecompress2(handle, data, (unsigned long)size, out, w, w * 4, h, TJPF_RGBA,
                           TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING);
  if (status != 0) clossy_copy(err, err_size, tjGetErrorStr2(handle));
  tjDestroy(handle);
  return status == 0 ? 0 : -1;
}

// MARK: WebP

static const char *clossy_webp_status(VP8StatusCode status) {
  switch (status) {
    case VP8_STATUS_OK: return "no error";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "decoding suspended";
    case VP8_STATUS_USER_ABORT: return "decoding aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "not enough data (the file is truncated)";
  }
  return "unknown error";
}

int clossy_encode_webp(const uint8_t *pixels, uint32_t width, uint32_t height, int quality, uint8_t **out,
                       size_t *out_size, char *err, size_t err_size) {
  *out = NULL;
  *out_size = 0;
  if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
    clossy_copy(err, err_size, "WebP holds images of 1 to 16383 pixels a side");
    return -1;
  }
  uint8_t *webp = NULL;
  size_t webp_size = WebPEncodeRGBA(pixels, (int)width, (int)height, (int)width * 4, (float)quality, &webp);
  if (webp_size == 0) {
    clossy_copy(err, err_size, "libwebp could not encode the image");
    return -1;
  }
  size_t profile_size;
  const uint8_t *profile = clossy_srgb_profile(&profile_size);
  WebPData image = {webp, webp_size}, icc = {profile, profile_size}, assembled = {NULL, 0};
  WebPMux *mux = WebPMuxCreate(&image, 0);
  int ok = mux != NULL && WebPMuxSetChunk(mux, "ICCP", &icc, 1) == WEBP_MUX_OK &&
           WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
  WebPMuxDelete(mux);
  WebPFree(webp);
  if (!ok) {
    WebPDataClear(&assembled);
    clossy_copy(err, err_size, "libwebpmux could not add the colour profile");
    return -1;
  }
  // Handed back in memory of our own, so that one free fits every encoder here.
  uint8_t *file = (uint8_t *)malloc(assembled.size);
  if (file == NULL) {
    WebPDataClear(&assembled);
    clossy_copy(err, err_size, "out of memory for the WebP file");
    return -1;
  }
  memcpy(file, assembled.bytes, assembled.size);
  *out = file;
  *out_size = assembled.size;
  WebPDataClear(&assembled);
  return 0;
}

int clossy_decode_webp(const uint8_t *data, size_t size, uint8_t **out, uint32_t *width, uint32_t *height,
                       char *err, size_t err_size) {
  *out = NULL;
  int w = 0, h = 0;
  uint8_t *decoded = WebPDecodeRGBA(data, size, &w, &h);
  if (decoded == NULL) {
    clossy_copy(err, err_size, "libwebp could not decode the file");
    return -1;
  }
  uint8_t *pixels = (uint8_t *)malloc((size_t)w * (size_t)h * 4);
  if (pixels != NULL) memcpy(pixels, decoded, (size_t)w * (size_t)h * 4);
  WebPFree(decoded);
  if (pixels == NULL) {
    clossy_copy(err, err_size, "out of memory");
    return -1;
  }
  *out = pixels;
  *width = (uint32_t)w;
  *height = (uint32_t)h;
  return 0;
}

int clossy_webp_header(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *has_alpha,
                       int *has_animation, int *format, char *err, size_t err_size) {
  *width = *height = 0;
  WebPBitstreamFeatures features;
  VP8StatusCode status = WebPGetFeatures(data, size, &features);
  if (status != VP8_STATUS_OK) {
    clossy_copy(err, err_size, clossy_webp_status(status));
    return -1;
  }
  *width = (uint32_t)features.width;
  *height = (uint32_t)features.height;
  *has_alpha = features.has_alpha;
  *has_animation = features.has_animation;
  *format = features.format;
  return 0;
}

int clossy_decode_webp_into(const uint8_t *data, size_t size, uint8_t *out, uint32_t width, uint32_t height,
                            char *err, size_t err_size) {
  WebPDecoderConfig config;
  if (!WebPInitDecoderConfig(&config)) {
    clossy_copy(err, err_size, "libwebp could not start (version mismatch)");
    return -1;
  }
  VP8StatusCode status = WebPGetFeatures(data, size, &config.input);
  if (status == VP8_STATUS_OK &&
      ((uint32_t)config.input.width != width || (uint32_t)config.input.height != height)) {
    clossy_copy(err, err_size, "the header's size changed between two reads");
    return -1;
  }
  if (status == VP8_STATUS_OK) {
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = (int)width * 4;
    config.output.u.RGBA.size = (size_t)width * height * 4;
    status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
  }
  if (status != VP8_STATUS_OK) {
    clossy_copy(err, err_size, clossy_webp_status(status));
    return -1;
  }
  return 0;
}

// MARK: Profiles in files

int clossy_embedded_profile(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  if (size >= 12 && !memcmp(data, "RIFF", 4) && !memcmp(data + 8, "WEBP", 4)) {
    WebPData bytes = {data, size}, chunk = {NULL, 0};
    WebPMux *mux = WebPMuxCreate(&bytes, 0);
    if (mux == NULL) return -1;
    int found = WebPMuxGetChunk(mux, "ICCP", &chunk) == WEBP_MUX_OK;
    if (found) {
      *out = (uint8_t *)malloc(chunk.size ? chunk.size : 1);
      if (*out) memcpy(*out, chunk.bytes, chunk.size);
      *out_size = chunk.size;
    }
    WebPMuxDelete(mux);
    return found ? (*out ? 0 : -1) : 1;
  }
  if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return -1;
  // JPEG: the APP2 "ICC_PROFILE" markers before the first scan, in order (one here).
  size_t at = 2;
  while (at + 4 <= size && data[at] == 0xFF) {
    uint8_t type = data[at + 1];
    if (type == 0xDA || type == 0xD9) break;
    size_t length = ((size_t)data[at + 2] << 8) | data[at + 3];
    if (length < 2 || at + 2 + length > size) return -1;
    if (type == 0xE2 && length >= 16 && !memcmp(data + at + 4, "ICC_PROFILE", 12)) {
      size_t piece = length - 16;
      uint8_t *grown = (uint8_t *)realloc(*out, *out_size + piece + 1);
      if (grown == NULL) return -1;
      memcpy(grown + *out_size, data + at + 18, piece);
      *out = grown;
      *out_size += piece;
    }
    at += 2 + length;
  }
  return *out ? 0 : 1;
}
