// glass-gpu's fast PNG encoder: rows filtered with SIMD, then a deflate made for
// filtered image rows. The technique follows what fpnge and QOI showed (filtered
// rendered images are mostly small bytes and runs of zeros, which Huffman codes
// and run lengths capture without searching for matches); the code is our own.
//
// Rows use the Paeth filter (SSE2, or AVX2 where the CPU has it), 10 % smaller
// than Up on the Landmarks frame for about 1 ms. The zlib stream is a series of
// dynamic-Huffman blocks, one per band of rows (about 256 KiB of filtered bytes,
// filtered once into a buffer that stays in cache). Each band's code is built from
// a sample of its rows (every 16th), with every literal and length counted at
// least once so that any byte the band holds has a code. The only matches are
// runs of zero bytes at distance 1: whole 16-byte zero chunks found with one
// SIMD compare, which is where filtering flat areas leaves nothing to code.
// Literal codes are at most 12 bits, so four literals fit one 64-bit write. A
// band that codes larger than it is (noise) is stored instead.
//
// Measured by `glass-gpu-bench encode` (README, Speed): about 4x faster than
// libdeflate level 1 with the Up filter, for 5 % more bytes.

#include "CPNG.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define FP_LIT_LIMIT 12      // longest literal/length code, bits
#define FP_CL_LIMIT 7        // longest code-length code, bits (deflate's own limit)
#define FP_NLIT 286          // literals, end of block, 29 lengths
#define FP_NDIST 30          // distance symbols
#define FP_BAND_BYTES (256 * 1024)
#define FP_SAMPLE_EVERY 16

// MARK: Bits

typedef struct {
  uint8_t *out;
  // One past the last byte the stream may hold. Nothing between two checks of
  // `fp_room` writes past it (see cpng_fast_zlib: each band's worst case is
  // checked before the band is written).
  uint8_t *end;
  uint64_t buf;
  unsigned n;  // bits in buf, at most 63 before a flush, 7 after
} fp_bits;

// A flush stores 8 bytes at `out` whatever it keeps: the slack `fp_room` adds.
#define FP_FLUSH_SLACK 8

// Whether `bytes` more bytes, and a flush's 8, fit before `end`.
static inline int fp_room(const fp_bits *w, size_t bytes) {
  return w->out <= w->end && (size_t)(w->end - w->out) >= bytes && (size_t)(w->end - w->out) - bytes >= FP_FLUSH_SLACK;
}

static inline void fp_put(fp_bits *w, uint64_t bits, unsigned count) {
  w->buf |= bits << w->n;
  w->n += count;
}

// Writes the whole bytes of buf (the out buffer keeps FP_FLUSH_SLACK bytes of slack).
static inline void fp_flush(fp_bits *w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(w->out, &w->buf, 8);
#else
  for (int i = 0; i < 8; i++) w->out[i] = (uint8_t)(w->buf >> (8 * i));
#endif
  w->out += w->n >> 3;
  w->buf >>= w->n & 56;
  w->n &= 7;
}

// Pads to a byte boundary and flushes.
static inline void fp_align(fp_bits *w) {
  w->n = (w->n + 7) & ~7u;
  fp_flush(w);
}

// MARK: Huffman codes

// Code lengths, at most `limit` bits, for the `n` symbols of `freq`; symbols
// with no count get no code. The optimal code is built (leaves sorted by count,
// then the two-queue merge); while it is deeper than `limit`, the counts are
// halved (each kept at least 1) and it is built again: rare symbols come up,
// which costs little because they are rare, and less than cutting the lengths
// and lengthening others to fit (1.2 % larger files on the Landmarks frame).
static void fp_lengths(const uint32_t *freq, int n, int limit, uint8_t *lens) {
  int order[FP_NLIT], sorted[FP_NLIT];
  int leaves = 0;
  uint32_t most = 0;
  for (int i = 0; i < n; i++) {
    lens[i] = 0;
    if (freq[i]) {
      order[leaves++] = i;
      if (freq[i] > most) most = freq[i];
    }
  }
  if (leaves == 0) return;
  if (leaves == 1) {
    lens[order[0]] = 1;
    return;
  }
  // By count, least first: a radix sort, 8 bits a pass, as many passes as the
  // largest count has bytes (stable, so ties stay in symbol order).
  for (int shift = 0; shift < 32 && (most >> shift); shift += 8) {
    int start[257] = {0};
    for (int i = 0; i < leaves; i++) start[((freq[order[i]] >> shift) & 255) + 1]++;
    for (int k = 1; k < 257; k++) start[k] += start[k - 1];
    for (int i = 0; i < leaves; i++) sorted[start[(freq[order[i]] >> shift) & 255]++] = order[i];
    memcpy(order, sorted, sizeof(int) * (size_t)leaves);
  }
  uint32_t count[FP_NLIT];
  for (int i = 0; i < leaves; i++) count[i] = freq[order[i]];
  for (;;) {
    // The two-queue merge: leaves in count order, internal nodes in the order made.
    uint64_t weight[2 * FP_NLIT];
    int parent[2 * FP_NLIT], depth[2 * FP_NLIT];
    for (int i = 0; i < leaves; i++) weight[i] = count[i];
    int next_leaf = 0, next_node = leaves, made = leaves;
    while (made < 2 * leaves - 1) {
      int pick[2];
      for (int k = 0; k < 2; k++) {
        if (next_leaf < leaves && (next_node >= made || weight[next_leaf] <= weight[next_node])) {
          pick[k] = next_leaf++;
        } else {
          pick[k] = next_node++;
        }
      }
      weight[made] = weight[pick[0]] + weight[pick[1]];
      parent[pick[0]] = parent[pick[1]] = made;
      made++;
    }
    // Depths from the root (the last node made) down.
    depth[made - 1] = 0;
    int deepest = 0;
    for (int i = made - 2; i >= 0; i--) {
      depth[i] = depth[parent[i]] + 1;
      if (i < leaves && depth[i] > deepest) deepest = depth[i];
    }
    if (deepest <= limit) {
      for (int i = 0; i < leaves; i++) lens[order[i]] = (uint8_t)depth[i];
      return;
    }
    // Too deep: halve the counts, keeping each at least 1 (the order stays).
    for (int i = 0; i < leaves; i++) count[i] = (count[i] >> 1) | 1;
  }
}

