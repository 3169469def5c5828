// Private C plumbing for text: HarfBuzz shapes, FreeType rasterises, fontconfig
// finds fonts by name and for characters a font lacks. Only GLESGlass imports it.
#ifndef GLASS_GPU_CTEXT_H
#define GLASS_GPU_CTEXT_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H
#include FT_OUTLINE_H
#include <hb.h>
#include <hb-ft.h>
#include <fontconfig/fontconfig.h>

// FreeType's load flags are macros built from casts and shifts; Swift sees these.
static const int32_t ctext_load_default = FT_LOAD_DEFAULT;
static const int32_t ctext_load_no_hinting = FT_LOAD_NO_HINTING;
static const int32_t ctext_load_no_bitmap = FT_LOAD_NO_BITMAP;
static const int32_t ctext_render_normal = FT_RENDER_MODE_NORMAL;
static const uint32_t ctext_glyph_format_bitmap = FT_GLYPH_FORMAT_BITMAP;

#endif
