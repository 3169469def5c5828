#include "CEGL.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

EGLDisplay cegl_get_platform_display(EGLenum platform, void *native_display, int *missing) {
  PFNEGLGETPLATFORMDISPLAYEXTPROC get =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (get == NULL) {
    *missing = 1;
    return EGL_NO_DISPLAY;
  }
  *missing = 0;
  return get(platform, native_display, NULL);
}

int cegl_query_devices(EGLDeviceEXT *devices, int max) {
  PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
  if (query == NULL) return -1;
  EGLint count = 0;
  if (!query(max, devices, &count)) return 0;
  return count;
}

const char *cegl_query_device_string(EGLDeviceEXT device, EGLint name) {
  PFNEGLQUERYDEVICESTRINGEXTPROC query =
      (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
  if (query == NULL) return NULL;
  return query(device, name);
}

typedef void *(*gbm_create_device_fn)(int fd);
typedef void (*gbm_device_destroy_fn)(void *device);

int cegl_gbm_open(const char *path, cegl_gbm *out, char *err, size_t err_size) {
  memset(out, 0, sizeof(*out));
  out->fd = -1;
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  void *library = dlopen("libgbm.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    close(fd);
    snprintf(err, err_size, "libgbm.so.1 is not installed (apt-get install libgbm1)");
    return -1;
  }
  gbm_create_device_fn create = (gbm_create_device_fn)dlsym(library, "gbm_create_device");
  if (create == NULL) {
    dlclose(library);
    close(fd);
    snprintf(err, err_size, "libgbm has no gbm_create_device");
    return -1;
  }
  void *device = create(fd);
  if (device == NULL) {
    dlclose(library);
    close(fd);
    snprintf(err, err_size, "gbm_create_device failed on %s", path);
    return -1;
  }
  out->fd = fd;
  out->device = device;
  out->library = library;
  return 0;
}

void cegl_gbm_close(cegl_gbm *gbm) {
  if (gbm->device != NULL && gbm->library != NULL) {
    gbm_device_destroy_fn destroy = (gbm_device_destroy_fn)dlsym(gbm->library, "gbm_device_destroy");
    if (destroy != NULL) destroy(gbm->device);
  }
  if (gbm->library != NULL) dlclose(gbm->library);
  if (gbm->fd >= 0) close(gbm->fd);
  memset(gbm, 0, sizeof(*gbm));
  gbm->fd = -1;
}