// Canonical codes for `lens`, bit-reversed (deflate sends Huffman codes from
// their top bit, the bit writer from the bottom).
static void fp_codes(const uint8_t *lens, int n, uint16_t *codes) {
  uint16_t count[16] = {0}, next[16] = {0};
  for (int i = 0; i < n; i++) count[lens[i]]++;
  count[0] = 0;
  uint16_t code = 0;
  for (int bits = 1; bits < 16; bits++) {
    code = (uint16_t)((code + count[bits - 1]) << 1);
    next[bits] = code;
  }
  for (int i = 0; i < n; i++) {
    int len = lens[i];
    if (!len) {
      codes[i] = 0;
      continue;
    }
    uint16_t c = next[len]++, r = 0;
    for (int b = 0; b < len; b++) r = (uint16_t)(r | (((c >> b) & 1) << (len - 1 - b)));
    codes[i] = r;
  }
}

// MARK: Lengths

// Deflate's length symbols: for each match length 3...258, the symbol, and its
// extra bits (count and value) packed for the writer.
typedef struct {
  uint16_t symbol[259];
  uint8_t extra_bits[259];
  uint8_t extra_value[259];
} fp_length_table;

static fp_length_table fp_table;
static pthread_once_t fp_table_once = PTHREAD_ONCE_INIT;

static void fp_make_lengths_table(void) {
  fp_length_table *t = &fp_table;
  static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
  static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  for (int s = 0; s < 29; s++) {
    int top = s == 28 ? 258 : base[s] + (1 << extra[s]) - 1;
    if (s == 27) top = 257;  // 227 + 31 = 258 belongs to symbol 285
    for (int len = base[s]; len <= top; len++) {
      t->symbol[len] = (uint16_t)(257 + s);
      t->extra_bits[len] = extra[s];
      t->extra_value[len] = (uint8_t)(len - base[s]);
    }
  }
}

static const fp_length_table *fp_lengths_table(void) {
  pthread_once(&fp_table_once, fp_make_lengths_table);
  return &fp_table;
}

// MARK: Filtering

typedef struct {
  const uint8_t *pixels;
  size_t row_bytes;  // stride of the input
  size_t line;       // bytes of one filtered row, without its filter byte
  int sixteen;
  uint8_t *big[2];  // 16-bit: this row and the one above, big-endian
  const uint8_t *zero;  // a row of zeros: what the first row has above it
} fp_source;

// Paeth: out[i] = row[i] - the one of a (left, `bpp` bytes back), b (above)
// and c (above left) nearest a + b - c, ties to a then b; a and c are 0 in the
// first pixel. In bytes, with no 16-bit widening: pa = |b - c| and pb = |a - c|,
// and pc = |(b - c) + (a - c)|, which is pa + pb when b - c and a - c have one
// sign (only compared, so it may saturate at 255) and |pa - pb| when not. The
// vector body is written once for SSE2 (16 bytes) and AVX2 (32 bytes).
#define FP_PAETH_VECTOR(V, P, S, WIDTH)                                                                   \
  for (; i + WIDTH <= n; i += WIDTH) {                                                                  \
    V a = P##_loadu_##S((const V *)(row + i - bpp));                                                    \
    V b = P##_loadu_##S((const V *)(above + i));                                                        \
    V c = P##_loadu_##S((const V *)(above + i - bpp));                                                  \
    V x = P##_loadu_##S((const V *)(row + i));                                                          \
    V zero = P##_setzero_##S();                                                                         \
    V c_b = P##_subs_epu8(c, b), c_a = P##_subs_epu8(c, a);                                             \
    V pa = P##_or_##S(P##_subs_epu8(b, c), c_b), pb = P##_or_##S(P##_subs_epu8(a, c), c_a);             \
    /* b >= c and a >= c: one sign when both or neither */                                              \
    V differ = P##_xor_##S(P##_cmpeq_epi8(c_b, zero), P##_cmpeq_epi8(c_a, zero));                       \
    V sum = P##_adds_epu8(pa, pb);                                                                      \
    V diff = P##_or_##S(P##_subs_epu8(pa, pb), P##_subs_epu8(pb, pa));                                  \
    V pc = P##_or_##S(P##_and_##S(differ, diff), P##_andnot_##S(differ, sum));                         \
    V a_wins = P##_and_##S(P##_cmpeq_epi8(P##_min_epu8(pa, pb), pa), P##_cmpeq_epi8(P##_min_epu8(pa, pc), pa)); \
    V b_wins = P##_cmpeq_epi8(P##_min_epu8(pb, pc), pb);                                                \
    V bc = P##_or_##S(P##_and_##S(b_wins, b), P##_andnot_##S(b_wins, c));                               \
    V pred = P##_or_##S(P##_and_##S(a_wins, a), P##_andnot_##S(a_wins, bc));                            \
    P##_storeu_##S((V *)(out + i), P##_sub_epi8(x, pred));                                              \
  }

