// Private EGL / OpenGL ES 3 / GBM plumbing for GLESGlass.
//
// - EGL macros built from casts (EGL_NO_DISPLAY, EGL_NO_CONTEXT, ...) do not import
//   into Swift, so they are re-exported as functions.
// - Extension entry points are not exported by glvnd's libEGL; they are resolved
//   with eglGetProcAddress here.
// - GBM is opened with dlopen so that the binary starts on machines without libgbm.
#ifndef CEGL_H
#define CEGL_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <stddef.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_PLATFORM_GBM_KHR
#define EGL_PLATFORM_GBM_KHR 0x31D7
#endif

static inline EGLDisplay cegl_no_display(void) { return EGL_NO_DISPLAY; }
static inline EGLContext cegl_no_context(void) { return EGL_NO_CONTEXT; }
static inline EGLSurface cegl_no_surface(void) { return EGL_NO_SURFACE; }

/// eglGetPlatformDisplayEXT, or NULL with EGL_BAD_PARAMETER semantics when the
/// entry point is missing (then `*missing` is set to 1).
EGLDisplay cegl_get_platform_display(EGLenum platform, void *native_display, int *missing);

/// eglQueryDevicesEXT. Returns the number of devices (up to `max`), or -1 when
/// the extension entry point is missing.
int cegl_query_devices(EGLDeviceEXT *devices, int max);

/// eglQueryDeviceStringEXT; NULL when missing or failed.
const char *cegl_query_device_string(EGLDeviceEXT device, EGLint name);

/// A GBM device on a DRM render node.
typedef struct {
  int fd;
  void *device;   // struct gbm_device *
  void *library;  // dlopen handle of libgbm
} cegl_gbm;

/// Opens `path` (a DRM render node) and creates a GBM device on it.
/// Returns 0, or -1 with a message in `err`.
int cegl_gbm_open(const char *path, cegl_gbm *out, char *err, size_t err_size);
void cegl_gbm_close(cegl_gbm *gbm);

#endif