static void fp_paeth_tail(uint8_t *restrict out, const uint8_t *restrict row, const uint8_t *restrict above,
                          size_t i, size_t n, size_t bpp) {
  for (; i < bpp && i < n; i++) out[i] = (uint8_t)(row[i] - above[i]);
  for (; i < n; i++) {
    int a = row[i - bpp], b = above[i], c = above[i - bpp];
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
    out[i] = (uint8_t)(row[i] - pred);
  }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define FP_HAS_AVX2_PATH 1
__attribute__((target("avx2"))) static void fp_paeth_avx2(uint8_t *restrict out, const uint8_t *restrict row,
                                                         const uint8_t *restrict above, size_t n, size_t bpp) {
  size_t i = 0;
  for (; i < bpp && i < n; i++) out[i] = (uint8_t)(row[i] - above[i]);
  FP_PAETH_VECTOR(__m256i, _mm256, si256, 32)
  FP_PAETH_VECTOR(__m128i, _mm, si128, 16)
  fp_paeth_tail(out, row, above, i, n, bpp);
}
#endif

static void fp_paeth_sse2(uint8_t *restrict out, const uint8_t *restrict row, const uint8_t *restrict above,
                          size_t n, size_t bpp) {
  size_t i = 0;
  for (; i < bpp && i < n; i++) out[i] = (uint8_t)(row[i] - above[i]);
#if defined(__SSE2__)
  FP_PAETH_VECTOR(__m128i, _mm, si128, 16)
#endif
  fp_paeth_tail(out, row, above, i, n, bpp);
}

// Which Paeth runs: AVX2 where the CPU has it, found once; cpng_fast_set_simd
// can turn it off, for the tests that compare both.
static int fp_avx2 = 0;
static _Atomic int fp_avx2_allowed = 1;
static pthread_once_t fp_avx2_once = PTHREAD_ONCE_INIT;

static void fp_detect_avx2(void) {
#if defined(FP_HAS_AVX2_PATH)
  __builtin_cpu_init();
  fp_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
}

void cpng_fast_set_simd(int avx2) { fp_avx2_allowed = avx2; }

int cpng_fast_simd(void) { return fp_avx2_allowed; }

static void fp_paeth(uint8_t *restrict out, const uint8_t *restrict row, const uint8_t *restrict above, size_t n,
                     size_t bpp) {
#if defined(FP_HAS_AVX2_PATH)
  pthread_once(&fp_avx2_once, fp_detect_avx2);
  if (fp_avx2 && fp_avx2_allowed) {
    fp_paeth_avx2(out, row, above, n, bpp);
    return;
  }
#endif
  fp_paeth_sse2(out, row, above, n, bpp);
}

// Native-endian 16-bit samples to big-endian bytes. Returns whether every
// sample's two bytes are equal (v * 257: an 8-bit image widened), a pair row.
static int fp_big_endian(uint8_t *restrict out, const uint8_t *restrict row, size_t n) {
  const uint16_t probe = 1;
  size_t i = 0;
  unsigned differ = 0;
  if (*(const uint8_t *)&probe != 1) {
    memcpy(out, row, n);
  } else {
#if defined(__SSE2__)
    __m128i any = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(row + i));
      __m128i swapped = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
      any = _mm_or_si128(any, _mm_xor_si128(v, swapped));
      _mm_storeu_si128((__m128i *)(out + i), swapped);
    }
    differ = _mm_movemask_epi8(_mm_cmpeq_epi8(any, _mm_setzero_si128())) != 0xFFFF;
#endif
    for (size_t j = i; j < n; j += 2) {
      out[j] = row[j + 1];
      out[j + 1] = row[j];
    }
  }
  for (; i < n; i += 2) differ |= (unsigned)(row[i] ^ row[i + 1]);
  return differ == 0;
}

// Filtered row y (filter byte, then `line` bytes) into `out`. Rows are filtered
// in order, from 0: a 16-bit row is made big-endian once, and kept as the next
// row's row above. Returns whether it is a pair row (16 bits, every sample's
// two bytes equal), whose filtered bytes then come in equal pairs too: Paeth
// picks each byte's prediction from its own neighbours, which are equal pairs.
static int fp_filter_row(fp_source *src, uint32_t y, uint8_t *out) {
  const uint8_t *row = src->pixels + (size_t)y * src->row_bytes;
  const size_t bpp = src->sixteen ? 8 : 4;
  out[0] = 4;  // Paeth; in the first row, with nothing above, it is Sub
  if (!src->sixteen) {
    fp_paeth(out + 1, row, y == 0 ? src->zero : row - src->row_bytes, src->line, bpp);
    return 0;
  }
  uint8_t *cur = src->big[y & 1], *above = src->big[(y & 1) ^ 1];
  const int pairs = fp_big_endian(cur, row, src->line);
  fp_paeth(out + 1, cur, y == 0 ? src->zero : above, src->line, bpp);
  return pairs;
}

// MARK: Tokens

// Whether the 16 bytes at p are all zero.
static inline int fp_zero16(const uint8_t *p) {
#if defined(__SSE2__)
  __m128i v = _mm_loadu_si128((const __m128i *)p);
  return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) == 0xFFFF;
#else
  uint64_t a, b;
  memcpy(&a, p, 8);
  memcpy(&b, p + 8, 8);
  return (a | b) == 0;
#endif
}

// The end of the zero run that starts at a zero chunk at i: whole chunks, then
// single bytes.
static inline size_t fp_run_end(const uint8_t *p, size_t i, size_t n) {
  size_t j = i + 16;
  while (j + 16 <= n && fp_zero16(p + j)) j += 16;
  while (j < n && p[j] == 0) j++;
  return j;
}

// The length of the next match of a run of `run` zeros (at least 3): 258 at
// most, and never leaving 1 or 2 bytes, which no match can take.
static inline size_t fp_piece(size_t run) { return run > 258 ? (run - 258 < 3 ? run - 3 : 258) : run; }

// The zero run at the zero chunk at i of row `p`: its end, and its length after
// the literal zero it starts with when the byte before it is not zero (a match
// at distance 1 repeats the byte before). Counting and writing walk rows alike
// through it.
static inline size_t fp_zero_run(const uint8_t *p, size_t i, size_t n, size_t *end, int *leading_literal) {
  *end = fp_run_end(p, i, n);
  *leading_literal = p[i - 1] != 0;
  return *end - i - (size_t)*leading_literal;
}

// Counts the symbols of a run of `run` zeros after a zero byte: lengths of 3 to
// 258 at distance 1, and literal zeros for a remainder under 3.
static inline void fp_count_run(uint32_t *freq, const fp_length_table *t, size_t run) {
  while (run >= 3) {
    size_t len = fp_piece(run);
    freq[t->symbol[len]]++;
    run -= len;
  }
  freq[0] += (uint32_t)run;
}

// Counts the symbols row `p` (filter byte included, `n` bytes) codes to: runs
// in `freq`, literals in four tables (`lit[k][byte]`, k the byte's place in its
// group of four), so that a run of equal bytes does not wait on its own count.
static void fp_count_row(uint32_t *freq, uint32_t (*lit)[256], const fp_length_table *t, const uint8_t *p, size_t n) {
  freq[p[0]]++;
  size_t i = 1;
  while (i + 16 <= n) {
    if (fp_zero16(p + i)) {
      size_t end;
      int leading;
      size_t run = fp_zero_run(p, i, n, &end, &leading);
      freq[0] += (uint32_t)leading;
      fp_count_run(freq, t, run);
      i = end;
      continue;
    }
    for (int k = 0; k < 16; k += 4) {
      lit[0][p[i + k]]++;
      lit[1][p[i + k + 1]]++;
      lit[2][p[i + k + 2]]++;
      lit[3][p[i + k + 3]]++;
    }
    i += 16;
  }
  for (; i < n; i++) freq[p[i]]++;
}

// A band's code: per symbol, the reversed code in the low 16 bits and its length above.
typedef struct {
  uint32_t lit[FP_NLIT];
  uint8_t lit_lens[FP_NLIT];
} fp_code;

static inline void fp_literals4(fp_bits *w, const uint32_t *lit, const uint8_t *p) {
  uint32_t e0 = lit[p[0]], e1 = lit[p[1]], e2 = lit[p[2]], e3 = lit[p[3]];
  unsigned l0 = e0 >> 16, l1 = e1 >> 16, l2 = e2 >> 16, l3 = e3 >> 16;
  uint64_t c01 = (uint64_t)(e0 & 0xFFFF) | ((uint64_t)(e1 & 0xFFFF) << l0);
  uint64_t c23 = (uint64_t)(e2 & 0xFFFF) | ((uint64_t)(e3 & 0xFFFF) << l2);
  fp_put(w, c01 | (c23 << (l0 + l1)), l0 + l1 + l2 + l3);
  fp_flush(w);
}

static inline void fp_literal(fp_bits *w, const uint32_t *lit, uint8_t byte) {
  uint32_t e = lit[byte];
  fp_put(w, e & 0xFFFF, e >> 16);
}

// Writes a run of `run` zeros after a zero byte (distance code 0 is one bit, 0).
static inline void fp_write_run(fp_bits *w, const uint32_t *lit, const fp_length_table *t, size_t run) {
  while (run >= 3) {
    size_t len = fp_piece(run);
    uint32_t e = lit[t->symbol[len]];
    fp_put(w, e & 0xFFFF, e >> 16);
    fp_put(w, t->extra_value[len], t->extra_bits[len]);
    fp_put(w, 0, 1);
    fp_flush(w);
    run -= len;
  }
  for (; run > 0; run--) {
    fp_literal(w, lit, 0);
    fp_flush(w);
  }
}

// Codes row `p` (filter byte included, `n` bytes), as fp_count_row counted it.
static void fp_write_row(fp_bits *w, const uint32_t *lit, const fp_length_table *t, const uint8_t *p, size_t n) {
  fp_literal(w, lit, p[0]);
  fp_flush(w);
  size_t i = 1;
  while (i + 16 <= n) {
    if (fp_zero16(p + i)) {
      size_t end;
      int leading;
      size_t run = fp_zero_run(p, i, n, &end, &leading);
      if (leading) fp_literal(w, lit, 0);
      fp_write_run(w, lit, t, run);
      i = end;
      continue;
    }
    fp_literals4(w, lit, p + i);
    fp_literals4(w, lit, p + i + 4);
    fp_literals4(w, lit, p + i + 8);
    fp_literals4(w, lit, p + i + 12);
    i += 16;
  }
  for (; i < n; i++) {
    fp_literal(w, lit, p[i]);
    fp_flush(w);
  }
}

// MARK: Block headers

// Writes a dynamic block's header for `lit_lens` (286 symbols) and `ndist`
// distance code lengths `dist_lens` (2 to 30).
static void fp_write_header(fp_bits *w, const uint8_t *lit_lens, const uint8_t *dist_lens, int ndist, int final) {
  uint8_t all[FP_NLIT + FP_NDIST];
  memcpy(all, lit_lens, FP_NLIT);
  memcpy(all + FP_NLIT, dist_lens, (size_t)ndist);
  const int total = FP_NLIT + ndist;
  // Run-length code the lengths: 16 repeats the previous 3-6 times, 17 and 18
  // give 3-10 and 11-138 zeros.
  uint16_t sym[FP_NLIT + FP_NDIST];
  uint8_t extra[FP_NLIT + FP_NDIST];
  int count = 0;
  for (int i = 0; i < total;) {
    int len = all[i], run = 1;
    while (i + run < total && all[i + run] == len) run++;
    int left = run;
    if (len == 0) {
      while (left >= 11) {
        int r = left > 138 ? 138 : left;
        sym[count] = 18;
        extra[count++] = (uint8_t)(r - 11);
        left -= r;
      }
      if (left >= 3) {
        sym[count] = 17;
        extra[count++] = (uint8_t)(left - 3);
        left = 0;
      }
    } else {
      sym[count] = (uint16_t)len;
      extra[count++] = 0;
      left--;
      while (left >= 3) {
        int r = left > 6 ? 6 : left;
        sym[count] = 16;
        extra[count++] = (uint8_t)(r - 3);
        left -= r;
      }
    }
    for (; left > 0; left--) {
      sym[count] = (uint16_t)len;
      extra[count++] = 0;
    }
    i += run;
  }
  uint32_t cl_freq[19] = {0};
  for (int i = 0; i < count; i++) cl_freq[sym[i]]++;
  uint8_t cl_lens[19];
  uint16_t cl_codes[19];
  fp_lengths(cl_freq, 19, FP_CL_LIMIT, cl_lens);
  fp_codes(cl_lens, 19, cl_codes);
  static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
  int hclen = 19;
  while (hclen > 4 && cl_lens[order[hclen - 1]] == 0) hclen--;
  fp_put(w, (uint64_t)(final ? 1 : 0) | (2u << 1), 3);
  fp_put(w, FP_NLIT - 257, 5);
  fp_put(w, (uint64_t)(ndist - 1), 5);
  fp_put(w, (uint64_t)(hclen - 4), 4);
  fp_flush(w);
  for (int i = 0; i < hclen; i++) {
    fp_put(w, cl_lens[order[i]], 3);
    fp_flush(w);
  }
  static const uint8_t extra_bits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};
  for (int i = 0; i < count; i++) {
    fp_put(w, cl_codes[sym[i]], cl_lens[sym[i]]);
    fp_put(w, extra[i], extra_bits[sym[i]]);
    fp_flush(w);
  }
}

// Stores `n` bytes in stored blocks of at most 65535 bytes; the last one is
// final when `final` is set.
static void fp_write_stored(fp_bits *w, const uint8_t *p, size_t n, int final) {
  do {
    size_t len = n > 65535 ? 65535 : n;
    n -= len;
    fp_put(w, (final && n == 0) ? 1 : 0, 3);
    fp_align(w);
    w->out[0] = (uint8_t)len;
    w->out[1] = (uint8_t)(len >> 8);
    w->out[2] = (uint8_t)~len;
    w->out[3] = (uint8_t)(~len >> 8);
    memcpy(w->out + 4, p, len);
    w->out += 4 + len;
    p += len;
  } while (n > 0);
}

// MARK: Pair bands

// A band of pair rows (16-bit samples, each v * 257: an 8-bit image widened)
// filters to bytes in equal pairs, which literals code at twice the cost of the
// 8-bit image. Matches recover it: two samples that repeat are four bytes that
// repeat, a match. So such a band is parsed with a hash table of the 4 bytes at
// each pair's start (the single-probe search of LZ4 and Snappy, at every pair,
// positions inside a match included), longest match of 4 to 258 bytes within
// 32 KiB, greedy; zero chunks are runs at distance 1, as elsewhere. The code is
// built from the band's exact counts (the parse is kept), with a distance code.
// Landmarks widened to 16 bits: 31 % fewer bytes than literals; see the README.

#define FP_HASH_BITS 14

// The pair bands' code stays out of the function of the 8-bit loop.
#if defined(__GNUC__) || defined(__clang__)
#define FP_NOINLINE __attribute__((noinline))
#else
#define FP_NOINLINE
#endif
#define FP_MIN_MATCH 4
#define FP_WINDOW 32768

// Literals, then a match (length 0: none, the band's end): its length, and its
// distance's symbol and extra bits (value above, count below).
typedef struct {
  uint32_t literals;
  uint16_t length;
  uint8_t symbol;
  uint8_t extra_bits;
  uint16_t extra_value;
} fp_seq;

// Deflate's distance symbol of d (1 to 32768) and its extra bits.
static inline unsigned fp_dist_symbol(unsigned d, unsigned *extra_bits, unsigned *extra_value) {
  const unsigned x = d - 1;
  if (x < 4) {
    *extra_bits = 0;
    *extra_value = 0;
    return x;
  }
  const unsigned bits = 31u - (unsigned)__builtin_clz(x);  // floor(log2 x), 2 or more
  *extra_bits = bits - 1;
  *extra_value = x & ((1u << (bits - 1)) - 1);
  return 2 * bits + ((x >> (bits - 1)) & 1);
}

static inline uint32_t fp_hash4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return (v * 2654435761u) >> (32 - FP_HASH_BITS);
}

// Appends the match `length` at `distance` after `literals` literals; a run
// longer than 258 in pieces (fp_piece).
static size_t fp_add_match(fp_seq *seq, size_t count, size_t literals, size_t length, size_t distance) {
  unsigned bits, value;
  const unsigned symbol = fp_dist_symbol((unsigned)distance, &bits, &value);
  while (length > 0) {
    const size_t piece = fp_piece(length);
    seq[count++] = (fp_seq){(uint32_t)literals, (uint16_t)piece, (uint8_t)symbol, (uint8_t)bits, (uint16_t)value};
    literals = 0;
    length -= piece;
  }
  return count;
}

// The length of the match of p and q, at most `most`, 4 bytes known equal.
static inline size_t fp_match_length(const uint8_t *p, const uint8_t *q, size_t most) {
  size_t length = FP_MIN_MATCH;
  while (length + 8 <= most) {
    uint64_t a, b;
    memcpy(&a, p + length, 8);
    memcpy(&b, q + length, 8);
    const uint64_t x = a ^ b;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (x) return length + ((size_t)__builtin_ctzll(x) >> 3);
#else
    if (x) break;
#endif
    length += 8;
  }
  while (length < most && p[length] == q[length]) length++;
  return length;
}

// Parses the band `p` (`m` bytes of filtered rows of `n` bytes) into sequences;
// returns their count (at most m / 3 + 1). Only pairs' first bytes (1, 3, ...
// in a row: after the filter byte) are probed and go in the table.
FP_NOINLINE static size_t fp_pair_parse(const uint8_t *p, size_t m, size_t n, int32_t *table, fp_seq *seq) {
  memset(table, 0xFF, sizeof(int32_t) << FP_HASH_BITS);
  size_t count = 0, from = 0, i = 1, row_end = n;
  while (i + FP_MIN_MATCH <= m) {
    uint32_t v;
    memcpy(&v, p + i, 4);
    size_t length = 0, distance = 0;
    if (v == 0 && i + 16 <= m && fp_zero16(p + i)) {
      size_t end;
      int leading;
      const size_t run = fp_zero_run(p, i, m, &end, &leading);
      count = fp_add_match(seq, count, i + (size_t)leading - from, run, 1);
      from = end;
    } else {
      const uint32_t h = (v * 2654435761u) >> (32 - FP_HASH_BITS);
      const int32_t j = table[h];
      table[h] = (int32_t)i;
      uint32_t w;
      if (j >= 0 && i - (size_t)j <= FP_WINDOW && (memcpy(&w, p + j, 4), w == v)) {
        length = fp_match_length(p + i, p + j, m - i < 258 ? m - i : 258);
        distance = i - (size_t)j;
      }
      if (length == 0) {
        // The next pair: two bytes on, past the next row's filter byte at a row's end.
        i += 2;
        if (i == row_end) {
          i++;
          row_end += n;
        }
        continue;
      }
      count = fp_add_match(seq, count, i - from, length, distance);
      from = i + length;
      // The pairs inside the match go in the table too, each a probe's worth.
      size_t k = i + 2, k_end = row_end;
      while (k + FP_MIN_MATCH <= m && k < from) {
        if (k == k_end) {
          k++;
          k_end += n;
          continue;
        }
        uint32_t u;
        memcpy(&u, p + k, 4);
        table[(u * 2654435761u) >> (32 - FP_HASH_BITS)] = (int32_t)k;
        k += 2;
      }
    }
    // On to the first pair's start at or after the match's end.
    i = from;
    while (i >= row_end) row_end += n;
    if (((i - (row_end - n)) & 1) == 0) i++;
  }
  seq[count++] = (fp_seq){(uint32_t)(m - from), 0, 0, 0, 0};
  return count;
}

// Codes a pair band as one dynamic block from its parse.
FP_NOINLINE static void fp_write_pair_band(fp_bits *w, const fp_length_table *t, const uint8_t *p,
                                           const fp_seq *seq, size_t count, int final) {
  uint32_t freq[FP_NLIT] = {0}, dfreq[FP_NDIST] = {0};
  size_t at = 0;
  for (size_t k = 0; k < count; k++) {
    for (size_t e = at + seq[k].literals; at < e; at++) freq[p[at]]++;
    if (seq[k].length) {
      freq[t->symbol[seq[k].length]]++;
      dfreq[seq[k].symbol]++;
      at += seq[k].length;
    }
  }
  freq[256] = 1;
  // Two distance codes at least, so that the code is complete (inflate's rule).
  if (dfreq[0] == 0) dfreq[0] = 1;
  if (dfreq[1] == 0) dfreq[1] = 1;
  uint8_t lens[FP_NLIT], dlens[FP_NDIST];
  uint16_t codes[FP_NLIT], dcodes[FP_NDIST];
  uint32_t lit[FP_NLIT], dist[FP_NDIST];
  fp_lengths(freq, FP_NLIT, FP_LIT_LIMIT, lens);
  fp_codes(lens, FP_NLIT, codes);
  fp_lengths(dfreq, FP_NDIST, FP_LIT_LIMIT, dlens);
  fp_codes(dlens, FP_NDIST, dcodes);
  for (int s = 0; s < FP_NLIT; s++) lit[s] = ((uint32_t)lens[s] << 16) | codes[s];
  for (int s = 0; s < FP_NDIST; s++) dist[s] = ((uint32_t)dlens[s] << 16) | dcodes[s];
  fp_write_header(w, lens, dlens, FP_NDIST, final);
  // The tokens through a local writer, which no store to the output can alias.
  fp_bits local = *w, *b = &local;
  at = 0;
  for (size_t k = 0; k < count; k++) {
    size_t left = seq[k].literals;
    for (; left >= 4; left -= 4, at += 4) fp_literals4(b, lit, p + at);
    for (; left > 0; left--, at++) {
      fp_literal(b, lit, p[at]);
      fp_flush(b);
    }
    if (seq[k].length) {
      // Length code, its extra bits, distance code, its extra bits: at most 42
      // bits, in one write.
      const unsigned length = seq[k].length;
      const uint32_t e = lit[t->symbol[length]], d = dist[seq[k].symbol];
      unsigned at_bit = e >> 16;
      uint64_t bits = (uint64_t)(e & 0xFFFF) | ((uint64_t)t->extra_value[length] << at_bit);
      at_bit += t->extra_bits[length];
      bits |= (uint64_t)(d & 0xFFFF) << at_bit;
      at_bit += d >> 16;
      bits |= (uint64_t)seq[k].extra_value << at_bit;
      fp_put(b, bits, at_bit + seq[k].extra_bits);
      fp_flush(b);
      at += length;
    }
  }
  fp_put(b, lit[256] & 0xFFFF, lit[256] >> 16);
  fp_flush(b);
  *w = local;
}

// MARK: The stream

// The most bytes a row of `n` filtered bytes takes stored: per stored block of
// at most 65535 bytes, 3 header bits padded to a byte and 4 bytes of lengths.
static size_t fp_stored_row_bytes(size_t n) { return n + 5 * ((n + 65534) / 65535); }

static uint32_t fp_band_rows(size_t n, size_t band_bytes) {
  if (band_bytes == 0) band_bytes = FP_BAND_BYTES;
  size_t rows = band_bytes / n;
  return rows == 0 ? 1 : rows > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)rows;
}

// The band a header's worth of room: 3 + 14 bits, 19 three-bit lengths and 316
// run-coded lengths (286 literals and lengths, 30 distances) of at most 7 + 7
// bits: 563 bytes, rounded up.
#define FP_HEADER_BYTES 600

// The most bytes a band of `bytes` filtered bytes in `rows` rows of `n` may
// take while it is written, before the smaller of coded and stored is kept.
// Coded: its header, then at most 12 bits a byte: a literal's code is at most
// FP_LIT_LIMIT (12) bits; a match covers 3 bytes or more for at most 12 + 5 +
// 12 + 13 = 42 bits (length code and extra bits, distance code and extra bits;
// a run's distance code is 1 bit), under 36; then the end of block's 12 bits
// and the 7 bits pending before it. Stored: its rows stored, and a byte of the
// alignment of the bits before.
static size_t fp_band_worst(size_t bytes, size_t rows, size_t n) {
  const size_t coded = FP_HEADER_BYTES + bytes + bytes / 2 + 4;
  const size_t stored = rows * fp_stored_row_bytes(n) + 1;
  return coded > stored ? coded : stored;
}

size_t cpng_fast_zlib_bound(size_t line, uint32_t height, size_t band_bytes) {
  // Each band ends no larger than stored; the band being written needs room for
  // its worst case (fp_band_worst) on top of those before it, and the last a
  // flush's slack and the checksum: 2 + stored + header + half a band + 64 holds
  // them. Zero when that does not fit a size_t.
  if (line == SIZE_MAX) return 0;
  const size_t n = line + 1;
  const uint32_t band_rows = fp_band_rows(n, band_bytes);
  const size_t bands = (height + (size_t)band_rows - 1) / band_rows;
  size_t band, stored, headers, total;
  if (__builtin_mul_overflow((size_t)(band_rows < height ? band_rows : height), n, &band) ||
      __builtin_mul_overflow((size_t)height, fp_stored_row_bytes(n), &stored) ||
      __builtin_mul_overflow(bands, (size_t)FP_HEADER_BYTES, &headers) ||
      __builtin_add_overflow(stored, headers, &total) || __builtin_add_overflow(total, band / 2 + 70, &total)) {
    return 0;
  }
  return total;
}

int cpng_fast_zlib(const void *pixels, uint32_t width, uint32_t height, int depth, size_t row_bytes,
                   size_t band_bytes, uint8_t *out, size_t capacity, size_t *length) {
  *length = 0;
  const fp_length_table *t = fp_lengths_table();
  fp_source source = {(const uint8_t *)pixels, row_bytes, (size_t)width * (depth == 16 ? 8 : 4), depth == 16,
                      {NULL, NULL}, NULL};
  fp_source *src = &source;
  const size_t n = src->line + 1;
  const uint32_t band_rows = fp_band_rows(n, band_bytes);
  // The band's filtered rows, a row of zeros and, for 16 bits, two big-endian rows.
  const size_t band_size = (size_t)(band_rows < height ? band_rows : height) * n;
  uint8_t *band = (uint8_t *)malloc(band_size + (src->sixteen ? 3 : 1) * (src->line + 16) + 16);
  if (band == NULL) return -1;
  // A pair band's parse: made the first time one comes.
  int32_t *table = NULL;
  fp_seq *seq = NULL;
  uint8_t *zero = band + band_size + 16;
  memset(zero, 0, src->line);
  src->zero = zero;
  if (src->sixteen) {
    src->big[0] = zero + src->line + 16;
    src->big[1] = src->big[0] + src->line + 16;
  }
  int status = -2;
  fp_bits w = {out, out + capacity, 0, 0};
  if (!fp_room(&w, 2)) goto done;
  fp_put(&w, 0x78, 8);
  fp_put(&w, 0x01, 8);
  fp_flush(&w);
  uint32_t adler = 1;
  for (uint32_t y0 = 0; y0 < height; y0 += band_rows) {
    const uint32_t y1 = height - y0 < band_rows ? height : y0 + band_rows;
    const int final = y1 == height;
    const size_t bytes = (size_t)(y1 - y0) * n;
    // Every write up to the next check stays within this band's worst case.
    if (!fp_room(&w, fp_band_worst(bytes, y1 - y0, n))) goto done;
    int pairs = src->sixteen;
    for (uint32_t y = y0; y < y1; y++) pairs &= fp_filter_row(src, y, band + (size_t)(y - y0) * n);
    pairs = pairs && bytes <= 0x7FFFFFFF;  // positions in the hash table are int32
    adler = libdeflate_adler32(adler, band, bytes);
    fp_bits start = w;
    if (pairs && table == NULL) {
      table = (int32_t *)malloc(sizeof(int32_t) << FP_HASH_BITS);
      seq = (fp_seq *)malloc(sizeof(fp_seq) * (band_size / 3 + 2));
      if (table == NULL || seq == NULL) {
        status = -1;
        goto done;
      }
    }
    // A function that is not inlined writes through a copy of the writer: were
    // `w`'s address to escape, every store to the output could alias it, and the
    // 8-bit loop below would reload it after each (15 % slower, measured).
    if (pairs) {
      const size_t count = fp_pair_parse(band, bytes, n, table, seq);
      fp_bits copy = w;
      fp_write_pair_band(&copy, t, band, seq, count, final);
      w = copy;
    } else {
      // The band's code, from every 16th row: each literal and length counts
      // at least once, so that any row can be coded.
      uint32_t freq[FP_NLIT], lit[4][256];
      for (int s = 0; s < FP_NLIT; s++) freq[s] = 1;
      memset(lit, 0, sizeof lit);
      for (uint32_t y = y0; y < y1; y += FP_SAMPLE_EVERY) fp_count_row(freq, lit, t, band + (size_t)(y - y0) * n, n);
      for (int s = 0; s < 256; s++) freq[s] += lit[0][s] + lit[1][s] + lit[2][s] + lit[3][s];
      fp_code code;
      fp_lengths(freq, FP_NLIT, FP_LIT_LIMIT, code.lit_lens);
      uint16_t codes[FP_NLIT];
      fp_codes(code.lit_lens, FP_NLIT, codes);
      for (int s = 0; s < FP_NLIT; s++) code.lit[s] = ((uint32_t)code.lit_lens[s] << 16) | codes[s];
      // Distances: one code of one bit, distance 1 (the other is unused).
      static const uint8_t dist_lens[2] = {1, 1};
      fp_bits copy = w;
      fp_write_header(&copy, code.lit_lens, dist_lens, 2, final);
      w = copy;
      for (uint32_t y = y0; y < y1; y++) fp_write_row(&w, code.lit, t, band + (size_t)(y - y0) * n, n);
      fp_put(&w, code.lit[256] & 0xFFFF, code.lit[256] >> 16);  // end of block
      fp_flush(&w);
    }
    // Stored when that is smaller (noise).
    size_t coded_bits = (size_t)(w.out - start.out) * 8 + w.n - start.n;
    size_t stored_bits = (size_t)(y1 - y0) * fp_stored_row_bytes(n) * 8;
    if (coded_bits > stored_bits) {
      w = start;
      for (uint32_t y = y0; y < y1; y++) fp_write_stored(&w, band + (size_t)(y - y0) * n, n, final && y + 1 == y1);
    }
  }
  if (!fp_room(&w, 5)) goto done;
  fp_align(&w);
  w.out[0] = (uint8_t)(adler >> 24);
  w.out[1] = (uint8_t)(adler >> 16);
  w.out[2] = (uint8_t)(adler >> 8);
  w.out[3] = (uint8_t)adler;
  w.out += 4;
  *length = (size_t)(w.out - out);
  status = 0;
done:
  free(band);
  free(table);
  free(seq);
  return status;
}
